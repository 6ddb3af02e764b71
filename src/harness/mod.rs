//! The harness: a run from plan to files. [`plan`] is the run as a value; [`pipeline`] takes
//! it through `input` (CSV rows → cases), [`runner`] (every case × solver in parallel, each
//! solve timed by `measure` and judged by `judge`) and `record` (one typed row per
//! case × solver, journalled as it finishes) to the reports; `rundir` owns the results
//! directory ([`RunDir`]).

pub(crate) mod interrupt;
pub mod journal;
pub(crate) mod judge;
pub(crate) mod measure;
pub mod merge;
pub(crate) mod per_solver;
pub mod pipeline;
pub mod plan;
pub(crate) mod rundir;
pub mod runner;
pub(crate) mod spool;
pub(crate) mod store;
pub(crate) mod verdict;

pub use rundir::RunDir;
pub(crate) use runner::Session;
