//! What the checks found over a run's rows, summed up as they stream by ([`Digest`]), and
//! how each solver is judged ([`Judged`]).

use super::{Class, Reason, RowView, SolverCheck};
use crate::dataset::Case;
use crate::results::record::{Record, RowStatus};
use crate::search::{Claim, Limits, Solver};
use std::collections::BTreeMap;

/// How a solver is judged: whether it is optimal by construction, and what it claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Optimal by construction ([`Solver::optimal`]): not compared with the optimum (its
    /// lengths are checked against the other optimal solvers' and `expected_steps` instead).
    pub by_construction: bool,
    /// What its paths promise ([`Solver::claim`]).
    pub claim: Claim,
}

impl Judged {
    /// How `solver` is judged.
    pub fn of(solver: &dyn Solver) -> Judged {
        Judged {
            by_construction: solver.optimal(),
            claim: solver.claim(),
        }
    }
}

/// Messages of one kind: the first few kept, all counted.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    /// The first [`Kept::MAX`] (or the cap given), in row order.
    pub first: Vec<String>,
    /// How many there were.
    pub count: usize,
}

impl Kept {
    /// Messages kept of a kind, by default: enough for every line a verdict shows.
    pub const MAX: usize = 20;

    fn push(&mut self, cap: usize, m: impl FnOnce() -> String) {
        if self.first.len() < cap {
            self.first.push(m());
        }
        self.count += 1;
    }
}

/// What the checks found over a run's rows, summed up as the rows stream by, a chunk of whole
/// cases at a time: counts, and the first few messages of each kind, never every row.
#[derive(Clone, Debug, Default)]
pub struct Digest {
    /// Rows with an answer to check (all but `invalid` ones).
    pub findings: usize,
    /// The messages of the shard's invalid cases.
    pub invalid: Kept,
    /// The messages of the `error` rows.
    pub errors: Kept,
    /// Each solver's rows counted by `--check`'s reasons, in order of first appearance.
    pub solvers: Vec<SolverCheck>,
    /// Per (solver, in `solvers`; reason that is not verified): the first `SHOWN` rows'
    /// check lines, and how many rows.
    pub failing: BTreeMap<(usize, Reason), Kept>,
    /// The check lines of the rows that are not verified (the first [`Digest::FAILURES`]).
    pub failures: Kept,
    /// Per solver, the message of its first `error` or `limit` row, in row order: the line a
    /// solver none of whose rows was answered ends the run with.
    pub first_unanswered: BTreeMap<String, String>,
}

impl Digest {
    /// Rows named per solver and reason; the rest are counted.
    pub const SHOWN: usize = 5;
    /// Check lines kept for a run's failures (`Finished::check_failures`).
    pub const FAILURES: usize = 1000;

    /// Adds whole cases: `cases` (as many as `records` has cases: `solvers` records each, in
    /// solver order); `solvers[j]` says how solver `j` is judged.
    pub fn add(
        &mut self,
        cases: &[&Case],
        records: &[Record],
        solvers: &[Judged],
        limits: &Limits,
    ) {
        let k = solvers.len().max(1);
        // Solver `j`'s place in `self.solvers`, looked up by name once a call, not a row; its
        // counts by reason summed here, and added to its map once a call.
        let mut place: Vec<Option<usize>> = vec![None; k];
        let mut counts = vec![[0usize; Reason::ALL.len()]; k];
        // One pass, a case at a time: its rows are read once, while they are in the cache.
        let mut views: Vec<RowView> = Vec::with_capacity(k);
        for (i, case) in cases.iter().enumerate() {
            let rows = records
                .get(i * k..records.len().min((i + 1) * k))
                .unwrap_or_default();
            if let Err(m) = &case.problem {
                self.invalid.push(Kept::MAX, || m.clone());
            }
            views.clear();
            for (r, judged) in rows.iter().zip(solvers) {
                if matches!(r.status, RowStatus::Error | RowStatus::Limit) {
                    if r.status == RowStatus::Error {
                        self.errors.push(Kept::MAX, || r.message.clone());
                    }
                    if !self.first_unanswered.contains_key(&*r.strategy) {
                        self.first_unanswered
                            .insert(r.strategy.to_string(), r.message.clone());
                    }
                }
                views.push(RowView::of_record(case, r, *judged));
            }
            super::each_finding_by_case(&views, k, limits, |j, f| {
                self.findings += 1;
                counts[j][f.reason as usize] += 1;
                let s = *place[j].get_or_insert_with(|| {
                    match self.solvers.iter().position(|s| s.solver == f.row.strategy) {
                        Some(s) => s,
                        None => {
                            self.solvers.push(SolverCheck {
                                solver: f.row.strategy.to_string(),
                                ..SolverCheck::default()
                            });
                            self.solvers.len() - 1
                        }
                    }
                });
                if f.reason.class() != Class::Verified {
                    self.failing
                        .entry((s, f.reason))
                        .or_default()
                        .push(Self::SHOWN, || f.line());
                    self.failures.push(Self::FAILURES, || f.line());
                }
            });
        }
        for (j, counts) in counts.iter().enumerate() {
            let Some(s) = place[j] else { continue };
            for (reason, &n) in Reason::ALL.iter().zip(counts).filter(|(_, &n)| n > 0) {
                *self.solvers[s].counts.entry(*reason).or_default() += n;
            }
        }
    }
}
