//! Correctness checks over result rows, shared by `run --check` and `verify`: the same typed
//! view of a row, whether it was just solved ([`RowView::of_record`]) or read back from a
//! cases.csv ([`RowView::of_row`]).

use crate::harness::input::Case;
use crate::harness::record::{Record, RowStatus};
use crate::report::cases_csv::CaseRow;
use std::collections::BTreeMap;

/// The fields of a row that the checks read.
#[derive(Clone, Copy, Debug)]
pub struct RowView<'a> {
    /// The input file.
    pub input: &'a str,
    /// The row's line in it.
    pub line: u64,
    /// The row's id, or empty.
    pub id: &'a str,
    /// The solver.
    pub strategy: &'a str,
    /// Whether that solver is optimal by construction.
    pub optimal_solver: bool,
    /// The row's status.
    pub status: RowStatus,
    /// The moves claimed (−1: unsolvable).
    pub steps: Option<i64>,
    /// The dataset's answer.
    pub expected_steps: Option<i64>,
    /// Whether `steps` equals `expected_steps`.
    pub matches_expected: Option<bool>,
    /// Whether a judged answer is shortest.
    pub optimal: Option<bool>,
    /// The row's message.
    pub message: &'a str,
}

impl<'a> RowView<'a> {
    /// A row just solved.
    pub fn of_record(case: &'a Case, r: &'a Record, optimal_solver: bool) -> RowView<'a> {
        RowView {
            input: &case.source,
            line: case.line,
            id: &case.id,
            strategy: &r.strategy,
            optimal_solver,
            status: r.status,
            steps: r.steps,
            expected_steps: case.expected_steps,
            matches_expected: r.matches_expected,
            optimal: r.optimal,
            message: &r.message,
        }
    }

    /// A row read back from a cases.csv; `optimal_solver` says which solvers are optimal by
    /// construction.
    pub fn of_row(r: &'a CaseRow, optimal_solver: bool) -> RowView<'a> {
        RowView {
            input: &r.input,
            line: r.line,
            id: &r.id,
            strategy: &r.strategy,
            optimal_solver,
            status: r.status,
            steps: r.steps,
            expected_steps: r.expected_steps,
            matches_expected: r.matches_expected,
            optimal: r.optimal,
            message: &r.message,
        }
    }

    /// The message without its leading `file:line: solver: `, which a check line says once.
    fn detail(&self) -> &'a str {
        let prefix = format!("{}:{}: {}: ", self.input, self.line, self.strategy);
        self.message.strip_prefix(&prefix).unwrap_or(self.message)
    }

    fn place(&self) -> String {
        if self.id.is_empty() {
            format!("{}:{}", self.input, self.line)
        } else {
            format!("{}:{} (id {})", self.input, self.line, self.id)
        }
    }
}

fn steps_text(s: Option<i64>) -> String {
    match s {
        Some(-1) => "unsolvable".into(),
        Some(n) => format!("{n} steps"),
        None => "no answer".into(),
    }
}

/// Every check `run --check` makes, in order: [`mismatches`], [`disagreements`],
/// [`judged_failures`], [`unanswered`].
pub fn failures(rows: &[RowView]) -> Vec<String> {
    let mut out = mismatches(rows);
    out.extend(disagreements(rows));
    out.extend(judged_failures(rows));
    out.extend(unanswered(rows));
    out
}

/// Rows whose answer differs from the dataset's `expected_steps` (except answers that are
/// valid but not optimal: [`judged_failures`] lists those).
pub fn mismatches(rows: &[RowView]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.matches_expected == Some(false) && r.optimal != Some(false))
        .map(|r| {
            format!(
                "{}: {} answered {}, expected {}",
                r.place(),
                r.strategy,
                steps_text(r.steps),
                steps_text(r.expected_steps)
            )
        })
        .collect()
}

/// Cases on which optimal solvers that answered (solved or unsolvable) disagree.
pub fn disagreements(rows: &[RowView]) -> Vec<String> {
    let mut by_case: BTreeMap<(&str, u64), Vec<&RowView>> = BTreeMap::new();
    for r in rows {
        if r.optimal_solver && matches!(r.status, RowStatus::Solved | RowStatus::Unsolvable) {
            by_case.entry((r.input, r.line)).or_default().push(r);
        }
    }
    let mut out = Vec::new();
    // BTreeMap orders by input name then line; report in that order.
    for group in by_case.values() {
        if group.iter().any(|r| r.steps != group[0].steps) {
            let answers: Vec<String> = group
                .iter()
                .map(|r| format!("{} {}", r.strategy, steps_text(r.steps)))
                .collect();
            out.push(format!(
                "{}: optimal strategies disagree: {}",
                group[0].place(),
                answers.join(", ")
            ));
        }
    }
    out
}

/// Rows a solver left unanswered: it ran out of its budget (`limit`) or failed (`error`).
/// A check cannot say such a case is right.
pub fn unanswered(rows: &[RowView]) -> Vec<String> {
    rows.iter()
        .filter(|r| matches!(r.status, RowStatus::Limit | RowStatus::Error))
        .map(|r| {
            let detail = r.detail();
            let what = if r.status == RowStatus::Limit {
                "no answer within its budget"
            } else {
                "no answer"
            };
            if detail.is_empty() {
                format!("{}: {}: {what}", r.place(), r.strategy)
            } else {
                format!("{}: {}: {what}: {detail}", r.place(), r.strategy)
            }
        })
        .collect()
}

/// One solver's answers, counted for the check's last line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The solver.
    pub solver: String,
    /// Rows with an answer (solved, unsolvable or wrong).
    pub answered: usize,
    /// Valid answers: a path that reaches the goal, a length or `unsolvable` the judge accepted.
    pub right: usize,
    /// Valid answers that are also shortest: not judged longer than the optimum, and equal to
    /// `expected_steps` where the row has one.
    pub optimal: usize,
    /// Rows with no answer (`limit`, `error`).
    pub unanswered: usize,
}

/// The answers of each solver, in order of first appearance.
pub fn tally(rows: &[RowView]) -> Vec<Tally> {
    let mut out: Vec<Tally> = Vec::new();
    for r in rows {
        if r.status == RowStatus::Invalid {
            continue;
        }
        let i = match out.iter().position(|t| t.solver == r.strategy) {
            Some(i) => i,
            None => {
                out.push(Tally {
                    solver: r.strategy.to_string(),
                    ..Tally::default()
                });
                out.len() - 1
            }
        };
        let t = &mut out[i];
        match r.status {
            RowStatus::Limit | RowStatus::Error => t.unanswered += 1,
            RowStatus::Wrong => t.answered += 1,
            _ => {
                // Solved or unsolvable: the judge found the answer valid.
                t.answered += 1;
                t.right += 1;
                if r.optimal != Some(false) && r.matches_expected != Some(false) {
                    t.optimal += 1;
                }
            }
        }
    }
    out
}

/// Answers that are wrong (status `wrong`) or valid but not optimal (`optimal` = false),
/// with the row's message (what was sent, what came back, why).
pub fn judged_failures(rows: &[RowView]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.status == RowStatus::Wrong || r.optimal == Some(false))
        .map(|r| {
            let detail = r.detail();
            format!("{}: {}: {detail}", r.place(), r.strategy)
        })
        .collect()
}
