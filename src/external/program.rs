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

use super::naming::{worded, Naming};
use super::process::{self, Asked, Exchange, Launch, Session, Skip, Skipped, Take};
use super::protocol::{parse_answer, read_line, Answer, Protocol, Reading, Request, Spawn, Stdout};
use super::ExternalSolver;
use crate::observe::Wording;
use crate::puzzle::Board;
use crate::search::{Limits, Outcome, Prepare, Problem, Reply, SolveError, Solver, Stats, Status};
use crate::util::clip;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The longest a fresh process's first answer waits for the program to go back to reading
/// before its case is sent again ([`process::Session::settle`]).
const SETTLE: std::time::Duration = std::time::Duration::from_millis(100);

/// The per-case timeout of an external program when `--timeout` is not given: a program
/// that never answers becomes a `limit` row instead of stalling the run.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Start-up failures in a row (ended before reading its input, no answer ever) after which a
/// program is not started again.
pub(super) const MAX_START_FAILURES: usize = 3;

/// An external program as a [`Solver`]: timed and judged by the harness like every solver.
pub(crate) struct Program {
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
    notices: Mutex<Vec<Wording>>,
    /// The start-up cost of one process (`sh -c` and an empty program), once measured.
    startup: OnceLock<Duration>,
    /// Per worker: the last case sent, to tell an answer that is one case late.
    last: Vec<Mutex<LastCase>>,
    /// It prints its counters after its answer line: they cannot be credited to a case.
    late_counters: AtomicBool,
    /// How often each pattern said once was seen (the notice goes with the first).
    said: Mutex<HashMap<Said, usize>>,
    /// Per worker: the process id of its persistent program (0: none), for a look at what
    /// a case that takes long is doing.
    pids: Vec<AtomicI32>,
    /// The per-case timeout in milliseconds, for messages about slow cases.
    timeout_ms: std::sync::atomic::AtomicU64,
    /// `--max-memory` in bytes (0: none), the address-space limit of every process started.
    max_memory: std::sync::atomic::AtomicU64,
    /// A fresh process's first answer differed from its answer to the same case sent again:
    /// that row was judged on the first answer, and the notice was given.
    warm_up_differed: AtomicBool,
    /// It printed a line after an answer (a stray line, an answer twice): from then on each
    /// case waits for it to go back to reading before it is sent
    /// ([`process::Session::settle`]), so a late one is not taken for the next answer.
    strays: AtomicBool,
}

/// How a fresh process's first round trip went.
enum WarmUp {
    /// It answered: the line, its stderr, and the lines skipped before it.
    Answered(String, process::Stderr, Skipped),
    /// The case ends with this exchange (the process is done).
    Ended(Exchange),
    /// It went back to reading with nothing printed: it is to be run another way.
    Blocked,
}

/// A worker's last case, and the answer line it got.
type LastCase = Option<(Problem, Option<String>)>;

/// One batch run: every answer line, by the problem it answers.
struct Batch {
    answers: HashMap<(Board, Board), Result<String, String>>,
    /// The batch's wall time, from start to exit.
    wall: Duration,
}

const MODES: [Spawn; 3] = [Spawn::Persistent, Spawn::PerCase, Spawn::Batch];

/// The patterns a program is told about once, counted: the run's end gives the count of
/// each seen more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Said {
    /// Empty lines besides its answers.
    Blank,
    /// Answers printed again.
    Repeat,
    /// Lines that are not answers.
    NotAnswer,
    /// Answers after a label (`Case 1:`).
    Prefix,
    /// Answers without a line end.
    NoLineEnd,
    /// A second answer line for one case.
    TwoAnswers,
    /// An answer one case late.
    Late,
    /// A case still being computed when the stall notice would be given.
    Computing,
    /// A case in flight for long with the program asleep.
    Asleep,
}

impl Said {
    /// What was counted, for the closing count.
    fn what(self) -> &'static str {
        match self {
            Said::Blank => "empty lines skipped",
            Said::Repeat => "answers printed again, skipped",
            Said::NotAnswer => "answers with lines that are not answers before them",
            Said::Prefix => "answers after a label",
            Said::NoLineEnd => "answers without a line end",
            Said::TwoAnswers => "second answer lines for one case, skipped",
            Said::Late => "answers one case late",
            Said::Computing => "cases still computing after 5 s",
            Said::Asleep => "cases waiting asleep for 5 s",
        }
    }
}

impl Program {
    /// The program of `spec`; nothing runs until its first case.
    pub(crate) fn new(spec: ExternalSolver) -> Program {
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
            said: Mutex::new(HashMap::new()),
            pids: vec![AtomicI32::new(0)],
            timeout_ms: std::sync::atomic::AtomicU64::new(DEFAULT_TIMEOUT.as_millis() as u64),
            max_memory: std::sync::atomic::AtomicU64::new(0),
            warm_up_differed: AtomicBool::new(false),
            strays: AtomicBool::new(false),
        }
    }

    fn launch(&self) -> Launch {
        Launch {
            pty: self.pty.load(Ordering::SeqCst),
            max_memory: self.max_memory(),
        }
    }

    /// A process that reads one input and sees its end: its output is flushed at exit, so
    /// a pipe serves unless a pseudo-terminal was asked for.
    fn once(&self) -> Launch {
        Launch {
            pty: self.spec.stdout == Stdout::Pty,
            max_memory: self.max_memory(),
        }
    }

    /// `--max-memory`, as the last case was given it.
    fn max_memory(&self) -> Option<u64> {
        Some(self.max_memory.load(Ordering::Relaxed)).filter(|&b| b > 0)
    }

    fn mode(&self) -> Spawn {
        MODES[self.mode.load(Ordering::SeqCst) as usize]
    }

    /// Switches to `to` (once), with a notice that says why (`why`, naming the options with
    /// the [`Naming`] it is given).
    fn switch(&self, to: Spawn, why: &dyn Fn(&Naming) -> String) {
        let from = self.mode();
        let at = MODES.iter().position(|&m| m == to).expect("a mode") as u8;
        let was = self.mode.swap(at, Ordering::SeqCst);
        if MODES[was as usize] != to {
            self.notice(worded(|n| {
                format!(
                    "{}: {}; running it with {} {to} from now on (was {from}; {} {to} to start \
                     that way)",
                    self.spec.name,
                    why(n),
                    n.spawn,
                    n.set_spawn
                )
            }));
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
                match process::run_once(
                    "exec /bin/true",
                    "",
                    0,
                    Some(DEFAULT_TIMEOUT),
                    self.once(),
                    &|_| Take::Answer,
                ) {
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
    /// The calling worker's last case and the answer line it got, replaced by `now`.
    fn previous(&self, now: &Problem) -> LastCase {
        crate::util::for_worker(&self.last)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace((*now, None))
    }

    /// Records the answer line the calling worker's last case got.
    fn answered_with(&self, line: &str) {
        if let Some((_, l)) = crate::util::for_worker(&self.last)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            *l = Some(line.to_string());
        }
    }

    fn notice(&self, text: impl Into<Wording>) {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text.into());
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
        take: &dyn Fn(&str) -> Take,
    ) -> Result<Exchange, Spawn> {
        let mut slot = self.slot().lock().unwrap_or_else(|e| e.into_inner());
        let launch = self.launch();
        // Asleep reading with its answer held back: on a pipe in `auto`, a terminal may be
        // all it needs; otherwise it answers only when its input ends.
        let blocked = if !launch.pty && self.spec.stdout == Stdout::Auto {
            Spawn::Persistent
        } else {
            Spawn::Batch
        };
        let fresh = slot.is_none();
        if fresh {
            match Session::start(&self.spec.command, launch) {
                Ok(s) => *slot = Some(s),
                Err(e) => return Ok(Exchange::Failed(e.to_string())),
            }
            if let Some(s) = slot.as_ref() {
                self.set_pid(s.pid());
            }
        }
        let session = slot.as_mut().expect("a session");
        let warm_up = if fresh {
            match self.warm_up(session, input, timeout, take) {
                WarmUp::Answered(line, stderr, skipped) => Some((line, stderr, skipped)),
                WarmUp::Ended(ex) => {
                    *slot = None;
                    return Ok(ex);
                }
                WarmUp::Blocked => {
                    *slot = None;
                    return Err(blocked);
                }
            }
        } else {
            None
        };
        // The peak resident memory over this case alone: reset before it is sent (outside
        // its round trip), read once it is answered.
        let pid = session.pid();
        if warm_up.is_some() || self.strays.load(Ordering::Relaxed) {
            // Before the same case goes again, or the next case of a program that prints
            // lines after its answers: what it prints after an answer is that answer's, not
            // the next one (a loaded machine, or a sleep, may deliver it late).
            session.settle(SETTLE);
        }
        let peak = process::reset_peak_rss(pid);
        let mut ex = match session.ask(input, timeout, take) {
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
            Asked::Blocked => {
                *slot = None;
                return Err(blocked);
            }
        };
        let warm_up = warm_up.map(|(line, stderr, before)| {
            // What it printed before its first answer counts for the row judged.
            if let Exchange::Answer { skipped, .. } = &mut ex {
                skipped.absorb(before);
            }
            (line, stderr)
        });
        match &mut ex {
            Exchange::Answer { peak_rss_kb, .. } if peak => {
                *peak_rss_kb = process::peak_rss_kb(pid)
            }
            Exchange::Answer { .. } => {}
            _ => *slot = None,
        }
        if let (Some((first, early)), Exchange::Answer { line, stderr, .. }) = (&warm_up, &ex) {
            // The same case twice: counters seen only in the second exchange were printed
            // after the first answer, and would be credited to the next case.
            let none = crate::search::Counters::default();
            if early.counters == none && stderr.counters != none {
                self.counters_late();
            }
            if !self.same_answer(first, line) {
                return Ok(self.warm_up_differs(slot, first, early, ex));
            }
        }
        Ok(ex)
    }

    /// A fresh process's first round trip (the case is asked again after it).
    fn warm_up(
        &self,
        session: &mut Session,
        input: &str,
        timeout: Option<Duration>,
        take: &dyn Fn(&str) -> Take,
    ) -> WarmUp {
        match session.ask(input, timeout, take) {
            Asked::Done(Exchange::Answer {
                line,
                stderr,
                skipped,
                ..
            }) => {
                // It started and answered: whatever happens next is not a failed start.
                self.answered.store(true, Ordering::SeqCst);
                WarmUp::Answered(line, stderr, skipped)
            }
            Asked::Done(ex) => WarmUp::Ended(ex),
            // Ended before it read its case (a command the shell cannot find, a program that
            // exits at once): its exit status and stderr say why.
            Asked::Gone => WarmUp::Ended(session.gone()),
            Asked::Blocked => WarmUp::Blocked,
        }
    }

    /// Whether two answer lines say the same (a label such as `Case 1:` aside).
    fn same_answer(&self, a: &str, b: &str) -> bool {
        let answer = |l: &str| match read_line(self.spec.protocol, l) {
            Reading::Answer(a) | Reading::Prefixed { answer: a, .. } => Some(a),
            _ => None,
        };
        match (answer(a), answer(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a.trim() == b.trim(),
        }
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
            peak_rss_kb: None,
            skipped: Skipped::default(),
            unterminated: false,
        }
    }

    /// Counts one occurrence of `what`; the first time, gives the notice `text()`.
    fn say_once<W: Into<Wording>>(&self, what: Said, text: impl FnOnce() -> W) {
        if self.say_first(what, ()).is_some() {
            self.notice(text());
        }
    }

    /// Counts one occurrence of `what`; `text` the first time, else `None`.
    fn say_first<T>(&self, what: Said, text: T) -> Option<T> {
        let mut said = self.said.lock().unwrap_or_else(|e| e.into_inner());
        let n = said.entry(what).or_insert(0);
        *n += 1;
        (*n == 1).then_some(text)
    }

    /// Notices for the lines skipped on the way to an answer, each pattern said once.
    fn skipped_lines(&self, skipped: &Skipped) {
        let name = &self.spec.name;
        if skipped.extra_shown.is_some() || skipped.repeats > 0 {
            self.strays.store(true, Ordering::Relaxed);
        }
        if skipped.blank > 0 {
            self.say_once(Said::Blank, || {
                format!(
                    "{name}: it prints empty lines besides its answers; they are skipped (an \
                     empty line is taken as an answer only for a case already at its goal), \
                     but print exactly one line per case"
                )
            });
        }
        if skipped.repeats > 0 {
            self.say_once(Said::Repeat, || {
                format!(
                    "{name}: it prints an answer again after it was read (each answer twice, \
                     say); the repeats are skipped, and no case is judged on another case's \
                     answer, but print exactly one line per case"
                )
            });
        }
        if let Some(first) = &skipped.extra_shown {
            self.say_once(Said::TwoAnswers, || {
                format!(
                    "{name}: it printed a second answer line after the one taken for a case \
                     (`{first}`); it was skipped before the next case was sent, so no later \
                     answer is read one case late, but print exactly one line per case"
                )
            });
        }
        if skipped.other > 0 {
            let first = skipped.shown.first().cloned().unwrap_or_default();
            self.say_once(Said::NotAnswer, || {
                worded(|n| {
                    format!(
                        "{name}: it prints lines that are not answers on stdout, such as \
                         `{first}`; they are skipped and the answer line after them is judged \
                         (print diagnostics on stderr; {} makes such a line an error)",
                        n.strict
                    )
                })
            });
        }
    }

    /// Remembers the calling worker's process id, for [`Solver::stalled`].
    fn set_pid(&self, pid: i32) {
        crate::util::for_worker(&self.pids).store(pid, Ordering::Relaxed);
    }

    /// Runs every problem of the run through one process, once.
    fn batch(&self, timeout: Option<Duration>) -> &Result<Batch, String> {
        self.batch.get_or_init(|| {
            let mut input = String::new();
            let mut keys = Vec::new();
            let mut sent = Vec::new();
            for p in &self.problems {
                if let Ok(r) = Request::new(self.spec.protocol, self.spec.blank, p) {
                    input.push_str(&r.text);
                    keys.push((p.start, p.goal));
                    sent.push((*p, r));
                }
            }
            let n = keys.len();
            let t0 = Instant::now();
            let total = timeout.map(|t| t * n.max(1) as u32);
            // The batch's answer lines are matched to its cases in order, as they come:
            // lines that cannot be answers, empty lines where the case's answer cannot be
            // empty, and repeats of the answer before are skipped as in persistent mode.
            let at = std::cell::Cell::new(0usize);
            let last = std::cell::RefCell::new(None::<String>);
            let take = |l: &str| {
                let Some((problem, request)) = sent.get(at.get()) else {
                    return Take::Answer;
                };
                let before = at
                    .get()
                    .checked_sub(1)
                    .map(|i| (sent[i].0, last.borrow().clone()));
                let t = self.judge_read(problem, request, before.as_ref(), l);
                if t == Take::Answer {
                    at.set(at.get() + 1);
                    *last.borrow_mut() = Some(l.to_string());
                }
                t
            };
            let (lines, why) =
                match process::run_once(&self.spec.command, &input, n, total, self.once(), &take) {
                    Exchange::Answer { line, skipped, .. } => {
                        self.skipped_lines(&skipped);
                        (line, String::new())
                    }
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

    /// The reply of one answer line (its outcome, and the line quoted). An answer after a
    /// label (`Case 1: …`) is judged, with one notice for the program; with --solver-strict,
    /// it is an error.
    fn reply_to(&self, request: &Request, line: &str) -> Result<Reply, SolveError> {
        let sent = request.shown();
        let answer = match read_line(self.spec.protocol, line) {
            Reading::Answer(a) => a,
            Reading::Prefixed { prefix, answer } => {
                if self.spec.strict {
                    return Err(SolveError::new(worded(|n| {
                        format!(
                            "sent `{sent}`, it printed `{}`: an answer after the label `{}`, \
                             and {} takes only the answer alone on its line",
                            clip(line, 120),
                            clip(&prefix, 40),
                            n.strict
                        )
                    })));
                }
                self.say_once(Said::Prefix, || {
                    worded(|n| {
                        format!(
                            "{}: its answers come after a label, as in `{}`; the answer after \
                             `{}` is judged (a judge would refuse the line: print the answer \
                             alone, or {} to grade it that way)",
                            self.spec.name,
                            clip(line, 80),
                            clip(&prefix, 40),
                            n.set_strict
                        )
                    })
                });
                answer
            }
            Reading::Blank | Reading::NotAnswer => {
                // An empty line is an answer under `moves` (no moves: a case at its goal).
                let e = match parse_answer(self.spec.protocol, line) {
                    Ok(a) => return Ok(self.reply_of(request, line, a)),
                    Err(e) => e,
                };
                return Err(SolveError::new(worded(|n| {
                    format!(
                        "sent `{sent}`, it printed `{}`, which is {e}{}",
                        clip(line, 120),
                        self.hint_for_answer(n, line)
                    )
                })));
            }
        };
        Ok(self.reply_of(request, line, answer))
    }

    /// The reply of an answer read from `line`: its outcome, and the line quoted.
    fn reply_of(&self, request: &Request, line: &str, answer: Answer) -> Reply {
        let sent = request.shown();
        let o = match answer {
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
        let mut r = Reply::from(o);
        r.report.note = Some(format!("sent `{sent}`, it printed `{}`", clip(line, 120)));
        r
    }

    /// A hint for an answer that is not one, naming the options with `n`.
    fn hint_for_answer(&self, n: &Naming, line: &str) -> String {
        let t = line.trim();
        if t.is_empty() {
            "; an empty line: if the program prints a blank line after each answer, every \
             later answer is read one case late: print exactly one line per case"
                .into()
        } else if self.spec.protocol == Protocol::Moves && t.parse::<u64>().is_ok() {
            format!(
                "; a number: a program that prints the number of moves (and reads the start \
                 and the goal) is run with {}",
                n.steps
            )
        } else {
            String::new()
        }
    }

    /// A hint for a program that read its case and ended without answering, with the blank
    /// sent as `x`: one that reads numbers stops there. Given where that is what the
    /// evidence says: it exited with status 0 and said nothing on stderr (`while (cin >> n)`
    /// ends), or its stderr names the `x` or a failed number parse.
    fn hint_for_death(&self, n: &Naming, how: &str, stderr: &process::Stderr) -> String {
        let x = self.spec.blank == super::protocol::Blank::X;
        let tail = stderr.tail.join("\n");
        let quiet_exit = how.starts_with("exited with status 0") && stderr.tail.is_empty();
        let parse_failed = [
            "'x'",
            "\"x\"",
            "invalid literal",
            "NumberFormatException",
            "stoi",
            "invalid_argument",
            "ParseIntError",
        ]
        .iter()
        .any(|w| tail.contains(w));
        if x && (quiet_exit || parse_failed) {
            format!(
                " (the blank was sent as `x`: a program that reads the board as numbers stops \
                 there; if it reads numbers, {})",
                n.set_blank_zero
            )
        } else {
            String::new()
        }
    }

    /// What to make of each line the program prints for `problem`: see
    /// [`Program::judge_read`]. A process started for this case alone cannot repeat an
    /// earlier answer, so `before` counts in persistent mode only.
    fn taker<'a>(
        &'a self,
        problem: &'a Problem,
        request: &'a Request,
        before: LastCase,
    ) -> impl Fn(&str) -> Take + 'a {
        let before = before.filter(|_| self.mode() == Spawn::Persistent);
        move |line: &str| self.judge_read(problem, request, before.as_ref(), line)
    }

    /// What a line printed for `problem` is: empty lines where the answer cannot be empty
    /// and lines that cannot be answers are skipped, and so is the previous case's answer
    /// printed again (`before`: that case, and the line taken as its answer): a path that
    /// solves the case before and not this one, or the same `unsolvable` for a case that
    /// parity says is solvable. (Taken when nothing else comes: a program that goes back
    /// to reading is judged on it.) With `steps`, a number cannot be told from a repeat.
    fn judge_read(
        &self,
        problem: &Problem,
        request: &Request,
        before: Option<&(Problem, Option<String>)>,
        line: &str,
    ) -> Take {
        // An empty line answers only a case already at its goal (`moves`: no moves).
        let skip_blank = self.spec.protocol == Protocol::Steps || problem.start != problem.goal;
        let answer = match read_line(self.spec.protocol, line) {
            Reading::Blank if skip_blank => return Take::Skip(Skip::Blank),
            Reading::NotAnswer => return Take::Skip(Skip::NotAnswer),
            Reading::Answer(a) | Reading::Prefixed { answer: a, .. } => a,
            Reading::Blank => return Take::Answer,
        };
        let Some((prev, prev_line)) = before else {
            return Take::Answer;
        };
        let repeat = match answer {
            Answer::Moves(m) => late(prev, problem, &request.framing.to_original(&m)),
            Answer::Unsolvable => {
                self.spec.protocol == Protocol::Moves
                    && crate::puzzle::is_solvable(&problem.start, &problem.goal)
                    && prev_line.as_deref().map(str::trim) == Some(line.trim())
            }
            Answer::Steps(_) => false,
        };
        if repeat {
            Take::Skip(Skip::Repeat)
        } else {
            Take::Answer
        }
    }

    /// One case, in the current mode; `None` when the program runs in batch mode (the
    /// case's answer comes from the batch).
    fn exchange(
        &self,
        input: &str,
        timeout: Option<Duration>,
        take: &dyn Fn(&str) -> Take,
    ) -> Option<Exchange> {
        loop {
            let ex = match self.mode() {
                Spawn::PerCase => {
                    process::run_once(&self.spec.command, input, 1, timeout, self.once(), take)
                }
                Spawn::Batch => return None,
                Spawn::Persistent => match self.persistent(input, timeout, take) {
                    Ok(ex) => ex,
                    Err(Spawn::PerCase) => {
                        self.switch(Spawn::PerCase, &|_| "it exits after each answer".into());
                        continue;
                    }
                    Err(Spawn::Persistent) => {
                        if !self.pty.swap(true, Ordering::SeqCst) {
                            self.notice(worded(|n| {
                                format!(
                                    "{}: it went back to reading its input with a case sent \
                                     and nothing printed: its answer is likely held in a stdio \
                                     buffer (stdio buffers a pipe, and it does not flush): \
                                     giving it a pseudo-terminal as stdout, where C stdio and \
                                     Python write each line at once ({} to start that way, or \
                                     flush after each answer)",
                                    self.spec.name, n.set_pty
                                )
                            }));
                        }
                        continue;
                    }
                    Err(other) => {
                        let moves = self.spec.protocol == Protocol::Moves;
                        self.switch(other, &|n| {
                            let steps = if moves {
                                format!(
                                    "; or a program that reads a start and a goal per case, \
                                     which needs {}",
                                    n.steps
                                )
                            } else {
                                String::new()
                            };
                            format!(
                                "it went back to reading more input with a case pending and \
                                 nothing printed, even on a terminal, so it answers only when \
                                 its input ends (output it never flushes — C++ `cout` without \
                                 `endl` or `flush` — or a program that reads all of its input \
                                 first{steps}); per-case latency is not measured in batch mode"
                            )
                        });
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

impl Solver for Program {
    fn in_process(&self) -> bool {
        false
    }
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
        self.pids = (0..ctx.threads.max(1)).map(|_| AtomicI32::new(0)).collect();
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
        // Each pattern said once is counted at the end, when it was seen more than once.
        let said = std::mem::take(&mut *self.said.lock().unwrap_or_else(|e| e.into_inner()));
        let mut counts: Vec<(Said, usize)> = said.into_iter().filter(|&(_, n)| n > 1).collect();
        counts.sort_by_key(|&(what, _)| what as u8);
        if !counts.is_empty() {
            let list: Vec<String> = counts
                .iter()
                .map(|(what, n)| format!("{n} {}", what.what()))
                .collect();
            self.notice(format!(
                "{}: in all, {} (each said once above)",
                self.spec.name,
                list.join(", ")
            ));
        }
    }

    fn facts(&self) -> Vec<(String, String)> {
        let mut f = vec![
            ("spawn".to_string(), self.mode().name().to_string()),
            // What latency_ns measured, in the mode it ended in (external_solvers says what
            // was asked for, before any switch).
            (
                "latency".to_string(),
                super::latency_meaning(self.mode()).to_string(),
            ),
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

    fn notices(&self) -> Vec<Wording> {
        std::mem::take(&mut *self.notices.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Looks at what the program does before saying anything: a program using CPU is still
    /// computing (said once for the program, with the timeout); one asleep is waiting for
    /// something (said once too). Flushing advice is not given here: a program asleep
    /// reading its input with a case pending is found within a second and run another way.
    fn stalled(&self, worker: usize, case: &str, elapsed: Duration) -> Option<Wording> {
        let timeout = Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed));
        let pid = self
            .pids
            .get(worker)
            .map_or(0, |p| p.load(Ordering::Relaxed));
        let pid = if self.mode() == Spawn::Persistent {
            pid
        } else {
            0
        };
        let name = &self.spec.name;
        if self.mode() == Spawn::Batch {
            // One process answers every case: the case in flight waits for the whole batch.
            let n = self.problems.len().max(1) as u32;
            return self
                .say_first(
                    Said::Computing,
                    format!(
                        "{name}: its batch (one process for all {n} cases) is still running after \
                     {} s; it is stopped after {:.1} s (the timeout for each of its cases)",
                        elapsed.as_secs(),
                        (timeout * n).as_secs_f64()
                    ),
                )
                .map(Wording::from);
        }
        let (what, text) = match process::activity(pid, Duration::from_millis(100)) {
            process::Activity::Asleep => (
                Said::Asleep,
                Wording::from(format!(
                    "{name}: has not answered {case} for {} s and uses no CPU: it waits for \
                     something other than its input (a child, a lock, a file, a timer); it is \
                     stopped at the timeout of {:.1} s",
                    elapsed.as_secs(),
                    timeout.as_secs_f64()
                )),
            ),
            process::Activity::Computing => (
                Said::Computing,
                worded(|n| {
                    format!(
                        "{name}: still computing {case} after {} s (using CPU); a case it does \
                         not answer within the timeout of {:.1} s is a `limit` row ({} gives \
                         longer); said once for the program",
                        elapsed.as_secs(),
                        timeout.as_secs_f64(),
                        n.longer_timeout
                    )
                }),
            ),
            // A process per case, or /proc cannot tell: what is known, and no guess.
            process::Activity::Unknown => (
                Said::Computing,
                worded(|n| {
                    format!(
                        "{name}: has not answered {case} after {} s; a case it does not answer \
                         within the timeout of {:.1} s is a `limit` row ({} gives longer); \
                         said once for the program",
                        elapsed.as_secs(),
                        timeout.as_secs_f64(),
                        n.longer_timeout
                    )
                }),
            ),
        };
        self.say_first(what, text)
    }

    /// Sends one case to the program and reads its answer, as the harness does.
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        self.reply(problem, limits).map(|r| r.outcome)
    }

    /// Sends one case to the program and reads its answer (judged by the harness), with the
    /// program's round trip, its process's usage and the line it printed.
    fn reply(&self, problem: &Problem, limits: &Limits) -> Result<Reply, SolveError> {
        let request =
            Request::new(self.spec.protocol, self.spec.blank, problem).map_err(SolveError::new)?;
        if self.broken() {
            return Err(SolveError::new(format!(
                "not sent: the program was not started again, as its last {MAX_START_FAILURES} \
                 starts ended before it read its input, and it never answered (see the first \
                 rows' messages for how they ended)"
            )));
        }
        let timeout = Some(limits.timeout.unwrap_or(DEFAULT_TIMEOUT));
        self.max_memory
            .store(limits.max_memory.unwrap_or(0), Ordering::Relaxed);
        self.timeout_ms.store(
            timeout.map_or(0, |t| t.as_millis() as u64),
            Ordering::Relaxed,
        );
        let before = self.previous(problem);
        let previous = before.as_ref().map(|b| b.0);
        let take = self.taker(problem, &request, before);
        let Some(ex) = self.exchange(&request.text, timeout, &take) else {
            return self.answer_from_batch(problem, &request, timeout);
        };
        match ex {
            Exchange::Answer {
                line,
                stderr,
                elapsed,
                usage,
                peak_rss_kb,
                skipped,
                unterminated,
            } => {
                self.answered_with(&line);
                let mut r =
                    self.judge_line(problem, &request, previous, &line, &skipped, unterminated)?;
                r.outcome.reported = Some(if self.late_counters.load(Ordering::SeqCst) {
                    Default::default()
                } else {
                    stderr.counters
                });
                r.report.latency = Some(elapsed);
                r.report.usage = usage.map(|u| crate::search::Usage {
                    cpu_us: u.cpu_us,
                    max_rss_kb: u.max_rss_kb,
                });
                r.report.peak_rss_kb = peak_rss_kb;
                Ok(r)
            }
            other => self.no_answer(other, &request, limits, timeout),
        }
    }
}

/// Whether `path` (on the row's boards) solves the case `prev` sent before `now`, and not
/// `now`: the previous case's answer.
fn late(prev: &Problem, now: &Problem, path: &[crate::puzzle::Move]) -> bool {
    let reaches = |p: &Problem| p.start.replay(path).ok() == Some(p.goal);
    prev != now && !reaches(now) && reaches(prev)
}

impl Program {
    /// `; restarted for the next case` in persistent mode, where a row's failure ends the
    /// process; nothing otherwise.
    fn restarted(&self) -> &'static str {
        match self.mode() {
            Spawn::Persistent => "; restarted for the next case",
            _ => "",
        }
    }

    /// Ends the calling worker's process (persistent mode): it is out of step.
    fn restart(&self) {
        if self.mode() == Spawn::Persistent {
            *self.slot().lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }

    /// The outcome of the answer line the program gave `problem`, after the lines skipped
    /// on the way; an error for a line that is not an answer, an answer one case late
    /// (a protocol error: the process is restarted), and, with --solver-strict, any line
    /// skipped or an answer without its line end.
    fn judge_line(
        &self,
        problem: &Problem,
        request: &Request,
        previous: Option<Problem>,
        line: &str,
        skipped: &Skipped,
        unterminated: bool,
    ) -> Result<Reply, SolveError> {
        self.answered.store(true, Ordering::SeqCst);
        self.failures.store(0, Ordering::SeqCst);
        let (sent, restarted) = (request.shown(), self.restarted());
        // The answer line was read: the program is in step, whatever is wrong with the line.
        if self.spec.strict && (!skipped.is_empty() || unterminated) {
            let what = match (skipped.shown.first(), &skipped.extra_shown) {
                (Some(l), _) | (None, Some(l)) => {
                    format!("printed `{l}` besides its answer (before it, or after the last)")
                }
                _ if skipped.repeats > 0 => "printed an answer again".into(),
                _ if skipped.blank > 0 => "printed an empty line besides its answer".into(),
                _ => "printed its answer without a line end".into(),
            };
            return Err(SolveError::new(worded(|n| {
                format!(
                    "sent `{sent}`, it {what} `{}`: {} takes exactly one answer line per case \
                     and nothing else on stdout",
                    clip(line, 120),
                    n.strict
                )
            })));
        }
        self.skipped_lines(skipped);
        if unterminated {
            self.say_once(Said::NoLineEnd, || {
                format!(
                    "{}: it prints no line end after its answer (`{}`, then it went back to \
                     reading): what it printed is taken as its answer when it does, which \
                     adds up to {} ms to latency_ns; end each answer with `\\n`",
                    self.spec.name,
                    clip(line, 80),
                    process::UNTERMINATED_LOOK.as_millis()
                )
            });
        }
        let o = self.reply_to(request, line)?;
        if let (Some(prev), Some(path)) = (previous, o.outcome.path.as_ref()) {
            if late(&prev, problem, path) {
                self.restart();
                self.say_once(Said::Late, || {
                    format!(
                        "{}: an answer came one case late (it solves the case sent before); \
                         that row is an error, not a wrong answer, and the program is started \
                         again so that later rows are judged on their own answers",
                        self.spec.name
                    )
                });
                return Err(SolveError::new(format!(
                    "protocol error: sent `{sent}`, it printed `{}`, which solves the case sent \
                     before it (`{}`), not this one: the answer is one case late (print \
                     exactly one line per case){restarted}",
                    clip(line, 120),
                    prev.start
                )));
            }
        }
        Ok(o)
    }

    /// The row of an exchange that gave no answer: a limit at the timeout, else an error
    /// that says how the program ended.
    fn no_answer(
        &self,
        ex: Exchange,
        request: &Request,
        limits: &Limits,
        timeout: Option<Duration>,
    ) -> Result<Reply, SolveError> {
        let (sent, restarted) = (request.shown(), self.restarted());
        let fail = |e: Wording| Err(SolveError::new(e));
        match ex {
            Exchange::Answer { .. } => fail("answered".into()),
            Exchange::Stopped => fail("the run was stopped".into()),
            Exchange::Timeout {
                stderr,
                elapsed,
                unterminated,
            } => {
                let mut o = Outcome::out_of(crate::search::LimitReason::Time, Stats::default());
                o.reported = Some(stderr.counters);
                let mut r = Reply::from(o);
                r.report.latency = Some(elapsed);
                r.report.note = Some(format!(
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
                Ok(r)
            }
            Exchange::Died {
                how,
                stderr,
                read,
                max_rss_kb,
            } => {
                if let Some(r) = out_of_memory(limits, read, &how, &stderr, max_rss_kb, &sent) {
                    return Ok(r);
                }
                // A process that read its case and died crashed on this case: the next case
                // gets a new one. Only an end before reading counts against starting it.
                if !read {
                    self.failed_start();
                }
                let hint = |n: &Naming| {
                    if read {
                        self.hint_for_death(n, &how, &stderr)
                    } else {
                        String::new()
                    }
                };
                fail(worded(|n| {
                    format!(
                        "{how} without answering `{sent}`{}{}{restarted}",
                        hint(n),
                        stderr.describe()
                    )
                }))
            }
            Exchange::Failed(e) => {
                self.failed_start();
                fail(format!("{e} (case `{sent}`){restarted}").into())
            }
        }
    }
}

impl Program {
    /// A case's answer from the batch run (run now if it has not run yet).
    fn answer_from_batch(
        &self,
        problem: &Problem,
        request: &Request,
        timeout: Option<Duration>,
    ) -> Result<Reply, SolveError> {
        let batch = self
            .batch(timeout)
            .as_ref()
            .map_err(|e| SolveError::new(e.clone()))?;
        let line = match batch.answers.get(&(problem.start, problem.goal)) {
            Some(Ok(line)) => line.clone(),
            Some(Err(e)) => return Err(SolveError::new(e.clone())),
            None => return Err(SolveError::new("not in the batch")),
        };
        self.answered.store(true, Ordering::SeqCst);
        let mut r = self.reply_to(request, &line)?;
        r.report.latency = None;
        r.report.untimed = true;
        // One process answered every case: its stderr counters, if any, belong to no case in
        // particular. Unknown, never 0.
        r.outcome.reported = Some(crate::search::Counters::default());
        r.report.note = r.report.note.map(|n| {
            format!(
                "{n} (batch of {} cases in {:.3} s)",
                batch.answers.len(),
                batch.wall.as_secs_f64()
            )
        });
        Ok(r)
    }
}

/// Words a program's stderr says it ran out of memory with: Python's `MemoryError`, C's
/// `strerror(ENOMEM)`, C++'s `std::bad_alloc`, Rust's `memory allocation of N bytes failed`.
const OUT_OF_MEMORY_WORDS: [&str; 6] = [
    "memoryerror",
    "out of memory",
    "cannot allocate memory",
    "bad_alloc",
    "memory allocation of",
    "failed to allocate",
];

/// A program that died on its case under `--max-memory` ran out of it when its stderr says
/// so ([`OUT_OF_MEMORY_WORDS`]) or its peak resident memory (per-case mode) reached half the
/// budget: `RLIMIT_AS` made an allocation fail, and the program crashed or gave up. The row
/// is then `limit`, reason `memory`, and the note says why; `None` for any other death.
fn out_of_memory(
    limits: &Limits,
    read: bool,
    how: &str,
    stderr: &process::Stderr,
    max_rss_kb: Option<u64>,
    sent: &str,
) -> Option<Reply> {
    let budget = limits.max_memory.filter(|_| read)?;
    let said = stderr.tail.iter().find(|line| {
        let lower = line.to_ascii_lowercase();
        OUT_OF_MEMORY_WORDS.iter().any(|w| lower.contains(w))
    });
    let why = match (said, max_rss_kb) {
        (Some(line), _) => format!("it said `{}`", clip(line, 80)),
        (None, Some(kb)) if kb.saturating_mul(1024) >= budget / 2 => {
            format!("its peak resident memory was {kb} kB")
        }
        _ => return None,
    };
    let mut o = Outcome::out_of(crate::search::LimitReason::Memory, Stats::default());
    o.reported = Some(stderr.counters);
    let mut r = Reply::from(o);
    r.report.peak_rss_kb = max_rss_kb;
    r.report.note = Some(format!(
        "{how} without answering `{sent}` under --max-memory {budget} (its address-space \
         limit): out of memory, as {why}"
    ));
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::super::naming::{FLAGS, WORDS};
    use super::*;
    use crate::external::protocol::Blank;

    fn program(protocol: Protocol) -> Program {
        let spec = ExternalSolver::parse("dbg=true", protocol, Blank::X, Spawn::Persistent);
        Program::new(spec.expect("a program"))
    }

    /// The hints a program's errors end with name its options in the library's words, and
    /// with the command line's flags, the rest of the sentence the same.
    #[test]
    fn a_programs_hints_name_its_options_in_words_or_with_flags() {
        let p = program(Protocol::Moves);
        let number = |steps: &str| {
            format!(
                "; a number: a program that prints the number of moves (and reads the start and \
                 the goal) is run with {steps}"
            )
        };
        assert_eq!(
            p.hint_for_answer(&FLAGS, "12"),
            number("--solver-protocol steps")
        );
        assert_eq!(
            p.hint_for_answer(&WORDS, "12"),
            number("the protocol steps")
        );
        assert_eq!(p.hint_for_answer(&WORDS, "r r"), "");
        let quiet = process::Stderr::default();
        let blank = |zero: &str| {
            format!(
                " (the blank was sent as `x`: a program that reads the board as numbers stops \
                 there; if it reads numbers, {zero})"
            )
        };
        let status_0 = "exited with status 0";
        assert_eq!(
            p.hint_for_death(&FLAGS, status_0, &quiet),
            blank("pass --solver-blank 0")
        );
        assert_eq!(
            p.hint_for_death(&WORDS, status_0, &quiet),
            blank("set its blank to 0")
        );
        assert_eq!(p.hint_for_death(&WORDS, "killed by signal 9", &quiet), "");
    }

    /// A case that takes long is said once, naming the timeout as the limits do, or as
    /// `--timeout` on the command line; the second time, nothing is said.
    #[test]
    fn a_slow_case_names_the_timeout_or_its_flag() {
        let p = program(Protocol::Moves);
        let w = p
            .stalled(0, "case 1", Duration::from_secs(5))
            .expect("said the first time");
        let said = |timeout: &str| {
            format!(
                "dbg: has not answered case 1 after 5 s; a case it does not answer within the \
                 timeout of 10.0 s is a `limit` row ({timeout} gives longer); said once for the \
                 program"
            )
        };
        assert_eq!(w.words(), said("a longer timeout"));
        assert_eq!(w.with_flags(), said("--timeout"));
        assert_eq!(p.stalled(0, "case 1", Duration::from_secs(6)), None);
    }

    /// A strict program's error names the option in the library's words (its text), and the
    /// flag as the command line and cases.csv say it.
    #[test]
    fn a_strict_programs_error_names_the_option_or_the_flag() {
        let mut spec =
            ExternalSolver::parse("dbg=echo r", Protocol::Moves, Blank::X, Spawn::Persistent)
                .expect("a program");
        spec.strict = true;
        let p = Program::new(spec);
        let problem = Problem::new(
            "1 2 3 4 5 6 7 x 8".parse().expect("a board"),
            "1 2 3 4 5 6 7 8 x".parse().expect("a board"),
        )
        .expect("one shape");
        let request = Request::new(Protocol::Moves, Blank::X, &problem).expect("a request");
        let e = p.reply_to(&request, "Case 1: r").expect_err("strict");
        let said = |strict: &str| {
            format!(
                "sent `1 2 3 4 5 6 7 x 8`, it printed `Case 1: r`: an answer after the label \
                 `Case 1:`, and {strict} takes only the answer alone on its line"
            )
        };
        assert_eq!(e.to_string(), said("strict (the option)"));
        assert_eq!(e.message_with_flags(), said("--solver-strict"));
    }
}
