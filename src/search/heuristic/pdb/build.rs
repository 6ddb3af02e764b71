//! Building one group's table by breadth-first search over the abstract space.
//!
//! The abstract state is where the group's tiles are (a placement) and where the blank is.
//! Moves of the blank through cells the group does not hold cost nothing, so all the blank
//! cells of one connected free region are one state: the search expands a region at once
//! (a flood fill over cell masks) and pays 1 only when a group tile slides into it. A
//! placement's value is the level at which any of its regions is first reached.
//!
//! Each placement has a field of 2 bits per free cell, in one array: `00` not seen, `11`
//! seen and done, `01`/`10` on the frontier of an even/odd level. A region is marked in one
//! compare-and-swap: its entry cell (where the blank came from) gets the next level's
//! parity, its other cells `11`, so each region is expanded once, and a placement whose
//! field was empty is reached for the first time (its value is written then, and only
//! then). A level scans the fields in parallel for its parity, skipping the chunks it
//! never wrote, unranks each frontier placement once, expands its regions and marks them
//! done. A field takes 2 bits a free cell rounded up to a power of two: 16 bits for 5 to 8
//! free cells (8 tiles on 4x4 leave 8), 32 for 9 to 15 (7 tiles on 4x4 leave 9).
//!
//! Memory: the fields plus the table: 1.3 GB for 8 tiles on 4x4 (519M placements × 2
//! bytes, and 4 bits each for the table), 0.26 GB for 7 (57.7M × 4 bytes). See [`memory`].
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
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Not reached by the search.
pub const UNREACHED: u8 = 15;
/// The largest difference a nibble stores.
pub const MAX_DELTA: u8 = 14;

/// Words of the field array handed to one parallel task (and one "written" flag).
const CHUNK_WORDS: usize = 1024;
/// The low bit of every 2-bit code.
const LOW: u64 = 0x5555_5555_5555_5555;
/// A region's done cells.
const DONE: u64 = 0b11;

/// What a build produced.
pub struct Built {
    /// Two entries a byte, low nibble first.
    pub packed: Vec<u8>,
    /// Placements whose difference exceeded [`MAX_DELTA`] and was stored as it.
    pub clamped: u64,
    /// The largest value (moves of the group's tiles).
    pub max_value: u32,
}

/// Bits of one placement's field: 2 per free cell, rounded up to a power of two (at most
/// 32: a board has at most 16 cells and a group at least one tile).
fn field_bits(free: usize) -> u32 {
    (2 * free as u32).next_power_of_two()
}

/// Bytes a build of a `k`-tile group on `n` cells holds: the fields and the table.
pub fn memory(n: usize, k: usize) -> u64 {
    let total = placements(n, k);
    let per_word = 64 / field_bits(n - k) as u64;
    total.div_ceil(per_word) * 8 + total.div_ceil(2)
}

/// The 2-bit fields of every placement, shared by the worker threads, and which chunks
/// hold a frontier of each parity.
struct Fields {
    words: Vec<AtomicU64>,
    /// Bits of one field, and fields a word (powers of two), and the log2 of the latter.
    bits: u32,
    per_word: u64,
    per_word_log: u32,
    /// `written[parity][chunk]`: the chunk may hold a frontier state of that parity.
    written: [Vec<AtomicBool>; 2],
}

impl Fields {
    fn new(total: u64, free: usize) -> Fields {
        let bits = field_bits(free);
        let per_word = 64 / bits as u64;
        let words = total.div_ceil(per_word) as usize;
        let chunks = words.div_ceil(CHUNK_WORDS);
        let flags = || (0..chunks).map(|_| AtomicBool::new(false)).collect();
        Fields {
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
            bits,
            per_word,
            per_word_log: per_word.trailing_zeros(),
            written: [flags(), flags()],
        }
    }

    /// The word of placement `q` and the shift of its field in it.
    #[inline]
    fn locate(&self, q: u64) -> (usize, u32) {
        let slot = (q & (self.per_word - 1)) as u32;
        ((q >> self.per_word_log) as usize, slot * self.bits)
    }

    /// Marks a region of placement `q` (its cells `region`, a free-cell mask) seen, with its
    /// entry cell `entry` on the frontier of `parity`, unless that cell is seen already.
    /// Returns `None` when it was seen, else whether the placement had no region seen.
    #[inline]
    fn mark(&self, q: u64, region: u32, entry: u32, parity: usize) -> Option<bool> {
        let (w, shift) = self.locate(q);
        let entry_bits = DONE << (2 * entry);
        let code = (1u64 << parity) << (2 * entry);
        let pattern = ((spread(region) * DONE) & !entry_bits | code) << shift;
        let word = &self.words[w];
        let mut old = word.load(Relaxed);
        loop {
            if old & (entry_bits << shift) != 0 {
                return None;
            }
            match word.compare_exchange_weak(old, old | pattern, Relaxed, Relaxed) {
                Ok(_) => break,
                Err(now) => old = now,
            }
        }
        let flag = &self.written[parity][w / CHUNK_WORDS];
        if !flag.load(Relaxed) {
            flag.store(true, Relaxed);
        }
        Some((old >> shift) & ((1 << self.bits) - 1) == 0)
    }

    /// Asks the CPU to fetch placement `q`'s word, soon to be read.
    #[inline]
    fn prefetch(&self, q: u64) {
        crate::util::prefetch(&self.words[(q >> self.per_word_log) as usize]);
    }

    /// Whether the entry cell `entry` of placement `q` is seen.
    #[inline]
    fn seen(&self, q: u64, entry: u32) -> bool {
        let (w, shift) = self.locate(q);
        self.words[w].load(Relaxed) & (DONE << (shift + 2 * entry)) != 0
    }
}

/// Bit `i` of `mask` to bit `2i`.
#[inline]
fn spread(mask: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target feature is enabled at compile time.
        unsafe { std::arch::x86_64::_pdep_u64(mask as u64, LOW) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut out = 0u64;
        for i in 0..32 {
            out |= ((mask as u64 >> i) & 1) << (2 * i);
        }
        out
    }
}

/// The most moves out of one region state: each of its cells has at most 4 neighbours,
/// and a board of 16 cells has at most 8 free cells or at most 8 group tiles.
const MAX_MOVES: usize = 32;
/// One region state's moves: the rank they lead to, the slot that moves, and where to.
type Moves = [(u64, u8, u8); MAX_MOVES];

/// The search's fixed data.
struct Space {
    grid: Grid,
    ranker: PartialRanker,
    k: usize,
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

/// One level's search: the fixed data, the fields, what it writes (the table and the count
/// of clamped differences), and the level.
struct Level<'a> {
    space: &'a Space,
    fields: &'a Fields,
    values: &'a [AtomicU8],
    clamped: &'a AtomicU64,
    depth: u32,
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
        dist: home_distances(shape, home),
    };
    let fields = Fields::new(total, n - k);
    let values: Vec<AtomicU8> = (0..total.div_ceil(2))
        .map(|_| AtomicU8::new(0xFF))
        .collect();
    let clamped = AtomicU64::new(0);

    // Level 0: the group at home, the blank in the goal blank's region. Not in any free
    // region: when the group's home cells wall the goal's blank cell off from other free
    // cells (7 tiles in the top two rows, the blank top left), a blank outside must push a
    // group tile to get home, and the table counts those moves; every real solution ends
    // with the blank in its goal cell, so this stays admissible.
    let p0 = space.ranker.rank(home);
    let occupied = home.iter().fold(0u32, |m, &c| m | 1 << c);
    let free = space.grid.full & !occupied;
    let region = space.grid.region(1 << blank, free);
    let entry = (free & ((1 << blank) - 1)).count_ones();
    fields.mark(p0, compress(region, free), entry, 0);
    values[(p0 / 2) as usize].fetch_and(!(0xF << ((p0 % 2) * 4)), Relaxed);

    let mut reached = 1u64;
    let mut max_value = 0u32;
    let mut depth = 0u32;
    loop {
        progress(reached, total);
        let (states, found) = Level {
            space: &space,
            fields: &fields,
            values: &values,
            clamped: &clamped,
            depth,
        }
        .run();
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
    }
    progress(reached, total);
    Built {
        packed: values.into_iter().map(AtomicU8::into_inner).collect(),
        clamped: clamped.into_inner(),
        max_value,
    }
}

impl Level<'_> {
/// Expands every frontier region of the level and marks it done. Returns the states and
/// the placements the level reached for the first time.
fn run(&self) -> (u64, u64) {
    let (space, fields) = (self.space, self.fields);
    let parity = (self.depth % 2) as usize;
    let field_mask = (1u64 << fields.bits) - 1;
    fields
        .words
        .par_chunks(CHUNK_WORDS)
        .enumerate()
        .filter(|&(ci, _)| fields.written[parity][ci].swap(false, Relaxed))
        .map(|(ci, chunk)| {
            let mut found = (0u64, 0u64);
            let mut cells = [0u8; 16];
            let mut moves = [(0, 0, 0); MAX_MOVES];
            for (wi, word) in chunk.iter().enumerate() {
                let value = word.load(Relaxed);
                if value == 0 {
                    continue;
                }
                let w = (ci * CHUNK_WORDS + wi) as u64;
                let (lo, hi) = (value & LOW, (value >> 1) & LOW);
                let all = if parity == 0 { lo & !hi } else { hi & !lo };
                if all == 0 {
                    continue;
                }
                let mut left = all;
                while left != 0 {
                    let slot = left.trailing_zeros() / fields.bits;
                    let shift = slot * fields.bits;
                    let mut frontier = (all >> shift) & field_mask;
                    left &= !(field_mask << shift);
                    let p = w * fields.per_word + slot as u64;
                    space.ranker.unrank(p, &mut cells);
                    let occupied = cells[..space.k].iter().fold(0u32, |m, &c| m | 1 << c);
                    let free = space.grid.full & !occupied;
                    while frontier != 0 {
                        let bi = frontier.trailing_zeros() / 2;
                        frontier &= frontier - 1;
                        let (st, pl) =
                            self.expand(&mut moves, &mut cells, free, bi);
                        found = (found.0 + st, found.1 + pl);
                    }
                }
                word.fetch_or(all * DONE, Relaxed);
            }
            found
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Expands the region state of placement `cells` (its free cells `free`) whose entry is
/// free cell `bi`: every group tile next to the blank's region slides into it. Returns the
/// states and the placements reached for the first time.
#[inline]
fn expand(&self, moves: &mut Moves, cells: &mut [u8; 16], free: u32, bi: u32) -> (u64, u64) {
    let (s, fields, depth) = (self.space, self.fields, self.depth);
    let k = s.k;
    let blank = select(free, bi);
    let region = s.grid.region(1 << blank, free);
    let parity = ((depth + 1) % 2) as usize;
    // First every move's rank, asking for its word, then the words: the fetches overlap
    // (the field array is far larger than the caches for the big groups).
    let mut m = 0;
    for j in 0..k {
        let from = cells[j];
        let mut into = s.grid.adjacent[from as usize] & region;
        while into != 0 {
            let to = into.trailing_zeros();
            into &= into - 1;
            cells[j] = to as u8;
            let q = s.ranker.rank(&cells[..k]);
            fields.prefetch(q);
            moves[m] = (q, j as u8, to as u8);
            m += 1;
            cells[j] = from;
        }
    }
    let (mut states, mut found) = (0, 0);
    for &(q, j, to) in &moves[..m] {
        let from = cells[j as usize];
        // The tile left `from`: the blank is there now.
        let free2 = (free & !(1 << to)) | (1 << from);
        let entry = (free2 & ((1 << from) - 1)).count_ones();
        if fields.seen(q, entry) {
            continue;
        }
        let region2 = s.grid.region(1 << from, free2);
        if let Some(first) = fields.mark(q, compress(region2, free2), entry, parity) {
            states += 1;
            if first {
                found += 1;
                cells[j as usize] = to;
                self.write_value(q, &cells[..k], depth + 1);
                cells[j as usize] = from;
            }
        }
    }
    (states, found)
}

/// Writes placement `q`'s value (its tiles at `cells`), reached at level `value`.
#[inline]
fn write_value(&self, q: u64, cells: &[u8], value: u32) {
    let md = self.space.manhattan(cells);
    let mut delta = (value - md) / 2;
    if delta > MAX_DELTA as u32 {
        delta = MAX_DELTA as u32;
        self.clamped.fetch_add(1, Relaxed);
    }
    let shift = (q % 2) * 4;
    let clear = ((UNREACHED as u32 ^ delta) as u8) << shift;
    self.values[(q / 2) as usize].fetch_and(!clear, Relaxed);
}
}

