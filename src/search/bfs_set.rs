//! `bfs-set`: BFS whose repeated states are kept in an ordered set (`BTreeSet`), as the first
//! seed article's `std::set` version. O(log n) per lookup; the slowest of the BFS variants,
//! kept so users can see what an ordered set costs.

use super::bfs::{bfs, Visited};
use super::{Outcome, Problem, SolveOptions};
use std::collections::BTreeSet;

struct OrderedSet(BTreeSet<u64>);

impl Visited for OrderedSet {
    #[inline]
    fn insert(&mut self, cells: u64) -> bool {
        self.0.insert(cells)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// The registry entry.
pub const STRATEGY: super::Builtin = super::Builtin {
    name: "bfs-set",
    describe: "BFS, repeated states in an ordered set (BTreeSet)",
    make: super::registry::Make::Plain {
        search: solve,
        supports: super::registry::any_shape,
    },
};

/// Shortest path by BFS with a `BTreeSet` of packed boards.
pub fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    bfs(
        problem,
        opts,
        &mut OrderedSet(BTreeSet::new()),
        &mut Vec::new(),
    )
}
