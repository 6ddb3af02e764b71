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
//! - `optimal` must agree with `steps` and `expected_steps`;
//! - every answer must agree with the row's `expected_steps` (the dataset's answer, copied
//!   into cases.csv), whatever `matches_expected` says; wrong answers (status `wrong`, or
//!   `optimal` false) are failures, as for `run --check`.
//!
//! Messages show cells as the user sees them in the CSV: `` `7` ``, `` `true` ``, or empty.

use super::{CmdResult, FAILED, OK};
use crate::cli::VerifyArgs;
use tilebench::check;
use tilebench::check::RowView;
use tilebench::harness::record::{Record, RowStatus};
use tilebench::harness::rundir::RunDir;
use tilebench::puzzle::{is_solvable, Board, Move};
use tilebench::report::cases_csv::{self, CaseRow};
use tilebench::search::registry;

/// A cell as the user sees it in cases.csv: its value in backquotes, or "empty".
fn cell<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "empty".into(), |v| format!("`{v}`"))
}

/// Whether `optimal` and `matches_expected` agree with `steps` and `expected_steps`.
fn expected_flags(r: &CaseRow, at: &str) -> Vec<String> {
    let mut bad = Vec::new();
    if let (Some(opt), Some(e), Some(n), "solved") =
        (r.optimal, r.expected_steps, r.steps, r.status.as_str())
    {
        if e >= 0 && opt != (n <= e) {
            bad.push(format!(
                "{at}: optimal is `{opt}`, but steps `{n}` and expected_steps `{e}` make it `{}`",
                n <= e
            ));
        }
    }
    let recomputed = Record::compare(r.status, r.steps, r.expected_steps);
    if recomputed != r.matches_expected {
        let why = match (recomputed, r.expected_steps) {
            (Some(_), _) => format!(
                "steps {} and expected_steps {} make it {}",
                cell(r.steps),
                cell(r.expected_steps),
                cell(recomputed)
            ),
            (None, None) => "it should be empty: the row has no expected_steps".into(),
            (None, Some(_)) => format!(
                "it should be empty: a `{}` row has no answer to compare with expected_steps",
                r.status.as_str()
            ),
        };
        bad.push(format!(
            "{at}: matches_expected is {}, but {why}",
            cell(r.matches_expected)
        ));
    }
    bad
}

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
    bad.extend(expected_flags(r, &at));
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
                    "{at}: marked unsolvable, but steps is {} (an unsolvable row has steps `-1`)",
                    cell(r.steps)
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
                        "{at}: the path has {n} moves, but steps is {}",
                        cell(r.steps)
                    )),
                    Ok(_) => {}
                }
            }
        }
    }
    bad
}

/// What verify found so far, over the rows read: counts, and the first failures.
#[derive(Default)]
struct Found {
    rows: usize,
    solved: usize,
    replayed: usize,
    failures: Vec<String>,
    count: usize,
}

/// Rows checked together: whole cases (a case's rows are adjacent in a cases.csv), about
/// this many rows, so that a run of any size is verified in bounded memory.
const CHUNK: usize = 1 << 14;

impl Found {
    fn fail(&mut self, keep: usize, f: impl IntoIterator<Item = String>) {
        for f in f {
            if self.failures.len() < keep {
                self.failures.push(f);
            }
            self.count += 1;
        }
    }

    /// Checks rows of whole cases: each row alone, then the rows of each case together.
    fn check(&mut self, rows: &[CaseRow], keep: usize) {
        self.rows += rows.len();
        for r in rows {
            self.fail(keep, verify_row(r));
            if r.status == RowStatus::Solved {
                self.solved += 1;
                self.replayed += usize::from(r.path.is_some() || r.steps == Some(0));
            }
        }
        let views: Vec<RowView> = rows
            .iter()
            .map(|r| {
                let mut v = RowView::of_row(r, registry::find(&r.strategy).is_some());
                v.matches_expected = Record::compare(r.status, r.steps, r.expected_steps);
                v
            })
            .collect();
        self.fail(keep, check::disagreements(&views));
        let wrong: Vec<String> = check::findings(&views, &tilebench::search::Limits::default())
            .iter()
            .filter(|f| f.reason.class() == check::Class::Wrong)
            .filter(|f| f.reason != check::Reason::Disagreement)
            .map(check::Finding::line)
            .collect();
        self.fail(keep, wrong);
    }
}

pub fn run(args: VerifyArgs) -> CmdResult {
    let path = RunDir::cases_csv(&args.results);
    let mut found = Found::default();
    let mut chunk: Vec<CaseRow> = Vec::new();
    for row in cases_csv::Rows::open(&path)? {
        let row = row?;
        let new_case = chunk
            .last()
            .is_some_and(|l| (l.line, &l.input) != (row.line, &row.input));
        if chunk.len() >= CHUNK && new_case {
            found.check(&chunk, args.show);
            chunk.clear();
        }
        chunk.push(row);
    }
    found.check(&chunk, args.show);
    if found.rows == 0 {
        return Err(format!(
            "{}: no rows, only the header: the run recorded no cases, so there is nothing to \
             verify; give the results of a run that solved its dataset",
            path.display()
        ));
    }
    let Found {
        rows,
        solved,
        replayed,
        failures,
        count,
    } = found;
    eprintln!("verify: {rows} rows, {replayed} of {solved} solved paths replayed");
    if replayed < solved {
        eprintln!(
            "verify: {} solved rows have no path; run with --paths to store them",
            solved - replayed
        );
    }
    if count == 0 {
        eprintln!("verify: ok");
        return Ok(OK);
    }
    for f in &failures {
        eprintln!("verify failed: {f}");
    }
    if count > failures.len() {
        eprintln!("verify failed: … and {} more", count - failures.len());
    }
    eprintln!("verify: {count} failure(s) in {}", path.display());
    Ok(FAILED)
}
