//! Breadth-first search, generic over how repeated states are detected.
//!
//! `bfs-hash`, `bfs-hashset` and `bfs-rank` are this one function with a different
//! [`Visited`] structure, so their counters are identical and only the duplicate detection
//! differs in cost. `bfs-set` batches its inserts into its `BTreeSet` in its own loop
//! (`bfs_set.rs`), and its tests compare every answer and counter with this function's.
//!
//! The queue is a vector of [`Node`]s that is never shrunk: a node's parent is its index, so
//! the path is read back from the goal without storing boards twice. The goal is tested when
//! a state is generated, which saves expanding the whole last layer.

use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Move, Neighbors};

/// A set of packed boards: the duplicate detection of a BFS.
pub(crate) trait Visited {
    /// Adds `cells`; returns `true` if it was not there before.
    fn insert(&mut self, cells: u64) -> bool;
    /// How many distinct states are held.
    fn len(&self) -> usize;
    /// Whether [`Visited::prefetch`] does anything: a structure whose first read of a lookup
    /// is a likely cache miss (a large table at a random place) says so, and the search asks
    /// for that memory [`AHEAD`] nodes before it inserts the children there.
    const PREFETCHES: bool = false;
    /// Asks for the memory that `insert(cells)` reads first.
    #[inline(always)]
    fn prefetch(&self, _cells: u64) {}
    /// The heap bytes `more` inserts could allocate at once (a table that doubles), asked of
    /// the budget before them under `--max-memory`; 0 for a structure that grows in small
    /// steps (a tree's nodes), which the budget's periodic check covers.
    fn growth(&self, _more: usize) -> usize {
        0
    }
}

/// How many nodes ahead of the one expanded the search asks for its children's memory
/// (when the [`Visited`] structure [`prefetches`](Visited::PREFETCHES)).
pub(crate) const AHEAD: usize = 8;

/// The standard library's ordered set (`bfs-set`).
impl Visited for std::collections::BTreeSet<u64> {
    #[inline]
    fn insert(&mut self, cells: u64) -> bool {
        std::collections::BTreeSet::insert(self, cells)
    }
    fn len(&self) -> usize {
        std::collections::BTreeSet::len(self)
    }
}

/// The standard library's hash set, with any hasher (`bfs-hashset` uses Fx).
impl<S: std::hash::BuildHasher> Visited for std::collections::HashSet<u64, S> {
    #[inline]
    fn insert(&mut self, cells: u64) -> bool {
        std::collections::HashSet::insert(self, cells)
    }
    fn len(&self) -> usize {
        std::collections::HashSet::len(self)
    }
    fn growth(&self, more: usize) -> usize {
        crate::memory::table_growth::<u64>(self.len(), self.capacity(), more)
    }
}

/// Whether a node's children (at most 4) fit in the heap budget, the set's and the queue's
/// growth asked before they grow (always, without a budget).
#[inline(always)]
fn room<V: Visited>(budget: &mut Budget, visited: &V, queue: &Vec<Node>) -> bool {
    !budget.watches_memory() || budget.room(visited.growth(4) + crate::memory::vec_growth(queue, 4))
}

/// One state in the BFS queue: its cells, its parent's index and the move that made it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// The board's packed cells ([`Board::packed`]).
    pub cells: u64,
    /// The parent's index in the queue (`u32::MAX` for the start).
    pub parent: u32,
    /// The blank's cell.
    pub blank: u8,
    /// The index in [`MOVE_ORDER`](crate::puzzle::MOVE_ORDER) of the move that made the
    /// state (`u8::MAX` for the start).
    pub mv: u8,
}

/// [`Node::mv`] of the start, which no move made.
pub(crate) const NO_MOVE: u8 = u8::MAX;

/// Reads the path to `queue[i]` back through the parent indices.
pub(crate) fn path_to(queue: &[Node], mut i: usize) -> Vec<Move> {
    let mut path = Vec::new();
    while queue[i].mv != NO_MOVE {
        path.push(Move::from_index(queue[i].mv));
        i = queue[i].parent as usize;
    }
    path.reverse();
    path
}

/// Shortest path from `problem.start` to `problem.goal` by BFS.
///
/// `visited` must be empty; `queue` is scratch space (cleared first, left holding every
/// stored state so that callers can reset their structure cheaply).
pub(crate) fn bfs<V: Visited>(
    problem: &Problem,
    opts: &SolveOptions,
    visited: &mut V,
    queue: &mut Vec<Node>,
) -> Outcome {
    let shape = problem.start.shape();
    let neighbors = Neighbors::of(shape);
    let goal = problem.goal.packed();
    let mut budget = Budget::new(&opts.limits);
    let mut stats = Stats {
        peak_frontier: 1,
        ..Stats::default()
    };
    queue.clear();
    let start = problem.start;
    visited.insert(start.packed());
    queue.push(Node {
        cells: start.packed(),
        parent: u32::MAX,
        blank: start.blank() as u8,
        mv: NO_MOVE,
    });
    let mut head = 0usize;
    while head < queue.len() {
        let full = queue.len() as u64 >= budget.max_states;
        if full || budget.exhausted(stats.expanded) || !room(&mut budget, visited, queue) {
            stats.stored = visited.len() as u64;
            return Outcome::out_of(budget.reason(stats.expanded, full), stats);
        }
        if V::PREFETCHES {
            if let Some(&ahead) = queue.get(head + AHEAD) {
                let board = Board::from_parts(shape, ahead.cells, ahead.blank);
                for &(_, to) in neighbors
                    .children(ahead.blank as usize, ahead.mv)
                    .as_slice()
                {
                    visited.prefetch(board.slide_blank_to(to as usize).packed());
                }
            }
        }
        let node = queue[head];
        stats.expanded += 1;
        let board = Board::from_parts(shape, node.cells, node.blank);
        for &(m, to) in neighbors.children(node.blank as usize, node.mv).as_slice() {
            let child = board.slide_blank_to(to as usize);
            stats.generated += 1;
            if !visited.insert(child.packed()) {
                continue;
            }
            queue.push(Node {
                cells: child.packed(),
                parent: head as u32,
                blank: to,
                mv: m,
            });
            if child.packed() == goal {
                stats.stored = visited.len() as u64;
                stats.peak_frontier = stats.peak_frontier.max((queue.len() - head - 1) as u64);
                return Outcome::solved(path_to(queue, queue.len() - 1), stats);
            }
        }
        head += 1;
        stats.peak_frontier = stats.peak_frontier.max((queue.len() - head) as u64);
    }
    stats.stored = visited.len() as u64;
    Outcome::without_path(Status::Unsolvable, stats)
}

#[cfg(test)]
mod tests {
    #[test]
    fn bfs_finds_the_two_move_path() {
        use crate::search::{bfs::bfs, Problem, SolveOptions, Status};
        use std::collections::BTreeSet;

        let problem = Problem::new(
            "1 2 3 4 5 6 x 7 8".parse().unwrap(),
            "1 2 3 4 5 6 7 8 x".parse().unwrap(),
        )
        .unwrap();
        let out = bfs(
            &problem,
            &SolveOptions::default(),
            &mut BTreeSet::new(),
            &mut Vec::new(),
        );
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.steps(), Some(2));
    }
}
