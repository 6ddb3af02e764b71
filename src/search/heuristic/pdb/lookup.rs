//! The lookups of the pattern-database heuristic: the regular sum, the sum on the reflected
//! board, the sums on the dual boards, and the maximum of those a [`LookupMode`] chooses.
//!
//! Write a board as `p`: `p(c)` is the goal cell of the tile on cell `c`; the goal is the
//! identity, and the "blank object" is the goal's blank cell `B`. A symmetry `φ` of the
//! board (a cell map that keeps adjacency) and a renaming of the tiles that keeps the blank
//! change no distance, and neither does swapping start and goal. So:
//!
//! - **reflected**: for a symmetry `r` with `r(B) = B`, `r∘p∘r⁻¹` is as far from the goal as
//!   `p` (Korf and Felner 2002); the tables score it as a second partition for free.
//! - **dual**: for a symmetry `φ` with `φ(B) = b`, where `b` is the board's blank cell,
//!   `X = φ⁻¹∘p⁻¹∘φ` is as far from the goal as `p`. Proof: renaming the tiles by
//!   `ρ = φ⁻¹∘p⁻¹` (which keeps the blank: `ρ(B) = φ⁻¹(p⁻¹(B)) = φ⁻¹(b) = B`) and moving
//!   the cells by `φ` takes the pair (goal, `p`) to (`X`, goal), and `d(p, goal) = d(goal,
//!   p)`. With the blank in its goal cell and `φ` the identity this is the classic dual, the
//!   inverse permutation (tiles and cells swap roles; Felner, Zahavi, Schaeffer and Holte,
//!   2005). With the blank elsewhere the plain inverse is *not* as far as the board (on 3x3
//!   it is farther on 26,428 of 181,440 boards, which would make the lookup inadmissible),
//!   so a dual exists only where a symmetry takes the goal's blank cell to the board's: for
//!   a corner goal blank on a square board, the four corners, each with two symmetries (the
//!   second is the *dual-reflected* lookup).
//! - **walked dual**: on any other cell, walk the blank along a path of `m` moves to such a
//!   cell, giving a board `S'`; `S'` is `m` moves from the board `S`, so
//!   `d(S) ≥ d(S') − m ≥ h(dual of S') − m`, for any walk (and, unless clamped at 0,
//!   `h(dual of S') − m` keeps the parity of `d(S)`, as every move changes both by one;
//!   nothing relies on that parity). Every shortest path is taken to
//!   every such cell as near as the nearest or one move farther (on 4x4 with a corner goal
//!   blank: an edge cell walks one move to its corner and two to the edge's other one, a
//!   middle cell two moves by two paths to the nearest corner and three by three paths to
//!   each of the two next). The `walked` mode adds these to `max`: on Korf's 100 with the
//!   7-8 tables they cut its nodes by 28–29% (`idastar`, `idastar-tt`) but cost more time
//!   than they save (docs/strategies.md has the figures), so `max` stays the default.
//!   Walking one move farther than the nearest cell gave 6–7% fewer nodes for 1.35–1.55×
//!   the time; two farther, no consistent gain.
//!
//! In tables: slot `j` of group `g` (home cell `h`) sits, on `X`, at `φ⁻¹(p(φ(h)))`: read the
//! tile on cell `φ(h)`, take its goal cell, map it by `φ⁻¹`. The dual lookups change
//! abruptly as the blank enters or leaves such a cell, so the maximum is inconsistent
//! (admissible still): IDA* then propagates values between parents and children (BPMX, see
//! `idastar.rs`; `eager` has it make every child's dual sums before it searches any), and
//! A* reopens states reached again more cheaply.

use super::PdbSet;
use crate::puzzle::{Board, Shape};
use crate::search::heuristic::{Ahead, Heuristic, Jump};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Which lookups [`Pdb`] takes the maximum of (`--pdb-lookup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LookupMode {
    /// The sum of the groups' values on the board.
    Regular,
    /// The larger of the regular sum and the sum on the reflected board (Korf and Felner).
    Reflected,
    /// The larger of the regular sum and the sum on the dual board, where there is one.
    Dual,
    /// The largest of the regular, reflected, dual and dual-reflected sums.
    Max,
    /// [`LookupMode::Max`]'s sums, but IDA* makes all four of every child in full before it
    /// searches any child (BPMX as Felner et al. 2011 describe it), where `max` makes the
    /// dual ones only for the children the others leave within the bound, as it comes to
    /// each, and stops at the first that prunes: fewer nodes, more lookups.
    Eager,
    /// [`LookupMode::Max`], and where the blank's cell has no dual boards, those after every
    /// shortest walk of the blank to each cell that has them, as near as the nearest or one
    /// move farther, less the walk's moves: the fewest nodes, not the least time.
    Walked,
}

impl LookupMode {
    /// Every mode, in `--help` order.
    pub const ALL: [LookupMode; 6] = [
        LookupMode::Regular,
        LookupMode::Reflected,
        LookupMode::Dual,
        LookupMode::Max,
        LookupMode::Eager,
        LookupMode::Walked,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            LookupMode::Regular => "regular",
            LookupMode::Reflected => "reflected",
            LookupMode::Dual => "dual",
            LookupMode::Max => "max",
            LookupMode::Eager => "eager",
            LookupMode::Walked => "walked",
        }
    }

    /// The mode used when `--pdb-lookup` is not given: `max` on every shape (on Korf's 100
    /// with the 7-8 tables it generates a fraction of `reflected`'s nodes in less time; see
    /// docs/strategies.md for the figures).
    pub fn default_for(_shape: Shape) -> LookupMode {
        LookupMode::Max
    }

    /// Whether the reflected board is scored.
    pub fn reflects(self) -> bool {
        matches!(
            self,
            LookupMode::Reflected | LookupMode::Max | LookupMode::Eager | LookupMode::Walked
        )
    }

    /// Whether the dual boards are scored.
    pub fn duals(self) -> bool {
        matches!(
            self,
            LookupMode::Dual | LookupMode::Max | LookupMode::Eager | LookupMode::Walked
        )
    }

    /// Whether the dual boards after the blank's walks are scored.
    pub fn walks(self) -> bool {
        self == LookupMode::Walked
    }
}

impl fmt::Display for LookupMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a mode by its name ([`LookupMode::name`]).
///
/// # Errors
/// Another name ([`crate::util::UnknownName`]: "unknown lookup mode `NAME`; choose regular,
/// …").
impl FromStr for LookupMode {
    type Err = crate::util::UnknownName;
    fn from_str(s: &str) -> Result<Self, crate::util::UnknownName> {
        LookupMode::ALL
            .into_iter()
            .find(|m| m.name() == s.trim())
            .ok_or_else(|| crate::util::UnknownName {
                what: "lookup mode",
                name: s.to_string(),
                choices: LookupMode::ALL.iter().map(|m| m.name()).collect(),
            })
    }
}

/// A cell map: `map[cell]` is the cell it goes to.
pub(super) type CellMap = [u8; 16];

/// The symmetries of the board (cell maps that keep adjacency), the identity first, then
/// those that are their own inverses in the order the reflection prefers them (the
/// diagonals, which keep a square's corners, the half turn, the mirrors), then the quarter
/// turns.
pub(super) fn symmetries(shape: Shape) -> Vec<CellMap> {
    symmetry_maps(shape)
        .into_iter()
        .map(|m| {
            let mut map = [0u8; 16];
            for (slot, c) in map.iter_mut().zip(m) {
                *slot = c;
            }
            map
        })
        .collect()
}

/// [`symmetries`] on boards of any size: `map[cell]` for each of the shape's cells.
pub(super) fn symmetry_maps(shape: Shape) -> Vec<Vec<u8>> {
    let (w, h) = (shape.width(), shape.height());
    let square = w == h;
    type Map<'a> = &'a dyn Fn(usize, usize) -> Option<(usize, usize)>;
    let maps: [Map; 8] = [
        &|r, c| Some((r, c)),
        &|r, c| square.then_some((c, r)),
        &|r, c| square.then(|| (w - 1 - c, h - 1 - r)),
        &|r, c| Some((h - 1 - r, w - 1 - c)),
        &|r, c| Some((r, w - 1 - c)),
        &|r, c| Some((h - 1 - r, c)),
        &|r, c| square.then(|| (c, w - 1 - r)),
        &|r, c| square.then(|| (h - 1 - c, r)),
    ];
    maps.iter()
        .filter_map(|f| {
            (0..w * h)
                .map(|p| f(p / w, p % w).map(|(r, c)| (r * w + c) as u8))
                .collect()
        })
        .collect()
}

fn inverse(map: &CellMap, cells: usize) -> CellMap {
    let mut inv = [0u8; 16];
    for c in 0..cells {
        inv[map[c] as usize] = c as u8;
    }
    inv
}

/// The reflection: the first symmetry other than the identity that is its own inverse and
/// keeps `blank` in place (for Korf's goal, blank top left, the main diagonal).
fn reflection(shape: Shape, blank: usize) -> Option<CellMap> {
    let n = shape.cells();
    symmetries(shape)
        .into_iter()
        .skip(1)
        .find(|m| m[blank] as usize == blank && inverse(m, n) == *m)
}

/// Groups as the problem's tile names: `tiles[g][slot]`, and for each tile its group.
#[derive(Clone, Debug)]
struct Lookup {
    tiles: Vec<[u8; 16]>,
    group_of: [u8; 16],
    /// The cell map applied to a tile's cell before ranking (identity, or the reflection).
    cell: CellMap,
}

impl Lookup {
    /// The lookup through the self-inverse cell map `cell`: slot `j` of group `g` reads tile
    /// `v` where the map sends `v`'s goal cell to the slot's home.
    fn new(goal: &Board, set: &PdbSet, cell: CellMap) -> Lookup {
        let mut l = Lookup {
            tiles: Vec::new(),
            group_of: [u8::MAX; 16],
            cell,
        };
        for (g, home) in set.homes.iter().enumerate() {
            let mut tiles = [0u8; 16];
            for (j, &h) in home.iter().enumerate() {
                let v = goal.tile(cell[h as usize] as usize);
                tiles[j] = v;
                l.group_of[v as usize] = g as u8;
            }
            l.tiles.push(tiles);
        }
        l
    }
}

/// One dual lookup, for boards with the blank on one cell `b`: through a symmetry `φ` with
/// `φ(B) = b`, or, where `b` has none, after walking the blank to a cell `c` that has one
/// (the board `S'`; see [`LookupMode::Walked`] for which), less the steps walked.
#[derive(Clone, Debug)]
struct Dual {
    /// `read[g][slot]`: the cell `φ(home)` whose tile gives the slot's cell.
    read: Vec<[u8; 16]>,
    /// `cell_of[tile]`: `φ⁻¹` of the tile's goal cell, the cell of the slot it answers for.
    cell_of: [u8; 16],
    /// The cells the blank is walked through, in order (`steps` of them; none where `b`
    /// has a symmetry of its own).
    walk: [u8; MAX_WALK],
    steps: u8,
    /// `φ` and `φ⁻¹`, to build the dual board itself (dual IDA*'s jumps).
    phi: CellMap,
    phi_inv: CellMap,
    /// How a move on the dual board maps back (see [`crate::search::heuristic::Jump`]).
    moves: [u8; 4],
}

/// The move index (as [`crate::puzzle::Move::from_index`]: up, left, right, down) that takes
/// the blank from `from` to the adjacent cell `to` on a board `w` wide.
fn direction(w: usize, from: usize, to: usize) -> u8 {
    match to as isize - from as isize {
        d if d == -(w as isize) => 0,
        -1 => 1,
        1 => 2,
        _ => 3,
    }
}

/// For the symmetry `phi`: a move on the dual board, reversed and carried by `phi`, as a
/// move on the board (the board's path to the goal is the dual's, backwards, through `φ`).
fn back_moves(shape: Shape, phi: &CellMap) -> [u8; 4] {
    let w = shape.width();
    // Cell 0's neighbours below and to the right, and cell w + 1's above and to the left.
    let steps = [(w, 0), (1, 0), (0, 1), (0, w)];
    std::array::from_fn(|m| {
        let (from, to) = steps[3 - m]; // the reversed move
        let (a, b) = (phi[from] as usize, phi[to] as usize);
        direction(w, a, b)
    })
}

/// The walked dual lookups of a board whose blank is on `b`, a cell no symmetry takes the
/// goal's blank to: along every shortest path (at most [`MAX_WALK`] steps) to each cell that
/// has exact ones (`exact[c]`) and is as near as the nearest or one move farther, each of
/// those lookups after the walk; the nearer walks first.
fn walked(shape: Shape, b: usize, exact: &[Vec<Dual>]) -> Vec<Dual> {
    let w = shape.width();
    let dist = |c: usize| (b / w).abs_diff(c / w) + (b % w).abs_diff(c % w);
    let Some(m) = (0..shape.cells())
        .filter(|&c| !exact[c].is_empty())
        .map(dist)
        .min()
        .filter(|&m| m <= MAX_WALK)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Nearest first: the lookups are made in this order, and stop at the first that prunes.
    for steps in m..=(m + 1).min(MAX_WALK) {
        for c in (0..shape.cells()).filter(|&c| !exact[c].is_empty() && dist(c) == steps) {
            let mut paths = Vec::new();
            shortest_paths(w, b, c, &mut Vec::new(), &mut paths);
            for path in paths {
                for d in &exact[c] {
                    let mut d = d.clone();
                    d.walk[..path.len()].copy_from_slice(&path);
                    d.steps = path.len() as u8;
                    out.push(d);
                }
            }
        }
    }
    out
}

/// The board packed in `board`, blank on `blank`, after the blank's walk of `d`.
#[inline]
fn walk(d: &Dual, board: u64, blank: usize) -> u64 {
    let (mut board, mut at) = (board, blank);
    for &next in &d.walk[..d.steps as usize] {
        let next = next as usize & 15;
        let tile = (board >> (4 * next)) & 0xF;
        board = board - (tile << (4 * next)) + (tile << (4 * (at & 15)));
        at = next;
    }
    board
}

/// How much more than the board's regular and reflected sums a dual board must score for
/// dual IDA* to jump to it. Sums on one board have one parity, so a dual above the board
/// scores at least 2 more; on Korf's 100 with the 7-8 tables and `max`, jumping at 4 or more
/// generated the fewest nodes (27,831 an instance; at 2 or more 28,305, at 6 or more 28,448;
/// with `dual` 2 or more was best: 72,778 against 78,305).
const JUMP_MARGIN: u32 = 2;

/// The longest walk a dual lookup takes the blank on (each step costs the estimate one).
const MAX_WALK: usize = 4;

/// Table entries the walked lookups of one batch locate before reading any (a power of two).
const WALKED_BATCH: usize = 32;

/// Every shortest path of cells from `from` (excluded) to `to` (included) on a board `w`
/// wide, appended to `out`.
fn shortest_paths(w: usize, from: usize, to: usize, path: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if from == to {
        out.push(path.clone());
        return;
    }
    let (r, c, tr, tc) = (from / w, from % w, to / w, to % w);
    let mut next = Vec::with_capacity(2);
    if r != tr {
        next.push(if tr > r { from + w } else { from - w });
    }
    if c != tc {
        next.push(if tc > c { from + 1 } else { from - 1 });
    }
    for n in next {
        path.push(n as u8);
        shortest_paths(w, n, to, path, out);
        path.pop();
    }
}

/// The additive pattern-database heuristic for one goal: the sum over groups of the table
/// values, on the board and on the transformed boards its [`LookupMode`] chooses (see the
/// module documentation), the largest of those sums.
pub struct Pdb {
    set: Arc<PdbSet>,
    mode: LookupMode,
    regular: Lookup,
    mirror: Option<Lookup>,
    /// `duals[b]`: the dual lookups of a board whose blank is on cell `b` (none where no
    /// symmetry takes the goal's blank cell there, or when the mode takes no dual).
    duals: Vec<Vec<Dual>>,
    /// Whether any cell has a dual lookup (the estimate is then inconsistent).
    any_dual: bool,
    /// `goal_tiles[cell]`: the goal's tile on each cell.
    goal_tiles: [u8; 16],
    /// How a move steps the regular and the reflected lookups' entries, where the memo
    /// carries them (at most [`STEPPED`] groups, indices of 32 bits): [`Pdb::step_entry`].
    steppers: Option<Box<[Stepper; 2]>>,
    /// The board's width: a move up or down passes `width − 1` cells in the index's order.
    width: usize,
}

/// The most groups whose located entries [`PdbMemo`] carries, so that a move steps its
/// group's entries ([`Pdb::step_entry`]) rather than ranking its tiles afresh.
const STEPPED: usize = 4;

/// What stepping one lookup's located entry over a move needs (see [`Pdb::step_entry`]),
/// each by the tile names of the problem.
#[derive(Clone, Debug)]
struct Stepper {
    /// The lookup's cell map: a tile on cell `c` is ranked as on `map[c]` (its own inverse).
    map: CellMap,
    /// `weight[t]`: the weight of tile `t`'s slot in its group's index.
    weight: [u32; 16],
    /// `coef[t][u]`: what tile `u`, on a cell between the two of a move of tile `t` (in the
    /// index's cell order), adds to the move's step of the index: `−weight[t]` for a tile of
    /// an earlier slot of `t`'s group, the tile's own weight for a later slot, else 0.
    coef: [[i32; 16]; 16],
    /// `dist[t][c]`: tile `t`'s Manhattan distance from its home, ranked on cell `c`.
    dist: [[u8; 16]; 16],
}

impl Stepper {
    fn new(l: &Lookup, set: &PdbSet) -> Stepper {
        let mut s = Stepper {
            map: l.cell,
            weight: [0; 16],
            coef: [[0; 16]; 16],
            dist: [[0; 16]; 16],
        };
        // (group, slot) of each tile.
        let mut at = [None; 16];
        for (g, tiles) in l.tiles.iter().enumerate() {
            for (j, &t) in tiles.iter().enumerate().take(set.homes[g].len()) {
                at[t as usize & 15] = Some((g, j));
            }
        }
        for t in 0..16 {
            let Some((g, j)) = at[t] else { continue };
            let table = &set.tables[g];
            s.weight[t] = table.weight(j) as u32;
            s.dist[t] = std::array::from_fn(|c| table.distance(j, c));
            s.coef[t] = at.map(|u| match u {
                Some((h, k)) if h == g && k < j => -(table.weight(j) as i32),
                Some((h, k)) if h == g && k > j => table.weight(k) as i32,
                _ => 0,
            });
        }
        s
    }
}

/// What [`Pdb`] carries from a node to its children: the board, each group's value for the
/// regular and the reflected board, and the first groups' entries (the dual lookups are
/// made afresh: a move changes the dual board in the cells of two groups at once, and they
/// exist only with the blank on a few cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdbMemo {
    /// The board (cell → tile).
    board: u64,
    /// The first [`STEPPED`] groups' entries, regular and reflected, and their Manhattan
    /// distances, where the heuristic steps them ([`Pdb::step_entry`]).
    at: [u32; STEPPED],
    mirrored_at: [u32; STEPPED],
    md: [u8; STEPPED],
    mirrored_md: [u8; STEPPED],
    values: [u8; 16],
    mirrored: [u8; 16],
    sum: u16,
    mirrored_sum: u16,
}

impl Pdb {
    /// The heuristic for `goal` with the reflection where the board has one
    /// ([`LookupMode::Reflected`]; a run's default is [`LookupMode::default_for`]).
    pub fn new(goal: &Board, set: Arc<PdbSet>) -> Pdb {
        Pdb::with_lookup(goal, set, LookupMode::Reflected)
    }

    /// The heuristic for `goal`, with the reflection ([`LookupMode::Reflected`]) or without
    /// ([`LookupMode::Regular`]).
    pub fn with_reflection(goal: &Board, set: Arc<PdbSet>, reflect: bool) -> Pdb {
        let mode = if reflect {
            LookupMode::Reflected
        } else {
            LookupMode::Regular
        };
        Pdb::with_lookup(goal, set, mode)
    }

    /// The heuristic for `goal` taking the maximum of the lookups `mode` names.
    pub fn with_lookup(goal: &Board, set: Arc<PdbSet>, mode: LookupMode) -> Pdb {
        let shape = goal.shape();
        let n = shape.cells();
        let identity: CellMap = std::array::from_fn(|c| c as u8);
        let mirror = mode
            .reflects()
            .then(|| reflection(shape, goal.blank()))
            .flatten()
            .map(|r| Lookup::new(goal, &set, r));
        let mut duals = vec![Vec::new(); n];
        if mode.duals() {
            let goal_cell: [u8; 16] = {
                let mut gc = [0u8; 16];
                for c in 0..n {
                    gc[goal.tile(c) as usize] = c as u8;
                }
                gc
            };
            for phi in symmetries(shape) {
                let b = phi[goal.blank()] as usize;
                if mode == LookupMode::Dual && !duals[b].is_empty() {
                    continue; // `dual` takes one symmetry per cell, `max` both
                }
                let inv = inverse(&phi, n);
                let read = set
                    .homes
                    .iter()
                    .map(|home| {
                        let mut r = [0u8; 16];
                        for (j, &h) in home.iter().enumerate() {
                            r[j] = phi[h as usize];
                        }
                        r
                    })
                    .collect();
                let cell_of = std::array::from_fn(|t| inv[goal_cell[t] as usize & 15]);
                duals[b].push(Dual {
                    read,
                    cell_of,
                    walk: [0; MAX_WALK],
                    steps: 0,
                    moves: back_moves(shape, &phi),
                    phi,
                    phi_inv: inv,
                });
            }
            let exact = duals.clone();
            for (b, list) in duals.iter_mut().enumerate() {
                if list.is_empty() && mode.walks() {
                    *list = walked(shape, b, &exact);
                }
            }
        }
        let regular = Lookup::new(goal, &set, identity);
        // Stepping needs every index to fit 32 bits (times the widest step, in 64).
        let steppers = (set.tables.len() <= STEPPED
            && shape.is_packed()
            && set.tables.iter().all(|t| t.len() <= u32::MAX as u64))
        .then(|| {
            let mirrored = mirror.as_ref().unwrap_or(&regular);
            Box::new([Stepper::new(&regular, &set), Stepper::new(mirrored, &set)])
        });
        Pdb {
            goal_tiles: std::array::from_fn(|c| if c < n { goal.tile(c) } else { 0 }),
            regular,
            mirror,
            steppers,
            width: shape.width(),
            any_dual: duals.iter().any(|d| !d.is_empty()),
            duals,
            mode,
            set,
        }
    }

    /// Whether the reflected lookup is in use.
    pub fn reflects(&self) -> bool {
        self.mirror.is_some()
    }

    /// The lookups this heuristic takes the maximum of.
    pub fn mode(&self) -> LookupMode {
        self.mode
    }

    /// The regular sum of `b` alone (no reflection, no dual).
    pub fn regular(&self, b: &Board) -> u32 {
        self.memo(b).sum as u32
    }

    /// The sum on the reflected board of `b`, where the board has a reflection.
    pub fn reflected(&self, b: &Board) -> Option<u32> {
        self.mirror
            .as_ref()
            .map(|_| self.memo(b).mirrored_sum as u32)
    }

    /// The sums on the dual boards of `b`: where a symmetry takes the goal's blank cell to
    /// `b`'s blank cell, one per such symmetry (`dual` takes the first, `max` all); elsewhere
    /// none, but with `walked`, one per symmetry and walk of the blank (see
    /// [`LookupMode::Walked`]), less the walk's moves.
    pub fn dual_sums(&self, b: &Board) -> Vec<u32> {
        self.duals[b.blank()]
            .iter()
            .map(|d| self.dual_sum(d, b.packed(), b.blank()))
            .collect()
    }

    /// The [`located`] entry of group `g` through lookup `l` (`MIRRORED`: through its cell
    /// map; the regular lookup's is the identity), for tiles on `cells` (tile → cell).
    #[inline(always)]
    fn locate_group<const MIRRORED: bool>(&self, l: &Lookup, g: usize, cells: u64) -> u64 {
        let tiles = &l.tiles[g];
        let t = &self.set.tables[g];
        let cell = |j: usize| ((cells >> (4 * tiles[j & 15])) & 0xF) as u8;
        let (i, md) = if MIRRORED {
            t.locate(|j| l.cell[cell(j) as usize & 15])
        } else {
            t.locate(cell)
        };
        located(i, md)
    }

    /// The sum over groups on the dual board of the board packed in `board` (cell → tile)
    /// with its blank on `blank`; for a walked lookup, on the board after the walk, less
    /// its steps.
    #[inline]
    fn dual_sum(&self, d: &Dual, board: u64, blank: usize) -> u32 {
        let board = walk(d, board, blank);
        let mut sum = 0;
        for (t, read) in self.set.tables.iter().zip(&d.read) {
            sum += t.value_of(dual_cell(d, read, board));
        }
        sum.saturating_sub(d.steps as u32)
    }

    /// How many walked lookups from `duals[i]` on are made together: those of one walk
    /// length, as many as [`WALKED_BATCH`] entries hold.
    #[inline]
    fn batch(&self, duals: &[Dual], i: usize) -> usize {
        let per = WALKED_BATCH / self.set.tables.len().max(1);
        let steps = duals[i].steps;
        duals[i..]
            .iter()
            .take(per.max(1))
            .take_while(|d| d.steps == steps)
            .count()
    }

    /// The largest sum of the walked lookups `ds` (each less its steps): every entry is
    /// located and asked for first, then read, so that their misses overlap.
    #[inline]
    fn walked_sums(&self, ds: &[Dual], board: u64, blank: usize) -> u32 {
        let tables = &self.set.tables;
        debug_assert!(ds.len() * tables.len() <= WALKED_BATCH);
        let mut at = [(0u64, 0u32); WALKED_BATCH];
        let mut k = 0;
        for d in ds {
            let walked = walk(d, board, blank);
            for (t, read) in tables.iter().zip(&d.read) {
                let (i, md) = t.locate(dual_cell(d, read, walked));
                t.prefetch_at(i);
                at[k & (WALKED_BATCH - 1)] = (i, md);
                k += 1;
            }
        }
        let mut best = 0;
        let mut k = 0;
        for d in ds {
            let mut sum = 0;
            for t in tables.iter() {
                let (i, md) = at[k & (WALKED_BATCH - 1)];
                sum += t.value_at(i, md);
                k += 1;
            }
            best = best.max(sum.saturating_sub(d.steps as u32));
        }
        best
    }

    fn memo(&self, b: &Board) -> PdbMemo {
        let cells = tile_cells(b.packed(), b.shape().cells());
        let mut m = PdbMemo {
            board: b.packed(),
            at: [0; STEPPED],
            mirrored_at: [0; STEPPED],
            md: [0; STEPPED],
            mirrored_md: [0; STEPPED],
            values: [0; 16],
            mirrored: [0; 16],
            sum: 0,
            mirrored_sum: 0,
        };
        for g in 0..self.set.tables.len() {
            let a = self.locate_group::<false>(&self.regular, g, cells);
            m.values[g] = value_at(&self.set.tables[g], a) as u8;
            m.sum += m.values[g] as u16;
            if g < STEPPED {
                (m.at[g], m.md[g]) = unlocated(a);
            }
            if let Some(l) = &self.mirror {
                let a = self.locate_group::<true>(l, g, cells);
                m.mirrored[g] = value_at(&self.set.tables[g], a) as u8;
                m.mirrored_sum += m.mirrored[g] as u16;
                if g < STEPPED {
                    (m.mirrored_at[g], m.mirrored_md[g]) = unlocated(a);
                }
            }
        }
        m
    }
}

impl Heuristic for Pdb {
    type Memo = PdbMemo;

    fn estimate(&self, b: &Board) -> u32 {
        self.start(b).0
    }

    /// Recomputes every group (a search that keeps the memo uses `step`).
    fn update(&self, _h: u32, after: &Board, _tile: u8, _from: usize, _to: usize) -> u32 {
        self.estimate(after)
    }

    fn start(&self, b: &Board) -> (u32, PdbMemo) {
        let m = self.memo(b);
        let h = self.refine(m.sum.max(m.mirrored_sum) as u32, b, u32::MAX);
        (h, m)
    }

    /// Only the moved tile's group changes, in the regular and in the reflected lookup; the
    /// dual lookups, where the board has them, are made whole.
    #[inline(always)]
    fn step(
        &self,
        _h: u32,
        memo: &PdbMemo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, PdbMemo) {
        let mut m = *memo;
        self.advance(
            &mut m,
            self.locate_move::<false>(memo, tile, from, to),
            tile,
            from,
            to,
        );
        let lazy = m.sum.max(m.mirrored_sum) as u32;
        if self.any_dual {
            (self.refine(lazy, after, u32::MAX), m)
        } else {
            (lazy, m)
        }
    }

    /// The regular and reflected lookups, each updated for the moved tile's group: at the
    /// entries [`Pdb::prefetch`] located, when it did.
    #[allow(clippy::too_many_arguments)] // step's, and what prefetch located
    #[inline(always)]
    fn step_lazy(
        &self,
        _h: u32,
        memo: &mut PdbMemo,
        ahead: Ahead,
        _after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        let ahead = if ahead.0[0] == 0 {
            self.locate_unasked(memo, tile, from, to)
        } else {
            ahead
        };
        self.advance(memo, ahead, tile, from, to);
        memo.sum.max(memo.mirrored_sum) as u32
    }

    /// Adds the dual lookups, where the board has them, stopping at the first exact one,
    /// or the first batch of walked ones (one walk length, see `Pdb::walked_sums`), that
    /// reaches `enough`.
    #[inline]
    fn refine(&self, lazy: u32, after: &Board, enough: u32) -> u32 {
        let (board, blank) = (after.packed(), after.blank() & 15);
        let duals = &self.duals[blank];
        let mut h = lazy;
        let mut i = 0;
        while i < duals.len() && h < enough {
            if duals[i].steps == 0 {
                // Exact duals: their entries were asked for already (`prefetch_refine`).
                h = h.max(self.dual_sum(&duals[i], board, blank));
                i += 1;
            } else {
                let n = self.batch(duals, i);
                h = h.max(self.walked_sums(&duals[i..i + n], board, blank));
                i += n;
            }
        }
        h
    }

    fn consistent(&self) -> bool {
        !self.any_dual
    }

    fn eager(&self) -> bool {
        self.mode == LookupMode::Eager
    }

    /// Locates the moved tile's group entries, regular and reflected, and asks for them; the
    /// `located` entries go to
    /// [`Pdb::step_lazy`].
    #[inline(always)]
    fn prefetch(&self, memo: &PdbMemo, tile: u8, from: usize, to: usize) -> Ahead {
        self.locate_move::<true>(memo, tile, from, to)
    }

    /// Asks for the table entries of the exact dual lookups of `after` (see
    /// [`Pdb::refine`]; the walked ones are many, and are asked for a batch at a time when
    /// the exact ones have not pruned: asking for all of them here cost `walked` 5% more time
    /// on Korf's 100).
    ///
    /// Where they are at most four (two exact duals of two groups: `max` on the 7-8
    /// tables), their [`located`] entries go back to [`Pdb::refine_located`].
    #[inline]
    fn prefetch_refine(&self, after: &Board) -> Ahead {
        let (board, blank) = (after.packed(), after.blank() & 15);
        let mut ahead = Ahead::default();
        let mut k = 0;
        for d in self.duals[blank].iter().filter(|d| d.steps == 0) {
            for (t, read) in self.set.tables.iter().zip(&d.read) {
                let (i, md) = t.locate(dual_cell(d, read, board));
                t.prefetch_at(i);
                ahead.0[k & 3] = located(i, md);
                k += 1;
            }
        }
        if k > ahead.0.len() {
            Ahead::default()
        } else {
            ahead
        }
    }

    /// [`Pdb::refine`], reading the exact duals at the entries
    /// [`Pdb::prefetch_refine`] located, where it kept them.
    #[inline]
    fn refine_located(&self, lazy: u32, after: &Board, enough: u32, ahead: Ahead) -> u32 {
        if ahead.0[0] == 0 {
            return self.refine(lazy, after, enough);
        }
        // Kept only where every dual of the cell is exact, two groups' entries each at most.
        let tables = &self.set.tables;
        let mut h = lazy;
        for k in 0..self.duals[after.blank() & 15].len() {
            if h >= enough {
                break;
            }
            let at = &ahead.0[(k * tables.len()) & 3..];
            h = h.max(tables.iter().zip(at).map(|(t, &a)| value_at(t, a)).sum());
        }
        h
    }

    /// The dual board with the largest sum, if that is above the regular and reflected
    /// sums (exact duals only: after a walk the board is not as far from the goal).
    fn jump(&self, b: &Board, memo: &PdbMemo) -> Option<Jump> {
        let lazy = memo.sum.max(memo.mirrored_sum) as u32;
        let (mut best, mut sum) = (None, lazy + JUMP_MARGIN);
        for d in self.duals[b.blank() & 15].iter().filter(|d| d.steps == 0) {
            let v = self.dual_sum(d, b.packed(), b.blank());
            if v > sum {
                (best, sum) = (Some(d), v);
            }
        }
        let d = best?;
        let n = b.shape().cells();
        let mut cell_of_tile = [0u8; 16];
        for c in 0..n {
            cell_of_tile[b.tile(c) as usize & 15] = c as u8;
        }
        let mut tiles = [0u8; 16];
        for (x, t) in tiles.iter_mut().enumerate().take(n) {
            let y = d.phi[x] as usize & 15;
            let from = cell_of_tile[self.goal_tiles[y] as usize & 15] as usize;
            *t = self.goal_tiles[d.phi_inv[from & 15] as usize & 15];
        }
        Some(Jump {
            board: Board::from_tiles(b.shape(), &tiles[..n]),
            moves: d.moves,
        })
    }
}

impl Pdb {
    /// The [`located`] entries of the moved tile's group, regular and reflected, after
    /// `tile` slid from `from` to `to`; with `FETCH`, each asked for as soon as it is located,
    /// so that the first fetch is under way while the second is ranked.
    #[inline(always)]
    fn locate_move<const FETCH: bool>(
        &self,
        memo: &PdbMemo,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Ahead {
        let g = self.regular.group_of[tile as usize & 15] as usize;
        let Some(s) = &self.steppers else {
            return self.locate_afresh::<FETCH>(memo, tile, from, to);
        };
        let mut ahead = Ahead::default();
        let (at, md) = (memo.at[g % STEPPED], memo.md[g % STEPPED]);
        ahead.0[0] = self.step_entry(&s[0], memo.board, (at, md), tile, from, to);
        if FETCH {
            self.set.tables[g].prefetch_at(ahead.0[0] >> 8);
        }
        if let Some(l) = &self.mirror {
            let g = l.group_of[tile as usize & 15] as usize;
            let (at, md) = (memo.mirrored_at[g % STEPPED], memo.mirrored_md[g % STEPPED]);
            ahead.0[1] = self.step_entry(&s[1], memo.board, (at, md), tile, from, to);
            if FETCH {
                self.set.tables[g].prefetch_at(ahead.0[1] >> 8);
            }
        }
        ahead
    }

    /// [`Pdb::locate_move`] by ranking the group's tiles afresh (more groups than the memo
    /// carries entries of).
    #[cold]
    #[inline(never)]
    fn locate_afresh<const FETCH: bool>(
        &self,
        memo: &PdbMemo,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Ahead {
        let cells =
            tile_cells(memo.board, self.set.shape.cells()) ^ (((from ^ to) as u64) << (4 * tile));
        let g = self.regular.group_of[tile as usize & 15] as usize;
        let mut ahead = Ahead::default();
        ahead.0[0] = self.locate_group::<false>(&self.regular, g, cells);
        if FETCH {
            self.set.tables[g].prefetch_at(ahead.0[0] >> 8);
        }
        if let Some(l) = &self.mirror {
            let g = l.group_of[tile as usize & 15] as usize;
            ahead.0[1] = self.locate_group::<true>(l, g, cells);
            if FETCH {
                self.set.tables[g].prefetch_at(ahead.0[1] >> 8);
            }
        }
        ahead
    }

    /// The [`located`] entry `at` of the moved tile's group, stepped over `tile`'s slide
    /// from `from` to `to` on `board` (cell → tile, before the move), through `s`'s cell map.
    ///
    /// In the index's cell order the tile goes from `a` to `b`. A slot's digit is its cell
    /// less the earlier slots' cells below it, so the tile's own digit changes by `b − a`
    /// less the earlier slots' tiles between `a` and `b`, and each later slot's tile between
    /// them has one more (or one fewer) earlier cell below it: the index changes by `±(w_t
    /// |b − a| + Σ coef)` over the cells between (none for a step of one cell, `width − 1`
    /// for a step of a row). The Manhattan distance changes by the tile's alone.
    #[inline(always)]
    fn step_entry(
        &self,
        s: &Stepper,
        board: u64,
        (at, md): (u32, u8),
        tile: u8,
        from: usize,
        to: usize,
    ) -> u64 {
        let t = tile as usize & 15;
        let (a, b) = (s.map[from & 15] as i64, s.map[to & 15] as i64);
        let span = (b - a).abs();
        let sign = if b > a { 1 } else { -1 };
        let mut d = s.weight[t] as i64 * span;
        for k in 1..self.width as i64 {
            // Cell `a + k` (or `a − k`) in the index's order, and the tile on it.
            let x = s.map[(a + sign * k) as usize & 15];
            let u = (board >> (4 * (x & 15))) & 0xF;
            let c = s.coef[t][u as usize] as i64;
            d += if k < span { c } else { 0 };
        }
        let i = (at as i64 + sign * d) as u64;
        let md = md as u32 + s.dist[t][b as usize & 15] as u32 - s.dist[t][a as usize & 15] as u32;
        located(i, md)
    }

    /// [`Pdb::locate_move`] for a search that did not call [`Pdb::prefetch`]: out of line,
    /// so that IDA*'s loop, which always hands over what `prefetch` located, does not carry
    /// a second inlined copy of the ranking.
    #[cold]
    #[inline(never)]
    fn locate_unasked(&self, memo: &PdbMemo, tile: u8, from: usize, to: usize) -> Ahead {
        self.locate_move::<false>(memo, tile, from, to)
    }

    /// Takes the memo `m` over `tile`'s slide from `from` to `to`: its group's value, regular
    /// and reflected, read at the entries `ahead` located ([`Pdb::locate_move`]).
    #[inline(always)]
    fn advance(&self, m: &mut PdbMemo, ahead: Ahead, tile: u8, from: usize, to: usize) {
        m.board =
            m.board - ((tile as u64) << (4 * (from & 15))) + ((tile as u64) << (4 * (to & 15)));
        let g = self.regular.group_of[tile as usize & 15] as usize;
        let v = value_at(&self.set.tables[g], ahead.0[0]) as u8;
        m.sum = m.sum + v as u16 - m.values[g] as u16;
        m.values[g] = v;
        if g < STEPPED {
            (m.at[g], m.md[g]) = unlocated(ahead.0[0]);
        }
        if let Some(l) = &self.mirror {
            let g = l.group_of[tile as usize & 15] as usize;
            let v = value_at(&self.set.tables[g], ahead.0[1]) as u8;
            m.mirrored_sum = m.mirrored_sum + v as u16 - m.mirrored[g] as u16;
            m.mirrored[g] = v;
            if g < STEPPED {
                (m.mirrored_at[g], m.mirrored_md[g]) = unlocated(ahead.0[1]);
            }
        }
    }
}

/// A located entry, as [`Ahead`] holds it: the index and the group's Manhattan distance,
/// plus one so that a located entry is never 0 ("not located").
#[inline(always)]
fn located(i: u64, md: u32) -> u64 {
    i << 8 | (md as u64 + 1)
}

/// A [`located`] entry's index and Manhattan distance, as [`PdbMemo`] keeps them (the index
/// of a group of at most [`STEPPED`], which fits 32 bits where the memo steps it).
#[inline(always)]
fn unlocated(a: u64) -> (u32, u8) {
    ((a >> 8) as u32, ((a & 0xFF) as u8).wrapping_sub(1))
}

/// The cells of the tiles (tile → cell) of the board `board` (cell → tile) of `n` cells.
#[inline]
fn tile_cells(board: u64, n: usize) -> u64 {
    let mut cells = 0u64;
    for p in 0..n.min(16) {
        cells |= (p as u64) << (4 * ((board >> (4 * p)) & 0xF));
    }
    cells
}

/// The value of table `t` at a [`located`] entry.
#[inline(always)]
fn value_at(t: &super::PatternTable, a: u64) -> u32 {
    t.value_at(a >> 8, (a & 0xFF) as u32 - 1)
}

/// Slot `j`'s cell on the dual board of `d` (through the group's reads `read`) of the board
/// packed in `board` (cell → tile, after `d`'s walk).
#[inline(always)]
fn dual_cell<'a>(d: &'a Dual, read: &'a [u8; 16], board: u64) -> impl Fn(usize) -> u8 + 'a {
    move |j| {
        let tile = (board >> (4 * (read[j & 15] & 15))) & 0xF;
        d.cell_of[tile as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo a move steps (entries stepped over the cells between the move's two, where
    /// the memo carries them: at most four groups) is the memo made afresh on the board
    /// after the move, entry for entry, in the regular and the reflected lookups, along
    /// random walks: on 4x4 with the reflection through either diagonal (blank first or
    /// last), on 3x3, and with five groups (ranked afresh, not stepped).
    #[test]
    fn a_stepped_memo_equals_the_memo_made_afresh() {
        let dir = std::env::temp_dir().join(format!("tilebench-step-{}", std::process::id()));
        let cases = [
            (Shape::S4X4, "5-5-5", Board::standard_goal(Shape::S4X4)),
            (
                Shape::S4X4,
                "5-5-5",
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap(),
            ),
            (Shape::S3X3, "4-4", "0 1 2 3 4 5 6 7 8".parse().unwrap()),
            (Shape::S3X3, "2-2-2-1-1", Board::standard_goal(Shape::S3X3)),
        ];
        let mut seed = 7u64;
        for (shape, partition, goal) in cases {
            let p = super::super::Partition::parse(partition, shape).unwrap();
            let set = super::super::shared(shape, goal.blank(), &p, &dir, &crate::observe::Silent);
            let pdb = Pdb::with_lookup(&goal, set, LookupMode::Max);
            assert!(pdb.reflects());
            assert_eq!(pdb.steppers.is_some(), p.sizes.len() <= STEPPED);
            let (mut b, mut memo) = (goal, pdb.memo(&goal));
            for _ in 0..400 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let Some(next) = b.apply(crate::puzzle::Move::from_index((seed >> 33) as u8 & 3))
                else {
                    continue;
                };
                let tile = b.tile(next.blank());
                let ahead = pdb.prefetch(&memo, tile, next.blank(), b.blank());
                pdb.step_lazy(0, &mut memo, ahead, &next, tile, next.blank(), b.blank());
                b = next;
                assert_eq!(memo, pdb.memo(&b), "{shape} {partition}, board {b}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every mode reads back from its name; another name is an `UnknownName` listing them.
    #[test]
    fn modes_read_by_name_and_an_unknown_one_lists_the_choices() {
        for m in LookupMode::ALL {
            assert_eq!(m.name().parse::<LookupMode>(), Ok(m));
        }
        let e = " maximum".parse::<LookupMode>().unwrap_err();
        assert_eq!((e.what, e.name.as_str()), ("lookup mode", " maximum"));
        assert_eq!(e.choices.len(), LookupMode::ALL.len());
        assert_eq!(
            e.to_string(),
            "unknown lookup mode ` maximum`; choose regular, reflected, dual, max, eager, walked"
        );
    }
}
