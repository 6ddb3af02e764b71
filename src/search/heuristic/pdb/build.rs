//! Building one group's table by breadth-first search over the abstract space.
//!
//! The abstract state is where the group's tiles are (a placement) and where the blank is.
//! Moves of the blank through cells the group does not hold cost nothing, so all the blank
//! cells of one connected free region are one state: the search expands a region at once
//! (a flood fill over cell masks) and pays 1 only when a group tile slides into it. The
//! search runs level by level, each level over two bit sets (this level, the next) and a
//! "seen" bit per (placement, free cell), in parallel over the words of the level's set.
//! A placement's value is the level at which any of its regions is first reached.
//!
//! Memory: three bit sets of `placements × free cells` bits plus the table itself: 1.8 GB
//! for 8 tiles on 4x4 (519M placements × 8 free cells), 0.2 GB for 7.
//!
//! Values are stored as `(value − Manhattan distance of the group) / 2` in 4 bits: every
//! move of a group tile changes its Manhattan distance by one, so the difference is even,
//! and it stays small where the value itself would not fit. 15 marks a placement the search
//! never reached (only possible when the group holds every tile, where half the placements
//! have the other parity); differences above 14 would be stored as 14, which stays admissible
//! (the builder reports how many).

use super::index::{compress, home_distances, placements, select, Grid, PartialRanker};
use crate::puzzle::Shape;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Not reached by the search.
pub const UNREACHED: u8 = 15;
/// The largest difference a nibble stores.
pub const MAX_DELTA: u8 = 14;

/// Words of a level's bit set handed to one parallel task.
const CHUNK_WORDS: usize = 1024;

/// What a build produced.
pub struct Built {
    /// Two entries a byte, low nibble first.
    pub packed: Vec<u8>,
    /// Placements whose difference exceeded [`MAX_DELTA`] and was stored as it.
    pub clamped: u64,
    /// The largest value (moves of the group's tiles).
    pub max_value: u32,
}

/// Bit sets shared by the worker threads.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn zeroed(bits: u64) -> Bits {
        Bits((0..bits.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }
    #[inline]
    fn get(&self, bit: u64) -> bool {
        self.0[(bit / 64) as usize].load(Relaxed) & (1 << (bit % 64)) != 0
    }
    #[inline]
    fn set(&self, bit: u64) {
        self.0[(bit / 64) as usize].fetch_or(1 << (bit % 64), Relaxed);
    }
    /// Sets the bits of `mask` (at most 16) starting at bit `start`.
    #[inline]
    fn set_run(&self, start: u64, mask: u32) {
        let (w, s) = ((start / 64) as usize, start % 64);
        let m = (mask as u64) << s;
        self.0[w].fetch_or(m, Relaxed);
        if s > 48 {
            let spill = (mask as u64) >> (64 - s);
            if spill != 0 {
                self.0[w + 1].fetch_or(spill, Relaxed);
            }
        }
    }
    fn clear(&mut self) {
        self.0.par_iter_mut().for_each(|w| *w.get_mut() = 0);
    }
}

/// The search's fixed data.
struct Space {
    grid: Grid,
    ranker: PartialRanker,
    k: usize,
    /// Free cells per placement: bits per placement in the bit sets.
    free: u64,
    /// `dist[slot][cell]`: Manhattan distance of the slot's tile at `cell` from its home.
    dist: [[u8; 16]; 16],
}

impl Space {
    #[inline]
    fn manhattan(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(j, &c)| self.dist[j][c as usize] as u32)
            .sum()
    }
}

/// Builds the table of a group whose tiles' goal cells are `home` (in slot order), for a
/// goal with its blank at `blank`. `progress(reached, total)` is called now and then with
/// placements reached so far.
pub fn build(
    shape: Shape,
    blank: usize,
    home: &[u8],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Built {
    let n = shape.cells();
    let k = home.len();
    let total = placements(n, k);
    let space = Space {
        grid: Grid::new(shape),
        ranker: PartialRanker::new(n, k),
        k,
        free: (n - k) as u64,
        dist: home_distances(shape, home),
    };
    let states = total * space.free;
    let seen = Bits::zeroed(states);
    let mut level = Bits::zeroed(states);
    let mut next = Bits::zeroed(states);
    let values: Vec<AtomicU8> = (0..total.div_ceil(2))
        .map(|_| AtomicU8::new(0xFF))
        .collect();

    // Level 0: the group at home, the blank in the goal blank's region. Not in any free
    // region: when the group's home cells wall the goal's blank cell off from other free
    // cells (7 tiles in the top two rows, the blank top left), a blank outside must push a
    // group tile to get home, and the table counts those moves; every real solution ends
    // with the blank in its goal cell, so this stays admissible.
    let p0 = space.ranker.rank(home);
    let occupied = home.iter().fold(0u32, |m, &c| m | 1 << c);
    let free = space.grid.full & !occupied;
    let region = space.grid.region(1 << blank, free);
    seen.set_run(p0 * space.free, compress(region, free));
    level.set(p0 * space.free + (free & ((1 << blank) - 1)).count_ones() as u64);
    values[(p0 / 2) as usize].fetch_and(!(0xF << ((p0 % 2) * 4)), Relaxed);

    let clamped = AtomicU64::new(0);
    let mut reached = 1u64;
    let mut max_value = 0u32;
    let mut depth = 0u32;
    loop {
        progress(reached, total);
        let (states, found): (u64, u64) = level
            .0
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map(|(ci, chunk)| {
                let mut found = (0u64, 0u64);
                let mut cells = [0u8; 16];
                for (wi, word) in chunk.iter().enumerate() {
                    let mut bits = word.load(Relaxed);
                    while bits != 0 {
                        let b = bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        let id = ((ci * CHUNK_WORDS + wi) as u64) * 64 + b;
                        let (st, pl) = expand(
                            &space, &seen, &next, &values, &clamped, &mut cells, id, depth,
                        );
                        found = (found.0 + st, found.1 + pl);
                    }
                }
                found
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        // New states of known placements can still lead to new placements: stop only when
        // the level found no state at all.
        if states == 0 {
            break;
        }
        if found > 0 {
            max_value = depth + 1;
        }
        reached += found;
        depth += 1;
        std::mem::swap(&mut level, &mut next);
        next.clear();
    }
    progress(reached, total);
    Built {
        packed: values.into_iter().map(AtomicU8::into_inner).collect(),
        clamped: clamped.into_inner(),
        max_value,
    }
}

/// Expands the region state `id` (placement × free-cell index) of level `depth`: every
/// group tile next to the blank's region slides into it. Returns the states and the
/// placements reached for the first time.
#[allow(clippy::too_many_arguments)]
#[inline]
fn expand(
    s: &Space,
    seen: &Bits,
    next: &Bits,
    values: &[AtomicU8],
    clamped: &AtomicU64,
    cells: &mut [u8; 16],
    id: u64,
    depth: u32,
) -> (u64, u64) {
    let (p, bi) = (id / s.free, (id % s.free) as u32);
    let k = s.k;
    s.ranker.unrank(p, cells);
    let occupied = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
    let free = s.grid.full & !occupied;
    let blank = select(free, bi);
    let region = s.grid.region(1 << blank, free);
    let (mut states, mut found) = (0, 0);
    for j in 0..k {
        let from = cells[j];
        let mut into = s.grid.adjacent[from as usize] & region;
        while into != 0 {
            let to = into.trailing_zeros();
            into &= into - 1;
            cells[j] = to as u8;
            let q = s.ranker.rank(&cells[..k]);
            // The tile left `from`: the blank is there now.
            let free2 = (free & !(1 << to)) | (1 << from);
            let base = q * s.free;
            let bit = base + (free2 & ((1 << from) - 1)).count_ones() as u64;
            if !seen.get(bit) {
                let region2 = s.grid.region(1 << from, free2);
                seen.set_run(base, compress(region2, free2));
                next.set(bit);
                states += 1;
                let byte = &values[(q / 2) as usize];
                let shift = (q % 2) * 4;
                if (byte.load(Relaxed) >> shift) & 0xF == UNREACHED {
                    let value = depth + 1;
                    let md = s.manhattan(&cells[..k]);
                    let mut delta = (value - md) / 2;
                    if delta > MAX_DELTA as u32 {
                        delta = MAX_DELTA as u32;
                        clamped.fetch_add(1, Relaxed);
                    }
                    let old =
                        byte.fetch_and(!(((UNREACHED as u32 ^ delta) as u8) << shift), Relaxed);
                    if (old >> shift) & 0xF == UNREACHED {
                        found += 1;
                    }
                }
            }
            cells[j] = from;
        }
    }
    (states, found)
}
