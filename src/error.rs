//! The library's error type: what went wrong, in a sentence for the user that names the file
//! (and line) and says what to do next, sorted by where it happened so a caller can tell a bad
//! input from a full disk.

use crate::dataset::InputError;
use crate::search::SolveError;

/// Why a run could not be done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The plan's options do not fit together (a solver name taken, a limit out of range, an
    /// export path whose directory is missing); nothing was read or solved.
    #[error("{0}")]
    Plan(String),
    /// An input file cannot be used at all (missing, empty, not CSV, no `start` column).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A solver cannot run on the run's cases (a pattern-database partition that does not fit
    /// the boards); nothing was solved.
    #[error(transparent)]
    Solver(#[from] SolveError),
    /// The results directory cannot be created, resumed or written, or its journal is damaged
    /// or belongs to another run.
    #[error("{0}")]
    Output(String),
}

impl Error {
    /// A plan error with this message.
    pub fn plan(message: impl Into<String>) -> Error {
        Error::Plan(message.into())
    }
    /// An output error with this message.
    pub fn output(message: impl Into<String>) -> Error {
        Error::Output(message.into())
    }
}

/// A result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
