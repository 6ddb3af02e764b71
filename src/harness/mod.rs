//! The harness: a run from plan to files. [`plan`] is the run as a value; [`pipeline`] takes
//! it through [`input`] (CSV rows → cases), [`runner`] (every case × solver in parallel, each
//! solve timed by [`measure`](mod@measure) and judged by [`judge`]) and [`record`] (one typed row per
//! case × solver, journalled as it finishes) to the reports; [`rundir`] owns the results
//! directory.

pub mod input;
pub mod interrupt;
pub mod journal;
pub mod judge;
pub mod measure;
pub mod merge;
pub mod per_solver;
mod pieces;
pub mod pipeline;
pub mod plan;
pub mod record;
pub mod rows;
pub mod rundir;
pub mod runner;
pub mod shard;
pub mod spool;
pub mod store;
pub mod verdict;

pub use measure::measure;
pub use runner::Session;
