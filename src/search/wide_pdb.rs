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
//! reflected lookup change; in the tables' direct layout
//! (`heuristic/pdb/direct.rs`) each child's index is its parent's plus one
//! difference, otherwise it is ranked again. A node locates its children's entries and asks
//! for them before it reads any, so that the misses overlap. Nothing is allocated per node.
//!
//! Where the blank is on a cell a symmetry takes the goal's blank to (the corners, for Korf's
//! goal), the regular sums of the board's dual boards count too (`Dual`); the estimate is
//! then inconsistent and the search propagates it (BPMX, `Ida::dive_dual`).

use super::heuristic::pdb::{LookupMode, PdbSet};
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Move, Shape};
use crate::search::fsm::{Fsm, Prune};
use std::sync::Arc;

/// The most cells a board here has (cell masks are `u32`).
const CELLS: usize = 32;

/// One group's lookup: the tiles in the table's slot order, the cell map, the rank weights
/// and the direct layout's powers (`heuristic/pdb/direct.rs`).
#[derive(Clone, Debug)]
struct Lookup {
    table: usize,
    k: usize,
    tiles: [u8; 16],
    cell: [u8; CELLS],
    weights: [u32; 16],
    powers: [u32; 16],
}

/// The pattern-database estimate of one goal on a board of more than 16 cells.
#[derive(Clone)]
pub(crate) struct WidePdb {
    set: Arc<PdbSet>,
    shape: Shape,
    /// The regular lookups, then (with the reflection) the reflected ones.
    lookups: Vec<Lookup>,
    /// Each tile's regular and reflected lookup.
    regular_of: [u8; CELLS],
    reflected_of: [u8; CELLS],
    reflect: bool,
    /// Whether every table has its direct layout ([`PdbSet::direct`]): a child's index is
    /// then its parent's less `step[pass][tile][from]` plus `step[pass][tile][to]` for the
    /// moved tile's regular (pass 0) and reflected (pass 1) lookups.
    direct: bool,
    step: Box<[[[u32; CELLS]; CELLS]; 2]>,
    /// `duals[cell]`: the dual boards of a board whose blank is on `cell` (none where no
    /// symmetry takes the goal's blank there, or when the mode takes none).
    duals: Vec<Vec<Dual>>,
    /// Whether every child's dual sums are made before any child is searched
    /// ([`LookupMode::Eager`]), not only those of the children the others leave within the
    /// bound.
    eager: bool,
    /// `dist[tile][cell]`: the tile's Manhattan distance from `cell` to its goal cell.
    dist: [[u8; CELLS]; CELLS],
    goal: Board,
}

/// The regular lookups on one dual board: for a board whose blank is on the cell a symmetry
/// `φ` takes the goal's blank cell to, the board `φ⁻¹∘p⁻¹∘φ`, as far from the goal (the
/// proof is in `heuristic/pdb/lookup.rs`), whose Manhattan distance is the board's. The
/// tile of table slot `s` (home `h`) sits on it at `φ⁻¹` of the goal cell of the tile on
/// cell `φ(h)`.
#[derive(Clone, Debug)]
struct Dual {
    /// `read[g][s]`: the cell `φ(h)` whose tile places lookup `g`'s slot `s`.
    read: Vec<[u8; 16]>,
    /// `map[g][tile]`: the table cell of that slot when `tile` is on `φ(h)` (lookup `g`'s
    /// cell map of `φ⁻¹` of the tile's goal cell).
    map: Vec<[u8; CELLS]>,
}

/// The most dual lookups one child makes (symmetries × groups).
const DUAL_LOOKUPS: usize = 16;

impl Dual {
    /// The entry of lookup `l` (group `g`) on this dual board of the board whose cell `c`
    /// holds the tile `tile_on(c)`.
    #[inline(always)]
    fn entry(&self, g: usize, l: &Live, tile_on: impl Fn(u8) -> u8) -> usize {
        l.rank(|s| self.map[g][tile_on(self.read[g][s]) as usize])
    }
}

/// The symmetry of `shape` other than the identity that is its own inverse and keeps the
/// cell `blank` (the diagonal through a corner goal blank), if there is one.
fn reflection(shape: Shape, blank: usize) -> Option<Vec<u8>> {
    let maps = super::heuristic::pdb::symmetry_maps(shape);
    maps.into_iter().skip(1).find(|m| {
        m[blank] as usize == blank && (0..m.len()).all(|c| m[m[c] as usize] as usize == c)
    })
}

/// The dual boards of each cell's boards ([`Dual`]), scored by the regular lookups `ls`:
/// one per symmetry that takes the goal's blank cell there (the first only with
/// [`LookupMode::Dual`]; none unless `mode` takes duals), as many as [`DUAL_LOOKUPS`] hold.
fn dual_boards(goal: &Board, ls: &[Lookup], mode: LookupMode) -> Vec<Vec<Dual>> {
    let (shape, groups) = (goal.shape(), ls.len());
    let n = shape.cells();
    let mut duals: Vec<Vec<Dual>> = vec![Vec::new(); n];
    if !mode.duals() || mode.walks() {
        return duals;
    }
    let mut goal_cell = [0u8; CELLS];
    for c in 0..n {
        goal_cell[goal.tile(c) as usize] = c as u8;
    }
    for phi in super::heuristic::pdb::symmetry_maps(shape) {
        let b = phi[goal.blank()] as usize;
        if (duals[b].len() + 1) * groups > DUAL_LOOKUPS
            || (mode == LookupMode::Dual && !duals[b].is_empty())
        {
            continue; // `dual` takes one symmetry a cell, the others all
        }
        let mut inv = vec![0u8; n];
        for (c, &x) in phi.iter().enumerate() {
            inv[x as usize] = c as u8;
        }
        let read = ls
            .iter()
            .map(|l| {
                std::array::from_fn(|s| {
                    if s < l.k {
                        phi[goal_cell[l.tiles[s] as usize] as usize]
                    } else {
                        0
                    }
                })
            })
            .collect();
        let map = ls
            .iter()
            .map(|l| {
                std::array::from_fn(|t| {
                    if t < n {
                        l.cell[inv[goal_cell[t] as usize] as usize]
                    } else {
                        0
                    }
                })
            })
            .collect();
        duals[b].push(Dual { read, map });
    }
    duals
}

impl WidePdb {
    /// The estimate towards `goal` (a board of at most 32 cells whose goal blank is that of
    /// `set`) with the lookups `mode` asks for: the regular sum, and the reflected one
    /// unless `mode` is [`LookupMode::Regular`] or the goal's blank has no reflection.
    pub(crate) fn new(goal: &Board, set: Arc<PdbSet>, mode: LookupMode) -> WidePdb {
        WidePdb::with_layout(goal, set, mode, true)
    }

    #[cfg(test)]
    /// [`WidePdb::new`], reading the tables as they are stored (each lookup ranks its
    /// placement) rather than in the direct layout: the same estimates and searches, each
    /// lookup slower. For comparisons, and for groups too large for the direct layout.
    pub fn ranked(goal: &Board, set: Arc<PdbSet>, mode: LookupMode) -> WidePdb {
        WidePdb::with_layout(goal, set, mode, false)
    }

    fn with_layout(goal: &Board, set: Arc<PdbSet>, mode: LookupMode, layout: bool) -> WidePdb {
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
                    powers: [0; 16],
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
                if let Some(Some(d)) = set.direct().get(src.table).filter(|_| layout) {
                    for (s, p) in l.powers.iter_mut().enumerate().take(k) {
                        *p = d.power(s);
                    }
                }
                lookups.push(l);
            }
        }
        let direct = layout && set.direct().iter().all(Option::is_some);
        let mut step = Box::new([[[0u32; CELLS]; CELLS]; 2]);
        if direct {
            let groups = set.homes.len();
            for (i, l) in lookups.iter().enumerate() {
                for (s, &t) in l.tiles.iter().enumerate().take(l.k) {
                    for c in 0..n {
                        step[usize::from(i >= groups)][t as usize][c] =
                            l.cell[c] as u32 * l.powers[s];
                    }
                }
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
        let duals = dual_boards(goal, &lookups[..set.homes.len()], mode);
        WidePdb {
            set,
            shape,
            lookups,
            regular_of,
            reflected_of,
            reflect: r.is_some(),
            direct,
            step,
            duals,
            eager: mode == LookupMode::Eager,
            dist,
            goal: *goal,
        }
    }

    /// Whether any dual lookup is made (the estimate is then inconsistent, and IDA\*
    /// propagates it, BPMX).
    pub(crate) fn duals(&self) -> bool {
        self.duals.iter().any(|d| !d.is_empty())
    }

    #[cfg(test)]
    /// Whether the reflected lookups are made.
    pub fn reflects(&self) -> bool {
        self.reflect
    }

    #[cfg(test)]
    /// The estimates of `board`'s dual boards, one per symmetry that takes the goal's blank
    /// cell to the board's (none where there is none, or when the lookups take no duals).
    pub fn dual_estimates(&self, board: &Board) -> Vec<u32> {
        self.dual_sums(&self.live(), self.manhattan(board), board)
    }

    /// [`WidePdb::dual_estimates`] with the lookups `live` and the board's Manhattan
    /// distance `md` (a dual board's is the board's).
    fn dual_sums(&self, live: &[Live], md: u32, board: &Board) -> Vec<u32> {
        let groups = self.set.homes.len();
        self.duals[board.blank()]
            .iter()
            .map(|d| {
                let sum: u32 = (0..groups)
                    .map(|g| live[g].delta(d.entry(g, &live[g], |c| board.tile(c as usize))))
                    .sum();
                md + 2 * sum
            })
            .collect()
    }

    /// The estimate of `board`: the largest of its regular sum and, as the lookups take
    /// them, its reflected and dual sums.
    pub(crate) fn estimate(&self, board: &Board) -> u32 {
        let live = self.live();
        let pos = positions(board);
        let md = self.manhattan(board);
        let groups = self.set.homes.len();
        let sum = |ls: &[Live]| -> u32 { ls.iter().map(|l| l.delta(l.index(&pos))).sum() };
        let regular = sum(&live[..groups]);
        let reflected = if self.reflect {
            sum(&live[groups..])
        } else {
            0
        };
        let dual = self
            .dual_sums(&live, md, board)
            .into_iter()
            .max()
            .unwrap_or(0);
        (md + 2 * regular.max(reflected)).max(dual)
    }

    /// The Manhattan distance of `board`'s tiles.
    fn manhattan(&self, board: &Board) -> u32 {
        (0..self.shape.cells())
            .filter(|&c| board.tile(c) != 0)
            .map(|c| self.dist[board.tile(c) as usize][c] as u32)
            .sum()
    }

    fn live(&self) -> Vec<Live<'_>> {
        let direct = self.set.direct();
        self.lookups
            .iter()
            .map(|l| Live {
                entries: match &direct[l.table] {
                    Some(d) if self.direct => d.entries(),
                    _ => self.set.tables[l.table].packed(),
                },
                k: l.k,
                tiles: l.tiles,
                cell: l.cell,
                weights: l.weights,
                powers: l.powers,
                direct: self.direct,
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

/// A [`Lookup`] with its table's entries (ranked, or in the direct layout), for one search.
struct Live<'a> {
    entries: &'a [u8],
    k: usize,
    tiles: [u8; 16],
    cell: [u8; CELLS],
    weights: [u32; 16],
    powers: [u32; 16],
    direct: bool,
}

impl Live<'_> {
    /// The entry of the placement the tiles' cells `pos` give, in this lookup's layout.
    #[inline(always)]
    fn index(&self, pos: &[u8; CELLS]) -> usize {
        self.rank(|s| {
            self.cell[pos[self.tiles[s & 15] as usize & (CELLS - 1)] as usize & (CELLS - 1)]
        })
    }

    /// The entry of the placement whose slot `s` is on table cell `cell(s)`, in this
    /// lookup's layout (groups of 6, Korf and Felner's, with the loop unrolled).
    #[inline(always)]
    fn rank(&self, cell: impl Fn(usize) -> u8) -> usize {
        if self.k == 6 {
            self.rank_k::<6>(cell)
        } else {
            self.rank_k::<0>(cell)
        }
    }

    /// [`Live::rank`] for groups of `K` tiles (`K` = 0: of any size).
    #[inline(always)]
    fn rank_k<const K: usize>(&self, cell: impl Fn(usize) -> u8) -> usize {
        let k = if K == 0 { self.k } else { K };
        let mut r = 0usize;
        if self.direct {
            for s in 0..k {
                r += cell(s) as usize * self.powers[s & 15] as usize;
            }
        } else {
            let mut used = 0u32;
            for s in 0..k {
                let c = cell(s) as u32 & (CELLS as u32 - 1);
                let below = (used & ((1u32 << c) - 1)).count_ones();
                r += (c - below) as usize * self.weights[s & 15] as usize;
                used |= 1 << c;
            }
        }
        r
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
    fsm: u32,
    regular: u32,
    reflected: u32,
}

/// IDA\*'s state: the board in place, the lookups' current differences and sums.
struct Ida<'a> {
    h: &'a WidePdb,
    fsm: &'a Fsm,
    live: Vec<Live<'a>>,
    pos: [u8; CELLS],
    board: [u8; CELLS],
    /// The blank's neighbours and the moves there, [`crate::puzzle::MOVE_ORDER`] first.
    next: [[(u8, u8); 4]; CELLS],
    next_len: [u8; CELLS],
    deltas: [u8; 64],
    /// Each lookup's entry index on the board (direct layout only).
    idx: [u32; 64],
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
    fn dive<const DIRECT: bool>(
        &mut self,
        blank: usize,
        state: u32,
        g: u32,
        bound: u32,
    ) -> Option<u32> {
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
        // The same loop as `dive_dual`'s, written out: one generic over the child's struct
        // made this search 18% slower (docs/performance-history.md).
        let mut kids = [Kid::default(); 4];
        let mut nk = 0;
        for i in 0..self.next_len[blank] as usize {
            let (to, mv) = self.next[blank][i];
            let fsm = self.fsm.step(state, mv as usize);
            if fsm == Fsm::PRUNED {
                continue;
            }
            let t = self.board[to as usize] as usize;
            let (regular, reflected) = self.child_entries::<DIRECT>(blank, to as usize, t);
            kids[nk] = Kid {
                to,
                mv,
                fsm,
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
                let saved_idx = (self.idx[a], self.idx[b]);
                if DIRECT {
                    self.idx[a] = kid.regular;
                    if reflect {
                        self.idx[b] = kid.reflected;
                    }
                }
                self.pos[t] = blank as u8;
                self.board[blank] = t as u8;
                self.board[to] = 0;
                self.path.push(crate::puzzle::MOVE_ORDER[kid.mv as usize]);
                // `None`: the goal is reached, the path stays as it is.
                let found = self.dive::<DIRECT>(to, kid.fsm, g + 1, bound)?;
                (self.idx[a], self.idx[b]) = saved_idx;
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

/// A child in [`Ida::dive_dual`]: its entries, its Manhattan distance, sums and estimate.
#[derive(Clone, Copy, Default)]
struct Child {
    to: u8,
    mv: u8,
    fsm: u32,
    regular: u32,
    reflected: u32,
    da: u8,
    db: u8,
    md: u32,
    sums: [u32; 2],
    h: u32,
}

impl Ida<'_> {
    /// The entries of the moved tile's regular and reflected lookups on the child where the
    /// tile `t` slides from `to` into the blank's cell, asked for from memory.
    #[inline(always)]
    fn child_entries<const DIRECT: bool>(
        &mut self,
        blank: usize,
        to: usize,
        t: usize,
    ) -> (u32, u32) {
        let h = self.h;
        let (a, b) = (h.regular_of[t] as usize, h.reflected_of[t] as usize);
        if DIRECT {
            let (s0, s1) = (&h.step[0][t], &h.step[1][t]);
            let regular = self.idx[a].wrapping_sub(s0[to]).wrapping_add(s0[blank]);
            self.live[a].prefetch(regular as usize);
            let mut reflected = 0;
            if h.reflect {
                reflected = self.idx[b].wrapping_sub(s1[to]).wrapping_add(s1[blank]);
                self.live[b].prefetch(reflected as usize);
            }
            (regular, reflected)
        } else {
            self.pos[t] = blank as u8;
            let regular = self.live[a].index(&self.pos) as u32;
            self.live[a].prefetch(regular as usize);
            let mut reflected = 0;
            if h.reflect {
                reflected = self.live[b].index(&self.pos) as u32;
                self.live[b].prefetch(reflected as usize);
            }
            self.pos[t] = to as u8;
            (regular, reflected)
        }
    }

    /// Reads the regular and reflected entries of `kid` (a child of the node whose blank is
    /// on `blank`, its entries asked for) into its differences, sums and estimate.
    #[inline(always)]
    fn read_child(&self, kid: &mut Child, blank: usize) {
        let est = self.h;
        let t = self.board[kid.to as usize] as usize;
        let (a, b) = (est.regular_of[t] as usize, est.reflected_of[t] as usize);
        kid.da = self.live[a].delta(kid.regular as usize) as u8;
        kid.md = self.md + est.dist[t][blank] as u32 - est.dist[t][kid.to as usize] as u32;
        kid.sums[0] = self.sums[0] - self.deltas[a] as u32 + kid.da as u32;
        if est.reflect {
            kid.db = self.live[b].delta(kid.reflected as usize) as u8;
            kid.sums[1] = self.sums[1] - self.deltas[b] as u32 + kid.db as u32;
        }
        kid.h = kid.md + 2 * kid.sums[0].max(kid.sums[1]);
    }

    /// Locates the dual entries of the child whose blank is on `to` (the tile `t` slid from
    /// there into `blank`), where that cell has dual boards, into `at`, and asks for them.
    #[inline(always)]
    fn ask_duals(&self, blank: usize, to: usize, t: u8, at: &mut [u32; DUAL_LOOKUPS]) {
        let groups = self.h.set.homes.len();
        // The child's board: the tile on the blank's cell, the blank on `to` (which no dual
        // lookup reads).
        let board = &self.board;
        let cell = |c: u8| {
            if c as usize == blank {
                t
            } else {
                board[c as usize]
            }
        };
        for (j, d) in self.h.duals[to].iter().enumerate() {
            for g in 0..groups {
                let l = &self.live[g];
                let e = d.entry(g, l, cell);
                l.prefetch(e);
                at[(j * groups + g) & (DUAL_LOOKUPS - 1)] = e as u32;
            }
        }
    }

    /// [`Ida::ask_duals`] for each of `kids` (children of a node whose blank is on `blank`,
    /// at depth `g`, their estimates at least `floor`: `(g, floor)` is `depth`) whose
    /// `g + h` the other sums leave within `bound`, or every one with `eager`: which were
    /// asked.
    #[inline(always)]
    fn ask_within(
        &self,
        kids: &[Child],
        blank: usize,
        depth: (u32, u32),
        bound: u32,
        at: &mut [[u32; DUAL_LOOKUPS]; 4],
    ) -> [bool; 4] {
        let (g, floor) = depth;
        let mut asked = [false; 4];
        for (k, kid) in kids.iter().enumerate().take(4) {
            if self.h.eager || g + kid.h.max(floor) <= bound {
                let t = self.board[kid.to as usize];
                self.ask_duals(blank, kid.to as usize, t, &mut at[k]);
                asked[k] = true;
            }
        }
        asked
    }

    /// The largest sum of stored differences over the dual boards of the child whose blank
    /// is on `to`, from the entries [`Ida::ask_duals`] located; `None` where it has none.
    #[inline(always)]
    fn dual_sum(&self, to: usize, at: &[u32; DUAL_LOOKUPS]) -> Option<u32> {
        let groups = self.h.set.homes.len();
        let mut best = None;
        for j in 0..self.h.duals[to].len() {
            let mut sum = 0;
            for g in 0..groups {
                sum += self.live[g].delta(at[(j * groups + g) & (DUAL_LOOKUPS - 1)] as usize);
            }
            best = best.max(Some(sum));
        }
        best
    }

    /// [`Ida::dive`] with dual lookups, which make the estimate inconsistent: bidirectional
    /// pathmax (BPMX; Felner, Zahavi, Holte, Schaeffer, Sturtevant and Zhang 2011), as
    /// `idastar.rs` does on smaller boards. All children are generated (and counted) first;
    /// a child's estimate less one bounds its parent's and the parent's less one each
    /// child's, so a large dual value prunes the neighbours too. A child's dual sums are made
    /// only when its blank is on a cell that has dual boards and the regular and reflected
    /// sums leave it within the bound (every such child's with `eager`): their entries are
    /// asked for from memory, all of them, after the cheap ones are read and before any of
    /// theirs is. Children are searched lowest estimate first
    /// (ties in move order). Returns `None` when the goal was reached, else the least
    /// `g + h` beyond the bound and the node's estimate as raised, for its parent.
    fn dive_dual<const DIRECT: bool>(
        &mut self,
        blank: usize,
        state: u32,
        g: u32,
        h: u32,
        bound: u32,
    ) -> Option<(u32, u32)> {
        if self.md == 0 {
            return None;
        }
        if self.budget.exhausted(self.stats.expanded) {
            self.out_of_budget = true;
            return Some((u32::MAX, h));
        }
        self.stats.expanded += 1;
        self.stats.peak_frontier = self.stats.peak_frontier.max(g as u64 + 1);
        let (est, reflect) = (self.h, self.h.reflect);
        let mut kids = [Child::default(); 4];
        let mut nk = 0;
        for i in 0..self.next_len[blank] as usize {
            let (to, mv) = self.next[blank][i];
            let fsm = self.fsm.step(state, mv as usize);
            if fsm == Fsm::PRUNED {
                continue;
            }
            let t = self.board[to as usize] as usize;
            let (regular, reflected) = self.child_entries::<DIRECT>(blank, to as usize, t);
            kids[nk] = Child {
                to,
                mv,
                fsm,
                regular,
                reflected,
                ..Child::default()
            };
            nk += 1;
        }
        let mut h = h;
        for kid in &mut kids[..nk] {
            self.read_child(kid, blank);
            h = h.max(kid.h.saturating_sub(1));
        }
        self.stats.generated += nk as u64;
        // The dual entries of the children whose blank's cell has dual boards.
        let mut at = [[0u32; DUAL_LOOKUPS]; 4];
        let asked = self.ask_within(
            &kids[..nk],
            blank,
            (g + 1, h.saturating_sub(1)),
            bound,
            &mut at,
        );
        for ((kid, at), _) in kids[..nk].iter_mut().zip(&at).zip(asked).filter(|x| x.1) {
            let best = self.dual_sum(kid.to as usize, at).unwrap_or(0);
            kid.h = kid.h.max(kid.md + 2 * best);
            h = h.max(kid.h.saturating_sub(1));
        }
        kids[..nk].sort_by_key(|k| k.h);
        let mut least = u32::MAX;
        for kid in &kids[..nk] {
            if g + h > bound {
                return Some((least.min(g + h), h));
            }
            let ch = kid.h.max(h.saturating_sub(1));
            let f = g + 1 + ch;
            if f > bound {
                least = least.min(f);
                continue;
            }
            let to = kid.to as usize;
            let t = self.board[to] as usize;
            let (a, b) = (est.regular_of[t] as usize, est.reflected_of[t] as usize);
            let saved = (self.md, self.sums, self.deltas[a], self.deltas[b]);
            let saved_idx = (self.idx[a], self.idx[b]);
            self.md = kid.md;
            self.sums = kid.sums;
            self.deltas[a] = kid.da;
            self.idx[a] = kid.regular;
            if reflect {
                self.deltas[b] = kid.db;
                self.idx[b] = kid.reflected;
            }
            self.pos[t] = blank as u8;
            self.board[blank] = t as u8;
            self.board[to] = 0;
            self.path.push(crate::puzzle::MOVE_ORDER[kid.mv as usize]);
            // `None`: the goal is reached, the path stays as it is.
            let (found, raised) = self.dive_dual::<DIRECT>(to, kid.fsm, g + 1, ch, bound)?;
            self.path.pop();
            self.pos[t] = to as u8;
            self.board[to] = t as u8;
            self.board[blank] = 0;
            (self.md, self.sums, self.deltas[a], self.deltas[b]) = saved;
            (self.idx[a], self.idx[b]) = saved_idx;
            if self.out_of_budget {
                return Some((u32::MAX, h));
            }
            h = h.max(raised.saturating_sub(1));
            least = least.min(found);
        }
        Some((least, h))
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
/// databases: the bound raised to the least `g + h` beyond it each iteration, the moves
/// `prune` refuses left out; counters sum over the iterations.
pub(crate) fn ida(problem: &Problem, opts: &SolveOptions, h: &WidePdb, prune: Prune) -> Outcome {
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
    let mut idx = [0u32; 64];
    let mut sums = [0u32; 2];
    let groups = h.set.homes.len();
    for (i, l) in live.iter().enumerate() {
        idx[i] = l.index(&pos) as u32;
        deltas[i] = l.delta(idx[i] as usize) as u8;
        sums[usize::from(i >= groups)] += deltas[i] as u32;
    }
    let md = h.manhattan(start);
    let mut search = Ida {
        h,
        fsm: prune.machine(),
        live,
        pos,
        board,
        next,
        next_len,
        deltas,
        idx,
        md,
        sums,
        path: Vec::new(),
        stats: Stats::default(),
        budget: Budget::new(&opts.limits),
        out_of_budget: false,
    };
    // With dual lookups, the start's estimate includes its dual sums.
    let h0 = search.value().max(h.estimate(start));
    let mut bound = h0;
    let blank = start.blank();
    loop {
        let found = match (h.duals(), h.direct) {
            (false, true) => search.dive::<true>(blank, Fsm::START, 0, bound),
            (false, false) => search.dive::<false>(blank, Fsm::START, 0, bound),
            (true, true) => search
                .dive_dual::<true>(blank, Fsm::START, 0, h0, bound)
                .map(|(least, _)| least),
            (true, false) => search
                .dive_dual::<false>(blank, Fsm::START, 0, h0, bound)
                .map(|(least, _)| least),
        };
        match found {
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

#[cfg(test)]
mod tests;
