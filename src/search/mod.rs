//! Search strategies. Each strategy lives in its own file and returns the same [`Outcome`],
//! with the same counters ([`Stats`]) so their work can be compared:
//!
//! - **expanded**: states whose successors were generated (popped, not discarded as stale);
//! - **generated**: successor states created, duplicates included. Every strategy skips the
//!   move that would undo the one that made the state (it leads straight back to the parent),
//!   so that move is never generated or counted;
//! - **stored**: distinct states held by the duplicate-detection structure at its peak;
//! - **peak_frontier**: the largest size of the queue or open list.

pub mod astar;
pub mod bfs;
pub mod bfs_hash;
pub mod bfs_hashset;
pub mod bfs_rank;
pub mod bfs_set;
pub mod bibfs;
pub mod heuristic;
pub mod idastar;
pub mod pdb;
pub mod table;

use crate::puzzle::{is_solvable, Board, Move};
use heuristic::{HeuristicKind, LinearConflict, Manhattan};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
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
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
        }
    }
}

/// The work a search did. See the module documentation for the definitions.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub stored: u64,
    pub peak_frontier: u64,
}

/// What a strategy returns.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub status: Status,
    /// The moves of the blank from start to goal, when solved.
    pub path: Option<Vec<Move>>,
    pub stats: Stats,
}

impl Outcome {
    pub fn solved(path: Vec<Move>, stats: Stats) -> Outcome {
        Outcome {
            status: Status::Solved,
            path: Some(path),
            stats,
        }
    }
    pub fn without_path(status: Status, stats: Stats) -> Outcome {
        Outcome {
            status,
            path: None,
            stats,
        }
    }
    /// The number of moves, when solved.
    pub fn steps(&self) -> Option<usize> {
        self.path.as_ref().map(Vec::len)
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
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: None,
            timeout: None,
            max_states: DEFAULT_MAX_STATES,
        }
    }
}

/// Options shared by every strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Search unsolvable pairs to exhaustion instead of answering by the parity test.
    pub exhaustive: bool,
    pub limits: Limits,
    /// Buckets of `bfs-hash`'s chained table (the articles used 1,000,003).
    pub hash_buckets: usize,
    /// The heuristic of `astar` and `idastar`.
    pub heuristic: HeuristicKind,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            exhaustive: false,
            limits: Limits::default(),
            hash_buckets: bfs_hash::DEFAULT_BUCKETS,
            heuristic: HeuristicKind::Manhattan,
        }
    }
}

/// A start and a goal of the same shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    pub start: Board,
    pub goal: Board,
}

impl Problem {
    /// Pairs a start and a goal, refusing boards of different shapes.
    pub fn new(start: Board, goal: Board) -> Result<Problem, String> {
        if start.shape() != goal.shape() {
            return Err(format!(
                "start is a {} board but goal is a {} board",
                start.shape(),
                goal.shape()
            ));
        }
        Ok(Problem { start, goal })
    }
}

/// A strategy could not run on a problem (for example, a board too large for its table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveError(pub String);

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for SolveError {}

/// The built-in strategies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Strategy {
    BfsSet,
    BfsHash,
    BfsHashSet,
    BfsRank,
    Bibfs,
    Astar,
    Idastar,
    Table,
}

impl Strategy {
    /// Every strategy, in the order output rows use.
    pub const ALL: [Strategy; 8] = [
        Strategy::BfsSet,
        Strategy::BfsHash,
        Strategy::BfsHashSet,
        Strategy::BfsRank,
        Strategy::Bibfs,
        Strategy::Astar,
        Strategy::Idastar,
        Strategy::Table,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::BfsSet => "bfs-set",
            Strategy::BfsHash => "bfs-hash",
            Strategy::BfsHashSet => "bfs-hashset",
            Strategy::BfsRank => "bfs-rank",
            Strategy::Bibfs => "bibfs",
            Strategy::Astar => "astar",
            Strategy::Idastar => "idastar",
            Strategy::Table => "table",
        }
    }

    /// One line for `--help` and the README.
    pub fn describe(self) -> &'static str {
        match self {
            Strategy::BfsSet => "BFS, repeated states in an ordered set (BTreeSet)",
            Strategy::BfsHash => "BFS, repeated states in the articles' chained hash table",
            Strategy::BfsHashSet => "BFS, repeated states in std HashSet with the Fx hasher",
            Strategy::BfsRank => "BFS, repeated states in a bitmap indexed by permutation rank",
            Strategy::Bibfs => "bidirectional BFS, the smaller frontier advances a layer at a time",
            Strategy::Astar => "A* with --heuristic (default Manhattan), bucket open list",
            Strategy::Idastar => "IDA* with --heuristic (default Manhattan), Korf's node counting",
            Strategy::Table => "exact distance tables built once per run, then an O(steps) walk",
        }
    }

    /// Every strategy here returns shortest paths; steps must agree between them.
    pub fn is_optimal(self) -> bool {
        true
    }

    /// Whether this strategy can run on boards of this shape, and if not, why.
    pub fn check(self, shape: crate::puzzle::Shape) -> Result<(), SolveError> {
        match self {
            Strategy::BfsRank => bfs_rank::check(shape),
            Strategy::Table => table::check(shape),
            _ => Ok(()),
        }
    }

    /// Builds what a strategy shares across cases of this shape (the `table` strategy's
    /// tables), so that no case's latency includes it. Cheap for the others.
    /// `goal_blanks` are the cells of the goals' blanks among the cases of that shape.
    pub fn prepare(self, shape: crate::puzzle::Shape, goal_blanks: &[usize], opts: &SolveOptions) {
        match self {
            Strategy::Table => table::prepare(shape),
            Strategy::Astar | Strategy::Idastar if opts.heuristic == HeuristicKind::Pdb => {
                if let Ok((partition, dir)) = pdb::settings(shape) {
                    for &b in goal_blanks {
                        pdb::shared(shape, b, &partition, &dir);
                    }
                }
            }
            _ => {}
        }
    }

    /// Solves one problem. Trivial and (unless `exhaustive`) unsolvable pairs are answered
    /// without searching, with all counters zero.
    pub fn solve(self, problem: &Problem, opts: &SolveOptions) -> Result<Outcome, SolveError> {
        self.check(problem.start.shape())?;
        if problem.start == problem.goal {
            return Ok(Outcome::solved(Vec::new(), Stats::default()));
        }
        // The table already holds the exhaustive answer; others search only with --exhaustive.
        if (!opts.exhaustive || self == Strategy::Table)
            && !is_solvable(&problem.start, &problem.goal)
        {
            return Ok(Outcome::without_path(Status::Unsolvable, Stats::default()));
        }
        Ok(match self {
            Strategy::BfsSet => bfs_set::solve(problem, opts),
            Strategy::BfsHash => bfs_hash::solve(problem, opts),
            Strategy::BfsHashSet => bfs_hashset::solve(problem, opts),
            Strategy::BfsRank => bfs_rank::solve(problem, opts),
            Strategy::Bibfs => bibfs::solve(problem, opts),
            Strategy::Table => table::solve(problem),
            Strategy::Astar | Strategy::Idastar => {
                let goal = &problem.goal;
                match opts.heuristic {
                    HeuristicKind::Manhattan => self.informed(problem, opts, &Manhattan::new(goal)),
                    HeuristicKind::LinearConflict => {
                        self.informed(problem, opts, &LinearConflict::new(goal))
                    }
                    HeuristicKind::Pdb => {
                        let h = pdb::for_goal(goal).map_err(SolveError)?;
                        self.informed(problem, opts, &h)
                    }
                }
            }
        })
    }
}

impl Strategy {
    /// Runs `astar` or `idastar` with a heuristic.
    fn informed<H: heuristic::Heuristic>(self, p: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        match self {
            Strategy::Idastar => idastar::solve(p, opts, h),
            _ => astar::solve(p, opts, h),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        let t = s.trim().to_ascii_lowercase();
        Strategy::ALL
            .into_iter()
            .find(|st| st.name() == t)
            .ok_or_else(|| {
                let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
                format!(
                    "unknown strategy `{s}`; choose from {} (or `all`)",
                    names.join(", ")
                )
            })
    }
}

/// Parses `a,b,c` or `all` into strategies, in the order given, without repeats.
pub fn parse_strategy_list(s: &str) -> Result<Vec<Strategy>, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.eq_ignore_ascii_case("all") {
            for st in Strategy::ALL {
                if !out.contains(&st) {
                    out.push(st);
                }
            }
        } else {
            let st: Strategy = part.parse()?;
            if !out.contains(&st) {
                out.push(st);
            }
        }
    }
    if out.is_empty() {
        return Err("no strategy given; name one or more, e.g. `astar,bfs-rank`, or `all`".into());
    }
    Ok(out)
}

/// Enforces [`Limits`] inside a search loop. Time is read every 1,024 expansions; between
/// checks a call is one comparison.
pub(crate) struct Budget {
    max_nodes: u64,
    pub(crate) max_states: u64,
    deadline: Option<Instant>,
    /// The next expansion count at which to look at the limits.
    next_check: u64,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        Budget {
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            max_states: limits.max_states,
            deadline: limits.timeout.map(|t| Instant::now() + t),
            next_check: 0,
        }
    }

    /// Whether a search that has expanded `expanded` states must stop now.
    #[inline(always)]
    pub(crate) fn exhausted(&mut self, expanded: u64) -> bool {
        expanded >= self.next_check && self.check(expanded)
    }

    #[cold]
    fn check(&mut self, expanded: u64) -> bool {
        if expanded >= self.max_nodes {
            return true;
        }
        self.next_check = match self.deadline {
            Some(d) if Instant::now() >= d => return true,
            Some(_) => (expanded + 1024).min(self.max_nodes),
            None => self.max_nodes,
        };
        false
    }
}
