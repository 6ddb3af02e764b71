//! An external program as a [`Solver`].
//!
//! Three ways to run it, chosen with `--solver-spawn` or found out on the way:
//! - **persistent** (the default): one process per worker thread reads case after case. A
//!   fresh process gets its first case twice and only the second round trip counts (the first
//!   includes an interpreter's start-up). The two answers are compared: the first time a
//!   program's differ, that row is judged on the first answer (the one it gave the board), the
//!   process is started again once, and one notice says so; after that, a fresh process's
//!   repeat is judged, so the pattern costs one row, not one per process. A program that exits after
//!   each answer is run one process per case from then on; one that sleeps reading more input
//!   with a case pending (output it never flushes, or a program that reads all its input
//!   first) is run in batch mode. Each switch is said once, with why.
//! - **per-case**: one process per case, stdin closed after the case; CPU time and peak
//!   memory from `wait4`.
//! - **batch**: one process for every case of the run, stdin closed after the last; the
//!   answers are matched to the cases in order. Per-case latency is not measured.
//!
//! A process that read its case and then died (a crash, an exit) makes that case an error
//! with its exit status or signal and its stderr; the program is started again for the next
//! case. Only a program that ends [`MAX_START_FAILURES`] times in a row before reading its
//! input, without ever answering (a command not found, status 126 or 127, an interpreter that
//! fails on the script), is not started again: its remaining cases are not sent, each with one
//! clear error.

use super::process::{self, Asked, Exchange, Launch, Session};
use super::protocol::{parse_answer, Answer, Protocol, Request, Spawn, Stdout};
use super::ExternalSolver;
use crate::puzzle::Board;
use crate::search::{Limits, Outcome, Prepare, Problem, SolveError, Solver, Stats, Status};
use crate::util::clip;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The per-case timeout of an external program when `--timeout` is not given: a program
/// that never answers becomes a `limit` row instead of stalling the run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Start-up failures in a row (ended before reading its input, no answer ever) after which a
/// program is not started again.
pub const MAX_START_FAILURES: usize = 3;

/// An external program as a [`Solver`]: timed and judged by the harness like every solver.
pub struct Program {
    spec: ExternalSolver,
    /// Whether programs start with a pseudo-terminal as stdout (`--solver-stdout`, or since
    /// one was found waiting with its answer in a buffer).
    pty: AtomicBool,
    /// The way it runs now: `spec.spawn`, or what it was switched to.
    mode: AtomicU8,
    sessions: Vec<Mutex<Option<Session>>>,
    /// Every problem of the run, for batch mode.
    problems: Vec<Problem>,
    batch: OnceLock<Result<Batch, String>>,
    /// Start-up failures in a row, and whether it ever answered.
    failures: AtomicUsize,
    answered: AtomicBool,
    notices: Mutex<Vec<String>>,
    /// The start-up cost of one process (`sh -c` and an empty program), once measured.
    startup: OnceLock<Duration>,
    /// Per worker: the last case sent, to tell an answer that is one case late.
    last: Vec<Mutex<Option<Problem>>>,
    /// It prints its counters after its answer line: they cannot be credited to a case.
    late_counters: AtomicBool,
    /// The empty-lines notice was given.
    blank_said: AtomicBool,
    /// A fresh process's first answer differed from its answer to the same case sent again:
    /// that row was judged on the first answer, and the notice was given.
    warm_up_differed: AtomicBool,
}

/// One batch run: every answer line, by the problem it answers.
struct Batch {
    answers: HashMap<(Board, Board), Result<String, String>>,
    /// The batch's wall time, from start to exit.
    wall: Duration,
}

const MODES: [Spawn; 3] = [Spawn::Persistent, Spawn::PerCase, Spawn::Batch];

impl Program {
    /// The program of `spec`; nothing runs until its first case.
    pub fn new(spec: ExternalSolver) -> Program {
        let mode = MODES.iter().position(|&m| m == spec.spawn).unwrap_or(0) as u8;
        Program {
            pty: AtomicBool::new(spec.stdout == Stdout::Pty),
            spec,
            mode: AtomicU8::new(mode),
            sessions: vec![Mutex::new(None)],
            problems: Vec::new(),
            batch: OnceLock::new(),
            failures: AtomicUsize::new(0),
            answered: AtomicBool::new(false),
            notices: Mutex::new(Vec::new()),
            startup: OnceLock::new(),
            last: vec![Mutex::new(None)],
            late_counters: AtomicBool::new(false),
            blank_said: AtomicBool::new(false),
            warm_up_differed: AtomicBool::new(false),
        }
    }

    fn launch(&self) -> Launch {
        Launch {
            pty: self.pty.load(Ordering::SeqCst),
        }
    }

    /// A process that reads one input and sees its end: its output is flushed at exit, so
    /// a pipe serves unless a pseudo-terminal was asked for.
    fn once(&self) -> Launch {
        Launch {
            pty: self.spec.stdout == Stdout::Pty,
        }
    }

    fn mode(&self) -> Spawn {
        MODES[self.mode.load(Ordering::SeqCst) as usize]
    }

    /// Switches to `to` (once), with a notice that says why.
    fn switch(&self, to: Spawn, why: &str) {
        let from = self.mode();
        let at = MODES.iter().position(|&m| m == to).expect("a mode") as u8;
        let was = self.mode.swap(at, Ordering::SeqCst);
        if MODES[was as usize] != to {
            self.notice(format!(
                "{}: {why}; running it with --solver-spawn {to} from now on (was {from}; pass \
                 --solver-spawn {to} to start that way)",
                self.spec.name
            ));
            if to == Spawn::PerCase {
                self.startup_notice();
            }
        }
    }

    /// Says what starting a process costs, as hyperfine does for its shell: the median wall
    /// time of `sh -c /bin/true` (the same shell and an empty program), which every per-case
    /// latency includes.
    fn startup_notice(&self) {
        let mut times: Vec<Duration> = (0..15)
            .filter_map(|_| {
                match process::run_once("exec /bin/true", "", 0, Some(DEFAULT_TIMEOUT), self.once())
                {
                    Exchange::Answer { elapsed, .. } => Some(elapsed),
                    _ => None,
                }
            })
            .collect();
        if times.is_empty() {
            return;
        }
        times.sort();
        let startup = times[times.len() / 2];
        let _ = self.startup.set(startup);
        self.notice(format!(
            "{}: per-case latency_ns is the process's wall time, start-up included: starting \
             `sh -c` with an empty program takes {:.0} µs here (median of {}); subtract it for \
             the program's own time, or compare cpu_us",
            self.spec.name,
            startup.as_secs_f64() * 1e6,
            times.len()
        ));
    }

    /// From now on its counters are dropped, with a notice that says why.
    fn counters_late(&self) {
        if !self.late_counters.swap(true, Ordering::SeqCst) {
            self.notice(format!(
                "{}: it prints its counters on stderr after its answer line, where they cannot \
                 be told from the next case's: they are dropped (print `expanded=N \
                 generated=N` before the answer line to have them counted)",
                self.spec.name
            ));
        }
    }

    /// The calling worker's last case, replaced by `now`.
    fn previous(&self, now: &Problem) -> Option<Problem> {
        crate::util::for_worker(&self.last)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(*now)
    }

    /// When a path misses its case's goal but solves the previous case sent to the same
    /// worker, says so: the answers are one case late.
    fn late_answer(&self, problem: &Problem, previous: Option<Problem>, o: &Outcome) -> String {
        let (Some(prev), Some(path)) = (previous, o.path.as_ref()) else {
            return String::new();
        };
        let reaches = |p: &Problem| p.start.replay(path).ok() == Some(p.goal);
        if prev != *problem && !reaches(problem) && reaches(&prev) {
            format!(
                "; it solves the case sent before it (`{}`): the answers look one case late \
                 (a program that prints an extra line, a blank one say, after an answer)",
                prev.start
            )
        } else {
            String::new()
        }
    }

    fn notice(&self, text: String) {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text);
    }

    /// The calling worker's process slot.
    fn slot(&self) -> &Mutex<Option<Session>> {
        crate::util::for_worker(&self.sessions)
    }

    /// Counts a start that ended without an answer; after [`MAX_START_FAILURES`] in a row
    /// (and no answer ever), the program is not started again.
    fn failed_start(&self) {
        self.failures.fetch_add(1, Ordering::SeqCst);
    }

    fn broken(&self) -> bool {
        !self.answered.load(Ordering::SeqCst)
            && self.failures.load(Ordering::SeqCst) >= MAX_START_FAILURES
    }

    /// One case in persistent mode: `Err` hands the case to another mode, or (`Persistent`)
    /// asks for it again with a pseudo-terminal.
    fn persistent(
        &self,
        input: &str,
        timeout: Option<Duration>,
        skip_blank: bool,
    ) -> Result<Exchange, Spawn> {
        let mut slot = self.slot().lock().unwrap_or_else(|e| e.into_inner());
        let fresh = slot.is_none();
        let launch = self.launch();
        // Asleep reading with its answer held back: on a pipe in `auto`, a terminal may be
        // all it needs; otherwise it answers only when its input ends.
        let blocked = if !launch.pty && self.spec.stdout == Stdout::Auto {
            Spawn::Persistent
        } else {
            Spawn::Batch
        };
        if fresh {
            match Session::start(&self.spec.command, launch) {
                Ok(s) => *slot = Some(s),
                Err(e) => return Ok(Exchange::Failed(e)),
            }
        }
        let session = slot.as_mut().expect("a session");
        let warm_up = if fresh {
            match session.ask(input, timeout, skip_blank) {
                Asked::Done(Exchange::Answer { line, stderr, .. }) => {
                    // It started and answered: whatever happens next is not a failed start.
                    self.answered.store(true, Ordering::SeqCst);
                    Some((line, stderr))
                }
                Asked::Done(ex) => {
                    *slot = None;
                    return Ok(ex);
                }
                Asked::Gone => {
                    // Ended before it read its case (a command the shell cannot find, a
                    // program that exits at once): its exit status and stderr say why.
                    let ex = session.gone();
                    *slot = None;
                    return Ok(ex);
                }
                Asked::Extra(text) => {
                    *slot = None;
                    return Ok(extra_output(&text));
                }
                Asked::Blocked => {
                    *slot = None;
                    return Err(blocked);
                }
            }
        } else {
            None
        };
        let ex = match session.ask(input, timeout, skip_blank) {
            // It answered its first case and ended cleanly while the case was sent again.
            Asked::Done(Exchange::Died { how, .. })
                if warm_up.is_some() && how.starts_with("exited with status 0") =>
            {
                *slot = None;
                return Err(Spawn::PerCase);
            }
            Asked::Done(ex) => ex,
            // It answered its first case and exited: a program that solves one case a run.
            Asked::Gone if warm_up.is_some() => {
                *slot = None;
                return Err(Spawn::PerCase);
            }
            Asked::Gone => {
                *slot = None;
                return Ok(Exchange::Failed(
                    "exited between cases, after an answer (restarted for the next case)".into(),
                ));
            }
            Asked::Extra(text) => {
                *slot = None;
                return Ok(extra_output(&text));
            }
            Asked::Blocked => {
                *slot = None;
                return Err(blocked);
            }
        };
        if std::mem::take(&mut session.blank_lines) {
            self.blank_notice();
        }
        if !matches!(ex, Exchange::Answer { .. }) {
            *slot = None;
        }
        if let (Some((first, early)), Exchange::Answer { line, stderr, .. }) = (&warm_up, &ex) {
            // The same case twice: counters seen only in the second exchange were printed
            // after the first answer, and would be credited to the next case.
            let none = crate::search::Counters::default();
            if early.counters == none && stderr.counters != none {
                self.counters_late();
            }
            if first.trim() != line.trim() {
                return Ok(self.warm_up_differs(slot, first, early, ex));
            }
        }
        Ok(ex)
    }

    /// A fresh process answered its first case with `first`, and the same case sent again
    /// otherwise (in `repeat`). The first time for this program, the row is judged on its
    /// first answer (the one it gave the board), the process is started again for the next
    /// case (an answer one case late leaves it out of step), and one notice gives the pattern;
    /// later, the repeat is judged, so that the pattern costs the program one row in all, not
    /// one per process started.
    fn warm_up_differs(
        &self,
        mut slot: std::sync::MutexGuard<'_, Option<Session>>,
        first: &str,
        early: &process::Stderr,
        repeat: Exchange,
    ) -> Exchange {
        if self.warm_up_differed.swap(true, Ordering::SeqCst) {
            return repeat;
        }
        *slot = None;
        let Exchange::Answer {
            line,
            elapsed,
            usage,
            ..
        } = repeat
        else {
            return repeat;
        };
        self.notice(format!(
            "{}: its first answer after starting, `{}`, differs from its answer when the same \
             case was sent again, `{}`: that row is judged on the first answer, the one it gave \
             the board; from now on a fresh process's repeat is judged, so the pattern costs \
             one row, not one per process started. A wrong first answer is a bug in the \
             program; answers one case late (behind an extra line) need exactly one line per \
             case",
            self.spec.name,
            clip(first, 80),
            clip(&line, 80)
        ));
        Exchange::Answer {
            line: first.to_string(),
            stderr: early.clone(),
            elapsed,
            usage,
        }
    }

    /// Says once that the program prints empty lines besides its answers.
    fn blank_notice(&self) {
        if !self.blank_said.swap(true, Ordering::SeqCst) {
            self.notice(format!(
                "{}: it prints empty lines besides its answers; they are skipped (an empty \
                 line is taken as an answer only for a case already at its goal), but print \
                 exactly one line per case",
                self.spec.name
            ));
        }
    }

    /// Runs every problem of the run through one process, once.
    fn batch(&self, timeout: Option<Duration>) -> &Result<Batch, String> {
        self.batch.get_or_init(|| {
            let mut input = String::new();
            let mut keys = Vec::new();
            for p in &self.problems {
                if let Ok(r) = Request::new(self.spec.protocol, self.spec.blank, p) {
                    input.push_str(&r.text);
                    keys.push((p.start, p.goal));
                }
            }
            let n = keys.len();
            let t0 = Instant::now();
            let total = timeout.map(|t| t * n.max(1) as u32);
            let (lines, why) =
                match process::run_once(&self.spec.command, &input, n, total, self.once()) {
                    Exchange::Answer { line, .. } => (line, String::new()),
                    other => (String::new(), describe(&other, "the batch")),
                };
            let wall = t0.elapsed();
            // No lines at all when the batch ended without its answers (`why` says how).
            let mut got: Vec<String> = if why.is_empty() {
                lines.split('\n').map(str::to_string).collect()
            } else {
                Vec::new()
            };
            got.truncate(n);
            let mut answers = HashMap::new();
            for (i, key) in keys.into_iter().enumerate() {
                let a = match got.get(i) {
                    Some(l) => Ok(l.clone()),
                    None => Err(format!(
                        "no answer line {} of {n} in batch mode{}",
                        i + 1,
                        if why.is_empty() {
                            String::new()
                        } else {
                            format!(": {why}")
                        }
                    )),
                };
                answers.entry(key).or_insert(a);
            }
            Ok(Batch { answers, wall })
        })
    }

    /// The outcome of one answer line.
    fn outcome(&self, request: &Request, line: &str) -> Result<Outcome, SolveError> {
        let sent = request.shown();
        let answer = parse_answer(self.spec.protocol, line).map_err(|e| {
            SolveError(format!(
                "sent `{sent}`, it printed `{}`, which is {e}{}",
                clip(line, 120),
                self.hint_for_answer(line)
            ))
        })?;
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
        o.note = Some(format!("sent `{sent}`, it printed `{}`", clip(line, 120)));
        Ok(o)
    }

    /// A hint for an answer that is not one.
    fn hint_for_answer(&self, line: &str) -> &'static str {
        if line.trim().is_empty() {
            "; an empty line: if the program prints a blank line after each answer, every \
             later answer is read one case late: print exactly one line per case"
        } else {
            ""
        }
    }

    /// A hint for a program that ended without answering.
    fn hint_for_death(&self, how: &str) -> String {
        let steps_x =
            self.spec.protocol == Protocol::Steps && self.spec.blank == super::protocol::Blank::X;
        if steps_x && how.starts_with("exited with status") {
            " (the blank was sent as `x`: a program that reads numbers stops there; pass \
             --solver-blank 0)"
                .into()
        } else {
            String::new()
        }
    }

    /// One case, in the current mode; `None` when the program runs in batch mode (the
    /// case's answer comes from the batch).
    fn exchange(
        &self,
        input: &str,
        timeout: Option<Duration>,
        skip_blank: bool,
    ) -> Option<Exchange> {
        loop {
            let ex = match self.mode() {
                Spawn::PerCase => {
                    process::run_once(&self.spec.command, input, 1, timeout, self.once())
                }
                Spawn::Batch => return None,
                Spawn::Persistent => match self.persistent(input, timeout, skip_blank) {
                    Ok(ex) => ex,
                    Err(Spawn::PerCase) => {
                        self.switch(Spawn::PerCase, "it exits after each answer");
                        continue;
                    }
                    Err(Spawn::Persistent) => {
                        if !self.pty.swap(true, Ordering::SeqCst) {
                            self.notice(format!(
                                "{}: it sleeps reading its input with its answer held in a \
                                 buffer (stdio buffers a pipe; it does not flush): giving it a \
                                 pseudo-terminal as stdout, where C stdio and Python write each \
                                 line at once (pass --solver-stdout pty to start that way, or \
                                 flush after each answer)",
                                self.spec.name
                            ));
                        }
                        continue;
                    }
                    Err(other) => {
                        self.switch(
                            other,
                            "it sleeps reading more input while a case is pending, so it \
                             answers only when its input ends (output it never flushes — C++ \
                             `cout` without `endl` or `flush`, a pipe instead of a terminal — or \
                             a program that reads all of its input first); per-case latency is \
                             not measured in batch mode",
                        );
                        return None;
                    }
                },
            };
            return Some(ex);
        }
    }
}

/// A message for an exchange that gave no answer.
fn describe(ex: &Exchange, what: &str) -> String {
    match ex {
        Exchange::Answer { .. } => String::new(),
        Exchange::Timeout { elapsed, .. } => {
            format!(
                "{what} gave no answer within {:.3} s",
                elapsed.as_secs_f64()
            )
        }
        Exchange::Died { how, stderr, .. } => format!("{what} {how}{}", stderr.describe()),
        Exchange::Failed(e) => e.clone(),
        Exchange::Stopped => "stopped".into(),
    }
}

/// The error for a program that printed more than its answer line.
fn extra_output(text: &str) -> Exchange {
    Exchange::Failed(format!(
        "printed `{}` after an answer line, before the next case was sent: a program prints \
         exactly one line per case on stdout (diagnostics go to stderr); if that was a blank \
         line after each answer, every later answer would be read one case late",
        clip(text.trim_end(), 120)
    ))
}

impl Solver for Program {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn claim(&self) -> crate::search::Claim {
        self.spec.claim
    }

    fn wants_problems(&self) -> bool {
        true
    }

    fn prepare(&mut self, _goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        self.sessions = (0..ctx.threads.max(1)).map(|_| Mutex::new(None)).collect();
        self.last = (0..ctx.threads.max(1)).map(|_| Mutex::new(None)).collect();
        self.problems = ctx.problems.to_vec();
        if self.mode() == Spawn::PerCase {
            self.startup_notice();
        }
        Ok(())
    }

    fn finish(&mut self) {
        // Ends the programs: end of input, then a kill of each process group.
        for s in &self.sessions {
            *s.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }

    fn facts(&self) -> Vec<(String, String)> {
        let mut f = vec![
            ("spawn".to_string(), self.mode().name().to_string()),
            (
                "stdout".to_string(),
                if self.pty.load(Ordering::SeqCst) {
                    "pty"
                } else {
                    "pipe"
                }
                .to_string(),
            ),
        ];
        if let Some(s) = self.startup.get() {
            f.push(("startup_us".into(), format!("{:.0}", s.as_secs_f64() * 1e6)));
        }
        if let Some(Ok(b)) = self.batch.get() {
            let n = b.answers.len().max(1);
            f.push(("batch_cases".into(), b.answers.len().to_string()));
            f.push((
                "batch_wall_s".into(),
                format!("{:.6}", b.wall.as_secs_f64()),
            ));
            f.push((
                "batch_mean_us".into(),
                format!("{:.1}", b.wall.as_secs_f64() * 1e6 / n as f64),
            ));
        }
        f
    }

    fn notices(&self) -> Vec<String> {
        std::mem::take(&mut *self.notices.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn stall_hint(&self) -> Option<String> {
        Some(format!(
            "a program answers each case with one line on stdout, flushed: fflush(stdout) in C, \
             `flush=True` or `python3 -u` in Python, `std::endl` or `std::flush` in C++, or run \
             it under `stdbuf -oL`; a program that reads all of its input first needs \
             --solver-spawn batch; it is stopped at --timeout (default {} s)",
            DEFAULT_TIMEOUT.as_secs()
        ))
    }

    /// Sends one case to the program and reads its answer (judged by the harness).
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        let request =
            Request::new(self.spec.protocol, self.spec.blank, problem).map_err(SolveError)?;
        if self.broken() {
            return Err(SolveError(format!(
                "not sent: the program was not started again, as its last {MAX_START_FAILURES} \
                 starts ended before it read its input, and it never answered (see the first \
                 rows' messages for how they ended)"
            )));
        }
        let timeout = Some(limits.timeout.unwrap_or(DEFAULT_TIMEOUT));
        let sent = request.shown();
        let restarted = match self.mode() {
            Spawn::Persistent => "; restarted for the next case",
            _ => "",
        };
        let fail = |e: String| Err(SolveError(e));
        let previous = self.previous(problem);
        // An empty line answers only a case already at its goal (`moves`: no moves).
        let skip_blank = self.spec.protocol == Protocol::Steps || problem.start != problem.goal;
        let Some(ex) = self.exchange(&request.text, timeout, skip_blank) else {
            return self.answer_from_batch(problem, &request, timeout);
        };
        let (line, counters, elapsed, usage) = match ex {
            Exchange::Answer {
                line,
                stderr,
                elapsed,
                usage,
            } => (line, stderr.counters, elapsed, usage),
            Exchange::Stopped => return fail("the run was stopped".into()),
            Exchange::Timeout {
                stderr,
                elapsed,
                unterminated,
            } => {
                let mut o = Outcome::out_of(crate::search::LimitReason::Time, Stats::default());
                o.reported = Some(stderr.counters);
                o.latency = Some(elapsed);
                o.note = Some(format!(
                    "no answer within {} {:.3} s to `{sent}`; killed{restarted}{}",
                    if limits.timeout.is_some() {
                        "--timeout"
                    } else {
                        "the default timeout of"
                    },
                    timeout.map_or(0.0, |t| t.as_secs_f64()),
                    if unterminated {
                        " (it had printed part of a line with no line end: end each answer \
                         with `\\n`)"
                    } else {
                        ""
                    }
                ));
                return Ok(o);
            }
            Exchange::Died { how, stderr, read } => {
                // A process that read its case and died crashed on this case: the next case
                // gets a new one. Only an end before reading counts against starting it.
                if !read {
                    self.failed_start();
                }
                return fail(format!(
                    "{how} without answering `{sent}`{}{}{restarted}",
                    self.hint_for_death(&how),
                    stderr.describe()
                ));
            }
            Exchange::Failed(e) => {
                self.failed_start();
                return fail(format!("{e} (case `{sent}`){restarted}"));
            }
        };
        self.answered.store(true, Ordering::SeqCst);
        self.failures.store(0, Ordering::SeqCst);
        let mut o = match self.outcome(&request, &line) {
            Ok(o) => o,
            Err(e) => {
                if self.mode() == Spawn::Persistent {
                    *self.slot().lock().unwrap_or_else(|e| e.into_inner()) = None;
                }
                return Err(SolveError(format!("{e}{restarted}")));
            }
        };
        let late = self.late_answer(problem, previous, &o);
        if !late.is_empty() {
            o.note = o.note.map(|n| format!("{n}{late}"));
        }
        o.reported = Some(if self.late_counters.load(Ordering::SeqCst) {
            Default::default()
        } else {
            counters
        });
        o.latency = Some(elapsed);
        o.usage = usage.map(|u| crate::search::Usage {
            cpu_us: u.cpu_us,
            max_rss_kb: u.max_rss_kb,
        });
        Ok(o)
    }
}

impl Program {
    /// A case's answer from the batch run (run now if it has not run yet).
    fn answer_from_batch(
        &self,
        problem: &Problem,
        request: &Request,
        timeout: Option<Duration>,
    ) -> Result<Outcome, SolveError> {
        let batch = self
            .batch(timeout)
            .as_ref()
            .map_err(|e| SolveError(e.clone()))?;
        let line = match batch.answers.get(&(problem.start, problem.goal)) {
            Some(Ok(line)) => line.clone(),
            Some(Err(e)) => return Err(SolveError(e.clone())),
            None => return Err(SolveError("not in the batch".into())),
        };
        self.answered.store(true, Ordering::SeqCst);
        let mut o = self.outcome(request, &line)?;
        o.latency = None;
        o.untimed = true;
        // One process answered every case: its stderr counters, if any, belong to no case in
        // particular. Unknown, never 0.
        o.reported = Some(crate::search::Counters::default());
        o.note = o.note.map(|n| {
            format!(
                "{n} (batch of {} cases in {:.3} s)",
                batch.answers.len(),
                batch.wall.as_secs_f64()
            )
        });
        Ok(o)
    }
}
