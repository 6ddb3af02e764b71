//! `tilebench space`: how many states lie at each distance from a goal.

use super::{CmdResult, OK};
use crate::cli::SpaceArgs;
use std::io::Write;
use std::time::Instant;
use tilebench::puzzle::{Board, Shape};
use tilebench::space::census;

pub fn run(args: SpaceArgs) -> CmdResult {
    let shape: Shape = args.size;
    let goal = match &args.goal {
        Some(g) => Board::parse(g, Some(shape)).map_err(|e| format!("--goal `{g}`: {e}"))?,
        None => Board::standard_goal(shape),
    };
    let t0 = Instant::now();
    let census = census(goal, args.farthest).map_err(|e| e.to_string())?;
    let built = t0.elapsed();
    let written = (|| {
        let mut out = std::io::stdout().lock();
        writeln!(out, "distance,states,cumulative_states")?;
        let mut cum = 0u64;
        for (d, &n) in census.counts.iter().enumerate() {
            cum += n;
            writeln!(out, "{d},{n},{cum}")?;
        }
        Ok(OK)
    })();
    if written.is_err() {
        return super::stdout_written(written);
    }
    let max = census.counts.len() - 1;
    let at_max = census.counts[max];
    eprintln!(
        "{shape} board, goal {goal}: {} reachable states, largest distance {max} ({at_max} state(s)); built in {:.3} s",
        census.counts.iter().sum::<u64>(),
        built.as_secs_f64()
    );
    for b in &census.farthest {
        eprintln!("  farthest: {b}");
    }
    if at_max > census.farthest.len() as u64 {
        eprintln!("  … and {} more", at_max - census.farthest.len() as u64);
    }
    Ok(OK)
}
