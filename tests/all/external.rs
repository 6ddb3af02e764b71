//! `run --solver`: external programs benchmarked beside the built-in strategies.
//!
//! The programs are `tests/solvers/toy_solver.py` (python3; correct, or misbehaving on
//! request: `--fault suboptimal|garbage|crash|hang|lie|illegal`) and the `tilebench solve`
//! binary itself, which is a seed-article-style program.

use crate::common::*;
use std::collections::HashMap;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

/// A `--solver` value running the toy solver with `args`.
fn toy(name: &str, args: &str) -> String {
    assert!(
        std::process::Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "these tests run tests/solvers/toy_solver.py and need python3 on PATH"
    );
    format!("{name}=python3 tests/solvers/toy_solver.py {args}")
}

/// Runs `tilebench run` with `args`, output into `out`.
fn run(out: &Path, args: &[&str]) -> Output {
    bin()
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--force")
        .output()
        .unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// A CSV file's rows as column → value maps.
fn maps(path: &Path) -> impl Iterator<Item = HashMap<String, String>> {
    let (h, rows) = read_csv(path);
    rows.into_iter()
        .map(move |r| h.iter().cloned().zip(r).collect::<HashMap<_, _>>())
}

/// cases.csv rows of one strategy.
fn rows(out: &Path, strategy: &str) -> Vec<HashMap<String, String>> {
    maps(&out.join("cases.csv"))
        .filter(|r| r["strategy"] == strategy)
        .collect()
}

/// summary.csv's row of one strategy.
fn summary(out: &Path, strategy: &str) -> HashMap<String, String> {
    maps(&out.join("summary.csv"))
        .find(|r| r["strategy"] == strategy)
        .unwrap_or_else(|| panic!("no summary row for {strategy}"))
}

/// Standard-goal pairs with known answers; `1 2 3 x 4 6 7 5 8` (line 4) is the one the faulty
/// programs trip on.
const SMALL: &str = "id,start,expected_steps
a,1 2 3 4 5 6 7 8 x,0
b,2 3 4 1 5 x 7 6 8,19
c,1 2 3 x 4 6 7 5 8,3
d,2 1 3 4 5 6 7 8 x,-1
e,1 2 3 4 5 6 x 7 8,2
f,1 2 3 4 5 6 7 x 8,1
g,1 2 3 4 x 6 7 5 8,2
";
const TRIGGER: &str = "1 2 3 x 4 6 7 5 8";

fn small(dir: &Path) -> String {
    let p = dir.join("small.csv");
    std::fs::write(&p, SMALL).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_correct_program_is_benchmarked_beside_astar() {
    let out = temp_dir("ext-correct");
    let res = run(
        &out,
        &[
            "inputs/per-depth.csv",
            "-s",
            "astar",
            "--solver",
            &toy("toy", "--counters"),
            "--paths",
            "--check",
            "-q",
            "-j",
            "2",
        ],
    );
    assert_eq!(code(&res), 0, "{}", stderr(&res));
    let astar = rows(&out, "astar");
    let toy = rows(&out, "toy");
    assert_eq!((astar.len(), toy.len()), (96, 96));
    for (a, t) in astar.iter().zip(&toy) {
        assert_eq!(t["status"], "solved", "{t:?}");
        assert_eq!(t["optimal"], "true", "{t:?}");
        assert_eq!(t["steps"], a["steps"], "{t:?}");
        assert_eq!(t["matches_expected"], "true", "{t:?}");
        // Counters come from the program's stderr; it reports no peak_frontier.
        assert!(
            !t["expanded"].is_empty() && !t["stored"].is_empty(),
            "{t:?}"
        );
        assert_eq!(t["peak_frontier"], "", "{t:?}");
        assert!(!t["latency_ns"].is_empty() && !t["path"].is_empty() || t["steps"] == "0");
        assert_eq!(a["optimal"], "", "built-in rows leave optimal empty");
    }
    let s = summary(&out, "toy");
    assert_eq!((s["solved"].as_str(), s["wrong"].as_str()), ("96", "0"));
    assert_eq!(s["non_optimal"], "0");
    assert!(!s["expanded_mean"].is_empty());
    assert!(out.join("latency-toy.hgrm").is_file());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["strategies"], serde_json::json!(["astar", "toy"]));
    let info = &json["external_solvers"][0];
    assert_eq!(info["protocol"], "moves");
    assert!(info["latency"].as_str().unwrap().starts_with("round trip"));
    // verify replays the program's paths too.
    let v = bin().arg("verify").arg(&out).output().unwrap();
    assert_eq!(code(&v), 0, "{}", stderr(&v));
    assert!(
        stderr(&v).contains("192 of 192 solved paths replayed"),
        "{}",
        stderr(&v)
    );
}

#[test]
fn a_suboptimal_program_is_caught_on_every_case() {
    let out = temp_dir("ext-suboptimal");
    let args = [
        "inputs/per-depth.csv",
        "-s",
        "none",
        "--solver",
        &toy("lazy", "--fault suboptimal"),
        "-q",
    ];
    let res = run(&out, &[&args[..], &["--check"]].concat());
    assert_eq!(code(&res), 1, "{}", stderr(&res));
    let lazy = rows(&out, "lazy");
    assert_eq!(lazy.len(), 96);
    for r in &lazy {
        assert_eq!(
            (r["status"].as_str(), r["optimal"].as_str()),
            ("wrong", "false")
        );
        let (steps, expected): (i64, i64) = (
            r["steps"].parse().unwrap(),
            r["expected_steps"].parse().unwrap(),
        );
        assert_eq!(steps, expected + 2);
        assert!(r["message"].contains(&format!(
            "not optimal: {steps} moves, the optimum is {expected} (expected_steps)"
        )));
        // No counters printed: the columns stay empty.
        assert_eq!(r["expanded"], "");
    }
    let s = summary(&out, "lazy");
    assert_eq!(
        (s["non_optimal"].as_str(), s["wrong"].as_str()),
        ("96", "96")
    );
    assert_eq!(s["expanded_mean"], "");
    // Each case is listed once (not again as an expected_steps mismatch).
    let err = stderr(&res);
    assert!(
        err.contains("check: lazy: 0 verified, 96 wrong (96 not optimal), 0 unverified"),
        "{err}"
    );
    assert!(
        err.contains("check: failed: 96 wrong and 0 unverified of 96 rows"),
        "{err}"
    );
    assert!(
        err.contains(
            "per-depth.csv:5 (id 4): lazy: wrong answer: sent `1 2 3 4 5 x 7 8 6`, it \
             printed `dud`: not optimal: 3 moves, the optimum is 1"
        ),
        "{err}"
    );

    // Without --check the run succeeds and says what it saw.
    let res = run(&out, &args);
    assert_eq!(code(&res), 0, "{}", stderr(&res));
    assert!(stderr(&res).contains("lazy gave 96 wrong answer(s)"));
}

#[test]
fn an_answer_whose_optimum_is_unknown_is_not_called_optimal() {
    // No expected_steps, and --max-nodes 1 leaves astar, the reference, without the optima
    // (19 and 31): the program's 21 and 33 can be neither accepted nor refused.
    let dir = temp_dir("ext-unknown");
    let data = dir.join("bare.csv");
    std::fs::write(
        &data,
        "id,start\na,2 3 4 1 5 x 7 6 8\nb,8 6 7 2 5 4 3 x 1\n",
    )
    .unwrap();
    let data = data.to_str().unwrap();
    let out = dir.join("out");
    for protocol in ["steps", "moves"] {
        let res = run(
            &out,
            &[
                data,
                "-s",
                "none",
                "--solver",
                &toy("lazy", &format!("--protocol {protocol} --fault suboptimal")),
                "--solver-protocol",
                protocol,
                "--max-nodes",
                "1",
                "--check",
                "-q",
            ],
        );
        assert_eq!(code(&res), 1, "{protocol}: {}", stderr(&res));
        let err = stderr(&res);
        for (r, claim) in rows(&out, "lazy").iter().zip(["21", "33"]) {
            assert_eq!(
                (
                    r["status"].as_str(),
                    r["steps"].as_str(),
                    r["optimal"].as_str()
                ),
                ("solved", claim, ""),
                "{protocol}: {r:?}"
            );
            assert!(r["message"].contains("not verified: the row has no expected_steps, and astar, computing the optimum, ran out of --max-nodes 1"), "{protocol}: {r:?}");
        }
        assert!(
            err.contains("check: lazy: 0 verified, 0 wrong, 2 unverified (2 optimum unknown)"),
            "{protocol}: {err}"
        );
        assert!(
            err.contains("check: failed: 0 wrong and 2 unverified of 2 rows"),
            "{err}"
        );
        assert!(!err.contains("passed"), "{err}");
    }
    // With the budget to compute them, the same answers are refused.
    let res = run(
        &out,
        &[
            data,
            "-s",
            "none",
            "--solver",
            &toy("lazy", "--protocol steps --fault suboptimal"),
            "--solver-protocol",
            "steps",
            "--check",
            "-q",
        ],
    );
    assert_eq!(code(&res), 1, "{}", stderr(&res));
    let r = rows(&out, "lazy");
    assert!(r.iter().all(|r| r["status"] == "wrong"), "{r:?}");
    assert!(
        r[1]["message"].contains("the optimum is 31 moves (astar)"),
        "{r:?}"
    );
}

#[test]
fn wrong_answers_are_status_wrong() {
    let dir = temp_dir("ext-wrong");
    let data = small(&dir);
    let out = dir.join("out");
    let res = run(
        &out,
        &[
            &data,
            "-s",
            "astar",
            "--solver",
            &toy("liar", "--fault lie"),
            "--solver",
            &toy("offboard", "--fault illegal"),
            "--check",
            "-q",
        ],
    );
    assert_eq!(code(&res), 1, "{}", stderr(&res));
    for r in rows(&out, "liar") {
        assert_eq!(r["status"], "wrong", "{r:?}");
        if r["id"] == "d" {
            assert_eq!(r["steps"], "2");
            assert!(
                r["message"].contains("the pair is unsolvable (parity)"),
                "{r:?}"
            );
        } else {
            assert_eq!(r["steps"], "-1");
            assert!(r["message"].contains("it printed `unsolvable`: the pair is solvable"));
        }
    }
    for r in rows(&out, "offboard") {
        if r["id"] == "d" {
            assert_eq!(r["status"], "unsolvable");
        } else {
            assert_eq!(r["status"], "wrong", "{r:?}");
            assert!(
                r["message"].contains("takes the blank off the board"),
                "{r:?}"
            );
        }
    }
    assert_eq!(summary(&out, "liar")["wrong"], "7");
    assert_eq!(summary(&out, "offboard")["wrong"], "6");
    let err = stderr(&res);
    for line in [
        "check: astar: 7 verified (6 expected_steps, 1 parity), 0 wrong, 0 unverified",
        "check: liar: 0 verified, 7 wrong (7 wrong answer), 0 unverified",
        "check: offboard: 1 verified (1 parity), 6 wrong (6 wrong answer), 0 unverified",
        "check: failed: 13 wrong and 0 unverified of 21 rows (8 verified)",
    ] {
        assert!(err.contains(line), "{line}: {err}");
    }
    assert!(
        err.contains("small.csv:3 (id b): liar: wrong answer: sent `2 3 4 1 5 x 7 6 8`, it printed `unsolvable`"),
        "{err}"
    );

    // steps protocol: a number that is not the optimum is wrong.
    let res = run(
        &out,
        &[
            &data,
            "-s",
            "none",
            "--solver",
            &toy("counter", "--protocol steps --fault suboptimal"),
            "--solver-protocol",
            "steps",
            "--check",
            "-q",
        ],
    );
    assert_eq!(code(&res), 1, "{}", stderr(&res));
    let r = rows(&out, "counter");
    assert!(r
        .iter()
        .filter(|r| r["id"] != "d")
        .all(|r| r["status"] == "wrong"));
    assert_eq!(r[3]["status"], "unsolvable");
    assert!(
        r[1]["message"].contains("it printed `21`: the optimum is 19 moves"),
        "{:?}",
        r[1]
    );
}

#[test]
fn garbage_costs_only_its_case() {
    let dir = temp_dir("ext-garbage");
    let data = small(&dir);
    let out = dir.join("out");
    let res = run(
        &out,
        &[
            &data,
            "-s",
            "none",
            "-j",
            "1",
            "-q",
            "--solver",
            &toy("babbler", &format!("--fault garbage --on '{TRIGGER}'")),
        ],
    );
    // error rows make the run exit 2, after writing everything
    assert_eq!(code(&res), 2, "{}", stderr(&res));
    let r = rows(&out, "babbler");
    for row in &r {
        if row["start"] == TRIGGER {
            assert_eq!(row["status"], "error");
            assert!(row["message"].starts_with(&format!("{data}:4: babbler: sent `{TRIGGER}`, it printed `no idea`, which is neither `unsolvable` nor a move string")), "{row:?}");
        } else {
            assert!(
                matches!(row["status"].as_str(), "solved" | "unsolvable"),
                "{row:?}"
            );
        }
    }
    assert_eq!(summary(&out, "babbler")["errors"], "1");
}

#[test]
fn a_line_after_each_answer_is_skipped_with_one_notice() {
    // `done` after each answer cannot be an answer: every row is judged on its answer, and
    // the line is quoted once. Graded as a judge would (--solver-strict), each row after the
    // first finds it and is an error.
    let dir = temp_dir("ext-chatty");
    let data = small(&dir);
    for strict in [false, true] {
        let out = dir.join(format!("out-{strict}"));
        let mut args = vec![data.as_str(), "-s", "none", "-j", "1", "-q", "--solver"];
        let solver = toy("chatty", "--fault chatty");
        args.push(&solver);
        if strict {
            args.push("--solver-strict");
        }
        let res = run(&out, &args);
        let err = stderr(&res);
        let rows = rows(&out, "chatty");
        if strict {
            assert_eq!(code(&res), 2, "{err}");
            let errors: Vec<_> = rows.iter().filter(|r| r["status"] == "error").collect();
            assert!(errors.len() + 1 >= rows.len(), "{rows:?}");
            for r in errors {
                assert!(r["message"].contains("printed `done`"), "{r:?}");
                assert!(r["message"].contains("--solver-strict"), "{r:?}");
            }
        } else {
            assert_eq!(code(&res), 0, "{err}");
            for r in &rows {
                assert!(
                    matches!(r["status"].as_str(), "solved" | "unsolvable"),
                    "{r:?}"
                );
            }
            let told: Vec<_> = err
                .lines()
                .filter(|l| l.contains("lines that are not answers") && l.contains("`done`"))
                .collect();
            assert_eq!(told.len(), 1, "{err}");
        }
    }
}

#[test]
fn a_crash_costs_only_its_case_and_the_program_is_restarted() {
    let dir = temp_dir("ext-crash");
    let data = small(&dir);
    for spawn in ["persistent", "per-case"] {
        let out = dir.join(spawn);
        let res = run(
            &out,
            &[
                &data,
                "-s",
                "none",
                "-j",
                "1",
                "-q",
                "--solver-spawn",
                spawn,
                "--solver",
                &toy("fragile", &format!("--fault crash --on '{TRIGGER}'")),
            ],
        );
        assert_eq!(code(&res), 2, "{}", stderr(&res));
        let r = rows(&out, "fragile");
        let bad: Vec<_> = r.iter().filter(|r| r["status"] == "error").collect();
        assert_eq!(bad.len(), 1, "{spawn}: {r:?}");
        assert_eq!(bad[0]["id"], "c");
        assert!(
            bad[0]["message"].contains("exited with status 3 without answering"),
            "{:?}",
            bad[0]
        );
        assert!(
            bad[0]["message"].contains("toy_solver: crashing on purpose"),
            "{:?}",
            bad[0]
        );
        // The cases after the crash are answered (by a new process in persistent mode).
        assert!(
            r[3..].iter().all(|r| r["status"] != "error"),
            "{spawn}: {r:?}"
        );
        assert_eq!(summary(&out, "fragile")["solved"], "5");
    }
}

#[test]
fn a_hang_is_a_limit_and_the_run_goes_on() {
    let dir = temp_dir("ext-hang");
    let data = small(&dir);
    let out = dir.join("out");
    let t0 = Instant::now();
    let res = run(
        &out,
        &[
            &data,
            "-s",
            "none",
            "-j",
            "2",
            "-q",
            // A fresh program's start-up counts against its first case's timeout: 3 s
            // leaves room for python3 starting on a loaded machine.
            "--timeout",
            "3",
            "--solver",
            &toy("sleepy", &format!("--fault hang --on '{TRIGGER}'")),
        ],
    );
    assert_eq!(code(&res), 0, "{}", stderr(&res));
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    let r = rows(&out, "sleepy");
    let c = r.iter().find(|r| r["id"] == "c").unwrap();
    assert_eq!(c["status"], "limit");
    assert_eq!(
        c["limit_reason"], "time",
        "the program was killed at --timeout"
    );
    assert!(
        c["message"].contains("no answer within --timeout 3.000 s"),
        "{c:?}"
    );
    let ns: u64 = c["latency_ns"].parse().unwrap();
    assert!(ns >= 3_000_000_000, "{ns}");
    let s = summary(&out, "sleepy");
    assert_eq!(
        (
            s["limit"].as_str(),
            s["solved"].as_str(),
            s["unsolvable"].as_str()
        ),
        ("1", "5", "1"),
        "{r:?}"
    );
}

#[test]
fn steps_protocol_with_a_numeric_blank_and_any_goal() {
    let out = temp_dir("ext-steps");
    let res = run(
        &out,
        &[
            "inputs/seeds.csv",
            "-s",
            "astar",
            "--solver",
            &toy("third", "--protocol steps --require-blank 0"),
            "--solver-protocol",
            "steps",
            "--solver-blank",
            "0",
            "--check",
            "-q",
        ],
    );
    assert_eq!(code(&res), 0, "{}", stderr(&res));
    for (a, t) in rows(&out, "astar").iter().zip(rows(&out, "third")) {
        assert_eq!(t["steps"], a["steps"], "{t:?}");
        assert_eq!(t["status"], a["status"], "{t:?}");
        let expect = if a["status"] == "solved" { "true" } else { "" };
        assert_eq!(t["optimal"], expect, "{t:?}");
    }
}

#[test]
fn moves_protocol_turns_corner_goals_into_the_standard_goal() {
    let dir = temp_dir("ext-goals");
    let data = dir.join("goals.csv");
    std::fs::write(
        &data,
        "id,start,goal,expected_steps
topleft,3 1 5 4 x 8 6 7 2,x 3 5 8 6 4 7 2 1,22
topright,5 x 4 2 6 3 8 7 1,4 3 x 5 7 1 8 2 6,
bottomleft,2 6 4 1 3 7 x 5 8,8 1 5 7 3 6 x 4 2,
renamed,1 2 3 4 5 6 7 8 x,8 7 6 5 4 3 2 1 x,30
middle,1 2 3 4 5 6 7 8 x,1 2 3 4 x 5 6 7 8,
",
    )
    .unwrap();
    let out = dir.join("out");
    let res = run(
        &out,
        &[
            data.to_str().unwrap(),
            "-s",
            "astar",
            "--paths",
            "-q",
            "--solver",
            &toy("toy", ""),
        ],
    );
    assert_eq!(code(&res), 2, "{}", stderr(&res));
    let astar = rows(&out, "astar");
    let toy = rows(&out, "toy");
    for (a, t) in astar.iter().zip(&toy).take(4) {
        assert_eq!(
            (&t["status"], &t["steps"]),
            (&a["status"], &a["steps"]),
            "{t:?}"
        );
        if a["status"] == "solved" {
            assert_eq!(t["optimal"], "true", "{t:?}");
        }
    }
    assert_eq!(toy[4]["status"], "error");
    assert!(
        toy[4]["message"].contains("has its blank in row 2, column 2, not in a corner"),
        "{:?}",
        toy[4]
    );
    // The paths, mapped back from the mirrored boards the program saw, replay on the row's own.
    let v = bin().arg("verify").arg(&out).output().unwrap();
    assert_eq!(code(&v), 0, "{}", stderr(&v));
}

#[test]
fn per_case_processes_report_counters_like_the_builtin_they_run() {
    // `tilebench solve --stats` reads boards until end of input, prints a path per board and
    // the counters on stderr: one process per case, and its counters must be astar's.
    let out = temp_dir("ext-per-case");
    let me = env!("CARGO_BIN_EXE_tilebench");
    let res = run(
        &out,
        &[
            "inputs/per-depth.csv",
            "-s",
            "astar",
            "--solver",
            &format!("ts='{me}' solve --stats"),
            "--solver-spawn",
            "per-case",
            "--repeat",
            "2",
            "--paths",
            "--check",
            "-q",
        ],
    );
    assert_eq!(code(&res), 0, "{}", stderr(&res));
    let cols = [
        "status",
        "steps",
        "expanded",
        "generated",
        "stored",
        "peak_frontier",
        "path",
    ];
    for (a, t) in rows(&out, "astar").iter().zip(rows(&out, "ts")) {
        for c in cols {
            assert_eq!(a[c], t[c], "{c}: {t:?}");
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let latency = json["external_solvers"][0]["latency"].as_str().unwrap();
    assert!(latency.starts_with("process wall time"), "{latency}");
}

#[test]
fn usage_errors_stop_before_solving() {
    let out = temp_dir("ext-usage");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--solver", "astar=./x"],
            "`astar` is the name of a built-in strategy",
        ),
        (&["--solver", "./x"], "write NAME=COMMAND"),
        (
            &["--solver", "a=./x", "--solver", "a=./y"],
            "the name `a` is taken",
        ),
        (&["--solver", "a/b=./x"], "must be letters, digits"),
        (
            &["--solver", "a=./x", "--solver-protocol", "path"],
            "--solver-protocol path: `path` is not a protocol; choose moves or steps",
        ),
        (&["-s", "none"], "--strategy none leaves nothing to run"),
    ];
    for (args, needle) in cases {
        let res = run(&out, args);
        assert_eq!(code(&res), 2, "{args:?}");
        assert!(stderr(&res).contains(needle), "{args:?}: {}", stderr(&res));
        assert!(
            !out.join("cases.csv").exists(),
            "{args:?}: nothing is solved"
        );
    }
}

#[test]
fn a_program_that_cannot_start_is_an_error_per_case() {
    let out = temp_dir("ext-missing");
    let res = run(
        &out,
        &["-s", "none", "-q", "--solver", "ghost=./no-such-solver"],
    );
    assert_eq!(code(&res), 2);
    let r = rows(&out, "ghost");
    assert!(r.iter().all(|r| r["status"] == "error"));
    assert!(
        r[0]["message"].contains("exited with status 127 (the shell could not find the command)"),
        "{:?}",
        r[0]
    );
}

#[test]
fn a_program_that_exits_before_reading_says_how_it_ended() {
    // It closes its input first, so the case cannot even be written (a broken pipe): the
    // error still gives its exit status and its stderr, not a bare "cannot write".
    let out = temp_dir("ext-early-exit");
    let res = run(
        &out,
        &[
            "-s",
            "none",
            "-q",
            "--solver-protocol",
            "steps",
            "--solver",
            "early=exec 0<&-; echo 'no input for me' >&2; exit 3",
        ],
    );
    assert_eq!(code(&res), 2);
    let r = rows(&out, "early");
    assert!(!r.is_empty());
    assert!(r.iter().all(|row| row["status"] == "error"));
    // The first starts say how it ended; after three, it is not started again.
    let (tried, given_up): (Vec<_>, Vec<_>) = r
        .iter()
        .partition(|row| !row["message"].contains("not started again"));
    assert!(!tried.is_empty() && !given_up.is_empty(), "{r:?}");
    for row in tried {
        let m = &row["message"];
        assert!(m.contains("exited with status 3"), "{m}");
        assert!(m.contains("no input for me"), "{m}");
    }
}

#[test]
fn results_without_the_new_columns_still_read() {
    // Files written before `optimal`, `cpu_us` and `max_rss_kb` existed lack them; runs made
    // now have them. The old form is made here from a fresh run (the columns dropped), and
    // each is read beside the other.
    let dir = temp_dir("ext-old-columns");
    let fresh = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let res = run(
            &out,
            &[
                &["inputs/ci.csv", "-s", "astar,idastar", "--paths", "-q"],
                extra,
            ]
            .concat(),
        );
        assert_eq!(code(&res), 0, "{}", stderr(&res));
        out
    };
    let now = fresh("now", &[]);
    let (full_header, full_rows) = read_csv(&now.join("cases.csv"));
    let keep: Vec<usize> = (0..full_header.len())
        .filter(|&i| !["optimal", "cpu_us", "max_rss_kb"].contains(&full_header[i].as_str()))
        .collect();
    let header: Vec<String> = keep.iter().map(|&i| full_header[i].clone()).collect();
    let old_rows: Vec<Vec<String>> = full_rows
        .iter()
        .map(|r| keep.iter().map(|&i| r[i].clone()).collect())
        .collect();
    assert_eq!(
        header.len() + 3,
        full_header.len(),
        "the premise: {full_header:?}"
    );
    let strategy = header.iter().position(|h| h == "strategy").unwrap();
    let trimmed = dir.join("old").join("cases.csv");
    std::fs::create_dir_all(trimmed.parent().unwrap()).unwrap();
    let mut w = csv::Writer::from_path(&trimmed).unwrap();
    w.write_record(&header).unwrap();
    for r in &old_rows {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
    let base = now.join("cases.csv");
    let compare = |a: &Path, b: &Path| bin().arg("compare").arg(a).arg(b).output().unwrap();
    // Both ways, new beside old: every one of the 600 rows matched, no regression.
    for (a, b) in [(&base, &trimmed), (&trimmed, &base)] {
        let c = compare(a, b);
        let out = String::from_utf8_lossy(&c.stdout).to_string() + &stderr(&c);
        assert_eq!(code(&c), 0, "{out}");
        assert!(out.contains("no regression (600 rows matched"), "{out}");
    }
    // The old file's counters are read, not just its rows: beside a run that does about
    // half the work (linear conflict), the old one, as the current run, regresses, with its
    // own astar total.
    let lighter = fresh("lighter", &["--heuristic", "linear-conflict"]);
    let c = compare(&lighter, &trimmed);
    let out = String::from_utf8_lossy(&c.stdout).to_string() + &stderr(&c);
    assert_eq!(code(&c), 1, "{out}");
    let expanded = header.iter().position(|h| h == "expanded").unwrap();
    let old_total: u64 = old_rows
        .iter()
        .filter(|r| r[strategy] == "astar")
        .map(|r| r[expanded].parse::<u64>().unwrap_or(0))
        .sum();
    let line = out
        .lines()
        .find(|l| l.starts_with("astar") && l.contains("expanded (total)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains(&format!(" {old_total} ")), "{line}");
    // Without run.json, the configuration columns the old file has say what changed.
    assert!(line.ends_with("regressed (heuristic changed)"), "{line}");
    // With its run.json beside it (verify checks the rows against it), without the checksum
    // of the file it wrote (older runs have none; this file is not that one).
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(now.join("run.json")).unwrap()).unwrap();
    json.as_object_mut().unwrap().remove("cases_xxh3_64");
    std::fs::write(trimmed.with_file_name("run.json"), json.to_string()).unwrap();
    let v = bin().arg("verify").arg(&trimmed).output().unwrap();
    assert_eq!(code(&v), 0, "{}", stderr(&v));
}

/// A case in flight for longer than the stall notice's 5 s gets the notice on stderr, naming
/// the program, the file and the line, while the run goes on and records the answer (the
/// watch that gives the notice runs beside every pass).
#[test]
fn a_case_in_flight_for_5_s_is_named_on_stderr_and_still_recorded() {
    let dir = temp_dir("ext-stall");
    let csv = dir.join("one.csv");
    std::fs::write(&csv, "id,start,expected_steps\nslow,1 2 3 4 5 6 7 x 8,1\n").unwrap();
    let solver = toy("slow", "--delay 5600");
    let out = dir.join("out");
    let o = run(
        &out,
        &[
            csv.to_str().unwrap(),
            "-s",
            "none",
            "--solver",
            &solver,
            "-j",
            "1",
            "-q",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("slow: has not answered") && err.contains("one.csv:2") && err.contains("5 s"),
        "no stall notice naming the program and the case:\n{err}"
    );
    let r = rows(&out, "slow");
    assert_eq!(r.len(), 1);
    assert_eq!(
        (r[0]["status"].as_str(), r[0]["steps"].as_str()),
        ("solved", "1")
    );
}
