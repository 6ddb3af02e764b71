//! `tilebench verify`: checks a run's results against independent truth, without re-solving
//! (the checks are the library's [`tilebench::check::verify`]):
//!
//! - every stored path is replayed from its start and must reach its goal in `steps` moves;
//! - `solved`/`unsolvable` must agree with the parity test;
//! - optimal strategies must agree on each case;
//! - `matches_expected` and `optimal` must agree with `steps` and `expected_steps`;
//! - counters must be sane for built-in strategies;
//! - every answer must agree with the row's `expected_steps`;
//! - the rows must be those run.json describes: one per case × solver, in its solvers' order.
//!
//! It fails closed: a run whose paths were not stored (`run` without `--paths`) is verified
//! for what can be, says so, and exits 1 unless `--no-paths` accepts that; a cases.csv
//! without its run.json is verified row by row and exits 1 (its count cannot be checked).

use super::{CmdResult, FAILED, OK};
use crate::cli::VerifyArgs;

pub fn run(args: VerifyArgs) -> CmdResult {
    let v = tilebench::check::verify(&args.results, args.show).map_err(|e| e.to_string())?;
    let path = v.path.display();
    eprintln!(
        "verify: {} rows, {} of {} solved paths replayed",
        v.rows, v.replayed, v.solved
    );
    if v.count > 0 {
        for f in &v.failures {
            eprintln!("verify failed: {f}");
        }
        if v.count > v.failures.len() {
            eprintln!("verify failed: … and {} more", v.count - v.failures.len());
        }
        eprintln!("verify: {} failure(s) in {path}", v.count);
        return Ok(FAILED);
    }
    if v.info.is_none() {
        eprintln!(
            "verify: the rows are ok, but there is no run.json beside {path}: their number and \
             solvers could not be checked against the run; give the run's results directory"
        );
        return Ok(FAILED);
    }
    if v.replayed < v.solved {
        let why = if v.paths_recorded() {
            format!("{} solved rows have no path", v.solved - v.replayed)
        } else {
            "the run was made without --paths".to_string()
        };
        eprintln!(
            "verify: ok, {} of {} paths replayed ({why})",
            v.replayed, v.solved
        );
        if args.no_paths {
            return Ok(OK);
        }
        eprintln!(
            "verify: the paths not replayed are not verified: run with --paths to store them, \
             or pass --no-paths to accept the rest"
        );
        return Ok(FAILED);
    }
    eprintln!("verify: ok");
    Ok(OK)
}
