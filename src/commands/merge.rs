//! `tilebench merge DIR… --out DIR`: the outputs of `run --shard I/N` runs, put back together
//! into the run they split (the library's [`tilebench::harness::merge`], all or nothing).

use super::{CmdResult, OK};
use crate::cli::MergeArgs;
use std::io::Write;
use tilebench::report::table::Table;
use tilebench::report::SummaryExport;

pub fn run(args: MergeArgs) -> CmdResult {
    let merged = tilebench::harness::merge::merge(
        &args.shards,
        &args.out,
        args.force,
        std::env::args().collect(),
    )
    .map_err(|e| super::flags::merge_in_flags(&e))?;
    if !args.quiet {
        print!("{}", Table.render(&merged.summaries));
    }
    let k = merged.summaries.len();
    eprintln!(
        "tilebench: merged {} shards: {} cases × {k} {}; results in {}",
        merged.shards,
        merged.cases,
        if k == 1 { "strategy" } else { "strategies" },
        merged.dir.display()
    );
    let _ = std::io::stdout().flush();
    Ok(OK)
}
