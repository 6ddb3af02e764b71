//! Benchmark your own solver in-process: greedy best-first search (always expand the board
//! that looks closest by Manhattan distance), written here, outside the crate, and run
//! through tilebench's harness beside its `astar` on a bundled dataset.
//!
//! Greedy search expands few states and is not optimal, so it claims only valid paths
//! (`Solver::claim`: a solver that claims shortest paths, the default, gets `wrong` rows for
//! longer ones). The harness times every solve like a built-in strategy's, replays every path,
//! and compares every length with the dataset's `expected_steps`, so its longer answers show
//! up as `optimal = false` and a `suboptimality` above 1 in cases.csv, and as `non_optimal` in
//! summary.csv.
//!
//! cargo run --release --example greedy -- [DATASET] [OUT_DIR]
//! (defaults: inputs/random-1k.csv, results/greedy-example)
#![warn(clippy::too_many_lines)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use tilebench::prelude::*;

/// Greedy best-first search by Manhattan distance, with a closed set.
struct Greedy;

impl Solver for Greedy {
    fn name(&self) -> &str {
        // Not `greedy`: that is a built-in strategy's name, and names must be unique.
        "my-greedy"
    }

    fn claim(&self) -> Claim {
        Claim::Valid // any path that reaches the goal
    }

    fn solve(&self, p: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        if let Some(o) = shortcut(p, false) {
            return Ok(o); // start = goal, or unsolvable by parity
        }
        let h = Manhattan::new(&p.goal);
        let mut budget = Budget::new(limits);
        let mut stats = Stats::default();
        // Each seen board, with the board it was reached from and the move.
        let mut parent: HashMap<Board, Option<(Board, Move)>> = HashMap::new();
        // Lowest estimate first; among equals, the board seen first (deterministic).
        let mut boards = vec![p.start];
        let mut open = BinaryHeap::new();
        parent.insert(p.start, None);
        open.push((Reverse(h.estimate(&p.start)), Reverse(0)));
        while let Some((_, Reverse(i))) = open.pop() {
            let b = boards[i];
            if b == p.goal {
                let mut path = Vec::new();
                let mut at = b;
                while let Some(Some((from, m))) = parent.get(&at) {
                    path.push(*m);
                    at = *from;
                }
                path.reverse();
                stats.stored = parent.len() as u64;
                return Ok(Outcome::solved(path, stats));
            }
            if budget.exhausted(stats.expanded) {
                return Ok(Outcome::without_path(Status::Limit, stats));
            }
            stats.expanded += 1;
            for m in [Move::Up, Move::Down, Move::Left, Move::Right] {
                if let Some(next) = b.apply(m) {
                    stats.generated += 1;
                    if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                        e.insert(Some((b, m)));
                        open.push((Reverse(h.estimate(&next)), Reverse(boards.len())));
                        boards.push(next);
                    }
                }
            }
            stats.peak_frontier = stats.peak_frontier.max(open.len() as u64);
        }
        Ok(Outcome::without_path(Status::Unsolvable, stats))
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dataset = args.next().unwrap_or_else(|| "inputs/random-1k.csv".into());
    let out = args
        .next()
        .unwrap_or_else(|| "results/greedy-example".into());
    let plan = RunPlan::new(vec![dataset])
        .with(strategies::ASTAR)
        .with_solver(Greedy)
        .with_out(out)
        .with_mode(OutMode::Force);
    let run = match run(plan) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    for s in &run.summaries {
        println!(
            "{:9} {:5} solved, {:4} not optimal, {:3} wrong, p50 {:>8} µs, mean expanded {:>10}",
            s.strategy,
            s.solved,
            s.non_optimal,
            s.wrong,
            tilebench::report::table::figure(s.latency_p50_us, 1),
            tilebench::report::table::figure(s.expanded_mean, 1)
        );
    }
    println!("results in {}", run.dir.path().display());
}
