//! Solvers judged by what they claim: `run -s all --check` passes on a correct build
//! (`wastar` is held to its weight, `greedy` to a valid path), and an external program's
//! claim is its `--solver-claim`.

use crate::common::{bin, col, read_csv, stderr, temp_dir};
use std::path::Path;

/// The first `n` rows of inputs/ci.csv (3x3 boards with expected_steps), in `dir`.
fn ci_rows(dir: &Path, n: usize) -> String {
    let text = std::fs::read_to_string("inputs/ci.csv").unwrap();
    let rows: Vec<&str> = text.lines().take(n + 1).collect();
    let path = dir.join("small.csv");
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

/// Every built-in strategy, the suboptimal ones included, passes `--check` on a dataset
/// with expected_steps, and `verify` of the results passes too; wastar's and greedy's
/// paths are longer than the optimum on some rows (so the check did judge them), within
/// wastar's weight on every row.
#[test]
fn every_strategy_passes_the_check_on_a_correct_build() {
    let dir = temp_dir("claims-all");
    let data = ci_rows(&dir, 60);
    let out = dir.join("run");
    let o = out.to_str().unwrap();
    let run = bin()
        .args([
            "run", &data, "-s", "all", "--weight", "2", "--check", "--paths", "-q",
        ])
        .args(["--out", o])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let (strategy, steps, expected, claim) = (
        col(&h, "strategy"),
        col(&h, "steps"),
        col(&h, "expected_steps"),
        col(&h, "claim"),
    );
    let longer = |s: &str| {
        rows.iter()
            .filter(|r| r[strategy] == s)
            .filter(|r| r[steps].parse::<i64>().unwrap() > r[expected].parse::<i64>().unwrap())
            .count()
    };
    assert!(longer("greedy") > 0, "the test needs a longer greedy path");
    assert!(longer("wastar") > 0, "the test needs a longer wastar path");
    for r in rows.iter().filter(|r| r[strategy] == "wastar") {
        assert_eq!(r[claim], "within=2");
        let (n, e): (i64, i64) = (r[steps].parse().unwrap(), r[expected].parse().unwrap());
        assert!(n <= 2 * e || e == -1 && n == -1, "{r:?}");
    }
    assert!(rows
        .iter()
        .filter(|r| !["wastar", "greedy"].contains(&r[strategy].as_str()))
        .all(|r| r[claim] == "optimal"));
    let err = stderr(&run);
    assert!(err.contains("check: greedy: 60 verified"), "{err}");
    let v = bin().arg("verify").arg(&out).output().unwrap();
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
}

/// A program whose paths are valid but two moves too long fails `--check` with the default
/// claim and passes with `--solver-claim valid` (given for it by name, beside another
/// program's claim); a claim for a solver the run does not have is refused.
#[test]
fn a_program_is_judged_by_its_solver_claim() {
    let dir = temp_dir("claims-ext");
    // Standard goals (a `moves` program solves towards the standard goal).
    let text = std::fs::read_to_string("inputs/per-depth.csv").unwrap();
    let rows: Vec<&str> = text.lines().take(31).collect();
    let data = dir.join("depths.csv");
    std::fs::write(&data, rows.join("\n") + "\n").unwrap();
    let data = data.to_str().unwrap().to_string();
    let toy = |name: &str, args: &str| format!("{name}=python3 tests/solvers/toy_solver.py {args}");
    let run = |extra: &[&str]| {
        bin()
            .args(["run", &data, "-s", "none", "--check", "-q", "--force"])
            .args(["--solver", &toy("lazy", "--fault suboptimal")])
            .args(["--solver", &toy("exact", "")])
            .args(["--out", dir.join("run").to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    let strict = run(&[]);
    let err = stderr(&strict);
    assert_eq!(strict.status.code(), Some(1), "{err}");
    assert!(
        err.contains("check: lazy: 0 verified, 30 wrong (30 not optimal)"),
        "{err}"
    );
    assert!(err.contains("check: exact: 30 verified"), "{err}");
    let lenient = run(&["--solver-claim", "lazy=valid", "--solver-claim", "optimal"]);
    let err = stderr(&lenient);
    assert_eq!(lenient.status.code(), Some(0), "{err}");
    assert!(err.contains("check: lazy: 30 verified"), "{err}");
    let (h, rows) = read_csv(&dir.join("run/cases.csv"));
    let (strategy, claim, ratio) = (
        col(&h, "strategy"),
        col(&h, "claim"),
        col(&h, "suboptimality"),
    );
    for r in &rows {
        let want = if r[strategy] == "lazy" {
            "valid"
        } else {
            "optimal"
        };
        assert_eq!(r[claim], want, "{r:?}");
    }
    // within=2 of paths two moves too long: only those of optimum 1 (and 0) are over it.
    let bounded = run(&["--solver-claim", "lazy=within=2"]);
    let err = stderr(&bounded);
    assert_eq!(bounded.status.code(), Some(1), "{err}");
    assert!(err.contains("over its claim"), "{err}");
    let (_, rows) = read_csv(&dir.join("run/cases.csv"));
    let mut within = 0;
    for r in rows.iter().filter(|r| r[strategy] == "lazy") {
        // `ud` on a solved board: no ratio to 0 moves, and over any bound.
        let q: f64 = r[ratio].parse().unwrap_or(f64::INFINITY);
        let status = if q <= 2.0 { "solved" } else { "wrong" };
        assert_eq!(r[col(&h, "status")], status, "{r:?}");
        within += usize::from(q <= 2.0);
    }
    assert!(within > 0, "the test needs paths within the claim");
    let unknown = run(&["--solver-claim", "bob=valid"]);
    let err = stderr(&unknown);
    assert_eq!(unknown.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--solver-claim bob=…: `bob` is not a --solver NAME"),
        "{err}"
    );
    let bad = run(&["--solver-claim", "lazy=fast"]);
    assert!(
        stderr(&bad).contains("`fast` is not a claim"),
        "{}",
        stderr(&bad)
    );
}

/// A class with two protocols in one run: `--solver-protocol bob=steps --solver-blank bob=0`
/// gives bob the steps protocol and `0` for the blank (the toy program answers garbage to any
/// other blank token), while alice keeps the defaults (moves, `x`); both are judged, and run.json
/// records each program's own protocol and blank.
#[test]
fn each_program_takes_its_own_protocol_and_blank() {
    let dir = temp_dir("claims-protocols");
    let text = std::fs::read_to_string("inputs/per-depth.csv").unwrap();
    let rows: Vec<&str> = text.lines().take(41).collect();
    let data = dir.join("depths.csv");
    std::fs::write(&data, rows.join("\n") + "\n").unwrap();
    let out = dir.join("run");
    let toy = "python3 tests/solvers/toy_solver.py";
    let run = bin()
        .args(["run", data.to_str().unwrap(), "-s", "none", "--check", "-q"])
        .args(["--solver", &format!("alice={toy} --require-blank x")])
        .args([
            "--solver",
            &format!("bob={toy} --protocol steps --require-blank 0"),
        ])
        .args(["--solver-protocol", "bob=steps", "--solver-blank", "bob=0"])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(err.contains("check: alice: 40 verified"), "{err}");
    assert!(err.contains("check: bob: 40 verified"), "{err}");
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let (strategy, path) = (col(&h, "strategy"), col(&h, "steps"));
    assert_eq!(rows.iter().filter(|r| r[strategy] == "bob").count(), 40);
    assert!(rows.iter().all(|r| !r[path].is_empty()));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let info = |i: usize, k: &str| json["external_solvers"][i][k].as_str().unwrap().to_string();
    assert_eq!(
        (info(0, "protocol"), info(0, "blank")),
        ("moves".into(), "x".into())
    );
    assert_eq!(
        (info(1, "protocol"), info(1, "blank")),
        ("steps".into(), "0".into())
    );
    // A protocol for a solver the run does not have is refused before anything runs.
    let wrong = bin()
        .args([
            "run",
            data.to_str().unwrap(),
            "-s",
            "none",
            "--check",
            "-q",
            "--force",
        ])
        .args(["--solver", &format!("bob={toy} --protocol steps")])
        .args(["--solver-protocol", "alice=steps"])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2), "{}", stderr(&wrong));
    assert!(
        stderr(&wrong).contains("`alice` is not a --solver NAME"),
        "{}",
        stderr(&wrong)
    );
}

/// An option set away from its default that no strategy of the run reads is refused before
/// anything runs, naming the strategies that read it (declared in their own files); the
/// same option with a strategy that reads it is taken, and `run -s list` lists each
/// strategy's options.
#[test]
fn an_option_no_strategy_reads_is_refused() {
    let dir = temp_dir("claims-unused");
    let out = dir.join("run");
    let run = |args: &[&str]| {
        bin()
            .args(["run", "inputs/per-depth.csv", "-q", "--force", "--out"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap()
    };
    for (args, says) in [
        (
            &[
                "-s",
                "table",
                "--heuristic",
                "pdb",
                "--pdb-partition",
                "9-9",
            ][..],
            "--heuristic pdb is read only by astar, idastar, dida, idastar-tt, wastar, greedy, \
             and this run takes table",
        ),
        (
            &["-s", "astar", "--weight", "3"],
            "--weight 3 is read only by wastar",
        ),
        (
            &["-s", "astar", "--hash-buckets", "7"],
            "--hash-buckets 7 is read only by bfs-hash",
        ),
        (
            &["-s", "none", "--solver", "a=./x", "--weight", "2"],
            "takes no built-in strategy",
        ),
    ] {
        let res = run(args);
        assert_eq!(res.status.code(), Some(2), "{args:?}");
        assert!(stderr(&res).contains(says), "{args:?}: {}", stderr(&res));
        assert!(
            !out.join("cases.csv").exists(),
            "{args:?}: nothing is solved"
        );
    }
    // Read by a strategy of the run: checked against the boards, and refused there.
    let res = run(&[
        "-s",
        "table,astar",
        "--heuristic",
        "pdb",
        "--pdb-partition",
        "9-9",
    ]);
    assert_eq!(res.status.code(), Some(2));
    assert!(
        stderr(&res).contains("partition 9-9 covers 18 tiles"),
        "{}",
        stderr(&res)
    );
    let res = run(&["-s", "table,wastar", "--weight", "3"]);
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    let list = bin().args(["run", "-s", "list"]).output().unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(
        text.contains("weight=1.5: states ranked by g + weight × h"),
        "{text}"
    );
    assert!(
        text.contains("; takes 1 to 1000, up to three decimals; --weight sets it for all"),
        "{text}"
    );
    // The pattern databases' options come with the heuristic, once per strategy that reads it.
    let astar = text
        .split("\nidastar ")
        .next()
        .and_then(|t| t.split("\nastar ").nth(1))
        .unwrap_or_default();
    for option in [
        "heuristic=manhattan: ",
        "partition=default: ",
        "lookup=max: ",
    ] {
        assert_eq!(astar.matches(option).count(), 1, "{option}: {text}");
    }
}
