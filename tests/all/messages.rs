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
    // Every run gets an --out here: a test never writes into the checkout.
    let pdb_out = out("pdb-dir-a-file");
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
            "-q",
            "--out",
            &pdb_out,
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
        tilebench::results::cases_csv::columns()
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

/// A finished run of astar and bfs-hash on inputs/per-depth.csv in a fresh directory
/// (`extra` added to the command).
fn verified_run(name: &str, extra: &[&str]) -> PathBuf {
    let out = temp_dir(name).join("run");
    let mut a = vec![
        "run",
        "inputs/per-depth.csv",
        "-q",
        "-s",
        "astar,bfs-hash",
        "--out",
        out.to_str().unwrap(),
    ];
    a.extend_from_slice(extra);
    run_ok(&a);
    out
}

fn verify(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let o = bin().arg("verify").args(args).output().unwrap();
    let err = stderr(&o);
    assert!(rust_in(&err).is_empty(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code(), err)
}

/// verify fails closed: a run made without --paths is verified for what can be, says how
/// many paths were replayed and why not, and exits 1 unless --no-paths accepts it.
#[test]
fn verify_of_a_run_without_paths_says_so_and_fails_unless_accepted() {
    let run = verified_run("verify-no-paths", &[]);
    let (code, err) = verify(&[run.as_os_str()]);
    // The 6 replayed are the 0-move answers (start = goal): an empty path.
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("verify: ok, 6 of 192 paths replayed (the run was made without --paths)"),
        "{err}"
    );
    assert!(!err.lines().any(|l| l == "verify: ok"), "{err}");
    let (code, err) = verify(&[run.as_os_str(), "--no-paths".as_ref()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("6 of 192 paths replayed"), "{err}");
}

/// Every error path of verify, each a sentence naming the file (the line and column where
/// there is one) and saying what to do: rows deleted, duplicated or moved (against run.json),
/// a cases.csv without its run.json, an unknown status, a truncated row, a damaged run.json,
/// a path that does not exist.
#[test]
fn verify_names_each_fault_and_fails_closed() {
    let good = verified_run("verify-faults", &["--paths"]);
    let (code, err) = verify(&[good.as_os_str()]);
    assert_eq!(
        (code, err.lines().last()),
        (Some(0), Some("verify: ok")),
        "{err}"
    );
    let text = std::fs::read_to_string(good.join("cases.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let status = tilebench::results::cases_csv::columns()
        .iter()
        .position(|c| *c == "status")
        .unwrap();
    let with = |skip: &[usize], extra: &[(usize, String)]| -> String {
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            if !skip.contains(&i) {
                out += &format!("{l}\n");
            }
            for (at, e) in extra {
                if *at == i {
                    out += &format!("{e}\n");
                }
            }
        }
        out
    };
    let mut banana: Vec<String> = lines[7].split(',').map(String::from).collect();
    banana[status] = "banana".into();
    let cases: Vec<(&str, String, &str, i32, &str)> = vec![
        // (name, cases.csv, run.json, exit code, wanted)
        (
            "deleted",
            with(&[21, 22], &[]),
            "",
            1,
            "190 rows, but run.json's 96 cases × 2 solvers make 192: rows were deleted",
        ),
        (
            "duplicated",
            with(&[], &[(30, lines[30].to_string())]),
            "",
            1,
            "cases.csv:32: a row of `bfs-hash` where `astar`'s belongs",
        ),
        (
            "banana",
            with(&[7], &[(6, banana.join(","))]),
            "",
            2,
            "cases.csv:8: column `status`: `banana` is not a status",
        ),
        (
            "truncated",
            with(&[], &[])
                .lines()
                .take(20)
                .collect::<Vec<_>>()
                .join("\n")[..]
                .rsplit_once(',')
                .unwrap()
                .0
                .to_string()
                + "\n",
            "",
            2,
            "cases.csv:20:",
        ),
        (
            "runjson",
            text.clone(),
            "{\"strategies\": 7}",
            2,
            "run.json:1:16: not a tilebench run.json",
        ),
        ("bare", text.clone(), "-", 1, "there is no run.json beside"),
    ];
    for (name, csv, json, want_code, want) in cases {
        let dir = temp_dir(&format!("verify-{name}"));
        std::fs::write(dir.join("cases.csv"), &csv).unwrap();
        match json {
            "" => drop(std::fs::copy(good.join("run.json"), dir.join("run.json")).unwrap()),
            "-" => {}
            j => std::fs::write(dir.join("run.json"), j).unwrap(),
        }
        let (code, err) = verify(&[dir.as_os_str()]);
        assert_eq!(code, Some(want_code), "{name}: {err}");
        assert!(err.contains(want), "{name}: wanted {want:?} in {err}");
        assert!(err.contains(&dir.display().to_string()), "{name}: {err}");
        assert!(!err.lines().any(|l| l == "verify: ok"), "{name}: {err}");
    }
    // A value edited in place (the row count and order intact): the checksum catches it.
    let edited = temp_dir("verify-edited");
    let latency = tilebench::results::cases_csv::columns()
        .iter()
        .position(|c| *c == "latency_ns")
        .unwrap();
    let mut row: Vec<String> = lines[40].split(',').map(String::from).collect();
    row[latency] = (row[latency].parse::<u64>().unwrap() + 1).to_string();
    std::fs::write(
        edited.join("cases.csv"),
        with(&[40], &[(39, row.join(","))]),
    )
    .unwrap();
    std::fs::copy(good.join("run.json"), edited.join("run.json")).unwrap();
    let (code, err) = verify(&[edited.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the file is not the one the run wrote"),
        "{err}"
    );
    // A run made on 2026-12-04 or 12-05 recorded cases.csv's FNV-1a (`cases_fnv1a64`) in
    // place of XXH3: verify still checks it, and still catches the edit.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(good.join("run.json")).unwrap()).unwrap();
    let fields = json.as_object_mut().unwrap();
    assert!(fields.remove("cases_xxh3_64").is_some());
    for (name, file, code_wanted) in [("older-edited", &edited, 1), ("older", &good, 0)] {
        let dir = temp_dir(&format!("verify-{name}"));
        let bytes = std::fs::read(good.join("cases.csv")).unwrap();
        fields.insert("cases_fnv1a64".into(), fnv1a64(&bytes).into());
        std::fs::copy(file.join("cases.csv"), dir.join("cases.csv")).unwrap();
        std::fs::write(dir.join("run.json"), serde_json::to_string(fields).unwrap()).unwrap();
        let (code, err) = verify(&[dir.as_os_str()]);
        assert_eq!(code, Some(code_wanted), "{name}: {err}");
        assert_eq!(
            err.contains("the file is not the one the run wrote"),
            code_wanted == 1,
            "{name}: {err}"
        );
    }

    let (code, err) = verify(&["/nonexistent".as_ref()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("/nonexistent: no such file or directory; give the results directory"),
        "{err}"
    );
}

/// `--pdb-partition`'s messages: a size too large to read is out of range (not "not a
/// partition"), and the example given is one for the run's boards (not 6-6-3 on 3x3).
#[test]
fn partition_messages_fit_the_boards() {
    let run = |partition: &str| {
        let o = bin()
            .args([
                "run",
                "inputs/seeds.csv",
                "-q",
                "-s",
                "astar",
                "--heuristic",
                "pdb",
            ])
            .args(["--pdb-partition", partition, "--out"])
            .arg(temp_dir("partition-messages").join("run"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    let err = run("99999999999999999999-1");
    assert!(
        err.contains(
            "a group of 99999999999999999999 tiles is out of range: a 3x3 board has 8 tiles"
        ),
        "{err}"
    );
    let err = run("six-two");
    assert!(
        err.contains("`six-two` is not a partition: write the group sizes of a 3x3 board"),
        "{err}"
    );
    for e in [&run("99999999999999999999-1"), &err] {
        assert!(!e.contains("6-6-3"), "{e}");
    }
}

/// A run killed after its first results, for the resume messages (its command and `--out`).
fn killed_run(name: &str) -> (Vec<String>, PathBuf) {
    use std::os::unix::process::ExitStatusExt;
    let out = temp_dir(name).join("run");
    let args: Vec<String> = [
        "run",
        "inputs/per-depth.csv",
        "-q",
        "-s",
        "astar,bfs-hash",
        "--threads",
        "1",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect();
    let o = bin()
        .args(&args)
        .env("TILEBENCH_CRASH_AT", "pass-ended:1")
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    (args, out)
}

/// A resume refused for a changed option says "not set" for an option not given (not
/// JSON's `null`); a junk journal-passes.csv (it holds only times) does not refuse the
/// resume: it is started again, with a notice saying what was lost.
#[test]
fn resume_messages_say_what_to_do() {
    let (args, out) = killed_run("resume-messages");
    let o = bin()
        .args(&args)
        .args(["--max-nodes", "1000000", "--resume"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--max-nodes: `1000000` now, not set when started"),
        "{err}"
    );
    assert!(rust_in(&err).is_empty() && !err.contains("null"), "{err}");

    let passes = out.join("journal-passes.csv");
    std::fs::write(&passes, "garbage,lines\n1,2,3\n").unwrap();
    let o = bin().args(&args).arg("--resume").output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains(&format!("{}", passes.display())), "{err}");
    assert!(
        err.contains(
            "holds only the earlier sessions' times, not results, so it was started again"
        ),
        "{err}"
    );
    assert!(out.join("cases.csv").is_file());
    let v = bin()
        .arg("verify")
        .arg(&out)
        .arg("--no-paths")
        .output()
        .unwrap();
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
}

/// run's closing line: "1 strategy" (not "1 strategies"), and the whole run's wall time
/// beside the time spent solving (which is part of it).
#[test]
fn runs_closing_line_gives_whole_and_solving_time() {
    let out = temp_dir("closing-line").join("run");
    let o = run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-q",
        "-s",
        "astar",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    let line = err
        .lines()
        .find(|l| l.contains("96 cases × 1 strategy on "))
        .unwrap_or_else(|| panic!("{err}"));
    let (_, rest) = line.split_once(" threads in ").unwrap();
    let (whole, rest) = rest.split_once(" s (").unwrap();
    let (solving, _) = rest.split_once(" s of it solving); results in ").unwrap();
    let (whole, solving): (f64, f64) = (whole.parse().unwrap(), solving.parse().unwrap());
    assert!(whole >= solving && solving >= 0.0, "{line}");
}

/// Plan errors speak the plan's words in the library and name the flag on the command line:
/// the binary adds `--strategy`, `--save-baseline` and `-s` where the user typed them.
#[test]
fn plan_errors_name_flags_only_on_the_command_line() {
    use tilebench::error::PlanError;
    use tilebench::harness::plan::RunPlan;
    let cli = |args: &[&str]| {
        let res = bin()
            .args(["run", "inputs/seeds.csv", "-q"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(2), "{args:?}");
        stderr(&res)
    };
    let err = cli(&["-s", "astar", "--save-baseline", "a/b"]);
    assert!(
        err.contains("--save-baseline `a/b`: a baseline name is one plain word, e.g. `main`"),
        "{err}"
    );
    let err = cli(&["-s", "none"]);
    assert!(
        err.contains(
            "--strategy none leaves nothing to run; add --solver NAME=COMMAND or name a strategy"
        ),
        "{err}"
    );
    let err = cli(&["-s", "Astra"]);
    assert!(
        err.contains("--strategy: unknown strategy `Astra`"),
        "{err}"
    );
    let err = cli(&["-s", "a=astar", "-s", "a=idastar:heuristic=manhattan"]);
    assert!(
        err.contains(
            "-s: two configurations are labelled `a`; give one a label of its own (-s \
             LABEL=NAME:KEY=VALUE)"
        ),
        "{err}"
    );

    let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
        .with_strategies("astar")
        .unwrap()
        .saving_baseline("a/b");
    let text = plan.check().unwrap_err().to_string();
    assert_eq!(
        text,
        "`a/b` cannot name a baseline: a baseline name is one plain word, e.g. `main`"
    );
    let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
        .with_strategies("astar")
        .unwrap()
        .with_repeat(0);
    let e = plan.check().unwrap_err();
    assert_eq!(e, PlanError::NoRepeats);
    for text in [
        e.to_string(),
        PlanError::NothingToRun.to_string(),
        PlanError::LabelTaken { label: "a".into() }.to_string(),
    ] {
        assert!(!text.contains("--") && !text.contains("-s"), "{text}");
    }
}

/// A solver's option at fault (a partition that does not fit the boards) is named in the
/// library's words (`partition`), and by its flag (`--pdb-partition`) on the command line;
/// the rest of the sentence is the same.
#[test]
fn solver_errors_name_flags_only_on_the_command_line() {
    use tilebench::prelude::{run, RunPlan};
    use tilebench::search::configuration::Configuration;
    use tilebench::search::{Config, Solver};
    let reason = "partition 4-5 covers 9 tiles, but a 3x3 board has 8 (the blank is in no \
                  group): give group sizes that add up to 8, e.g. 6-2 (for the 3x3 boards)";
    // The solver's own error: the option, typed.
    let c = Configuration::parse("astar:heuristic=pdb:partition=4-5", &Config::default()).unwrap();
    let e = c
        .build()
        .supports(tilebench::puzzle::Shape::new(3, 3).unwrap())
        .unwrap_err();
    assert_eq!(e.option().map(|o| o.name()), Some("partition"));
    assert_eq!(e.reason(), reason);
    assert_eq!(e.to_string(), format!("partition: {reason}"));
    // A run through the library: the solver's name, then the option in its words.
    let out = temp_dir("solver-error-words");
    let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
        .with(c)
        .with_out(out.join("lib"));
    let text = run(plan).err().unwrap().to_string();
    let label = "astar:heuristic=pdb:partition=4-5";
    assert_eq!(text, format!("{label}: partition: {reason}"));
    assert!(!text.contains("--"), "{text}");
    // The command line: the flag, whether the partition came from it or a configuration.
    for (args, label) in [
        (
            &[
                "-s",
                "astar",
                "--heuristic",
                "pdb",
                "--pdb-partition",
                "4-5",
            ][..],
            "astar",
        ),
        (&["-s", label][..], label),
    ] {
        let o = bin()
            .args(["run", "inputs/seeds.csv", "-q"])
            .args(args)
            .arg("--out")
            .arg(out.join("cli"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("error: {label}: --pdb-partition: {reason}")),
            "{args:?}: {err}"
        );
    }
    let o = bin()
        .args([
            "solve",
            "--heuristic",
            "pdb",
            "--pdb-partition",
            "4-5",
            "1 2 3 4 5 6 7 x 8",
        ])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(
        err.contains(&format!("error: board 1: --pdb-partition: {reason}")),
        "{err}"
    );
    // A row's message is kept as the command line has always written it (cases.csv): a 6x6
    // board is beyond the pattern databases' boards, found when its case is solved.
    let six = out.join("six.csv");
    let cells: Vec<String> = (1..=34).map(|i| i.to_string()).collect();
    std::fs::write(&six, format!("start\n{} x 35\n", cells.join(" "))).unwrap();
    let o = bin()
        .args(["run", "-q", "-s", "idastar", "--heuristic", "pdb", "--out"])
        .arg(out.join("six"))
        .arg(&six)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let rows = tilebench::results::cases_csv::read(&out.join("six").join("cases.csv")).unwrap();
    assert_eq!(
        rows[0].message,
        format!(
            "{}:2: idastar: --pdb-partition: pattern databases are built for boards of at most \
             25 cells (5x5), and a 6x6 board has 36; for larger boards use --heuristic \
             manhattan or linear-conflict (for the 6x6 boards)",
            six.display()
        )
    );
}

/// A solver's error said of the solver keeps its option: the command line names the flag
/// after the solver's name, as it does for the runner's text.
#[test]
fn a_solver_error_in_a_solver_keeps_its_option() {
    use tilebench::search::{pdb::PARTITION, SolveError};
    let e = SolveError::of_option(&PARTITION, "it does not fit").in_solver("astar:lookup=max");
    assert_eq!(
        e.to_string(),
        "astar:lookup=max: partition: it does not fit"
    );
    assert_eq!(e.option().map(|o| o.name()), Some("partition"));
    assert_eq!(
        (e.solver(), e.reason()),
        (Some("astar:lookup=max"), "it does not fit")
    );
    assert_eq!(SolveError::new("plain").reason(), "plain");
    assert_eq!(SolveError::new("plain").option().map(|o| o.name()), None);
}

/// The run's settings parsed by the library (configurations, sweeps, external solvers,
/// allowances, per-solver options) say what is wrong in the library's words; the command line
/// says it with the flag the user typed, word for word as it always has.
#[test]
fn option_errors_name_flags_only_on_the_command_line() {
    use tilebench::check::AllowLimit;
    use tilebench::cli_support::PerSolver;
    use tilebench::external::protocol::{Blank, Protocol, Spawn};
    use tilebench::external::ExternalSolver;
    use tilebench::search::configuration::{sweep, Configuration};
    use tilebench::search::{Claim, Config};
    let cli = |args: &[&str]| {
        let res = bin()
            .args(["run", "inputs/seeds.csv", "-q", "--out"])
            .arg(temp_dir("option-errors").join("run"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(2), "{args:?}");
        stderr(&res)
    };
    let base = Config::default();
    let external = |spec: &str| {
        ExternalSolver::parse(spec, Protocol::Moves, Blank::X, Spawn::Persistent)
            .unwrap_err()
            .to_string()
    };
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<(Vec<&str>, String, &str)> = vec![
        (
            vec!["-s", "=astar"],
            Configuration::parse("=astar", &base).err().unwrap().to_string(),
            "-s =astar: the label before `=` is empty; give a word (`-s fast=wastar`), or drop \
             the `=`",
        ),
        (
            vec!["-s", "wastar:weight=2:weight=3"],
            Configuration::parse("wastar:weight=2:weight=3", &base).err().unwrap().to_string(),
            "-s wastar:weight=2:weight=3: `weight` is given twice",
        ),
        (
            vec!["-s", "astar", "--sweep", "heuristic"],
            sweep(names(&["astar"]), "heuristic", &base).unwrap_err().to_string(),
            "--sweep heuristic: write KEY=V1,V2,…, e.g. --sweep heuristic=manhattan,linear-conflict",
        ),
        (
            vec!["-s", "astar", "--sweep", "speed=1"],
            sweep(names(&["astar"]), "speed=1", &base).unwrap_err().to_string(),
            "--sweep speed=1: no strategy takes an option `speed` (`run -s list` lists each one's)",
        ),
        (
            vec!["-s", "astar", "--sweep", "weight=2,3"],
            sweep(names(&["astar"]), "weight=2,3", &base).unwrap_err().to_string(),
            "--sweep weight=2,3: no strategy chosen with -s takes `weight` (it is read by \
             wastar), or each sets it already; sweep a key once, over all its values",
        ),
        (
            vec!["--solver", "./x"],
            external("./x"),
            "--solver `./x`: write NAME=COMMAND, e.g. --solver mine=\"./eight\"",
        ),
        (
            vec!["--solver", "astar=./x"],
            external("astar=./x"),
            "--solver `astar=./x`: `astar` is the name of a built-in strategy (or a keyword of \
             --strategy); choose another name, e.g. `my-astar`",
        ),
        (
            vec!["--solver", "mine="],
            external("mine="),
            "--solver `mine=`: no command after `=`; give the program to run, e.g. --solver \
             mine=\"./eight\"",
        ),
        (
            vec!["--check", "--allow-limit", "a=1", "--allow-limit", "A=2"],
            AllowLimit::new(["a=1", "A=2"]).unwrap_err().to_string(),
            "--allow-limit A=2: `A` is given twice; give each solver once",
        ),
        (
            vec!["--check", "--allow-limit", "1", "--allow-limit", "2"],
            AllowLimit::new(["1", "2"]).unwrap_err().to_string(),
            "--allow-limit 2: a number for the solvers not named is given twice; give it once",
        ),
        (
            vec!["--solver", "bob=./x", "--solver-claim", "eve=valid"],
            PerSolver::<Claim>::parse("solver-claim", &names(&["eve=valid"]))
                .unwrap()
                .check_names("solver-claim", &["bob"])
                .unwrap_err()
                .to_string(),
            "--solver-claim eve=…: `eve` is not a --solver NAME (the run's are bob); name an \
             external solver of the run",
        ),
    ];
    for (args, library, command_line) in cases {
        let err = cli(&args);
        assert!(
            err.contains(&format!("error: {command_line}\n")),
            "{args:?}: {err}"
        );
        assert!(
            !library.contains("--") && !library.contains("-s "),
            "{library}"
        );
    }
}

/// A table that cannot be cached says so in the library's words (the directory for the
/// tables) to a library user, and names `--pdb-dir` on the command line.
#[test]
fn pdb_notices_name_flags_only_on_the_command_line() {
    use tilebench::observe::Collect;
    use tilebench::search::pdb::{load_or_build, Partition};
    let dir = temp_dir("pdb-notice-words");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let shape = tilebench::puzzle::Shape::new(3, 3).unwrap();
    let seen = Collect::default();
    let set = load_or_build(
        shape,
        8,
        &Partition::parse("4-4", shape).unwrap(),
        &file,
        &seen,
    );
    assert_eq!(set.tables.len(), 2);
    let words = format!(
        "pdb: the table is not cached: {} is a file, not a directory; give a directory for the \
         tables (it is used anyway; choose a writable directory for the tables with room to \
         keep it)",
        file.display()
    );
    let notices = seen.notices();
    assert!(notices.contains(&words), "{notices:#?}");
    assert!(notices.iter().all(|n| !n.contains("--")), "{notices:#?}");
    let o = bin()
        .args([
            "run",
            "inputs/seeds.csv",
            "-q",
            "-s",
            "astar",
            "--heuristic",
            "pdb",
        ])
        .args(["--pdb-partition", "4-4", "--pdb-dir"])
        .arg(&file)
        .arg("--out")
        .arg(dir.join("run"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let flags = format!(
        "pdb: the table is not cached: {} is a file, not a directory; give a directory as \
         --pdb-dir (it is used anyway; choose a writable --pdb-dir with room to keep it)",
        file.display()
    );
    assert!(stderr(&o).contains(&flags), "{}", stderr(&o));
}

/// A heuristic that does not take a board says which to use instead: in the library's words
/// (the `heuristic` option) from the solver, with `--heuristic` on the command line and in
/// a row's message (cases.csv keeps the command line's words).
#[test]
fn heuristic_errors_name_flags_only_on_the_command_line() {
    use tilebench::puzzle::Shape;
    use tilebench::search::configuration::Configuration;
    use tilebench::search::{Config, Solver};
    let solver = |spec: &str| {
        Configuration::parse(spec, &Config::default())
            .unwrap()
            .build()
    };
    let dir = temp_dir("heuristic-words");
    // A 2x7 board has too many lines for walking distance: the run's error.
    let e = solver("astar:heuristic=walking-distance")
        .supports(Shape::new(2, 7).unwrap())
        .unwrap_err();
    let said = |how: &str| {
        format!(
            "walking distance takes boards of at most 6 rows and columns; a 2x7 board has 7 \
             lines, whose table would hold millions of matrices: use {how}"
        )
    };
    assert_eq!(e.to_string(), said("the linear-conflict or pdb heuristic"));
    assert_eq!(
        e.message_with_flags(),
        said("--heuristic linear-conflict or pdb")
    );
    let long = dir.join("long.csv");
    std::fs::write(&long, "start,size\n1 2 3 4 5 6 7 8 9 10 11 12 x 13,2x7\n").unwrap();
    let o = bin()
        .args([
            "run",
            "-q",
            "-s",
            "astar",
            "--heuristic",
            "walking-distance",
        ])
        .arg("--out")
        .arg(dir.join("long"))
        .arg(&long)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "error: astar: {}\n",
            said("--heuristic linear-conflict or pdb")
        )
    );
    // A 5x5 board is beyond walking distance's boards: the solver's error, and the row's.
    let e = solver("astar:heuristic=walking-distance")
        .supports(Shape::new(5, 5).unwrap())
        .unwrap_err();
    let said = |how: &str| {
        format!(
            "the walking-distance heuristic takes boards of at most 16 cells, and this 5x5 \
             board has 25: use the manhattan or linear-conflict heuristic ({how})"
        )
    };
    assert_eq!(e.to_string(), said("the `heuristic` option"));
    let flags = said("`--heuristic`, or `:heuristic=` in a configuration");
    assert_eq!(e.message_with_flags(), flags);
    let five = dir.join("five.csv");
    let cells: Vec<String> = (1..=23).map(|i| i.to_string()).collect();
    std::fs::write(&five, format!("start\n{} x 24\n", cells.join(" "))).unwrap();
    let o = bin()
        .args([
            "run",
            "-q",
            "-s",
            "idastar",
            "--heuristic",
            "walking-distance",
        ])
        .arg("--out")
        .arg(dir.join("five"))
        .arg(&five)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let rows = tilebench::results::cases_csv::read(&dir.join("five").join("cases.csv")).unwrap();
    assert_eq!(
        rows[0].message,
        format!("{}:2: idastar: {flags}", five.display())
    );
}

/// A results directory refused says what to do in the plan's words (its `out`, the modes
/// Resume and Force) to a library user, and names `--out`, `--resume` and `--force` on the
/// command line, word for word as the command line always has.
#[test]
fn results_directory_errors_name_flags_only_on_the_command_line() {
    use tilebench::harness::plan::OutMode;
    use tilebench::prelude::{run, RunPlan};
    let dir = temp_dir("rundir-words");
    let library = |out: &std::path::Path, mode: OutMode| {
        let mut plan = RunPlan::new(vec!["inputs/per-depth.csv".into()])
            .with_strategies("astar,bfs-hash")
            .unwrap();
        plan = plan.with_out(out).with_mode(mode).with_threads(1);
        let text = run(plan).err().unwrap().to_string();
        assert!(!text.contains("--"), "{text}");
        text
    };
    let cli = |out: &std::path::Path, extra: &[&str]| {
        let o = bin()
            .args(["run", "inputs/per-depth.csv", "-q", "-s", "astar,bfs-hash"])
            .args(["--threads", "1", "--out"])
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    // A file where the directory goes.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let said = |what: &str| {
        format!(
            "the output directory {} is a file, not a directory; choose another {what}",
            file.display()
        )
    };
    assert_eq!(library(&file, OutMode::New), said("results directory"));
    assert_eq!(cli(&file, &[]), format!("error: {}\n", said("--out")));
    // A finished run: refused, and refused again when resumed.
    let done = dir.join("done");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-q",
        "-s",
        "astar",
        "--out",
        done.to_str().unwrap(),
    ]);
    let d = done.display();
    assert_eq!(
        library(&done, OutMode::New),
        format!(
            "{d} already holds a run; overwrite it (the plan's mode Force), or choose another \
             results directory"
        )
    );
    assert_eq!(
        cli(&done, &[]),
        format!(
            "error: {d} already holds a run; pass --force to overwrite it, or choose another \
             --out\n"
        )
    );
    let finished = |how: &str| {
        format!(
            "{d} holds a finished run (run.json, no manifest): nothing to resume; use it as it \
             is, or {how} to run it again"
        )
    };
    assert_eq!(
        library(&done, OutMode::Resume),
        finished("give the plan the mode Force instead of Resume")
    );
    assert_eq!(
        cli(&done, &["--resume"]),
        format!("error: {}\n", finished("pass --force instead of --resume"))
    );
    // A journal without its manifest.
    let orphan = dir.join("orphan");
    std::fs::create_dir_all(&orphan).unwrap();
    std::fs::write(orphan.join("journal-slots.bin"), "").unwrap();
    let no_manifest = |how: &str| {
        format!(
            "{} holds a journal (journal-slots.bin) without its manifest (manifest.json), so \
             the run it belongs to cannot be told and it cannot be resumed safely; {how} to \
             start the run again (the journal is discarded), or move the directory away to \
             keep it",
            orphan.display()
        )
    };
    assert_eq!(
        library(&orphan, OutMode::New),
        no_manifest("give the plan the mode Force")
    );
    assert_eq!(
        cli(&orphan, &[]),
        format!("error: {}\n", no_manifest("pass --force"))
    );
    // An unfinished run: started anew, and resumed with another option.
    let (_, killed) = killed_run("rundir-words-killed");
    let k = killed.display();
    assert_eq!(
        library(&killed, OutMode::New),
        format!(
            "{k} holds an unfinished run (journal-slots.bin); resume it to finish it (the \
             plan's mode Resume), or start it again (Force)"
        )
    );
    assert_eq!(
        cli(&killed, &[]),
        format!(
            "error: {k} holds an unfinished run (journal-slots.bin); add --resume to finish \
             it, or pass --force to start it again\n"
        )
    );
    assert_eq!(
        cli(&killed, &["--max-nodes", "1000000", "--resume"]),
        format!(
            "error: {k} holds a run started with other inputs or options, so --resume cannot \
             finish it with this command:\n  --max-nodes: `1000000` now, not set when \
             started\nresume it with the command it was started with (`command` in \
             {k}/manifest.json), or start a new run with another --out (or --force)\n"
        )
    );
    let mut plan = RunPlan::new(vec!["inputs/per-depth.csv".into()])
        .with_strategies("astar,bfs-hash")
        .unwrap();
    plan = plan
        .with_out(&killed)
        .with_mode(OutMode::Resume)
        .with_limits(tilebench::search::Limits {
            max_nodes: Some(1_000_000),
            ..Default::default()
        });
    let text = run(plan).err().unwrap().to_string();
    assert!(
        text.starts_with(&format!(
            "{k} holds a run started with other inputs or options, so it cannot be resumed \
             with this plan:\n  "
        )),
        "{text}"
    );
    assert!(
        text.contains("\n  max-nodes: `1000000` now, not set when started\n"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!(
            "resume it with the plan it was started with (`command` in {k}/manifest.json), or \
             start a new run in another results directory (or with the mode Force)"
        )),
        "{text}"
    );
    assert!(!text.contains("--"), "{text}");
}

/// Shards refused say how to run a shard in the plan's words to a library user, and with
/// `tilebench run … --shard I/N` on the command line.
#[test]
fn merge_errors_name_flags_only_on_the_command_line() {
    use tilebench::harness::merge::merge;
    let dir = temp_dir("merge-words");
    let [first, _] = shards();
    let e = merge(
        std::slice::from_ref(first),
        &dir.join("lib"),
        false,
        Vec::new(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "shard(s) 2/2 missing: pass the output directory of every shard of the split (run them \
         with the plan's shard I/2)"
    );
    let o = bin()
        .arg("merge")
        .arg(first)
        .arg("--out")
        .arg(dir.join("cli"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "error: shard(s) 2/2 missing: pass the output directory of every shard of the split \
         (run them with `tilebench run … --shard I/2`)\n"
    );
    // A shard refused for its files: the rerun in the plan's words.
    let copies = damaged_shards("merge-words-damaged", "cases.csv", |_| String::new());
    let e = merge(&copies, &dir.join("lib2"), false, Vec::new()).unwrap_err();
    let words = e.to_string();
    assert!(
        words.ends_with(
            "rerun that shard (its plan's shard I/N, with the mode Force) and merge again"
        ),
        "{words}"
    );
    assert!(!words.contains("--"), "{words}");
    let o = bin()
        .arg("merge")
        .args(&copies)
        .arg("--out")
        .arg(dir.join("cli2"))
        .output()
        .unwrap();
    assert_eq!(
        stderr(&o),
        format!(
            "error: {}\n",
            words.replace(
                "rerun that shard (its plan's shard I/N, with the mode Force) and merge again",
                "rerun that shard (`tilebench run … --shard I/N --force`) and merge again"
            )
        )
    );
}

/// An external program's notices and errors name its options in the library's words
/// (`strict`) to a library user, and by their flags (`--solver-strict`) on the command line
/// and in cases.csv, word for word as before.
#[test]
fn program_notices_name_flags_only_on_the_command_line() {
    use std::sync::atomic::AtomicBool;
    use tilebench::external::protocol::{Blank, Protocol, Spawn};
    use tilebench::external::ExternalSolver;
    use tilebench::observe::Collect;
    use tilebench::prelude::{execute_with, RunPlan};
    let dir = temp_dir("program-words");
    let data = dir.join("two.csv");
    std::fs::write(&data, "start\n1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 x 7 8\n").unwrap();
    let chatty = "sh -c 'while read a; do echo \"Solving now\"; echo r; done'";
    let labelled = "sh -c 'while read a; do echo \"Case 1: r\"; done'";
    let flags = [
        "dbg: it prints lines that are not answers on stdout, such as `Solving now`; they are \
         skipped and the answer line after them is judged (print diagnostics on stderr; \
         --solver-strict makes such a line an error)",
        "dbg: its answers come after a label, as in `Case 1: r`; the answer after `Case 1:` is \
         judged (a judge would refuse the line: print the answer alone, or pass \
         --solver-strict to grade it that way)",
    ];
    let words = [
        "dbg: it prints lines that are not answers on stdout, such as `Solving now`; they are \
         skipped and the answer line after them is judged (print diagnostics on stderr; strict \
         (the option) makes such a line an error)",
        "dbg: its answers come after a label, as in `Case 1: r`; the answer after `Case 1:` is \
         judged (a judge would refuse the line: print the answer alone, or set its strict \
         option to grade it that way)",
    ];
    for (i, command) in [chatty, labelled].into_iter().enumerate() {
        let o = bin()
            .arg("run")
            .arg(&data)
            .args(["-q", "-s", "none", "--solver", &format!("dbg={command}")])
            .arg("--out")
            .arg(dir.join(format!("cli-{i}")))
            .output()
            .unwrap();
        assert!(
            stderr(&o).contains(&format!("{}\n", flags[i])),
            "{}",
            stderr(&o)
        );
        let program = ExternalSolver::parse(
            &format!("dbg={command}"),
            Protocol::Moves,
            Blank::X,
            Spawn::Persistent,
        )
        .unwrap();
        let mut plan = RunPlan::new(vec![data.display().to_string()])
            .without_builtins()
            .with(program);
        plan = plan.with_out(dir.join(format!("lib-{i}")));
        let seen = Collect::default();
        execute_with(plan, &seen, &AtomicBool::new(false)).unwrap();
        let notices = seen.notices();
        assert!(notices.iter().any(|n| n == words[i]), "{notices:#?}");
        assert!(notices.iter().all(|n| !n.contains("--")), "{notices:#?}");
    }
    // Graded strictly, the row's message names the flag in cases.csv; the solver's error,
    // read through the library, names the option.
    let o = bin()
        .arg("run")
        .arg(&data)
        .args([
            "-q",
            "-s",
            "none",
            "--solver-strict",
            "--solver",
            &format!("dbg={chatty}"),
        ])
        .arg("--out")
        .arg(dir.join("strict"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let rows = tilebench::results::cases_csv::read(&dir.join("strict").join("cases.csv")).unwrap();
    let said = |strict: &str| {
        format!(
            "{}:2: dbg: sent `1 2 3 4 5 6 7 x 8`, it printed `Solving now` besides its answer \
             (before it, or after the last) `r`: {strict} takes exactly one answer line per \
             case and nothing else on stdout",
            data.display()
        )
    };
    assert_eq!(rows[0].message, said("--solver-strict"));
    let mut program = ExternalSolver::parse(
        &format!("dbg={chatty}"),
        Protocol::Moves,
        Blank::X,
        Spawn::Persistent,
    )
    .unwrap();
    program.strict = true;
    let mut plan = RunPlan::new(vec![data.display().to_string()])
        .without_builtins()
        .with(program);
    plan = plan.with_out(dir.join("strict-lib"));
    let seen = Collect::default();
    let finished = execute_with(plan, &seen, &AtomicBool::new(false));
    assert!(finished.is_ok());
    let rows =
        tilebench::results::cases_csv::read(&dir.join("strict-lib").join("cases.csv")).unwrap();
    // cases.csv keeps the command line's words for every reader.
    assert_eq!(rows[0].message, said("--solver-strict"));
}

/// Input errors that name an option say it in the plan's words (the goal, the plan's rows)
/// to a library user, and with `--goal` and `--rows` on the command line, as before.
#[test]
fn input_errors_name_flags_only_on_the_command_line() {
    use tilebench::prelude::{run, RunPlan};
    let dir = temp_dir("input-words");
    let library = |f: &dyn Fn(RunPlan) -> RunPlan, name: &str| {
        let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
            .with_strategies("astar")
            .unwrap()
            .with_out(dir.join(name));
        let plan = f(plan);
        let e = run(plan).err().unwrap();
        assert!(matches!(e, tilebench::Error::Input(_)), "{e:?}");
        let text = e.to_string();
        assert!(!text.contains("--"), "{text}");
        text
    };
    let cli = |args: &[&str], name: &str| {
        let o = bin()
            .args(["run", "inputs/seeds.csv", "-q", "-s", "astar", "--out"])
            .arg(dir.join(name))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    let goal = "1 2 3 4 5 6 7 8 8";
    let why = "cell 9: tile 8 appears more than once (the blank is missing)";
    assert_eq!(
        library(
            &|p| {
                p.with_input(tilebench::dataset::InputOptions {
                    goal: Some(goal.into()),
                    ..Default::default()
                })
            },
            "lib-goal"
        ),
        format!("goal `{goal}`: {why}")
    );
    assert_eq!(
        cli(&["--goal", goal], "cli-goal"),
        format!("error: --goal `{goal}`: {why}\n")
    );
    let rows: tilebench::dataset::rows::Rows = "500".parse().unwrap();
    assert_eq!(
        library(&|p| p.with_rows(rows.clone()), "lib-rows"),
        "inputs/seeds.csv: the plan's rows name row(s) 500, but there are 6 data rows (numbered \
         from 1 under the header, blank and comment lines not counted: rows are counted, not \
         ids); name rows from 1 to 6"
    );
    assert_eq!(
        cli(&["--rows", "500"], "cli-rows"),
        "error: inputs/seeds.csv: --rows names row(s) 500, but there are 6 data rows (numbered \
         from 1 under the header, blank and comment lines not counted: --rows counts rows, not \
         ids); name rows from 1 to 6\n"
    );
}

/// A run-wide option that changes nothing is named in the plan's words (`weight 2`, the
/// tables' directory) to a library user, and by its flag on the command line, as before.
#[test]
fn unread_options_name_flags_only_on_the_command_line() {
    use tilebench::prelude::RunPlan;
    let plan = |strategies: &str| {
        RunPlan::new(vec!["inputs/seeds.csv".into()])
            .with_strategies(strategies)
            .unwrap()
    };
    let cli = |args: &[&str]| {
        let o = bin()
            .args(["run", "inputs/seeds.csv", "-q"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    let mut config = tilebench::search::Config::default();
    config.set(&tilebench::search::wastar::WEIGHT, "2").unwrap();
    let p = plan("bfs-hash").with_config(config);
    assert_eq!(
        p.check().unwrap_err().to_string(),
        "weight 2 is read only by wastar, and this run takes bfs-hash: it would change nothing \
         (and be checked against no board); add one of them to the plan, or drop weight"
    );
    assert_eq!(
        cli(&["-s", "bfs-hash", "--weight", "2"]),
        "error: --weight 2 is read only by wastar, and this run takes bfs-hash: it would change \
         nothing (and be checked against no board); add one of them with -s, or drop --weight\n"
    );
    let config = tilebench::search::Config {
        pdb_dir: Some("/tmp".into()),
        ..Default::default()
    };
    let p = plan("astar").with_config(config);
    assert_eq!(
        p.check().unwrap_err().to_string(),
        "the tables' directory /tmp is for pattern databases, and no solver of this run \
         estimates with them: set the heuristic to pdb (or `:heuristic=pdb` in a \
         configuration), or drop the tables' directory"
    );
    assert_eq!(
        cli(&["-s", "astar", "--pdb-dir", "/tmp"]),
        "error: --pdb-dir /tmp is for pattern databases, and no solver of this run estimates \
         with them: add --heuristic pdb (or `:heuristic=pdb` to a configuration), or drop \
         --pdb-dir\n"
    );
    let mut config = tilebench::search::Config::default();
    config.set(&tilebench::search::wastar::WEIGHT, "2").unwrap();
    let p = RunPlan::new(vec!["inputs/seeds.csv".into()])
        .without_builtins()
        .with_config(config);
    let c = tilebench::search::configuration::Configuration::parse("wastar:weight=3", p.config())
        .unwrap();
    let p = p.with(c);
    assert_eq!(
        p.check().unwrap_err().to_string(),
        "weight 2 would change nothing: every configuration of this run that reads `weight` \
         sets its own; drop weight"
    );
    assert_eq!(
        cli(&["-s", "wastar:weight=3", "--weight", "2"]),
        "error: --weight 2 would change nothing: every configuration of this run that reads \
         `weight` sets its own; drop --weight\n"
    );
}

/// The generator's refusals name its options as `GenSpec` does (`depth`, `unsolvable`,
/// `walk`) to a library user, and by `gen`'s flags on the command line, as before.
#[test]
fn gen_errors_name_flags_only_on_the_command_line() {
    use tilebench::gen::{check_out, GenSpec, Generator, Goal};
    use tilebench::puzzle::Shape;
    let cli = |args: &[&str]| {
        let o = bin().arg("gen").args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        stderr(&o)
    };
    let three = Shape::new(3, 3).unwrap();
    let library = |spec: GenSpec| {
        let text = Generator::new(spec).err().unwrap().to_string();
        assert!(!text.contains("--"), "{text}");
        text
    };
    let cases: Vec<(GenSpec, &[&str], &str, &str)> = vec![
        (
            GenSpec {
                shape: three,
                unsolvable: 0.5,
                depth: Some(5),
                ..GenSpec::default()
            },
            &["--size", "3x3", "--unsolvable", "0.5", "--depth", "5"],
            "unsolvable 0.5 with depth 5: pairs at a given depth are solvable (an unsolvable \
             pair has no depth); drop unsolvable, or drop depth to mix unsolvable pairs into \
             uniformly sampled ones",
            "--unsolvable 0.5 with --depth 5: pairs at a given depth are solvable (an \
             unsolvable pair has no depth); drop --unsolvable, or drop --depth to mix \
             unsolvable pairs into uniformly sampled ones",
        ),
        (
            GenSpec {
                shape: three,
                depth: Some(40),
                ..GenSpec::default()
            },
            &["--size", "3x3", "--depth", "40"],
            "depth 40: no 3x3 state is 40 moves from the goal; the deepest is 31 moves \
             (`space::DistanceTable` shows the depths that exist)",
            "--depth 40: no 3x3 state is 40 moves from the goal; the deepest is 31 moves \
             (`tilebench space --size 3x3` shows the depths that exist)",
        ),
        (
            GenSpec {
                shape: Shape::new(4, 4).unwrap(),
                ..GenSpec::default()
            },
            &["--size", "4x4"],
            "a 4x4 board's space is too large to tabulate, so its exact answers come from \
             bidirectional BFS, which needs shallow pairs: use walk N (N up to about 40)",
            "a 4x4 board's space is too large to tabulate, so its exact answers come from \
             bidirectional BFS, which needs shallow pairs: use --walk N (N up to about 40)",
        ),
    ];
    for (spec, args, words, flags) in cases {
        assert_eq!(spec.goal, Goal::Standard);
        assert_eq!(library(spec), words);
        assert_eq!(cli(args), format!("error: {flags}\n"));
    }
    let dir = temp_dir("gen-words");
    let e = check_out(&dir).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "the output file {} is a directory; give a file name, e.g. {}",
            dir.display(),
            dir.join("dataset.csv").display()
        )
    );
    let o = bin()
        .args(["gen", "--size", "3x3", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(
        stderr(&o),
        format!(
            "error: --out {} is a directory; give a file name, e.g. {}\n",
            dir.display(),
            dir.join("dataset.csv").display()
        )
    );
}

/// A run of `astar` and `bfs-hash` on inputs/seeds.csv, in `dir/run`: what the compare and
/// plot messages tests read.
fn seeds_run(dir: &std::path::Path) -> std::path::PathBuf {
    let run = dir.join("run");
    run_ok(&[
        "run",
        "inputs/seeds.csv",
        "-q",
        "-s",
        "astar,bfs-hash",
        "--out",
        run.to_str().unwrap(),
    ]);
    run
}

/// compare's plan errors name the plan's fields (`reference`, the solvers, the thresholds)
/// to a library user, and `--reference`, `--strategies` and the thresholds' flags on the
/// command line, as before.
#[test]
fn compare_errors_name_flags_only_on_the_command_line() {
    use tilebench::compare::{compare, Plan, Subject};
    let dir = temp_dir("compare-words");
    let run = seeds_run(&dir);
    let r = run.display();
    let solvers = |names: &[&str], reference: Option<&str>| {
        Plan::new(Subject::Solvers {
            run: run.clone(),
            solvers: names.iter().map(|s| s.to_string()).collect(),
            reference: reference.map(str::to_string),
            all_pairs: false,
        })
    };
    let library = |plan: Plan| {
        let text = compare(&plan).err().unwrap().to_string();
        assert!(!text.contains("--"), "{text}");
        text
    };
    let cli = |args: &[&str]| {
        let o = bin().arg("compare").arg(&run).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    assert_eq!(
        library(solvers(&["astar"], None)),
        "the solvers astar: give two or more different strategies of the run, e.g. \
         astar,bfs-rank (each is compared against the last, or against the reference)"
    );
    assert_eq!(
        cli(&["--strategies", "astar"]),
        "error: --strategies astar: give two or more different strategies of the run, e.g. \
         astar,bfs-rank (each is compared against the last, or against --reference)\n"
    );
    assert_eq!(
        library(solvers(&["astar", "bfs-hash"], Some("x"))),
        "reference x: not one of the solvers astar,bfs-hash; name it there too"
    );
    assert_eq!(
        cli(&["--strategies", "astar,bfs-hash", "--reference", "x"]),
        "error: --reference x: not one of --strategies astar,bfs-hash; name it there too\n"
    );
    assert_eq!(
        library(solvers(&["astar", "nope"], None)),
        format!(
            "{r}/cases.csv: no rows of strategy `nope`; its strategies are astar, bfs-hash: \
             give two or more of them to the solvers"
        )
    );
    assert_eq!(
        cli(&["--strategies", "astar,nope"]),
        format!(
            "error: {r}/cases.csv: no rows of strategy `nope`; its strategies are astar, \
             bfs-hash: give two or more of them to --strategies\n"
        )
    );
    let mut plan = solvers(&["astar", "bfs-hash"], None);
    plan.thresholds.max_work_increase_pct = -1.0;
    assert_eq!(
        library(plan),
        "max_work_increase_pct -1: give the allowed increase in percent, a finite number ≥ 0 \
         (e.g. 5 for 5%)"
    );
    // The command line's parser refuses such a value before the plan is made.
}

/// plot's and report's refusals name the selection's reference and a run's plan to a
/// library user, and `--reference` and `run --out` on the command line, as before.
#[test]
fn plot_errors_name_flags_only_on_the_command_line() {
    use tilebench::plot::select::Selection;
    let dir = temp_dir("plot-words");
    let run = seeds_run(&dir);
    let runs = tilebench::plot::load_all(std::slice::from_ref(&run)).unwrap();
    let selection = Selection {
        reference: Some("zz".into()),
        ..Selection::default()
    };
    let e = tilebench::plot::draw(&runs, &selection).err().unwrap();
    let said = |reference: &str| {
        format!(
            "{reference} zz: no solver or run is called that; choose a solver (astar, bfs-hash) \
             or, with several runs, a run"
        )
    };
    assert_eq!(e.to_string(), said("reference"));
    for command in ["plot", "report"] {
        let o = bin()
            .arg(command)
            .arg(&run)
            .args(["--reference", "zz", "--out"])
            .arg(dir.join(format!("{command}.out")))
            .output()
            .unwrap();
        assert_eq!(stderr(&o), format!("error: {}\n", said("--reference")));
    }
    let missing = dir.join("nope");
    let e = tilebench::plot::results_dir(&missing).err().unwrap();
    let said = |how: &str| {
        format!(
            "{}: no such results directory; check the path (runs are written to \
             results/run-<timestamp> unless {how} says otherwise)",
            missing.display()
        )
    };
    assert_eq!(e.to_string(), said("their plan's `out`"));
    let o = bin()
        .arg("plot")
        .arg(&missing)
        .arg("--out")
        .arg(dir.join("p"))
        .output()
        .unwrap();
    assert_eq!(stderr(&o), format!("error: {}\n", said("`run --out`")));
}

/// A board whose cells make no square, with no shape given, names `--size WxH` on the
/// command line, word for word as before.
#[test]
fn a_board_of_no_square_names_the_size_flag_on_the_command_line() {
    let said = "5 cells is not a square board (4, 9, 16, 25, 36 or 49 cells); give the shape \
                with a `size` column or --size WxH";
    let o = bin().args(["solve", "1 2 3 4 x"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("error: board 1: start: {said}\n"));
    let o = bin()
        .args(["solve", "--goal", "1 2 3 4 x", "1 2 3 x"])
        .output()
        .unwrap();
    assert_eq!(stderr(&o), format!("error: --goal `1 2 3 4 x`: {said}\n"));
    // A dataset's row: its cases.csv message keeps the command line's words, as every row
    // message does; the library's error names the input options' `size`.
    let dir = temp_dir("no-square");
    let data = dir.join("five.csv");
    std::fs::write(&data, "id,start\nr1,1 2 3 4 x\nr2,1 2 3 4 5 6 7 x 8\n").unwrap();
    let out = dir.join("out");
    let o = bin()
        .args(["run", "-s", "astar", "-q", "-o"])
        .arg(&out)
        .arg(&data)
        .output()
        .unwrap();
    // The invalid row fails the run (exit 2, as bad input does), and the other is solved.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let (h, rows) = read_csv(&out.join("cases.csv"));
    assert_eq!(rows[1][col(&h, "status")], "solved");
    let message = &rows[0][col(&h, "message")];
    assert!(
        message.ends_with(&format!(":2: start: {said}")),
        "{message}"
    );
    let e = tilebench::puzzle::Board::parse("1 2 3 4 x", None).unwrap_err();
    assert!(!e.to_string().contains("--"), "{e}");
    assert_eq!(e.message_with_flags(), said);
}

/// A table's run that is not there is named with the run's plan (`out`) to a library user,
/// and with `run --out` on the command line, as before.
#[test]
fn a_tables_missing_run_names_the_flag_only_on_the_command_line() {
    let missing = temp_dir("table-words").join("nope");
    let e = tilebench::table::load(std::slice::from_ref(&missing))
        .err()
        .unwrap();
    assert!(
        matches!(&e, tilebench::table::TableError::NoSuchRun { path } if *path == missing),
        "{e:?}"
    );
    let said = |how: &str| {
        format!(
            "{}: no such results directory or file; check the path (runs are written to \
             results/run-<timestamp> unless {how} says otherwise)",
            missing.display()
        )
    };
    assert_eq!(e.to_string(), said("their plan's `out`"));
    let o = bin().arg("table").arg(&missing).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("error: {}\n", said("`run --out`")));
}

/// Shards of two runs: the differences name the options without `--` to a library user, and
/// by their flags on the command line.
#[test]
fn merge_of_other_runs_names_flags_only_on_the_command_line() {
    use tilebench::harness::merge::merge;
    let dir = temp_dir("merge-other-runs");
    let shard = |i: u32, extra: &[&str]| {
        let out = dir.join(format!("s{i}"));
        let mut args = vec![
            "run",
            "inputs/per-depth.csv",
            "-q",
            "-s",
            "astar",
            "--out",
            out.to_str().unwrap(),
        ];
        let n = format!("{i}/2");
        args.extend(["--shard", &n]);
        args.extend(extra);
        run_ok(&args);
        out
    };
    let shards = [shard(1, &[]), shard(2, &["--max-nodes", "1000000"])];
    let (s1, s2) = (shards[0].display(), shards[1].display());
    let e = merge(&shards, &dir.join("lib"), false, Vec::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{s2} and {s1} are not shards of one run:\n  max-nodes: `1000000` in {s2}, not set \
             in {s1}\nmerge only the shards of one split (the runs of a plan's shard I/N for \
             each I) (same tilebench, inputs, strategies and options)"
        )
    );
    let o = bin()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(dir.join("cli"))
        .output()
        .unwrap();
    assert_eq!(
        stderr(&o),
        format!(
            "error: {s2} and {s1} are not shards of one run:\n  --max-nodes: `1000000` in \
             {s2}, not set in {s1}\nmerge only the shards of one `run --shard I/N` split \
             (same tilebench, inputs, strategies and options)\n"
        )
    );
}

/// A run's closing lines (the check's) name the plan's limits and allowances in the library's
/// words, and the command line prints them with its flags, as before.
#[test]
fn verdict_lines_name_flags_only_on_the_command_line() {
    use tilebench::check::AllowLimit;
    use tilebench::prelude::{run, OutMode, RunPlan};
    let dir = temp_dir("verdict-words");
    let o = bin()
        .args([
            "run",
            "inputs/per-depth.csv",
            "-q",
            "-s",
            "astar,bfs-hash",
            "--max-nodes",
            "50",
            "--check",
            "--out",
        ])
        .arg(dir.join("cli"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let limit = "inputs/per-depth.csv:25 (id 24): bfs-hash: no answer within";
    let advice = "check: a limit row has no answer to verify: give a larger";
    for line in [
        format!("check failed: {limit} --max-nodes 50 (expanded: 50)"),
        format!(
            "{advice} --max-nodes, --timeout, --max-states or --max-memory, or accept the limits \
             you expect with --allow-limit N (in all) or --allow-limit SOLVER=N|all"
        ),
    ] {
        assert!(err.contains(&format!("{line}\n")), "{err}");
    }
    let mut plan = RunPlan::new(vec!["inputs/per-depth.csv".into()])
        .with_strategies("astar,bfs-hash")
        .unwrap();
    plan = plan
        .with_limits(tilebench::search::Limits {
            max_nodes: Some(50),
            ..Default::default()
        })
        .with_out(dir.join("lib"))
        .with_mode(OutMode::Force);
    let verdict = run(plan).unwrap().verdict(Some(&AllowLimit::default()));
    assert!(verdict.check_failed);
    let printed: Vec<&str> = err.lines().filter(|l| l.starts_with("check")).collect();
    let cli_dir = dir.join("cli").display().to_string();
    let lib_dir = dir.join("lib").display().to_string();
    let with_flags: Vec<String> = verdict
        .lines_with_flags
        .iter()
        .map(|l| l.replace(&lib_dir, &cli_dir))
        .filter(|l| l.starts_with("check"))
        .collect();
    assert_eq!(with_flags, printed);
    for line in &verdict.lines {
        assert!(!line.contains("--"), "{line}");
    }
    for line in [
        format!("check failed: {limit} the node budget 50 (expanded: 50)"),
        format!(
            "{advice} node, time, state or memory budget (the plan's limits), or accept the \
             limits you expect (the plan's allow_limit: N in all, or N or all for a solver)"
        ),
    ] {
        assert!(verdict.lines.contains(&line), "{:#?}", verdict.lines);
    }
}

/// A rows spec refused says how rows are counted in the library's words, and with `--rows`
/// on the command line, as before.
#[test]
fn rows_spec_errors_name_flags_only_on_the_command_line() {
    use tilebench::dataset::rows::Rows;
    let said = |how: &str| {
        format!(
            "row 0 does not exist: rows are counted from 1 (the first row under the header); \
             list data rows by number, counted from 1 under the header ({how}), e.g. 38,40 or \
             1-10,17"
        )
    };
    assert_eq!(
        "0".parse::<Rows>().unwrap_err(),
        said("rows are counted, not ids")
    );
    let o = bin()
        .args(["run", "inputs/seeds.csv", "--rows", "0"])
        .output()
        .unwrap();
    assert_eq!(
        stderr(&o).lines().next().unwrap(),
        format!(
            "error: invalid value '0' for '--rows <SPEC>': {}",
            said("--rows counts rows, not ids")
        )
    );
}
