//! External solvers: programs benchmarked beside the built-in strategies
//! (`tilebench run … --solver NAME=COMMAND`).
//!
//! - [`protocol`]: what is written to a program and read back (`moves` or `steps`), and the
//!   counters it may print on stderr;
//! - [`framing`]: how a pair is put to a `moves` program, whose goal is fixed;
//! - [`process`]: running `sh -c COMMAND`, one persistent process per worker thread or one
//!   process per case, with timeouts;
//! - [`validate`]: judging every answer (path replay, parity, the optimum).
//!
//! [`Pass`] ties them together: one external solver over all cases, one [`Record`] per case,
//! like a built-in strategy's.

pub mod framing;
pub mod process;
pub mod protocol;
pub mod validate;

use crate::harness::input::Case;
use crate::harness::record::{Counters, Record, RowStatus};
use crate::puzzle::Move;
use crate::search::Strategy;
use process::{shorten, Asked, Exchange, Session};
use protocol::{parse_answer, Blank, Protocol, Request, Spawn};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::Duration;
use validate::{judge, Optimum};

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
        if name.parse::<Strategy>().is_ok()
            || RESERVED.contains(&name.to_ascii_lowercase().as_str())
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
        shorten(text.trim_end(), 120)
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

/// One external solver's pass over the cases. In persistent mode each worker thread has its
/// own process, started at its first case and restarted after a crash, a timeout or an answer
/// that is not one; the processes end when the pass is dropped.
pub struct Pass<'a> {
    solver: &'a ExternalSolver,
    optimum: &'a Optimum,
    timeout: Option<Duration>,
    repeat: u32,
    keep_paths: bool,
    sessions: Vec<Mutex<Option<Session>>>,
}

/// One answer line as read, with its counters and round trip, before it is judged.
struct Try {
    line: String,
    counters: Counters,
    elapsed: Duration,
}

impl<'a> Pass<'a> {
    pub fn new(
        solver: &'a ExternalSolver,
        optimum: &'a Optimum,
        threads: usize,
        timeout: Option<Duration>,
        repeat: u32,
        keep_paths: bool,
    ) -> Pass<'a> {
        Pass {
            solver,
            optimum,
            timeout,
            repeat: repeat.max(1),
            keep_paths,
            sessions: (0..threads.max(1)).map(|_| Mutex::new(None)).collect(),
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
    fn exchange(&self, input: &str) -> Exchange {
        let command = &self.solver.command;
        if self.solver.spawn == Spawn::PerCase {
            return process::run_once(command, input, self.timeout);
        }
        let mut slot = self.slot().lock().unwrap_or_else(|e| e.into_inner());
        // A program that exited after its last answer is started again, once.
        for _ in 0..2 {
            let fresh = slot.is_none();
            if fresh {
                match Session::start(command) {
                    Ok(s) => *slot = Some(s),
                    Err(e) => return Exchange::Failed(e),
                }
            }
            let session = slot.as_mut().expect("a session");
            if fresh {
                match session.ask(input, self.timeout) {
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
                }
            }
            match session.ask(input, self.timeout) {
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
            }
        }
        Exchange::Failed("exits before reading its input (started twice)".into())
    }

    /// Drops the calling worker's process (it printed something that is not an answer, and
    /// may be out of step).
    fn restart(&self) {
        if self.solver.spawn == Spawn::Persistent {
            *self.slot().lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }

    /// Solves one case with the program, `repeat` times, and judges the answer.
    pub fn solve(&self, index: usize, case: &Case) -> Record {
        let name = &self.solver.name;
        let mut rec = Record::empty(index, name);
        let problem = match &case.problem {
            Ok(p) => p,
            Err(msg) => {
                rec.message = msg.clone();
                return rec;
            }
        };
        let at = format!("{}:{}: {name}", case.source, case.line);
        let request = match Request::new(self.solver.protocol, self.solver.blank, problem) {
            Ok(r) => r,
            Err(e) => {
                rec.status = RowStatus::Error;
                rec.message = format!("{at}: {e}");
                return rec;
            }
        };
        let sent = request.shown();
        let restarted = match self.solver.spawn {
            Spawn::Persistent => "; restarted for the next case",
            Spawn::PerCase => "",
        };

        let mut tries: Vec<Try> = Vec::with_capacity(self.repeat as usize);
        for _ in 0..self.repeat {
            match self.exchange(&request.text) {
                Exchange::Answer {
                    line,
                    stderr,
                    elapsed,
                } => {
                    if let Some(first) = tries.first() {
                        if first.line != line || first.counters != stderr.counters {
                            rec.status = RowStatus::Error;
                            rec.message = format!(
                                "{at}: not deterministic: sent `{sent}`, it printed `{}` and then \
                                 `{}` (counters {:?} then {:?}); --repeat needs the same answer",
                                shorten(&first.line, 120),
                                shorten(&line, 120),
                                first.counters,
                                stderr.counters
                            );
                            return rec;
                        }
                    }
                    tries.push(Try {
                        line,
                        counters: stderr.counters,
                        elapsed,
                    });
                }
                Exchange::Timeout { stderr, elapsed } => {
                    rec.status = RowStatus::Limit;
                    rec.counters = stderr.counters;
                    rec.latency_ns = elapsed.as_nanos() as u64;
                    rec.latency_min_ns = rec.latency_ns;
                    rec.message = format!(
                        "{at}: no answer within --timeout {:.3} s to `{sent}`; killed{restarted}",
                        self.timeout.map_or(0.0, |t| t.as_secs_f64())
                    );
                    return rec;
                }
                Exchange::Died { how, stderr } => {
                    rec.status = RowStatus::Error;
                    rec.message = format!(
                        "{at}: {how} without answering `{sent}`{}{restarted}",
                        stderr.describe()
                    );
                    return rec;
                }
                Exchange::Failed(e) => {
                    rec.status = RowStatus::Error;
                    rec.message = format!("{at}: {e} (case `{sent}`){restarted}");
                    return rec;
                }
            }
        }

        let first = &tries[0];
        let answer = match parse_answer(self.solver.protocol, &first.line) {
            Ok(a) => a,
            Err(e) => {
                self.restart();
                rec.status = RowStatus::Error;
                rec.message = format!(
                    "{at}: sent `{sent}`, it printed `{}`, which is {e}{restarted}",
                    shorten(&first.line, 120)
                );
                return rec;
            }
        };
        let mut times: Vec<u64> = tries.iter().map(|t| t.elapsed.as_nanos() as u64).collect();
        times.sort_unstable();
        rec.latency_min_ns = times[0];
        rec.latency_ns = times[times.len() / 2];
        rec.counters = first.counters;

        let verdict = judge(problem, &request.framing, &answer, || {
            self.optimum.of(index, case, problem)
        });
        rec.status = verdict.status;
        rec.steps = verdict.steps;
        rec.optimal = verdict.optimal;
        rec.matches_expected = Record::compare(rec.status, rec.steps, case.expected_steps);
        if self.keep_paths {
            rec.path = verdict.path.as_deref().map(Move::path_string);
        }
        if !verdict.why.is_empty() {
            rec.message = match verdict.status {
                RowStatus::Wrong => format!(
                    "{at}: wrong answer: sent `{sent}`, it printed `{}`: {}",
                    shorten(&first.line, 120),
                    verdict.why
                ),
                _ => format!("{at}: {}", verdict.why),
            };
        }
        rec
    }
}
