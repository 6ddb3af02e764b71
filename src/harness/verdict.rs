//! What a finished run says to its user: the problems, after the data is safely written,
//! and whether a check failed.

use super::pipeline::Finished;

/// The lines a run ends with, and what they mean for an exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Sentences for stderr, in order.
    pub lines: Vec<String>,
    /// `--check` found a failure (exit 1).
    pub check_failed: bool,
    /// Some rows are `invalid` or `error` (exit 2).
    pub bad_rows: bool,
}

impl Finished {
    /// The run's last words: invalid and error rows (the first 20 of each), judged answers
    /// that are wrong or not optimal, and with `check` every check failure and each solver's
    /// answers counted.
    pub fn verdict(&self, check: bool) -> Verdict {
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
        if check {
            self.check_lines(&mut v);
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

    /// `--check`'s lines: each failure (the first 50), each solver's tally, the conclusion.
    fn check_lines(&self, v: &mut Verdict) {
        // The rows' views are built once for the failures and the tallies.
        let rows = self.views();
        let failures = crate::check::failures(&rows);
        for f in failures.iter().take(50) {
            v.lines.push(format!("check failed: {f}"));
        }
        if failures.len() > 50 {
            v.lines
                .push(format!("check failed: … and {} more", failures.len() - 50));
        }
        for t in crate::check::tally(&rows) {
            v.lines.push(format!(
                "check: {}: {} answered, {} right, {} optimal, {} unanswered",
                t.solver, t.answered, t.right, t.optimal, t.unanswered
            ));
        }
        if failures.is_empty() {
            v.lines.push(
                "check: every case answered; every answer matches expected_steps, optimal \
                 strategies agree, and every judged answer is right and optimal"
                    .into(),
            );
        } else {
            v.lines
                .push(format!("check: {} failure(s)", failures.len()));
            v.check_failed = true;
        }
    }
}
