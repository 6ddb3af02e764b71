//! `tilebench pdb build`: load or build the pattern databases of a shape and goal.

use super::{CmdResult, OK};
use crate::cli::{PdbArgs, PdbOptions};
use crate::puzzle::{Board, Shape};
use crate::search::pdb::{self, PdbConfig};
use std::time::Instant;

/// Applies `--pdb-dir` and `--pdb-partition`.
pub fn configure(o: &PdbOptions) {
    pdb::configure(PdbConfig {
        dir: o.pdb_dir.clone(),
        partition: o.pdb_partition.clone(),
        no_reflection: o.pdb_no_reflection,
    });
}

pub fn run(args: PdbArgs) -> CmdResult {
    let shape: Shape = args.size.parse().map_err(|e| format!("--size: {e}"))?;
    let goal = match &args.goal {
        Some(g) => Board::parse(g, Some(shape)).map_err(|e| format!("--goal `{g}`: {e}"))?,
        None => Board::standard_goal(shape),
    };
    configure(&args.pdb);
    let (partition, dir) = pdb::settings(shape)?;
    let t0 = Instant::now();
    let set = pdb::load_or_build(shape, goal.blank(), &partition, &dir, &|l| eprintln!("{l}"));
    let entries: u64 = set.tables.iter().map(|t| t.len()).sum();
    eprintln!(
        "pdb: {shape} partition {} for goals with the blank at cell {}: {} tables, {entries} entries ({:.1} MB at 4 bits each) in {}, ready in {:.1} s",
        partition.name(),
        goal.blank(),
        set.tables.len(),
        set.bytes() as f64 / 1e6,
        dir.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(OK)
}
