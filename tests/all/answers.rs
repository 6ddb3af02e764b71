//! Datasets with known answers, checked by a method other than the one that made them:
//! `gen` on boards beyond 3x3 (its 4x4 walks are answered by `bibfs`, its other pairs from
//! the full distance table that the `table` strategy also reads) solved again by IDA* and A*
//! under `--check`, and the bundled 3x4 (gen's table answers) and 4x4 (bibfs answers)
//! datasets solved with every pattern-database partition that builds in CI time.

use crate::common::*;
use std::path::PathBuf;

/// The tables' cache, shared with tests/pdb.rs and tests/pdb_tables.rs: each is built once.
fn pdb_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-tests")
}

/// `gen ARGS` into a file.
fn gen(name: &str, args: &[&str]) -> PathBuf {
    let path = temp_dir("answers").join(format!("{name}.csv"));
    let mut a = vec!["gen", "--out", path.to_str().unwrap()];
    a.extend_from_slice(args);
    run_ok(&a);
    path
}

/// `run FILE … --check` (every answer checked against expected_steps); returns the rows.
fn check(file: &std::path::Path, args: &[&str]) -> Vec<Vec<String>> {
    let out = temp_dir("answers-run");
    let dir = pdb_dir();
    let mut a = vec![
        "run",
        file.to_str().unwrap(),
        "--check",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ];
    a.extend_from_slice(args);
    if args.contains(&"pdb") {
        a.extend(["--pdb-dir", dir.to_str().unwrap()]);
    }
    let o = bin().args(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{a:?}\n{}", stderr(&o));
    let (h, rows) = read_csv(&out.join("cases.csv"));
    // Every row was compared with a known answer (none left unchecked).
    let m = col(&h, "matches_expected");
    assert!(
        rows.iter().all(|r| r[m] == "true"),
        "{a:?}: a row not checked"
    );
    rows
}

#[test]
fn gen_beyond_3x3_agrees_with_searches_that_did_not_make_it() {
    // 4x4 walks: answered by bibfs; re-solved by IDA* with Manhattan and by A* with linear
    // conflict, neither sharing code with bibfs.
    let walks = gen(
        "4x4-walks",
        &["--size", "4x4", "--walk", "36", "-n", "25", "--seed", "3"],
    );
    let rows = check(&walks, &["-s", "idastar"]);
    assert_eq!(rows.len(), 25);
    check(&walks, &["-s", "astar", "--heuristic", "linear-conflict"]);
    let random_goals = gen(
        "4x4-goals",
        &[
            "--size", "4x4", "--walk", "30", "-n", "10", "--goal", "random", "--seed", "4",
        ],
    );
    check(&random_goals, &["-s", "idastar"]);
    // Pairs answered from the full distance table (as the `table` strategy is), on 2x4 at
    // every depth: re-solved by IDA* and A* with Manhattan. (The 3x4 table's answers are
    // checked through inputs/3x4-random.csv below: a 3x4 table takes 40 s to make.)
    let depths = gen(
        "2x4-depths",
        &["--size", "2x4", "--per-depth", "2", "--seed", "6"],
    );
    let rows = check(&depths, &["-s", "idastar,astar"]);
    // Two pairs at each of the 37 depths (A090035: 0 to 36), for two strategies.
    assert_eq!(rows.len(), 2 * 37 * 2);
}

#[test]
fn bundled_datasets_are_solved_optimally_with_every_partition_that_fits() {
    // 3x4: groups of up to 8 tiles build in seconds.
    for partition in ["6-5", "4-4-3", "7-4", "8-3", "3-3-3-2"] {
        check(
            std::path::Path::new("inputs/3x4-random.csv"),
            &[
                "-s",
                "idastar",
                "--heuristic",
                "pdb",
                "--pdb-partition",
                partition,
            ],
        );
    }
    // 4x4: 7-8 takes a minute and 1.5 GB to build (scripts/bench.sh runs it); the others here.
    for partition in ["6-6-3", "5-5-5", "4-4-4-3"] {
        check(
            std::path::Path::new("inputs/4x4-shallow.csv"),
            &[
                "-s",
                "idastar,astar",
                "--heuristic",
                "pdb",
                "--pdb-partition",
                partition,
            ],
        );
    }
}
