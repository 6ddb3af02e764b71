//! `tilebench solve`: the seed articles' programs as a command.

use super::{CmdResult, BAD_INPUT, OK};
use crate::cli::SolveArgs;
use std::io::{BufRead, Write};
use std::time::Instant;
use tilebench::puzzle::{Board, Move};
use tilebench::search::{registry, Config, Limits, Prepare, Problem, Status};

pub fn run(args: SolveArgs) -> CmdResult {
    let builtin = registry::lookup(&args.strategy)?;
    let size = args.size;
    let goal = args
        .goal
        .as_deref()
        .map(|g| Board::parse(g, size).map_err(|e| format!("--goal `{g}`: {e}")))
        .transpose()?;
    let config = Config {
        exhaustive: args.exhaustive,
        heuristic: args.heuristic,
        pdb: super::pdb::options(&args.pdb),
        ..Config::default()
    };
    let mut strategy = builtin.build(&config);
    let terminal = super::terminal::Terminal::new(true);
    let ctx = Prepare {
        threads: 1,
        observer: &terminal,
    };
    let limits = Limits::default();

    // (label for messages, start text, goal text if the input gives one)
    let mut jobs: Vec<(String, String, Option<String>)> = Vec::new();
    if args.boards.is_empty() {
        let stdin = std::io::stdin();
        let lines: Vec<(usize, String)> = stdin
            .lock()
            .lines()
            .enumerate()
            .map(|(i, l)| l.map(|l| (i + 1, l)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        let lines: Vec<(usize, String)> = lines
            .into_iter()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        if args.pairs {
            for pair in lines.chunks(2) {
                let (n, start) = &pair[0];
                let goal = pair.get(1).map(|(_, g)| g.clone());
                if goal.is_none() {
                    return Err(format!(
                        "stdin line {n}: a start with no goal line after it (--pairs reads a start line, then a goal line)"
                    ));
                }
                jobs.push((format!("stdin line {n}"), start.clone(), goal));
            }
        } else {
            jobs.extend(
                lines
                    .into_iter()
                    .map(|(n, l)| (format!("stdin line {n}"), l, None)),
            );
        }
    } else {
        jobs.extend(
            args.boards
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("board {}", i + 1), b.clone(), None)),
        );
    }

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = OK;
    for (label, start_text, goal_text) in jobs {
        let parsed = (|| {
            let start =
                Board::parse(&start_text, size).map_err(|e| format!("{label}: start: {e}"))?;
            let goal = match &goal_text {
                Some(g) => Board::parse(g, Some(start.shape()))
                    .map_err(|e| format!("{label}: goal: {e}"))?,
                None => goal.unwrap_or_else(|| Board::standard_goal(start.shape())),
            };
            Problem::new(start, goal).map_err(|e| format!("{label}: {e}"))
        })();
        let problem = match parsed {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                writeln!(out, "invalid").map_err(|e| e.to_string())?;
                code = BAD_INPUT;
                continue;
            }
        };
        // Tables (`table`, pattern databases) are built or loaded before the clock starts,
        // as `run` does, so --stats latency is the search alone.
        let outcome = strategy
            .prepare(&[problem.goal], &ctx)
            .map(|()| Instant::now());
        let outcome = outcome.and_then(|t0| Ok((strategy.solve(&problem, &limits)?, t0)));
        let (outcome, t0) = match outcome {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {label}: {e}");
                writeln!(out, "error").map_err(|e| e.to_string())?;
                code = BAD_INPUT;
                continue;
            }
        };
        let elapsed = t0.elapsed();
        let line = match (outcome.status, args.steps) {
            (Status::Solved, false) => Move::path_string(outcome.path.as_deref().unwrap_or(&[])),
            (Status::Solved, true) => outcome.steps().unwrap_or(0).to_string(),
            (Status::Unsolvable, false) => "unsolvable".into(),
            (Status::Unsolvable, true) => "-1".into(),
            (Status::Limit, _) => "limit".into(),
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
        if args.stats {
            let s = outcome.stats;
            eprintln!(
                "{label}: strategy={} status={} steps={} expanded={} generated={} stored={} peak_frontier={} latency_us={:.1}",
                strategy.name(),
                outcome.status.as_str(),
                outcome.steps().map_or("-".into(), |n| n.to_string()),
                s.expanded,
                s.generated,
                s.stored,
                s.peak_frontier,
                elapsed.as_secs_f64() * 1e6
            );
        }
    }
    Ok(code)
}
