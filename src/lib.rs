//! tilebench: a benchmark harness for sliding-tile puzzle solvers.
//!
//! The library is the engine; the `tilebench` binary is a thin command line over it.
//! The pipeline reads left to right:
//!
//! [`harness::input`] (CSV rows → cases) → [`harness::runner`] (solve every case × strategy
//! in parallel, timing each solve) → [`harness::record`] (one record per case × strategy) →
//! [`report`] (cases.csv, summary.csv, latency histograms, run.json, tables).
//!
//! The domain lives in [`puzzle`]; the strategies in [`search`], one file each. Programs that
//! are benchmarked beside them (`--solver`) are run and judged by [`external`]. [`plot`] draws
//! SVG charts of finished runs.

pub mod check;
pub mod external;
pub mod harness;
pub mod observe;
pub mod plot;
pub mod puzzle;
pub mod report;
pub mod search;
pub mod space;
pub mod util;
