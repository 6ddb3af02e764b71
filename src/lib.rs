//! tilebench: a benchmark harness for sliding-tile puzzle solvers.
//!
//! The library is the engine; the `tilebench` binary is a thin command line over it. A run is
//! a value, [`harness::plan::RunPlan`], and one call, [`harness::pipeline::run`] (or
//! [`harness::pipeline::execute_with`], with an observer and a stop flag), takes it left to right
//! ([`prelude`] holds the names most programs need):
//!
//! [`dataset`] (CSV rows → cases) → [`harness::runner`] (every case × solver in
//! parallel, each solve timed and judged) →
//! [`results::record`] (one typed row per case × solver, journalled as it finishes) →
//! [`results`] and [`report`] (cases.csv, summary.csv, latency histograms, run.json,
//! exports).
//!
//! The modules form layers that import one way (CONTRIBUTING.md, "Layers"): [`util`] (of
//! which a few helpers are public), [`puzzle`], [`search`], [`dataset`] and [`external`], [`results`], [`check`], [`report`],
//! [`plot`], [`harness`], and the tools over finished runs ([`compare`], [`table`], [`gen`]).
//!
//! Everything that answers cases is a [`search::Solver`]: the built-in strategies (listed in
//! [`search::registry`], one file each), external programs ([`external::ExternalSolver`]), and a
//! user's own type (see `examples/greedy.rs`) or closure ([`search::solver_fn`]). The domain lives in [`puzzle`]. The library
//! never prints: notices and progress go to an [`observe::Observer`]. [`plot`] draws SVG
//! charts of finished runs.
//!
//! [`cli_support`] holds what only the `tilebench` binary needs (signal handling, per-solver
//! flags, the resume line); a program using the library can ignore it.

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(clippy::missing_errors_doc)]
// No function over 100 lines outside the tests (checked by `.ci/run`'s clippy).
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

// Process groups, signals, pseudo-terminals, flock and /proc: tilebench needs a Unix system
// (it is built and tested on Linux).
#[cfg(not(unix))]
compile_error!(
    "tilebench runs only on Unix systems (Linux): it runs external solvers in process groups \
     with poll(2) and a pseudo-terminal, and locks its directories with flock(2)"
);

pub mod check;
pub mod cli_support;
pub mod compare;
pub mod dataset;
pub mod error;
pub mod external;
pub mod gen;
pub mod harness;
pub mod memory;
pub mod observe;
pub mod plot;
pub mod prelude;
pub mod puzzle;
pub mod report;
pub mod results;
pub mod search;
pub mod space;
pub mod stats;
pub mod table;
pub mod util;

pub use error::{Error, Result};
