//! What a finished run says to its user: the problems, after the data is safely written,
//! and whether a check failed.

use super::pipeline::Finished;
use crate::check::{AllowLimit, Class, Digest, Kept, Reason, SolverCheck};

/// The lines a run ends with, and what they mean for an exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Sentences for the user, in order, naming the plan's limits and allowances in the
    /// library's words (the rows' messages they quote are cases.csv's).
    pub lines: Vec<String>,
    /// The same lines as the command line prints them: its flags (`--allow-limit`,
    /// `--max-nodes`, `--check`) for the options.
    pub lines_with_flags: Vec<String>,
    /// `--check` found a row that is wrong or not verified (exit 1).
    pub check_failed: bool,
    /// Some rows are `invalid` or `error` (exit 2).
    pub bad_rows: bool,
}

/// A message with what names its case masked: the text between backticks, and digits. Two
/// rows' messages of the same shape say the same thing about different cases.
fn shape(m: &str) -> String {
    let mut out = String::with_capacity(m.len());
    let mut quoted = false;
    for c in m.chars() {
        if c == '`' {
            quoted = !quoted;
            out.push(c);
        } else if quoted {
        } else if !c.is_ascii_digit() {
            out.push(c);
        } else if out.ends_with("status ") || out.ends_with("signal ") || kept(&out) {
            // An exit status or a signal says how the program ended: kept.
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// Whether the digits being read continue an exit status or a signal kept by [`shape`].
fn kept(out: &str) -> bool {
    let body = out.trim_end_matches(|c: char| c.is_ascii_digit());
    body.len() < out.len() && (body.ends_with("status ") || body.ends_with("signal "))
}

const SHOWN: usize = Digest::SHOWN;

/// The command line's phrases of the verdict's lines, and each in the library's words (the
/// plan's `limits` and `allow_limit`, the check): the lines are made with the first and read
/// in the second; the longest first.
const PHRASES: [(&str, &str); 14] = [
    (
        "give a larger --max-nodes, --timeout, --max-states or --max-memory, or accept the \
         limits you expect with --allow-limit N (in all) or --allow-limit SOLVER=N|all",
        "give a larger node, time, state or memory budget (the plan's limits), or accept the \
         limits you expect (the plan's allow_limit: N in all, or N or all for a solver)",
    ),
    ("; --check fails on them", "; the check fails on them"),
    (
        "check: warning: --allow-limit names",
        "check: warning: the allowed limits name",
    ),
    (
        "accepted by --allow-limit",
        "accepted by the allowed limits",
    ),
    ("more than --allow-limit ", "more than the allowance "),
    ("(e.g. -s astar,bibfs)", "(e.g. astar and bibfs)"),
    ("within --max-nodes ", "within the node budget "),
    ("within --max-states ", "within the state budget "),
    ("within --max-memory ", "within the memory budget "),
    ("within --timeout ", "within the timeout of "),
    ("ran out of --max-nodes ", "ran out of the node budget "),
    ("ran out of --timeout ", "ran out of the timeout of "),
    ("ran out of --max-states ", "ran out of the state budget "),
    ("ran out of --max-memory ", "ran out of the memory budget "),
];

/// A line made with the command line's phrases ([`PHRASES`]), in the library's words.
fn in_words(line: &str) -> String {
    PHRASES.iter().fold(line.to_string(), |t, (flags, words)| {
        t.replace(flags, words)
    })
}

impl Finished {
    /// The run's last words: invalid and error rows (the first 20 of each), judged answers
    /// that are wrong or not optimal, and with `check` (`--check`, with the `limit` rows
    /// it accepts) each solver's rows counted as verified, wrong and unverified, the first
    /// few of each reason named, and the conclusion.
    pub fn verdict(&self, check: Option<&AllowLimit>) -> Verdict {
        let mut v = Verdict::default();
        let cases_path = self.cases_csv();
        let mut shown = |label: &str, messages: &Kept| {
            // A program's error repeated but for its case (its file and line, the boards and
            // numbers in it) is shown once, with a count of the others. Each invalid row is
            // shown: its line of the dataset is the one to mend.
            let mut groups: Vec<(String, &String, usize)> = Vec::new();
            for (i, m) in messages.first.iter().enumerate() {
                let key = if label == "error" {
                    shape(m)
                } else {
                    i.to_string()
                };
                match groups.iter_mut().find(|g| g.0 == key) {
                    Some(g) => g.2 += 1,
                    None => groups.push((key, m, 0)),
                }
            }
            for (_, m, more) in groups {
                v.lines.push(format!("{label}: {m}"));
                if more > 0 {
                    v.lines.push(format!(
                        "{label}: … and {more} more with the same message but for their case"
                    ));
                }
            }
            if messages.count > messages.first.len() {
                v.lines.push(format!(
                    "{label}: … and {} more (see the message column of {})",
                    messages.count - messages.first.len(),
                    cases_path.display()
                ));
            }
        };
        let (invalid, errors) = (&self.digest.invalid, &self.digest.errors);
        shown("invalid", invalid);
        shown("error", errors);
        if let Some(allow) = check {
            self.check_lines(allow, &mut v);
        } else {
            for s in self.summaries.iter().filter(|s| s.wrong > 0) {
                v.lines.push(format!(
                    "tilebench: {} gave {} wrong answer(s) (paths over its claim included: \
                     status, optimal and message columns of {}); --check fails on them",
                    s.strategy,
                    s.wrong,
                    cases_path.display()
                ));
            }
        }
        self.unanswered_lines(&mut v);
        if invalid.count + errors.count > 0 {
            v.lines.push(format!(
                "tilebench: {} invalid row(s), {} error row(s); every row is in {} (status and \
                 message columns)",
                invalid.count,
                errors.count,
                cases_path.display()
            ));
            v.bad_rows = true;
        }
        v.lines_with_flags = std::mem::take(&mut v.lines);
        v.lines = v.lines_with_flags.iter().map(|l| in_words(l)).collect();
        v
    }

    /// A line for each solver none of whose rows was answered (every row `error` or `limit`,
    /// leaving aside the dataset's `invalid` rows), with its first row's message: a program
    /// that never worked is named on its own, not only counted among the error rows.
    fn unanswered_lines(&self, v: &mut Verdict) {
        for s in &self.summaries {
            let failed = s.errors + s.limit;
            if failed == 0 || failed + s.invalid != s.cases {
                continue;
            }
            let first = self
                .digest
                .first_unanswered
                .get(&s.strategy)
                .filter(|m| !m.is_empty())
                .map_or(String::new(), |m| format!("; the first: {m}"));
            v.lines.push(format!(
                "tilebench: {} answered none of its {} row(s) ({} error, {} limit){first}",
                s.strategy, failed, s.errors, s.limit
            ));
        }
    }

    /// `--check`'s lines: the rows that fail (the first few per solver and reason), each
    /// solver's counts, the allowances exceeded, the conclusion and what to do.
    fn check_lines(&self, allow: &AllowLimit, v: &mut Verdict) {
        let solvers = &self.digest.solvers;
        let (accepted, exceeded) = allow.judge(solvers);
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
        let failing_rows = self
            .digest
            .failing
            .iter()
            .filter(|((s, r), _)| failing(*s, *r));
        for (&(s, reason), rows) in failing_rows {
            for line in &rows.first {
                v.lines.push(format!("check failed: {line}"));
            }
            let n = rows.count;
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
        let findings = self.digest.findings;
        v.check_failed = !unaccepted.counts.is_empty() || findings == 0;
        v.lines
            .extend(conclusion(&total, &unaccepted, findings, self));
    }
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
        // The dataset's invalid rows have no answer: named above, and the run exits 2.
        let invalid = match run.digest.invalid.count {
            0 => String::new(),
            n => {
                format!("; {n} invalid row(s) of the dataset had no answer to check (named above)")
            }
        };
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({why})")
        };
        return vec![if limits == 0 {
            format!("check: passed: all {rows} answered rows verified{why}{invalid}")
        } else {
            format!(
                "check: passed: {verified} of {rows} rows verified{why}; the other {limits} are \
                 limit rows accepted by --allow-limit{invalid}"
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
            "check: a limit row has no answer to verify: give a larger --max-nodes, --timeout, \
             --max-states or --max-memory, or accept the limits you expect with --allow-limit N (in all) or \
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
