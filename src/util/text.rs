//! Text for messages: shell quoting, control characters escaped, long text clipped.

/// A command line as a shell reads it back: arguments with spaces, quotes or other special
/// characters in single quotes.
pub fn shell_command(argv: &[String]) -> String {
    let quote = |a: &String| {
        let plain = !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
        if plain {
            a.clone()
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    argv.iter().map(quote).collect::<Vec<_>>().join(" ")
}

/// `s` with its control characters (a NUL, an escape, a line end) shown escaped (`\u{0}`,
/// `\u{1b}`, `\n`): what every message passes through before it reaches a terminal or a CSV
/// cell. Returned as it is when it has none.
pub fn escape_controls(s: String) -> String {
    if !s.chars().any(char::is_control) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text shortened for a message or a label: trailing white space dropped, then at most `max`
/// characters, then `…` and the full length, so one huge field cannot flood a terminal or a
/// log; control characters (a NUL, a tab, an escape) shown escaped (`\u{0}`, `\t`,
/// `\u{1b}`), so none reaches a terminal raw. The one clipper every message uses.
pub fn clip(s: &str, max: usize) -> String {
    let s = s.trim_end();
    let n = s.chars().count();
    let mut out = String::new();
    for c in s.chars().take(max) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if n > max {
        out += &format!("… ({n} characters)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_no_raw_control_characters() {
        assert_eq!(escape_controls("plain".into()), "plain");
        assert_eq!(
            escape_controls("a\0b\x1b[31mc\nd".into()),
            "a\\u{0}b\\u{1b}[31mc\\nd"
        );
    }

    #[test]
    fn clip_cuts_long_text_and_escapes_control_characters() {
        assert_eq!(
            clip("st\0art\tx\u{1b}[2J ", 40),
            "st\\u{0}art\\tx\\u{1b}[2J"
        );
        assert_eq!(clip("abcdef", 3), "abc… (6 characters)");
        assert_eq!(clip("abc", 3), "abc");
    }
}
