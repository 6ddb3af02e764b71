//! The names most programs need, in one import: `use tilebench::prelude::*;`.
//!
//! A run ([`RunPlan`], the built-in [`strategies`], [`run`] or [`execute_with`]), a solver of
//! your own ([`Solver`], or [`solver_fn`] for a closure) and the types a solve works with,
//! the rows a run writes ([`Record`]), and the library's [`Error`].
//!
//! ```
//! use tilebench::prelude::*;
//!
//! let start: Board = "1 2 3 4 5 6 7 x 8".parse()?;
//! assert_eq!(start.apply(Move::Left).map(|b| b.to_string()), Some("1 2 3 4 5 6 x 7 8".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::dataset::{Case, InputOptions};
pub use crate::error::{Error, Result};
pub use crate::harness::pipeline::{execute_with, run, Ending, Finished};
pub use crate::harness::plan::{OutMode, RunPlan};
pub use crate::observe::{Observer, Silent};
pub use crate::puzzle::{Board, Move, Shape};
pub use crate::results::record::{Record, RowStatus};
pub use crate::search::heuristic::{Heuristic, Manhattan};
pub use crate::search::{
    shortcut, solver_fn, strategies, Budget, Claim, Limits, Outcome, Problem, Reply, SelfReport,
    SolveError, Solver, Stats, Status, Usage,
};
