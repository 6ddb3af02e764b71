//! The library's error type: what went wrong, in a sentence for the user that names the file
//! (and line) and says what to do next, sorted by where it happened so a caller can tell a bad
//! input from a full disk.

use crate::dataset::InputError;
use crate::observe::Wording;
use crate::search::SolveError;
use std::io;
use std::path::{Path, PathBuf};

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
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Why a run's outputs failed: its results directory, its journal, an export file or the
/// baseline. Each message names the file or directory and says what to do;
/// [`path`](OutputError::path) gives the path alone.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// The results directory cannot be created or resumed (it holds another run, a lock is
    /// held, a file in it cannot be read or written).
    #[error("{reason}")]
    Directory {
        /// The results directory (none when the plan named none: `results/run-<UTC>`).
        path: Option<PathBuf>,
        /// The whole sentence, naming the directory or its file and what to do (in the
        /// plan's words; [`Wording::with_flags`] as a command line says it).
        reason: Wording,
    },
    /// The run's journal cannot be opened.
    #[error("cannot open the run's journal in {}: {}; start the run again with the mode Force, or use another results directory", .path.display(), crate::util::io_reason(.source))]
    JournalOpen {
        /// The results directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The run's journal is damaged, belongs to another run, or cannot be written.
    #[error("{reason}")]
    Journal {
        /// The results directory.
        path: PathBuf,
        /// The whole sentence, naming the journal's file and what to do (as for
        /// [`OutputError::Directory`]).
        reason: Wording,
    },
    /// After the run, the journal holds fewer results than the run has.
    #[error("{}: the journal holds {have} of the {total} results after the run; run again with the mode Resume", .path.display())]
    Incomplete {
        /// The journal.
        path: PathBuf,
        /// Results held.
        have: usize,
        /// Results the run has.
        total: usize,
    },
    /// cases.csv cannot be written; every result is still in the journal.
    #[error("{reason}; every result is kept in the run's journal: once that is mended, finish the run with the same plan and the mode Resume")]
    CasesCsv {
        /// The cases.csv being written.
        path: PathBuf,
        /// What failed, naming the file.
        reason: String,
    },
    /// The run's other files (summary.csv, the histograms, run.json) cannot be written.
    #[error("{reason}")]
    RunFiles {
        /// The results directory.
        path: PathBuf,
        /// What failed, naming the file.
        reason: String,
    },
    /// An export file (`--export NAME=FILE`) cannot be written.
    #[error("cannot write {}: {}", .path.display(), crate::util::io_reason(.source))]
    Export {
        /// The export file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The finished run cannot be saved as a baseline.
    #[error("{reason}")]
    Baseline {
        /// The results directory.
        path: PathBuf,
        /// The baseline's name.
        name: String,
        /// The whole sentence.
        reason: String,
    },
    /// The worker threads cannot be started (the run has no results directory yet).
    #[error("{reason}")]
    Threads {
        /// What failed.
        reason: String,
    },
}

impl OutputError {
    /// The file or directory the error is about (none for [`OutputError::Threads`], and for
    /// a results directory the plan did not name).
    pub fn path(&self) -> Option<&Path> {
        match self {
            OutputError::Directory { path, .. } => path.as_deref(),
            OutputError::JournalOpen { path, .. }
            | OutputError::Journal { path, .. }
            | OutputError::Incomplete { path, .. }
            | OutputError::CasesCsv { path, .. }
            | OutputError::RunFiles { path, .. }
            | OutputError::Export { path, .. }
            | OutputError::Baseline { path, .. } => Some(path),
            OutputError::Threads { .. } => None,
        }
    }

    /// The system's error, where one caused it.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self {
            OutputError::JournalOpen { source, .. } | OutputError::Export { source, .. } => {
                Some(source)
            }
            _ => None,
        }
    }
}

/// Why a run's plan cannot be run, found before any file is read
/// ([`RunPlan::check`](crate::harness::plan::RunPlan::check)).
/// Each message is a sentence that says what to do, in the plan's words (the command line
/// names its flags instead where the user typed one).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// Two configurations have the same label.
    #[error("two configurations are labelled `{label}`; give one a label of its own")]
    LabelTaken {
        /// The label.
        label: String,
    },
    /// Two labels differ only where a file name cannot (case, characters a file name cannot
    /// hold), so their histograms would share a file.
    #[error("the labels `{first}` and `{second}` would share the file {file}: they differ only in case or in characters a file name cannot hold; give one a label of its own")]
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
    #[error("the plan has no solver to run; add a built-in strategy, a configuration, a program or a solver of your own")]
    NothingToRun,
    /// The list of built-in strategies names an unknown one, or none.
    #[error(transparent)]
    Strategies(#[from] crate::search::registry::StrategyError),
    /// `repeat` is 0.
    #[error("repeat is 0: each case is solved at least once; give 1 or more")]
    NoRepeats,
    /// A run-wide option set away from its default that no strategy of the run reads.
    #[error("{} is read only by {}, and this run takes {}: it would change nothing (and be checked against no board); add one of them to the plan, or drop {}", in_words(.option, .given, .flag), .readers.join(", "), if .strategies.is_empty() { "no built-in strategy".to_string() } else { .strategies.join(", ") }, in_words(.option, .flag, .flag))]
    OptionUnread {
        /// The option's name (`partition`).
        option: String,
        /// The option as given (`--pdb-partition 9-9`).
        given: String,
        /// Its flag (`--pdb-partition`).
        flag: String,
        /// The strategies that read it.
        readers: Vec<String>,
        /// The built-in strategies of the run.
        strategies: Vec<String>,
    },
    /// A pattern-database option, and no solver of the run estimates with pattern databases.
    #[error("{} is for pattern databases, and no solver of this run estimates with them: set the heuristic to pdb (or `:heuristic=pdb` in a configuration), or drop {}", in_words(.option, .given, .flag), in_words(.option, .flag, .flag))]
    OptionWithoutPdb {
        /// The option's name.
        option: String,
        /// The option as given.
        given: String,
        /// Its flag.
        flag: String,
    },
    /// A run-wide option every configuration that reads it sets for itself.
    #[error("{} would change nothing: every configuration of this run that reads `{option}` sets its own; drop {}", in_words(.option, .given, .flag), in_words(.option, .flag, .flag))]
    OptionOverridden {
        /// The option's name.
        option: String,
        /// The option as given.
        given: String,
        /// Its flag.
        flag: String,
    },
    /// An export path that is a directory.
    #[error("{} is a directory; give a file name to export to", .path.display())]
    ExportIsDirectory {
        /// The export path.
        path: PathBuf,
    },
    /// An export path whose directory does not exist.
    #[error("cannot write {}: the directory {} does not exist; create it first", .path.display(), .dir.display())]
    ExportDirectoryMissing {
        /// The export path.
        path: PathBuf,
        /// Its missing directory.
        dir: PathBuf,
    },
    /// A baseline name that is not one plain word (empty, a path separator, a leading dot).
    #[error("`{name}` cannot name a baseline: a baseline name is one plain word, e.g. `main`")]
    BaselineName {
        /// The name given.
        name: String,
    },
}

/// An option as given (`--pdb-partition 9-9`, or its `flag` alone) in the plan's words: its
/// name (`partition 9-9`); the tables' directory for `--pdb-dir`.
fn in_words(option: &str, given: &str, flag: &str) -> String {
    let name = if flag == "--pdb-dir" {
        "the tables' directory"
    } else {
        option
    };
    match given.strip_prefix(flag) {
        Some(value) => format!("{name}{value}"),
        None => given.to_string(),
    }
}

/// A result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_errors_are_sentences_with_their_path() {
        let e = OutputError::Export {
            path: "out/run.md".into(),
            source: io::Error::from(io::ErrorKind::NotFound),
        };
        assert_eq!(
            e.to_string(),
            "cannot write out/run.md: no such file or directory"
        );
        assert_eq!(e.path(), Some(Path::new("out/run.md")));
        assert_eq!(
            e.io_error().map(io::Error::kind),
            Some(io::ErrorKind::NotFound)
        );

        let e = Error::from(OutputError::Incomplete {
            path: "r/journal-slots.bin".into(),
            have: 3,
            total: 10,
        });
        assert_eq!(
            e.to_string(),
            "r/journal-slots.bin: the journal holds 3 of the 10 results after the run; run again \
             with the mode Resume"
        );

        let e = OutputError::JournalOpen {
            path: "r".into(),
            source: io::Error::from_raw_os_error(28),
        };
        let text = e.to_string();
        assert!(
            text.starts_with("cannot open the run's journal in r: "),
            "{text}"
        );
        assert!(!text.contains("os error"), "{text}");
        assert!(text.ends_with(
            "start the run again with the mode Force, or use another results directory"
        ));
        assert_eq!(OutputError::Threads { reason: "x".into() }.path(), None);
    }
}
