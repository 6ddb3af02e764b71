//! `bfs-rank`: BFS whose repeated states are bits in a bitmap of `n!` bits, indexed by the
//! board's perfect permutation rank (Lehmer code), as the first seed article's Cantor-rank
//! version. No hashing and no collisions; the bitmap is 45 KB for 3x3, 60 MB for 3x4 and
//! impossible for 4x4 (16! bits = 2.6 TB), so larger boards are refused with a clear error.
//!
//! The bitmap is kept per thread and reused: after a search the bits it set are cleared
//! (or the whole map, when that is cheaper).

use super::bfs::{bfs, Node, Visited};
use super::{Outcome, Problem, SolveError, SolveOptions};
use crate::puzzle::{factorial, Ranker, Shape};
use std::cell::RefCell;

/// The largest bitmap `bfs-rank` allocates: 2^32 bits (512 MiB), enough for 12 cells.
pub(crate) const MAX_BITS: u64 = 1 << 32;

/// Whether a board of this shape fits the bitmap.
///
/// # Errors
/// A shape whose `n!` ranks need more than [`MAX_BITS`] bits (more than 12 cells).
pub(crate) fn check(shape: Shape) -> Result<(), SolveError> {
    super::registry::packed_shape(shape)?;
    let bits = factorial(shape.cells());
    if bits > MAX_BITS {
        return Err(SolveError::new(format!(
            "bfs-rank needs a bitmap of {}! bits ({:.1} GiB) for a {shape} board, over its limit of {} MiB; \
             use bfs-hash, bfs-hashset or astar for boards of more than 12 cells",
            shape.cells(),
            bits as f64 / 8.0 / (1u64 << 30) as f64,
            MAX_BITS / 8 / (1 << 20)
        )));
    }
    Ok(())
}

struct RankBitmap {
    shape: Shape,
    ranker: Ranker,
    words: Vec<u64>,
    len: usize,
}

impl RankBitmap {
    fn new(shape: Shape) -> RankBitmap {
        let ranker = Ranker::new(shape);
        let words = vec![0u64; ranker.size().div_ceil(64) as usize];
        RankBitmap {
            shape,
            ranker,
            words,
            len: 0,
        }
    }

    /// Clears the bits of the states in `queue` (every state a BFS stored is in its queue).
    fn clear(&mut self, queue: &[Node]) {
        if queue.len() * 4 < self.words.len() {
            for n in queue {
                let r = self.ranker.rank(n.cells);
                self.words[(r / 64) as usize] = 0;
            }
        } else {
            self.words.fill(0);
        }
        self.len = 0;
    }
}

impl Visited for RankBitmap {
    #[inline]
    fn insert(&mut self, cells: u64) -> bool {
        let r = self.ranker.rank(cells);
        let (w, bit) = ((r / 64) as usize, 1u64 << (r % 64));
        let fresh = self.words[w] & bit == 0;
        self.words[w] |= bit;
        self.len += fresh as usize;
        fresh
    }
    fn len(&self) -> usize {
        self.len
    }
}

thread_local! {
    static SCRATCH: RefCell<(Option<RankBitmap>, Vec<Node>)> = const { RefCell::new((None, Vec::new())) };
}

/// The registry entry.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "bfs-rank",
    describe: "BFS, repeated states in a bitmap indexed by permutation rank",
    options: &[],
    make: super::registry::Make::Plain {
        search: solve,
        supports: check,
    },
};

/// Callers check the shape first ([`check`]).
pub(crate) fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    let shape = problem.start.shape();
    let bytes = factorial(shape.cells()).div_ceil(8) as usize;
    if super::Budget::too_big(&opts.limits, bytes) {
        return Outcome::out_of(super::LimitReason::Memory, super::Stats::default());
    }
    SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        if opts.limits.max_memory.is_some() {
            // Under a heap budget every case starts from nothing (see `crate::memory`).
            *scratch = (None, Vec::new());
        }
        let (bitmap, queue) = &mut *scratch;
        let bitmap = match bitmap {
            Some(b) if b.shape == shape => b,
            _ => bitmap.insert(RankBitmap::new(shape)),
        };
        let out = bfs(problem, opts, bitmap, queue);
        bitmap.clear(queue);
        out
    })
}
