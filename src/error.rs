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
    #[error(transparent)]
    Plan(#[from] PlanError),
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
    /// An output error with this message.
    pub fn output(message: impl Into<String>) -> Error {
        Error::Output(message.into())
    }
}

/// Why a run's plan cannot be run, found before any file is read
/// ([`RunPlan::check`](crate::harness::plan::RunPlan::check)).
/// Each message is a sentence that says what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// Two configurations have the same label.
    #[error("-s: two configurations are labelled `{label}`; give one a label of its own (-s LABEL=NAME:KEY=VALUE)")]
    LabelTaken {
        /// The label.
        label: String,
    },
    /// Two labels differ only where a file name cannot (case, characters a file name cannot
    /// hold), so their histograms would share a file.
    #[error("-s: the labels `{first}` and `{second}` would share the file {file}: they differ only in case or in characters a file name cannot hold; give one a label of its own (-s LABEL=NAME:KEY=VALUE)")]
    LabelsShareFile {
        /// The label given first.
        first: String,
        /// The label given later.
        second: String,
        /// The file both would write.
        file: String,
    },
    /// An external or custom solver has a built-in strategy's name.
    #[error("the solver name `{name}` is the name of a built-in strategy; choose another, e.g. `my-{name}`")]
    BuiltinName {
        /// The name.
        name: String,
    },
    /// Two solvers have the same name (names become file names: case does not count).
    #[error("the name `{name}` is taken by another solver (names become file names, so case does not count); give each its own name")]
    NameTaken {
        /// The name given second.
        name: String,
    },
    /// No strategy, configuration or solver to run.
    #[error("--strategy none leaves nothing to run; add --solver NAME=COMMAND or name a strategy")]
    NothingToRun,
    /// `repeat` is 0.
    #[error("--repeat 0: give 1 or more")]
    NoRepeats,
    /// A run-wide option that changes no solver, or does not fit the solvers' options.
    #[error("{0}")]
    Options(String),
    /// An export path or a baseline name that cannot be written.
    #[error("{0}")]
    Output(String),
}

/// A result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
