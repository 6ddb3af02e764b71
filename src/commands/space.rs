//! `tilebench space`: how many states lie at each distance from a goal.

use super::{CmdResult, OK};
use crate::cli::SpaceArgs;
use std::io::Write;
use std::time::Instant;
use tilebench::puzzle::{Board, Shape};
use tilebench::space::DistanceTable;

pub fn run(args: SpaceArgs) -> CmdResult {
    let shape: Shape = args.size;
    let goal = match &args.goal {
        Some(g) => Board::parse(g, Some(shape)).map_err(|e| format!("--goal `{g}`: {e}"))?,
        None => Board::standard_goal(shape),
    };
    let t0 = Instant::now();
    let table = DistanceTable::build(goal)?;
    let built = t0.elapsed();
    let census = (|| {
        let mut out = std::io::stdout().lock();
        writeln!(out, "distance,states,cumulative_states")?;
        let mut cum = 0u64;
        for (d, &n) in table.counts().iter().enumerate() {
            cum += n;
            writeln!(out, "{d},{n},{cum}")?;
        }
        Ok(OK)
    })();
    if census.is_err() {
        return super::stdout_written(census);
    }
    let max = table.max_distance();
    let farthest = table.states_at(max as u8);
    eprintln!(
        "{shape} board, goal {goal}: {} reachable states, largest distance {max} ({} state(s)); built in {:.3} s",
        table.reachable(),
        farthest.len(),
        built.as_secs_f64()
    );
    for b in farthest.iter().take(args.farthest) {
        eprintln!("  farthest: {b}");
    }
    if farthest.len() > args.farthest {
        eprintln!("  … and {} more", farthest.len() - args.farthest);
    }
    Ok(OK)
}
