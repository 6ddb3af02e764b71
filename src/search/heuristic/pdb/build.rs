//! Building one group's table by breadth-first search over the abstract space.
//!
//! The abstract state is where the group's tiles are (a placement) and where the blank is.
//! Moves of the blank through cells the group does not hold cost nothing, so all the blank
//! cells of one connected free region are one state: the search expands a region at once
//! (a flood fill over cell masks) and pays 1 only when a group tile slides into it. A
//! placement's value is the level at which any of its regions is first reached.
//!
//! Each placement has a field of 2 bits per free cell, in one array: `00` not seen, `11`
//! seen and done, `01`/`10` on the frontier of an even/odd level. A move marks only the
//! cell it entered the region by (where the blank came from): one atomic OR of the next
//! level's parity into that cell, unless the cell is seen. A placement whose field was
//! empty is reached for the first time (its value is written then, and only then). A
//! region reached at one level through several of its cells has several entry cells on
//! the frontier; the next level takes the region from the first, expands it once and sets
//! all its cells to `11`, the other entries among them. Marking thus needs no flood fill
//! of the region reached (one for every new state) and no compare-and-swap loop, at the
//! price of an OR for each further entry (about one per state). A level lists the chunks
//! of fields it wrote for its parity and hands them to the workers a few at a time (a
//! late level's frontier lies in a few ranges of indexes), scans them, unranks each
//! frontier placement once, expands its regions (moving the group tiles on each region's
//! border) and marks them done. A field takes 2 bits a free cell, as many fields a 64-bit
//! word as fit: 4 of 16 bits for 8 tiles on 4x4 (8 free cells), 3 of 18 for 7 tiles.
//!
//! A frontier placement is unranked once (or, when only its last digit differs from the
//! placement unranked before it, found from that one: `Space::placement_after`); each move's
//! index (and Manhattan distance) is the placement's changed by the one tile that slides
//! (`Space::step`), not ranked again. With a `Mirror`, a move compares the placement it
//! leads to with that one's image by their cells (`Placement::twin_packed`, moved along
//! with the placement); the image's index is made only when a move first leads into the
//! image's half (`Image`). The moves of several states are generated, and their words
//! asked for, before the first is looked at (`BATCH`), so that the misses overlap.
//!
//! A group that a symmetry of the board keeps (its home cells, and the goal's free region,
//! mapped onto themselves; `Mirror`) is searched by halves: every state is kept in the
//! placement whose cells are the lower of it and its image (a move compares the two
//! placements' cells and steps only the lower's index). Korf's 8 tiles of the bottom rows
//! keep the mirror left to right: the 7-8 build's 8-tile table expands about half the
//! states. The fields and the values the search writes are indexed in an `Order` of the
//! slots that gathers the placements never kept into whole blocks whose pages are never
//! touched, so they take about half their size in memory; the table, in rank order, is
//! unfolded from those values at the end (`unfold`: each value at its placement's rank
//! and its image's).
//!
//! Memory: the fields plus the values, at most (see `memory`): 1.3 GB for 8 tiles on 4x4
//! (519M placements × 2 bytes, and 4 bits each for the values), of which the search by
//! halves touches 0.7 GB, then 0.4 GB to unfold the table; 0.18 GB for 7 (57.7M × 8/3
//! bytes and 4 bits). Both are anonymous mappings advised into huge pages (see
//! `super::memory`).
//!
//! Values are stored as `(value − Manhattan distance of the group) / 2` in 4 bits: every
//! move of a group tile changes its Manhattan distance by one, so the difference is even,
//! and it stays small where the value itself would not fit. 15 marks a placement the search
//! never reached (only possible when the group holds every tile, where half the placements
//! have the other parity); differences above 14 would be stored as 14, which stays admissible
//! (the builder reports how many).

use super::index::{compress, home_distances, placements, select, Grid, PartialRanker};
use super::lookup::{symmetries, CellMap};
use super::memory::Zeroed;
use crate::puzzle::Shape;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Not reached by the search.
pub(crate) const UNREACHED: u8 = 15;
/// The largest difference a nibble stores.
pub(crate) const MAX_DELTA: u8 = 14;

/// Words of the field array handed to one parallel task (and one "written" flag).
const CHUNK_WORDS: usize = 1024;
/// The low bit of every 2-bit code.
const LOW: u64 = 0x5555_5555_5555_5555;
/// A region's done cells.
const DONE: u64 = 0b11;

/// What a build produced.
pub(crate) struct Built {
    /// Two entries a byte, low nibble first.
    pub packed: Vec<u8>,
    /// Placements whose difference exceeded [`MAX_DELTA`] and was stored as it.
    pub clamped: u64,
    /// The largest value (moves of the group's tiles).
    pub max_value: u32,
}

/// Bits of one placement's field: 2 per free cell (at most 64: 32 free cells).
fn field_bits(free: usize) -> u32 {
    assert!(free <= 32, "a field holds at most 32 free cells");
    2 * free as u32
}

/// The low `bits` bits set (`bits` from 1 to 64).
#[inline]
fn low_bits(bits: u32) -> u64 {
    u64::MAX >> (64 - bits)
}

/// Bytes a build of a `k`-tile group on `n` cells holds at most: the fields and the values
/// (a search by halves touches about half of them, see [`Order`]).
pub(crate) fn memory(n: usize, k: usize) -> u64 {
    let total = placements(n, k);
    let per_word = 64 / field_bits(n - k) as u64;
    total.div_ceil(per_word) * 8 + total.div_ceil(2)
}

/// The 2-bit fields of every placement, shared by the worker threads, and which chunks
/// hold a frontier of each parity.
struct Fields {
    words: Zeroed<AtomicU64>,
    /// Bits of one field, and fields a word (as many as fit: 3 of 18 bits for 9 free
    /// cells). When that is a power of two (4 of 16 bits for 8 free cells), `shift` is its
    /// logarithm and `magic` 0; else `magic` is `⌈2^64 / per_word⌉`, whose product with an
    /// index has the index's word in its high half.
    bits: u32,
    per_word: u64,
    shift: u32,
    magic: u64,
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
            words: Zeroed::new(words),
            bits,
            per_word,
            shift: per_word.trailing_zeros(),
            magic: if per_word.is_power_of_two() {
                0
            } else {
                u64::MAX / per_word + 1
            },
            written: [flags(), flags()],
        }
    }

    /// The word of placement `q`: `q / per_word`, by a shift for a power of two (the 8-tile
    /// build's 4 fields a word: the multiplication lay on the way to each of its misses),
    /// else by a multiplication (exact while `q` is below `2^64 / per_word`; indexes are
    /// below 2^52).
    #[inline]
    fn word(&self, q: u64) -> u64 {
        if self.magic == 0 {
            q >> self.shift
        } else {
            ((q as u128 * self.magic as u128) >> 64) as u64
        }
    }

    /// The word of placement `q` and the shift of its field in it.
    #[inline]
    fn locate(&self, q: u64) -> (usize, u32) {
        let w = self.word(q);
        let slot = if self.magic == 0 {
            (q & (self.per_word - 1)) as u32
        } else {
            (q - w * self.per_word) as u32
        };
        (w as usize, slot * self.bits)
    }

    /// Marks the free cell `entry` of placement `q` (the cell the blank entered a region by)
    /// on the frontier of `parity`, unless that cell is seen. Returns `None` when it was
    /// seen, else whether the placement had no region seen (as far as this thread saw: two
    /// threads marking one placement at once may both say so, see [`Level::write_value`]).
    ///
    /// The word is read, then one atomic OR whose old value is not asked for (a plain
    /// locked OR; an OR returning the old word was a compare-and-swap loop): the cell is
    /// `00` (not seen), `11` (its region was expanded) or already holds this parity's code
    /// (its region was reached at this level through another move), and OR-ing the code
    /// into any of those is right. It never holds the other parity's code: that is the
    /// level being expanded, and a move never leads from a level to the same level (every
    /// move changes the group's Manhattan distance by one, so a state's level has the
    /// parity of its distance). A cell read as not seen may be marked by another thread in
    /// between: with the same code, as both moves lead to the next level.
    #[inline]
    fn mark(&self, q: u64, entry: u32, parity: usize) -> Option<bool> {
        let (w, shift) = self.locate(q);
        let entry_bits = DONE << (2 * entry + shift);
        let code = (1u64 << parity) << (2 * entry + shift);
        let old = self.words[w].load(Relaxed);
        if old & entry_bits != 0 {
            return None;
        }
        self.words[w].fetch_or(code, Relaxed);
        let flag = &self.written[parity][w / CHUNK_WORDS];
        if !flag.load(Relaxed) {
            flag.store(true, Relaxed);
        }
        Some((old >> shift) & low_bits(self.bits) == 0)
    }

    /// Asks the CPU to fetch placement `q`'s word, soon to be read.
    #[inline]
    fn prefetch(&self, q: u64) {
        crate::util::prefetch(&self.words[self.word(q) as usize]);
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
/// Moves generated (and their words asked for) before the first of them is looked at: the
/// field array is far larger than the caches, so each look is a miss, and asking for many
/// at once overlaps them.
const BATCH: usize = 96;

/// A generated move not looked at yet: the index it leads to, the index among the free cells
/// after it of the cell the tile left (the blank is there now), and the group's Manhattan
/// distance there. With a [`Mirror`], `q` is the canonical placement's index of the two,
/// and `twin` says whether the other is another placement (whose value the table gets
/// too, see [`unfold`]).
#[derive(Clone, Copy, Default)]
struct Pending {
    q: u64,
    twin: bool,
    entry: u8,
    md: u8,
}

/// One worker's moves waiting to be looked at, and the placements they reached first
/// (index, Manhattan distance) waiting for their values to be written.
struct Batch {
    moves: [Pending; BATCH + MAX_MOVES],
    len: usize,
    firsts: [(u64, u8, bool); BATCH + MAX_MOVES],
    nfirsts: usize,
    /// Entry cells marked and placements found so far.
    found: (u64, u64),
}

/// The search's fixed data, for boards of at most `C` cells (16, or 32 for the boards of
/// more than 16 cells: 5x5), so that the 4x4 builds keep their arrays and masks.
struct Space<const C: usize> {
    grid: Grid,
    ranker: PartialRanker,
    k: usize,
    /// The fields' order of the slots ([`Order`]).
    order: Order,
    /// `dist[slot][cell]`: Manhattan distance of the slot's tile at `cell` from its home.
    dist: [[u8; C]; 16],
    /// `passed[j][i]`: what a move of slot `j`'s tile over slot `i`'s adds to the index's
    /// change ([`Space::step`]), with [`NO_SLOT`] for a free cell.
    passed: [[u64; 32]; 16],
    /// A symmetry the whole search keeps, when there is one: only one state of each pair
    /// it swaps is searched.
    mirror: Option<Mirror>,
}

/// A symmetry `φ` of the board that is its own inverse and maps the group's home cells onto
/// themselves and the goal's free region onto itself (on 4x4 with Korf's goal, the mirror
/// left to right for the 8 tiles of the bottom rows). Then `φ` maps the abstract space onto
/// itself, level by level: a placement and its image (slot `j`'s tile on cell `c` becomes
/// slot `σ(j)`'s on `φ(c)`, where `σ(j)` is the slot whose home is `φ` of `j`'s home) have
/// one value, and a state and its image are reached at one level. The search keeps each
/// state in the placement of the lower rank of the two ("canonical"), so it expands about
/// half the states and looks at half the moves; a placement reached first gets its value
/// written at both ranks.
struct Mirror {
    /// `φ(cell)`.
    cell: CellMap,
    /// `σ(slot)`.
    slot: [u8; 16],
    /// `φ` on the low and high bytes of a cell mask.
    lo: [u16; 256],
    hi: [u16; 256],
}

impl Mirror {
    /// The first symmetry of `shape` (in [`symmetries`]' order) that the search of the group
    /// whose homes are `home` (leaving the cells `free`), for a goal blank on `blank`, keeps;
    /// `None` when none does.
    fn find(shape: Shape, blank: usize, home: &[u8], free: u32, grid: &Grid) -> Option<Mirror> {
        let n = shape.cells();
        let region = grid.region(1 << blank, free);
        symmetries(shape).into_iter().skip(1).find_map(|phi| {
            if !(0..n).all(|c| phi[phi[c] as usize] as usize == c) {
                return None; // not its own inverse
            }
            let slot: Option<Vec<u8>> = home
                .iter()
                .map(|&h| {
                    home.iter()
                        .position(|&x| x == phi[h as usize])
                        .map(|j| j as u8)
                })
                .collect();
            let m = Mirror::new(phi, &slot?);
            (m.mask(region) == region).then_some(m)
        })
    }

    fn new(cell: CellMap, slots: &[u8]) -> Mirror {
        let image = |bits: u32, offset: u32| -> u16 {
            (0..8)
                .filter(|b| bits >> b & 1 != 0)
                .map(|b| 1u16 << cell[(b + offset) as usize & 15])
                .fold(0, |a, x| a | x)
        };
        let mut slot = [0u8; 16];
        slot[..slots.len()].copy_from_slice(slots);
        Mirror {
            cell,
            slot,
            lo: std::array::from_fn(|b| image(b as u32, 0)),
            hi: std::array::from_fn(|b| image(b as u32, 8)),
        }
    }

    /// `φ` of a cell mask.
    #[inline]
    fn mask(&self, m: u32) -> u32 {
        (self.lo[(m & 255) as usize] | self.hi[(m >> 8 & 255) as usize]) as u32
    }
}

/// The cells the group whose homes are `home` leaves free when it is at home.
fn free_at_home(grid: &Grid, home: &[u8]) -> u32 {
    grid.full & !home.iter().fold(0u32, |m, &c| m | 1 << c)
}

/// [`Placement::slot_at`] of a free cell.
const NO_SLOT: u8 = 16;

/// The order in which a placement's index in the fields takes the slots (a partial Lehmer
/// code as the table's rank, whose order is the slots'). With a [`Mirror`] that swaps slot 0
/// with another slot `s`: slot 0, then `s`, then the others in slot order; else slot order.
///
/// A state is kept in the lower of its placement and the image (by their cells in slot
/// order, [`Placement::packed`]), which compares slot 0's cell `a` with the image's, `φ(b)`
/// for slot `s`'s cell `b`, first: no placement with `a > φ(b)` is ever kept. In this order
/// such placements fill whole blocks of consecutive indices, one for each `(a, b)` (14!/8!
/// placements, 4.3 MB of fields and 1.1 MB of values for 8 tiles on 4x4), 112 of the 240,
/// whose pages are never touched: the fields and values take about half their size in
/// memory. In slot order they would be scattered over every page.
#[derive(Clone, Copy)]
struct Order {
    /// `slot[p]`: the slot at position `p`.
    slot: [u8; 16],
    /// `pos[j]`: the position of slot `j`.
    pos: [u8; 16],
}

impl Order {
    fn new(k: usize, mirror: Option<&Mirror>) -> Order {
        let mut slot: Vec<u8> = (0..k as u8).collect();
        if let Some(s) = mirror.map(|m| m.slot[0]).filter(|&s| s > 1) {
            slot.remove(s as usize);
            slot.insert(1, s);
        }
        let mut order = Order {
            slot: [0; 16],
            pos: [0; 16],
        };
        for (p, &j) in slot.iter().enumerate() {
            order.slot[p] = j;
            order.pos[j as usize] = p as u8;
        }
        order
    }
}

/// `passed[j][i]` of [`Space`]: slot `j`'s tile moving over the tile of a slot earlier in
/// `order` lowers its digit's change by one, −`w_j` (wrapping, `w_j` the weight of `j`'s
/// position); over a later slot's, that slot's digit changes by one, `w_i`; over a free
/// cell, nothing.
fn passed(ranker: &PartialRanker, k: usize, order: &Order) -> [[u64; 32]; 16] {
    std::array::from_fn(|j| {
        std::array::from_fn(|i| match i {
            _ if i >= k || j >= k => 0,
            _ if order.pos[i] < order.pos[j] => ranker.weight(order.pos[j] as usize).wrapping_neg(),
            _ => ranker.weight(order.pos[i] as usize),
        })
    })
}

/// One frontier placement, unranked once for all its regions: its index in the fields
/// ([`Order`]), where its tiles are, which slot holds each cell, its free cells and its
/// Manhattan distance.
#[derive(Clone, Copy)]
struct Placement<const C: usize> {
    index: u64,
    cells: [u8; 16],
    /// `cells` as 4-bit digits, slot 0's the highest. Ranks are in the lexicographic order
    /// of the cells (see [`PartialRanker`]), so two placements' ranks compare as these do:
    /// a move picks the lower of its placement and the mirror image by comparing them, and
    /// steps the rank of that one only.
    packed: u64,
    /// With a [`Mirror`], `packed` of the image: a move compares the two, and the image
    /// itself (its index, which slot holds each cell) is made only for the moves that lead
    /// to a state kept in the image's placement ([`Image`]). 0 without a mirror.
    twin_packed: u64,
    /// The slot whose tile is on each cell, [`NO_SLOT`] on free cells.
    slot_at: [u8; C],
    occupied: u32,
    free: u32,
    md: u32,
}

impl<const C: usize> Space<C> {
    /// The placement of index `index` in the fields.
    fn placement(&self, index: u64) -> Placement<C> {
        let mut at = [0u8; 16];
        self.ranker.unrank(index, &mut at);
        let mut cells = [0u8; 16];
        for p in 0..self.k {
            cells[self.order.slot[p] as usize & 15] = at[p];
        }
        let mut pl = self.placed(index, cells);
        if let Some(m) = &self.mirror {
            for (j, &c) in cells[..self.k].iter().enumerate() {
                pl.twin_packed |=
                    (m.cell[c as usize & 15] as u64) << digit_shift::<C>(m.slot[j] as usize);
            }
        }
        pl
    }

    /// Turns `pl` into the placement of index `index`, a higher one: when the two differ only
    /// in the last position's digit (they are then in one block of `n − k + 1` consecutive
    /// indexes), by moving that position's tile ([`Space::placement_after`]), else by
    /// unranking.
    ///
    /// The frontier's placements are unranked in index order, and at the busy levels many
    /// of them are a few indexes apart: each unranking was a chain of `k` selects. The
    /// placement is changed where it is, not copied: a copy read back the bytes just
    /// written one at a time as whole vectors, which waited for those stores.
    #[inline]
    fn advance(&self, pl: &mut Placement<C>, index: u64) {
        if !self.placement_after(pl, index) {
            *pl = self.placement(index);
        }
    }

    /// Turns `pl` into the placement of index `index`, a higher one, when the two differ
    /// only in the last position's digit: its tile moved, not unranked again. Returns
    /// whether it did (else `pl` is unchanged).
    #[inline]
    fn placement_after(&self, pl: &mut Placement<C>, index: u64) -> bool {
        let j = self.order.slot[(self.k - 1) & 15] as usize & 15;
        let from = pl.cells[j] as u32;
        let open = pl.free | 1 << from;
        let digit = (open & ((1 << from) - 1)).count_ones() as u64 + (index - pl.index);
        if digit >= open.count_ones() as u64 {
            return false;
        }
        let to = select(open, digit as u32);
        let dist = &self.dist[j];
        pl.index = index;
        pl.cells[j] = to as u8;
        pl.slot_at[from as usize & (C - 1)] = NO_SLOT;
        pl.slot_at[to as usize & (C - 1)] = j as u8;
        pl.packed = moved::<C>(pl.packed, j, from, to);
        if let Some(m) = &self.mirror {
            let (f, t) = (m.cell[from as usize & 15], m.cell[to as usize & 15]);
            pl.twin_packed = moved::<C>(pl.twin_packed, m.slot[j] as usize, f as u32, t as u32);
        }
        pl.occupied = (pl.occupied & !(1 << from)) | 1 << to;
        pl.free = open & !(1 << to);
        pl.md = pl.md + dist[to as usize & (C - 1)] as u32 - dist[from as usize & (C - 1)] as u32;
        true
    }

    /// The index in the fields of the placement whose slots' cells are `cells`.
    fn index(&self, cells: &[u8; 16]) -> u64 {
        let mut at = [0u8; 16];
        for p in 0..self.k {
            at[p] = cells[self.order.slot[p] as usize & 15];
        }
        self.ranker.rank(&at[..self.k])
    }

    /// The image of `pl` under the mirror `m`: slot `σ(j)` on `φ` of slot `j`'s cell.
    fn mirrored(&self, pl: &Placement<C>, m: &Mirror) -> Placement<C> {
        let mut cells = [0u8; 16];
        for j in 0..self.k {
            cells[m.slot[j] as usize & 15] = m.cell[pl.cells[j] as usize & 15];
        }
        let mut im = self.placed(self.index(&cells), cells);
        im.twin_packed = pl.packed;
        im
    }

    /// The placement of index `index` whose slots' cells are `cells`.
    #[inline]
    fn placed(&self, index: u64, cells: [u8; 16]) -> Placement<C> {
        let mut pl = Placement {
            index,
            cells,
            slot_at: [NO_SLOT; C],
            packed: 0,
            twin_packed: 0,
            occupied: 0,
            free: 0,
            md: 0,
        };
        for (j, &c) in cells[..self.k].iter().enumerate() {
            pl.slot_at[c as usize & (C - 1)] = j as u8;
            pl.packed |= (c as u64) << digit_shift::<C>(j);
            pl.occupied |= 1 << c;
            pl.md += self.dist[j][c as usize & (C - 1)] as u32;
        }
        pl.free = self.grid.full & !pl.occupied;
        pl
    }

    /// The index after slot `j`'s tile slides from `from` to the free cell `to`, from the
    /// index before: slot `j`'s digit changes by the cells between the two (less the tiles
    /// of slots earlier in the [`Order`] there), and each later slot's tile between them
    /// shifts its digit by one.
    /// A move along a row changes slot `j`'s digit alone, by one. A move along a column
    /// passes the `width − 1` cells between, each adding its [`Space::passed`] (a table, not
    /// a branch on which slot is there: that branch went either way).
    #[inline]
    fn step(&self, pl: &Placement<C>, j: usize, from: u32, to: u32) -> u64 {
        let (lo, hi) = (from.min(to), from.max(to));
        let passed = &self.passed[j & 15];
        let mut d = self.ranker.weight(self.order.pos[j & 15] as usize) * (hi - lo) as u64;
        let over = |c: u32| passed[pl.slot_at[c as usize & (C - 1)] as usize & 31];
        if hi - lo == 4 {
            // Along a column of a board 4 wide: three cells between, summed as a tree.
            d = d.wrapping_add(
                over(lo + 1)
                    .wrapping_add(over(lo + 2))
                    .wrapping_add(over(lo + 3)),
            );
        } else {
            for c in lo + 1..hi {
                d = d.wrapping_add(over(c));
            }
        }
        if to > from {
            pl.index + d
        } else {
            pl.index - d
        }
    }
}

/// The shift of slot `j`'s digit in [`Placement::packed`]: 4 bits a digit on boards of at
/// most 16 cells, 5 on larger ones (whose groups have at most 12 tiles, see [`build`]).
#[inline]
fn digit_shift<const C: usize>(j: usize) -> u32 {
    if C <= 16 {
        60 - 4 * (j as u32 & 15)
    } else {
        59 - 5 * (j as u32 % 12)
    }
}

/// `packed` with slot `j`'s cell `from` replaced by `to`.
#[inline]
fn moved<const C: usize>(packed: u64, j: usize, from: u32, to: u32) -> u64 {
    packed - ((from as u64) << digit_shift::<C>(j)) + ((to as u64) << digit_shift::<C>(j))
}

/// The mirror image of the placement being expanded, made when a move first needs it (most
/// moves keep their state in the placement's own half, see [`Mirror`]).
struct Image<const C: usize> {
    pl: Placement<C>,
    ready: bool,
}

/// One level's search: the fixed data, the fields, what it writes (the table and the count
/// of clamped differences), and the level.
struct Level<'a, const C: usize> {
    space: &'a Space<C>,
    fields: &'a Fields,
    /// Two entries a byte, each stored as `UNREACHED ^ difference` (so zeroed memory holds
    /// unreached entries).
    values: &'a [AtomicU8],
    clamped: &'a AtomicU64,
    depth: u32,
}

/// Builds the table of a group whose tiles' goal cells are `home` (in slot order), for a
/// goal with its blank at `blank`. `progress(reached, total)` is called now and then with
/// placements reached so far.
pub(crate) fn build(
    shape: Shape,
    blank: usize,
    home: &[u8],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Built {
    if shape.cells() <= 16 {
        build_in::<16>(shape, blank, home, progress, true)
    } else {
        build_in::<32>(shape, blank, home, progress, true)
    }
}

/// [`build`] with the arrays of boards of at most `C` cells; by halves where a [`Mirror`]
/// allows it and `halves` is set (the tests compare the two).
fn build_in<const C: usize>(
    shape: Shape,
    blank: usize,
    home: &[u8],
    progress: &(dyn Fn(u64, u64) + Sync),
    halves: bool,
) -> Built {
    let n = shape.cells();
    assert!(n <= C && (C <= 16 || home.len() <= 12));
    let k = home.len();
    let total = placements(n, k);
    let ranker = PartialRanker::new(n, k);
    let grid = Grid::new(shape);
    let free = free_at_home(&grid, home);
    // The mirror's cell maps are of 16 cells: larger boards search every state.
    let mirror = if C <= 16 && halves {
        Mirror::find(shape, blank, home, free, &grid)
    } else {
        None
    };
    let order = Order::new(k, mirror.as_ref());
    let space = Space::<C> {
        mirror,
        grid,
        passed: passed(&ranker, k, &order),
        order,
        ranker,
        k,
        dist: home_distances::<C>(shape, home),
    };
    let fields = Fields::new(total, n - k);
    let mut values: Zeroed<AtomicU8> = Zeroed::new(total.div_ceil(2) as usize);
    let clamped = AtomicU64::new(0);

    // Level 0: the group at home, the blank in the goal blank's region. Not in any free
    // region: when the group's home cells wall the goal's blank cell off from other free
    // cells (7 tiles in the top two rows, the blank top left), a blank outside must push a
    // group tile to get home, and the table counts those moves; every real solution ends
    // with the blank in its goal cell, so this stays admissible.
    let mut home_cells = [0u8; 16];
    home_cells[..k].copy_from_slice(home);
    let p0 = space.index(&home_cells);
    let entry = (free & ((1 << blank) - 1)).count_ones();
    fields.mark(p0, entry, 0);
    values[(p0 / 2) as usize].fetch_or(UNREACHED << ((p0 % 2) * 4), Relaxed);

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
        // the level marked no state at all (`states` counts marks, a state reached through
        // several entry cells once for each).
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
    // The fields go first, so that the table's copy does not add to the peak.
    drop(fields);
    let packed = match &space.mirror {
        Some(m) => unfold(&space, m, values.bytes()),
        None => values.bytes().iter().map(|b| b ^ 0xFF).collect(),
    };
    Built {
        packed,
        clamped: clamped.into_inner(),
        max_value,
    }
}

/// The table of a search by halves, from its `values` (in the fields' [`Order`], two a
/// byte as `UNREACHED ^ difference`, 0 where not written: only the canonical placements
/// have them): each one's difference at the rank of its placement and of the image. A
/// chunk of values is walked in index order ([`Walk`]), not unranked at each entry.
fn unfold<const C: usize>(space: &Space<C>, m: &Mirror, values: &[u8]) -> Vec<u8> {
    const BYTES: usize = 1 << 16;
    let (k, total) = (
        space.k,
        placements(space.grid.full.count_ones() as usize, space.k),
    );
    // Every entry starts unreached (15); a written one's bits are cleared to its difference.
    let mut table = vec![0xFFu8; values.len()];
    // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`, and the view
    // borrows `table` mutably for as long as it lives.
    let entries: &[AtomicU8] =
        unsafe { &*(table.as_mut_slice() as *mut [u8] as *const [AtomicU8]) };
    let clear = |rank: u64, stored: u8| {
        entries[(rank / 2) as usize].fetch_and(!(stored << ((rank % 2) * 4)), Relaxed);
    };
    values
        .par_chunks(BYTES)
        .enumerate()
        .for_each(|(ci, chunk)| {
            // A block never kept (its pages never touched) is skipped whole.
            if chunk.iter().all(|&b| b == 0) {
                return;
            }
            let first = (ci * BYTES) as u64 * 2;
            let mut walk = Walk::new(space, first);
            let mut image = [0u8; 16];
            // The images' entries lie anywhere: asked for a batch at a time (as `BATCH`).
            let (mut images, mut len) = ([(0u64, 0u8); BATCH], 0);
            for q in first..(first + 2 * chunk.len() as u64).min(total) {
                let stored = (chunk[((q - first) / 2) as usize] >> (4 * (q % 2))) & 15;
                if stored != 0 {
                    for j in 0..k {
                        image[m.slot[j] as usize & 15] = m.cell[walk.cell(j) as usize & 15];
                    }
                    clear(q.wrapping_add(walk.offset), stored);
                    let rank = space.ranker.rank(&image[..k]);
                    crate::util::prefetch(&entries[(rank / 2) as usize]);
                    images[len] = (rank, stored);
                    len += 1;
                    if len == BATCH {
                        images.iter().for_each(|&(r, s)| clear(r, s));
                        len = 0;
                    }
                }
                if q + 1 < total {
                    walk.next();
                }
            }
            images[..len].iter().for_each(|&(r, s)| clear(r, s));
        });
    table
}

/// Placements in the order of their indexes in the fields, from one on: each step changes
/// the last digits only, and most steps the last one.
struct Walk<'a, const C: usize> {
    space: &'a Space<C>,
    /// By position: the digit, the cell, and the cells of the positions before.
    digits: [u8; 16],
    at: [u8; 16],
    used: [u32; 17],
    /// The last position whose slot is not the slot of that number: after it the two
    /// orders take the same slots with the same digits, so a placement's rank is its index
    /// plus `offset` (wrapping), the difference of its first digits' weights in the two.
    head: usize,
    offset: u64,
}

impl<'a, const C: usize> Walk<'a, C> {
    fn new(space: &'a Space<C>, index: u64) -> Walk<'a, C> {
        let k = space.k;
        let mut walk = Walk {
            space,
            digits: [0; 16],
            at: [0; 16],
            used: [0; 17],
            head: (0..k)
                .rev()
                .find(|&p| space.order.slot[p] as usize != p)
                .unwrap_or(0),
            offset: 0,
        };
        space.ranker.unrank(index, &mut walk.at);
        for p in 0..k {
            let c = walk.at[p];
            walk.digits[p] = c - (walk.used[p] & ((1 << c) - 1)).count_ones() as u8;
            walk.used[p + 1] = walk.used[p] | 1 << c;
        }
        walk.reoffset();
        walk
    }

    /// Slot `j`'s cell.
    #[inline]
    fn cell(&self, j: usize) -> u8 {
        self.at[self.space.order.pos[j & 15] as usize & 15]
    }

    fn reoffset(&mut self) {
        let (ranker, head) = (&self.space.ranker, self.head);
        let index: u64 = (0..=head)
            .map(|p| self.digits[p] as u64 * ranker.weight(p))
            .sum();
        let mut cells = [0u8; 16];
        for (j, c) in cells.iter_mut().enumerate().take(head + 1) {
            *c = self.cell(j);
        }
        // The rank of the first slots alone: the later slots' digits are 0.
        let rank = ranker.rank(&cells[..head + 1]);
        self.offset = rank.wrapping_sub(index);
    }

    /// The next placement (not called past the last).
    #[inline]
    fn next(&mut self) {
        let (k, n) = (self.space.k, self.space.grid.full.count_ones());
        let mut p = k - 1;
        loop {
            self.digits[p] += 1;
            if (self.digits[p] as u32) < n - p as u32 {
                break;
            }
            self.digits[p] = 0;
            p -= 1;
        }
        for i in p..k {
            let c = select(!self.used[i], self.digits[i] as u32);
            self.at[i] = c as u8;
            self.used[i + 1] = self.used[i] | 1 << c;
        }
        if p <= self.head {
            self.reoffset();
        }
    }
}

impl<const C: usize> Level<'_, C> {
    /// Expands every frontier region of the level and marks it done. Returns the entry cells
    /// marked (the states reached, some of them more than once) and the placements the
    /// level reached for the first time.
    fn run(&self) -> (u64, u64) {
        let (space, fields) = (self.space, self.fields);
        let parity = (self.depth % 2) as usize;
        let field_mask = low_bits(fields.bits);
        // The chunks that hold this level's frontier, listed first and then handed out a
        // few at a time: a late level's frontier lies in a few ranges of ranks, and splitting
        // all the chunks in halves left one worker with most of it.
        let frontier: Vec<usize> = (fields.written[parity].iter().enumerate())
            .filter(|(_, flag)| flag.swap(false, Relaxed))
            .map(|(ci, _)| ci)
            .collect();
        frontier
            .par_iter()
            .with_max_len(4)
            .map(|&ci| {
                let end = fields.words.len().min((ci + 1) * CHUNK_WORDS);
                let chunk = &fields.words[ci * CHUNK_WORDS..end];
                let mut batch = Batch {
                    moves: [Pending::default(); BATCH + MAX_MOVES],
                    len: 0,
                    firsts: [(0, 0, false); BATCH + MAX_MOVES],
                    nfirsts: 0,
                    found: (0, 0),
                };
                // The placement expanded, turned into each next one in turn (from one of a
                // lower index: the chunk's first).
                let mut pl = space.placement((ci * CHUNK_WORDS) as u64 * fields.per_word);
                let mut image = Image { pl, ready: false };
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
                    let mut done = 0u64;
                    while left != 0 {
                        let slot = left.trailing_zeros() / fields.bits;
                        let shift = slot * fields.bits;
                        let mut frontier = (all >> shift) & field_mask;
                        left &= !(field_mask << shift);
                        space.advance(&mut pl, w * fields.per_word + slot as u64);
                        image.ready = false;
                        while frontier != 0 {
                            let bi = frontier.trailing_zeros() / 2;
                            let region = self.expand(&mut batch, &pl, &mut image, bi);
                            // The region's cells, its other entry cells among them: done.
                            let cells = spread(compress(region, pl.free)) * DONE;
                            frontier &= !cells;
                            done |= cells << shift;
                            if batch.len >= BATCH {
                                self.flush(&mut batch);
                            }
                        }
                    }
                    word.fetch_or(done, Relaxed);
                }
                // The last moves, then the values of what they reached first.
                self.flush(&mut batch);
                self.flush(&mut batch);
                batch.found
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }

    /// Generates the moves of the region state of placement `pl` whose entry is free cell
    /// `bi` (every group tile next to the blank's region slides into it) into `batch`,
    /// asking for the word each leads to. Returns the region's cells.
    ///
    /// The tiles are those on the region's border, found from its cells, not by trying each
    /// of the group's tiles: a region touches 3 or 4 of 8 on average, and each tile tried
    /// was a branch the CPU could not predict.
    ///
    /// With a [`Mirror`], each move's state is kept in the placement of the lower rank of
    /// the two; `pl`'s image is made (into `image`) when a move first leads to the image's.
    #[inline]
    fn expand(&self, batch: &mut Batch, pl: &Placement<C>, image: &mut Image<C>, bi: u32) -> u32 {
        let s = self.space;
        let free = pl.free;
        let region = s.grid.region(1 << select(free, bi), free);
        let mut border = s.grid.spread(region) & pl.occupied;
        while border != 0 {
            let from = border.trailing_zeros();
            border &= border - 1;
            let j = pl.slot_at[from as usize & (C - 1)] as usize;
            let dist = &s.dist[j];
            let mut into = s.grid.adjacent[from as usize & (C - 1)] & region;
            while into != 0 {
                let to = into.trailing_zeros();
                into &= into - 1;
                let free = (free & !(1 << to)) | (1 << from);
                let md = pl.md + dist[to as usize & (C - 1)] as u32
                    - dist[from as usize & (C - 1)] as u32;
                let (q, twin, entry) = match &s.mirror {
                    Some(m) => {
                        let (f, t) = (
                            m.cell[from as usize & 15] as u32,
                            m.cell[to as usize & 15] as u32,
                        );
                        let (mine, theirs) = (
                            moved::<C>(pl.packed, j, from, to),
                            moved::<C>(pl.twin_packed, m.slot[j] as usize, f, t),
                        );
                        if theirs < mine {
                            if !image.ready {
                                image.pl = s.mirrored(pl, m);
                                image.ready = true;
                            }
                            let entry = (m.mask(free) & ((1 << f) - 1)).count_ones();
                            (s.step(&image.pl, m.slot[j] as usize, f, t), true, entry)
                        } else {
                            (
                                s.step(pl, j, from, to),
                                theirs != mine,
                                (free & ((1 << from) - 1)).count_ones(),
                            )
                        }
                    }
                    None => (
                        s.step(pl, j, from, to),
                        false,
                        (free & ((1 << from) - 1)).count_ones(),
                    ),
                };
                self.fields.prefetch(q);
                batch.moves[batch.len % (BATCH + MAX_MOVES)] = Pending {
                    q,
                    twin,
                    entry: entry as u8,
                    md: md as u8,
                };
                batch.len += 1;
            }
        }
        region
    }

    /// Writes the values of the placements the previous flush reached first (their bytes
    /// were asked for then), and looks at the batch's moves: each one's state not seen yet
    /// is marked on the next level's frontier.
    fn flush(&self, batch: &mut Batch) {
        let fields = self.fields;
        for &(q, md, twin) in &batch.firsts[..batch.nfirsts] {
            if self.write_value(q, md as u32, self.depth + 1) {
                batch.found.1 += 1 + u64::from(twin);
            }
        }
        batch.nfirsts = 0;
        let parity = ((self.depth + 1) % 2) as usize;
        for &Pending { q, twin, entry, md } in &batch.moves[..batch.len] {
            if let Some(first) = fields.mark(q, entry as u32, parity) {
                batch.found.0 += 1;
                if first {
                    crate::util::prefetch(&self.values[(q / 2) as usize]);
                    batch.firsts[batch.nfirsts % (BATCH + MAX_MOVES)] = (q, md, twin);
                    batch.nfirsts += 1;
                }
            }
        }
        batch.len = 0;
    }

    /// Writes placement `q`'s value (its group's Manhattan distance `md`), reached at level
    /// `value`. Returns whether it was not written before: two threads that marked one
    /// placement at once may both have found it first ([`Fields::mark`]); they write the
    /// same value, and it counts once.
    #[inline]
    fn write_value(&self, q: u64, md: u32, value: u32) -> bool {
        let delta = ((value - md) / 2).min(MAX_DELTA as u32);
        let shift = (q % 2) * 4;
        let stored = ((UNREACHED as u32 ^ delta) as u8) << shift;
        let old = self.values[(q / 2) as usize].fetch_or(stored, Relaxed);
        let new = (old >> shift) & 15 == 0;
        if new && (value - md) / 2 > MAX_DELTA as u32 {
            self.clamped.fetch_add(1, Relaxed);
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random placements of `k` tiles on 4x4, their index in slot order and in an
    /// [`Order`] that puts slot 3 second: every move's index by [`Space::step`] equals the
    /// index of the moved placement computed from scratch (the rank of its cells taken in
    /// that order), and a placement's cells give back its index.
    #[test]
    fn a_moves_index_from_the_index_before_equals_the_index_after() {
        let shape = Shape::S4X4;
        for (k, second) in [(1, 0), (7, 0), (8, 0), (15, 0), (4, 3), (8, 3), (15, 3)] {
            let ranker = PartialRanker::new(16, k);
            let home: Vec<u8> = (1..=k as u8).collect();
            let mut slots: Vec<u8> = (0..k as u8).collect();
            if second > 0 {
                slots.remove(second);
                slots.insert(1, second as u8);
            }
            let mut order = Order {
                slot: [0; 16],
                pos: [0; 16],
            };
            for (p, &j) in slots.iter().enumerate() {
                (order.slot[p], order.pos[j as usize]) = (j, p as u8);
            }
            let space = Space::<16> {
                grid: Grid::new(shape),
                ranker: ranker.clone(),
                k,
                dist: home_distances::<16>(shape, &home),
                passed: passed(&ranker, k, &order),
                order,
                mirror: None,
            };
            let index = |cells: &[u8; 16]| {
                let at: Vec<u8> = slots.iter().map(|&j| cells[j as usize]).collect();
                ranker.rank(&at)
            };
            let total = placements(16, k);
            let (mut x, mut checked) = (0x9E37_79B9_7F4A_7C15u64, 0);
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let pl = space.placement(x % total);
                assert_eq!(index(&pl.cells), x % total);
                for j in 0..k {
                    let from = pl.cells[j] as u32;
                    let mut into = space.grid.adjacent[from as usize] & pl.free;
                    while into != 0 {
                        let to = into.trailing_zeros();
                        into &= into - 1;
                        let mut moved = pl.cells;
                        moved[j] = to as u8;
                        assert_eq!(space.step(&pl, j, from, to), index(&moved));
                        checked += 1;
                    }
                }
            }
            assert!(checked > 1000, "{k} tiles, {slots:?}: {checked} moves");
        }
    }

    /// A placement found from one a few indexes before it ([`Space::placement_after`]) is
    /// the placement unranked: same cells, slots by cell, digits, masks and distance; and
    /// none is found from one whose earlier positions differ.
    #[test]
    fn a_placement_from_the_one_before_equals_the_placement_unranked() {
        let shape = Shape::S4X4;
        let grid = Grid::new(shape);
        for home in [
            (8..16).collect::<Vec<u8>>(),
            (1..8).collect(),
            vec![12, 13, 14, 15, 8, 11],
        ] {
            let k = home.len();
            let m = Mirror::find(shape, 0, &home, free_at_home(&grid, &home), &grid);
            let ranker = PartialRanker::new(16, k);
            let order = Order::new(k, m.as_ref());
            let space = Space::<16> {
                grid: grid.clone(),
                passed: passed(&ranker, k, &order),
                order,
                ranker,
                k,
                dist: home_distances::<16>(shape, &home),
                mirror: m,
            };
            let (total, range) = (placements(16, k), 16 - k as u64 + 1);
            let (mut x, mut found) = (0x2545_F491_4F6C_DD1Du64, 0);
            for _ in 0..3000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let (a, gap) = (x % (total - range), (x >> 40) % range + 1);
                let mut pl = space.placement(a);
                if !space.placement_after(&mut pl, a + gap) {
                    assert_ne!(a / range, (a + gap) / range, "{home:?} {a} +{gap}");
                    assert_eq!(pl.index, a, "left as it was");
                    continue;
                }
                assert_eq!(a / range, (a + gap) / range, "{home:?} {a} +{gap}");
                let want = space.placement(a + gap);
                assert_eq!(
                    (pl.index, pl.cells, pl.slot_at),
                    (want.index, want.cells, want.slot_at)
                );
                assert_eq!(
                    (pl.packed, pl.twin_packed, pl.occupied, pl.free, pl.md),
                    (
                        want.packed,
                        want.twin_packed,
                        want.occupied,
                        want.free,
                        want.md
                    )
                );
                if let Some(m) = &space.mirror {
                    assert_eq!(pl.twin_packed, space.mirrored(&want, m).packed);
                }
                found += 1;
            }
            assert!(found > 300, "{home:?}: {found} found");
        }
    }

    /// Every entry of the table of the group whose homes are `home` (goal blank `blank`)
    /// equals a plain 0-1 breadth-first search over (placement, blank cell) from the goal.
    fn check_against_plain_search(shape: Shape, blank: usize, home: &[u8]) {
        use std::collections::VecDeque;
        let n = shape.cells();
        let grid = Grid::new(shape);
        let k = home.len();
        let ranker = PartialRanker::new(n, k);
        let total = placements(n, k) as usize;
        // Fewest group moves to (placement, blank) from the goal, blank moves free.
        let mut dist = vec![u32::MAX; total * n];
        let start = ranker.rank(home) as usize * n + blank;
        dist[start] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(state) = queue.pop_front() {
            let (rank, blank) = ((state / n) as u64, state % n);
            let mut cells = [0u8; 16];
            ranker.unrank(rank, &mut cells);
            let mut to = grid.adjacent[blank];
            while to != 0 {
                let c = to.trailing_zeros() as u8;
                to &= to - 1;
                let mut moved = cells;
                let cost = match moved[..k].iter().position(|&x| x == c) {
                    Some(j) => {
                        moved[j] = blank as u8;
                        1
                    }
                    None => 0,
                };
                let next = ranker.rank(&moved[..k]) as usize * n + c as usize;
                if dist[state] + cost < dist[next] {
                    dist[next] = dist[state] + cost;
                    if cost == 0 {
                        queue.push_front(next);
                    } else {
                        queue.push_back(next);
                    }
                }
            }
        }
        let built = build(shape, blank, home, &|_, _| {});
        let dists = home_distances::<32>(shape, home);
        let mut cells = [0u8; 16];
        for q in 0..total {
            let want = *dist[q * n..q * n + n].iter().min().unwrap();
            ranker.unrank(q as u64, &mut cells);
            let md: u32 = (0..k).map(|j| dists[j][cells[j] as usize] as u32).sum();
            let stored = (built.packed[q / 2] >> (q % 2 * 4)) & 15;
            assert_eq!(
                md + 2 * stored as u32,
                want,
                "{shape} {home:?} at {:?}",
                &cells[..k]
            );
        }
    }

    /// The build against a plain search on 4x4, for groups whose free cells split into
    /// regions that one level reaches through several cells (each such region must be
    /// expanded once, at the right level): every entry agrees. The blank's goal cell 0 is
    /// walled off by the group's cells 1 and 4.
    #[test]
    fn small_4x4_tables_equal_a_plain_search_over_placement_and_blank() {
        // [1, 4, 5], [1, 4] and [15, 14, 11, 10] keep the diagonal, [12, 13, 14, 15] and
        // [13, 14, 9, 10] the mirror left to right, so those builds search half the states
        // ([`Mirror`]); [2, 7, 8] keeps none.
        for home in [
            vec![1u8, 4, 5],
            vec![15, 14, 11, 10],
            vec![1, 4],
            vec![12, 13, 14, 15],
            vec![13, 14, 9, 10],
            vec![2, 7, 8],
        ] {
            check_against_plain_search(Shape::S4X4, 0, &home);
        }
    }

    /// The same on 5x5 (32-cell arrays, 5-bit digits, a 64-bit field a placement): Korf's
    /// blank corner walled off by 1 and 5, a group in the middle, one on the far corner, and
    /// a blank goal elsewhere.
    #[test]
    fn small_5x5_tables_equal_a_plain_search_over_placement_and_blank() {
        for (blank, home) in [
            (0, vec![1u8, 5, 6]),
            (0, vec![12, 13, 17]),
            (0, vec![24, 19]),
            (12, vec![3, 4, 8]),
            (24, vec![0, 1, 5]),
        ] {
            check_against_plain_search(Shape::S5X5, blank, &home);
        }
    }

    /// A group searched by halves, whose fields' [`Order`] puts its slot 3 second (the
    /// mirror image of slot 0's home): the same table as the search of every state, which
    /// keeps its fields and values in slot order and writes each entry where it is reached.
    #[test]
    fn a_search_by_halves_builds_the_table_of_the_whole_search() {
        let (shape, home) = (Shape::S4X4, [12u8, 13, 14, 15, 8, 11]);
        let grid = Grid::new(shape);
        let m = Mirror::find(shape, 0, &home, free_at_home(&grid, &home), &grid)
            .expect("the group is mirrored");
        assert_eq!(
            &Order::new(home.len(), Some(&m)).slot[..6],
            &[0, 3, 1, 2, 4, 5]
        );
        let halves = build_in::<16>(shape, 0, &home, &|_, _| {}, true);
        let whole = build_in::<16>(shape, 0, &home, &|_, _| {}, false);
        assert_eq!(halves.packed.len(), whole.packed.len());
        let differ = (halves.packed.iter().zip(&whole.packed)).position(|(a, b)| a != b);
        assert_eq!(differ, None, "the first byte that differs");
        assert_eq!(
            (halves.max_value, halves.clamped),
            (whole.max_value, whole.clamped)
        );
        assert!(whole.packed.iter().all(|&b| b & 15 != 15 && b >> 4 != 15));
    }

    /// A field's word by multiplication is the quotient, for every field width, at indexes
    /// up to 2^52 (the largest index of a 12-tile group on 5x5 is below 2^51).
    #[test]
    fn the_word_of_an_index_is_its_quotient_by_the_fields_a_word() {
        for free in 1..=32 {
            let fields = Fields::new(1, free);
            assert_eq!(fields.per_word, 64 / (2 * free as u64));
            let (mut x, d) = (0x2545_F491_4F6C_DD1Du64, fields.per_word);
            for i in 0..10_000u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let q = match i {
                    0..=99 => (1 << 52) - i,
                    100..=199 => ((1 << 52) / d - i) * d,
                    _ => x >> 12,
                };
                assert_eq!(fields.word(q), q / d, "{free} free cells, index {q}");
            }
        }
    }

    /// Which groups the builder searches by halves: Korf's 8 tiles of the bottom rows (the
    /// mirror left to right), not the 7 of the top rows; a group that keeps a symmetry whose
    /// image of the goal's free region differs is searched whole.
    #[test]
    fn the_mirror_is_found_where_the_search_keeps_it() {
        let shape = Shape::S4X4;
        let grid = Grid::new(shape);
        let at_home = |home: &[u8]| free_at_home(&grid, home);
        let bottom: Vec<u8> = (8..16).collect();
        let m = Mirror::find(shape, 0, &bottom, at_home(&bottom), &grid)
            .expect("the bottom rows are mirrored");
        assert_eq!(&m.cell[..4], &[3, 2, 1, 0]);
        assert_eq!(&m.slot[..8], &[3, 2, 1, 0, 7, 6, 5, 4]);
        assert_eq!(m.mask(0b0001_0011), 0b1000_1100);
        let top: Vec<u8> = (1..8).collect();
        assert!(Mirror::find(shape, 0, &top, at_home(&top), &grid).is_none());
        // {5, 6, 9, 10} keeps every symmetry and leaves one free region: mirrored. The top row
        // and the two middle columns, the blank's goal on 4, leave two free regions, {4, 8,
        // 12} and {7, 11, 15}: the one symmetry that keeps the group swaps them.
        assert!(Mirror::find(shape, 0, &[5, 6, 9, 10], at_home(&[5, 6, 9, 10]), &grid).is_some());
        let walls: Vec<u8> = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14].into();
        assert!(Mirror::find(shape, 4, &walls, at_home(&walls), &grid).is_none());
    }
}
