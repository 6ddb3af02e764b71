//! The whole state space of a small board, by distance from a goal: the census behind
//! `tilebench space`, and exact answers for `tilebench gen`.
//!
//! A [`DistanceTable`] holds one byte per permutation rank (`n!` bytes: 363 KB for 3x3,
//! 479 MB for 3x4, plus its BFS frontiers, 1.1 GB at the peak for 3x4) and is built by one
//! BFS from the goal. Distances are symmetric, so the table answers "how far is this start
//! from the goal" for every start at once. The census alone ([`census`], `tilebench space`)
//! needs only 2 bits a rank and expands each level in parallel.

use crate::puzzle::{factorial, Board, Neighbors, Ranker, Shape};

/// The largest board whose space is tabulated: 12 cells (12! bytes = 479 MB for a distance
/// table, 120 MB for a census).
pub(crate) const MAX_TABLE_CELLS: usize = 12;

/// A marker for states the goal cannot reach.
pub(crate) const UNREACHABLE: u8 = u8::MAX;

/// Exact distances to one goal, for every arrangement of its shape.
pub struct DistanceTable {
    goal: Board,
    ranker: Ranker,
    dist: Vec<u8>,
    /// The first move (in move order, as [`crate::puzzle::Move::from_index`]) that takes the
    /// state of each rank one move closer to the goal, 2 bits each (four ranks a byte, see
    /// [`DistanceTable::toward_at`]; 0 for the goal and unreachable states): a walk reads a
    /// table a quarter of `dist`'s size, which stays in the cache.
    toward: Vec<u8>,
    /// `counts[d]`: how many states lie at distance `d`.
    counts: Vec<u64>,
}

/// A board whose state space is too large to tabulate (more than 12 cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the state space of a {shape} board ({}!/2 states) is too large to tabulate; tilebench tabulates boards of at most {MAX_TABLE_CELLS} cells", .shape.cells())]
#[non_exhaustive]
pub struct TooLarge {
    /// The board's shape.
    pub shape: Shape,
}

/// A state's first move closer to the goal, as [`DistanceTable::build_with`] sets it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Toward {
    /// The state's rank.
    pub state: usize,
    /// The state's blank cell.
    pub blank: u8,
    /// The rank of the state that move reaches, one move closer (its parent in the search).
    pub parent: usize,
    /// The parent's blank cell.
    pub parent_blank: u8,
    /// The parent's distance (the state's less one).
    pub parent_distance: u8,
    /// The parent's own first move closer (final; meaningless when the parent is the goal).
    pub parent_toward: u8,
    /// The move from the state to its parent.
    pub back: u8,
}

impl DistanceTable {
    /// Whether a table for this shape is allowed, and if not, why.
    ///
    /// # Errors
    /// A shape of more than `MAX_TABLE_CELLS` (12) cells.
    pub(crate) fn check(shape: Shape) -> Result<(), TooLarge> {
        if shape.cells() > MAX_TABLE_CELLS {
            return Err(TooLarge { shape });
        }
        Ok(())
    }

    /// Builds the table by BFS from `goal`, layer by layer (`n!` bytes for `n` cells).
    ///
    /// # Errors
    /// A goal of more than 12 cells ([`TooLarge`]).
    pub fn build(goal: Board) -> Result<DistanceTable, TooLarge> {
        Self::build_with(goal, |_| ())
    }

    /// As [`DistanceTable::build`], telling `on_toward` each time the search sets a state's
    /// first move closer ([`DistanceTable::toward_at`]): when it finds the state, and again
    /// whenever another state of the level before that the state reaches by a move earlier in
    /// move order is expanded. The last call for a state is its final move; the parent's own
    /// move and every state of the parent's level are final by then, so whatever depends only
    /// on the path to the goal (`table`'s written-out walks) is built during the search.
    ///
    /// # Errors
    /// A goal of more than 12 cells ([`TooLarge`]).
    pub(crate) fn build_with(
        goal: Board,
        mut on_toward: impl FnMut(Toward),
    ) -> Result<DistanceTable, TooLarge> {
        let shape = goal.shape();
        Self::check(shape)?;
        let ranker = Ranker::new(shape);
        let size = factorial(shape.cells()) as usize;
        let mut dist = vec![UNREACHABLE; size];
        let mut toward = vec![0u8; size.div_ceil(4)];
        let field = |r: usize| (r / 4, 2 * (r % 4));
        let neighbors = Neighbors::new(shape);
        // Each state with the move that reached it, so the move back is never tried, and its
        // rank (12! < 2^32).
        let rank32 = |r: u64| u32::try_from(r).expect("at most 12 cells: ranks fit in 32 bits");
        let goal_rank = ranker.rank(goal.packed());
        let mut frontier: Vec<(u64, u8, u8, u32)> =
            vec![(goal.packed(), goal.blank() as u8, 4, rank32(goal_rank))];
        let mut next: Vec<(u64, u8, u8, u32)> = Vec::new();
        dist[goal_rank as usize] = 0;
        let mut counts = vec![1u64];
        let mut d = 0u8;
        while !frontier.is_empty() {
            next.clear();
            for &(cells, blank, last, parent) in &frontier {
                let b = Board::from_parts(shape, cells, blank);
                let (pat, pshift) = field(parent as usize);
                let parent_toward = (toward[pat] >> pshift) & 3;
                for &(m, to) in neighbors.children(blank as usize, last).as_slice() {
                    let c = b.slide_blank_to(to as usize);
                    let r = ranker.rank(c.packed()) as usize;
                    // From the child, the move back to this state is one move closer; of
                    // all such, the first in move order.
                    let back = 3 - m;
                    let (at, shift) = field(r);
                    let set = if dist[r] == UNREACHABLE {
                        dist[r] = d + 1;
                        toward[at] |= back << shift;
                        next.push((c.packed(), to, m, rank32(r as u64)));
                        true
                    } else if dist[r] == d + 1 && back < (toward[at] >> shift) & 3 {
                        toward[at] = toward[at] & !(3 << shift) | back << shift;
                        true
                    } else {
                        false
                    };
                    if set {
                        on_toward(Toward {
                            state: r,
                            blank: to,
                            parent: parent as usize,
                            parent_blank: blank,
                            parent_distance: d,
                            parent_toward,
                            back,
                        });
                    }
                }
            }
            if !next.is_empty() {
                counts.push(next.len() as u64);
            }
            std::mem::swap(&mut frontier, &mut next);
            d += 1;
        }
        Ok(DistanceTable {
            goal,
            ranker,
            dist,
            toward,
            counts,
        })
    }

    /// The goal the distances are to.
    #[cfg(test)]
    pub(crate) fn goal(&self) -> Board {
        self.goal
    }

    /// `start` of a pair whose goal is `goal` (with the blank in this table's goal's cell),
    /// relabelled onto this table ([`relabel`]); as it is when `goal` is this table's own
    /// goal (most datasets' goal), which relabelling would leave unchanged.
    #[inline]
    pub(crate) fn relabelled(&self, start: &Board, goal: &Board) -> Board {
        if *goal == self.goal {
            *start
        } else {
            relabel(start, goal)
        }
    }
    /// The exact number of moves from `b` to the goal, or `None` if unreachable.
    pub fn distance(&self, b: &Board) -> Option<u8> {
        let d = self.dist[self.ranker.rank(b.packed()) as usize];
        (d != UNREACHABLE).then_some(d)
    }
    #[cfg(test)]
    /// The exact distance of `b` and the first move (in move order) that takes it one move
    /// closer (4 at the goal), or `None` if unreachable: a walk to the goal ranks each board
    /// once, not each neighbour it tries.
    #[inline]
    pub(crate) fn step(&self, b: &Board) -> Option<(u8, u8)> {
        self.step_at(self.ranker.rank(b.packed()))
    }

    /// As [`DistanceTable::step`], for the board of rank `r` (by [`DistanceTable::ranker`]).
    #[inline(always)]
    pub(crate) fn step_at(&self, r: u64) -> Option<(u8, u8)> {
        let d = self.dist[r as usize];
        match d {
            UNREACHABLE => None,
            0 => Some((0, 4)),
            _ => Some((d, self.toward_at(r))),
        }
    }
    /// The first move a step closer from the board of rank `r`, a reachable state other than
    /// the goal (as [`DistanceTable::step`]'s second half).
    #[inline(always)]
    pub(crate) fn toward_at(&self, r: u64) -> u8 {
        let r = r as usize;
        (self.toward[r / 4] >> (2 * (r % 4))) & 3
    }
    /// How many ranks the table has (every arrangement, reachable or not).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.dist.len()
    }
    /// The ranks the table is indexed by.
    pub(crate) fn ranker(&self) -> &Ranker {
        &self.ranker
    }
    /// States at each distance, from 0 to the largest.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }
    /// The largest distance of any reachable state.
    pub fn max_distance(&self) -> usize {
        self.counts.len() - 1
    }
    #[cfg(test)]
    /// How many states the goal reaches.
    pub(crate) fn reachable(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Every state at distance `d`, in rank order.
    pub fn states_at(&self, d: u8) -> Vec<Board> {
        let shape = self.goal.shape();
        self.dist
            .iter()
            .enumerate()
            .filter(|(_, &x)| x == d)
            .map(|(r, _)| Board::from_packed(shape, self.ranker.unrank(r as u64)))
            .collect()
    }
}

impl DistanceTable {
    /// The ranks of all states at each distance (index = distance).
    pub fn ranks_by_distance(&self) -> Vec<Vec<u64>> {
        let mut by = vec![Vec::new(); self.counts.len()];
        for (r, &d) in self.dist.iter().enumerate() {
            if d != UNREACHABLE {
                by[d as usize].push(r as u64);
            }
        }
        by
    }
    /// The board with rank `r`.
    pub fn unrank(&self, r: u64) -> Board {
        Board::from_packed(self.goal.shape(), self.ranker.unrank(r))
    }
}

/// The goal a relabelling maps every goal with its blank at `blank` onto: tiles `1..n` in
/// reading order, skipping the blank's cell.
pub(crate) fn canonical_goal(shape: Shape, blank: usize) -> Board {
    let mut next = 1u8;
    let tiles: Vec<u8> = (0..shape.cells())
        .map(|p| {
            if p == blank {
                0
            } else {
                next += 1;
                next - 1
            }
        })
        .collect();
    Board::from_tiles(shape, &tiles)
}

/// The tile names that turn `goal` into its canonical goal: `map[goal's tile] = canonical tile`.
fn canonical_names(goal: &Board) -> [u8; 16] {
    // The canonical goal numbers the tiles 1.. in reading order, skipping the blank.
    let mut map = [0u8; 16];
    let mut next = 1u8;
    for p in 0..goal.shape().cells() {
        let t = goal.tile(p);
        if t != 0 {
            map[t as usize] = next;
            next += 1;
        }
    }
    map
}

/// Renames the tiles of `b` with `map` (the blank stays 0).
fn rename(b: &Board, map: &[u8; 16]) -> Board {
    let mut cells = 0u64;
    for p in 0..b.shape().cells() {
        cells |= (map[b.tile(p) as usize] as u64) << (4 * p);
    }
    Board::from_parts(b.shape(), cells, b.blank() as u8)
}

/// Renames tiles so that `goal` becomes its canonical goal; applies the same names to `b`.
/// Moves are the same before and after, so distances are too.
pub(crate) fn relabel(b: &Board, goal: &Board) -> Board {
    rename(b, &canonical_names(goal))
}

/// Undoes [`relabel`]: a board in canonical names back to `goal`'s names.
pub(crate) fn unlabel(b: &Board, goal: &Board) -> Board {
    let map = canonical_names(goal);
    let mut inverse = [0u8; 16];
    for (t, &c) in map.iter().enumerate() {
        inverse[c as usize] = t as u8;
    }
    inverse[0] = 0;
    rename(b, &inverse)
}

/// Exact distances between any start and any goal of one shape: one [`DistanceTable`] per
/// blank cell of the goal, built when first needed, every goal relabelled onto one of them.
pub(crate) struct Oracle {
    shape: Shape,
    tables: Vec<Option<DistanceTable>>,
}

impl Oracle {
    /// An oracle for boards of `shape`, with no table built yet.
    ///
    /// # Errors
    /// As [`DistanceTable::check`]: a shape of more than [`MAX_TABLE_CELLS`] cells.
    pub(crate) fn new(shape: Shape) -> Result<Oracle, String> {
        DistanceTable::check(shape).map_err(|e| e.to_string())?;
        Ok(Oracle {
            shape,
            tables: (0..shape.cells()).map(|_| None).collect(),
        })
    }

    /// The table for goals with the blank at `blank`.
    pub(crate) fn table(&mut self, blank: usize) -> &DistanceTable {
        let shape = self.shape;
        self.tables[blank].get_or_insert_with(|| {
            DistanceTable::build(canonical_goal(shape, blank)).expect("shape checked")
        })
    }

    /// Drops the table for goals with the blank at `blank` (built again if asked for).
    pub(crate) fn forget(&mut self, blank: usize) {
        self.tables[blank] = None;
    }

    #[cfg(test)]
    /// How many tables are built and held.
    pub(crate) fn held(&self) -> usize {
        self.tables.iter().filter(|t| t.is_some()).count()
    }

    /// The exact number of moves from `start` to `goal`, or `None` when unsolvable.
    pub(crate) fn distance(&mut self, start: &Board, goal: &Board) -> Option<u8> {
        let s = relabel(start, goal);
        self.table(goal.blank()).distance(&s)
    }
}

/// The census of a goal's whole state space: how many states lie at each distance, and the
/// farthest ones.
pub struct Census {
    /// `counts[d]`: how many states lie at distance `d`.
    pub counts: Vec<u64>,
    /// The first of the farthest states, in rank order (as many as asked for).
    pub farthest: Vec<Board>,
}

/// 32 states' 2-bit marks in a word: unseen, expanded, or on one of the two frontiers.
const UNSEEN: u64 = 0b00;
const EXPANDED: u64 = 0b01;
/// The frontier of distance `d` is marked `FRONTIER | (d & 1)`.
const FRONTIER: u64 = 0b10;
/// The low bit of every 2-bit field.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;
/// Words a rayon task scans at a time.
const CHUNK_WORDS: usize = 1 << 12;

/// The census of `goal`'s state space by a breadth-first search over 2 bits per permutation
/// rank (`n!/4` bytes: 120 MB for 12 cells, against [`DistanceTable`]'s `n!`), each level
/// expanded in parallel on rayon's threads: a pass scans the marks for the level's frontier,
/// marks each unseen neighbour as the next frontier (an atomic OR, so two threads reaching
/// one state count it once) and the state itself as expanded. `keep` is how many of the
/// farthest states to return. The counts are [`DistanceTable::build`]'s.
///
/// ```
/// use tilebench::puzzle::{Board, Shape};
/// let c = tilebench::space::census(Board::standard_goal(Shape::S3X3), 2).unwrap();
/// assert_eq!(c.counts.iter().sum::<u64>(), 181_440);
/// assert_eq!((c.counts.len() - 1, c.farthest.len()), (31, 2));
/// ```
///
/// # Errors
/// A goal of more than 12 cells ([`TooLarge`]).
pub fn census(goal: Board, keep: usize) -> Result<Census, TooLarge> {
    use std::sync::atomic::AtomicU64;
    let shape = goal.shape();
    DistanceTable::check(shape)?;
    let ranker = Ranker::new(shape);
    let words: Vec<AtomicU64> = (0..ranker.size().div_ceil(32))
        .map(|_| AtomicU64::new(UNSEEN))
        .collect();
    let r = ranker.rank(goal.packed());
    words[(r / 32) as usize].store(FRONTIER << (2 * (r % 32)), Ordering::Relaxed);
    let level = Level {
        shape,
        ranker: &ranker,
        neighbors: Neighbors::new(shape),
        words: &words,
        weights: place_values(shape.cells()),
    };
    let mut counts = vec![1u64];
    for d in 0.. {
        let (found, farthest) = level.expand(d, keep);
        if found == 0 {
            return Ok(Census { counts, farthest });
        }
        counts.push(found);
    }
    unreachable!("a finite space")
}

use std::sync::atomic::Ordering;

/// One level's pass of [`census`].
struct Level<'a> {
    shape: Shape,
    ranker: &'a Ranker,
    neighbors: Neighbors,
    words: &'a [std::sync::atomic::AtomicU64],
    /// `weights[k] = (n - 1 - k)!`, the place value of a rank's digit `k`.
    weights: [u64; 16],
}

impl Level<'_> {
    /// Expands every state at distance `d`: returns how many states it found at `d + 1`,
    /// and the first `keep` states at `d` in rank order.
    fn expand(&self, d: u32, keep: usize) -> (u64, Vec<Board>) {
        use rayon::prelude::*;
        let here = FRONTIER | (d as u64 & 1);
        let parts: Vec<(u64, Vec<Board>)> = self
            .words
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map(|(c, chunk)| {
                let mut part = (0u64, Vec::new());
                for (i, word) in chunk.iter().enumerate() {
                    // The fields equal to `here` are the zero fields of `w ^ here·LOW_BITS`.
                    let x = word.load(Ordering::Relaxed) ^ (here * LOW_BITS);
                    let mut hits = !(x | x >> 1) & LOW_BITS;
                    while hits != 0 {
                        let field = hits.trailing_zeros() as u64 / 2;
                        hits &= hits - 1;
                        let rank = ((c * CHUNK_WORDS + i) as u64) * 32 + field;
                        part.0 += self.visit(rank, here);
                        if part.1.len() < keep {
                            part.1
                                .push(Board::from_packed(self.shape, self.ranker.unrank(rank)));
                        }
                        // Its own field, here → expanded (other threads may be changing
                        // other fields of the word).
                        word.fetch_xor((here ^ EXPANDED) << (2 * field), Ordering::Relaxed);
                    }
                }
                part
            })
            .collect();
        let found = parts.iter().map(|p| p.0).sum();
        let farthest = parts.into_iter().flat_map(|p| p.1).take(keep).collect();
        (found, farthest)
    }

    /// Marks the unseen neighbours of the state `rank` as the next frontier; returns how
    /// many this call marked. The neighbours' ranks come from the state's own
    /// ([`Lehmer::neighbour`]) and their words are asked for before any is read, so the
    /// cache misses overlap.
    #[inline]
    fn visit(&self, rank: u64, here: u64) -> u64 {
        let next = here ^ 1;
        let state = Lehmer::of(self.ranker.unrank(rank), &self.weights, self.shape.cells());
        let children = self.neighbors.children(state.blank, u8::MAX);
        let mut ranks = [0u64; 4];
        for (r, &(_, to)) in ranks.iter_mut().zip(children.as_slice()) {
            *r = state.neighbour(rank, to as usize);
            crate::util::prefetch(&self.words[(*r / 32) as usize]);
        }
        let mut marked = 0;
        for &r in &ranks[..children.as_slice().len()] {
            let (word, shift) = (&self.words[(r / 32) as usize], 2 * (r % 32));
            if (word.load(Ordering::Relaxed) >> shift) & 0b11 != UNSEEN {
                continue;
            }
            let before = word.fetch_or(next << shift, Ordering::Relaxed);
            marked += ((before >> shift) & 0b11 == UNSEEN) as u64;
        }
        marked
    }
}

/// A state with its Lehmer digits ([`Ranker::rank`]'s: `digits[k]` is how many tiles after
/// cell `k` are smaller than its own, the blank 0 the smallest), from which the rank of a
/// neighbour follows in a few operations instead of a pass over every cell: a move changes
/// only the digits of the two cells it swaps and of the cells between them.
struct Lehmer<'a> {
    cells: u64,
    blank: usize,
    digits: [u64; 16],
    /// `weights[k] = (n - 1 - k)!`, the place value of digit `k` ([`place_values`]).
    weights: &'a [u64; 16],
}

/// The place values of an `n`-cell board's rank digits: `(n - 1 - k)!` for digit `k`.
fn place_values(n: usize) -> [u64; 16] {
    std::array::from_fn(|k| if k < n { factorial(n - 1 - k) } else { 0 })
}

impl<'a> Lehmer<'a> {
    /// The digits of the packed `cells` of an `n`-cell board, whose place values are
    /// `weights`.
    #[inline]
    fn of(cells: u64, weights: &'a [u64; 16], n: usize) -> Lehmer<'a> {
        let mut digits = [0u64; 16];
        let (mut used, mut blank) = (0u32, 0);
        for (k, digit) in digits.iter_mut().enumerate().take(n) {
            let v = ((cells >> (4 * k)) & 0xF) as u32;
            *digit = (v - (used & ((1 << v) - 1)).count_ones()) as u64;
            used |= 1 << v;
            if v == 0 {
                blank = k;
            }
        }
        Lehmer {
            cells,
            blank,
            digits,
            weights,
        }
    }

    /// The rank of the state with the tile at cell `to` slid into the blank's cell, given
    /// this state's `rank`.
    #[inline]
    fn neighbour(&self, rank: u64, to: usize) -> u64 {
        let (w, d) = (self.weights, &self.digits);
        let (i, j) = (self.blank.min(to), self.blank.max(to));
        let t = (self.cells >> (4 * to)) & 0xF;
        // The tiles between the two cells that are smaller than `t`: their count, and the
        // sum of their place values (each of their digits changes by one).
        let (mut between, mut weighted) = (0u64, 0u64);
        for (k, &place) in w.iter().enumerate().take(j).skip(i + 1) {
            let smaller = (((self.cells >> (4 * k)) & 0xF) < t) as u64;
            between += smaller;
            weighted += smaller * place;
        }
        if self.blank == i {
            // `t` moves back from cell j to cell i: its digit there counts the blank, the
            // smaller tiles between and its old digit (the smaller tiles after j); the
            // blank's digit at j is 0, as it was at i.
            rank + w[i] * (1 + between + d[j]) + weighted - w[j] * d[j]
        } else {
            // `t` moves on from cell i to cell j: the same change, undone.
            let after = d[i] - 1 - between;
            rank + w[j] * after - w[i] * d[i] - weighted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_s_step_is_the_first_move_in_move_order_one_closer() {
        // Every board of 3x3 (goal blank in a corner and in the middle) and 2x4: the step's
        // move, found here by trying the four moves in order on the board itself.
        for (goal, size) in [
            ("1 2 3 4 5 6 7 8 0", None),
            ("1 2 3 4 0 5 6 7 8", None),
            ("1 2 3 4 5 6 7 0", Some("4x2")),
        ] {
            let shape = size.map(|s| s.parse().unwrap());
            let goal = Board::parse(goal, shape).unwrap();
            let table = DistanceTable::build(goal).unwrap();
            let (mut checked, mut later_moves) = (0u64, 0u64);
            for r in 0..table.ranker.size() {
                let b = table.unrank(r);
                let Some(d) = table.distance(&b) else {
                    assert_eq!(table.step(&b), None);
                    continue;
                };
                let first = (0..4u8).find(|&m| {
                    b.apply(crate::puzzle::Move::from_index(m))
                        .is_some_and(|c| table.distance(&c) == Some(d.wrapping_sub(1)))
                });
                assert_eq!(table.step(&b), Some((d, first.unwrap_or(4))), "{b}");
                checked += 1;
                later_moves += (first > Some(0)) as u64;
            }
            assert_eq!(checked, table.reachable());
            assert!(later_moves > checked / 4, "{later_moves} of {checked}");
        }
    }

    #[test]
    fn a_neighbour_s_rank_from_the_digits_is_the_ranker_s() {
        // Every state of 2x3 and 3x2 (each move between, along and across the rows), and a
        // spread of 4x3 and 3x4 ranks (the census's shapes, three cells between a vertical
        // move's two).
        for (size, step) in [("2x3", 1), ("3x2", 1), ("4x3", 99_991), ("3x4", 99_991)] {
            let shape: Shape = size.parse().unwrap();
            let ranker = Ranker::new(shape);
            let neighbors = Neighbors::new(shape);
            let weights = place_values(shape.cells());
            for r in (0..ranker.size()).step_by(step) {
                let b = Board::from_packed(shape, ranker.unrank(r));
                let state = Lehmer::of(b.packed(), &weights, shape.cells());
                assert_eq!(state.blank, b.blank(), "{size} {b}");
                for &(_, to) in neighbors.children(b.blank(), u8::MAX).as_slice() {
                    let c = b.slide_blank_to(to as usize);
                    assert_eq!(
                        state.neighbour(r, to as usize),
                        ranker.rank(c.packed()),
                        "{size}: {b} → {c}"
                    );
                }
            }
        }
    }
}
