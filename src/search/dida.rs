//! `dida`: dual IDA* (Zahavi, Felner, Holte and Schaeffer, 2008): IDA* that, at a node whose
//! dual board scores higher than the node itself, continues the search from the dual board
//! (as far from the goal), and maps the path found there back (reversed, each move carried by
//! the symmetry). With `--heuristic pdb` on a board where duals exist (a corner goal blank on
//! a square board: the blank on a corner), it "jumps" where the dual side looks closer; with
//! any other heuristic it is `idastar`, node for node. See `pdb/lookup.rs` for which boards
//! have duals, and docs/strategies.md for the figures.

use super::heuristic::Heuristic;
use super::{Outcome, Problem, SolveOptions};

/// The registry entry: dual IDA* with the heuristic of the run's [`super::Config`].
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "dida",
    describe: "dual IDA*: idastar that continues from a pattern database's dual board where it scores higher",
    options: &[&super::heuristic::HEURISTIC, &super::fsm::PRUNE],
    make: super::registry::Make::Custom(|c| {
        Box::new(super::informed::Informed::<Dida>::new("dida", c))
    }),
};

/// dida as a [`super::heuristic::Guided`] search.
pub(crate) struct Dida;

impl super::heuristic::Guided for Dida {
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        super::idastar::solve_dual(problem, opts, h)
    }
}
