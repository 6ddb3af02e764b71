//! Heuristics: admissible estimates of the moves left to the goal.
//!
//! Every heuristic is built once per goal and updated incrementally as a tile slides, so
//! `astar` and `idastar` never recompute a whole board's estimate inside the search.

use super::{Config, Outcome, Problem, SolveError, SolveOptions};
use crate::observe::Observer;
use crate::puzzle::{Board, Shape};
use std::fmt;
use std::str::FromStr;

/// An estimate that can be updated when one tile slides.
pub trait Heuristic {
    /// What a depth-first search carries from a node to its children so that the next
    /// update is cheap: nothing for Manhattan, tile cells and per-group values for a pattern
    /// database (whose estimate, a maximum of two sums, cannot be updated from `h` alone).
    type Memo: Copy + 'static;
    /// The estimate for a whole board.
    fn estimate(&self, b: &Board) -> u32;
    /// The estimate after `tile` slid from cell `from` to cell `to`; `h` is the estimate
    /// before the move and `after` the board after it.
    fn update(&self, h: u32, after: &Board, tile: u8, from: usize, to: usize) -> u32;
    /// The estimate for a whole board, and its memo.
    fn start(&self, b: &Board) -> (u32, Self::Memo);
    /// [`Heuristic::update`] with the parent's memo; returns the child's.
    fn step(
        &self,
        h: u32,
        memo: &Self::Memo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, Self::Memo);
    /// Whether the estimate is consistent: it changes by at most one per move. A search
    /// may then skip propagating values between neighbours (IDA*'s BPMX).
    fn consistent(&self) -> bool {
        true
    }
    /// [`Heuristic::step`] without the lookups that cost most and the memo does not carry
    /// (a pattern database's dual lookups), for a search that adds them with
    /// [`Heuristic::refine`] only where they can change what it does.
    ///
    /// `memo` is the parent's memo, taken over in place to the child's (a search keeps each
    /// child's memo where it made it, and copies no memo around); `ahead` is what
    /// [`Heuristic::prefetch`] returned for the same move, if the search called it (else
    /// [`Ahead::default`]).
    #[allow(clippy::too_many_arguments)] // step's, and what prefetch located
    #[inline]
    fn step_lazy(
        &self,
        h: u32,
        memo: &mut Self::Memo,
        _ahead: Ahead,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        let (h, child) = self.step(h, memo, after, tile, from, to);
        *memo = child;
        h
    }
    /// The full estimate of `after` from the one [`Heuristic::step_lazy`] returned, or any
    /// value of at least `enough` not above it (the caller only needs to know that much:
    /// a bound the estimate exceeds).
    #[inline]
    fn refine(&self, lazy: u32, _after: &Board, _enough: u32) -> u32 {
        lazy
    }

    /// [`Heuristic::refine`], handed what [`Heuristic::prefetch_refine`] returned for the
    /// same board (so that it is not worked out twice).
    #[inline]
    fn refine_located(&self, lazy: u32, after: &Board, enough: u32, _ahead: Ahead) -> u32 {
        self.refine(lazy, after, enough)
    }

    /// Prepares [`Heuristic::step`] for `tile` sliding from `from` to `to` (a pattern
    /// database asks the processor for the table entries it will read), so that a search
    /// that calls this for all of a node's children first waits for their memory at once.
    /// What it worked out on the way (where the entries are) goes back to
    /// [`Heuristic::step_lazy`] for the same move, so that it is not worked out twice.
    #[inline]
    fn prefetch(&self, _memo: &Self::Memo, _tile: u8, _from: usize, _to: usize) -> Ahead {
        Ahead::default()
    }

    /// Prepares [`Heuristic::refine`] of `after` (a pattern database asks for the entries
    /// of its dual lookups), for a search that knows which children it will refine before
    /// it refines the first; what it worked out on the way goes back to
    /// [`Heuristic::refine_located`].
    #[inline]
    fn prefetch_refine(&self, _after: &Board) -> Ahead {
        Ahead::default()
    }

    /// Whether a search that propagates estimates between parents and children (BPMX)
    /// should [`Heuristic::refine`] every child in full before it searches any, as Felner
    /// et al. (2011) describe BPMX, rather than only the children the cheap lookups leave
    /// within the bound, each as it comes to it (a pattern database's `--pdb-lookup eager`).
    #[inline]
    fn eager(&self) -> bool {
        false
    }

    /// A board exactly as far from the goal as `b` (whose memo is `memo`) that scores higher
    /// than `b` in the lookups the memo carries, for dual IDA* to continue from (a pattern
    /// database's dual boards); none for most heuristics.
    #[inline]
    fn jump(&self, _b: &Board, _memo: &Self::Memo) -> Option<Jump> {
        None
    }
}

/// What [`Heuristic::prefetch`] worked out for one move, handed back to
/// [`Heuristic::step_lazy`], or [`Heuristic::prefetch_refine`] for one board, handed back to
/// [`Heuristic::refine_located`]: opaque to searches, whose only duty is to hand it back
/// with the same move or board (a pattern database keeps each lookup's entry index and
/// Manhattan distance).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ahead(pub [u64; 4]);

/// A dual board a search may continue from instead of the board (see [`Heuristic::jump`]).
#[derive(Clone, Copy, Debug)]
pub struct Jump {
    /// The dual board, as far from the goal as the board.
    pub board: Board,
    /// A path from the dual board to the goal, reversed and each move mapped by `moves`
    /// (indices as [`crate::puzzle::Move::from_index`]), is a path from the board.
    pub moves: [u8; 4],
}

/// `start` and `step` for heuristics that need no memo.
macro_rules! no_memo {
    () => {
        type Memo = ();
        #[inline]
        fn start(&self, b: &Board) -> (u32, ()) {
            (self.estimate(b), ())
        }
        #[inline]
        fn step(
            &self,
            h: u32,
            _: &(),
            after: &Board,
            tile: u8,
            from: usize,
            to: usize,
        ) -> (u32, ()) {
            (self.update(h, after, tile, from, to), ())
        }
    };
}

/// How a heuristic is built for a run: its name, what it shares across goals (loaded before
/// the clock starts), and how it is made for one goal.
pub(crate) trait Family: Heuristic + Sized + Send + Sync + 'static {
    /// The name on the command line (`--heuristic NAME`).
    const NAME: &'static str;
    /// What the goals of a run share (a pattern database's tables); `()` for most.
    type Shared: Default + Send + Sync;
    /// Whether the configuration fits boards of `shape` (a pattern-database partition).
    ///
    /// # Errors
    /// Why it does not.
    fn supports(_config: &Config, _shape: Shape) -> Result<(), SolveError> {
        Ok(())
    }
    /// Loads what `goals` need into `shared`, before any case is timed.
    ///
    /// # Errors
    /// The configuration does not fit the goals.
    fn prepare(
        _shared: &mut Self::Shared,
        _config: &Config,
        _goals: &[Board],
        _observer: &dyn Observer,
    ) -> Result<(), SolveError> {
        Ok(())
    }
    /// The heuristic for `goal`.
    ///
    /// # Errors
    /// What it needs was not prepared.
    fn for_goal(shared: &Self::Shared, config: &Config, goal: &Board) -> Result<Self, SolveError>;
}

/// The option of every strategy guided by a heuristic (`astar`, `idastar`, `dida`,
/// `idastar-tt`, `wastar`, `greedy`): which one (`--heuristic`), read with the pattern
/// databases' options ([`pdb::PARTITION`], [`pdb::LOOKUP`]), which apply with `pdb`.
pub const HEURISTIC: super::options::Knob<HeuristicKind> = super::options::Knob {
    name: "heuristic",
    default: "manhattan",
    range: "manhattan, linear-conflict, walking-distance, walking-distance-lc, pdb",
    help: "the estimate of the moves left (pdb: pattern databases)",
    flag: "--heuristic",
    parse: str::parse,
    show: |h| h.name().to_string(),
    with: &[&pdb::PARTITION, &pdb::LOOKUP],
    applies: None,
};

/// A search guided by a heuristic (`astar`, `idastar`, `wastar`, `greedy`).
pub(crate) trait Guided: Send + Sync + 'static {
    /// Whether every path it returns is a shortest one (with an admissible heuristic).
    const OPTIMAL: bool = true;
    /// What its paths promise under `config` (shortest, unless overridden).
    fn claim(_config: &Config) -> super::Claim {
        super::Claim::Optimal
    }
    /// Runs the search with heuristic `h`, built for `problem.goal`.
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome;
    /// How it searches boards of more than 16 cells ([`super::wide`]), if it takes them.
    fn wide(_config: &Config) -> Option<super::wide::Mode> {
        None
    }
}

/// Declares [`HeuristicKind`] and the per-goal and shared state of every heuristic.
macro_rules! heuristics {
    ($($(#[$doc:meta])* $v:ident: $m:ident::$t:ident),+ $(,)?) => {
        $(pub use $m::$t;)+

        /// A heuristic, as chosen with `--heuristic`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HeuristicKind {
            $($(#[$doc])* $v),+
        }

        impl HeuristicKind {
            /// Every heuristic, in order.
            pub const ALL: &'static [HeuristicKind] = &[$(HeuristicKind::$v),+];
            /// The name on the command line.
            pub fn name(self) -> &'static str {
                match self {
                    $(HeuristicKind::$v => <$t as Family>::NAME),+
                }
            }
            /// Whether the configuration fits boards of `shape`.
            pub(crate) fn supports(self, config: &Config, shape: Shape) -> Result<(), SolveError> {
                match self {
                    $(HeuristicKind::$v => <$t as Family>::supports(config, shape)),+
                }
            }
        }

        /// A heuristic built for one goal.
        pub(crate) enum Ready {
            $($v($t)),+
        }

        /// What every heuristic shares across goals.
        #[allow(non_snake_case)]
        #[derive(Default)]
        pub(crate) struct Shared {
            $($v: <$t as Family>::Shared),+
        }

        impl Shared {
            /// Loads what `kind` needs for `goals`.
            pub(crate) fn prepare(
                &mut self,
                kind: HeuristicKind,
                config: &Config,
                goals: &[Board],
                observer: &dyn Observer,
            ) -> Result<(), SolveError> {
                match kind {
                    $(HeuristicKind::$v => <$t as Family>::prepare(&mut self.$v, config, goals, observer)),+
                }
            }
            /// `kind` built for `goal`.
            pub(crate) fn ready(
                &self,
                kind: HeuristicKind,
                config: &Config,
                goal: &Board,
            ) -> Result<Ready, SolveError> {
                Ok(match kind {
                    $(HeuristicKind::$v => Ready::$v(<$t as Family>::for_goal(&self.$v, config, goal)?)),+
                })
            }
        }

        impl Ready {
            /// Runs search `G` with this heuristic.
            pub(crate) fn run<G: Guided>(&self, p: &Problem, opts: &SolveOptions) -> Outcome {
                match self {
                    $(Ready::$v(h) => G::search(p, opts, h)),+
                }
            }
        }
    };
}

// The heuristics, one file each, in the order `--help` lists them. Adding one is its file
// (a type that implements `Heuristic` and `Family`), its `pub mod` line and its line in the
// list.
pub(crate) mod linear_conflict;
pub(crate) mod manhattan;
pub mod pdb;
pub mod walking_distance;
pub(crate) mod walking_distance_lc;
heuristics! {
    /// Sum of the tiles' Manhattan distances.
    Manhattan: manhattan::Manhattan,
    /// Manhattan plus 2 for each tile that must leave its row or column to let another pass.
    LinearConflict: linear_conflict::LinearConflict,
    /// Takahashi's walking distance: vertical and horizontal moves counted on tile-count tables,
    /// each at least his inversion distance.
    WalkingDistance: walking_distance::WalkingDistance,
    /// Walking distance (with the inversion distance) and linear conflict, the larger per axis.
    WalkingDistanceLc: walking_distance_lc::WalkingDistanceLc,
    /// Additive disjoint pattern databases (Korf and Felner).
    Pdb: pdb::Pdb,
}

impl Default for HeuristicKind {
    fn default() -> Self {
        HeuristicKind::ALL[0]
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        HeuristicKind::ALL
            .iter()
            .copied()
            .find(|h| h.name() == s.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
                format!("unknown heuristic `{s}`; choose {}", names.join(", "))
            })
    }
}
