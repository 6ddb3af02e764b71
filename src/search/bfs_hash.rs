//! `bfs-hash`: BFS whose repeated states are kept in the seed articles' hash table: a fixed
//! array of bucket heads (1,000,003 by default, a prime) and chains threaded through a
//! `next` array, keyed by the packed board modulo the bucket count.
//!
//! The table is kept per thread and reused between cases: after a search only the buckets
//! it touched are cleared, so a case never pays for allocating or zeroing 4 MB of heads.
//!
//! A bucket's head is read at a random place in those 4 MB, mostly a cache miss: the search
//! asks for the heads of a node's children `AHEAD` nodes before it
//! expands that node (`Visited::prefetch`), so the misses overlap instead of each waiting
//! for the one before. Interleaved with the other methods (`examples/peers`, 300 cases) a
//! case's median went from 5.1–6.6 to 3.3 ms.

use super::bfs::{bfs, Node, Visited};
use super::{Outcome, Problem, SolveOptions};
use std::cell::RefCell;

/// bfs-hash's own option: its table's buckets (`--hash-buckets`).
pub const BUCKETS: super::options::Knob<usize> = super::options::Knob {
    name: "hash-buckets",
    default: "1000003",
    range: "1 to 100000000",
    help: "buckets of the chained hash table, 4 bytes each",
    flag: "--hash-buckets",
    parse: |v| {
        v.parse()
            .ok()
            .filter(|n| (1..=100_000_000).contains(n))
            .ok_or_else(|| format!("`{v}` is not a number from 1 to 100000000"))
    },
    show: usize::to_string,
    with: &[],
    applies: None,
};

/// A chained hash set of `u64` keys with a fixed number of buckets.
pub(crate) struct ChainedTable {
    /// `heads[b]` is 1 + the index of the first key in bucket `b`, or 0 when empty.
    heads: Vec<u32>,
    /// `next[i]` is 1 + the index of the key after key `i` in its chain, or 0.
    next: Vec<u32>,
    keys: Vec<u64>,
}

impl ChainedTable {
    /// An empty table with `buckets` bucket heads (at least 1), 4 bytes each.
    pub(crate) fn new(buckets: usize) -> ChainedTable {
        ChainedTable {
            heads: vec![0; buckets.max(1)],
            next: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The number of buckets keys are spread over.
    pub(crate) fn buckets(&self) -> usize {
        self.heads.len()
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key % self.heads.len() as u64) as usize
    }

    /// Empties the table, touching only the buckets in use.
    pub(crate) fn clear(&mut self) {
        for i in 0..self.keys.len() {
            let b = self.bucket(self.keys[i]);
            self.heads[b] = 0;
        }
        self.keys.clear();
        self.next.clear();
    }
}

impl Visited for ChainedTable {
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let b = self.bucket(key);
        let mut i = self.heads[b];
        while i != 0 {
            if self.keys[i as usize - 1] == key {
                return false;
            }
            i = self.next[i as usize - 1];
        }
        self.keys.push(key);
        self.next.push(self.heads[b]);
        self.heads[b] = self.keys.len() as u32;
        true
    }
    fn len(&self) -> usize {
        self.keys.len()
    }
    fn growth(&self, more: usize) -> usize {
        crate::memory::vec_growth(&self.keys, more) + crate::memory::vec_growth(&self.next, more)
    }
    /// The 4 MB of heads are read at random: the bucket's head is asked for ahead.
    const PREFETCHES: bool = true;
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        crate::util::prefetch(&self.heads[self.bucket(key)]);
    }
}

thread_local! {
    static SCRATCH: RefCell<(Option<ChainedTable>, Vec<Node>)> = const { RefCell::new((None, Vec::new())) };
}

/// The registry entry.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "bfs-hash",
    describe: "BFS, repeated states in the articles' chained hash table",
    options: &[&BUCKETS],
    make: super::registry::Make::Plain {
        search: solve,
        supports: super::registry::packed_shape,
    },
};

/// Shortest path by BFS with a [`ChainedTable`] of [`BUCKETS`] buckets, kept per
/// thread and reused between cases.
pub(crate) fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    let buckets = BUCKETS.get(&opts.config).max(1);
    if super::Budget::too_big(&opts.limits, buckets * 4) {
        return Outcome::out_of(super::LimitReason::Memory, super::Stats::default());
    }
    SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        if opts.limits.max_memory.is_some() {
            // Under a heap budget every case starts from nothing (see `crate::memory`).
            *scratch = (None, Vec::new());
        }
        let (table, queue) = &mut *scratch;
        let table = match table {
            Some(t) if t.buckets() == buckets => t,
            _ => table.insert(ChainedTable::new(buckets)),
        };
        let out = bfs(problem, opts, table, queue);
        table.clear();
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Board, Neighbors, Shape};
    use crate::search::Limits;
    use crate::util::Rng;
    use std::collections::HashSet;

    /// The table asks for its buckets ahead (`PREFETCHES`), which must change nothing: the
    /// same outcome, path and counters as the generic BFS over a `HashSet`, which does not,
    /// with the table reused from case to case. Searches long enough that the look-ahead
    /// runs: 3x3 boards 200 random moves from the goal, 4x3 and 4x4 boards (64-bit keys) a
    /// few; node and state budgets; and unsolvable 3x3 pairs searched to exhaustion, where
    /// the look-ahead runs off the queue's end.
    #[test]
    fn asking_for_buckets_ahead_changes_no_answer_or_counter() {
        let mut rng = Rng::new(23);
        let mut long = 0;
        let mut exhausted = 0;
        for i in 0..30 {
            let (shape, moves) = match i % 5 {
                2 => (Shape::new(4, 3).unwrap(), 12),
                3 => (Shape::S4X4, 10),
                _ => (Shape::S3X3, 200),
            };
            let goal = Board::standard_goal(shape);
            let mut start = Neighbors::of(shape).random_walk(goal, moves, &mut rng);
            if i % 5 == 4 {
                start = start.with_parity_flipped(); // unsolvable
            }
            // The search tests the goal as it generates, so it would look for the start
            // itself through the whole space (the registry answers that case first).
            if start == goal {
                continue;
            }
            let limits = Limits {
                max_nodes: (i % 4 == 0).then(|| rng.below(20_000) + 1),
                max_states: if i % 7 == 1 {
                    rng.below(20_000) + 1
                } else {
                    Limits::default().max_states
                },
                ..Limits::default()
            };
            let opts = SolveOptions {
                limits,
                ..SolveOptions::default()
            };
            let problem = Problem::new(start, goal).unwrap();
            let plain = bfs(&problem, &opts, &mut HashSet::new(), &mut Vec::new());
            assert_eq!(solve(&problem, &opts), plain, "{start} with {limits:?}");
            long += usize::from(plain.stats.expanded > 100 * crate::search::bfs::AHEAD as u64);
            exhausted += usize::from(plain.status == crate::search::Status::Unsolvable);
        }
        assert!(
            long >= 12 && exhausted >= 2,
            "only {long} searches ran well past the look-ahead, {exhausted} to exhaustion"
        );
    }
}
