//! summary.csv: one row per strategy.

use super::SummaryExport;
use crate::results::record::{Record, RowStatus};
use crate::search::LimitReason;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A strategy's totals over a run. Latencies are in microseconds, read from the strategy's
/// HdrHistogram (3 significant digits), so they match its `.hgrm` file. Work figures are over
/// the searched rows that report the counter, and empty when none does (an external program
/// that prints no counters). Columns added after the first release are `#[serde(default)]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategySummary {
    /// The solver's name: a built-in strategy, an external program or a user's solver.
    pub strategy: String,
    /// Rows for this strategy (one per input row, invalid ones included).
    pub cases: u64,
    /// Rows with status `solved`.
    pub solved: u64,
    /// Rows with status `unsolvable`.
    pub unsolvable: u64,
    /// Rows with status `limit`: a budget ran out first.
    pub limit: u64,
    /// Rows with status `invalid`: the input row could not be read.
    pub invalid: u64,
    /// Rows with status `error`: the solver failed on the case.
    pub errors: u64,
    /// Rows whose answer differs from `expected_steps`.
    pub mismatches: u64,
    /// External solvers: rows whose answer is wrong (status `wrong`).
    #[serde(default)]
    pub wrong: u64,
    /// External solvers: valid paths longer than the optimum (`optimal` = false).
    #[serde(default)]
    pub non_optimal: u64,
    /// States expanded, summed over the rows.
    pub expanded_total: Option<u64>,
    /// States expanded per row, on average (3 decimals).
    pub expanded_mean: Option<f64>,
    /// The most states one row expanded.
    pub expanded_max: Option<u64>,
    /// States generated, summed over the rows.
    pub generated_total: Option<u64>,
    /// States generated per row, on average (3 decimals).
    pub generated_mean: Option<f64>,
    /// The most states one row generated.
    pub generated_max: Option<u64>,
    /// Mean latency in µs (3 decimals) over the answered rows (`solved` and `unsolvable`:
    /// `limit`, `wrong`, `error` and `invalid` rows are left out of every latency figure).
    /// Every latency figure is empty (`None`) when no answered row has a latency: every row
    /// an error, or an external program in batch mode, which is not timed case by case.
    pub latency_mean_us: Option<f64>,
    /// Median latency, in µs.
    pub latency_p50_us: Option<f64>,
    /// 90th-percentile latency, in µs.
    pub latency_p90_us: Option<f64>,
    /// 99th-percentile latency, in µs.
    pub latency_p99_us: Option<f64>,
    /// 99.9th-percentile latency, in µs.
    pub latency_p999_us: Option<f64>,
    /// The slowest latency, in µs.
    pub latency_max_us: Option<f64>,
    /// Wall time of this strategy's pass over all cases.
    pub wall_s: f64,
    /// Answered rows (solved + unsolvable, judged right) per second of `wall_s`; empty when
    /// no row was answered (wrong answers, errors and budgets run out are not work done).
    pub cases_per_s: Option<f64>,
    /// The mean of cases.csv's `suboptimality` (steps ÷ optimum) over the rows that have one
    /// (solved rows whose optimum is known, and valid paths over their claim), whatever the
    /// solver claims (1 = always shortest; 3 decimals);
    /// empty when there is none.
    #[serde(default)]
    pub suboptimality_mean: Option<f64>,
    /// The largest `suboptimality` of those rows (4 decimals, as in cases.csv).
    #[serde(default)]
    pub suboptimality_max: Option<f64>,
    /// Lab's quality score: the sum over the solved rows whose optimum is known of
    /// optimum ÷ steps (1 a shortest path, less for a longer one, 0 for a row not solved);
    /// 3 decimals. Empty when no row has a known optimum.
    #[serde(default)]
    pub quality: Option<f64>,
    /// `limit` rows that ran out of `--timeout` (cases.csv's `limit_reason` = `time`).
    #[serde(default)]
    pub limit_time: u64,
    /// `limit` rows that ran out of `--max-nodes` (`nodes`).
    #[serde(default)]
    pub limit_nodes: u64,
    /// `limit` rows that reached the `--max-states` memory guard (`states`).
    #[serde(default)]
    pub limit_states: u64,
    /// `limit` rows that ran out of a memory budget in bytes (`memory`).
    #[serde(default)]
    pub limit_memory: u64,
    /// The mean of cases.csv's `peak_heap_bytes` over the rows that have one (built-in
    /// solvers' rows that searched), in bytes (3 decimals); empty when none has.
    #[serde(default)]
    pub peak_heap_bytes_mean: Option<f64>,
    /// The largest `peak_heap_bytes`, in bytes: the heap one case needed.
    #[serde(default)]
    pub peak_heap_bytes_max: Option<u64>,
    /// The built-in strategy the solver runs, `external` for an external program, empty for
    /// a library user's solver (cases.csv's `algorithm`).
    #[serde(default)]
    pub algorithm: String,
    /// Its cells in the option columns (cases.csv's `heuristic`, …, `hash_buckets`, after
    /// `algorithm`), in order: written after every other column.
    #[serde(skip)]
    pub options: Vec<String>,
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A histogram value in ns as µs, to the nanosecond.
pub(crate) fn ns_to_us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

impl StrategySummary {
    /// Fills the configuration columns from the solver's cells
    /// ([`crate::search::configuration::columns`]).
    pub fn set_setting(&mut self, setting: &[String]) {
        if let Some((algorithm, options)) = setting.split_first() {
            self.algorithm.clone_from(algorithm);
            self.options = options.to_vec();
        }
    }

    /// The summary of strategy `name` from its rows among `records`, its latency histogram
    /// `hist` (ns, see `super::latency_histogram`) and its pass's wall time.
    pub fn compute(
        name: &str,
        records: &[Record],
        hist: &Histogram<u64>,
        wall: Duration,
    ) -> StrategySummary {
        let mut t = SummaryTally::default();
        for r in records.iter().filter(|r| r.strategy == name) {
            t.add(r);
        }
        t.summary(name, hist, wall)
    }
}

/// A strategy's summary figures, added up one row at a time (so that a run of any size is
/// summed in constant memory); [`SummaryTally::summary`] gives its summary.csv row.
#[derive(Default)]
pub(crate) struct SummaryTally {
    s: Counts,
    ratios: f64,
    judged: u64,
    worst: u64,
    quality: f64,
    answered: u64,
    expanded: Tally,
    generated: Tally,
    heap: Tally,
}

/// The row counts of a summary.
#[derive(Default)]
struct Counts {
    cases: u64,
    solved: u64,
    unsolvable: u64,
    limit: u64,
    invalid: u64,
    errors: u64,
    mismatches: u64,
    wrong: u64,
    non_optimal: u64,
    /// `limit` rows by reason, in [`LimitReason::ALL`]'s order.
    by_reason: [u64; 4],
}

impl SummaryTally {
    /// Adds one of the strategy's rows.
    pub(crate) fn add(&mut self, r: &Record) {
        let s = &mut self.s;
        s.cases += 1;
        match r.status {
            RowStatus::Solved => s.solved += 1,
            RowStatus::Unsolvable => s.unsolvable += 1,
            RowStatus::Limit => {
                s.limit += 1;
                if let Some(why) = r.limit_reason {
                    s.by_reason[why as usize] += 1;
                }
            }
            RowStatus::Invalid => s.invalid += 1,
            RowStatus::Error => s.errors += 1,
            RowStatus::Wrong => s.wrong += 1,
        }
        if r.matches_expected == Some(false) {
            s.mismatches += 1;
        }
        if r.optimal == Some(false) {
            s.non_optimal += 1;
        }
        if let Some(q) = r.suboptimality_e4() {
            let (steps, best) = (r.steps.unwrap_or(0), r.optimum_steps.unwrap_or(0));
            self.ratios += if best == 0 {
                1.0
            } else {
                steps as f64 / best as f64
            };
            if r.status == RowStatus::Solved {
                self.quality += if steps == 0 {
                    1.0
                } else {
                    best as f64 / steps as f64
                };
            }
            self.worst = self.worst.max(q);
            self.judged += 1;
        }
        if r.status.answered() {
            self.answered += 1;
        }
        if r.status.searched() {
            self.expanded.add(r.counters.expanded);
            self.generated.add(r.counters.generated);
            self.heap.add(r.peak_heap_bytes);
        }
    }

    /// The summary of strategy `name` from the rows added, its latency histogram `hist` (ns,
    /// see [`super::latency_histogram`]) and its pass's wall time.
    pub(crate) fn summary(
        &self,
        name: &str,
        hist: &Histogram<u64>,
        wall: Duration,
    ) -> StrategySummary {
        let c = &self.s;
        let mut s = StrategySummary {
            strategy: name.to_string(),
            cases: c.cases,
            solved: c.solved,
            unsolvable: c.unsolvable,
            limit: c.limit,
            invalid: c.invalid,
            errors: c.errors,
            mismatches: c.mismatches,
            wrong: c.wrong,
            non_optimal: c.non_optimal,
            expanded_total: None,
            expanded_mean: None,
            expanded_max: None,
            generated_total: None,
            generated_mean: None,
            generated_max: None,
            latency_mean_us: None,
            latency_p50_us: None,
            latency_p90_us: None,
            latency_p99_us: None,
            latency_p999_us: None,
            latency_max_us: None,
            // Whole microseconds over 1e6: one correctly rounded division, so the CSV shows
            // e.g. 0.000956, not the 0.0009559999999999999 that rounding twice gave.
            wall_s: wall.as_micros() as f64 / 1e6,
            cases_per_s: None,
            suboptimality_mean: None,
            suboptimality_max: None,
            quality: None,
            limit_time: c.by_reason[LimitReason::Time as usize],
            limit_nodes: c.by_reason[LimitReason::Nodes as usize],
            limit_states: c.by_reason[LimitReason::States as usize],
            limit_memory: c.by_reason[LimitReason::Memory as usize],
            peak_heap_bytes_mean: None,
            peak_heap_bytes_max: None,
            algorithm: String::new(),
            options: crate::search::configuration::unset()[1..].to_vec(),
        };
        let judged = self.judged;
        if judged > 0 {
            s.suboptimality_mean = Some(round3(self.ratios / judged as f64));
            s.suboptimality_max = Some(self.worst as f64 / 10_000.0);
            s.quality = Some(round3(self.quality));
        }
        (s.expanded_total, s.expanded_mean, s.expanded_max) = self.expanded.figures();
        (s.generated_total, s.generated_mean, s.generated_max) = self.generated.figures();
        (_, s.peak_heap_bytes_mean, s.peak_heap_bytes_max) = self.heap.figures();
        // The histogram holds the answered rows' latencies (see `super::record_latency`):
        // empty when none was timed, and then every latency figure is missing, not 0.
        if !hist.is_empty() {
            s.latency_mean_us = Some(round3(hist.mean() / 1000.0));
            s.latency_p50_us = Some(super::percentile_us(hist, 0.5));
            s.latency_p90_us = Some(super::percentile_us(hist, 0.9));
            s.latency_p99_us = Some(super::percentile_us(hist, 0.99));
            s.latency_p999_us = Some(super::percentile_us(hist, 0.999));
            s.latency_max_us = Some(ns_to_us(hist.max()));
        }
        let secs = wall.as_secs_f64();
        if self.answered > 0 && secs > 0.0 {
            s.cases_per_s = Some(round3(self.answered as f64 / secs));
        }
        s
    }
}

/// Total, mean and maximum of a counter over the rows that report it.
#[derive(Default)]
struct Tally {
    rows: u64,
    total: u64,
    max: u64,
}

impl Tally {
    fn add(&mut self, v: Option<u64>) {
        if let Some(v) = v {
            self.rows += 1;
            self.total += v;
            self.max = self.max.max(v);
        }
    }
    fn figures(&self) -> (Option<u64>, Option<f64>, Option<u64>) {
        if self.rows == 0 {
            return (None, None, None);
        }
        let mean = round3(self.total as f64 / self.rows as f64);
        (Some(self.total), Some(mean), Some(self.max))
    }
}

/// summary.csv.
pub(crate) struct SummaryCsv;

/// The registry entry.
pub(crate) const FORMAT: super::Format = super::Format {
    name: "csv",
    describe: "summary.csv's columns, one row per solver",
    export: &SummaryCsv,
};

impl SummaryExport for SummaryCsv {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        // Each row as serde writes its fields, then its option cells.
        let mut fields = csv::Writer::from_writer(Vec::new());
        for s in summaries {
            fields.serialize(s).expect("in-memory CSV");
        }
        let fields = fields.into_inner().expect("in-memory CSV");
        let mut read = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(fields.as_slice());
        let mut w = csv::Writer::from_writer(Vec::new());
        let options = &crate::search::configuration::columns()[1..];
        let rows = read.records().map(|r| r.expect("in-memory CSV"));
        for (i, mut record) in rows.enumerate() {
            match i.checked_sub(1).and_then(|i| summaries.get(i)) {
                None => record.extend(options.iter().copied()),
                Some(s) => {
                    let cells = s
                        .options
                        .iter()
                        .map(String::as_str)
                        .chain(std::iter::repeat(""));
                    record.extend(cells.take(options.len()));
                }
            }
            w.write_record(&record).expect("in-memory CSV");
        }
        String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 CSV")
    }
}

/// Reads a summary.csv back (its option columns into [`StrategySummary::options`]; an option
/// column it lacks reads as empty).
///
/// # Errors
/// A file that cannot be opened or read, or a row that is not a [`StrategySummary`] (the
/// caller names the file).
pub(crate) fn read_summary_csv(path: &std::path::Path) -> Result<Vec<StrategySummary>, csv::Error> {
    let mut r = csv::Reader::from_path(path)?;
    let header = r.headers()?.clone();
    let options = crate::results::cases_csv::OptionColumns::locate(&header);
    let mut out = Vec::new();
    for record in r.records() {
        let record = record?;
        let mut s: StrategySummary = record.deserialize(Some(&header))?;
        s.options = options.cells(&record);
        out.push(s);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{new_histogram, record_latency};

    fn row(status: RowStatus, latency_ns: Option<u64>) -> Record {
        let mut r = Record::empty(0, "s");
        r.status = status;
        r.latency_ns = latency_ns;
        r
    }

    /// The summary of `rows`, its histogram filled as a run fills it, over one second.
    fn summary_of(rows: &[Record]) -> StrategySummary {
        let (mut t, mut h) = (SummaryTally::default(), new_histogram());
        for r in rows {
            t.add(r);
            record_latency(&mut h, r);
        }
        t.summary("s", &h, Duration::from_secs(1))
    }

    #[test]
    fn wrong_answers_and_errors_are_no_speed_and_unmeasured_figures_are_missing() {
        // 200 fast answers, all wrong: no latency, no throughput, counted as wrong.
        let wrong: Vec<Record> = (0..200)
            .map(|_| row(RowStatus::Wrong, Some(1_000)))
            .collect();
        let s = summary_of(&wrong);
        assert_eq!(
            (s.wrong, s.cases_per_s, s.latency_p50_us),
            (200, None, None)
        );
        // Every row an error.
        let s = summary_of(&[row(RowStatus::Error, None), row(RowStatus::Error, None)]);
        assert_eq!((s.errors, s.cases_per_s, s.latency_max_us), (2, None, None));
        // Batch mode: answers right, not timed one by one: a rate, no latency.
        let s = summary_of(&[
            row(RowStatus::Solved, None),
            row(RowStatus::Unsolvable, None),
        ]);
        assert_eq!((s.cases_per_s, s.latency_mean_us), (Some(2.0), None));
        // Mixed: only the two right answers count (the wrong one's 1 µs and the limit's
        // 9 ms are left out of the latency; neither is a case answered a second).
        let s = summary_of(&[
            row(RowStatus::Solved, Some(4_000)),
            row(RowStatus::Unsolvable, Some(2_000)),
            row(RowStatus::Wrong, Some(1_000)),
            row(RowStatus::Limit, Some(9_000_000)),
        ]);
        assert_eq!(s.cases_per_s, Some(2.0));
        // (HdrHistogram figures, to its 3 significant digits.)
        let near = |v: Option<f64>, want: f64| (v.unwrap() - want).abs() < want * 1e-3;
        assert!(near(s.latency_max_us, 4.0), "{s:?}");
        assert!(near(s.latency_mean_us, 3.0), "{s:?}");
    }

    #[test]
    fn missing_figures_are_empty_cells_and_read_back_as_missing() {
        let s = summary_of(&[row(RowStatus::Error, None)]);
        let csv = SummaryCsv.render(std::slice::from_ref(&s));
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let cells: Vec<&str> = lines.next().unwrap().split(',').collect();
        for col in ["latency_p50_us", "latency_max_us", "cases_per_s"] {
            let i = header.iter().position(|h| *h == col).unwrap();
            assert_eq!(cells[i], "", "{col} in {csv}");
        }
        let dir = std::env::temp_dir().join(format!("tb-summary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(crate::results::SUMMARY_CSV);
        std::fs::write(&path, &csv).unwrap();
        let back = read_summary_csv(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back, vec![s]);
        assert_eq!(back[0].latency_p50_us, None);
    }
}
