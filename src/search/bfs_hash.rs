//! `bfs-hash`: BFS whose repeated states are kept in the seed articles' hash table: a fixed
//! array of bucket heads (1,000,003 by default, a prime) and chains threaded through a
//! `next` array, keyed by the packed board modulo the bucket count.
//!
//! The table is kept per thread and reused between cases: after a search only the buckets
//! it touched are cleared, so a case never pays for allocating or zeroing 4 MB of heads.

use super::bfs::{bfs, Node, Visited};
use super::{Outcome, Problem, SolveOptions};
use std::cell::RefCell;

/// The articles' bucket count.
pub const DEFAULT_BUCKETS: usize = 1_000_003;

/// A chained hash set of `u64` keys with a fixed number of buckets.
pub struct ChainedTable {
    /// `heads[b]` is 1 + the index of the first key in bucket `b`, or 0 when empty.
    heads: Vec<u32>,
    /// `next[i]` is 1 + the index of the key after key `i` in its chain, or 0.
    next: Vec<u32>,
    keys: Vec<u64>,
}

impl ChainedTable {
    /// An empty table with `buckets` bucket heads (at least 1), 4 bytes each.
    pub fn new(buckets: usize) -> ChainedTable {
        ChainedTable {
            heads: vec![0; buckets.max(1)],
            next: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The number of buckets keys are spread over.
    pub fn buckets(&self) -> usize {
        self.heads.len()
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key % self.heads.len() as u64) as usize
    }

    /// Empties the table, touching only the buckets in use.
    pub fn clear(&mut self) {
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
}

thread_local! {
    static SCRATCH: RefCell<(Option<ChainedTable>, Vec<Node>)> = const { RefCell::new((None, Vec::new())) };
}

/// The registry entry.
pub const STRATEGY: super::Builtin = super::Builtin {
    name: "bfs-hash",
    describe: "BFS, repeated states in the articles' chained hash table",
    make: super::registry::Make::Plain {
        search: solve,
        supports: super::registry::any_shape,
    },
};

/// Shortest path by BFS with a [`ChainedTable`] of `opts.hash_buckets` buckets, kept per
/// thread and reused between cases.
pub fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        let (table, queue) = &mut *scratch;
        let table = match table {
            Some(t) if t.buckets() == opts.hash_buckets.max(1) => t,
            _ => table.insert(ChainedTable::new(opts.hash_buckets)),
        };
        let out = bfs(problem, opts, table, queue);
        table.clear();
        out
    })
}
