//! What a finished run says to its user: the problems, after the data is safely written,
//! and whether a check failed.

use super::pipeline::Finished;
use crate::check::{self, AllowLimit, Class, Finding, Reason, SolverCheck};
use std::collections::BTreeMap;

/// The lines a run ends with, and what they mean for an exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Sentences for stderr, in order.
    pub lines: Vec<String>,
    /// `--check` found a row that is wrong or not verified (exit 1).
    pub check_failed: bool,
    /// Some rows are `invalid` or `error` (exit 2).
    pub bad_rows: bool,
}

/// Rows named per solver and reason; the rest are counted.
const SHOWN: usize = 5;

impl Finished {
    /// The run's last words: invalid and error rows (the first 20 of each), judged answers
    /// that are wrong or not optimal, and with `check` (`--check`, with the `limit` rows
    /// it accepts) each solver's rows counted as verified, wrong and unverified, the first
    /// few of each reason named, and the conclusion.
    pub fn verdict(&self, check: Option<&AllowLimit>) -> Verdict {
        let mut v = Verdict::default();
        let cases_path = self.cases_csv();
        let mut shown = |label: &str, messages: &[&str]| {
            for m in messages.iter().take(20) {
                v.lines.push(format!("{label}: {m}"));
            }
            if messages.len() > 20 {
                v.lines.push(format!(
                    "{label}: … and {} more (see the message column of {})",
                    messages.len() - 20,
                    cases_path.display()
                ));
            }
        };
        let (invalid, errors) = (self.invalid(), self.errors());
        shown("invalid", &invalid);
        shown("error", &errors);
        if let Some(allow) = check {
            self.check_lines(allow, &mut v);
        } else {
            for s in self
                .summaries
                .iter()
                .filter(|s| s.wrong + s.non_optimal > 0)
            {
                v.lines.push(format!(
                    "tilebench: {} gave {} wrong and {} non-optimal answer(s) (status, optimal \
                     and message columns of {}); --check fails on them",
                    s.strategy,
                    s.wrong,
                    s.non_optimal,
                    cases_path.display()
                ));
            }
        }
        if !invalid.is_empty() || !errors.is_empty() {
            v.lines.push(format!(
                "tilebench: {} invalid row(s), {} error row(s); every row is in {} (status and \
                 message columns)",
                invalid.len(),
                errors.len(),
                cases_path.display()
            ));
            v.bad_rows = true;
        }
        v
    }

    /// `--check`'s lines: the rows that fail (the first few per solver and reason), each
    /// solver's counts, the allowances exceeded, the conclusion and what to do.
    fn check_lines(&self, allow: &AllowLimit, v: &mut Verdict) {
        // The rows' views are built once for the findings.
        let rows = self.views();
        let findings = check::findings(&rows, &self.limits);
        let solvers = check::by_solver(&findings);
        let (accepted, exceeded) = allow.judge(&solvers);
        for (name, _) in &allow.named {
            if !solvers.iter().any(|s| s.solver.eq_ignore_ascii_case(name)) {
                v.lines.push(format!(
                    "check: warning: --allow-limit names `{name}`, which has no rows in this run"
                ));
            }
        }
        let failing = |s: usize, r: Reason| {
            r.class() != Class::Verified && !(r == Reason::Limit && accepted[s])
        };
        for ((s, reason), (named, n)) in failing_rows(&findings, &solvers, failing) {
            for f in named {
                v.lines.push(format!("check failed: {}", f.line()));
            }
            if n > SHOWN {
                v.lines.push(format!(
                    "check failed: {}: … and {} more {} rows",
                    solvers[s].solver,
                    n - SHOWN,
                    reason.name()
                ));
            }
        }
        for (s, ok) in solvers.iter().zip(&accepted) {
            v.lines
                .push(format!("check: {}: {}", s.solver, counts_text(s, *ok)));
        }
        for e in &exceeded {
            v.lines.push(format!("check failed: {e}"));
        }
        let mut total = SolverCheck::default();
        let mut unaccepted = SolverCheck::default();
        for (i, s) in solvers.iter().enumerate() {
            for (&r, &n) in &s.counts {
                *total.counts.entry(r).or_default() += n;
                if failing(i, r) {
                    *unaccepted.counts.entry(r).or_default() += n;
                }
            }
        }
        v.check_failed = !unaccepted.counts.is_empty() || findings.is_empty();
        v.lines
            .extend(conclusion(&total, &unaccepted, findings.len(), self));
    }
}

/// Per solver (in order) and reason (in order) of the rows that fail: the first
/// [`SHOWN`] and how many there are.
fn failing_rows<'f, 'a>(
    findings: &'f [Finding<'a>],
    solvers: &[SolverCheck],
    failing: impl Fn(usize, Reason) -> bool,
) -> BTreeMap<(usize, Reason), (Vec<&'f Finding<'a>>, usize)> {
    let mut out: BTreeMap<(usize, Reason), (Vec<&Finding>, usize)> = BTreeMap::new();
    for f in findings {
        let Some(s) = solvers.iter().position(|s| s.solver == f.row.strategy) else {
            continue;
        };
        if failing(s, f.reason) {
            let (named, n) = out.entry((s, f.reason)).or_default();
            if named.len() < SHOWN {
                named.push(f);
            }
            *n += 1;
        }
    }
    out
}

/// `12 expected_steps, 6 parity`: the reasons of one class with their counts.
fn breakdown(s: &SolverCheck, class: Class) -> String {
    s.counts
        .iter()
        .filter(|(r, _)| r.class() == class)
        .map(|(r, n)| format!("{n} {}", r.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `18 verified (18 expected_steps), 0 wrong, 78 unverified (78 limit)`.
fn counts_text(s: &SolverCheck, limits_accepted: bool) -> String {
    let part = |class: Class, label: &str| {
        let n = s.count(class);
        let mut why = breakdown(s, class);
        if class == Class::Unverified && limits_accepted && s.of(Reason::Limit) > 0 {
            why.push_str("; the limit rows accepted by --allow-limit");
        }
        if n == 0 {
            format!("0 {label}")
        } else {
            format!("{n} {label} ({why})")
        }
    };
    format!(
        "{}, {}, {}",
        part(Class::Verified, "verified"),
        part(Class::Wrong, "wrong"),
        part(Class::Unverified, "unverified")
    )
}

/// The check's last lines: passed or failed, with the counts, and what to do about each
/// kind of row that failed.
fn conclusion(
    total: &SolverCheck,
    unaccepted: &SolverCheck,
    rows: usize,
    run: &Finished,
) -> Vec<String> {
    let verified = total.count(Class::Verified);
    let why = breakdown(total, Class::Verified);
    if rows == 0 {
        return vec!["check: failed: no row has an answer to check".into()];
    }
    if unaccepted.counts.is_empty() {
        let limits = total.of(Reason::Limit);
        return vec![if limits == 0 {
            format!("check: passed: all {rows} rows verified ({why})")
        } else {
            format!(
                "check: passed: {verified} of {rows} rows verified ({why}); the other {limits} \
                 are limit rows accepted by --allow-limit"
            )
        }];
    }
    let (wrong, unverified) = (
        unaccepted.count(Class::Wrong),
        unaccepted.count(Class::Unverified),
    );
    let mut out = vec![format!(
        "check: failed: {wrong} wrong and {unverified} unverified of {rows} rows ({verified} \
         verified); every row is in {} (status, matches_expected, optimal and message columns)",
        run.cases_csv().display()
    )];
    if unaccepted.of(Reason::Limit) > 0 {
        out.push(
            "check: a limit row has no answer to verify: give a larger --max-nodes, --timeout \
             or --max-states, or accept the limits you expect with --allow-limit N (in all) or \
             --allow-limit SOLVER=N|all"
                .into(),
        );
    }
    if unaccepted.of(Reason::OptimumUnknown) > 0 {
        out.push(
            "check: an answer is verified against the row's expected_steps or the optimum \
             astar finds within the run's budget; give the rows expected_steps (`tilebench \
             gen` writes them), or a larger budget"
                .into(),
        );
    }
    if unaccepted.of(Reason::Unconfirmed) > 0 {
        out.push(
            "check: an optimal strategy's answer on a row without expected_steps is verified \
             only by another optimal strategy's equal answer; give the rows expected_steps, \
             or run a second strategy beside it (e.g. -s astar,bibfs)"
                .into(),
        );
    }
    out
}
