//! Every message is a sentence for a user: run over the bad-input corpus and a set of faults
//! (missing, empty and foreign files, a file where a directory goes, a directory that cannot
//! be written, damaged results), no stderr holds Rust's `Some(`, `None`, `{ ` (Debug output)
//! or a bare `os error N`.

use crate::common::*;

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
