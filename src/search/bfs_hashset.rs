//! `bfs-hashset`: BFS whose repeated states are kept in the standard library's `HashSet`
//! with the Fx hasher (a multiply-rotate hash, fast on `u64` keys), beside the articles'
//! hand-made table (`bfs-hash`).

use super::bfs::bfs;
use super::{Outcome, Problem, SolveOptions};
use rustc_hash::FxHashSet;

/// The registry entry.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "bfs-hashset",
    describe: "BFS, repeated states in std HashSet with the Fx hasher",
    options: &[],
    make: super::registry::Make::Plain {
        search: solve,
        supports: super::registry::packed_shape,
    },
};

/// Shortest path by BFS with an Fx-hashed `HashSet` of packed boards.
pub(crate) fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    bfs(problem, opts, &mut FxHashSet::default(), &mut Vec::new())
}
