//! Errors at the library's boundary are typed (CONTRIBUTING.md, "What is public"): no public
//! function under `src/` returns `Result<_, String>` (signatures over several lines read as
//! one), and no public field holds one but those listed here. `scripts/string-errors.sh` is
//! the same scan from the shell. The binary's files (main.rs, cli.rs, commands/) are left
//! out: there a String is the message printed.

use std::path::{Path, PathBuf};

/// Public fields that hold a String error, and why they may.
const FIELDS_ALLOWED: &[(&str, &str)] = &[
    // A knob's declared parser returns its sentence; `Config::set` makes it an OptionError.
    ("src/search/options.rs", "fn(&str) -> Result<T, String>"),
    // A row's problem or why it is invalid: the row's cases.csv message, spooled with the
    // case and written as it is.
    ("src/dataset/mod.rs", "Result<Problem, String>"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if path.is_dir() {
            if name != "commands" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") && name != "main.rs" && name != "cli.rs" {
            out.push(path);
        }
    }
}

/// The error type of the first `Result<…>` in `text`: what follows its top-level comma.
fn error_type(text: &str) -> Option<String> {
    let start = text.find("Result<")? + "Result<".len();
    let (mut depth, mut err, mut seen) = (0, String::new(), false);
    for c in text[start..].chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' if depth == 0 => break,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                seen = true;
                continue;
            }
            _ => {}
        }
        if seen {
            err.push(c);
        }
    }
    Some(err.trim().to_string())
}

/// `FILE:LINE: signature` of each public function, and `(file, type)` of each public field,
/// whose error is a String.
fn string_errors() -> (Vec<String>, Vec<(String, String)>) {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    files.sort();
    let (mut fns, mut fields) = (Vec::new(), Vec::new());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.to_str().unwrap().to_string();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            let words: Vec<&str> = t.split_whitespace().collect();
            let fn_at = words.iter().position(|w| *w == "fn");
            let is_pub_fn = words.first() == Some(&"pub")
                && fn_at.is_some_and(|k| {
                    words[1..k]
                        .iter()
                        .all(|w| matches!(*w, "const" | "async" | "unsafe"))
                });
            if is_pub_fn {
                // The signature: to the first `{` or `;`, over as many lines as it takes.
                let rest = lines[i..].join("\n");
                let end = rest.find(['{', ';']).unwrap_or(rest.len());
                let sig = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
                let returns = sig.split_once("->").map(|(_, r)| r);
                if returns.and_then(error_type).as_deref() == Some("String") {
                    fns.push(format!("{file}:{}: {sig}", i + 1));
                }
            } else if let Some(field) = t.strip_prefix("pub ") {
                let Some((name, ty)) = field.split_once(':') else {
                    continue;
                };
                let is_field = name.trim().chars().all(|c| c.is_alphanumeric() || c == '_');
                if is_field && error_type(ty).as_deref() == Some("String") {
                    fields.push((file.clone(), ty.trim().trim_end_matches(',').to_string()));
                }
            }
        }
    }
    (fns, fields)
}

#[test]
fn no_public_function_returns_a_string_error() {
    let (fns, fields) = string_errors();
    assert!(
        fns.is_empty(),
        "typed errors only (CONTRIBUTING.md):\n{}",
        fns.join("\n")
    );
    let unlisted: Vec<_> = fields
        .iter()
        .filter(|(f, ty)| !FIELDS_ALLOWED.contains(&(f.as_str(), ty.as_str())))
        .collect();
    assert!(
        unlisted.is_empty(),
        "public fields with a String error: {unlisted:?}"
    );
}

/// The scan finds what it looks for: a signature over several lines, a generic error type
/// that is not a String, a nested Result.
#[test]
fn the_string_error_scan_reads_results_as_rust_does() {
    assert_eq!(
        error_type(" Result<(Option<String>, u8), String> ").as_deref(),
        Some("String")
    );
    assert_eq!(
        error_type("Result<Vec<String>, MyError>").as_deref(),
        Some("MyError")
    );
    assert_eq!(
        error_type("Result<Result<u8, String>, E>").as_deref(),
        Some("E")
    );
    assert_eq!(
        error_type("fn(&str) -> Result<T, String>,").as_deref(),
        Some("String")
    );
    assert_eq!(error_type("Option<u8>"), None);
    // Every allowed field is still there: a list that outlives its fields is no guard.
    let (_, fields) = string_errors();
    for (file, ty) in FIELDS_ALLOWED {
        assert!(
            fields.iter().any(|(f, t)| f == file && t == ty),
            "{file}: `{ty}` is gone; drop it from FIELDS_ALLOWED"
        );
    }
}
