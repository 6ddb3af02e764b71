//! `bfs-hashset`: BFS whose repeated states are kept in the standard library's `HashSet`
//! with the Fx hasher (a multiply-rotate hash, fast on `u64` keys), beside the articles'
//! hand-made table (`bfs-hash`).

use super::bfs::{bfs, Visited};
use super::{Outcome, Problem, SolveOptions};
use rustc_hash::FxHashSet;

struct StdHashSet(FxHashSet<u64>);

impl Visited for StdHashSet {
    #[inline]
    fn insert(&mut self, cells: u64) -> bool {
        self.0.insert(cells)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

pub fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    bfs(
        problem,
        opts,
        &mut StdHashSet(FxHashSet::default()),
        &mut Vec::new(),
    )
}
