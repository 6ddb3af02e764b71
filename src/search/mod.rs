//! Search strategies. Each strategy lives in its own file and returns the same [`Outcome`],
//! with the same counters ([`Stats`]) so their work can be compared:
//!
//! - **expanded**: states whose successors were generated (popped, not discarded as stale);
//! - **generated**: successor states created, duplicates included. Every strategy skips the
//!   move that would undo the one that made the state (it leads straight back to the parent),
//!   so that move is never generated or counted;
//! - **stored**: distinct states held by the duplicate-detection structure at its peak;
//! - **peak_frontier**: the largest size of the queue or open list.

pub(crate) mod bfs;
mod claim;
pub mod configuration;
pub mod fsm;
pub mod heuristic;
mod informed;
pub mod options;
pub mod registry;
mod solver;
mod transpositions;
pub(crate) mod wide;
pub(crate) mod wide_pdb;

// The built-in strategies, one file each (with a `pub(crate) const STRATEGY: Builtin`).
// Adding one is its file, its `pub(crate) mod` line and its line in `strategies.rs` (its
// constant, in the order output rows use). The registry and the constants are their public
// door; a module is `pub` only where its search function is public API (astar, greedy,
// idastar, wastar) or a test reaches into it.
pub mod astar;
pub mod bfs_hash;
pub(crate) mod bfs_hashset;
pub(crate) mod bfs_rank;
pub(crate) mod bfs_set;
pub(crate) mod bibfs;
pub(crate) mod dida;
pub mod greedy;
pub mod idastar;
pub(crate) mod idastar_tt;
pub(crate) mod table;
pub mod wastar;
/// The built-in strategies, in the order output rows use ([`strategies`] declares them).
pub(crate) const BUILTINS: &[Builtin] = strategies::ALL;
pub mod strategies;

pub use claim::Claim;
pub use heuristic::pdb;
pub use registry::{Builtin, Config};
pub use solver::{solver_fn, FnSolver, Prepare, Solver};

use crate::puzzle::{is_solvable, Board, Move, Shape};
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a search ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A shortest path was found.
    Solved,
    /// The goal cannot be reached (by the parity test, or by exhausting the space).
    Unsolvable,
    /// A node or time budget ran out first.
    Limit,
}

impl Status {
    /// The status as cases.csv writes it: `solved`, `unsolvable` or `limit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
        }
    }
}

/// Which budget a search that ended on [`Status::Limit`] ran out of: cases.csv's
/// `limit_reason`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum LimitReason {
    /// `--timeout`: the time ran out (an external program past it was killed).
    Time,
    /// `--max-nodes`: the expansions ran out.
    Nodes,
    /// `--max-states`: the states stored reached the memory guard.
    States,
    /// A memory budget in bytes ran out.
    Memory,
}

impl LimitReason {
    /// Every reason, in the order of summary.csv's `limit_*` columns.
    pub const ALL: [LimitReason; 4] = [
        LimitReason::Time,
        LimitReason::Nodes,
        LimitReason::States,
        LimitReason::Memory,
    ];

    /// The value of cases.csv's `limit_reason`: `time`, `nodes`, `states` or `memory`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LimitReason::Time => "time",
            LimitReason::Nodes => "nodes",
            LimitReason::States => "states",
            LimitReason::Memory => "memory",
        }
    }

    /// The reason `as_str` names.
    pub fn parse(s: &str) -> Option<LimitReason> {
        LimitReason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Which budget a row ran out of, read from its counters and the run's limits, for an
    /// outcome that did not say (a library user's solver): `None` when none is spent.
    pub fn of_counters(
        limits: &Limits,
        expanded: Option<u64>,
        stored: Option<u64>,
    ) -> Option<LimitReason> {
        match (limits.max_nodes, expanded, stored) {
            (Some(n), Some(e), _) if e >= n => Some(LimitReason::Nodes),
            (_, _, Some(s)) if s >= limits.max_states => Some(LimitReason::States),
            _ => limits.timeout.map(|_| LimitReason::Time),
        }
    }
}

/// The work a search did. See the module documentation for the definitions.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successor states created, duplicates included.
    pub generated: u64,
    /// Distinct states held by the duplicate detection at its peak.
    pub stored: u64,
    /// The largest size of the queue or open list, in states.
    pub peak_frontier: u64,
}

/// A row's work counters, each known or not. Built-in strategies count all four; an external
/// program reports those it prints on stderr (`expanded=N generated=N stored=N`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Counters {
    /// States whose successors were generated.
    pub expanded: Option<u64>,
    /// Successor states created, duplicates included.
    pub generated: Option<u64>,
    /// Distinct states held by the duplicate detection at its peak.
    pub stored: Option<u64>,
    /// The largest size of the queue or open list.
    pub peak_frontier: Option<u64>,
}

impl From<Stats> for Counters {
    fn from(s: Stats) -> Counters {
        Counters {
            expanded: Some(s.expanded),
            generated: Some(s.generated),
            stored: Some(s.stored),
            peak_frontier: Some(s.peak_frontier),
        }
    }
}

/// The resources of a process run for one case (from `wait4`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Usage {
    /// User plus system CPU time, in microseconds.
    pub cpu_us: u64,
    /// Peak resident memory, in kilobytes.
    pub max_rss_kb: u64,
}

/// What a search found for one case: the result, not its measurement (the harness times
/// every solve; a solver that measures itself says so in a [`Reply`]).
///
/// A search fills `status`, `path` and `stats`. A solver that knows only the length of a
/// shortest path (a program that prints a number) sets `claimed_steps` instead of `path`;
/// one that counts only some of the work sets `reported`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// How the search ended.
    pub status: Status,
    /// The moves of the blank from start to goal, when solved.
    pub path: Option<Vec<Move>>,
    /// The work done, when the solver counts all of it (see [`Outcome::counters`]).
    pub stats: Stats,
    /// The number of moves claimed without a path (`status` solved, `path` empty).
    pub claimed_steps: Option<u64>,
    /// The counters the solver reports when it does not count all four; `None` means all of
    /// `stats`.
    pub reported: Option<Counters>,
    /// With status `limit`: which budget ran out (`None`: not said; the harness reads it from
    /// the counters and the limits).
    pub limit: Option<LimitReason>,
}

impl Outcome {
    /// A path found, with the work it took.
    pub fn solved(path: Vec<Move>, stats: Stats) -> Outcome {
        Outcome::without_path(Status::Solved, stats).with_path(path)
    }
    /// An ending without a path: unsolvable, or out of budget.
    pub fn without_path(status: Status, stats: Stats) -> Outcome {
        Outcome {
            status,
            path: None,
            stats,
            claimed_steps: None,
            reported: None,
            limit: None,
        }
    }
    /// Out of budget `reason`, with the work done so far.
    pub fn out_of(reason: LimitReason, stats: Stats) -> Outcome {
        let mut o = Outcome::without_path(Status::Limit, stats);
        o.limit = Some(reason);
        o
    }
    fn with_path(mut self, path: Vec<Move>) -> Outcome {
        self.path = Some(path);
        self
    }
    /// The counters as rows show them.
    pub fn counters(&self) -> Counters {
        self.reported.unwrap_or_else(|| self.stats.into())
    }
    /// The number of moves, when solved.
    pub fn steps(&self) -> Option<usize> {
        self.path
            .as_ref()
            .map(Vec::len)
            .or(self.claimed_steps.map(|n| n as usize))
    }
}

/// What a solver measured of its own solve, beside the search result: an external
/// program's round trip, its process's CPU time and memory, the line it printed. A built-in
/// search leaves it empty, and the harness measures the call.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct SelfReport {
    /// The solve's own measure of its latency; `None`: the harness's wall time of the call.
    pub latency: Option<Duration>,
    /// No latency can be given for this case (a program run in batch mode): the row's
    /// latency is left empty.
    pub untimed: bool,
    /// A process run for this case alone: its CPU time and peak memory.
    pub usage: Option<Usage>,
    /// A process that answers many cases: its peak resident memory over this case, in
    /// kilobytes, where it could be read (`/proc/PID/status` VmHWM, reset between cases).
    pub peak_rss_kb: Option<u64>,
    /// What the solver said, quoted in the row's message (an external program's answer line).
    pub note: Option<String>,
}

/// A solver's reply to one case: what it found, and what it measured of the solve
/// ([`Solver::reply`]; from an [`Outcome`] alone, nothing measured).
///
/// ```
/// use tilebench::search::{Outcome, Reply, Stats};
/// let reply = Reply::from(Outcome::solved(Vec::new(), Stats::default()));
/// assert_eq!(reply.outcome.steps(), Some(0));
/// assert!(reply.report.latency.is_none() && reply.report.note.is_none());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Reply {
    /// The search result.
    pub outcome: Outcome,
    /// The solver's own measure of the solve.
    pub report: SelfReport,
}

impl From<Outcome> for Reply {
    fn from(outcome: Outcome) -> Reply {
        Reply {
            outcome,
            report: SelfReport::default(),
        }
    }
}

/// The default memory guard: at most this many distinct states stored by one search
/// (about 1.5 GB for the largest structures here), so a BFS on a 4x4 board ends with
/// status `limit` instead of exhausting the machine.
pub const DEFAULT_MAX_STATES: u64 = 50_000_000;

/// Per-case budgets. A search that runs out ends with [`Status::Limit`] and its counters so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most states a search may expand.
    pub max_nodes: Option<u64>,
    /// The longest a search may run.
    pub timeout: Option<Duration>,
    /// The most distinct states a search may store (BFS, A*): a memory guard.
    pub max_states: u64,
    /// `--max-memory`: the most heap bytes a case may hold (built-in searches, with
    /// [`crate::memory::CountingAlloc`] installed), or the address space of an external
    /// program (`RLIMIT_AS`).
    pub max_memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: None,
            timeout: None,
            max_states: DEFAULT_MAX_STATES,
            max_memory: None,
        }
    }
}

/// What the search functions read: the budget, and the configuration whose options they
/// take ([`options::Knob::get`]: `bfs_hash::BUCKETS`, `wastar::WEIGHT`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// Search unsolvable pairs to exhaustion instead of answering by the parity test.
    pub exhaustive: bool,
    /// The budget of one solve.
    pub limits: Limits,
    /// The options of the strategy (cheap to clone: its values are shared).
    pub config: Config,
}

/// A start and a goal of the same shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The board the search starts from.
    pub start: Board,
    /// The board it must reach.
    pub goal: Board,
}

impl Problem {
    /// Pairs a start and a goal, refusing boards of different shapes.
    ///
    /// # Errors
    /// Boards of different shapes ([`ProblemError`], with both).
    pub fn new(start: Board, goal: Board) -> Result<Problem, ProblemError> {
        if start.shape() != goal.shape() {
            return Err(ProblemError {
                start: start.shape(),
                goal: goal.shape(),
            });
        }
        Ok(Problem { start, goal })
    }
}

/// A start and a goal of different shapes ([`Problem::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("start is a {start} board but goal is a {goal} board")]
#[non_exhaustive]
pub struct ProblemError {
    /// The start's shape.
    pub start: Shape,
    /// The goal's shape.
    pub goal: Shape,
}

/// A solver could not run on a problem (for example, a board too large for its table). The
/// text is a sentence for the user: what went wrong and what to do. Made with
/// [`SolveError::new`], or [`SolveError::of_option`] when an option's value is at fault
/// (its message then starts with the option's name, `partition: …`, and
/// [`SolveError::option`] gives the option, whose [`Opt::flag`](options::Opt::flag) a command
/// line can name instead); read with [`SolveError::message`].
#[derive(Clone, Debug)]
pub struct SolveError {
    /// The option at fault, if one is.
    option: Option<&'static dyn options::Opt>,
    /// The solver the error is about, when it names one ([`SolveError::in_solver`]).
    solver: Option<String>,
    /// The whole message.
    text: String,
    /// Where the reason starts in `text` (after `OPTION: `).
    reason_at: usize,
    /// The reason as a command line says it, where it names options
    /// ([`Wording::with_flags`](crate::observe::Wording::with_flags)).
    reason_with_flags: Option<String>,
}

impl SolveError {
    /// An error with this message: a `String`, or a [`Wording`](crate::observe::Wording)
    /// where it names options (a command line names their flags, [`SolveError::message_with_flags`]).
    pub fn new(message: impl Into<crate::observe::Wording>) -> SolveError {
        let message = message.into();
        SolveError {
            option: None,
            solver: None,
            reason_with_flags: flagged(&message),
            text: message.words().to_string(),
            reason_at: 0,
        }
    }

    /// An error in the value of `option` (its [`Opt::name`](options::Opt::name) starts the
    /// message): `reason` says what is wrong and what to give.
    ///
    /// ```
    /// use tilebench::search::{pdb::PARTITION, SolveError};
    /// let e = SolveError::of_option(&PARTITION, "the tables do not fit");
    /// assert_eq!(e.to_string(), "partition: the tables do not fit");
    /// assert_eq!((e.option().map(|o| o.flag()), e.reason()), (Some("--pdb-partition"), "the tables do not fit"));
    /// ```
    pub fn of_option(
        option: &'static dyn options::Opt,
        reason: impl Into<crate::observe::Wording>,
    ) -> SolveError {
        let reason = reason.into();
        SolveError {
            option: Some(option),
            solver: None,
            reason_at: option.name().len() + 2,
            reason_with_flags: flagged(&reason),
            text: format!("{}: {reason}", option.name()),
        }
    }

    /// The same error, said of solver `name` (the message starts `NAME: `), its option kept.
    ///
    /// ```
    /// use tilebench::search::{pdb::PARTITION, SolveError};
    /// let e = SolveError::of_option(&PARTITION, "the tables do not fit").in_solver("astar");
    /// assert_eq!(e.to_string(), "astar: partition: the tables do not fit");
    /// assert_eq!((e.solver(), e.reason()), (Some("astar"), "the tables do not fit"));
    /// assert_eq!(e.message_with_flags(), "astar: --pdb-partition: the tables do not fit");
    /// ```
    #[must_use]
    pub fn in_solver(self, name: &str) -> SolveError {
        SolveError {
            reason_at: name.len() + 2 + self.reason_at,
            text: format!("{name}: {}", self.text),
            solver: Some(name.to_string()),
            option: self.option,
            reason_with_flags: self.reason_with_flags,
        }
    }

    /// The solver the error is said of, if it is ([`SolveError::in_solver`]).
    pub fn solver(&self) -> Option<&str> {
        self.solver.as_deref()
    }

    /// The option whose value is at fault, if one is ([`SolveError::of_option`]).
    pub fn option(&self) -> Option<&'static dyn options::Opt> {
        self.option
    }

    /// The message: a sentence for the user (after the option's name, when one is at fault).
    pub fn message(&self) -> &str {
        &self.text
    }

    /// The message without the option's name: what is wrong with its value (the whole
    /// message when no option is at fault).
    pub fn reason(&self) -> &str {
        &self.text[self.reason_at..]
    }

    /// The message, taken.
    pub fn into_message(self) -> String {
        self.text
    }

    /// The message as a command line says it: the option at fault named by its flag
    /// (`astar: --pdb-partition: …`); the message itself when no option with a flag is.
    pub fn message_with_flags(&self) -> String {
        let reason = self.reason_with_flags.as_deref().unwrap_or(self.reason());
        let option = match self.option {
            Some(o) if !o.flag().is_empty() => o.flag(),
            Some(o) => o.name(),
            None => return format!("{}{reason}", &self.text[..self.reason_at]),
        };
        let solver = self.solver().map(|s| format!("{s}: ")).unwrap_or_default();
        format!("{solver}{option}: {reason}")
    }
}

/// The reason's command-line text, where it differs from its words.
fn flagged(reason: &crate::observe::Wording) -> Option<String> {
    (reason.with_flags() != reason.words()).then(|| reason.with_flags().to_string())
}

impl PartialEq for SolveError {
    fn eq(&self, other: &SolveError) -> bool {
        self.text == other.text && self.option.map(|o| o.name()) == other.option.map(|o| o.name())
    }
}
impl Eq for SolveError {}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
impl std::error::Error for SolveError {}

/// The answer without a search, where there is one: start = goal is solved in 0 moves, and
/// (unless `exhaustive`) a pair of different parity is unsolvable; all counters zero.
pub fn shortcut(problem: &Problem, exhaustive: bool) -> Option<Outcome> {
    if problem.start == problem.goal {
        return Some(Outcome::solved(Vec::new(), Stats::default()));
    }
    (!exhaustive && !is_solvable(&problem.start, &problem.goal))
        .then(|| Outcome::without_path(Status::Unsolvable, Stats::default()))
}

/// Enforces [`Limits`] inside a search loop. Time, the heap held (under `--max-memory`) and
/// `stop_all` are read every 1,024 expansions; between checks a call is one comparison.
///
/// Under a memory budget a store asks [`Budget::room`] before it grows (a table or a
/// vector that doubles allocates as much again at once, which a check every 1,024
/// expansions would only see afterwards); the search stops, reason `memory`, when the
/// answer is no.
///
/// ```
/// use tilebench::search::{Budget, Limits};
/// let mut budget = Budget::new(&Limits { max_nodes: Some(10), ..Limits::default() });
/// assert!(!budget.exhausted(9));
/// assert!(budget.exhausted(10));
/// ```
pub struct Budget {
    max_nodes: u64,
    /// The most distinct states the search may store.
    pub max_states: u64,
    deadline: Option<Instant>,
    /// The next expansion count at which to look at the limits.
    next_check: u64,
    /// Under `--max-memory`: this thread's live heap bytes when the solve began, and the
    /// most it may hold beyond them.
    memory: Option<(isize, isize)>,
    /// The heap budget said no.
    out_of_memory: bool,
}

impl Budget {
    /// The budget of one solve, starting now.
    pub fn new(limits: &Limits) -> Budget {
        Budget {
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            max_states: limits.max_states,
            deadline: limits.timeout.map(|t| Instant::now() + t),
            next_check: 0,
            memory: limits
                .max_memory
                .filter(|_| crate::memory::counting())
                .map(|m| {
                    (
                        crate::memory::case_mark(),
                        m.min(isize::MAX as u64) as isize,
                    )
                }),
            out_of_memory: false,
        }
    }

    /// Whether a structure of `bytes`, allocated whole before the search starts (a bitmap,
    /// a table's heads), would by itself pass the heap budget of `limits`.
    pub fn too_big(limits: &Limits, bytes: usize) -> bool {
        limits.max_memory.is_some_and(|m| bytes as u64 > m) && crate::memory::counting()
    }

    /// Whether a heap budget applies (a store need not compute its growth otherwise).
    #[inline(always)]
    pub fn watches_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// Whether the search may allocate `bytes` more and stay within its heap budget
    /// (always, without one). A no is remembered: [`Budget::reason`] then says `memory`.
    #[inline]
    pub fn room(&mut self, bytes: usize) -> bool {
        match self.memory {
            Some((base, max)) if bytes > 0 => {
                let ok = crate::memory::live() - base + bytes as isize <= max;
                self.out_of_memory |= !ok;
                ok
            }
            _ => true,
        }
    }

    /// Whether a search that has expanded `expanded` states must stop now.
    #[inline(always)]
    pub fn exhausted(&mut self, expanded: u64) -> bool {
        expanded >= self.next_check && self.check(expanded)
    }

    /// Why a search stopped after [`Budget::exhausted`] said so at `expanded` expansions, or
    /// after its store of states was `full` (the memory guard, [`Budget::max_states`]).
    pub fn reason(&self, expanded: u64, full: bool) -> LimitReason {
        if self.out_of_memory {
            LimitReason::Memory
        } else if full {
            LimitReason::States
        } else if expanded >= self.max_nodes {
            LimitReason::Nodes
        } else {
            LimitReason::Time
        }
    }

    #[cold]
    fn check(&mut self, expanded: u64) -> bool {
        if expanded >= self.max_nodes || STOPPED.load(Ordering::Relaxed) {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return true;
        }
        if !self.room(1) {
            return true;
        }
        self.next_check = (expanded + 1024).min(self.max_nodes);
        false
    }
}

/// Raised by [`stop_all`]: every search's [`Budget`] in this process runs out at its next
/// check.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Stops every search in flight in this process at its next budget check (within 1,024
/// expansions): an interrupted run's cases in flight end at once, as `limit`, instead of
/// running on (a breadth-first search of a 4x4 case for minutes). The run does not record
/// them; `--resume` solves them again. It is process-wide, like the external programs'
/// `external::process::stop_all`: another run in the same process, not stopped,
/// would see its searches in flight end as `limit` until its next pass resets it.
pub(crate) fn stop_all() {
    STOPPED.store(true, Ordering::SeqCst);
}

/// Lets searches run again (a new pass in the same process).
pub(crate) fn reset_stop() {
    STOPPED.store(false, Ordering::SeqCst);
}
