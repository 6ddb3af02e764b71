//! `compare --export junit=FILE`: the comparison as JUnit XML for CI test tabs: a suite per
//! pair, and in it one test case per solver and check (`answers`, `work`, `counters`,
//! `latency`), plus the pair's `missing rows`. A check that could not be made (no latency on
//! either side, no counter in both) is skipped, never passed.

use super::{cause, latency_change, latency_metric, list_title, ComparisonExport, Format};
use crate::compare::model::{Comparison, ListKind, PairComparison, PairKind, SolverComparison};
use crate::report::junit::{Outcome, Suite, Suites, TestCase};
use crate::report::settings::Counter as Moved;

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "junit",
    describe: "JUnit XML for CI test tabs: a suite per pair, a test case per solver and check",
    export: &Junit,
};

/// JUnit XML.
pub(crate) struct Junit;

impl ComparisonExport for Junit {
    fn render(&self, c: &Comparison) -> String {
        let max = c.thresholds.max_work_increase_pct;
        Suites {
            name: "tilebench compare".into(),
            suites: c.pairs.iter().map(|p| suite(p, max)).collect(),
        }
        .to_xml()
    }
}

/// The first rows of a list, one a line (the failure's body).
fn body(pair: &PairComparison, kind: ListKind) -> String {
    pair.list(kind).map_or(String::new(), |l| {
        let mut b = l.shown.join("\n");
        if l.items > l.shown.len() {
            b += &format!("\n… and {} more", l.items - l.shown.len());
        }
        b
    })
}

/// A pass, or a failure with `message`.
fn outcome(failed: bool, message: String, body: String) -> Outcome {
    if failed {
        Outcome::failed(message, body)
    } else {
        Outcome::Passed
    }
}

/// One pair's suite.
fn suite(pair: &PairComparison, max: f64) -> Suite {
    let mut cases = Vec::new();
    for s in &pair.solvers {
        cases.extend(solver_cases(pair, s, max));
    }
    if pair.kind == PairKind::Runs {
        let n = pair.count(ListKind::Missing);
        cases.push(TestCase::new(
            "rows",
            "missing rows",
            outcome(
                n > 0,
                format!("{n} row(s) of the baseline are missing from the current run"),
                body(pair, ListKind::Missing),
            ),
        ));
    }
    Suite {
        name: pair.title(),
        time_s: None,
        cases,
    }
}

/// A solver's test cases: answers, work, counters and latency.
fn solver_cases(pair: &PairComparison, s: &SolverComparison, max: f64) -> Vec<TestCase> {
    let name = s.solver.as_str();
    let runs = pair.kind == PairKind::Runs;
    let mut out = Vec::new();
    // Two solvers of one run differ by design: their answers and work are reported, not
    // failed.
    let answers = if runs {
        outcome(
            s.wrong > 0,
            format!(
                "{} wrong answer(s){}",
                s.wrong,
                cause(pair, name, &[Moved::Status, Moved::Steps])
            ),
            body(pair, ListKind::WrongAnswers),
        )
    } else {
        Outcome::Passed
    };
    let mut answers = TestCase::new(name, "answers", answers);
    if !runs && s.wrong > 0 {
        answers.output = format!("{} answer(s) differ (not a failure)", s.wrong);
    }
    out.push(answers);
    let compared: Vec<String> = s
        .work
        .iter()
        .filter_map(|(k, t)| {
            Some(format!(
                "{} {}",
                k.column(),
                super::fmt_pct(t.change_pct()?)
            ))
        })
        .collect();
    let work = if compared.is_empty() {
        Outcome::Skipped {
            message: "no row has expanded or generated in both".into(),
        }
    } else {
        let over =
            runs && (s.cases_with_more_work > 0 || s.work.iter().any(|(_, t)| t.exceeds(max)));
        outcome(
            over,
            format!(
                "{}: {} case(s) with more work{}",
                list_title(ListKind::MoreWork, max),
                s.cases_with_more_work,
                cause(pair, name, &[Moved::Expanded, Moved::Generated])
            ),
            body(pair, ListKind::MoreWork),
        )
    };
    let mut work = TestCase::new(name, "work", work);
    work.output = compared.join(", ");
    out.push(work);
    if runs {
        out.push(TestCase::new(
            name,
            "counters",
            outcome(
                s.rows_missing_a_counter > 0,
                format!(
                    "{} row(s) have a counter in one run only",
                    s.rows_missing_a_counter
                ),
                body(pair, ListKind::MissingCounters),
            ),
        ));
    }
    out.push(latency_case(pair, s));
    out
}

/// A solver's latency test case: failed only by a gated regression; every figure in its
/// output, with the one-run caveat where it applies.
fn latency_case(pair: &PairComparison, s: &SolverComparison) -> TestCase {
    if s.latency.is_empty() {
        return TestCase::new(
            &s.solver,
            "latency",
            Outcome::Skipped {
                message: "no case has a latency on both sides".into(),
            },
        );
    }
    let lines: Vec<String> = s
        .latency
        .iter()
        .map(|f| {
            format!(
                "{}: {} ({})",
                latency_metric(f.figure),
                latency_change(f),
                f.word()
            )
        })
        .collect();
    let failed = s.latency_regressed();
    let mut case = TestCase::new(
        &s.solver,
        "latency",
        outcome(
            failed,
            format!(
                "latency over the threshold{}",
                cause(pair, &s.solver, &[Moved::Latency])
            ),
            lines.join("\n"),
        ),
    );
    case.output = lines.join("\n");
    case
}
