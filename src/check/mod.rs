//! Correctness checks over result rows, shared by `run --check` and `verify`: the same typed
//! view of a row, whether it was just solved (`RowView::of_record`) or read back from a
//! cases.csv (`RowView::of_row`).
//!
//! `run --check` sorts every row into one of three classes ([`Class`]), each with a
//! [`Reason`]: **verified** (the answer equals `expected_steps`; `unsolvable` confirmed by the
//! parity test; without `expected_steps`, two or more optimal strategies gave the same answer,
//! or a judged answer equals the reference optimum), **wrong**, or **unverified** (`limit`,
//! `error`, an optimum that could not be computed, a lone optimal strategy's answer with
//! nothing to confirm it). It passes only when every row is verified, apart from the `limit`
//! rows an [`AllowLimit`] accepts.
//!
//! ```
//! use tilebench::check::{AllowLimit, Allowed};
//! let allow = AllowLimit::new(["bfs-set=all", "3"])?;
//! assert_eq!(allow.named, vec![("bfs-set".to_string(), Allowed::All)]);
//! assert_eq!(allow.others, Allowed::Rows(3));
//! let twice = AllowLimit::new(["2", "5"]).unwrap_err();
//! assert_eq!(twice.value(), "5");
//! # Ok::<(), tilebench::check::AllowError>(())
//! ```

mod digest;
pub use digest::Digest;
pub(crate) use digest::{Judged, Kept};

use crate::dataset::Case;
use crate::puzzle::Shape;
use crate::results::cases_csv::CaseRow;
use crate::results::record::{Record, RowStatus};
use crate::search::{Claim, LimitReason, Limits};
use std::collections::BTreeMap;

/// The fields of a row that the checks read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowView<'a> {
    /// The input file.
    pub input: &'a str,
    /// The row's line in it.
    pub line: u64,
    /// The row's id, or empty.
    pub id: &'a str,
    /// The solver.
    pub strategy: &'a str,
    /// Whether that solver is optimal by construction (and claims to be).
    pub optimal_solver: bool,
    /// What the solver promises about its paths (`optimal` for rows of files written
    /// before the claims: their judged paths were held to the optimum).
    pub claim: Claim,
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
    /// States expanded (to say which budget a `limit` row ran out of).
    pub expanded: Option<u64>,
    /// States stored.
    pub stored: Option<u64>,
    /// On a `limit` row, which budget ran out, when the row says.
    pub limit_reason: Option<LimitReason>,
    /// The row's message.
    pub message: &'a str,
}

impl<'a> RowView<'a> {
    /// A row just solved by a solver judged as `solver` says.
    pub(crate) fn of_record(case: &'a Case, r: &'a Record, solver: Judged) -> RowView<'a> {
        RowView {
            input: &case.source,
            line: case.line,
            id: &case.id,
            strategy: &r.strategy,
            optimal_solver: solver.by_construction,
            claim: solver.claim,
            status: r.status,
            steps: r.steps,
            expected_steps: case.expected_steps,
            matches_expected: r.matches_expected,
            optimal: r.optimal,
            expanded: r.counters.expanded,
            stored: r.counters.stored,
            limit_reason: r.limit_reason,
            message: &r.message,
        }
    }

    /// A row read back from a cases.csv; `optimal_solver` says which solvers are optimal by
    /// construction (a row whose `claim` column is not `optimal` is never taken as one).
    pub(crate) fn of_row(r: &'a CaseRow, optimal_solver: bool) -> RowView<'a> {
        let claim = r.claim.parse().unwrap_or_default();
        RowView {
            input: &r.input,
            line: r.line,
            id: &r.id,
            strategy: &r.strategy,
            optimal_solver: optimal_solver && claim == Claim::Optimal,
            claim,
            status: r.status,
            steps: r.steps,
            expected_steps: r.expected_steps,
            matches_expected: r.matches_expected,
            optimal: r.optimal,
            expanded: r.expanded,
            stored: r.stored,
            limit_reason: LimitReason::parse(&r.limit_reason),
            message: &r.message,
        }
    }

    /// The message without its leading `file:line: solver: `, which a check line says once.
    fn detail(&self) -> &'a str {
        if self.message.is_empty() {
            return "";
        }
        let prefix = format!("{}:{}: {}: ", self.input, self.line, self.strategy);
        self.message.strip_prefix(&prefix).unwrap_or(self.message)
    }

    /// `file:line`, with the id when the row has one.
    pub(crate) fn place(&self) -> String {
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

/// What `--check` concluded about a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The answer is right, and shown to be.
    Verified,
    /// The answer is wrong.
    Wrong,
    /// There is no answer, or nothing to show that it is right.
    Unverified,
}

/// Why a row is verified, wrong or unverified; the order is the order of the check's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// Verified: the answer equals the row's `expected_steps` (a path replayed to the goal,
    /// or a number judged against it).
    ExpectedSteps,
    /// Verified: `unsolvable`, as the parity test says.
    Parity,
    /// Verified: the row has no `expected_steps`, and two or more optimal strategies gave
    /// the same answer.
    Agreement,
    /// Verified: the row has no `expected_steps`; a judged answer (an external program's, a
    /// library user's solver's) equals the optimum the reference search (astar) found.
    ReferenceOptimum,
    /// Verified: a solver that does not claim shortest paths gave a valid path within its
    /// claim (at most W × the optimum for `within=W`; any path for `valid`).
    WithinClaim,
    /// Wrong: the judge rejected the answer (status `wrong`: an illegal move, a path that
    /// misses the goal, a false `unsolvable`, a number that is not the optimum).
    Rejected,
    /// Wrong: a valid path longer than the optimum, from a solver that claims shortest paths.
    NotOptimal,
    /// Wrong: a valid path longer than its solver's claim allows (W × the optimum).
    OverClaim,
    /// Wrong: the answer differs from `expected_steps`.
    Mismatch,
    /// Wrong: optimal strategies disagree on a row without `expected_steps`.
    Disagreement,
    /// Unverified: the solver ran out of its budget (status `limit`).
    Limit,
    /// Unverified: the solver failed (status `error`).
    Error,
    /// Unverified: a judged answer whose optimum could not be computed (no `expected_steps`,
    /// and the reference search ran out of the run's budget).
    OptimumUnknown,
    /// Unverified: an optimal strategy's answer on a row without `expected_steps` that no
    /// other optimal strategy answered.
    Unconfirmed,
}

impl Reason {
    /// Every reason, in order.
    pub const ALL: [Reason; 14] = [
        Reason::ExpectedSteps,
        Reason::Parity,
        Reason::Agreement,
        Reason::ReferenceOptimum,
        Reason::WithinClaim,
        Reason::Rejected,
        Reason::NotOptimal,
        Reason::OverClaim,
        Reason::Mismatch,
        Reason::Disagreement,
        Reason::Limit,
        Reason::Error,
        Reason::OptimumUnknown,
        Reason::Unconfirmed,
    ];

    /// Verified, wrong or unverified.
    pub fn class(self) -> Class {
        use Reason::*;
        match self {
            ExpectedSteps | Parity | Agreement | ReferenceOptimum | WithinClaim => Class::Verified,
            Rejected | NotOptimal | OverClaim | Mismatch | Disagreement => Class::Wrong,
            Limit | Error | OptimumUnknown | Unconfirmed => Class::Unverified,
        }
    }

    /// How the check's lines name it.
    pub fn name(self) -> &'static str {
        match self {
            Reason::ExpectedSteps => "expected_steps",
            Reason::Parity => "parity",
            Reason::Agreement => "agreement",
            Reason::ReferenceOptimum => "reference optimum",
            Reason::Rejected => "wrong answer",
            Reason::WithinClaim => "within its claim",
            Reason::NotOptimal => "not optimal",
            Reason::OverClaim => "over its claim",
            Reason::Mismatch => "differs from expected_steps",
            Reason::Disagreement => "disagreement",
            Reason::Limit => "limit",
            Reason::Error => "error",
            Reason::OptimumUnknown => "optimum unknown",
            Reason::Unconfirmed => "unconfirmed",
        }
    }
}

/// What the check found about one row.
#[derive(Clone, Debug)]
pub(crate) struct Finding<'a> {
    /// The row.
    pub row: RowView<'a>,
    /// Why it is verified, wrong or unverified.
    pub reason: Reason,
    /// For a row that is not verified: what is wrong or missing, as a sentence.
    pub detail: String,
}

impl Finding<'_> {
    /// `file:line (id …): solver: detail`.
    pub(crate) fn line(&self) -> String {
        format!(
            "{}: {}: {}",
            self.row.place(),
            self.row.strategy,
            self.detail
        )
    }
}

/// The answers (solved or unsolvable) of optimal solvers, grouped by case: sorted by line,
/// then input, each case's rows in their order. Rows arrive grouped and in line order (a
/// chunk of a run, one case's solvers together), which a stable sort passes over in one pass.
struct Answers<'r, 'a>(Vec<&'r RowView<'a>>);

impl<'r, 'a> Answers<'r, 'a> {
    fn of(rows: &'r [RowView<'a>]) -> Answers<'r, 'a> {
        let mut v: Vec<&RowView> = rows.iter().filter(|r| Self::counts(r)).collect();
        v.sort_by(|a, b| (a.line, a.input).cmp(&(b.line, b.input)));
        Answers(v)
    }
    /// Whether a row is an answer a case's other rows are checked against: an optimal
    /// solver's, solved or unsolvable.
    fn counts(r: &RowView) -> bool {
        r.optimal_solver && matches!(r.status, RowStatus::Solved | RowStatus::Unsolvable)
    }
    /// The answers of the case on `line` of `input`.
    fn peers(&self, input: &str, line: u64) -> &[&'r RowView<'a>] {
        let key = (line, input);
        let lo = self.0.partition_point(|r| (r.line, r.input) < key);
        let n = self.0[lo..].partition_point(|r| (r.line, r.input) == key);
        &self.0[lo..lo + n]
    }
    /// Each case's answers.
    fn groups(&self) -> impl Iterator<Item = &[&'r RowView<'a>]> {
        self.0
            .chunk_by(|a, b| (a.line, a.input) == (b.line, b.input))
    }
}

/// `astar 20 steps, bibfs 22 steps`.
fn answers_text(group: &[&RowView]) -> String {
    group
        .iter()
        .map(|r| format!("{} {}", r.strategy, steps_text(r.steps)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Cases on which optimal solvers that answered (solved or unsolvable) disagree.
pub(crate) fn disagreements(rows: &[RowView]) -> Vec<String> {
    let answers = Answers::of(rows);
    let mut split: Vec<_> = answers
        .groups()
        .filter(|group| group.iter().any(|r| r.steps != group[0].steps))
        .collect();
    // Reported by input name, then line.
    split.sort_by_key(|group| (group[0].input, group[0].line));
    split
        .into_iter()
        .map(|group| {
            format!(
                "{}: optimal strategies disagree: {}",
                group[0].place(),
                answers_text(group)
            )
        })
        .collect()
}

/// Which budget a `limit` row ran out of, as a flag and its value: the row's own
/// `limit_reason` when it says, else read from its counters and the run's `limits`.
pub(crate) fn budget_spent(
    limits: &Limits,
    reason: Option<LimitReason>,
    expanded: Option<u64>,
    stored: Option<u64>,
) -> String {
    let reason = reason.or_else(|| LimitReason::of_counters(limits, expanded, stored));
    match (reason, limits.max_nodes, expanded, stored) {
        (Some(LimitReason::Nodes), Some(n), Some(e), _) => {
            format!("--max-nodes {n} (expanded: {e})")
        }
        (Some(LimitReason::States), _, _, Some(s)) => format!(
            "--max-states {} (stored: {s}; the default is a memory guard)",
            limits.max_states
        ),
        (Some(LimitReason::Memory), ..) => match limits.max_memory {
            Some(m) => format!("--max-memory {m} bytes"),
            None => "its memory".into(),
        },
        _ => match limits.timeout {
            Some(t) => format!("--timeout {} s", t.as_secs_f64()),
            None => "its budget".into(),
        },
    }
}

/// Sorts every row (but `invalid` ones, which have no answer to check) into verified, wrong
/// or unverified, in row order. `limits` are the run's, to say which budget a `limit` row
/// ran out of.
pub(crate) fn findings<'a>(rows: &[RowView<'a>], limits: &Limits) -> Vec<Finding<'a>> {
    let answers = Answers::of(rows);
    rows.iter()
        .filter(|r| r.status != RowStatus::Invalid)
        .map(|r| finding(r, answers.peers(r.input, r.line), limits))
        .collect()
}

#[cfg(test)]
/// [`findings`] of rows that come a case at a time, `per_case` rows each (a run's records,
/// case by case in solver order): a case's answers are its own group's, found without
/// sorting every row.
pub(crate) fn findings_by_case<'a>(
    rows: &[RowView<'a>],
    per_case: usize,
    limits: &Limits,
) -> Vec<Finding<'a>> {
    let mut out = Vec::with_capacity(rows.len());
    each_finding_by_case(rows, per_case, limits, |_, f| out.push(f));
    out
}

/// [`findings_by_case`] handed to `each` one at a time, in the same order, without a vector
/// of them (a run's final pass tallies a million, each as large as its row), each with its
/// row's place in its case (the solver's index, for a run's records).
pub(crate) fn each_finding_by_case<'a>(
    rows: &[RowView<'a>],
    per_case: usize,
    limits: &Limits,
    mut each: impl FnMut(usize, Finding<'a>),
) {
    let mut peers = Vec::with_capacity(per_case);
    for case in rows.chunks(per_case.max(1)) {
        peers.clear();
        peers.extend(case.iter().filter(|r| Answers::counts(r)));
        for (j, r) in case.iter().enumerate() {
            if r.status != RowStatus::Invalid {
                each(j, finding(r, &peers, limits));
            }
        }
    }
}

/// One row's finding; `peers` are the answers of its case's optimal solvers.
fn finding<'a>(r: &RowView<'a>, peers: &[&RowView], limits: &Limits) -> Finding<'a> {
    let (reason, detail) = classify(r, peers, limits);
    Finding {
        row: *r,
        reason,
        detail,
    }
}

/// One row's reason and detail; `peers` are the answers of the case's optimal solvers.
fn classify(r: &RowView, peers: &[&RowView], limits: &Limits) -> (Reason, String) {
    let detail = r.detail();
    let given = |prefix: &str| {
        if detail.is_empty() {
            prefix.to_string()
        } else {
            format!("{prefix}: {detail}")
        }
    };
    match r.status {
        RowStatus::Limit if detail.is_empty() => {
            let spent = budget_spent(limits, r.limit_reason, r.expanded, r.stored);
            return (Reason::Limit, format!("no answer within {spent}"));
        }
        RowStatus::Limit => return (Reason::Limit, detail.to_string()),
        RowStatus::Error => return (Reason::Error, given("error")),
        // A valid path the judge refused for its length: over its solver's claim.
        RowStatus::Wrong if r.optimal == Some(false) && r.claim != Claim::Optimal => {
            return (Reason::OverClaim, detail.to_string())
        }
        RowStatus::Wrong if r.optimal == Some(false) => {
            return (Reason::NotOptimal, detail.to_string())
        }
        RowStatus::Wrong => return (Reason::Rejected, detail.to_string()),
        _ => {}
    }
    if r.claim != Claim::Optimal && r.status == RowStatus::Solved {
        return within_claim(r, detail);
    }
    if r.optimal == Some(false) {
        return (Reason::NotOptimal, detail.to_string());
    }
    if r.matches_expected == Some(false) {
        let what = format!(
            "answered {}, expected {}",
            steps_text(r.steps),
            steps_text(r.expected_steps)
        );
        return (Reason::Mismatch, what);
    }
    if r.status == RowStatus::Unsolvable {
        // The judge gives `unsolvable` only where the parity test agrees.
        return (Reason::Parity, String::new());
    }
    if r.matches_expected == Some(true) {
        return (Reason::ExpectedSteps, String::new());
    }
    if !r.optimal_solver {
        return match r.optimal {
            Some(true) => (Reason::ReferenceOptimum, String::new()),
            _ if detail.is_empty() => (Reason::OptimumUnknown, "optimum unknown".into()),
            _ => (Reason::OptimumUnknown, detail.to_string()),
        };
    }
    if peers.iter().any(|p| p.steps != r.steps) {
        let what = format!("optimal strategies disagree: {}", answers_text(peers));
        return (Reason::Disagreement, what);
    }
    if peers.iter().any(|p| p.strategy != r.strategy) {
        return (Reason::Agreement, String::new());
    }
    let what = format!(
        "{} not confirmed: the row has no expected_steps, and no other optimal strategy \
         answered it",
        steps_text(r.steps)
    );
    (Reason::Unconfirmed, what)
}

/// A solved row of a solver that does not claim shortest paths: the judge let its path
/// through, and the bound is checked again against `expected_steps` (a cases.csv read back).
fn within_claim(r: &RowView, detail: &str) -> (Reason, String) {
    let bound = r
        .expected_steps
        .and_then(|e| u64::try_from(e).ok())
        .and_then(|e| r.claim.bound(e).map(|b| (e, b)));
    match (bound, r.steps) {
        (Some((e, b)), Some(n)) if n > b as i64 => (
            Reason::OverClaim,
            format!(
                "{n} steps, more than its claim ({}) allows: {b} steps for expected_steps {e}",
                r.claim
            ),
        ),
        (Some(_), _) => (Reason::WithinClaim, String::new()),
        _ if r.claim == Claim::Valid || r.optimal.is_some() => (Reason::WithinClaim, String::new()),
        _ if detail.is_empty() => (Reason::OptimumUnknown, "optimum unknown".into()),
        _ => (Reason::OptimumUnknown, detail.to_string()),
    }
}

/// One solver's rows, counted by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverCheck {
    /// The solver.
    pub solver: String,
    /// Rows per reason (reasons with no row are absent).
    pub counts: BTreeMap<Reason, usize>,
}

impl SolverCheck {
    /// The rows of one class.
    pub fn count(&self, class: Class) -> usize {
        self.counts
            .iter()
            .filter(|(r, _)| r.class() == class)
            .map(|(_, n)| n)
            .sum()
    }

    /// The rows of one reason.
    pub fn of(&self, reason: Reason) -> usize {
        self.counts.get(&reason).copied().unwrap_or(0)
    }
}

#[cfg(test)]
/// The findings counted per solver, in order of first appearance.
pub(crate) fn by_solver(findings: &[Finding]) -> Vec<SolverCheck> {
    let mut out: Vec<SolverCheck> = Vec::new();
    for f in findings {
        let i = match out.iter().position(|s| s.solver == f.row.strategy) {
            Some(i) => i,
            None => {
                out.push(SolverCheck {
                    solver: f.row.strategy.to_string(),
                    ..SolverCheck::default()
                });
                out.len() - 1
            }
        };
        *out[i].counts.entry(f.reason).or_default() += 1;
    }
    out
}

/// How many `limit` rows one allowance accepts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Allowed {
    /// Up to this many.
    Rows(usize),
    /// Any number.
    #[default]
    All,
}

impl Allowed {
    fn accepts(self, n: usize) -> bool {
        match self {
            Allowed::Rows(k) => n <= k,
            Allowed::All => true,
        }
    }
    fn text(self) -> String {
        match self {
            Allowed::Rows(k) => k.to_string(),
            Allowed::All => "all".into(),
        }
    }
}

/// An allowance of `limit` rows that [`AllowLimit::entry`] or [`AllowLimit::new`] refuses:
/// the value as given (`SOLVER=N`, `N`, `all`) and what is wrong with it. The messages of
/// the values given twice start with the value; the command line puts `--allow-limit`
/// before it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AllowError {
    /// `=N` with no solver before the `=`.
    #[error("`{value}`: no solver name before `=`; write SOLVER=N or N")]
    NoSolver {
        /// The value as given.
        value: String,
    },
    /// The count is neither a number of rows nor `all`.
    #[error(
        "`{value}`: give a number of rows (0 or more) or `all`, optionally after SOLVER=, e.g. \
         10, all, bfs-set=all"
    )]
    NotRows {
        /// The value as given.
        value: String,
    },
    /// A second value for the solvers not named.
    #[error("{value}: a number for the solvers not named is given twice; give it once")]
    OthersTwice {
        /// The second value.
        value: String,
    },
    /// A second value for one solver.
    #[error("{value}: `{solver}` is given twice; give each solver once")]
    SolverTwice {
        /// The second value.
        value: String,
        /// The solver, as the second value names it.
        solver: String,
    },
}

impl AllowError {
    /// The value as given.
    pub fn value(&self) -> &str {
        match self {
            AllowError::NoSolver { value }
            | AllowError::NotRows { value }
            | AllowError::OthersTwice { value }
            | AllowError::SolverTwice { value, .. } => value,
        }
    }
}

/// The `limit` rows `run --check` accepts (`--allow-limit [SOLVER=]N|all`, repeatable):
/// a named solver may have that many; the solvers not named may have `others` in total.
/// Nothing else that is not verified is ever accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowLimit {
    /// For the solvers not named: how many `limit` rows, in total (none by default).
    pub others: Allowed,
    /// Per named solver.
    pub named: Vec<(String, Allowed)>,
}

impl Default for AllowLimit {
    fn default() -> Self {
        AllowLimit {
            others: Allowed::Rows(0),
            named: Vec::new(),
        }
    }
}

impl AllowLimit {
    /// One `--allow-limit` value: `N`, `all`, `SOLVER=N` or `SOLVER=all`.
    ///
    /// # Errors
    /// A value of another form ([`AllowError::NoSolver`], [`AllowError::NotRows`]): the
    /// message says what to write.
    pub fn entry(s: &str) -> Result<(Option<String>, Allowed), AllowError> {
        // At the last `=`: a configuration's label may hold `=` (`astar:heuristic=pdb=all`).
        let (name, count) = match s.rsplit_once('=') {
            Some((n, _)) if n.trim().is_empty() => {
                return Err(AllowError::NoSolver { value: s.into() })
            }
            Some((n, c)) => (Some(n.trim().to_string()), c.trim()),
            None => (None, s.trim()),
        };
        let allowed = if count.eq_ignore_ascii_case("all") {
            Allowed::All
        } else {
            Allowed::Rows(
                count
                    .parse()
                    .map_err(|_| AllowError::NotRows { value: s.into() })?,
            )
        };
        Ok((name, allowed))
    }

    /// The allowance of every `--allow-limit` value given.
    ///
    /// # Errors
    /// A value that [`AllowLimit::entry`] refuses, or two values for the same solver
    /// ([`AllowError::SolverTwice`]) or two without a solver ([`AllowError::OthersTwice`]).
    pub fn new<S: AsRef<str>>(
        values: impl IntoIterator<Item = S>,
    ) -> Result<AllowLimit, AllowError> {
        let mut out = AllowLimit::default();
        let mut others_given = false;
        for v in values {
            let v = v.as_ref();
            match AllowLimit::entry(v)? {
                (None, _) if others_given => {
                    return Err(AllowError::OthersTwice { value: v.into() })
                }
                (None, a) => {
                    out.others = a;
                    others_given = true;
                }
                (Some(n), _) if out.named.iter().any(|(m, _)| m.eq_ignore_ascii_case(&n)) => {
                    return Err(AllowError::SolverTwice {
                        value: v.into(),
                        solver: n,
                    })
                }
                (Some(n), a) => out.named.push((n, a)),
            }
        }
        Ok(out)
    }

    /// Whether the allowance accepts no `limit` row at all (the default).
    pub fn is_none(&self) -> bool {
        self.others == Allowed::Rows(0) && self.named.iter().all(|(_, a)| *a == Allowed::Rows(0))
    }

    fn named(&self, solver: &str) -> Option<Allowed> {
        self.named
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(solver))
            .map(|(_, a)| *a)
    }

    /// Which solvers' `limit` rows are accepted, and a sentence for each allowance the rows
    /// exceed.
    pub fn judge(&self, solvers: &[SolverCheck]) -> (Vec<bool>, Vec<String>) {
        let mut accepted = vec![false; solvers.len()];
        let mut exceeded = Vec::new();
        let mut pool = 0;
        for (i, s) in solvers.iter().enumerate() {
            let n = s.of(Reason::Limit);
            match self.named(&s.solver) {
                Some(a) if a.accepts(n) => accepted[i] = true,
                Some(a) => exceeded.push(format!(
                    "{}: {n} limit rows, more than --allow-limit {}={} accepts",
                    s.solver,
                    s.solver,
                    a.text()
                )),
                None => pool += n,
            }
        }
        let rest = solvers
            .iter()
            .enumerate()
            .filter(|(_, s)| self.named(&s.solver).is_none());
        if self.others.accepts(pool) {
            for (i, _) in rest {
                accepted[i] = true;
            }
        } else if self.others != Allowed::Rows(0) {
            exceeded.push(format!(
                "{pool} limit rows in all, more than --allow-limit {} accepts",
                self.others.text()
            ));
        }
        (accepted, exceeded)
    }
}

/// A cell as the user sees it in cases.csv: its value in backquotes, or "empty".
fn cell<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "empty".into(), |v| format!("`{v}`"))
}

/// Whether a row's `optimal` and `matches_expected` agree with its `steps` and
/// `expected_steps`.
fn expected_flags(r: &CaseRow, at: &str) -> Vec<String> {
    let mut bad = Vec::new();
    if let (Some(opt), Some(e), Some(n), RowStatus::Solved) =
        (r.optimal, r.expected_steps, r.steps, r.status)
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

/// A built-in strategy's counters: present on a searched row, and expanded and stored at
/// most generated + the roots (every state but the roots is generated before it is stored or
/// expanded; bibfs searches from two roots, the others from one).
fn counter_faults(r: &CaseRow, at: &str) -> Vec<String> {
    let roots = if r.strategy == "bibfs" { 2 } else { 1 };
    let mut bad = Vec::new();
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
    bad
}

/// A `solved` or `unsolvable` row against the parity test, and its path (when stored)
/// replayed from its start: it must reach the goal in `steps` moves.
fn answer_faults(r: &CaseRow, at: &str, run_size: Option<Shape>) -> Vec<String> {
    use crate::puzzle::{is_solvable, Board, Move};
    let mut bad = Vec::new();
    // The row's shape where it says one (a 12-cell board may be 3x4 or 4x3); in files written
    // before the `size` column, the run's `--size` from run.json, else a square board.
    let shape = r.size.parse().ok().or(run_size);
    let boards = Board::parse(&r.start, shape)
        .and_then(|s| Board::parse(&r.goal, Some(s.shape())).map(|g| (s, g)));
    let (start, goal) = match boards {
        Ok(b) => b,
        Err(e @ crate::puzzle::BoardError::CellCount { shape: None, .. }) => {
            return vec![format!(
                "{at}: cannot read the boards back: {}. This cases.csv has no `size` column \
                 (it was written before tilebench recorded board shapes) and its run.json no \
                 size: run the dataset again to verify it",
                e.message_with_flags()
            )]
        }
        Err(e) => {
            return vec![format!(
                "{at}: cannot read the boards back: {}",
                e.message_with_flags()
            )]
        }
    };
    let solvable = is_solvable(&start, &goal);
    if r.status == RowStatus::Unsolvable {
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
        return bad;
    }
    if !solvable {
        bad.push(format!(
            "{at}: marked solved, but parity says the pair is unsolvable"
        ));
    }
    if let Some(p) = replayable_path(r) {
        let replayed = Move::parse_path(p)
            .map_err(|e| e.to_string())
            .and_then(|path| {
                let end = start.replay(&path).map_err(|e| e.to_string())?;
                Ok((end, path.len()))
            });
        match replayed {
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
    bad
}

/// A solved row's path to replay: its `path`, or the empty path of a 0-step answer (an empty
/// field, which reads back as no path).
fn replayable_path(r: &CaseRow) -> Option<&str> {
    r.path.as_deref().or((r.steps == Some(0)).then_some(""))
}

#[cfg(test)]
/// Every problem with one row of a cases.csv on its own, as messages: a built-in strategy's
/// counters, a searched row's latency, `optimal` and `matches_expected`, and a `solved` or
/// `unsolvable` answer against the parity test and its replayed path.
pub(crate) fn row_faults(r: &CaseRow) -> Vec<String> {
    row_faults_in(r, None)
}

/// [`row_faults`], with the run's board shape (run.json's `size`) for rows without a `size`
/// cell.
fn row_faults_in(r: &CaseRow, run_size: Option<Shape>) -> Vec<String> {
    let mut bad = Vec::new();
    let at = format!("{}:{} {}", r.input, r.line, r.strategy);
    if r.status.searched() && crate::search::registry::find(&r.strategy).is_some() {
        bad.extend(counter_faults(r, &at));
    }
    if r.status.searched() && r.latency_ns.is_none() {
        bad.push(format!("{at}: a searched row without latency_ns"));
    }
    bad.extend(expected_flags(r, &at));
    if r.status.answered() {
        bad.extend(answer_faults(r, &at, run_size));
    }
    bad
}

/// What `verify` found in a run's results: counts, and the failures (the first ones in
/// full).
#[derive(Debug, Default)]
pub struct Verification {
    /// The cases.csv read.
    pub path: std::path::PathBuf,
    /// The run's run.json beside it, when there is one.
    pub info: Option<crate::results::run_json::RunInfo>,
    /// Rows read.
    pub rows: usize,
    /// `solved` rows.
    pub solved: usize,
    /// Of those, the rows whose path was replayed.
    pub replayed: usize,
    /// The first failures (as many as asked for), as sentences.
    pub failures: Vec<String>,
    /// How many failures there are in all.
    pub count: usize,
    /// How many failures to keep in full.
    keep: usize,
    /// A row was found out of step with run.json's solvers (the ones after it are too).
    out_of_step: bool,
}

/// Rows checked together: whole cases (a case's rows are adjacent in a cases.csv), about
/// this many rows, so that a run of any size is verified in bounded memory.
const VERIFY_CHUNK: usize = 1 << 14;

impl Verification {
    fn fail(&mut self, f: impl IntoIterator<Item = String>) {
        for f in f {
            if self.failures.len() < self.keep {
                self.failures.push(f);
            }
            self.count += 1;
        }
    }

    /// Whether the run was made with `--paths` (unknown without run.json: then whether
    /// every solved row had a path).
    pub fn paths_recorded(&self) -> bool {
        self.info
            .as_ref()
            .map_or(self.replayed == self.solved, |i| i.paths)
    }

    /// Checks rows of whole cases: each row alone, then the rows of each case together.
    fn check(&mut self, rows: &[CaseRow]) {
        self.rows += rows.len();
        let run_size = self
            .info
            .as_ref()
            .and_then(|i| i.size.as_deref())
            .and_then(|s| s.parse().ok());
        for r in rows {
            self.fail(row_faults_in(r, run_size));
            if r.status == RowStatus::Solved {
                self.solved += 1;
                self.replayed += usize::from(replayable_path(r).is_some());
            }
        }
        let views: Vec<RowView> = rows
            .iter()
            .map(|r| {
                let mut v =
                    RowView::of_row(r, crate::search::registry::find(&r.strategy).is_some());
                v.matches_expected = Record::compare(r.status, r.steps, r.expected_steps);
                v
            })
            .collect();
        self.fail(disagreements(&views));
        let wrong: Vec<String> = findings(&views, &Limits::default())
            .iter()
            .filter(|f| f.reason.class() == Class::Wrong)
            .filter(|f| f.reason != Reason::Disagreement)
            .map(Finding::line)
            .collect();
        self.fail(wrong);
    }

    /// The rows against run.json: row `n` is of the `n mod K`-th of its K solvers, and
    /// there is one row per case × solver.
    fn check_layout(&mut self, n: usize, row: &CaseRow, line: u64) {
        let Some(info) = self.info.as_ref().filter(|_| !self.out_of_step) else {
            return;
        };
        let names = &info.strategies;
        if names.is_empty() || n >= self.expected_rows().unwrap_or(usize::MAX) {
            return;
        }
        let want = &names[n % names.len()];
        if row.strategy != *want {
            let at = format!("{}:{line}", self.path.display());
            self.fail([format!(
                "{at}: a row of `{}` where `{want}`'s belongs (run.json lists the solvers {}, \
                 each case's rows in that order): rows were deleted, added or moved after \
                 the run",
                row.strategy,
                names.join(", ")
            )]);
            // The rows after it are out of step too: this one says it.
            self.out_of_step = true;
        }
    }

    /// The rows run.json's cases and solvers make.
    pub(crate) fn expected_rows(&self) -> Option<usize> {
        let info = self.info.as_ref()?;
        let total = info.cases();
        let shard = info.shard.unwrap_or(crate::dataset::shard::Shard::ALL);
        Some(shard.len(total) * info.strategies.len())
    }
}

/// The checksum `H` of the file at `path` (run.json's `cases_xxh3_64`, or an older run's
/// `cases_fnv1a64`), read a block at a time.
fn file_checksum(
    path: &std::path::Path,
    hash: crate::util::FileSum,
) -> Result<String, VerifyError> {
    let unreadable = |source| VerifyError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut hashed = crate::util::Hashed { inner: file, hash };
    std::io::copy(&mut hashed, &mut std::io::sink()).map_err(unreadable)?;
    Ok(hashed.hash.hex())
}

/// Why [`verify`] cannot check a run's results at all (a fault in them is a
/// [`Verification`]'s failure, not an error): the message names the file (and line) and
/// says what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// There are no results at the path given.
    #[error("{}: no such file or directory; give the results directory of a `tilebench run` (it holds cases.csv and run.json), or its cases.csv", .path.display())]
    NotFound {
        /// The path given.
        path: std::path::PathBuf,
    },
    /// A file cannot be read.
    #[error("cannot read {}: {}", .path.display(), crate::util::io_reason(.source))]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The run.json beside the cases.csv is not a run's.
    #[error("{}:{}:{}: not a tilebench run.json ({source}); give the results directory of a finished `tilebench run`", .path.display(), .source.line(), .source.column())]
    RunJson {
        /// The run.json.
        path: std::path::PathBuf,
        /// The JSON reader's error, with its line and column.
        source: serde_json::Error,
    },
    /// The cases.csv cannot be read.
    #[error(transparent)]
    Cases(#[from] crate::results::cases_csv::ReadError),
    /// The cases.csv has a header and no rows.
    #[error("{}: no rows, only the header: the run recorded no cases, so there is nothing to verify; give the results of a run that solved its dataset", .path.display())]
    NoRows {
        /// The cases.csv.
        path: std::path::PathBuf,
    },
}

impl VerifyError {
    /// The file or directory the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            VerifyError::NotFound { path }
            | VerifyError::Read { path, .. }
            | VerifyError::RunJson { path, .. }
            | VerifyError::NoRows { path } => path,
            VerifyError::Cases(e) => e.path(),
        }
    }

    /// The 1-based line in [`path`](VerifyError::path), where there is one.
    pub fn line(&self) -> Option<u64> {
        match self {
            VerifyError::RunJson { source, .. } => u64::try_from(source.line()).ok(),
            VerifyError::Cases(e) => e.line(),
            _ => None,
        }
    }
}

/// Reads the run.json beside the cases.csv at `path`, if there is one.
fn run_json_beside(
    path: &std::path::Path,
) -> Result<Option<crate::results::run_json::RunInfo>, VerifyError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let json = dir.map_or_else(
        || crate::results::RUN_JSON.into(),
        |d| d.join(crate::results::RUN_JSON),
    );
    let text = match std::fs::read_to_string(&json) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(VerifyError::Read { path: json, source }),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| VerifyError::RunJson { path: json, source })
}

/// `verify`: checks the results at `results` (a results directory or its cases.csv) against
/// independent truth, without solving again: each row (`row_faults`), each case's rows
/// together (optimal solvers agree; answers agree with `expected_steps`), and the rows against
/// the run.json beside them (one row per case × solver, in the solvers' order). Keeps the first
/// `keep` failures in full.
///
/// # Errors
/// The cases.csv cannot be read, holds no rows, or a row cannot be read (each message names
/// the file and the line and says what to do).
pub fn verify(results: &std::path::Path, keep: usize) -> Result<Verification, VerifyError> {
    let path = crate::results::cases_csv_of(results);
    if !path.exists() {
        return Err(VerifyError::NotFound {
            path: results.to_path_buf(),
        });
    }
    let mut found = Verification {
        info: run_json_beside(&path)?,
        path: path.clone(),
        keep,
        ..Verification::default()
    };
    let mut chunk: Vec<CaseRow> = Vec::new();
    for (n, row) in crate::results::cases_csv::Rows::open(&path)?.enumerate() {
        let row = row?;
        found.check_layout(n, &row, n as u64 + 2);
        let new_case = chunk
            .last()
            .is_some_and(|l| (l.line, &l.input) != (row.line, &row.input));
        if chunk.len() >= VERIFY_CHUNK && new_case {
            found.check(&chunk);
            chunk.clear();
        }
        chunk.push(row);
    }
    found.check(&chunk);
    if found.rows == 0 {
        return Err(VerifyError::NoRows { path });
    }
    let recorded = found.info.as_ref().and_then(|i| {
        crate::util::FileSum::recorded(i.cases_xxh3_64.as_deref(), i.cases_fnv1a64.as_deref())
    });
    let checked = match recorded {
        Some((want, hash)) => Some((want, file_checksum(&path, hash)?)),
        None => None,
    };
    if let Some((want, got)) = checked {
        if got != want {
            let msg = format!(
                "{}: the file is not the one the run wrote (run.json records the checksum \
                 {want}, the file's is {got}): it was edited after the run, so its rows are \
                 not the run's results; run it again",
                path.display()
            );
            found.fail([msg]);
        }
    }
    if let (Some(want), Some(info)) = (found.expected_rows(), &found.info) {
        if found.rows != want {
            let msg = format!(
                "{}: {} rows, but run.json's {} cases × {} solvers make {want}: rows were \
                 deleted or added after the run; run it again",
                path.display(),
                found.rows,
                want / info.strategies.len().max(1),
                info.strategies.len()
            );
            found.fail([msg]);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Reason::ALL` lists each reason at its own index (the digest counts reasons in an
    /// array indexed by `reason as usize`).
    #[test]
    fn every_reason_is_at_its_index() {
        for (i, r) in Reason::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "{r:?}");
        }
    }

    /// A row of `strategy` on line `line`, status `status`, `steps`, `expected`.
    fn row<'a>(
        strategy: &'a str,
        optimal_solver: bool,
        line: u64,
        status: RowStatus,
        steps: Option<i64>,
        expected: Option<i64>,
    ) -> RowView<'a> {
        let answered = matches!(status, RowStatus::Solved | RowStatus::Unsolvable);
        RowView {
            input: "d.csv",
            line,
            id: "",
            strategy,
            optimal_solver,
            claim: Claim::Optimal,
            status,
            steps,
            expected_steps: expected,
            matches_expected: expected.filter(|_| answered).map(|e| steps == Some(e)),
            optimal: None,
            expanded: None,
            stored: None,
            limit_reason: None,
            message: "",
        }
    }

    /// A 3x4 row whose file has no `size` cell (written before the column): read with the
    /// run's shape from run.json its path replays; without one, the message says why.
    #[test]
    fn an_older_rows_shape_comes_from_run_json() {
        let text = b"size,start,goal\n3x4,1 2 3 4 5 6 7 8 x 10 11 9,1 2 3 4 5 6 7 8 9 10 11 x\n";
        let (_, cases) = crate::dataset::parse_dataset("d.csv", text, &Default::default()).unwrap();
        let mut r = Record::empty(0, "mine");
        r.status = RowStatus::Solved;
        r.steps = Some(1);
        r.path = Some("d".into());
        r.latency_ns = Some(1);
        let mut row = CaseRow::new(&cases[0], &r);
        assert_eq!(row.size, "3x4");
        assert!(row_faults(&row).is_empty(), "{:?}", row_faults(&row));
        row.size.clear();
        let shape: Shape = "3x4".parse().unwrap();
        assert!(row_faults_in(&row, Some(shape)).is_empty());
        let bad = row_faults(&row);
        assert!(bad[0].contains("no `size` column"), "{bad:?}");
        // Read as 4x3, the same path leaves the board: the shape matters.
        let wide: Shape = "4x3".parse().unwrap();
        assert!(!row_faults_in(&row, Some(wide)).is_empty());
    }

    fn reasons(rows: &[RowView]) -> Vec<Reason> {
        findings(rows, &Limits::default())
            .iter()
            .map(|f| f.reason)
            .collect()
    }

    /// A run's rows come a case at a time: reading them by case finds what sorting every
    /// row finds, reason and detail, over cases of three solvers with every mix of
    /// statuses and step counts.
    #[test]
    fn findings_by_case_are_the_findings() {
        use RowStatus::{Error as Failed, Invalid, Limit as Stopped, Solved, Unsolvable, Wrong};
        let statuses = [Solved, Solved, Unsolvable, Stopped, Failed, Wrong, Invalid];
        let (solvers, optimal) = (["astar", "bibfs", "ext"], [true, true, false]);
        let mut rows = Vec::new();
        for line in 2..400u64 {
            let expected = (line % 5 != 0).then_some((line % 7) as i64);
            for (j, name) in solvers.iter().enumerate() {
                let x = (line * 8 + j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                let status = statuses[(x % 7) as usize];
                let off = if line % 2 == 0 { (x % 3) as i64 } else { 0 };
                let steps = Some(off + (line % 7) as i64 - 1);
                rows.push(row(name, optimal[j], line, status, steps, expected));
            }
        }
        let limits = Limits::default();
        let sorted = findings(&rows, &limits);
        let grouped = findings_by_case(&rows, solvers.len(), &limits);
        let key = |f: &Finding| {
            (
                f.row.line,
                f.row.strategy.to_string(),
                f.reason,
                f.detail.clone(),
            )
        };
        assert_eq!(sorted.len(), grouped.len());
        assert!(sorted.iter().zip(&grouped).all(|(a, b)| key(a) == key(b)));
        // The mix reaches the reasons that depend on the other rows of the case.
        for reason in [Reason::Agreement, Reason::Disagreement, Reason::Unconfirmed] {
            assert!(grouped.iter().any(|f| f.reason == reason), "{reason:?}");
        }
    }

    #[test]
    fn each_row_gets_its_reason() {
        use RowStatus::{Error as Failed, Invalid, Limit as Stopped, Solved, Unsolvable, Wrong};
        let mut judged = row("ext", false, 9, Solved, Some(20), None);
        judged.optimal = Some(true);
        let mut unjudged = judged;
        unjudged.optimal = None;
        let mut long = judged;
        long.optimal = Some(false);
        // wastar at weight 1.5 on a row of 20 moves: 25 are within its claim, 31 are not
        // (a cases.csv read back whose status says solved).
        let mut within = row("w", false, 13, Solved, Some(25), Some(20));
        (within.claim, within.optimal) = (Claim::Within("1.5".parse().unwrap()), Some(false));
        let mut over = within;
        (over.line, over.steps) = (14, Some(31));
        let rows = [
            row("astar", true, 2, Solved, Some(19), Some(19)),
            row("astar", true, 3, Unsolvable, Some(-1), None),
            row("astar", true, 4, Solved, Some(7), None),
            row("bibfs", true, 4, Solved, Some(7), None),
            row("astar", true, 5, Solved, Some(7), None),
            row("bibfs", true, 5, Solved, Some(9), None),
            row("astar", true, 6, Solved, Some(7), None),
            row("astar", true, 7, Solved, Some(5), Some(3)),
            row("astar", true, 8, Stopped, None, Some(3)),
            row("astar", true, 10, Failed, None, Some(3)),
            row("ext", false, 11, Wrong, Some(-1), Some(3)),
            row("astar", true, 12, Invalid, None, None),
            judged,
            unjudged,
            long,
            within,
            over,
        ];
        assert_eq!(
            reasons(&rows),
            [
                Reason::ExpectedSteps,
                Reason::Parity,
                Reason::Agreement,
                Reason::Agreement,
                Reason::Disagreement,
                Reason::Disagreement,
                Reason::Unconfirmed,
                Reason::Mismatch,
                Reason::Limit,
                Reason::Error,
                Reason::Rejected,
                Reason::ReferenceOptimum,
                Reason::OptimumUnknown,
                Reason::NotOptimal,
                Reason::WithinClaim,
                Reason::OverClaim,
            ]
        );
        // Every reason is reached, and the classes are as named.
        let mut all = reasons(&rows);
        all.sort();
        all.dedup();
        assert_eq!(all, Reason::ALL);
        let counts = by_solver(&findings(&rows, &Limits::default()));
        let astar = counts.iter().find(|s| s.solver == "astar").unwrap();
        assert_eq!(
            (
                astar.count(Class::Verified),
                astar.count(Class::Wrong),
                astar.count(Class::Unverified)
            ),
            (3, 2, 3)
        );
    }

    #[test]
    fn a_limit_row_says_which_budget_ran_out() {
        let mut r = row("bfs-rank", true, 2, RowStatus::Limit, None, Some(20));
        r.expanded = Some(5);
        r.stored = Some(12);
        let limits = Limits {
            max_nodes: Some(5),
            ..Limits::default()
        };
        let f = &findings(&[r], &limits)[0];
        assert_eq!(
            f.line(),
            "d.csv:2: bfs-rank: no answer within --max-nodes 5 (expanded: 5)"
        );
        let states = Limits {
            max_states: 12,
            ..Limits::default()
        };
        assert!(findings(&[r], &states)[0]
            .detail
            .starts_with("no answer within --max-states 12 (stored: 12"));
        let time = Limits {
            timeout: Some(std::time::Duration::from_millis(250)),
            ..Limits::default()
        };
        assert_eq!(
            findings(&[r], &time)[0].detail,
            "no answer within --timeout 0.25 s"
        );
    }

    fn limit_counts(rows: &[(&'static str, usize)]) -> Vec<SolverCheck> {
        rows.iter()
            .map(|&(s, n)| SolverCheck {
                solver: s.into(),
                counts: [(Reason::Limit, n), (Reason::ExpectedSteps, 1)]
                    .into_iter()
                    .collect(),
            })
            .collect()
    }

    #[test]
    fn allow_limit_accepts_what_it_says_and_no_more() {
        let solvers = limit_counts(&[("bfs-set", 40), ("astar", 2), ("idastar", 1)]);
        let judge = |values: &[&str]| AllowLimit::new(values).unwrap().judge(&solvers);
        assert_eq!(judge(&[]), (vec![false, false, false], vec![]));
        assert!(AllowLimit::new::<&str>([]).unwrap().is_none());
        assert_eq!(judge(&["all"]).0, [true, true, true]);
        assert_eq!(judge(&["43"]).0, [true, true, true]);
        let (ok, exceeded) = judge(&["42"]);
        assert_eq!(ok, [false, false, false]);
        assert_eq!(
            exceeded,
            ["43 limit rows in all, more than --allow-limit 42 accepts"]
        );
        // A named solver is counted apart from the others.
        assert_eq!(judge(&["bfs-set=all", "3"]).0, [true, true, true]);
        let (ok, exceeded) = judge(&["BFS-SET=40", "2"]);
        assert_eq!(ok, [true, false, false]);
        assert_eq!(
            exceeded,
            ["3 limit rows in all, more than --allow-limit 2 accepts"]
        );
        let (ok, exceeded) = judge(&["bfs-set=39", "astar=all"]);
        assert_eq!(ok, [false, true, false]);
        assert_eq!(
            exceeded,
            ["bfs-set: 40 limit rows, more than --allow-limit bfs-set=39 accepts"]
        );
        for bad in ["=3", "x=", "-1", "some", "a=1.5"] {
            let e = AllowLimit::new([bad]).unwrap_err();
            assert_eq!(e.value(), bad);
            assert!(e.to_string().contains(bad), "{e}");
        }
        let e = AllowLimit::new(["=3"]).unwrap_err();
        assert_eq!(e, AllowError::NoSolver { value: "=3".into() });
        assert_eq!(
            e.to_string(),
            "`=3`: no solver name before `=`; write SOLVER=N or N"
        );
        let e = AllowLimit::new(["a=1.5"]).unwrap_err();
        assert_eq!(
            e,
            AllowError::NotRows {
                value: "a=1.5".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "`a=1.5`: give a number of rows (0 or more) or `all`, optionally after SOLVER=, \
             e.g. 10, all, bfs-set=all"
        );
        let e = AllowLimit::new(["a=1", "A=2"]).unwrap_err();
        assert_eq!(
            e,
            AllowError::SolverTwice {
                value: "A=2".into(),
                solver: "A".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "A=2: `A` is given twice; give each solver once"
        );
        let e = AllowLimit::new(["1", "all"]).unwrap_err();
        assert_eq!(
            e,
            AllowError::OthersTwice {
                value: "all".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "all: a number for the solvers not named is given twice; give it once"
        );
    }

    /// Each way `verify` cannot check a run names its file (and line) in words.
    #[test]
    fn verify_errors_name_their_file_and_line() {
        let dir = std::env::temp_dir().join(format!("tilebench-verr-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let e = verify(&dir.join("nothing"), 1).unwrap_err();
        assert!(matches!(e, VerifyError::NotFound { .. }), "{e:?}");
        assert_eq!(e.path(), dir.join("nothing"));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: no such file or directory; give the results directory of a `tilebench \
                 run` (it holds cases.csv and run.json), or its cases.csv",
                dir.join("nothing").display()
            )
        );

        let cases = dir.join(crate::results::CASES_CSV);
        std::fs::write(&cases, "").unwrap();
        let e = verify(&dir, 1).unwrap_err();
        assert!(matches!(e, VerifyError::Cases(_)), "{e:?}");
        assert_eq!(e.path(), cases);
        assert!(
            e.to_string().contains("is empty (0 bytes, no header line)"),
            "{e}"
        );

        let header = crate::results::cases_csv::FIXED_COLUMNS.join(",");
        std::fs::write(&cases, format!("{header}\n")).unwrap();
        let e = verify(&dir, 1).unwrap_err();
        assert!(matches!(e, VerifyError::NoRows { .. }), "{e:?}");
        assert!(e
            .to_string()
            .starts_with(&format!("{}: no rows, only the header", cases.display())));

        let json = dir.join(crate::results::RUN_JSON);
        std::fs::write(&json, "{\n  \"tilebench_version\": 3,\n").unwrap();
        let e = verify(&dir, 1).unwrap_err();
        assert!(matches!(e, VerifyError::RunJson { .. }), "{e:?}");
        assert_eq!((e.path(), e.line()), (json.as_path(), Some(2)));
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("{}:2:", json.display()))
                && text.contains(": not a tilebench run.json (")
                && text.ends_with("give the results directory of a finished `tilebench run`"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
