//! Reports: everything a run writes, each format in its own file.
//!
//! The run's records are turned into a [`RunReport`] once; each output reads from it.
//! Per-strategy summaries are rendered by [`SummaryExport`] implementations (terminal
//! table, Markdown, CSV, dashboard JSON), so adding a format touches neither the solvers
//! nor the other formats.

pub(crate) mod names;
pub mod settings;

// The summary's export formats, one file each (a [`SummaryExport`] and a
// `pub const FORMAT: Format`). Adding one is its file, its `pub mod` line and its name in
// `FORMATS`.
pub(crate) mod bencher;
pub(crate) mod github_benchmark;
pub(crate) mod junit;
pub(crate) mod markdown;
pub(crate) mod summary;
pub mod table;
/// The export formats of the per-solver summary (`run --export NAME=FILE`), in order.
pub const FORMATS: &[Format] = &[
    markdown::FORMAT,
    bencher::FORMAT,
    github_benchmark::FORMAT,
    summary::FORMAT,
    table::FORMAT,
    junit::FORMAT,
];

/// One export format of the summary: a name for `--export NAME=FILE`, a line for the help,
/// the renderer.
pub type Format = crate::util::Registered<dyn SummaryExport + Sync>;

/// The format called `name` (any case).
///
/// # Errors
/// No format has that name ([`UnknownName`](crate::util::UnknownName) lists them).
pub fn format(name: &str) -> Result<&'static Format, crate::util::UnknownName> {
    crate::util::registered(FORMATS, name, "export format")
}

pub use summary::StrategySummary;

use crate::results::{hgrm, run_json};

use crate::dataset::Case;
use crate::results::record::Record;
use hdrhistogram::Histogram;
use std::time::Duration;

/// Renders per-solver summaries as text in one format.
pub trait SummaryExport {
    /// The whole file, from the summaries alone.
    fn render(&self, summaries: &[StrategySummary]) -> String;

    /// The whole file, for a finished run: what `run --export` writes. Formats that need
    /// more than the summaries (the dataset and settings in benchmark names, the checks'
    /// findings) read it from `run`; the others render the summaries.
    fn render_run(&self, run: &RunExport<'_>) -> String {
        self.render(run.summaries)
    }
}

/// What a finished run gives its exports: the summaries, run.json's contents and the
/// checks' findings.
pub struct RunExport<'a> {
    /// Per solver, as in summary.csv.
    pub summaries: &'a [StrategySummary],
    /// The run's run.json: inputs, options, machine.
    pub info: &'a run_json::RunInfo,
    /// What the checks found over the rows.
    pub digest: &'a crate::check::Digest,
    /// The `limit` rows `--check` accepts (`--allow-limit`; none without it).
    pub allow_limit: &'a crate::check::AllowLimit,
}

/// A percentile (`q` in 0–1) of a latency histogram in nanoseconds, as µs: the one definition
/// every report uses (HdrHistogram's: the value at that quantile, to 3 significant digits).
pub(crate) fn percentile_us(h: &Histogram<u64>, q: f64) -> f64 {
    summary::ns_to_us(h.value_at_quantile(q))
}

/// A latency histogram in nanoseconds: 1 ns to 1 hour, 3 significant digits.
pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000_000, 3).expect("valid histogram bounds")
}

/// Adds a row's latency to its solver's histogram, if it counts (see [`latency_histogram`]).
pub(crate) fn record_latency(h: &mut Histogram<u64>, r: &Record) {
    if r.status.answered() {
        if let Some(ns) = r.latency_ns {
            h.saturating_record(ns.max(1));
        }
    }
}

/// Everything a finished run reports.
pub struct RunReport {
    /// Strategy names (built-in and external), in output order.
    pub strategies: Vec<String>,
    /// Per strategy, in `strategies` order: its latency histogram in nanoseconds (see
    /// `latency_histogram`).
    pub histograms: Vec<Histogram<u64>>,
    /// Per strategy, in `strategies` order: its summary.csv row.
    pub summaries: Vec<StrategySummary>,
}

impl RunReport {
    /// Computes the histograms and summaries of `records` (of `cases`); `wall` is each
    /// strategy's pass wall time, in `strategies` order (it gives `cases_per_s`).
    pub fn new(
        _cases: &[Case],
        records: &[Record],
        strategies: &[String],
        wall: &[Duration],
    ) -> RunReport {
        let mut t = ReportTally::new(strategies);
        for r in records {
            t.add(r);
        }
        t.report(wall)
    }
}

/// A run's histograms and summaries, added up one record at a time: the same figures as
/// [`RunReport::new`], in memory that does not grow with the run.
pub(crate) struct ReportTally {
    strategies: Vec<String>,
    histograms: Vec<Histogram<u64>>,
    tallies: Vec<summary::SummaryTally>,
}

impl ReportTally {
    /// Nothing added yet, for these strategies (in output order).
    pub(crate) fn new(strategies: &[String]) -> ReportTally {
        ReportTally {
            strategies: strategies.to_vec(),
            histograms: strategies.iter().map(|_| new_histogram()).collect(),
            tallies: strategies.iter().map(|_| Default::default()).collect(),
        }
    }
    /// Adds a record (of one of the strategies; others are left out).
    pub(crate) fn add(&mut self, r: &Record) {
        if let Some(j) = self.strategies.iter().position(|s| *s == r.strategy) {
            self.add_at(j, r);
        }
    }
    /// Adds a record of the `j`-th strategy.
    pub(crate) fn add_at(&mut self, j: usize, r: &Record) {
        record_latency(&mut self.histograms[j], r);
        self.tallies[j].add(r);
    }
    /// The report; `wall` is each strategy's pass wall time.
    pub(crate) fn report(self, wall: &[Duration]) -> RunReport {
        let summaries = self
            .strategies
            .iter()
            .zip(&self.histograms)
            .zip(&self.tallies)
            .zip(wall)
            .map(|(((s, h), t), &w)| t.summary(s, h, w))
            .collect();
        RunReport {
            strategies: self.strategies,
            histograms: self.histograms,
            summaries,
        }
    }
}

/// Writes a finished run's summary.csv, `latency-<strategy>.hgrm` files, latency.hlog and,
/// last, run.json into `dir`, each atomically (cases.csv is written before, by the caller).
///
/// # Errors
/// The first file that cannot be written (`cannot write PATH: …`); the files written before
/// it stay.
pub(crate) fn write_run_files(
    dir: &std::path::Path,
    report: &RunReport,
    wall: &[Duration],
    started: std::time::SystemTime,
    info: &run_json::RunInfo,
) -> Result<(), String> {
    use crate::util::atomic_write;
    use std::io::Write;
    let text = |name: &str, t: &str| atomic_write(&dir.join(name), |w| w.write_all(t.as_bytes()));
    text(
        crate::results::SUMMARY_CSV,
        &summary::SummaryCsv.render(&report.summaries),
    )?;
    for (name, h) in report.strategies.iter().zip(&report.histograms) {
        text(
            &crate::results::latency_hgrm(name),
            &hgrm::percentile_text(h),
        )?;
    }
    let entries: Vec<_> = report
        .strategies
        .iter()
        .zip(&report.histograms)
        .zip(wall)
        .map(|((name, h), w)| (name.as_str(), h, *w))
        .collect();
    atomic_write(&dir.join(crate::results::LATENCY_HLOG), |w| {
        hgrm::write_interval_log(w, started, &entries)
    })?;
    text(
        crate::results::RUN_JSON,
        &(serde_json::to_string_pretty(info).expect("JSON") + "\n"),
    )?;
    Ok(())
}
