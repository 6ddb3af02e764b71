//! Every message is a sentence for a user: run over the bad-input corpus and a set of faults
//! (missing, empty and foreign files, a file where a directory goes, a directory that cannot
//! be written, damaged results), no stderr holds Rust's `Some(`, `None`, `{ ` (Debug output)
//! or a bare `os error N`.

use crate::common::*;
use std::path::PathBuf;

/// The words of Rust's Debug output that must never reach a user.
fn rust_in(text: &str) -> Vec<&'static str> {
    let word = |w: &str| {
        text.match_indices(w).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + w.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    };
    let mut found = Vec::new();
    for (bad, hit) in [
        ("Some(", text.contains("Some(")),
        ("None", word("None")),
        ("{ ", text.contains("{ ")),
        ("os error", text.contains("os error")),
    ] {
        if hit {
            found.push(bad);
        }
    }
    found
}

#[test]
fn no_message_of_the_corpus_or_the_faults_is_rust_debug_output() {
    let dir = temp_dir("messages");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    let results = dir.join("results");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("cases.csv"), "").unwrap();
    std::fs::write(results.join("summary.csv"), "strategy\n").unwrap();
    std::fs::write(
        results.join("latency.hlog"),
        "#[garbage\nTag=astar,0.1,0.2,1,xyz\n",
    )
    .unwrap();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let f = file.to_str().unwrap();
    let r = results.to_str().unwrap();
    let e = empty.to_str().unwrap();
    let mut commands: Vec<Vec<String>> = Vec::new();
    for entry in std::fs::read_dir("tests/corpus").unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|x| x == "csv") {
            let o = out(&format!(
                "corpus-{}",
                p.file_stem().unwrap().to_string_lossy()
            ));
            commands.push(
                ["run", p.to_str().unwrap(), "-s", "astar", "-q", "--out", &o]
                    .map(String::from)
                    .to_vec(),
            );
        }
    }
    let under_file = format!("{f}/sub");
    let faults: Vec<Vec<&str>> = vec![
        vec!["run", "no-such-file.csv", "-q"],
        vec!["run", "tests", "-q"],
        vec!["run", e, "-q"],
        vec!["run", "inputs/seeds.csv", "-q", "--out", f],
        vec!["run", "inputs/seeds.csv", "-q", "--out", &under_file],
        vec!["run", "inputs/seeds.csv", "-q", "--resume"],
        vec![
            "run",
            "inputs/seeds.csv",
            "-s",
            "astar",
            "--heuristic",
            "pdb",
            "--pdb-dir",
            f,
        ],
        vec!["run", "inputs/seeds.csv", "--timeout", "NaN"],
        vec!["run", "inputs/seeds.csv", "--max-nodes", "-5"],
        vec!["gen", "--count", "18446744073709551616"],
        vec!["gen", "--unsolvable", "1", "--depth", "5"],
        vec!["solve", "1 2 3"],
        vec!["compare", r, r],
        vec!["compare", "inputs/seeds.csv", "inputs/ci.csv"],
        vec!["verify", r],
        vec!["plot", r, "--out", f],
        vec!["report", r, "-o", "/dev/null/x.html"],
        vec!["merge", r, r, "--out", "/nonexistent/dir"],
        vec!["pdb", "build", "--size", "3x3", "--pdb-dir", f],
        vec!["pdb", "build", "--size", "3x3", "--pdb-partition", "0-8"],
        vec!["space", "--size", "5x5"],
    ];
    commands.extend(
        faults
            .iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect()),
    );
    let mut bad = Vec::new();
    for c in &commands {
        let o = bin().args(c).output().unwrap();
        let text = stderr(&o) + &String::from_utf8_lossy(&o.stdout);
        assert!(!text.contains("panicked"), "{c:?}: {text}");
        let found = rust_in(&text);
        if !found.is_empty() {
            bad.push(format!("{c:?}: {found:?} in:\n{text}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
    assert!(commands.len() > 40, "{} commands", commands.len());
}

/// Two shards of one small run (`astar` and `bfs-hash` on inputs/per-depth.csv), made once.
fn shards() -> &'static [std::path::PathBuf; 2] {
    static SHARDS: std::sync::OnceLock<[std::path::PathBuf; 2]> = std::sync::OnceLock::new();
    SHARDS.get_or_init(|| {
        let dir = temp_dir("messages-shards");
        [1, 2].map(|i| {
            let out = dir.join(format!("s{i}"));
            run_ok(&[
                "run",
                "inputs/per-depth.csv",
                "-q",
                "-s",
                "astar,bfs-hash",
                "--shard",
                &format!("{i}/2"),
                "--out",
                out.to_str().unwrap(),
            ]);
            out
        })
    })
}

/// Copies of the two shards in a fresh directory, the first's `file` changed by `damage`.
fn damaged_shards(name: &str, file: &str, damage: impl Fn(&str) -> String) -> Vec<PathBuf> {
    let dir = temp_dir(name);
    let copies: Vec<PathBuf> = shards()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let to = dir.join(format!("s{}", i + 1));
            std::fs::create_dir_all(&to).unwrap();
            for e in std::fs::read_dir(s).unwrap() {
                let e = e.unwrap();
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
            to
        })
        .collect();
    let path = copies[0].join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let changed = damage(&text);
    assert_ne!(changed, text, "{name}: the damage changed nothing");
    std::fs::write(&path, changed).unwrap();
    copies
}

/// The lines of a file with line `i` (1-based) changed by `f`.
fn edit_line(text: &str, i: usize, f: impl Fn(&str) -> String) -> String {
    text.lines()
        .enumerate()
        .map(|(n, l)| if n + 1 == i { f(l) } else { l.to_string() } + "\n")
        .collect()
}

/// Every error path of `merge` with a damaged shard: exit 2, a sentence naming the file (and
/// the line where there is one) and saying what to do, and `--out` left as it was found:
/// absent when it was absent, empty when it was empty (a retry into it then succeeds).
#[test]
fn merge_refuses_a_damaged_shard_and_leaves_out_as_it_was() {
    let cases_col = |name: &str| {
        tilebench::report::cases_csv::COLUMNS
            .iter()
            .position(|c| *c == name)
            .unwrap()
    };
    fn set_cell(line: &str, col: usize, v: &str) -> String {
        let mut cells: Vec<&str> = line.split(',').collect();
        cells[col] = v;
        cells.join(",")
    }
    let (steps, latency, status) = (
        cases_col("steps"),
        cases_col("latency_ns"),
        cases_col("status"),
    );
    type Damage = Box<dyn Fn(&str) -> String>;
    let faults: Vec<(&str, &str, Damage, &str)> = vec![
        (
            "hlog",
            "latency.hlog",
            Box::new(|t: &str| t.to_string() + "not an interval\n"),
            "latency.hlog: line",
        ),
        (
            "nan",
            "cases.csv",
            Box::new(move |t: &str| edit_line(t, 8, |l| set_cell(l, latency, "NaN"))),
            "cases.csv:8: column `latency_ns`: `NaN`",
        ),
        (
            "banana",
            "cases.csv",
            Box::new(move |t: &str| edit_line(t, 5, |l| set_cell(l, status, "banana"))),
            "cases.csv:5: column `status`: `banana` is not a status",
        ),
        (
            "steps",
            "cases.csv",
            Box::new(move |t: &str| {
                edit_line(t, 40, |l| {
                    let s: i64 = l.split(',').nth(steps).unwrap().parse().unwrap();
                    set_cell(l, steps, &(s + 2).to_string())
                })
            }),
            "the rows are not those the run wrote",
        ),
        (
            "reordered",
            "cases.csv",
            Box::new(|t: &str| {
                // Swap the second case's two rows with the third's.
                let mut lines: Vec<&str> = t.lines().collect();
                lines.swap(3, 5);
                lines.swap(4, 6);
                lines.join("\n") + "\n"
            }),
            "cases.csv:6: a row of line 4 of `inputs/per-depth.csv` out of place",
        ),
        (
            "deleted",
            "cases.csv",
            Box::new(|t: &str| {
                t.lines()
                    .enumerate()
                    .filter(|(n, _)| *n != 11 && *n != 12)
                    .map(|(_, l)| l.to_string() + "\n")
                    .collect()
            }),
            "rows were deleted",
        ),
        (
            "truncated",
            "cases.csv",
            Box::new(|t: &str| {
                let cut = t.lines().take(20).collect::<Vec<_>>().join("\n");
                cut[..cut.len() - 30].to_string() + "\n"
            }),
            "cases.csv:20: the row has",
        ),
        (
            "summary",
            "summary.csv",
            Box::new(|t: &str| {
                let head: Vec<&str> = t.lines().next().unwrap().split(',').collect();
                let wall = head.iter().position(|c| *c == "wall_s").unwrap();
                edit_line(t, 2, |l| set_cell(l, wall, "NaN"))
            }),
            "wall_s is `NaN`",
        ),
        (
            "runjson",
            "run.json",
            Box::new(|t: &str| t.replacen("\"strategies\"", "\"strategies\" 7", 1)),
            "run.json:",
        ),
    ];
    for (name, file, damage, want) in faults {
        let dirs = damaged_shards(&format!("merge-{name}"), file, damage);
        let parent = dirs[0].parent().unwrap().to_path_buf();
        for (out, existed) in [(parent.join("absent"), false), (parent.join("empty"), true)] {
            if existed {
                std::fs::create_dir_all(&out).unwrap();
            }
            let o = bin()
                .arg("merge")
                .args(&dirs)
                .arg("--out")
                .arg(&out)
                .arg("-q")
                .output()
                .unwrap();
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(err.contains(want), "{name}: wanted {want:?} in {err}");
            assert!(
                err.contains(&dirs[0].display().to_string()),
                "{name}: {err}"
            );
            assert!(err.contains("rerun that shard"), "{name}: {err}");
            assert!(rust_in(&err).is_empty(), "{name}: {err}");
            assert!(!err.contains("CSV error"), "{name}: {err}");
            if existed {
                let left: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
                assert!(
                    left.is_empty(),
                    "{name}: {left:?} left in {}",
                    out.display()
                );
            } else {
                assert!(!out.exists(), "{name}: {} was left", out.display());
            }
        }
        // Mended, the merge into the same --out succeeds.
        for (s, good) in dirs.iter().zip(shards()) {
            std::fs::copy(good.join(file), s.join(file)).unwrap();
        }
        let o = bin()
            .arg("merge")
            .args(&dirs)
            .arg("--out")
            .arg(parent.join("empty"))
            .arg("-q")
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
}
