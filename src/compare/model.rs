//! What a comparison found, as values: per pair of sides, per solver, per counter and per
//! latency figure. The renderers ([`super::render`]) read these; nothing here is formatted
//! text but the example rows of the lists and the notes, which are sentences.

use crate::report::settings::{self as run_settings, SettingChange};
use crate::stats::{self, Interval};

/// A latency figure of a paired comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Figure {
    /// The geometric mean of the per-case ratios current/baseline.
    PerCase,
    /// The ratio of the sides' medians.
    P50,
    /// The ratio of the sides' 99th percentiles.
    P99,
}

impl Figure {
    /// Every figure, in the order they are shown.
    pub(crate) const ALL: [Figure; 3] = [Figure::PerCase, Figure::P50, Figure::P99];

    /// The name in sentences: `per case`, `p50`, `p99`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Figure::PerCase => "per case",
            Figure::P50 => "p50",
            Figure::P99 => "p99",
        }
    }

    /// The key in JSON and in export names: `per_case`, `p50`, `p99`.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Figure::PerCase => "per_case",
            Figure::P50 => "p50",
            Figure::P99 => "p99",
        }
    }

    /// The quantile of a percentile figure (none for the per-case mean).
    pub(crate) fn quantile(self) -> Option<f64> {
        match self {
            Figure::PerCase => None,
            Figure::P50 => Some(0.5),
            Figure::P99 => Some(0.99),
        }
    }

    /// The interval of this figure in a [`stats::Comparison`].
    pub(crate) fn of(self, c: &stats::Comparison) -> &Interval {
        match self {
            Figure::PerCase => &c.mean,
            Figure::P50 => &c.p50,
            Figure::P99 => &c.p99,
        }
    }
}

/// A work counter compared case by case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Counter {
    /// `expanded`: states whose successors were generated.
    Expanded,
    /// `generated`: successors created, duplicates included.
    Generated,
}

impl Counter {
    /// The counters compared, in column order.
    pub(crate) const ALL: [Counter; 2] = [Counter::Expanded, Counter::Generated];

    /// The cases.csv column.
    pub(crate) fn column(self) -> &'static str {
        match self {
            Counter::Expanded => "expanded",
            Counter::Generated => "generated",
        }
    }
}

/// A solver's total of one counter over the matched rows that have it on both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterTotal {
    /// The baseline's total.
    pub baseline: u64,
    /// The current side's total.
    pub current: u64,
    /// The rows summed: those with the counter on both sides (0: not compared).
    pub rows: usize,
}

impl CounterTotal {
    /// The change in percent from the baseline (0 → 0 is 0; 0 → more is +∞); `None` when no
    /// row had the counter on both sides.
    pub(crate) fn change_pct(&self) -> Option<f64> {
        (self.rows > 0).then(|| pct(self.baseline as f64, self.current as f64))
    }

    /// Whether the total grew by more than `max_pct` percent (a regression between runs);
    /// never when it was not compared.
    pub(crate) fn exceeds(&self, max_pct: f64) -> bool {
        self.change_pct().is_some_and(|p| p > max_pct)
    }
}

/// Percent change from `a` to `b` (0 → 0 is 0; 0 → more is +∞).
pub(crate) fn pct(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else if a == 0.0 {
        f64::INFINITY
    } else {
        (b - a) / a * 100.0
    }
}

/// The verdict on one latency figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LatencyVerdict {
    /// Too few cases beyond the percentile for any verdict (never fails).
    TooFewCases,
    /// The interval's verdict; `gated` when `--max-latency-increase` was given.
    Judged {
        /// What the interval says.
        verdict: stats::Verdict,
        /// Whether a regression fails the comparison.
        gated: bool,
    },
}

/// One latency figure of a solver: the two sides' values, the ratio and its interval, the
/// verdict.
#[derive(Clone, Debug)]
pub struct LatencyFigure {
    /// Which figure.
    pub figure: Figure,
    /// The baseline's value: µs for a percentile, 1 for the per-case mean.
    pub baseline: f64,
    /// The current value: µs for a percentile, the mean ratio for the per-case mean.
    pub current: f64,
    /// current/baseline with its 95% interval.
    pub interval: Interval,
    /// The verdict.
    pub verdict: LatencyVerdict,
    /// Whether both sides were replicate runs (more than one run a side): only then is the
    /// verdict more than an indication.
    pub replicated: bool,
}

impl LatencyFigure {
    /// Whether this figure fails the comparison (a gated regression).
    pub(crate) fn regressed(&self) -> bool {
        matches!(
            self.verdict,
            LatencyVerdict::Judged {
                verdict: stats::Verdict::Regressed,
                gated: true
            }
        )
    }

    /// The verdict in words. With one run a side every word but "no change" is an indication
    /// and says so: an A/A pair of single runs differs by several percent as wholes, which the
    /// interval over cases cannot see.
    pub(crate) fn word(&self) -> &'static str {
        use stats::Verdict as V;
        let LatencyVerdict::Judged { verdict, gated } = self.verdict else {
            return "too few cases";
        };
        match (verdict, gated, self.replicated) {
            (V::Regressed, true, true) => "regressed",
            (V::Regressed, false, true) => "slower (not gated)",
            (V::Improved, _, true) => "improved",
            (V::WithinNoise, _, true) => "within noise",
            (V::Regressed, true, false) => "regressed (1 run a side: an indication)",
            (V::Regressed, false, false) => "looks slower (1 run a side, not gated)",
            (V::Improved, _, false) => "looks faster (1 run a side)",
            (V::WithinNoise, _, false) => "within noise (1 run a side)",
            (V::NoChange, _, _) => "no change",
        }
    }
}

/// Which kind of rows a list names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListKind {
    /// Rows whose status or steps changed between two runs (regressions).
    WrongAnswers,
    /// Rows where two solvers of one run answer differently (not a regression).
    AnswersDiffer,
    /// Rows of a suboptimal solver whose path length changed with its options (its weight,
    /// its heuristic), which differ between the two runs: not a regression.
    Reconfigured,
    /// Rows whose work grew past the threshold.
    MoreWork,
    /// A counter one side has and the other lacks (one line per column and side).
    MissingCounters,
    /// Rows of the baseline the current side lacks.
    Missing,
    /// Rows of the current side the baseline lacks.
    New,
}

/// A list of rows: how many in all, and the first few described.
#[derive(Clone, Debug)]
pub struct List {
    /// What the rows are.
    pub kind: ListKind,
    /// How many rows.
    pub count: usize,
    /// The first rows (or, for missing counters, one line per column and side), in the runs'
    /// order: `inputs/x.csv:19 17 astar: baseline solved in 19, current solved in 21`.
    pub shown: Vec<String>,
    /// How many items there are to show (more than `shown` when cut).
    pub items: usize,
}

/// One solver's comparison between the two sides of a pair.
#[derive(Clone, Debug)]
pub struct SolverComparison {
    /// The solver's label (with `--strategies`, `A vs B`).
    pub solver: String,
    /// Matched rows whose answer (status or steps) differs.
    pub wrong: usize,
    /// Totals of each counter, in `Counter::ALL` order.
    pub work: [(Counter, CounterTotal); 2],
    /// Matched cases whose work grew past the threshold.
    pub cases_with_more_work: usize,
    /// Matched rows with a counter on one side only.
    pub rows_missing_a_counter: usize,
    /// The cases in the latency figures (answered on every run of both sides).
    pub latency_cases: usize,
    /// The latency figures (empty when no case has a latency on every run).
    pub latency: Vec<LatencyFigure>,
}

impl SolverComparison {
    /// Whether any latency figure failed the gate.
    pub(crate) fn latency_regressed(&self) -> bool {
        self.latency.iter().any(LatencyFigure::regressed)
    }
}

/// What two sides are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PairKind {
    /// Two runs (or sets of replicates): any difference is a regression.
    Runs,
    /// Two solvers of one run: they differ by design; only a gated latency fails.
    Solvers,
}

/// One comparison of a current side against a baseline.
#[derive(Clone, Debug)]
pub struct PairComparison {
    /// Runs or solvers.
    pub kind: PairKind,
    /// The baseline side's label (a run's path, or a solver's name).
    pub baseline: String,
    /// The current side's label.
    pub current: String,
    /// Runs a side: (baseline, current).
    pub runs: (usize, usize),
    /// What the reader should know: inputs paired by checksum, what the latency intervals
    /// can see, cases left out.
    pub notes: Vec<String>,
    /// How the two runs' settings differ (their run.json files; empty for two solvers of
    /// one run, and for runs without a readable run.json, which a note names).
    pub settings: Vec<SettingChange>,
    /// Per solver, in order of appearance (the baseline's first).
    pub solvers: Vec<SolverComparison>,
    /// The lists of rows: wrong (or differing) answers, more work, missing counters, missing,
    /// new (empty lists are kept, with a count of 0).
    pub lists: Vec<List>,
    /// Baseline rows matched by the current side.
    pub matched: usize,
    /// Matched cases with less work.
    pub less_work: usize,
    /// Whether this pair fails: for runs any wrong answer, more work, missing case or
    /// counter, or gated latency; for solvers a gated latency only.
    pub regressed: bool,
}

impl PairComparison {
    /// The list of `kind` (empty if this pair has none).
    pub(crate) fn list(&self, kind: ListKind) -> Option<&List> {
        self.lists.iter().find(|l| l.kind == kind)
    }

    /// The count of a list (0 when absent).
    pub(crate) fn count(&self, kind: ListKind) -> usize {
        self.list(kind).map_or(0, |l| l.count)
    }

    /// Whether any solver's latency failed the gate.
    pub(crate) fn latency_regressed(&self) -> bool {
        self.solvers.iter().any(SolverComparison::latency_regressed)
    }

    /// The changed settings that can explain a difference in `counter` of `solver` (a
    /// heuristic for `expanded`, a thread count for latency, …).
    pub(crate) fn causes(
        &self,
        solver: &str,
        counter: run_settings::Counter,
    ) -> Vec<&SettingChange> {
        self.settings
            .iter()
            .filter(|c| c.affects(solver, counter))
            .collect()
    }

    /// The pair's title: `baseline X vs current Y`, or `A against B` for two solvers.
    pub(crate) fn title(&self) -> String {
        match self.kind {
            PairKind::Runs => format!("baseline {} vs current {}", self.baseline, self.current),
            PairKind::Solvers => format!("{} against {}", self.current, self.baseline),
        }
    }

    /// The one-line verdict: what regressed, or how many rows matched; for two solvers, the
    /// latency figures as sentences.
    pub(crate) fn verdict(&self) -> String {
        match self.kind {
            PairKind::Runs if self.regressed => format!(
                "REGRESSION: {} wrong answer(s), {} case(s) with more work, {} missing case(s), \
                 {} row(s) missing a counter{}",
                self.count(ListKind::WrongAnswers),
                self.count(ListKind::MoreWork),
                self.count(ListKind::Missing),
                self.count(ListKind::MissingCounters),
                if self.latency_regressed() {
                    ", latency over threshold"
                } else {
                    ""
                }
            ),
            PairKind::Runs => format!(
                "no regression ({} rows matched, {} with less work)",
                self.matched, self.less_work
            ),
            PairKind::Solvers => self.headline().join("; "),
        }
    }

    /// Two solvers: the figures as sentences ("astar is 3.10× faster than bfs-rank per case
    /// (95% CI …)"), with the one-run caveat when a side is a single run.
    pub(crate) fn headline(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in &self.solvers {
            for f in &s.latency {
                let what = match f.figure {
                    Figure::PerCase => "per case".to_string(),
                    q => format!("at {}", q.name()),
                };
                let mut line =
                    stats::faster_or_slower(&self.current, &self.baseline, &what, &f.interval);
                if !f.replicated {
                    line += " (1 run: an indication)";
                }
                out.push(line);
            }
        }
        if out.is_empty() {
            out.push("no case has a latency for both solvers".into());
        }
        if self.latency_regressed() {
            out.push("REGRESSION: latency over threshold".into());
        }
        out
    }
}

/// The thresholds a comparison applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Allowed growth of expanded/generated, percent (per case and per total).
    pub max_work_increase_pct: f64,
    /// The latency gate, percent; `None`: shown, not gated.
    pub max_latency_increase_pct: Option<f64>,
    /// Latency changes smaller than this are noise, percent.
    pub noise_threshold_pct: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            max_work_increase_pct: 0.0,
            max_latency_increase_pct: None,
            noise_threshold_pct: 2.0,
        }
    }
}

/// The whole comparison: one or more pairs, each a current side against a baseline.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The pairs, in the order asked for.
    pub pairs: Vec<PairComparison>,
    /// The thresholds applied.
    pub thresholds: Thresholds,
    /// What was given but left out of every pair, said so rather than dropped silently.
    pub left_out: Vec<String>,
}

impl Comparison {
    /// Whether any pair fails (exit code 1).
    pub fn regressed(&self) -> bool {
        self.pairs.iter().any(|p| p.regressed)
    }

    /// The title of the whole comparison.
    pub(crate) fn title(&self) -> String {
        match self.pairs.as_slice() {
            [one] => one.title(),
            pairs => format!(
                "{} comparisons against {}",
                pairs.len(),
                reference_names(pairs)
            ),
        }
    }

    /// The verdict in one line: the one pair's, or how many of the pairs regressed.
    pub(crate) fn verdict(&self) -> String {
        match self.pairs.as_slice() {
            [one] => one.verdict(),
            pairs => {
                let bad: Vec<String> = pairs
                    .iter()
                    .filter(|p| p.regressed)
                    .map(PairComparison::title)
                    .collect();
                if bad.is_empty() {
                    format!("no regression in {} comparisons", pairs.len())
                } else {
                    format!(
                        "REGRESSION in {} of {} comparisons: {}",
                        bad.len(),
                        pairs.len(),
                        bad.join("; ")
                    )
                }
            }
        }
    }
}

/// The distinct baselines of `pairs`, joined.
fn reference_names(pairs: &[PairComparison]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for p in pairs {
        if !names.contains(&p.baseline.as_str()) {
            names.push(&p.baseline);
        }
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(verdict: LatencyVerdict, replicated: bool) -> LatencyFigure {
        LatencyFigure {
            figure: Figure::PerCase,
            baseline: 1.0,
            current: 1.0,
            interval: Interval {
                estimate: 1.0,
                low: 1.0,
                high: 1.0,
            },
            verdict,
            replicated,
        }
    }

    /// With one run a side no verdict word is a plain "improved", "slower", "faster" or
    /// "regressed": each says it is an indication; replicate sets get the plain words; only
    /// a gated regression fails.
    #[test]
    fn single_run_verdicts_are_always_qualified() {
        use stats::Verdict as V;
        for v in [V::Regressed, V::Improved, V::WithinNoise, V::NoChange] {
            for gated in [false, true] {
                let judged = LatencyVerdict::Judged { verdict: v, gated };
                let one = figure(judged, false);
                let word = one.word();
                let plain = ["improved", "slower", "faster", "regressed", "noise"]
                    .iter()
                    .any(|w| word.contains(w));
                assert!(
                    !plain || word.contains("1 run a side"),
                    "{v:?} gated {gated}: {word}"
                );
                let many = figure(judged, true);
                assert!(!many.word().contains("run a side"), "{}", many.word());
                assert_eq!(one.regressed(), gated && v == V::Regressed);
                assert_eq!(many.regressed(), one.regressed());
            }
        }
        assert_eq!(
            figure(LatencyVerdict::TooFewCases, false).word(),
            "too few cases"
        );
    }

    #[test]
    fn a_change_from_nothing_is_infinite_and_no_rows_is_not_compared() {
        assert_eq!(pct(0.0, 0.0), 0.0);
        assert!(pct(0.0, 5.0).is_infinite());
        assert_eq!(pct(100.0, 110.0), 10.0);
        let none = CounterTotal::default();
        assert_eq!(none.change_pct(), None);
    }
}
