//! `tilebench plot`: SVG charts of one or more result directories.
//!
//! `load` reads what a run wrote (summary.csv, cases.csv, latency.hlog) into a [`RunData`];
//! [`charts`] draws the charts with plotters' SVG backend (text is written as SVG `<text>`,
//! so no font is loaded). Several runs are overlaid; a series is labelled by its strategy, or
//! `<run dir name>/<strategy>` where two runs hold that name (`select::label`). [`draw`]
//! draws them all for a [`select::Selection`] of the pairs to compare.

pub mod charts;
pub mod html;
pub(crate) mod per_case;
pub mod select;

use crate::report::new_histogram;
use crate::report::summary::read_summary_csv;
use crate::results::cases_csv::{self, CaseRow};
use crate::results::{CASES_CSV as CASES, LATENCY_HLOG as HLOG, SUMMARY_CSV as SUMMARY};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a run's latency histograms came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatencySource {
    /// `latency.hlog`, exactly as the run recorded it.
    IntervalLog,
    /// Rebuilt from cases.csv's `latency_ns` (runs without a latency.hlog).
    CasesCsv,
}

/// Why runs cannot be plotted ([`results_dir`], [`load_all`], [`draw`]): each message names
/// the path and says what to do; [`path`](PlotError::path) gives the path alone.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// The path does not exist.
    #[error("{}: no such results directory; check the path (runs are written to results/run-<timestamp> unless their plan's `out` says otherwise)", .path.display())]
    NoSuchDirectory {
        /// The path given.
        path: PathBuf,
    },
    /// The path is a file other than a run's summary.csv, cases.csv or latency.hlog.
    #[error("{}: not a results directory; give a directory written by `tilebench run` (it holds {SUMMARY}, {CASES} and {HLOG})", .path.display())]
    NotResults {
        /// The path given.
        path: PathBuf,
    },
    /// The directory has no summary.csv.
    #[error("{}: missing; {} does not look like a `tilebench run` results directory", .path.display(), .dir.display())]
    NoSummary {
        /// The summary.csv it lacks.
        path: PathBuf,
        /// The directory.
        dir: PathBuf,
    },
    /// The directory has a summary.csv but no cases.csv.
    #[error("{}: missing; {} does not look like a complete `tilebench run` results directory", .path.display(), .dir.display())]
    NoCases {
        /// The cases.csv it lacks.
        path: PathBuf,
        /// The directory.
        dir: PathBuf,
    },
    /// The summary.csv cannot be read.
    #[error("{}: {source}", .path.display())]
    Summary {
        /// The summary.csv.
        path: PathBuf,
        /// The CSV reader's error, with its position.
        source: csv::Error,
    },
    /// The cases.csv cannot be read.
    #[error(transparent)]
    Cases(#[from] cases_csv::ReadError),
    /// The latency.hlog cannot be read.
    #[error(transparent)]
    Log(#[from] crate::results::hgrm::LogError),
    /// The pairs to compare cannot be chosen (a `--reference` that names no solver or more
    /// than one).
    #[error(transparent)]
    Select(#[from] select::SelectError),
    /// A chart cannot be drawn.
    #[error("{reason}")]
    Draw {
        /// What the drawing library said, naming the chart.
        reason: String,
    },
}

impl PlotError {
    /// The file or directory the error is about (none for [`PlotError::Select`] and
    /// [`PlotError::Draw`]).
    pub fn path(&self) -> Option<&Path> {
        match self {
            PlotError::NoSuchDirectory { path }
            | PlotError::NotResults { path }
            | PlotError::NoSummary { path, .. }
            | PlotError::NoCases { path, .. }
            | PlotError::Summary { path, .. } => Some(path),
            PlotError::Cases(e) => Some(e.path()),
            PlotError::Log(e) => Some(e.path()),
            PlotError::Select(_) | PlotError::Draw { .. } => None,
        }
    }
}

/// The charts of some runs, with the pairs they compare and what was left out.
pub struct Drawn {
    /// The pairs compared (scatter charts, and `report`'s comparisons).
    pub plan: select::Plan,
    /// The charts drawn and left out.
    pub charts: charts::Charts,
    /// One sentence per thing left out: pairs beyond the cap, then charts with nothing to
    /// draw.
    pub notes: Vec<String>,
}

/// Every chart of `runs`, the scatter charts for the pairs `selection` picks.
///
/// # Errors
/// A `--reference` that names no solver or more than one; a chart that cannot be drawn.
pub fn draw(runs: &[RunData], selection: &select::Selection) -> Result<Drawn, PlotError> {
    let plan = selection.plan(runs)?;
    let charts = all_charts(runs, &plan).map_err(|reason| PlotError::Draw { reason })?;
    let mut notes = plan.notes(runs);
    notes.extend(charts.notes());
    Ok(Drawn {
        plan,
        charts,
        notes,
    })
}

/// One strategy of one run.
#[derive(Clone, Debug)]
pub struct StrategyData {
    /// The strategy's name, as summary.csv writes it.
    pub name: String,
    /// Latency of the answered rows (solved, unsolvable), in nanoseconds (may be empty).
    pub latency_ns: Histogram<u64>,
    /// Solved rows by optimal length: (steps, mean expanded, rows), ascending steps.
    pub expanded_by_steps: Vec<(u32, f64, usize)>,
    /// summary.csv's `cases_per_s` (answered rows a second; `None` when not measured).
    pub cases_per_s: Option<f64>,
    /// The rows of the strategy for the per-case charts, in cases.csv order: every row, or
    /// in a large run a sample of at most `MAX_POINTS` (see [`StrategyData::every`]).
    pub cases: Vec<CasePoint>,
    /// The rows the strategy has in cases.csv.
    pub rows: usize,
    /// `cases` holds the rows whose case hash is a multiple of this (a power of two; 1: all
    /// rows). The same cases are kept in every run and strategy, so that pairs still match.
    pub every: u64,
}

/// The most rows of a strategy kept for the per-case charts: beyond, a sample by case hash
/// (memory that does not grow with the run, and charts a browser can draw).
pub(crate) const MAX_POINTS: usize = 50_000;

/// Case points, thinned by case hash as they come so that at most [`MAX_POINTS`] are held.
#[derive(Default)]
struct Sample {
    points: Vec<CasePoint>,
    /// Points kept have their `bits` lowest hash bits zero.
    bits: u32,
    rows: usize,
}

impl Sample {
    fn push(&mut self, p: CasePoint) {
        self.rows += 1;
        let mask = (1u64 << self.bits) - 1;
        if p.case & mask != 0 {
            return;
        }
        self.points.push(p);
        if self.points.len() > MAX_POINTS {
            self.bits += 1;
            let mask = (1u64 << self.bits) - 1;
            self.points.retain(|p| p.case & mask == 0);
        }
    }
}

/// One case × strategy row, as the per-case charts need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CasePoint {
    /// Which case: a hash of its line, id, start and goal, the same in every run of the
    /// dataset read by this process (whatever path the dataset was given by).
    pub case: u64,
    /// The solve's latency, when it searched.
    pub latency_ns: Option<u64>,
    /// States expanded, when counted.
    pub expanded: Option<u64>,
    /// Whether it answered (solved, or proved unsolvable); `limit` and `error` rows did not.
    pub answered: bool,
}

impl CasePoint {
    fn of(r: &CaseRow) -> CasePoint {
        use crate::results::record::RowStatus;
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (r.line, &r.id, &r.start, &r.goal).hash(&mut h);
        CasePoint {
            case: h.finish(),
            latency_ns: r.latency_ns,
            expanded: r.expanded,
            answered: matches!(r.status, RowStatus::Solved | RowStatus::Unsolvable),
        }
    }
}

/// One result directory, read back.
#[derive(Clone, Debug)]
pub struct RunData {
    /// The name series are labelled with: the directory's name.
    pub label: String,
    /// The result directory the run was read from.
    pub dir: PathBuf,
    /// In summary.csv order.
    pub strategies: Vec<StrategyData>,
    /// Whether the latency histograms are the run's own or rebuilt from cases.csv.
    pub latency_source: LatencySource,
    /// summary.csv, as read.
    pub summaries: Vec<crate::report::summary::StrategySummary>,
}

/// `DIR`, or one of the files in it → the directory. Errors name the path and what to do.
///
/// # Errors
/// A path that does not exist, or that is neither a directory nor one of a run's
/// summary.csv, cases.csv and latency.hlog ([`crate::results`]).
pub fn results_dir(path: &Path) -> Result<PathBuf, PlotError> {
    if path.is_dir() {
        return Ok(path.to_path_buf());
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if path.is_file() && [SUMMARY, CASES, HLOG].contains(&name) {
        return Ok(match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        });
    }
    let path = path.to_path_buf();
    if path.exists() {
        Err(PlotError::NotResults { path })
    } else {
        Err(PlotError::NoSuchDirectory { path })
    }
}

/// Reads one result directory (or one of its files).
///
/// # Errors
/// As [`results_dir`]; also when summary.csv or cases.csv is missing or cannot be read, or
/// when latency.hlog is damaged.
pub(crate) fn load(path: &Path) -> Result<RunData, PlotError> {
    let dir = results_dir(path)?;
    let label = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());

    let summary_path = dir.join(SUMMARY);
    if !summary_path.is_file() {
        return Err(PlotError::NoSummary {
            path: summary_path,
            dir,
        });
    }
    let summaries = read_summary_csv(&summary_path).map_err(|source| PlotError::Summary {
        path: summary_path.clone(),
        source,
    })?;
    let cases_path = dir.join(CASES);
    if !cases_path.is_file() {
        return Err(PlotError::NoCases {
            path: cases_path,
            dir,
        });
    }
    let hlog_path = dir.join(HLOG);
    let logged = hlog_path.is_file();
    // cases.csv read once, a row at a time, into the aggregates the charts draw: the
    // latency histograms (when there is no interval log), mean expanded by steps, and the
    // per-case points.
    let mut agg: BTreeMap<String, Aggregate> = BTreeMap::new();
    for row in cases_csv::Rows::open(&cases_path)? {
        add_row(&mut agg, &row?, logged);
    }
    let (mut hists, latency_source) = if logged {
        (
            crate::results::hgrm::read_interval_log(&hlog_path)?,
            LatencySource::IntervalLog,
        )
    } else {
        let h = agg
            .iter_mut()
            .filter_map(|(n, a)| Some((n.clone(), a.latency.take()?)));
        (h.collect(), LatencySource::CasesCsv)
    };

    let strategies = summaries
        .iter()
        .map(|s| {
            let a = agg.remove(&s.strategy).unwrap_or_default();
            StrategyData {
                name: s.strategy.clone(),
                latency_ns: hists.remove(&s.strategy).unwrap_or_else(new_histogram),
                expanded_by_steps: a
                    .by_steps
                    .into_iter()
                    .map(|(st, (sum, n))| (st, sum / n as f64, n))
                    .collect(),
                cases_per_s: s.cases_per_s,
                rows: a.cases.rows,
                every: 1 << a.cases.bits,
                cases: a.cases.points,
            }
        })
        .collect();
    Ok(RunData {
        label,
        dir,
        strategies,
        latency_source,
        summaries,
    })
}

/// Loads several runs and makes their labels distinct (the directory name, or the path as
/// given when two directories share a name).
///
/// # Errors
/// As `load`, for the first run that cannot be read.
pub fn load_all(paths: &[PathBuf]) -> Result<Vec<RunData>, PlotError> {
    let mut runs = paths
        .iter()
        .map(|p| load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let clash = |runs: &[RunData]| {
        let mut labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
        labels.sort_unstable();
        labels.windows(2).any(|w| w[0] == w[1])
    };
    if clash(&runs) {
        for (r, p) in runs.iter_mut().zip(paths) {
            r.label = p.display().to_string();
        }
    }
    if clash(&runs) {
        for (i, r) in runs.iter_mut().enumerate() {
            r.label = format!("{}#{}", r.label, i + 1);
        }
    }
    Ok(runs)
}

/// One strategy's rows of a cases.csv, added up as they are read.
#[derive(Default)]
struct Aggregate {
    /// Latency of the answered rows (without an interval log; none if no row has one).
    latency: Option<Histogram<u64>>,
    /// Solved rows by steps: expanded summed, rows.
    by_steps: BTreeMap<u32, (f64, usize)>,
    /// The rows for the per-case charts.
    cases: Sample,
}

/// Adds a row to its strategy's aggregate; `logged`: the run has an interval log, so no
/// histogram is rebuilt.
fn add_row(agg: &mut BTreeMap<String, Aggregate>, r: &CaseRow, logged: bool) {
    if !agg.contains_key(&r.strategy) {
        agg.insert(r.strategy.clone(), Aggregate::default());
    }
    let a = agg.get_mut(&r.strategy).expect("inserted");
    // As the run's own histograms: answers judged right only (not limit, wrong or error).
    if let (false, true, Some(ns)) = (logged, r.status.answered(), r.latency_ns) {
        a.latency
            .get_or_insert_with(new_histogram)
            .saturating_record(ns.max(1));
    }
    if r.status == crate::results::record::RowStatus::Solved {
        if let (Some(Ok(steps)), Some(expanded)) = (r.steps.map(u32::try_from), r.expanded) {
            let e = a.by_steps.entry(steps).or_insert((0.0, 0));
            e.0 += expanded as f64;
            e.1 += 1;
        }
    }
    a.cases.push(CasePoint::of(r));
}

/// The charts `plot` writes (and `report` shows), the scatter charts for the pairs of
/// `plan`. The per-case charts (scatter, coverage, cost per node) are drawn by
/// [`per_case`].
///
/// # Errors
/// As [`charts::latency`], [`charts::expanded_by_length`] and [`charts::throughput`]: the first chart that cannot be
/// drawn.
pub(crate) fn all_charts(runs: &[RunData], plan: &select::Plan) -> Result<charts::Charts, String> {
    let mut out = charts::Charts::default();
    out.push("latency.svg".into(), charts::latency(runs)?);
    out.push(
        "expanded-by-length.svg".into(),
        charts::expanded_by_length(runs)?,
    );
    out.push("throughput.svg".into(), charts::throughput(runs)?);
    per_case::all(runs, plan, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(case: u64) -> CasePoint {
        CasePoint {
            case,
            latency_ns: Some(1),
            expanded: Some(1),
            answered: true,
        }
    }

    #[test]
    fn a_sample_keeps_exactly_the_cases_whose_hash_fits_and_the_same_in_every_run() {
        let mut rng = crate::util::Rng::new(7);
        let hashes: Vec<u64> = (0..300_000).map(|_| rng.next_u64()).collect();
        let mut big = Sample::default();
        hashes.iter().for_each(|&h| big.push(point(h)));
        assert_eq!(big.rows, hashes.len());
        assert!(big.points.len() <= MAX_POINTS);
        // Exactly the cases with `bits` low zero bits, in order.
        let mask = (1u64 << big.bits) - 1;
        let want: Vec<u64> = hashes.iter().copied().filter(|h| h & mask == 0).collect();
        let got: Vec<u64> = big.points.iter().map(|p| p.case).collect();
        assert_eq!(got, want);
        assert_eq!(big.bits, 3, "300,000 rows thin to 1 in 8");
        // A smaller run of the same cases keeps more of them, and every case the big one kept.
        let mut small = Sample::default();
        hashes[..80_000].iter().for_each(|&h| small.push(point(h)));
        assert!(small.bits < big.bits);
        let kept: std::collections::HashSet<u64> = small.points.iter().map(|p| p.case).collect();
        let first: std::collections::HashSet<u64> = hashes[..80_000].iter().copied().collect();
        assert!(want
            .iter()
            .filter(|h| first.contains(h))
            .all(|h| kept.contains(h)));
        // Under MAX_POINTS rows, every row.
        let mut all = Sample::default();
        hashes[..MAX_POINTS]
            .iter()
            .for_each(|&h| all.push(point(h)));
        assert_eq!((all.bits, all.points.len()), (0, MAX_POINTS));
    }

    /// A path that is not a run's results is refused with the path and what to do; a
    /// directory without its files names the file it lacks.
    #[test]
    fn plot_errors_name_their_path() {
        let dir = std::env::temp_dir().join(format!("tilebench-plterr-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing");
        let e = results_dir(&missing).unwrap_err();
        assert!(matches!(e, PlotError::NoSuchDirectory { .. }), "{e:?}");
        assert_eq!(e.path(), Some(missing.as_path()));
        assert!(e.to_string().starts_with(&format!(
            "{}: no such results directory; check the path",
            missing.display()
        )));

        let other = dir.join("notes.txt");
        std::fs::write(&other, "x").unwrap();
        let e = results_dir(&other).unwrap_err();
        assert!(matches!(e, PlotError::NotResults { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "{}: not a results directory; give a directory written by `tilebench run` (it \
                 holds summary.csv, cases.csv and latency.hlog)",
                other.display()
            )
        );

        let e = load_all(std::slice::from_ref(&dir)).unwrap_err();
        let PlotError::NoSummary { path, dir: d } = &e else {
            panic!("{e:?}")
        };
        assert_eq!((path, d), (&dir.join(SUMMARY), &dir));
        assert!(e
            .to_string()
            .ends_with("does not look like a `tilebench run` results directory"));

        std::fs::write(dir.join(SUMMARY), "strategy\n").unwrap();
        let e = load_all(std::slice::from_ref(&dir)).unwrap_err();
        assert!(matches!(e, PlotError::NoCases { .. }), "{e:?}");
        assert_eq!(e.path(), Some(dir.join(CASES).as_path()));

        std::fs::write(dir.join(CASES), "").unwrap();
        let e = load_all(std::slice::from_ref(&dir)).unwrap_err();
        assert!(matches!(e, PlotError::Cases(_)), "{e:?}");
        assert_eq!(e.path(), Some(dir.join(CASES).as_path()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
