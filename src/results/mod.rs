//! The results layer: what a run's results are ([`record`]: a row's status, counters and
//! measurements) and the files a results directory holds, read and written in one place for
//! every module that uses them (the run, `merge`, `report`, `compare`, `plot`, `verify`):
//! their names (below), [`cases_csv`], [`run_json`] and the latency histograms ([`hgrm`]).
//!
//! It sits under the checks, the reports, the plots and the harness, and over the dataset,
//! the solvers and the external programs: see CONTRIBUTING.md's layers.
//!
//! ```
//! use tilebench::results;
//! let dir = std::path::Path::new("results/run1");
//! assert_eq!(dir.join(results::CASES_CSV), std::path::Path::new("results/run1/cases.csv"));
//! assert_eq!(results::latency_hgrm("astar"), "latency-astar.hgrm");
//! assert_eq!(
//!     results::latency_hgrm("astar:heuristic=linear-conflict"),
//!     "latency-astar_heuristic_linear-conflict.hgrm"
//! );
//! ```

pub mod cases_csv;
pub mod hgrm;
pub mod record;
pub mod run_json;

/// One row per case and solver.
pub const CASES_CSV: &str = "cases.csv";
/// One row per solver.
pub(crate) const SUMMARY_CSV: &str = "summary.csv";
/// The run's settings, inputs, machine and solvers.
pub(crate) const RUN_JSON: &str = "run.json";
/// Every solver's latency histogram over time (HdrHistogram interval log).
pub const LATENCY_HLOG: &str = "latency.hlog";
/// The files a finished run always has.
pub(crate) const RUN_FILES: [&str; 3] = [CASES_CSV, SUMMARY_CSV, RUN_JSON];

/// The percentile table of one solver's latencies. A character of the solver's name that is
/// not a letter, a digit, `-`, `_` or `.` is written `_` (a configuration's label such as
/// `astar:heuristic=linear-conflict` holds `:` and `=`, which some file systems refuse).
pub fn latency_hgrm(solver: &str) -> String {
    let safe: String = solver
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
            _ => '_',
        })
        .collect();
    format!("latency-{safe}.hgrm")
}

/// Whether `name` is a file [`latency_hgrm`] names.
pub(crate) fn is_latency_hgrm(name: &str) -> bool {
    name.starts_with("latency-") && name.ends_with(".hgrm")
}

/// A run's file `name` for a path given as the run's directory or as the file itself:
/// `DIR/name` for a directory, else the path.
pub(crate) fn file_of(p: &std::path::Path, name: &str) -> std::path::PathBuf {
    if p.is_dir() {
        p.join(name)
    } else {
        p.to_path_buf()
    }
}

/// `DIR` or `DIR/cases.csv`, as given to `compare`, `verify` and `plot`: the cases.csv.
pub(crate) fn cases_csv_of(p: &std::path::Path) -> std::path::PathBuf {
    file_of(p, CASES_CSV)
}
