//! The library's errors as the command line says them: the library speaks of its own
//! options (`partition`, a configuration, a sweep), and here each names the flag the user
//! typed (`--pdb-partition`, `-s`, `--sweep`), word for word as the commands always have.

/// A run's error as the command line says it: the library's plan errors speak of the plan's
/// fields, and here name the flag the user typed instead.
pub fn in_flags(e: &tilebench::Error) -> String {
    match e {
        tilebench::Error::Plan(p) => plan_in_flags(p),
        tilebench::Error::Solver(e) => solve_in_flags(e),
        tilebench::Error::Output(o) => output_in_flags(o),
        tilebench::Error::Input(i) => input_in_flags(i),
        e => e.to_string(),
    }
}

/// An output error as the command line says it: the results directory is `--out`, its
/// modes `--resume` and `--force`. Written from the error's fields, as the library's
/// sentence is, with the flags where the library names the plan's mode.
pub fn output_in_flags(e: &tilebench::error::OutputError) -> String {
    use tilebench::cli_support::io_reason;
    use tilebench::error::OutputError;
    match e {
        OutputError::Directory { reason, .. } | OutputError::Journal { reason, .. } => {
            reason.with_flags().to_string()
        }
        OutputError::JournalOpen { path, source } => format!(
            "cannot open the run's journal in {}: {}; start the run again with --force, or use \
             another --out",
            path.display(),
            io_reason(source)
        ),
        OutputError::Incomplete { path, have, total } => format!(
            "{}: the journal holds {have} of the {total} results after the run; run again with \
             --resume",
            path.display()
        ),
        OutputError::CasesCsv { reason, .. } => format!(
            "{reason}; every result is kept in the run's journal: once that is mended, finish \
             the run with the same command and --resume"
        ),
        e => e.to_string(),
    }
}

/// An input error as the command line says it: the goal given is `--goal`, the rows
/// `--rows`, the results directory (where the scratch file goes) `--out`. Written from the
/// error's fields, as the library's sentence is.
pub fn input_in_flags(e: &tilebench::dataset::InputError) -> String {
    use tilebench::cli_support::io_reason;
    use tilebench::dataset::InputErrorKind as Kind;
    let p = e.path();
    let at = match e.line() {
        Some(line) => format!("{p}:{line}"),
        None => p.to_string(),
    };
    match e.kind() {
        Kind::BadGoal { goal, error } => {
            format!("--goal `{goal}`: {}", error.message_with_flags())
        }
        Kind::NoSuchRows { missing, total } => format!(
            "{at}: --rows names row(s) {missing}, but there are {total} data rows (numbered \
             from 1 under the header, blank and comment lines not counted: --rows counts rows, \
             not ids); name rows from 1 to {total}"
        ),
        Kind::Scratch {
            created: false,
            error,
        } => format!(
            "cannot create a scratch file for the cases in {p}: {}; give --out a directory you \
             can write",
            io_reason(error)
        ),
        Kind::Scratch {
            created: true,
            error,
        } => format!(
            "cannot write the cases being read to a scratch file in {p}: {}; free some space \
             there, or give --out a directory on another disk",
            io_reason(error)
        ),
        _ => e.to_string(),
    }
}

/// A generator's error as the command line says it: `gen`'s flags (`--depth`, `--walk`,
/// `--out`, …) for the options.
pub fn gen_in_flags(e: &tilebench::gen::GenError) -> String {
    use tilebench::gen::GenError;
    match e {
        GenError::Options(w) | GenError::Pair(w) => w.with_flags().to_string(),
        e => e.to_string(),
    }
}

/// A comparison's error as the command line says it: `--reference`, `--strategies` and the
/// thresholds' flags for the plan's fields.
pub fn compare_in_flags(e: &tilebench::compare::CompareError) -> String {
    match e {
        tilebench::compare::CompareError::Plan(w) => w.with_flags().to_string(),
        e => e.to_string(),
    }
}

/// A plot's (or a report's) error as the command line says it: the reference is
/// `--reference`, all pairs `--all-pairs`, a run's directory `run --out`.
pub fn plot_in_flags(e: &tilebench::plot::PlotError) -> String {
    use tilebench::plot::select::SelectError;
    use tilebench::plot::PlotError;
    match e {
        PlotError::NoSuchDirectory { path } => format!(
            "{}: no such results directory; check the path (runs are written to \
             results/run-<timestamp> unless `run --out` says otherwise)",
            path.display()
        ),
        PlotError::Select(SelectError::NotFound { name, choices }) => format!(
            "--reference {name}: no solver or run is called that; choose a solver ({choices}) \
             or, with several runs, a run"
        ),
        PlotError::Select(SelectError::Ambiguous {
            name,
            runs,
            choices,
        }) => format!(
            "--reference {name}: {runs} runs hold a solver called that; say which as \
             RUN/SOLVER: {choices}"
        ),
        PlotError::Select(SelectError::ReferenceAndAllPairs) => {
            "--reference and --all-pairs cannot go together: give one (all pairs have no \
             reference)"
                .into()
        }
        e => e.to_string(),
    }
}

/// A table's error as the command line says it: a run's directory is `run --out`.
pub fn table_in_flags(e: &tilebench::table::TableError) -> String {
    use tilebench::table::TableError;
    match e {
        TableError::NoSuchRun { path } => format!(
            "{}: no such results directory or file; check the path (runs are written to \
             results/run-<timestamp> unless `run --out` says otherwise)",
            path.display()
        ),
        e => e.to_string(),
    }
}

/// A merge's error as the command line says it: a shard is a `tilebench run --shard I/N`.
pub fn merge_in_flags(e: &tilebench::harness::merge::MergeError) -> String {
    e.message_with_flags().to_string()
}

/// A configuration's error as the command line says it: the text after its `-s`.
pub fn configuration_in_flags(e: &tilebench::search::configuration::ConfigurationError) -> String {
    use tilebench::search::configuration::ConfigurationErrorKind as Kind;
    match &e.kind {
        Kind::EmptyLabel => format!(
            "-s {}: the label before `=` is empty; give a word (`-s fast=wastar`), or drop the `=`",
            e.text
        ),
        kind => format!("-s {}: {kind}", e.text),
    }
}

/// A sweep's error as the command line says it: after `--sweep`, with the flags to use.
pub fn sweep_in_flags(e: &tilebench::search::configuration::SweepError) -> String {
    use tilebench::search::configuration::SweepErrorKind as Kind;
    let why = match &e.kind {
        Kind::NotKeyValues => {
            "write KEY=V1,V2,…, e.g. --sweep heuristic=manhattan,linear-conflict".to_string()
        }
        Kind::NoSuchOption { key } => {
            format!("no strategy takes an option `{key}` (`run -s list` lists each one's)")
        }
        Kind::NotTaken { key, readers } => format!(
            "no strategy chosen with -s takes `{key}` (it is read by {}), or each sets it \
             already; sweep a key once, over all its values",
            readers.join(", ")
        ),
        kind => kind.to_string(),
    };
    format!("--sweep {}: {why}", e.spec)
}

/// A per-solver option's error as the command line says it: its flag was given as the
/// option's name; a solver not in the run is one no `--solver NAME` gave.
pub fn per_solver_in_flags(e: &tilebench::cli_support::PerSolverError) -> String {
    use tilebench::cli_support::PerSolverError;
    match e {
        PerSolverError::UnknownSolver {
            option,
            solver,
            solvers,
        } => {
            let list = if solvers.is_empty() {
                "the run has none".to_string()
            } else {
                format!("the run's are {}", solvers.join(", "))
            };
            format!(
                "{option} {solver}=…: `{solver}` is not a --solver NAME ({list}); name an \
                 external solver of the run"
            )
        }
        e => e.to_string(),
    }
}

/// An external solver's error as the command line says it: after `--solver`, with the flags
/// in its examples.
pub fn external_in_flags(e: &tilebench::external::ExternalSolverError) -> String {
    use tilebench::external::ExternalSolverErrorKind as Kind;
    let why = match &e.kind {
        Kind::NoCommandGiven => "write NAME=COMMAND, e.g. --solver mine=\"./eight\"".to_string(),
        Kind::NameTaken { name } => format!(
            "`{name}` is the name of a built-in strategy (or a keyword of --strategy); choose \
             another name, e.g. `my-{name}`"
        ),
        Kind::NoCommand { name } => format!(
            "no command after `=`; give the program to run, e.g. --solver {name}=\"./eight\""
        ),
        kind => kind.to_string(),
    };
    format!("--solver `{}`: {why}", e.spec)
}

/// [`in_flags`] for a plan error.
pub fn plan_in_flags(p: &tilebench::error::PlanError) -> String {
    use tilebench::error::PlanError;
    match p {
        PlanError::Strategies(e) => format!("--strategy: {e}"),
        PlanError::NoRepeats => "--repeat 0: give 1 or more".into(),
        PlanError::NothingToRun => {
            "--strategy none leaves nothing to run; add --solver NAME=COMMAND or name a strategy"
                .into()
        }
        PlanError::LabelTaken { .. } | PlanError::LabelsShareFile { .. } => {
            format!("-s: {p} (-s LABEL=NAME:KEY=VALUE)")
        }
        PlanError::OptionUnread {
            given,
            flag,
            readers,
            strategies,
            ..
        } => format!(
            "{given} is read only by {}, and this run takes {}: it would change nothing (and be \
             checked against no board); add one of them with -s, or drop {flag}",
            readers.join(", "),
            if strategies.is_empty() {
                "no built-in strategy".to_string()
            } else {
                strategies.join(", ")
            }
        ),
        PlanError::OptionWithoutPdb { given, flag, .. } => format!(
            "{given} is for pattern databases, and no solver of this run estimates with them: \
             add --heuristic pdb (or `:heuristic=pdb` to a configuration), or drop {flag}"
        ),
        PlanError::OptionOverridden {
            option,
            given,
            flag,
        } => format!(
            "{given} would change nothing: every configuration of this run that reads \
             `{option}` sets its own; drop {flag}"
        ),
        PlanError::BaselineName { name } => {
            format!("--save-baseline `{name}`: a baseline name is one plain word, e.g. `main`")
        }
        p => p.to_string(),
    }
}

/// An `--allow-limit` value refused: the values given twice name the flag.
pub fn allow_in_flags(e: &tilebench::check::AllowError) -> String {
    use tilebench::check::AllowError;
    match e {
        AllowError::OthersTwice { .. } | AllowError::SolverTwice { .. } => {
            format!("--allow-limit {e}")
        }
        e => e.to_string(),
    }
}

/// A solver's error as the command line says it: the option at fault (`partition: …` in the
/// library's words) named by its flag (`--pdb-partition: …`), after the solver's name where
/// the error names one (`astar: partition: …`; a solver's name holds no `: `).
pub fn solve_in_flags(e: &tilebench::search::SolveError) -> String {
    e.message_with_flags()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilebench::error::OutputError;

    /// Each output error whose remedy names the plan's mode says it in the library's words
    /// (no `--`), and with `--force`, `--out` and `--resume` on the command line, word for
    /// word as the command line always has.
    #[test]
    fn output_errors_name_the_modes_in_words_and_their_flags_on_the_command_line() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let cases = [
            (
                OutputError::JournalOpen {
                    path: "results/r".into(),
                    source: denied,
                },
                "cannot open the run's journal in results/r: permission denied (this user may \
                 not write or read there); ",
                "start the run again with the mode Force, or use another results directory",
                "start the run again with --force, or use another --out",
            ),
            (
                OutputError::Incomplete {
                    path: "results/r/journal.bin".into(),
                    have: 3,
                    total: 5,
                },
                "results/r/journal.bin: the journal holds 3 of the 5 results after the run; ",
                "run again with the mode Resume",
                "run again with --resume",
            ),
            (
                OutputError::CasesCsv {
                    path: "results/r/cases.csv".into(),
                    reason: "cannot write results/r/cases.csv: the disk is full".into(),
                },
                "cannot write results/r/cases.csv: the disk is full; every result is kept in \
                 the run's journal: once that is mended, ",
                "finish the run with the same plan and the mode Resume",
                "finish the run with the same command and --resume",
            ),
        ];
        for (e, head, words, flags) in cases {
            assert_eq!(e.to_string(), format!("{head}{words}"));
            assert!(!e.to_string().contains("--"), "{e}");
            assert_eq!(output_in_flags(&e), format!("{head}{flags}"));
            assert_eq!(
                in_flags(&tilebench::Error::Output(e)),
                format!("{head}{flags}")
            );
        }
    }

    /// Each input error that names an option says it in the library's words (no `--`), and
    /// with `--goal`, `--rows` and `--out` on the command line, word for word as the command
    /// line always has.
    #[test]
    fn input_errors_name_options_in_words_and_their_flags_on_the_command_line() {
        use tilebench::dataset::{InputError, InputErrorKind as Kind};
        let full = || std::io::Error::from(std::io::ErrorKind::StorageFull);
        let error = "1 1 2 x".parse::<tilebench::puzzle::Board>().unwrap_err();
        let cases = [
            (
                InputError::new(
                    "goal",
                    None,
                    Kind::BadGoal {
                        goal: "1 1 2 x".into(),
                        error: error.clone(),
                    },
                ),
                format!("goal `1 1 2 x`: {error}"),
                format!("--goal `1 1 2 x`: {error}"),
            ),
            (
                InputError::new(
                    "a.csv, b.csv",
                    None,
                    Kind::NoSuchRows {
                        missing: "7-9".into(),
                        total: 6,
                    },
                ),
                "a.csv, b.csv: the plan's rows name row(s) 7-9, but there are 6 data rows \
                 (numbered from 1 under the header, blank and comment lines not counted: rows \
                 are counted, not ids); name rows from 1 to 6"
                    .into(),
                "a.csv, b.csv: --rows names row(s) 7-9, but there are 6 data rows (numbered \
                 from 1 under the header, blank and comment lines not counted: --rows counts \
                 rows, not ids); name rows from 1 to 6"
                    .into(),
            ),
            (
                InputError::new(
                    "/tmp/x",
                    None,
                    Kind::Scratch {
                        created: false,
                        error: full(),
                    },
                ),
                "cannot create a scratch file for the cases in /tmp/x: the disk is full (no \
                 space left on the device); give the run a results directory you can write"
                    .into(),
                "cannot create a scratch file for the cases in /tmp/x: the disk is full (no \
                 space left on the device); give --out a directory you can write"
                    .into(),
            ),
            (
                InputError::new(
                    "/tmp/x",
                    None,
                    Kind::Scratch {
                        created: true,
                        error: full(),
                    },
                ),
                "cannot write the cases being read to a scratch file in /tmp/x: the disk is \
                 full (no space left on the device); free some space there, or give the run a \
                 results directory on another disk"
                    .into(),
                "cannot write the cases being read to a scratch file in /tmp/x: the disk is \
                 full (no space left on the device); free some space there, or give --out a \
                 directory on another disk"
                    .into(),
            ),
        ];
        for (e, words, flags) in cases {
            assert_eq!(e.to_string(), words);
            assert!(!words.contains("--"), "{words}");
            assert_eq!(input_in_flags(&e), flags);
            assert_eq!(in_flags(&tilebench::Error::Input(e)), flags);
        }
    }
}
