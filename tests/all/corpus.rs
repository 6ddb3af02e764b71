//! The bad-input corpus: `tilebench run` on every file of tests/corpus/, checked against the
//! table in tests/corpus/README.md. No panic (exit 0/1/2 only, no "panicked" on stderr), the
//! outcome the table says (a file error with its message, or per-row statuses with
//! `file:line:` messages), and the good rows beside bad ones solved by every strategy.

use crate::common::*;
use std::collections::BTreeMap;
use std::path::Path;

const DIR: &str = "tests/corpus";

#[derive(Debug)]
enum Outcome {
    FileError {
        excerpt: String,
    },
    Rows {
        rows: BTreeMap<u64, (String, String)>,
        warning: Option<String>,
    },
}

#[derive(Debug)]
struct Expected {
    file: String,
    exit: i32,
    outcome: Outcome,
}

/// Reads the table of tests/corpus/README.md.
fn table() -> Vec<Expected> {
    let text = std::fs::read_to_string(Path::new(DIR).join("README.md")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 4, "table line: {line}");
        let file = cells[0].trim_matches('`').to_string();
        let outcome = cells[2];
        let exit: i32 = outcome
            .split("(exit ")
            .nth(1)
            .and_then(|s| s.split(')').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no (exit N) in {line}"));
        let after = |marker: &str| {
            outcome
                .split_once(marker)
                .map(|(_, e)| e.trim().to_string())
        };
        let outcome = if outcome.starts_with("file error") {
            Outcome::FileError {
                excerpt: after("):").unwrap_or_else(|| panic!("no message in {line}")),
            }
        } else {
            assert!(outcome.starts_with("rows"), "{line}");
            let rows = cells[3]
                .split("<br>")
                .map(|r| {
                    let (n, rest) = r.split_once(':').unwrap_or_else(|| panic!("{r} in {line}"));
                    let (status, excerpt) = match rest.split_once(" — ") {
                        Some((s, e)) => (s.trim(), e.trim()),
                        None => (rest.trim(), ""),
                    };
                    (
                        n.trim().parse::<u64>().unwrap(),
                        (status.to_string(), excerpt.to_string()),
                    )
                })
                .collect();
            Outcome::Rows {
                rows,
                warning: after("warning:"),
            }
        };
        out.push(Expected {
            file,
            exit,
            outcome,
        });
    }
    out
}

#[test]
fn every_corpus_file_is_in_the_table_and_back() {
    let listed: Vec<String> = table().into_iter().map(|e| e.file).collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".csv"))
        .collect();
    on_disk.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(
        sorted, on_disk,
        "tests/corpus/README.md must list every corpus file once"
    );
}

#[test]
fn every_corpus_file_gets_its_expected_outcome() {
    let mut failures = Vec::new();
    for e in table() {
        if let Err(why) = check(&e) {
            failures.push(format!("{}: {why}", e.file));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn check(e: &Expected) -> Result<(), String> {
    let path = format!("{DIR}/{}", e.file);
    let out = temp_dir(&format!("corpus-{}", e.file.trim_end_matches(".csv")));
    // Default strategies: a bad row must not change which strategies run on the file.
    let res = bin()
        .args(["run", &path, "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&res);
    let code = res.status.code();
    if !matches!(code, Some(0..=2)) || err.contains("panicked") {
        return Err(format!("exit {code:?}, stderr:\n{err}"));
    }
    if let Some(c) = err.chars().find(|&c| c.is_control() && c != '\n') {
        return Err(format!("a raw control character {c:?} on stderr:\n{err:?}"));
    }
    if code != Some(e.exit) {
        return Err(format!(
            "exit {code:?}, expected {}; stderr:\n{err}",
            e.exit
        ));
    }
    match &e.outcome {
        Outcome::FileError { excerpt } => {
            let want_prefix = format!("error: {path}");
            if !err
                .lines()
                .any(|l| l.starts_with(&want_prefix) && l.contains(excerpt.as_str()))
            {
                return Err(format!("no `{want_prefix}…{excerpt}` on stderr:\n{err}"));
            }
            if out.join("cases.csv").exists() {
                return Err("a file error must stop the run before any result is written".into());
            }
        }
        Outcome::Rows { rows, warning } => {
            if let Some(w) = warning {
                if !err
                    .lines()
                    .any(|l| l.starts_with("warning: ") && l.contains(w.as_str()))
                {
                    return Err(format!("no warning `{w}` on stderr:\n{err}"));
                }
            }
            if !out.join("cases.csv").is_file() {
                return Err(format!("no cases.csv written; stderr:\n{err}"));
            }
            let (h, got) = read_csv(&out.join("cases.csv"));
            let (line, strategy, status, msg) = (
                col(&h, "line"),
                col(&h, "strategy"),
                col(&h, "status"),
                col(&h, "message"),
            );
            // Every strategy, on every row.
            let strategies: std::collections::BTreeSet<&str> =
                got.iter().map(|r| r[strategy].as_str()).collect();
            let all = tilebench::search::registry::defaults().len();
            if strategies.len() != all {
                return Err(format!(
                    "strategies run: {strategies:?}, expected all {all}"
                ));
            }
            let lines: std::collections::BTreeSet<u64> =
                got.iter().map(|r| r[line].parse().unwrap()).collect();
            let expected_lines: std::collections::BTreeSet<u64> = rows.keys().copied().collect();
            if lines != expected_lines {
                return Err(format!(
                    "rows on lines {lines:?}, expected {expected_lines:?}"
                ));
            }
            for r in &got {
                let n: u64 = r[line].parse().unwrap();
                let (want_status, excerpt) = &rows[&n];
                if &r[status] != want_status {
                    return Err(format!(
                        "line {n} ({}): status {} ({}), expected {want_status}",
                        r[strategy], r[status], r[msg]
                    ));
                }
                if want_status == "invalid" {
                    let at = format!("{path}:{n}: ");
                    if !r[msg].starts_with(&at) || !r[msg][at.len()..].starts_with(excerpt.as_str())
                    {
                        return Err(format!(
                            "line {n}: message `{}`, expected `{at}{excerpt}…`",
                            r[msg]
                        ));
                    }
                    if !err.contains(&format!("invalid: {at}{excerpt}")) {
                        return Err(format!("line {n}: not reported on stderr:\n{err}"));
                    }
                    if r[msg].chars().count() > 400 {
                        return Err(format!("line {n}: a {}-character message", r[msg].len()));
                    }
                }
            }
        }
    }
    Ok(())
}

/// One dataset written with `\n`, `\r\n`, a lone `\r`, or a mix (a different end on each
/// line), with or without a byte-order mark and a final line end.
fn line_end_forms(lines: &[String]) -> Vec<(String, String)> {
    let mut forms = Vec::new();
    let ends: [(&str, &[&str]); 4] = [
        ("LF", &["\n"]),
        ("CRLF", &["\r\n"]),
        ("CR", &["\r"]),
        ("mixed", &["\r\n", "\r", "\n"]),
    ];
    for (name, cycle) in ends {
        for bom in [false, true] {
            for final_end in [true, false] {
                let mut text = String::from(if bom { "\u{feff}" } else { "" });
                for (i, l) in lines.iter().enumerate() {
                    text.push_str(l);
                    if i + 1 < lines.len() || final_end {
                        text.push_str(cycle[i % cycle.len()]);
                    }
                }
                forms.push((format!("{name}, BOM {bom}, final end {final_end}"), text));
            }
        }
    }
    forms
}

/// What a dataset reads as: per case, its line, id, expected_steps and problem or message.
fn read_as(text: &str) -> Vec<String> {
    use tilebench::dataset::{parse_dataset, InputOptions};
    let (file, cases) = parse_dataset("d.csv", text.as_bytes(), &InputOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(file.rows, cases.len());
    cases
        .iter()
        .map(|c| {
            let problem = match &c.problem {
                Ok(p) => format!("{} → {}", p.start, p.goal),
                Err(e) => e.clone(),
            };
            format!("{}|{}|{:?}|{problem}", c.line, c.id, c.expected_steps)
        })
        .collect()
}

#[test]
fn every_line_ending_with_comments_reads_the_same() {
    // Comments before the header, right after it, between rows and at the end; a blank and
    // a whitespace-only line; a quoted field; a bad row.
    let lines: Vec<String> = [
        "# made by hand",
        "",
        "# columns: id, start, goal, expected_steps",
        "id,start,goal,expected_steps",
        "# the rows",
        "a,1 2 3 4 5 6 7 x 8,,1",
        "   ",
        "b,\"1 2 3 4 5 6 7 7 x\",,",
        "# between rows",
        "c,2 3 4 1 5 x 7 6 8,,19",
        "# the end",
    ]
    .map(String::from)
    .to_vec();
    let want = read_as(&(lines.join("\n") + "\n"));
    // Counted by hand: rows on lines 6, 8 and 10; line 8 repeats tile 7.
    let at: Vec<&str> = want.iter().map(|c| c.split('|').next().unwrap()).collect();
    assert_eq!(at, ["6", "8", "10"]);
    assert!(want[1].contains("d.csv:8: start: cell 8: tile 7 appears more than once"));
    for (form, text) in line_end_forms(&lines) {
        assert_eq!(read_as(&text), want, "{form}");
    }

    // Large enough to be read in parallel pieces (no quotes), with comments every few rows.
    let mut big = vec!["# a big file".to_string(), "id,start,expected_steps".into()];
    for i in 0..60_000 {
        big.push(match i % 7 {
            0 => format!("# comment {i}"),
            3 => format!("{i},1 2 3 4 5 6 7 7 x,"),
            _ => format!("{i},1 2 3 4 5 6 7 x 8,1"),
        });
    }
    let want = read_as(&(big.join("\n") + "\n"));
    assert_eq!(want.len(), 60_000 - 60_000 / 7 - 1);
    for (form, text) in line_end_forms(&big) {
        assert!(text.len() > 1 << 20);
        assert_eq!(read_as(&text), want, "{form}");
    }
}
