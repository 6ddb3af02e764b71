//! IDA\* with additive pattern databases on boards of more than 16 cells (the 24-puzzle with
//! Korf and Felner's 6-6-6-6 tables): `idastar` and `idastar-tt` with `heuristic=pdb` hand
//! such boards here ([`super::informed`]).
//!
//! A board is kept as its tiles' cells and its cells' tiles, changed in place. The estimate
//! is the board's Manhattan distance plus twice the sum of the groups' stored differences
//! (a table stores `(value − Manhattan distance of the group) / 2`, see
//! [`super::heuristic::pdb::build`]), for the regular lookups and, with the reflection about
//! the diagonal through the goal's blank (Korf and Felner), for the reflected ones: the
//! larger of the two sums counts. Each group's lookup, regular or reflected, is a
//! [`Lookup`]: which tile goes in each of the table's slots and the cell map its cells are
//! read through (the reflection, and the symmetry that lets one table serve several groups,
//! [`super::heuristic::pdb::Source`]). A move changes one tile, so one regular and one
//! reflected lookup are ranked again; a node ranks its children's lookups and asks for
//! their entries before it reads any, so that the misses overlap. Nothing is allocated per
//! node.

use super::heuristic::pdb::{LookupMode, PdbSet};
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Move, Shape};
use std::sync::Arc;

/// The most cells a board here has (cell masks are `u32`).
const CELLS: usize = 32;

/// One group's lookup: the tiles in the table's slot order, the cell map, the rank weights.
#[derive(Clone, Debug)]
struct Lookup {
    table: usize,
    k: usize,
    tiles: [u8; 16],
    cell: [u8; CELLS],
    weights: [u32; 16],
}

/// The pattern-database estimate of one goal on a board of more than 16 cells.
#[derive(Clone)]
pub struct WidePdb {
    set: Arc<PdbSet>,
    shape: Shape,
    /// The regular lookups, then (with the reflection) the reflected ones.
    lookups: Vec<Lookup>,
    /// Each tile's regular and reflected lookup.
    regular_of: [u8; CELLS],
    reflected_of: [u8; CELLS],
    reflect: bool,
    /// `dist[tile][cell]`: the tile's Manhattan distance from `cell` to its goal cell.
    dist: [[u8; CELLS]; CELLS],
    goal: Board,
}

/// The symmetry of `shape` other than the identity that is its own inverse and keeps the
/// cell `blank` (the diagonal through a corner goal blank), if there is one.
fn reflection(shape: Shape, blank: usize) -> Option<Vec<u8>> {
    let maps = super::heuristic::pdb::symmetry_maps(shape);
    maps.into_iter().skip(1).find(|m| {
        m[blank] as usize == blank && (0..m.len()).all(|c| m[m[c] as usize] as usize == c)
    })
}

impl WidePdb {
    /// The estimate towards `goal` (a board of at most 32 cells whose goal blank is that of
    /// `set`) with the lookups `mode` asks for: the regular sum, and the reflected one
    /// unless `mode` is [`LookupMode::Regular`] or the goal's blank has no reflection.
    pub fn new(goal: &Board, set: Arc<PdbSet>, mode: LookupMode) -> WidePdb {
        let shape = goal.shape();
        let n = shape.cells();
        assert!(n <= CELLS && goal.blank() == set.blank && shape == set.shape);
        let r = reflection(shape, goal.blank()).filter(|_| mode != LookupMode::Regular);
        let identity: Vec<u8> = (0..n as u8).collect();
        let mut lookups = Vec::new();
        let (mut regular_of, mut reflected_of) = ([0u8; CELLS], [0u8; CELLS]);
        for (pass, refl) in [Some(&identity), r.as_ref()].into_iter().enumerate() {
            let Some(refl) = refl else { continue };
            for (g, home) in set.homes.iter().enumerate() {
                let src = &set.sources[g];
                let k = home.len();
                let mut l = Lookup {
                    table: src.table,
                    k,
                    tiles: [0; 16],
                    cell: [0; CELLS],
                    weights: [0; 16],
                };
                for (c, &r) in l.cell.iter_mut().zip(refl.iter()) {
                    *c = src.cell[r as usize];
                }
                for (j, &h) in home.iter().enumerate() {
                    let tile = goal.tile(refl[h as usize] as usize);
                    l.tiles[src.slot[j] as usize] = tile;
                    let of = if pass == 0 {
                        &mut regular_of
                    } else {
                        &mut reflected_of
                    };
                    of[tile as usize] = lookups.len() as u8;
                }
                for (s, w) in l.weights.iter_mut().enumerate().take(k) {
                    *w = super::heuristic::pdb::placements(n - 1 - s, k - 1 - s) as u32;
                }
                lookups.push(l);
            }
        }
        let mut dist = [[0u8; CELLS]; CELLS];
        for p in 0..n {
            let (gr, gc) = shape.row_col(p);
            let t = goal.tile(p) as usize;
            for (c, d) in dist[t].iter_mut().enumerate().take(n) {
                let (r, col) = shape.row_col(c);
                *d = (gr.abs_diff(r) + gc.abs_diff(col)) as u8;
            }
        }
        WidePdb {
            set,
            shape,
            lookups,
            regular_of,
            reflected_of,
            reflect: r.is_some(),
            dist,
            goal: *goal,
        }
    }

    /// Whether the reflected lookups are made.
    pub fn reflects(&self) -> bool {
        self.reflect
    }

    /// The estimate of `board` (its regular and, with the reflection, reflected sums).
    pub fn estimate(&self, board: &Board) -> u32 {
        let live = self.live();
        let pos = positions(board);
        let md = self.manhattan(board);
        let groups = self.set.homes.len();
        let sum = |ls: &[Live]| -> u32 { ls.iter().map(|l| l.delta(l.locate(&pos))).sum() };
        let regular = sum(&live[..groups]);
        let reflected = if self.reflect {
            sum(&live[groups..])
        } else {
            0
        };
        md + 2 * regular.max(reflected)
    }

    /// The Manhattan distance of `board`'s tiles.
    fn manhattan(&self, board: &Board) -> u32 {
        (0..self.shape.cells())
            .filter(|&c| board.tile(c) != 0)
            .map(|c| self.dist[board.tile(c) as usize][c] as u32)
            .sum()
    }

    fn live(&self) -> Vec<Live<'_>> {
        self.lookups
            .iter()
            .map(|l| Live {
                entries: self.set.tables[l.table].packed(),
                k: l.k,
                tiles: l.tiles,
                cell: l.cell,
                weights: l.weights,
            })
            .collect()
    }
}

/// Each tile's cell.
fn positions(board: &Board) -> [u8; CELLS] {
    let mut pos = [0u8; CELLS];
    for c in 0..board.shape().cells() {
        pos[board.tile(c) as usize] = c as u8;
    }
    pos
}

/// A [`Lookup`] with its table's entries, for one search.
struct Live<'a> {
    entries: &'a [u8],
    k: usize,
    tiles: [u8; 16],
    cell: [u8; CELLS],
    weights: [u32; 16],
}

impl Live<'_> {
    /// The entry of the placement the tiles' cells `pos` give (groups of 6, Korf and
    /// Felner's, with the loop unrolled).
    #[inline(always)]
    fn locate(&self, pos: &[u8; CELLS]) -> usize {
        if self.k == 6 {
            self.locate_k::<6>(pos)
        } else {
            self.locate_k::<0>(pos)
        }
    }

    /// [`Live::locate`] for groups of `K` tiles (`K` = 0: of any size).
    #[inline(always)]
    fn locate_k<const K: usize>(&self, pos: &[u8; CELLS]) -> usize {
        let k = if K == 0 { self.k } else { K };
        let (mut used, mut r) = (0u32, 0u32);
        for s in 0..k {
            let c = self.cell[pos[self.tiles[s & 15] as usize & (CELLS - 1)] as usize & (CELLS - 1)]
                as u32;
            let below = (used & ((1u32 << c) - 1)).count_ones();
            r += (c - below) * self.weights[s & 15];
            used |= 1 << c;
        }
        r as usize
    }

    /// The stored difference at entry `i`.
    #[inline(always)]
    fn delta(&self, i: usize) -> u32 {
        ((self.entries[i / 2] >> ((i % 2) * 4)) & 15) as u32
    }

    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if let Some(b) = self.entries.get(i / 2) {
            crate::util::prefetch(b);
        }
    }
}

/// A child of a node, ranked and asked for before it is looked at.
#[derive(Clone, Copy, Default)]
struct Kid {
    to: u8,
    mv: u8,
    regular: u32,
    reflected: u32,
}

/// IDA\*'s state: the board in place, the lookups' current differences and sums.
struct Ida<'a> {
    h: &'a WidePdb,
    live: Vec<Live<'a>>,
    pos: [u8; CELLS],
    board: [u8; CELLS],
    /// The blank's neighbours and the moves there, [`crate::puzzle::MOVE_ORDER`] first.
    next: [[(u8, u8); 4]; CELLS],
    next_len: [u8; CELLS],
    deltas: [u8; 64],
    md: u32,
    sums: [u32; 2],
    path: Vec<Move>,
    stats: Stats,
    budget: Budget,
    out_of_budget: bool,
}

impl Ida<'_> {
    fn value(&self) -> u32 {
        self.md + 2 * self.sums[0].max(self.sums[1])
    }

    /// Searches below the board (blank at `blank`, arrived from `prev`, `g` moves from the
    /// start), within `bound`: `None` when the goal was reached, else the least `g + h`
    /// beyond the bound.
    fn dive(&mut self, blank: usize, prev: usize, g: u32, bound: u32) -> Option<u32> {
        if self.md == 0 {
            return None;
        }
        if self.budget.exhausted(self.stats.expanded) {
            self.out_of_budget = true;
            return Some(u32::MAX);
        }
        self.stats.expanded += 1;
        self.stats.peak_frontier = self.stats.peak_frontier.max(g as u64 + 1);
        let (h, reflect) = (self.h, self.h.reflect);
        let mut kids = [Kid::default(); 4];
        let mut nk = 0;
        for &(to, mv) in &self.next[blank][..self.next_len[blank] as usize] {
            if to as usize == prev {
                continue;
            }
            let t = self.board[to as usize] as usize;
            self.pos[t] = blank as u8;
            let l1 = &self.live[h.regular_of[t] as usize];
            let regular = l1.locate(&self.pos) as u32;
            l1.prefetch(regular as usize);
            let reflected = if reflect {
                let l2 = &self.live[h.reflected_of[t] as usize];
                let i = l2.locate(&self.pos) as u32;
                l2.prefetch(i as usize);
                i
            } else {
                0
            };
            self.pos[t] = to;
            kids[nk] = Kid {
                to,
                mv,
                regular,
                reflected,
            };
            nk += 1;
        }
        let mut least = u32::MAX;
        for kid in &kids[..nk] {
            // A child counts as generated when its estimate is read, as Korf's programs
            // count: the children after the one that reaches the goal are not, though their
            // entries were asked for.
            self.stats.generated += 1;
            let to = kid.to as usize;
            let t = self.board[to] as usize;
            let (a, b) = (h.regular_of[t] as usize, h.reflected_of[t] as usize);
            let da = self.live[a].delta(kid.regular as usize);
            let (old_a, old_b) = (self.deltas[a], self.deltas[b]);
            let saved = (self.md, self.sums);
            self.md = self.md + h.dist[t][blank] as u32 - h.dist[t][to] as u32;
            self.sums[0] = self.sums[0] - old_a as u32 + da;
            self.deltas[a] = da as u8;
            if reflect {
                let db = self.live[b].delta(kid.reflected as usize);
                self.sums[1] = self.sums[1] - old_b as u32 + db;
                self.deltas[b] = db as u8;
            }
            let f = g + 1 + self.value();
            if f <= bound {
                self.pos[t] = blank as u8;
                self.board[blank] = t as u8;
                self.board[to] = 0;
                self.path.push(crate::puzzle::MOVE_ORDER[kid.mv as usize]);
                // `None`: the goal is reached, the path stays as it is.
                let found = self.dive(to, blank, g + 1, bound)?;
                self.path.pop();
                self.pos[t] = to as u8;
                self.board[to] = t as u8;
                self.board[blank] = 0;
                least = least.min(found);
            } else {
                least = least.min(f);
            }
            self.deltas[a] = old_a;
            self.deltas[b] = old_b;
            (self.md, self.sums) = saved;
            if self.out_of_budget {
                return Some(u32::MAX);
            }
        }
        Some(least)
    }
}

/// The blank's neighbours of every cell of `shape`, with the index in
/// [`crate::puzzle::MOVE_ORDER`] of the move that takes the blank there.
fn neighbours(shape: Shape) -> ([[(u8, u8); 4]; CELLS], [u8; CELLS]) {
    let (w, n) = (shape.width(), shape.cells());
    let mut next = [[(0u8, 0u8); 4]; CELLS];
    let mut len = [0u8; CELLS];
    for p in 0..n {
        for (i, m) in crate::puzzle::MOVE_ORDER.iter().enumerate() {
            let to = match m {
                Move::Up if p >= w => p - w,
                Move::Down if p + w < n => p + w,
                Move::Left if p % w > 0 => p - 1,
                Move::Right if p % w + 1 < w => p + 1,
                _ => continue,
            };
            next[p][len[p] as usize] = (to as u8, i as u8);
            len[p] += 1;
        }
    }
    (next, len)
}

/// IDA\* from `problem.start` to `problem.goal` (whose estimate `h` is) with the pattern
/// databases: the bound raised to the least `g + h` beyond it each iteration; counters sum
/// over the iterations.
pub fn ida(problem: &Problem, opts: &SolveOptions, h: &WidePdb) -> Outcome {
    let start = &problem.start;
    assert_eq!(problem.goal, h.goal, "the estimate is of another goal");
    let (next, next_len) = neighbours(start.shape());
    let mut board = [0u8; CELLS];
    for (c, b) in board.iter_mut().enumerate().take(start.shape().cells()) {
        *b = start.tile(c);
    }
    let live = h.live();
    let pos = positions(start);
    let mut deltas = [0u8; 64];
    let mut sums = [0u32; 2];
    let groups = h.set.homes.len();
    for (i, l) in live.iter().enumerate() {
        deltas[i] = l.delta(l.locate(&pos)) as u8;
        sums[usize::from(i >= groups)] += deltas[i] as u32;
    }
    let md = h.manhattan(start);
    let mut search = Ida {
        h,
        live,
        pos,
        board,
        next,
        next_len,
        deltas,
        md,
        sums,
        path: Vec::new(),
        stats: Stats::default(),
        budget: Budget::new(&opts.limits),
        out_of_budget: false,
    };
    let mut bound = search.value();
    let blank = start.blank();
    loop {
        match search.dive(blank, usize::MAX, 0, bound) {
            None => return Outcome::solved(search.path, search.stats),
            Some(_) if search.out_of_budget => {
                let reason = search.budget.reason(search.stats.expanded, false);
                return Outcome::out_of(reason, search.stats);
            }
            Some(u32::MAX) => return Outcome::without_path(Status::Unsolvable, search.stats),
            Some(next) => bound = next,
        }
    }
}
