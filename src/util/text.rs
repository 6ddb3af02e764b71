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
    if !s.chars().any(hidden) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A character a terminal would not show, or would show as something else: a control
/// character, or an invisible format character (a byte-order mark inside a field, a zero-width
/// space or joiner, a line or paragraph separator, a direction mark or override).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Text shortened for a message or a label: trailing white space dropped, then at most `max`
/// characters, then `…` and the full length, so one huge field cannot flood a terminal or a
/// log; control characters (a NUL, a tab, an escape) shown escaped (`\u{0}`, `\t`,
/// `\u{1b}`), so none reaches a terminal raw. The one clipper every message uses.
pub(crate) fn clip(s: &str, max: usize) -> String {
    let s = s.trim_end();
    let n = s.chars().count();
    let mut out = String::new();
    for c in s.chars().take(max) {
        if hidden(c) {
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
    fn invisible_characters_are_shown_escaped() {
        // A byte-order mark inside a field (two files joined by `cat`) and a zero-width space.
        assert_eq!(clip("1 2\u{feff}3", 20), "1 2\\u{feff}3");
        assert_eq!(escape_controls("a\u{200b}b".into()), "a\\u{200b}b");
        assert_eq!(clip("é ü 1 2", 20), "é ü 1 2");
    }

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
