//! External solvers: programs benchmarked beside the built-in strategies
//! (`tilebench run … --solver NAME=COMMAND`).
//!
//! - [`protocol`]: what is written to a program and read back (`moves` or `steps`), and the
//!   counters it may print on stderr;
//! - [`framing`]: how a pair is put to a `moves` program, whose goal is fixed;
//! - [`process`]: running `sh -c COMMAND`, one persistent process per worker thread or one
//!   process per case, with timeouts;
//!
//! [`Program`] ties them together: an external program as a [`Solver`], timed and judged by
//! the harness like every other solver (path replay, parity, the optimum).

pub mod framing;
pub mod process;
pub mod protocol;

use crate::puzzle::Board;
use crate::search::{
    registry, Limits, Outcome, Prepare, Problem, SolveError, Solver, Stats, Status,
};
use crate::util::clip;
use process::{Asked, Exchange, Launch, Session};
use protocol::{parse_answer, Answer, Blank, Protocol, Request, Spawn};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::Duration;

/// An external solver: a name for the outputs and a shell command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    pub name: String,
    /// Run as `sh -c COMMAND`.
    pub command: String,
    pub protocol: Protocol,
    pub blank: Blank,
    pub spawn: Spawn,
}

/// Names that are not free for external solvers.
const RESERVED: [&str; 2] = ["all", "none"];

impl ExternalSolver {
    /// Reads `NAME=COMMAND`.
    pub fn parse(
        spec: &str,
        protocol: Protocol,
        blank: Blank,
        spawn: Spawn,
    ) -> Result<ExternalSolver, String> {
        let Some((name, command)) = spec.split_once('=') else {
            return Err(format!(
                "--solver `{spec}`: write NAME=COMMAND, e.g. --solver mine=\"./eight\""
            ));
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
            return Err(format!(
                "--solver `{spec}`: the name `{name}` must be letters, digits, `-`, `_` or `.`, \
                 starting with a letter or digit (it names output files)"
            ));
        }
        if registry::find(name).is_some() || RESERVED.contains(&name.to_ascii_lowercase().as_str())
        {
            return Err(format!(
                "--solver `{spec}`: `{name}` is the name of a built-in strategy (or a keyword of \
                 --strategy); choose another name, e.g. `my-{name}`"
            ));
        }
        if command.is_empty() {
            return Err(format!(
                "--solver `{spec}`: no command after `=`; give the program to run, e.g. \
                 --solver {name}=\"./eight\""
            ));
        }
        Ok(ExternalSolver {
            name: name.to_string(),
            command: command.to_string(),
            protocol,
            blank,
            spawn,
        })
    }

    /// What `latency_ns` measures for this solver.
    pub fn latency_meaning(&self) -> &'static str {
        match self.spawn {
            Spawn::Persistent => {
                "round trip in ns: from writing the case's input to reading the answer line \
                 (one process per worker thread reads case after case)"
            }
            Spawn::PerCase => {
                "process wall time in ns: from starting `sh -c COMMAND` to its exit \
                 (one process per case)"
            }
        }
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
        }
    }
}

/// The error for a program that printed more than its answer line.
fn extra_output(text: &str) -> Exchange {
    Exchange::Failed(format!(
        "printed `{}` after an answer line, before the next case was sent: a program prints \
         exactly one line per case on stdout (diagnostics go to stderr)",
        clip(text.trim_end(), 120)
    ))
}

/// An external solver as run.json records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalInfo {
    pub name: String,
    pub command: String,
    pub run_as: String,
    pub protocol: String,
    pub blank: String,
    pub spawn: String,
    /// What latency_ns measures for this solver.
    pub latency: String,
    pub counters: String,
}

/// An external program as a [`Solver`]. In persistent mode each worker thread has its own
/// process, started at its first case and restarted after a crash, a timeout or an answer
/// that is not one; the processes end in [`Solver::finish`].
pub struct Program {
    spec: ExternalSolver,
    sessions: Vec<Mutex<Option<Session>>>,
}

impl Program {
    /// The program of `spec`; nothing runs until its first case.
    pub fn new(spec: ExternalSolver) -> Program {
        Program {
            spec,
            sessions: vec![Mutex::new(None)],
        }
    }

    /// The calling worker's process slot.
    fn slot(&self) -> &Mutex<Option<Session>> {
        let i = rayon::current_thread_index().unwrap_or(0);
        &self.sessions[i % self.sessions.len()]
    }

    /// Sends one case, in the solver's spawn mode.
    ///
    /// A freshly started persistent process gets its first case twice and only the second
    /// round trip counts: the first one includes the program's start-up (an interpreter's, a
    /// JIT's), which is not the work of one case.
    fn exchange(&self, input: &str, timeout: Option<Duration>) -> Exchange {
        let command = &self.spec.command;
        if self.spec.spawn == Spawn::PerCase {
            return process::run_once(command, input, 1, timeout, Launch { pty: true });
        }
        let mut slot = self.slot().lock().unwrap_or_else(|e| e.into_inner());
        // A program that exited after its last answer is started again, once.
        for _ in 0..2 {
            let fresh = slot.is_none();
            if fresh {
                match Session::start(command, Launch { pty: true }) {
                    Ok(s) => *slot = Some(s),
                    Err(e) => return Exchange::Failed(e),
                }
            }
            let session = slot.as_mut().expect("a session");
            if fresh {
                match session.ask(input, timeout) {
                    Asked::Done(Exchange::Answer { .. }) => {}
                    Asked::Done(ex) => {
                        *slot = None;
                        return ex;
                    }
                    Asked::Gone => {
                        *slot = None;
                        continue;
                    }
                    Asked::Extra(text) => {
                        *slot = None;
                        return extra_output(&text);
                    }
                    Asked::Blocked => {
                        *slot = None;
                        return Exchange::Failed("blocked".into());
                    }
                }
            }
            match session.ask(input, timeout) {
                Asked::Done(ex) => {
                    if !matches!(ex, Exchange::Answer { .. }) {
                        *slot = None;
                    }
                    return ex;
                }
                Asked::Gone => *slot = None,
                Asked::Extra(text) => {
                    *slot = None;
                    return extra_output(&text);
                }
                Asked::Blocked => {
                    *slot = None;
                    return Exchange::Failed("blocked".into());
                }
            }
        }
        Exchange::Failed("exits before reading its input (started twice)".into())
    }

    /// Drops the calling worker's process (it printed something that is not an answer, and
    /// may be out of step).
    fn restart(&self) {
        if self.spec.spawn == Spawn::Persistent {
            *self.slot().lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }
}

impl Solver for Program {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn prepare(&mut self, _goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        self.sessions = (0..ctx.threads.max(1)).map(|_| Mutex::new(None)).collect();
        Ok(())
    }

    fn finish(&mut self) {
        // Ends the programs: end of input, then a kill after a grace period.
        for s in &self.sessions {
            *s.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }

    /// Sends one case to the program and reads its answer (judged by the harness).
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        let request =
            Request::new(self.spec.protocol, self.spec.blank, problem).map_err(SolveError)?;
        let sent = request.shown();
        let restarted = match self.spec.spawn {
            Spawn::Persistent => "; restarted for the next case",
            Spawn::PerCase => "",
        };
        let timeout = limits.timeout;
        let fail = |e: String| Err(SolveError(e));
        let (line, counters, elapsed) = match self.exchange(&request.text, timeout) {
            Exchange::Answer {
                line,
                stderr,
                elapsed,
                ..
            } => (line, stderr.counters, elapsed),
            Exchange::Stopped => return fail("stopped".into()),
            Exchange::Timeout {
                stderr, elapsed, ..
            } => {
                let mut o = Outcome::without_path(Status::Limit, Stats::default());
                o.reported = Some(stderr.counters);
                o.latency = Some(elapsed);
                o.note = Some(format!(
                    "no answer within --timeout {:.3} s to `{sent}`; killed{restarted}",
                    timeout.map_or(0.0, |t| t.as_secs_f64())
                ));
                return Ok(o);
            }
            Exchange::Died { how, stderr } => {
                return fail(format!(
                    "{how} without answering `{sent}`{}{restarted}",
                    stderr.describe()
                ))
            }
            Exchange::Failed(e) => return fail(format!("{e} (case `{sent}`){restarted}")),
        };
        let answer = match parse_answer(self.spec.protocol, &line) {
            Ok(a) => a,
            Err(e) => {
                self.restart();
                return fail(format!(
                    "sent `{sent}`, it printed `{}`, which is {e}{restarted}",
                    clip(&line, 120)
                ));
            }
        };
        let mut o = match answer {
            Answer::Unsolvable => Outcome::without_path(Status::Unsolvable, Stats::default()),
            Answer::Steps(n) => {
                let mut o = Outcome::without_path(Status::Solved, Stats::default());
                o.claimed_steps = Some(n);
                o
            }
            Answer::Moves(moves) => {
                Outcome::solved(request.framing.to_original(&moves), Stats::default())
            }
        };
        o.reported = Some(counters);
        o.latency = Some(elapsed);
        o.note = Some(format!("sent `{sent}`, it printed `{}`", clip(&line, 120)));
        Ok(o)
    }
}
