//! Comparisons as text: the terminal's ([`text`]) and the export formats, one file each
//! behind [`ComparisonExport`], listed in [`FORMATS`] (`compare --export NAME=FILE`).
//!
//! The table of a pair (solver × metric: baseline, current, change, verdict) is built once
//! here (`pair_table`) from the typed values, for the terminal and Markdown; JSON and JUnit
//! read the values themselves.

use super::model::{
    Comparison, CounterTotal, Figure, LatencyFigure, List, ListKind, PairComparison, PairKind,
    SolverComparison,
};
use super::pair::fmt_pct;
use crate::report::settings::Counter as Moved;

// One file each (a [`ComparisonExport`] and a `pub const FORMAT: Format`); adding a format is
// its file, its `pub mod` line and its name in `FORMATS`.
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod markdown;
/// The comparison's export formats (`compare --export NAME=FILE`), in order.
pub const FORMATS: &[Format] = &[markdown::FORMAT, json::FORMAT, junit::FORMAT];

/// Renders a whole comparison as one file's text.
pub trait ComparisonExport {
    /// The whole file.
    fn render(&self, c: &Comparison) -> String;
}

/// One comparison export format: a name for `--export NAME=FILE`, a line for the help, the
/// renderer.
pub type Format = crate::util::Registered<dyn ComparisonExport + Sync>;

/// The format called `name` (any case).
///
/// # Errors
/// No format has that name ([`UnknownName`](crate::util::UnknownName) lists them).
pub fn format(name: &str) -> Result<&'static Format, crate::util::UnknownName> {
    crate::util::registered(FORMATS, name, "comparison export format")
}

/// The table's columns; with two solvers of one run, the value columns are their names.
pub(crate) fn header(pair: &PairComparison) -> [String; 6] {
    let (b, c) = match pair.kind {
        PairKind::Runs => ("baseline".to_string(), "current".to_string()),
        PairKind::Solvers => (pair.baseline.clone(), pair.current.clone()),
    };
    [
        "strategy".into(),
        "metric".into(),
        b,
        c,
        "change".into(),
        "verdict".into(),
    ]
}

/// A table row.
fn row(solver: &str, metric: &str, cells: [String; 4]) -> Vec<String> {
    let [b, c, change, verdict] = cells;
    vec![solver.into(), metric.into(), b, c, change, verdict]
}

/// The verdict on a change in work of `p` percent between two runs that is within the
/// threshold (one past it is a regression: [`CounterTotal::exceeds`]).
fn work_verdict(p: f64) -> &'static str {
    if p < 0.0 {
        "improved"
    } else if p == 0.0 {
        "unchanged"
    } else {
        "within threshold"
    }
}

/// A count of bad rows: regressed when there are any (with the changed settings that can
/// explain it).
fn count_row(s: &str, metric: &str, n: usize, why: &str) -> Vec<String> {
    let verdict = if n > 0 {
        format!("regressed{why}")
    } else {
        "unchanged".into()
    };
    row(
        s,
        metric,
        [String::new(), n.to_string(), String::new(), verdict],
    )
}

/// ` (heuristic changed)`: the settings that changed between the runs and can move one of
/// `counters` of `solver`, as a note beside its regression; empty when none.
pub(crate) fn cause(pair: &PairComparison, solver: &str, counters: &[Moved]) -> String {
    let mut names: Vec<String> = Vec::new();
    for c in counters {
        for change in pair.causes(solver, *c) {
            let name = change.setting.name();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if names.is_empty() {
        String::new()
    } else {
        format!(" ({} changed)", names.join(", "))
    }
}

/// A counter total's row.
fn total_row(s: &str, column: &str, t: &CounterTotal, verdict: &str) -> Vec<String> {
    let p = t.change_pct().unwrap_or(0.0);
    row(
        s,
        &format!("{column} (total)"),
        [
            t.baseline.to_string(),
            t.current.to_string(),
            fmt_pct(p),
            verdict.into(),
        ],
    )
}

/// A solver's rows on answers and work.
fn work_rows(body: &mut Vec<Vec<String>>, pair: &PairComparison, s: &SolverComparison, max: f64) {
    let name = &s.solver;
    if pair.kind == PairKind::Solvers {
        // Two solvers: more or less work is what tells them apart, never a regression.
        let word = if s.wrong > 0 { "differ" } else { "same" };
        body.push(row(
            name,
            "answers that differ",
            [
                String::new(),
                s.wrong.to_string(),
                String::new(),
                word.into(),
            ],
        ));
        for (counter, t) in &s.work {
            if let Some(p) = t.change_pct() {
                let word = match p.partial_cmp(&0.0) {
                    Some(std::cmp::Ordering::Greater) => "more",
                    Some(std::cmp::Ordering::Less) => "less",
                    _ => "same",
                };
                body.push(total_row(name, counter.column(), t, word));
            }
        }
        return;
    }
    let answers = cause(pair, name, &[Moved::Status, Moved::Steps]);
    body.push(count_row(name, "wrong answers", s.wrong, &answers));
    let work = cause(pair, name, &[Moved::Expanded, Moved::Generated]);
    for (counter, t) in &s.work {
        match t.change_pct() {
            None => body.push(row(
                name,
                &format!("{} (total)", counter.column()),
                [
                    String::new(),
                    String::new(),
                    String::new(),
                    "not compared".into(),
                ],
            )),
            Some(p) => {
                let verdict = if t.exceeds(max) {
                    format!("regressed{work}")
                } else {
                    work_verdict(p).to_string()
                };
                body.push(total_row(name, counter.column(), t, &verdict));
            }
        }
    }
    if s.cases_with_more_work > 0 {
        let n = s.cases_with_more_work;
        body.push(count_row(name, "cases with more work", n, &work));
    }
    if s.rows_missing_a_counter > 0 {
        let n = s.rows_missing_a_counter;
        body.push(count_row(name, "rows missing a counter", n, ""));
    }
}

/// The metric column of a latency figure.
pub(crate) fn latency_metric(f: Figure) -> &'static str {
    match f {
        Figure::PerCase => "latency per case (geo. mean ratio)",
        Figure::P50 => "p50 latency µs",
        Figure::P99 => "p99 latency µs",
    }
}

/// The change column of a latency figure: `+3.10% (95% CI +1.00% to +5.20%)`.
pub(crate) fn latency_change(f: &LatencyFigure) -> String {
    let i = &f.interval;
    format!(
        "{} (95% CI {} to {})",
        fmt_pct((i.estimate - 1.0) * 100.0),
        fmt_pct((i.low - 1.0) * 100.0),
        fmt_pct((i.high - 1.0) * 100.0)
    )
}

/// A solver's latency rows (a slower figure with the changed settings that can explain it).
fn latency_rows(body: &mut Vec<Vec<String>>, pair: &PairComparison, s: &SolverComparison) {
    let why = cause(pair, &s.solver, &[Moved::Latency]);
    for f in &s.latency {
        let slower = f.interval.low > 1.0;
        let word = if slower {
            format!("{}{why}", f.word())
        } else {
            f.word().to_string()
        };
        let fmt = |x: f64| {
            if f.figure == Figure::PerCase {
                format!("{x:.3}×")
            } else {
                format!("{x:.1}")
            }
        };
        body.push(row(
            &s.solver,
            latency_metric(f.figure),
            [fmt(f.baseline), fmt(f.current), latency_change(f), word],
        ));
    }
}

/// The pair's table body: per solver, its answers, work and latency rows.
pub(crate) fn pair_table(pair: &PairComparison, max_work_increase: f64) -> Vec<Vec<String>> {
    let mut body = Vec::new();
    for s in &pair.solvers {
        work_rows(&mut body, pair, s, max_work_increase);
        latency_rows(&mut body, pair, s);
    }
    body
}

/// The title of a list.
pub(crate) fn list_title(kind: ListKind, max_work_increase: f64) -> String {
    match kind {
        ListKind::WrongAnswers => "Correctness regressions: status or steps changed".into(),
        ListKind::AnswersDiffer => "Answers that differ: status or steps".into(),
        ListKind::Reconfigured => "Path lengths that changed with the solver's options, which \
                                   differ between the runs (not a regression)"
            .into(),
        ListKind::MoreWork => format!(
            "Work regressions: expanded or generated grew by more than {max_work_increase}%"
        ),
        ListKind::MissingCounters => {
            "Missing counters: a counter one run has and the other lacks (regression)".into()
        }
        ListKind::Missing => "Missing from the current run (regression)".into(),
        ListKind::New => "New in the current run (not in the baseline)".into(),
    }
}

/// The lists under a pair's table, as text: each non-empty list with its count, its first
/// rows and how many more. Two solvers list only the answers that differ.
pub(crate) fn lists_text(pair: &PairComparison, max_work_increase: f64) -> String {
    let mut out = String::new();
    let shown = |l: &List| match pair.kind {
        PairKind::Solvers => l.kind == ListKind::AnswersDiffer,
        PairKind::Runs => l.kind != ListKind::AnswersDiffer,
    };
    for l in pair.lists.iter().filter(|l| shown(l) && l.count > 0) {
        out += &format!(
            "\n{} ({}):\n",
            list_title(l.kind, max_work_increase),
            l.count
        );
        for item in &l.shown {
            out += &format!("  {item}\n");
        }
        if l.items > l.shown.len() {
            out += &format!("  … and {} more\n", l.items - l.shown.len());
        }
    }
    out
}

/// The comparison as the terminal shows it: per pair, its title, notes, table, lists and
/// verdict; with several pairs, the overall verdict last.
pub fn text(c: &Comparison) -> String {
    let max = c.thresholds.max_work_increase_pct;
    let mut out = String::new();
    for n in &c.left_out {
        out += &format!("compare: note: {n}\n");
    }
    for (i, pair) in c.pairs.iter().enumerate() {
        if i > 0 {
            out += "\n";
        }
        out += &format!("compare: {}\n", pair.title());
        for n in &pair.notes {
            out += &format!("compare: note: {n}\n");
        }
        for change in &pair.settings {
            out += &format!("compare: setting changed: {change}\n");
        }
        out += "\n";
        let header = header(pair);
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        out += &crate::report::table::align(&header, &pair_table(pair, max));
        out += &lists_text(pair, max);
        match pair.kind {
            PairKind::Runs => out += &format!("\ncompare: {}\n", pair.verdict()),
            PairKind::Solvers => {
                out += "\n";
                for line in pair.headline() {
                    out += &format!("compare: {line}\n");
                }
            }
        }
    }
    if c.pairs.len() > 1 {
        out += &format!("\ncompare: {}\n", c.verdict());
    }
    out
}
