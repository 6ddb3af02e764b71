//! External solvers: programs benchmarked beside the built-in strategies
//! (`tilebench run … --solver NAME=COMMAND`).
//!
//! - [`protocol`]: what is written to a program and read back (`moves` or `steps`), and the
//!   counters it may print on stderr;
//! - `framing`: how a pair is put to a `moves` program, whose goal is fixed;
//! - `process`: running `sh -c COMMAND`, one persistent process per worker thread or one
//!   process per case, with timeouts;
//!
//! `Program` ties them together: an external program as a [`Solver`](crate::search::Solver), timed and judged by
//! the harness like every other solver (path replay, parity, the optimum).

pub(crate) mod framing;
mod naming;
pub(crate) mod process;
mod program;
pub mod protocol;

pub(crate) use program::{Program, DEFAULT_TIMEOUT};

use crate::search::registry;
use protocol::{Blank, Protocol, Spawn, Stdout};
use serde::{Deserialize, Serialize};

/// An external solver: a name for the outputs and a shell command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// The `NAME` of `--solver NAME=COMMAND`: its strategy name in cases.csv, summary.csv and
    /// file names.
    pub name: String,
    /// Run as `sh -c COMMAND`.
    pub command: String,
    /// What is written to the program and read back per case (`--solver-protocol`).
    pub protocol: Protocol,
    /// How the blank is written in the boards it is sent (`--solver-blank`).
    pub blank: Blank,
    /// Whether one process serves a worker thread, one case, or the whole input
    /// (`--solver-spawn`).
    pub spawn: Spawn,
    /// What its stdout is (`--solver-stdout`).
    pub stdout: Stdout,
    /// Every line on stdout must be an answer, alone (`--solver-strict`): a line that is not,
    /// an answer after a label or without its line end make the row an error instead of
    /// being skipped or read past.
    pub strict: bool,
    /// What its paths promise, which the judge holds them to (`--solver-claim`; default
    /// `optimal`).
    pub claim: crate::search::Claim,
}

/// A `NAME=COMMAND` that [`ExternalSolver::parse`] refuses: the text and what is wrong with
/// it. The command line names its `--solver`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("external solver `{spec}`: {kind}")]
#[non_exhaustive]
pub struct ExternalSolverError {
    /// The text as given.
    pub spec: String,
    /// What is wrong with it.
    pub kind: ExternalSolverErrorKind,
}

/// What is wrong with an external solver's `NAME=COMMAND` ([`ExternalSolverError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExternalSolverErrorKind {
    /// No `=`: a name without a command, or a command without a name.
    #[error("write NAME=COMMAND, e.g. mine=\"./eight\"")]
    NoCommandGiven,
    /// A name of other characters than letters, digits, `-`, `_` or `.`, or not starting
    /// with a letter or digit.
    #[error(
        "the name `{name}` must be letters, digits, `-`, `_` or `.`, starting with a letter or \
         digit (it names output files)"
    )]
    BadName {
        /// The name.
        name: String,
    },
    /// The name of a built-in strategy, or `all` or `none`.
    #[error(
        "`{name}` is the name of a built-in strategy (or the keyword `all` or `none`); choose \
         another name, e.g. `my-{name}`"
    )]
    NameTaken {
        /// The name.
        name: String,
    },
    /// Nothing after the `=`.
    #[error("no command after `=`; give the program to run, e.g. {name}=\"./eight\"")]
    NoCommand {
        /// The name.
        name: String,
    },
}

/// Names that are not free for external solvers.
const RESERVED: [&str; 2] = ["all", "none"];

impl ExternalSolver {
    /// Reads `NAME=COMMAND`, the value of `--solver`; its stdout is [`Stdout::Auto`].
    ///
    /// # Errors
    /// [`ExternalSolverError`]: when there is no `=`, when the name is not letters, digits,
    /// `-`, `_` or `.` (starting with a letter or digit), when it is the name of a built-in
    /// strategy or `all`/`none`, or when the command is empty.
    pub fn parse(
        spec: &str,
        protocol: Protocol,
        blank: Blank,
        spawn: Spawn,
    ) -> Result<ExternalSolver, ExternalSolverError> {
        let error = |kind| ExternalSolverError {
            spec: spec.to_string(),
            kind,
        };
        let Some((name, command)) = spec.split_once('=') else {
            return Err(error(ExternalSolverErrorKind::NoCommandGiven));
        };
        let (name, command) = (name.trim(), command.trim());
        let good_name = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !good_name {
            return Err(error(ExternalSolverErrorKind::BadName {
                name: name.into(),
            }));
        }
        if registry::find(name).is_some() || RESERVED.contains(&name.to_ascii_lowercase().as_str())
        {
            return Err(error(ExternalSolverErrorKind::NameTaken {
                name: name.into(),
            }));
        }
        if command.is_empty() {
            return Err(error(ExternalSolverErrorKind::NoCommand {
                name: name.into(),
            }));
        }
        Ok(ExternalSolver {
            name: name.to_string(),
            command: command.to_string(),
            protocol,
            blank,
            spawn,
            stdout: Stdout::Auto,
            strict: false,
            claim: crate::search::Claim::Optimal,
        })
    }

    /// What `latency_ns` measures for this solver, as it was asked to run.
    pub fn latency_meaning(&self) -> &'static str {
        latency_meaning(self.spawn)
    }

    /// run.json's description of the solver.
    pub fn info(&self) -> ExternalInfo {
        ExternalInfo {
            name: self.name.clone(),
            command: self.command.clone(),
            run_as: format!("sh -c {}", self.command),
            protocol: self.protocol.name().into(),
            blank: self.blank.name().into(),
            spawn: self.spawn.name().into(),
            latency: self.latency_meaning().into(),
            counters: "read from stderr: `expanded=N generated=N [stored=N] [peak_frontier=N]` \
                       written before the answer line; empty when absent"
                .into(),
            stdout: self.stdout.name().into(),
            strict: self.strict,
            claim: self.claim.to_string(),
            default_timeout_s: DEFAULT_TIMEOUT.as_secs_f64(),
        }
    }
}

/// What `latency_ns` measures for a program run in `spawn` mode.
pub(crate) fn latency_meaning(spawn: Spawn) -> &'static str {
    match spawn {
        Spawn::Persistent => {
            "round trip in ns: from writing the case's input to reading the answer line \
             (one process per worker thread reads case after case)"
        }
        Spawn::PerCase => {
            "process wall time in ns: from starting `sh -c COMMAND` to its exit \
             (one process per case); start-up included (see startup_us)"
        }
        Spawn::Batch => {
            "not measured per case (empty): one process reads every case; see batch_wall_s"
        }
    }
}

/// An external solver as run.json records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalInfo {
    /// The strategy name it was benchmarked under.
    pub name: String,
    /// The `COMMAND` of `--solver NAME=COMMAND`, as given.
    pub command: String,
    /// How it was started: `sh -c COMMAND`.
    pub run_as: String,
    /// The protocol's name: `moves` or `steps`.
    pub protocol: String,
    /// The blank token written: `x` or `0`.
    pub blank: String,
    /// The spawn mode: `persistent`, `per-case` or `batch`.
    pub spawn: String,
    /// What latency_ns measures for this solver.
    pub latency: String,
    /// Where the expanded/generated/stored/peak_frontier columns come from (the program's
    /// stderr).
    pub counters: String,
    /// Stdout: `auto` (a pipe, a pseudo-terminal for a program that needs one), `pipe`, `pty`.
    #[serde(default)]
    pub stdout: String,
    /// Whether --solver-strict was given: every stdout line must be an answer, alone.
    #[serde(default)]
    pub strict: bool,
    /// What its paths promise (`--solver-claim`): `optimal`, `within=W` or `valid`; empty in
    /// runs made before the claims.
    #[serde(default)]
    pub claim: String,
    /// The default per-case timeout, when --timeout is not given.
    #[serde(default)]
    pub default_timeout_s: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(spec: &str) -> Result<ExternalSolver, ExternalSolverError> {
        ExternalSolver::parse(spec, Protocol::Moves, Blank::X, Spawn::Persistent)
    }

    #[test]
    fn external_solver_errors_keep_the_text_and_name_in_the_librarys_words() {
        let e = parse("./x").unwrap_err();
        assert_eq!(
            (e.spec.as_str(), &e.kind),
            ("./x", &ExternalSolverErrorKind::NoCommandGiven)
        );
        assert_eq!(
            e.to_string(),
            "external solver `./x`: write NAME=COMMAND, e.g. mine=\"./eight\""
        );
        let e = parse("-x=./x").unwrap_err();
        assert_eq!(
            e.kind,
            ExternalSolverErrorKind::BadName { name: "-x".into() }
        );
        assert_eq!(
            e.to_string(),
            "external solver `-x=./x`: the name `-x` must be letters, digits, `-`, `_` or `.`, \
             starting with a letter or digit (it names output files)"
        );
        let e = parse("None=./x").unwrap_err();
        assert_eq!(
            e.kind,
            ExternalSolverErrorKind::NameTaken {
                name: "None".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "external solver `None=./x`: `None` is the name of a built-in strategy (or the \
             keyword `all` or `none`); choose another name, e.g. `my-None`"
        );
        assert_eq!(
            parse("astar=./x").unwrap_err().kind,
            ExternalSolverErrorKind::NameTaken {
                name: "astar".into()
            }
        );
        let e = parse("mine= ").unwrap_err();
        assert_eq!(
            e.kind,
            ExternalSolverErrorKind::NoCommand {
                name: "mine".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "external solver `mine= `: no command after `=`; give the program to run, e.g. \
             mine=\"./eight\""
        );
        for spec in ["./x", "-x=./x", "None=./x", "mine= "] {
            let m = parse(spec).unwrap_err().to_string();
            assert!(!m.contains("--"), "{m}");
        }
        assert_eq!(parse(" mine = ./eight ").unwrap().name, "mine");
    }
}
