//! No argument makes tilebench panic: every numeric option of every subcommand, found in
//! clap's own definition of the command line, is fed 0, −1, huge values, NaN and infinities.
//! Each run ends with exit 0, 1 or 2 and no panic; a refused value exits 2 with a message
//! that names the option and the range it takes.

use crate::common::*;
use std::any::TypeId;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

// The binary's command line, read here for its definition (which options take numbers).
#[allow(dead_code)]
#[path = "../../src/cli.rs"]
mod cli;

/// The value types clap parses numeric options into.
fn is_number(t: &clap::builder::ValueParser) -> bool {
    let id = t.type_id();
    [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<isize>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
    ]
    .iter()
    .any(|t| id == *t)
}

/// Every (subcommand, `--option`) whose value is a number.
fn numeric_options() -> Vec<(String, String)> {
    use clap::CommandFactory;
    let cmd = cli::Cli::command();
    let mut out = Vec::new();
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments() {
            if arg.get_action().takes_values() && is_number(arg.get_value_parser()) {
                let long = arg.get_long().expect("numeric options are named");
                out.push((sub.get_name().to_string(), format!("--{long}")));
            }
        }
    }
    out
}

/// A two-row dataset, and one quick run of it (for `compare` and `verify`).
fn fixtures() -> &'static (PathBuf, PathBuf) {
    static F: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    F.get_or_init(|| {
        let dir = temp_dir("args-fixtures");
        let data = dir.join("tiny.csv");
        std::fs::write(
            &data,
            "id,start,expected_steps\na,1 2 3 4 5 6 7 x 8,1\nb,1 2 3 x 4 6 7 5 8,3\n",
        )
        .unwrap();
        let run = dir.join("run");
        run_ok(&[
            "run",
            data.to_str().unwrap(),
            "-q",
            "-s",
            "astar",
            "--paths",
            "--out",
            run.to_str().unwrap(),
        ]);
        (data, run)
    })
}

/// Arguments that make `sub` quick, as (option, value) pairs or lone arguments; the option
/// under test is left out of them.
fn base_args(sub: &str, without: &str) -> Vec<String> {
    let (data, run) = fixtures();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let pairs: Vec<Vec<String>> = match sub {
        "run" => vec![
            vec![s(data)],
            vec!["-q".into()],
            vec!["-s".into(), "astar".into()],
            vec!["--out".into(), s(&temp_dir("args-run"))],
        ],
        "gen" => vec![vec!["--count".into(), "3".into()]],
        "space" => vec![vec!["--size".into(), "2x2".into()]],
        "compare" => vec![vec![s(run)], vec![s(run)]],
        "verify" => vec![vec![s(run)]],
        "plot" => vec![
            vec![s(run)],
            vec!["--out".into(), s(&temp_dir("args-plot"))],
        ],
        "report" => vec![
            vec![s(run)],
            vec!["-o".into(), s(&temp_dir("args-report").join("r.html"))],
        ],
        other => panic!("no quick arguments for `{other}`: add them to base_args"),
    };
    pairs
        .into_iter()
        .filter(|p| p[0] != without)
        .flatten()
        .collect()
}

/// Runs `tilebench ARGS` with a time limit (a value that is accepted may make a command run
/// for ever: `gen --count 18446744073709551615` streams rows until its reader stops).
fn run_args(args: &[String]) -> Bounded {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_bounded(&args, 1 << 16, Duration::from_secs(30))
}

/// Values no numeric option takes.
const REFUSED: [&str; 6] = ["-1", "1e20", "NaN", "inf", "-inf", "nan"];
/// Values some options take and others refuse.
const EDGES: [&str; 2] = ["0", "18446744073709551615"];

#[test]
fn the_numeric_options_are_found() {
    let found = numeric_options();
    for want in [
        ("run", "--timeout"),
        ("run", "--threads"),
        ("run", "--hash-buckets"),
        ("run", "--repeat"),
        ("run", "--max-nodes"),
        ("run", "--max-states"),
        ("gen", "--count"),
        ("gen", "--unsolvable"),
        ("gen", "--depth"),
        ("gen", "--per-depth"),
        ("gen", "--walk"),
        ("gen", "--seed"),
        ("space", "--farthest"),
        ("compare", "--max-work-increase"),
        ("compare", "--max-latency-increase"),
        ("compare", "--show"),
        ("verify", "--show"),
    ] {
        assert!(
            found.contains(&(want.0.to_string(), want.1.to_string())),
            "{want:?} not found among {found:?}"
        );
    }
}

#[test]
fn every_numeric_option_takes_extreme_values_without_a_panic() {
    let mut failures = Vec::new();
    for (sub, opt) in numeric_options() {
        for value in REFUSED.iter().chain(&EDGES) {
            let mut args = vec![sub.clone()];
            args.extend(base_args(&sub, &opt));
            args.push(format!("{opt}={value}"));
            let res = run_args(&args);
            let code = res.status.code();
            let named = res.stderr.contains(&format!("'{opt} <")) && res.stderr.contains(" from ");
            let why = if res.timed_out {
                Some("ran past the time limit")
            } else if !matches!(code, Some(0..=2)) || res.stderr.contains("panicked") {
                Some("a crash")
            } else if REFUSED.contains(value) && code != Some(2) {
                Some("accepted")
            } else if code == Some(2) && !named {
                Some("refused without naming the option and its range")
            } else {
                None
            };
            if let Some(why) = why {
                failures.push(format!(
                    "tilebench {}: {why} (exit {code:?}):\n{}",
                    args.join(" "),
                    res.stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn a_negative_number_after_a_space_is_read_as_the_value() {
    let out = bin().args(["gen", "--count", "-1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("'--count <N>': give a whole number from 1 to"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_shard_out_of_range_is_refused_with_the_form_it_takes() {
    let (data, _) = fixtures();
    for shard in [
        "0/0",
        "1/0",
        "0/3",
        "4/3",
        "-1/2",
        "18446744073709551615/18446744073709551615",
        "NaN/inf",
        "1e20/1e20",
    ] {
        let out = bin()
            .args(["run", data.to_str().unwrap(), "-q"])
            .arg(format!("--shard={shard}"))
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{shard}: {err}");
        assert!(
            err.contains("'--shard <I/N>'") && err.contains("write I/N with 1 ≤ I ≤ N"),
            "{shard}: {err}"
        );
    }
}

#[test]
fn the_largest_budgets_accepted_still_solve_every_case() {
    // --timeout 1.8e19 used to overflow the deadline: every case an `error` row.
    let (data, _) = fixtures();
    let out = temp_dir("args-budgets");
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-q",
        "-s",
        "astar,bfs-hash,idastar",
        "--timeout",
        "1000000",
        "--max-nodes",
        "18446744073709551615",
        "--max-states",
        "18446744073709551615",
        "--hash-buckets",
        "100000000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    assert_eq!(rows.len(), 6);
    assert!(
        rows.iter().all(|r| r[col(&h, "status")] == "solved"),
        "{rows:?}"
    );
}

#[test]
fn zero_where_it_means_nothing_useful_is_refused_with_the_range() {
    // --hash-buckets 0 was taken as 1 bucket (a 28 s run instead of 0.06 s).
    let (data, _) = fixtures();
    let data = data.to_str().unwrap();
    for (args, range) in [
        (
            &["run", data, "--hash-buckets", "0"][..],
            "from 1 to 100000000",
        ),
        (&["run", data, "--repeat", "0"][..], "from 1 to 1000000"),
        (
            &["run", data, "--max-nodes", "0"][..],
            "from 1 to 18446744073709551615",
        ),
        (
            &["run", data, "--max-states", "0"][..],
            "from 1 to 18446744073709551615",
        ),
        (
            &["run", data, "--timeout", "0"][..],
            "seconds from 0.000001 to 1000000",
        ),
        (
            &["gen", "--count", "0"][..],
            "from 1 to 18446744073709551615",
        ),
        (
            &["gen", "--per-depth", "0"][..],
            "from 1 to 18446744073709551615",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        let err = stderr(&out);
        let opt = args[args.len() - 2];
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("'{opt} <")) && err.contains(range),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn pattern_database_options_without_the_pdb_heuristic_are_refused() {
    let (data, _) = fixtures();
    let data = data.to_str().unwrap();
    let dir = temp_dir("args-pdb");
    let results = dir.join("o");
    let results = results.to_str().unwrap();
    for (args, option) in [
        (
            vec![
                "run",
                data,
                "-q",
                "--out",
                results,
                "--pdb-partition",
                "4-4",
            ],
            "--pdb-partition 4-4",
        ),
        (
            vec![
                "run",
                data,
                "-q",
                "--out",
                results,
                "-s",
                "astar",
                "--heuristic",
                "linear-conflict",
                "--pdb-lookup",
                "regular",
            ],
            "--pdb-lookup regular",
        ),
        (
            vec![
                "solve",
                "--pdb-dir",
                dir.to_str().unwrap(),
                "1 2 3 4 5 6 7 x 8",
            ],
            "--pdb-dir",
        ),
    ] {
        let out = bin().args(&args).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(option)
                && err.contains("is for pattern databases")
                && err.contains("add --heuristic pdb"),
            "{args:?}: {err}"
        );
        assert!(!dir.join("o").exists(), "{args:?}: nothing is run");
    }
    // With it, they are used.
    let out = bin()
        .args([
            "solve",
            "--heuristic",
            "pdb",
            "--pdb-partition",
            "4-4",
            "--pdb-dir",
        ])
        .arg(dir.join("tables"))
        .arg("1 2 3 4 5 6 7 x 8")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "r\n");
}

#[test]
fn a_partition_with_an_empty_group_is_explained() {
    // It said "partition 0-8 covers 8 tiles, but a 3x3 board has 8".
    let (data, _) = fixtures();
    let dir = temp_dir("args-partition");
    for args in [
        vec![
            "run",
            data.to_str().unwrap(),
            "-q",
            "-s",
            "astar",
            "--out",
            dir.join("o").to_str().unwrap(),
        ],
        vec!["solve", "1 2 3 4 5 6 7 x 8"],
    ] {
        let out = bin()
            .args(&args)
            .args([
                "--heuristic",
                "pdb",
                "--pdb-partition",
                "0-8",
                "--pdb-dir",
                dir.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("partition 0-8 has a group of 0 tiles")
                && err.contains("not a range of tiles")
                && err.contains(
                    "adding up to the 8 tiles of a 3x3 board (the blank is in no group), e.g. 6-2"
                ),
            "{args:?}: {err}"
        );
        assert!(!err.contains("but a 3x3 board has 8"), "{err}");
    }
}

#[test]
fn a_file_or_stdin_given_twice_is_refused() {
    let (data, _) = fixtures();
    let data = data.to_str().unwrap();
    let dotted = format!("{}/./tiny.csv", Path::new(data).parent().unwrap().display());
    let dir = temp_dir("args-twice");
    for (files, needle) in [
        (vec!["-", "-"], "`-` (standard input) is given twice, as files 1 and 2; standard input can be read only once"),
        (vec![data, data], &*format!("{data} is given twice, as files 1 and 2; its rows would be solved twice")),
        (vec![data, "-", &dotted], &*format!("{data} and {dotted} (files 1 and 3) are the same file")),
    ] {
        let out = with_stdin(
            &[&["run", "-q", "--out", dir.join("o").to_str().unwrap()][..], &files].concat(),
            "id,start\na,1 2 3 4 5 6 7 x 8\n",
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{files:?}: {err}");
        assert!(err.contains(needle), "{files:?}: {err}");
        assert!(!err.contains("is also used on line"), "{err}");
        assert!(!dir.join("o").exists(), "nothing is run");
    }
    // Two files with the same ids are fine: rows are matched by file, id and strategy.
    let other = dir.join("other.csv");
    std::fs::copy(data, &other).unwrap();
    let out = bin()
        .args([
            "run",
            "-q",
            "-s",
            "astar",
            "--out",
            dir.join("two").to_str().unwrap(),
            data,
        ])
        .arg(&other)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let (_, rows) = read_csv(&dir.join("two/cases.csv"));
    assert_eq!(rows.len(), 4);
}
