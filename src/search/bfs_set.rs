//! `bfs-set`: BFS whose repeated states are kept in an ordered set (`BTreeSet`), as the first
//! seed article's `std::set` version. O(log n) per lookup; the slowest of the BFS variants,
//! kept so users can see what an ordered set costs.
//!
//! What surrounds the set is made cheap: on boards of at most 9 cells the key is 32 bits
//! (the article's `std::set<int>` is too), since the last cell's tile is the one the other
//! cells lack, so a B-tree node holds its 11 keys in 44 bytes instead of 88; each insert is
//! the one lookup-and-insert of [`BTreeSet::insert`]; and the queue is kept per thread and
//! reused from case to case.

use super::bfs::{bfs, Node, Visited};
use super::{Outcome, Problem, SolveOptions};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The largest board whose packed cells, less the last one, fit a `u32` key.
const NARROW_CELLS: usize = 9;

/// The ordered set of boards of at most [`NARROW_CELLS`] cells: their first 8 cells (the
/// low 32 bits of [`crate::puzzle::Board::packed`]), which determine the last.
struct Narrow(BTreeSet<u32>);

impl Visited for Narrow {
    #[inline]
    fn insert(&mut self, cells: u64) -> bool {
        self.0.insert(cells as u32)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

thread_local! {
    static QUEUE: RefCell<Vec<Node>> = const { RefCell::new(Vec::new()) };
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

/// Shortest path by BFS with a `BTreeSet` of packed boards (32-bit keys on boards of at most
/// 9 cells, 64-bit ones beyond).
pub fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    QUEUE.with(|queue| {
        let queue = &mut *queue.borrow_mut();
        if problem.start.shape().cells() <= NARROW_CELLS {
            bfs(problem, opts, &mut Narrow(BTreeSet::new()), queue)
        } else {
            bfs(problem, opts, &mut BTreeSet::new(), queue)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Board, Ranker, Shape};

    #[test]
    fn the_narrow_key_tells_every_3x3_board_apart() {
        // 9! boards, one per rank: their 32-bit keys are 9! distinct values.
        let ranker = Ranker::new(Shape::S3X3);
        let mut set = Narrow(BTreeSet::new());
        for r in 0..ranker.size() {
            let b = Board::from_packed(Shape::S3X3, ranker.unrank(r));
            assert!(set.insert(b.packed()), "rank {r} ({b}) collides");
            assert!(!set.insert(b.packed()), "rank {r} ({b}) is inserted twice");
        }
        assert_eq!(set.len() as u64, ranker.size());
    }
}
