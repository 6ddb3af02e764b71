//! JUnit XML, the test report CI systems show in their test tabs (GitHub's test reporters,
//! GitLab's `artifacts:reports:junit`, Jenkins, Azure): a small typed model ([`Suites`] →
//! [`Suite`] → [`TestCase`]) rendered by [`Suites::to_xml`], and `run`'s checks in it
//! (`--export junit=FILE`: one suite per solver, one test case per check; see
//! [`of_run_check`]).
//!
//! The model knows nothing of runs: `compare` fills it with its own checks.

use super::{Format, RunExport, StrategySummary, SummaryExport};
use crate::check::Digest;
use crate::check::{AllowLimit, Class, Reason};
use std::fmt::Write as _;

/// A JUnit XML file: `<testsuites>`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Suites {
    /// Its name (`tilebench run`).
    pub name: String,
    /// The suites, in order.
    pub suites: Vec<Suite>,
}

/// A `<testsuite>`: a group of test cases (e.g. one solver's checks).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Suite {
    /// Its name (a solver's).
    pub name: String,
    /// How long it took, in seconds, when known.
    pub time_s: Option<f64>,
    /// Its test cases, in order.
    pub cases: Vec<TestCase>,
}

/// A `<testcase>`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TestCase {
    /// What is tested (a check: `expected_steps`, `latency`).
    pub name: String,
    /// Its group, as CI tabs show it (a solver).
    pub classname: String,
    /// How long it took, in seconds, when known.
    pub time_s: Option<f64>,
    /// Passed, failed or skipped.
    pub outcome: Outcome,
    /// What it found, for a passing test too (`<system-out>`); empty: none.
    pub output: String,
}

impl TestCase {
    /// A test case without time or output.
    pub(crate) fn new(classname: &str, name: &str, outcome: Outcome) -> TestCase {
        TestCase {
            name: name.into(),
            classname: classname.into(),
            time_s: None,
            outcome,
            output: String::new(),
        }
    }
}

/// How a test case ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// It passed.
    Passed,
    /// It failed: `<failure message="…">body</failure>`.
    Failed {
        /// One line.
        message: String,
        /// The details (e.g. the rows that failed), one per line.
        body: String,
    },
    /// It could not be run (nothing to check): `<skipped message="…"/>`. Not a pass.
    Skipped {
        /// Why.
        message: String,
    },
}

impl Outcome {
    /// A failure.
    pub(crate) fn failed(message: impl Into<String>, body: impl Into<String>) -> Outcome {
        Outcome::Failed {
            message: message.into(),
            body: body.into(),
        }
    }
}

impl Suite {
    fn count(&self, f: impl Fn(&Outcome) -> bool) -> usize {
        self.cases.iter().filter(|c| f(&c.outcome)).count()
    }
    fn failures(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Failed { .. }))
    }
    fn skipped(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Skipped { .. }))
    }
}

impl Suites {
    /// Whether any test case failed.
    #[cfg(test)]
    pub(crate) fn failed(&self) -> bool {
        self.suites.iter().any(|s| s.failures() > 0)
    }

    /// The XML document (UTF-8, with its declaration), counts computed from the cases.
    pub(crate) fn to_xml(&self) -> String {
        let tests: usize = self.suites.iter().map(|s| s.cases.len()).sum();
        let failures: usize = self.suites.iter().map(Suite::failures).sum();
        let skipped: usize = self.suites.iter().map(Suite::skipped).sum();
        let time: Option<f64> = self.suites.iter().map(|s| s.time_s).sum();
        let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            x,
            "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" \
             skipped=\"{skipped}\"{}>",
            escape(&self.name),
            time_attr(time)
        );
        for s in &self.suites {
            let _ = writeln!(
                x,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" \
                 skipped=\"{}\"{}>",
                escape(&s.name),
                s.cases.len(),
                s.failures(),
                s.skipped(),
                time_attr(s.time_s)
            );
            for c in &s.cases {
                case_xml(&mut x, c);
            }
            x.push_str("  </testsuite>\n");
        }
        x.push_str("</testsuites>\n");
        x
    }
}

fn case_xml(x: &mut String, c: &TestCase) {
    let _ = write!(
        x,
        "    <testcase name=\"{}\" classname=\"{}\"{}",
        escape(&c.name),
        escape(&c.classname),
        time_attr(c.time_s)
    );
    if c.outcome == Outcome::Passed && c.output.is_empty() {
        x.push_str("/>\n");
        return;
    }
    x.push_str(">\n");
    match &c.outcome {
        Outcome::Passed => {}
        Outcome::Failed { message, body } => {
            let _ = writeln!(
                x,
                "      <failure message=\"{}\" type=\"failure\">{}</failure>",
                escape(message),
                escape(body)
            );
        }
        Outcome::Skipped { message } => {
            let _ = writeln!(x, "      <skipped message=\"{}\"/>", escape(message));
        }
    }
    if !c.output.is_empty() {
        let _ = writeln!(x, "      <system-out>{}</system-out>", escape(&c.output));
    }
    x.push_str("    </testcase>\n");
}

fn time_attr(t: Option<f64>) -> String {
    t.filter(|t| t.is_finite() && *t >= 0.0)
        .map_or(String::new(), |t| format!(" time=\"{t:.3}\""))
}

/// Text for an XML attribute or element: `& < > " '` escaped; characters XML 1.0 cannot hold
/// (controls other than tab, line feed and carriage return; U+FFFE, U+FFFF) become U+FFFD;
/// line ends in attributes kept as character references.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "junit",
    describe: "JUnit XML for CI test tabs: per solver, one test case per --check check",
    export: &Junit,
};

/// JUnit XML of a run's checks.
pub(crate) struct Junit;

impl SummaryExport for Junit {
    /// From the summaries alone (no check results): per solver, one `answers` test case,
    /// failed by wrong (a path over its solver's claim included) or error rows.
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let suites = summaries
            .iter()
            .map(|s| {
                let bad = s.wrong + s.errors;
                let outcome = if bad == 0 {
                    Outcome::Passed
                } else {
                    Outcome::failed(
                        format!("{} wrong, {} error rows of {}", s.wrong, s.errors, s.cases),
                        "",
                    )
                };
                Suite {
                    name: s.strategy.clone(),
                    time_s: Some(s.wall_s),
                    cases: vec![TestCase::new(&s.strategy, "answers", outcome)],
                }
            })
            .collect();
        Suites {
            name: "tilebench run".into(),
            suites,
        }
        .to_xml()
    }

    fn render_run(&self, run: &RunExport<'_>) -> String {
        of_run_check(run.summaries, run.digest, run.allow_limit).to_xml()
    }
}

/// One check of `run --check`, as a test case: its name, the reasons it covers, what it
/// checks.
struct Check {
    name: &'static str,
    reasons: &'static [Reason],
    what: &'static str,
}

/// The checks, in the order of their test cases. Every row has one reason, so the checks
/// partition a solver's rows; `replay`, `limit` and `error` concern every row (never
/// skipped), the others only the rows checked their way (skipped when there are none).
const CHECKS: &[Check] = &[
    Check {
        name: "replay",
        reasons: &[Reason::Rejected],
        what: "every answer is legal and reaches the goal (paths replayed, numbers and \
               `unsolvable` judged)",
    },
    Check {
        name: "expected_steps",
        reasons: &[Reason::ExpectedSteps, Reason::Mismatch],
        what: "answers equal the rows' expected_steps",
    },
    Check {
        name: "parity",
        reasons: &[Reason::Parity],
        what: "`unsolvable` answers confirmed by the parity test",
    },
    Check {
        name: "agreement",
        reasons: &[Reason::Agreement, Reason::Disagreement, Reason::Unconfirmed],
        what: "on rows without expected_steps, optimal strategies agree",
    },
    Check {
        name: "optimal",
        reasons: &[
            Reason::ReferenceOptimum,
            Reason::WithinClaim,
            Reason::NotOptimal,
            Reason::OverClaim,
            Reason::OptimumUnknown,
        ],
        what: "paths are within their solver's claim: no longer than the optimum (the row's \
               expected_steps, or astar's where the row has none) for a solver that claims \
               shortest paths, W × the optimum for `within=W`, any path for `valid`",
    },
    Check {
        name: "limit",
        reasons: &[Reason::Limit],
        what: "no row ran out of its budget (beyond what --allow-limit accepts)",
    },
    Check {
        name: "error",
        reasons: &[Reason::Error],
        what: "no row failed",
    },
];

/// `run --check`'s findings as JUnit: a suite per solver (in the order of `summaries`, timed
/// by its pass), one test case per check (`replay`, `expected_steps`, `parity`, `agreement`,
/// `optimal`, `limit`, `error`), failed by a row that is wrong or unverified (a `limit` row
/// accepted by `allow` passes, and says so), skipped when no row was checked that way; and a
/// suite `dataset` with `invalid rows` and `rows checked` (failed when no row had an answer
/// to check). A failure's body lists the first rows, as the check's lines do.
pub(crate) fn of_run_check(
    summaries: &[StrategySummary],
    digest: &Digest,
    allow: &AllowLimit,
) -> Suites {
    let (accepted, exceeded) = allow.judge(&digest.solvers);
    let mut suites = vec![dataset_suite(digest)];
    for s in summaries {
        let place = digest.solvers.iter().position(|c| c.solver == s.strategy);
        let cases = CHECKS
            .iter()
            .map(|check| {
                let mut case = check_case(digest, place, check, &s.strategy);
                if check.name == "limit" {
                    limit_notes(&mut case, place.is_some_and(|p| accepted[p]), &exceeded);
                }
                case
            })
            .collect();
        suites.push(Suite {
            name: s.strategy.clone(),
            time_s: Some(s.wall_s),
            cases,
        });
    }
    Suites {
        name: "tilebench run --check".into(),
        suites,
    }
}

/// The dataset's test cases: invalid rows, and whether any row had an answer to check.
fn dataset_suite(digest: &Digest) -> Suite {
    let invalid = &digest.invalid;
    let invalid_case = if invalid.count == 0 {
        Outcome::Passed
    } else {
        Outcome::failed(
            format!("{} invalid row(s) in the inputs", invalid.count),
            more(&invalid.first, invalid.count),
        )
    };
    let checked = if digest.findings == 0 {
        Outcome::failed("no row has an answer to check", "")
    } else {
        Outcome::Passed
    };
    let mut rows = TestCase::new("dataset", "rows checked", checked);
    rows.output = format!("{} rows with an answer to check", digest.findings);
    Suite {
        name: "dataset".into(),
        time_s: None,
        cases: vec![TestCase::new("dataset", "invalid rows", invalid_case), rows],
    }
}

/// One solver's test case for one check.
fn check_case(digest: &Digest, place: Option<usize>, check: &Check, solver: &str) -> TestCase {
    let Some(p) = place else {
        let outcome = Outcome::Skipped {
            message: format!("{solver} has no row with an answer to check"),
        };
        return TestCase::new(solver, check.name, outcome);
    };
    let counts = &digest.solvers[p];
    let total: usize = counts.counts.values().sum();
    let n = |r: &Reason| counts.of(*r);
    let rows: usize = check.reasons.iter().map(n).sum();
    let all_rows = matches!(check.name, "replay" | "limit" | "error");
    let mut case = TestCase::new(solver, check.name, Outcome::Passed);
    let tally: Vec<String> = check
        .reasons
        .iter()
        .filter(|r| n(r) > 0)
        .map(|r| format!("{} {}", n(r), r.name()))
        .collect();
    if rows == 0 && !all_rows {
        case.outcome = Outcome::Skipped {
            message: format!("no row of {solver} was checked this way ({})", check.what),
        };
        return case;
    }
    case.output = if rows == 0 {
        format!("{}: none of {total} rows failed it", check.what)
    } else {
        format!("{}: {} of {total} rows", check.what, tally.join(", "))
    };
    let failing: Vec<&Reason> = check
        .reasons
        .iter()
        .filter(|r| r.class() != Class::Verified && n(r) > 0)
        .collect();
    if !failing.is_empty() {
        let mut body = Vec::new();
        for r in &failing {
            if let Some(kept) = digest.failing.get(&(p, **r)) {
                body.push(more(&kept.first, kept.count));
            }
        }
        let message: Vec<String> = failing
            .iter()
            .map(|r| format!("{} {} ({})", n(r), class_word(r.class()), r.name()))
            .collect();
        case.outcome = Outcome::failed(
            format!("{solver}: {} of {total} rows", message.join(", ")),
            body.join("\n"),
        );
    }
    case
}

/// A `limit` case: passed when `--allow-limit` accepts the solver's limit rows (and said);
/// the allowances exceeded added to a failure.
fn limit_notes(case: &mut TestCase, accepted: bool, exceeded: &[String]) {
    match &mut case.outcome {
        Outcome::Failed { .. } if accepted => {
            case.outcome = Outcome::Passed;
            case.output
                .push_str("; the limit rows accepted by --allow-limit");
        }
        Outcome::Failed { body, .. } => {
            for e in exceeded {
                body.push_str(&format!("\n{e}"));
            }
        }
        _ => {}
    }
}

fn class_word(c: Class) -> &'static str {
    match c {
        Class::Verified => "verified",
        Class::Wrong => "wrong",
        Class::Unverified => "unverified",
    }
}

/// The lines kept, and `… and N more` when there were more.
fn more(first: &[String], count: usize) -> String {
    let mut lines = first.to_vec();
    if count > first.len() {
        lines.push(format!(
            "… and {} more (every row is in cases.csv)",
            count - first.len()
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_small_model_renders_to_junit_xml() {
        use crate::report::junit::{Outcome, Suite, Suites, TestCase};
        let suites = Suites {
            name: "tilebench compare".into(),
            suites: vec![Suite {
                name: "astar".into(),
                time_s: None,
                cases: vec![
                    TestCase::new("astar", "answers", Outcome::Passed),
                    TestCase::new(
                        "astar",
                        "work",
                        Outcome::failed("expanded +12%", "case 7: 10 → 14"),
                    ),
                ],
            }],
        };
        let xml = suites.to_xml();
        assert!(xml
            .contains(r#"<testsuite name="astar" tests="2" failures="1" errors="0" skipped="0""#));
    }

    use super::*;

    fn parse(xml: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"))
    }

    #[test]
    fn text_that_breaks_xml_reads_back_as_written() {
        let nasty = "a<b>&c\"d'e\u{1}f\r\ng\tπ]]>";
        let case = TestCase {
            output: nasty.into(),
            time_s: Some(0.25),
            ..TestCase::new(nasty, nasty, Outcome::failed(nasty, nasty))
        };
        let suites = Suites {
            name: nasty.into(),
            suites: vec![Suite {
                name: nasty.into(),
                time_s: Some(1.5),
                cases: vec![case],
            }],
        };
        let xml = suites.to_xml();
        let doc = parse(&xml);
        let read = nasty.replace('\u{1}', "\u{FFFD}");
        let tc = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap();
        assert_eq!(tc.attribute("name"), Some(read.as_str()));
        assert_eq!(tc.attribute("classname"), Some(read.as_str()));
        assert_eq!(tc.attribute("time"), Some("0.250"));
        let failure = tc.children().find(|n| n.has_tag_name("failure")).unwrap();
        assert_eq!(failure.attribute("message"), Some(read.as_str()));
        // Element text: XML parsers normalize a CR LF to LF; the character reference keeps it.
        assert_eq!(failure.text(), Some(read.as_str()));
        let out = tc
            .children()
            .find(|n| n.has_tag_name("system-out"))
            .unwrap();
        assert_eq!(out.text(), Some(read.as_str()));
    }

    #[test]
    fn counts_are_the_cases_outcomes() {
        let cases = vec![
            TestCase::new("s", "a", Outcome::Passed),
            TestCase::new("s", "b", Outcome::failed("no", "")),
            TestCase::new(
                "s",
                "c",
                Outcome::Skipped {
                    message: "none".into(),
                },
            ),
            TestCase::new("s", "d", Outcome::failed("no", "x")),
        ];
        let suites = Suites {
            name: "n".into(),
            suites: vec![
                Suite {
                    name: "s".into(),
                    time_s: Some(2.0),
                    cases,
                },
                Suite::default(),
            ],
        };
        assert!(suites.failed());
        let xml = suites.to_xml();
        let doc = parse(&xml);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        let attr = |n: roxmltree::Node, a| n.attribute(a).unwrap().to_string();
        assert_eq!(attr(root, "tests"), "4");
        assert_eq!(attr(root, "failures"), "2");
        assert_eq!(attr(root, "skipped"), "1");
        // One suite without a time: the total is not known.
        assert_eq!(root.attribute("time"), None);
        let suite = root
            .children()
            .find(|n| n.has_tag_name("testsuite"))
            .unwrap();
        assert_eq!(attr(suite, "time"), "2.000");
        assert_eq!(attr(suite, "failures"), "2");
        let skipped: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("skipped"))
            .collect();
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].attribute("message"), Some("none"));
    }
}
