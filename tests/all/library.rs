//! A Rust user's own solver, run in-process through the library pipeline: judged like every
//! strategy (path replay, parity, optimality against `expected_steps`), written as a normal
//! run directory. Plus the example under `examples/`, run as a user would.

use crate::common::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use tilebench::harness::pipeline::{execute_with, Ending, Finished};
use tilebench::harness::plan::RunPlan;
use tilebench::observe::Silent;
use tilebench::puzzle::{Board, Move};
use tilebench::search::{
    registry, Claim, Config, Limits, Outcome, Prepare, Problem, Reply, SolveError, Solver, Usage,
};

/// Answers with astar's path changed by `edit`: a solver that can be made wrong on purpose.
struct Edited {
    name: &'static str,
    astar: Box<dyn Solver>,
    edit: fn(&mut Vec<Move>),
    claim: Claim,
}

impl Edited {
    fn new(name: &'static str, edit: fn(&mut Vec<Move>)) -> Edited {
        Edited {
            name,
            astar: registry::find("astar").unwrap().build(&Config::default()),
            edit,
            claim: Claim::Optimal,
        }
    }
    fn claiming(mut self, claim: &str) -> Edited {
        self.claim = claim.parse().unwrap();
        self
    }
}

impl Solver for Edited {
    fn name(&self) -> &str {
        self.name
    }
    fn claim(&self) -> Claim {
        self.claim
    }
    fn prepare(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        self.astar.prepare(goals, ctx)
    }
    fn solve(&self, p: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        let mut out = self.astar.solve(p, limits)?;
        if let Some(path) = &mut out.path {
            (self.edit)(path);
        }
        Ok(out)
    }
}

fn run_plan(plan: RunPlan) -> Box<Finished> {
    match execute_with(plan, &Silent, &AtomicBool::new(false)).unwrap() {
        Ending::Finished(f) => f,
        Ending::Stopped(_) => panic!("nothing raised the stop flag"),
    }
}

fn plan(out: &Path, solver: impl Solver + 'static) -> RunPlan {
    plan_to(solver).with_out(out).with_threads(2)
}

/// [`plan`] with the default results directory.
fn plan_to(solver: impl Solver + 'static) -> RunPlan {
    RunPlan::new(vec!["inputs/ci.csv".into()])
        .with_strategies("astar")
        .unwrap()
        .with_solver(solver)
}

/// cases.csv's rows of one solver, as maps from column to value.
fn rows_of(dir: &Path, strategy: &str) -> Vec<std::collections::HashMap<String, String>> {
    let (h, rows) = read_csv(&dir.join("cases.csv"));
    rows.into_iter()
        .map(|r| {
            h.iter()
                .cloned()
                .zip(r)
                .collect::<std::collections::HashMap<_, _>>()
        })
        .filter(|m| m["strategy"] == strategy)
        .collect()
}

#[test]
fn a_solver_whose_paths_miss_the_goal_gets_wrong_rows() {
    let out = temp_dir("lib-wrong");
    // Tests run from the manifest directory, where inputs/ is.
    let run = run_plan(plan(
        &out,
        Edited::new("short", |p| {
            p.pop();
        }),
    ));
    let rows = rows_of(&out, "short");
    assert_eq!(rows.len(), 300);
    let mut wrong = 0;
    for r in &rows {
        let expected: i64 = r["expected_steps"].parse().unwrap();
        match expected {
            // Unsolvable pairs and solved boards have no move to drop.
            -1 => assert_eq!(r["status"], "unsolvable", "{r:?}"),
            0 => assert_eq!(r["status"], "solved", "{r:?}"),
            _ => {
                assert_eq!(r["status"], "wrong", "{r:?}");
                assert!(r["message"].contains("not at the goal"), "{r:?}");
                wrong += 1;
            }
        }
    }
    assert!(wrong > 250, "{wrong} wrong rows");
    let s = run
        .summaries
        .iter()
        .find(|s| s.strategy == "short")
        .unwrap();
    assert_eq!(s.wrong, wrong);
    // astar beside it is untouched, and --check fails on the wrong rows only.
    assert!(rows_of(&out, "astar")
        .iter()
        .all(|r| r["status"] != "wrong"));
    let failures = run.check_failures();
    assert_eq!(failures.len() as u64, wrong, "{failures:?}");
    assert!(failures.iter().all(|f| f.contains("short")));
    // A normal run directory: the journal is gone, the final files are there.
    for f in ["cases.csv", "summary.csv", "run.json", "latency-short.hgrm"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    assert!(!out.join("journal-slots.bin").exists());
}

/// A detour of `len / 4` out-and-back pairs at the end: about 1.5 × the shortest path.
fn half_again(p: &mut Vec<Move>) {
    if let Some(&m) = p.last() {
        for _ in 0..p.len() / 4 {
            p.extend([m.inverse(), m]);
        }
    }
}

/// A solver that claims `within=1.2` but returns paths about 1.5 × the shortest fails
/// `--check` on every path over 1.2 × the optimum, each named with its bound; the same
/// paths claimed `within=1.5` pass, and `valid` takes them all.
#[test]
fn a_solver_over_its_claim_fails_the_check_naming_the_bound() {
    use tilebench::check::AllowLimit;
    let mut verdicts = Vec::new();
    for claim in ["within=1.2", "within=1.5", "valid"] {
        let out = temp_dir(&format!("lib-claim-{claim}"));
        let run = run_plan(plan(
            &out,
            Edited::new("padded", half_again).claiming(claim),
        ));
        let mut over = 0;
        for r in rows_of(&out, "padded") {
            assert_eq!(r["claim"], claim);
            let (n, e): (i64, i64) = (
                r["steps"].parse().unwrap(),
                r["expected_steps"].parse().unwrap(),
            );
            if e <= 0 {
                continue;
            }
            // Independent truth: the bound from expected_steps, in whole moves.
            let bound = match claim {
                "within=1.2" => Some(e * 12 / 10),
                "within=1.5" => Some(e * 15 / 10),
                _ => None,
            };
            let suboptimality: f64 = r["suboptimality"].parse().unwrap();
            assert!(
                (suboptimality - n as f64 / e as f64).abs() < 0.0001,
                "{r:?}"
            );
            if bound.is_some_and(|b| n > b) {
                over += 1;
                assert_eq!(r["status"], "wrong", "{r:?}");
                let b = bound.unwrap();
                assert!(
                    r["message"].contains(&format!(
                        "over its claim: {n} moves, more than within=1.2 allows (1.2 × the \
                         optimum {e} (expected_steps), {b} moves)"
                    )),
                    "{r:?}"
                );
            } else {
                assert_eq!(r["status"], "solved", "{r:?}");
            }
        }
        let failed = run.verdict(Some(&AllowLimit::default())).check_failed;
        verdicts.push((claim, over, failed));
        assert_eq!(run.check_failures().len(), over, "{claim}");
    }
    assert!(verdicts[0].1 > 200, "{verdicts:?}");
    assert!(verdicts[0].2, "{verdicts:?}");
    assert_eq!(
        &verdicts[1..],
        [("within=1.5", 0, false), ("valid", 0, false)]
    );
}

#[test]
fn a_solver_with_longer_paths_is_judged_not_optimal() {
    let out = temp_dir("lib-long");
    // A detour of two moves (out and back) wherever the path's first move can be undone.
    let run = run_plan(plan(
        &out,
        Edited::new("detour", |p| {
            if let Some(&m) = p.first() {
                p.splice(0..0, [m, m.inverse()]);
            }
        }),
    ));
    for r in rows_of(&out, "detour") {
        let expected: i64 = r["expected_steps"].parse().unwrap();
        if expected > 0 {
            // It claims shortest paths (the default claim): a longer one is wrong.
            assert_eq!(r["status"], "wrong", "{r:?}");
            assert!(r["message"].contains("not optimal"), "{r:?}");
            assert_eq!(r["steps"], (expected + 2).to_string(), "{r:?}");
            assert_eq!(r["optimal"], "false", "{r:?}");
            assert_eq!(r["matches_expected"], "", "{r:?}");
        }
    }
    let s = run
        .summaries
        .iter()
        .find(|s| s.strategy == "detour")
        .unwrap();
    assert!(s.non_optimal > 250, "{}", s.non_optimal);
    assert_eq!(s.wrong, s.non_optimal);
}

#[test]
fn a_solver_named_like_a_strategy_is_refused_before_solving() {
    let out = temp_dir("lib-name");
    let plan = plan(&out, Edited::new("bfs-rank", |_| {}));
    let err = execute_with(plan, &Silent, &AtomicBool::new(false))
        .err()
        .unwrap();
    assert!(matches!(err, tilebench::Error::Plan(_)), "{err:?}");
    let err = err.to_string();
    assert!(
        err.contains("`bfs-rank` is the name of a built-in strategy"),
        "{err}"
    );
    assert!(!out.join("cases.csv").exists());
}

/// A results directory that cannot be made is `Error::Output`, typed: the directory is a
/// field (`path()`), and the message is the sentence the command line prints. A resume with
/// no directory named says so, with no path.
#[test]
fn a_results_directory_that_cannot_be_made_is_a_typed_output_error() {
    use tilebench::error::OutputError;
    let dir = temp_dir("lib-out-file");
    let file = dir.join("taken");
    std::fs::write(&file, "not a directory\n").unwrap();
    let err = execute_with(
        plan(&file, Edited::new("mine", |_| {})),
        &Silent,
        &AtomicBool::new(false),
    )
    .err()
    .unwrap();
    let tilebench::Error::Output(out) = &err else {
        panic!("{err:?}")
    };
    assert!(matches!(out, OutputError::Directory { .. }), "{out:?}");
    assert_eq!(out.path(), Some(file.as_path()));
    assert!(out.io_error().is_none());
    assert!(
        err.to_string().contains(&file.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory\n");

    let resume = plan_to(Edited::new("mine", |_| {}))
        .with_threads(2)
        .with_mode(tilebench::harness::plan::OutMode::Resume);
    let err = execute_with(resume, &Silent, &AtomicBool::new(false))
        .err()
        .unwrap();
    let tilebench::Error::Output(out) = &err else {
        panic!("{err:?}")
    };
    assert!(
        matches!(out, OutputError::Directory { path: None, .. }),
        "{out:?}"
    );
    // In the plan's words; the command line names its flags.
    assert!(
        err.to_string().starts_with(
            "resuming needs the results directory of the run to finish (the plan's `out`)"
        ),
        "{err}"
    );
    assert!(!err.to_string().contains("--"), "{err}");
    let OutputError::Directory { reason, .. } = out else {
        unreachable!()
    };
    assert!(
        reason
            .with_flags()
            .starts_with("--resume needs the --out DIR"),
        "{reason:?}"
    );
}

/// A strategy list with an unknown name, or with none, is a typed `PlanError::Strategies`
/// whose message lists the choices.
#[test]
fn an_unknown_strategy_is_a_typed_plan_error_listing_the_choices() {
    use tilebench::error::PlanError;
    use tilebench::search::registry::{self, StrategyError};
    let err = RunPlan::new(vec!["inputs/ci.csv".into()])
        .with_strategies("astar, Astra")
        .err()
        .unwrap();
    assert_eq!(
        err,
        PlanError::Strategies(StrategyError::Unknown {
            name: "Astra".into()
        })
    );
    assert_eq!(
        err.to_string(),
        format!(
            "unknown strategy `Astra`; choose from {} (or `all`)",
            registry::names().join(", ")
        )
    );
    assert!(registry::names().contains(&"astar"));
    assert_eq!(
        registry::parse_list(" , ").err(),
        Some(StrategyError::Empty)
    );
    assert_eq!(registry::lookup("IDAstar").unwrap().name, "idastar");
}

/// The example in `examples/greedy.rs`, as its README section runs it: built by `cargo
/// test` beside the tests.
#[test]
fn the_greedy_example_runs_and_its_answers_are_judged() {
    let exe = std::env::current_exe().unwrap();
    let example = exe
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("examples")
        .join(format!("greedy{}", std::env::consts::EXE_SUFFIX));
    assert!(
        example.is_file(),
        "cargo test builds the examples: {}",
        example.display()
    );
    let out = temp_dir("lib-greedy");
    let res = std::process::Command::new(&example)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["inputs/ci.csv", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(res.status.success(), "{}", stderr(&res));
    let greedy = rows_of(&out, "my-greedy");
    assert_eq!(greedy.len(), 300);
    let (mut longer, mut shortest) = (0, 0);
    for r in &greedy {
        let expected: i64 = r["expected_steps"].parse().unwrap();
        if expected == -1 {
            assert_eq!(r["status"], "unsolvable");
            continue;
        }
        assert_eq!(r["status"], "solved", "{r:?}");
        let steps: i64 = r["steps"].parse().unwrap();
        assert!(steps >= expected, "{r:?}");
        // Judged against expected_steps: `optimal` says whether the path is shortest.
        let optimal = r["optimal"] == "true";
        assert_eq!(optimal, steps == expected, "{r:?}");
        if optimal {
            shortest += 1;
        } else {
            longer += 1;
        }
    }
    assert!(
        longer > 100,
        "greedy search is not optimal: {longer} longer paths"
    );
    assert!(shortest > 0);
    let astar = rows_of(&out, "astar");
    assert!(astar.iter().all(|r| r["matches_expected"] == "true"));
    let stdout = String::from_utf8_lossy(&res.stdout);
    assert!(
        stdout.contains(&format!("{longer:4} not optimal")),
        "{stdout}"
    );
}

#[test]
fn solvers_run_and_are_listed_in_the_order_they_were_added() {
    use tilebench::prelude::*;
    use tilebench::search::configuration::Configuration;
    let out = temp_dir("lib-order");
    let fast = Configuration::parse("fast=wastar:weight=3", &Config::default()).unwrap();
    // A closure solver between a configuration and a strategy: each keeps its place.
    let lazy = solver_fn("lazy", |p: &Problem, _: &Limits| {
        Ok(shortcut(p, false)
            .unwrap_or_else(|| Outcome::without_path(Status::Limit, Stats::default())))
    });
    let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
        .with(fast)
        .with_solver(lazy)
        .with(tilebench::search::strategies::IDASTAR)
        .with_out(&out)
        .with_mode(tilebench::harness::plan::OutMode::Force);
    let done = run(plan).unwrap();
    let names: Vec<&str> = done.summaries.iter().map(|s| s.strategy.as_str()).collect();
    assert_eq!(names, ["fast", "lazy", "idastar"]);
    // cases.csv lists each case's rows in the same order.
    let rows = tilebench::results::cases_csv::read(&out.join("cases.csv")).unwrap();
    let first: Vec<&str> = rows.iter().take(3).map(|r| r.strategy.as_str()).collect();
    assert_eq!(first, ["fast", "lazy", "idastar"]);
    // The closure's rows: answered where no search is needed, `limit` elsewhere.
    assert!(rows
        .iter()
        .filter(|r| r.strategy == "lazy")
        .all(|r| matches!(r.status.as_str(), "solved" | "unsolvable" | "limit")));
}

/// Answers with astar's outcome and a measure of its own: a latency of 1 µs per move, and
/// the CPU time and memory a process would report.
struct SelfTimed(Box<dyn Solver>);

impl Solver for SelfTimed {
    fn name(&self) -> &str {
        "self-timed"
    }
    fn prepare(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        self.0.prepare(goals, ctx)
    }
    fn solve(&self, p: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        self.0.solve(p, limits)
    }
    fn reply(&self, p: &Problem, limits: &Limits) -> Result<Reply, SolveError> {
        let outcome = self.solve(p, limits)?;
        let moves = outcome.steps().unwrap_or(0) as u64;
        let mut reply = Reply::from(outcome);
        reply.report.latency = Some(std::time::Duration::from_micros(1 + moves));
        reply.report.usage = Some(Usage {
            cpu_us: 7 + moves,
            max_rss_kb: 4096,
        });
        Ok(reply)
    }
}

/// What a solver measures of itself reaches its rows: the latency it reports instead of the
/// harness's wall time, and its CPU time and memory; a solver that only `solve`s has none.
#[test]
fn a_solver_s_own_measure_is_its_rows_latency_and_usage() {
    let out = temp_dir("lib-self-timed");
    let astar = registry::find("astar").unwrap().build(&Config::default());
    run_plan(plan(&out, SelfTimed(astar)));
    let rows = rows_of(&out, "self-timed");
    assert_eq!(rows.len(), 300);
    for r in &rows {
        let moves: u64 = r["steps"].parse().unwrap_or(0);
        assert_eq!(r["latency_ns"], (1000 * (1 + moves)).to_string(), "{r:?}");
        assert_eq!(r["cpu_us"], (7 + moves).to_string(), "{r:?}");
        assert_eq!(r["max_rss_kb"], "4096", "{r:?}");
    }
    // astar beside it: the harness's own clock, and no process to measure.
    let astar = rows_of(&out, "astar");
    assert!(astar.iter().all(|r| r["cpu_us"].is_empty()));
    assert!(astar
        .iter()
        .any(|r| r["latency_ns"].parse::<u64>().unwrap() % 1000 != 0));
}

/// Reports a latency of its own that grows by 1 µs with each call, and (with `chatty`) a
/// note that differs each call.
struct Drifting {
    calls: std::sync::atomic::AtomicU64,
    chatty: bool,
}

impl Solver for Drifting {
    fn name(&self) -> &str {
        "drifting"
    }
    fn solve(&self, p: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        registry::find("table")
            .unwrap()
            .solve_once(&Config::default(), p, limits)
    }
    fn reply(&self, p: &Problem, limits: &Limits) -> Result<Reply, SolveError> {
        let n = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut reply = Reply::from(self.solve(p, limits)?);
        reply.report.latency = Some(std::time::Duration::from_micros(1 + n % 3));
        if self.chatty {
            reply.report.note = Some(format!("call {n}"));
        }
        Ok(reply)
    }
}

/// With repeats, a solver's own latency may differ each time (the row keeps the median and
/// the fastest), but what it said may not: a note that changes is a solver that is not
/// deterministic, and its rows are errors.
#[test]
fn repeats_take_the_median_of_a_solver_s_own_latency_and_hold_its_words() {
    use std::sync::atomic::AtomicU64;
    let out = temp_dir("lib-drifting");
    let plan = |chatty| {
        RunPlan::new(vec!["inputs/seeds.csv".into()])
            .without_builtins()
            .with_solver(Drifting {
                calls: AtomicU64::new(0),
                chatty,
            })
            .with_threads(1)
            .with_repeat(3)
            .with_out(&out)
            .with_mode(tilebench::harness::plan::OutMode::Force)
    };
    run_plan(plan(false));
    let rows = rows_of(&out, "drifting");
    assert_eq!(rows.len(), 6);
    // One thread: each case's three calls report 1, 2 and 3 µs.
    for r in &rows {
        assert_eq!(
            (r["latency_ns"].as_str(), r["latency_min_ns"].as_str()),
            ("2000", "1000"),
            "{r:?}"
        );
        assert_ne!(r["status"], "error", "{r:?}");
    }
    run_plan(plan(true));
    let rows = rows_of(&out, "drifting");
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r["status"], "error", "{r:?}");
        assert!(r["message"].contains("not deterministic"), "{r:?}");
    }
}
