//! `tilebench verify`: checks a run's results against independent truth, without re-solving.
//!
//! - every stored path is replayed from its start and must reach its goal in `steps` moves;
//! - `solved`/`unsolvable` must agree with the parity test;
//! - optimal strategies must agree on each case;
//! - `matches_expected` must agree with `steps` and `expected_steps`;
//! - counters must be sane (expanded and stored ≤ generated + the number of roots: 2 for
//!   bibfs, 1 for the others; present on searched rows) for built-in strategies; external
//!   programs (`run --solver`) report counters of their own definition, or none, and their
//!   rows are not checked for them;
//! - `optimal` must agree with `steps` and `expected_steps`.

use super::{CmdResult, FAILED, OK};
use crate::cli::VerifyArgs;
use tilebench::check;
use tilebench::check::RowView;
use tilebench::harness::record::RowStatus;
use tilebench::harness::rundir::RunDir;
use tilebench::puzzle::{is_solvable, Board, Move};
use tilebench::report::cases_csv::{self, CaseRow};
use tilebench::search::registry;

/// Every problem with one row, as messages.
pub fn verify_row(r: &CaseRow) -> Vec<String> {
    let mut bad = Vec::new();
    let at = format!("{}:{} {}", r.input, r.line, r.strategy);
    let searched = matches!(
        r.status.as_str(),
        "solved" | "unsolvable" | "limit" | "wrong"
    );
    let builtin = registry::find(&r.strategy).is_some();
    if searched && builtin {
        // Every state but the roots is generated before it is stored or expanded; bibfs
        // searches from two roots (start and goal), the others from one.
        let roots = if r.strategy == "bibfs" { 2 } else { 1 };
        match (r.expanded, r.generated, r.stored) {
            (Some(e), Some(g), Some(s)) => {
                if e > g + roots {
                    bad.push(format!("{at}: expanded {e} > generated {g} + {roots}"));
                }
                if s > g + roots {
                    bad.push(format!("{at}: stored {s} > generated {g} + {roots}"));
                }
            }
            _ => bad.push(format!("{at}: a searched row without counters")),
        }
    }
    if searched && r.latency_ns.is_none() {
        bad.push(format!("{at}: a searched row without latency_ns"));
    }
    if let (Some(opt), Some(e), Some(n), "solved") =
        (r.optimal, r.expected_steps, r.steps, r.status.as_str())
    {
        if e >= 0 && opt != (n <= e) {
            bad.push(format!(
                "{at}: optimal is {opt} but steps {n} vs expected_steps {e} say {}",
                n <= e
            ));
        }
    }
    let recomputed = match (r.status.as_str(), r.expected_steps) {
        ("solved" | "unsolvable", Some(e)) => Some(r.steps == Some(e)),
        _ => None,
    };
    if recomputed != r.matches_expected {
        bad.push(format!(
            "{at}: matches_expected is {:?} but steps {:?} vs expected_steps {:?} say {:?}",
            r.matches_expected, r.steps, r.expected_steps, recomputed
        ));
    }
    if !matches!(r.status.as_str(), "solved" | "unsolvable") {
        return bad;
    }
    let boards = Board::parse(&r.start, None)
        .and_then(|s| Board::parse(&r.goal, Some(s.shape())).map(|g| (s, g)));
    let (start, goal) = match boards {
        Ok(b) => b,
        Err(e) => {
            bad.push(format!("{at}: cannot read the boards back: {e}"));
            return bad;
        }
    };
    let solvable = is_solvable(&start, &goal);
    match r.status.as_str() {
        "unsolvable" => {
            if solvable {
                bad.push(format!(
                    "{at}: marked unsolvable, but parity says the pair is solvable"
                ));
            }
            if r.steps != Some(-1) {
                bad.push(format!(
                    "{at}: unsolvable with steps {:?} (should be -1)",
                    r.steps
                ));
            }
        }
        _ => {
            if !solvable {
                bad.push(format!(
                    "{at}: marked solved, but parity says the pair is unsolvable"
                ));
            }
            // A 0-step path is an empty field, which reads back as no path.
            let path = r.path.as_deref().or((r.steps == Some(0)).then_some(""));
            if let Some(p) = path {
                match Move::parse_path(p)
                    .and_then(|path| start.replay(&path).map(|end| (end, path.len())))
                {
                    Err(e) => bad.push(format!("{at}: path `{p}`: {e}")),
                    Ok((end, _)) if end != goal => bad.push(format!(
                        "{at}: path `{p}` ends at {end}, not at the goal {goal}"
                    )),
                    Ok((_, n)) if Some(n as i64) != r.steps => bad.push(format!(
                        "{at}: path has {n} moves but steps says {:?}",
                        r.steps
                    )),
                    Ok(_) => {}
                }
            }
        }
    }
    bad
}

pub fn run(args: VerifyArgs) -> CmdResult {
    let path = RunDir::cases_csv(&args.results);
    let rows = cases_csv::read(&path)?;
    let mut failures: Vec<String> = rows.iter().flat_map(verify_row).collect();
    let views: Vec<RowView> = rows
        .iter()
        .map(|r| RowView::of_row(r, registry::find(&r.strategy).is_some()))
        .collect();
    failures.extend(check::disagreements(&views));
    let solved = rows
        .iter()
        .filter(|r| r.status == RowStatus::Solved)
        .count();
    let replayed = rows
        .iter()
        .filter(|r| r.status == RowStatus::Solved && (r.path.is_some() || r.steps == Some(0)))
        .count();
    eprintln!(
        "verify: {} rows, {replayed} of {solved} solved paths replayed",
        rows.len()
    );
    if replayed < solved {
        eprintln!(
            "verify: {} solved rows have no path; run with --paths to store them",
            solved - replayed
        );
    }
    if failures.is_empty() {
        eprintln!("verify: ok");
        return Ok(OK);
    }
    for f in failures.iter().take(args.show) {
        eprintln!("verify failed: {f}");
    }
    if failures.len() > args.show {
        eprintln!("verify failed: … and {} more", failures.len() - args.show);
    }
    eprintln!(
        "verify: {} failure(s) in {}",
        failures.len(),
        path.display()
    );
    Ok(FAILED)
}
