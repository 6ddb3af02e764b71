//! `tilebench pdb build`: load or build the pattern databases of a shape and goal.

use super::{CmdResult, OK};
use crate::cli::{PdbArgs, PdbOptions};
use std::time::Instant;
use tilebench::puzzle::{Board, Shape};
use tilebench::search::pdb;

/// The pattern-database options the arguments give.
pub fn options(o: &PdbOptions) -> pdb::PdbOptions {
    pdb::PdbOptions {
        dir: o.pdb_dir.clone(),
        partition: o.pdb_partition.clone(),
        lookup: o.pdb_lookup,
    }
}

pub fn run(args: PdbArgs) -> CmdResult {
    let shape: Shape = args.size;
    let goal = match &args.goal {
        Some(g) => Board::parse(g, Some(shape)).map_err(|e| format!("--goal `{g}`: {e}"))?,
        None => Board::standard_goal(shape),
    };
    let opts = options(&args.pdb);
    let (partition, dir) = (opts.partition_for(shape)?, opts.dir());
    let t0 = Instant::now();
    let terminal = super::terminal::Terminal::new(false);
    let set = pdb::load_or_build(shape, goal.blank(), &partition, &dir, &terminal);
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
