//! `idastar-tt`: IDA* with a transposition table (after Reinefeld and Marsland 1994). A
//! board entered again in the same iteration, no deeper, is not searched again, and the
//! bounds that failed subtrees leave prune later iterations. Optimal with any admissible
//! heuristic; its counts are not Korf's (`idastar` keeps those). See
//! [`super::idastar::solve_transpositions`] for why it stays optimal, and docs/strategies.md
//! for the figures.

use super::heuristic::Heuristic;
use super::{Outcome, Problem, SolveOptions};

/// The registry entry: IDA* with a transposition table and the run's heuristic.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "idastar-tt",
    describe: "idastar with a transposition table: a board is searched once an iteration, and failed subtrees' bounds prune the next",
    options: &[&super::heuristic::HEURISTIC],
    make: super::registry::Make::Custom(|c| {
        Box::new(super::informed::Informed::<IdastarTt>::new("idastar-tt", c))
    }),
};

/// idastar-tt as a [`super::heuristic::Guided`] search.
pub(crate) struct IdastarTt;

impl super::heuristic::Guided for IdastarTt {
    /// IDA* without its transposition table on boards of more than 16 cells.
    fn wide(_config: &super::Config) -> Option<super::wide::Mode> {
        Some(super::wide::Mode::Ida)
    }
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        super::idastar::solve_transpositions(problem, opts, h)
    }
}
