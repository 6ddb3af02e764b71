//! `walking-distance`: Takahashi's walking distance.
//!
//! Forget which tile is which, keep only each tile's goal row: a board becomes a matrix
//! `M[r][k]`, the number of tiles in row `r` that belong in row `k`, and the blank's row. A
//! vertical move takes one tile from the row above or below the blank into the blank's row
//! (which tile of that row does not matter, only its goal row); a horizontal move changes
//! nothing. The fewest vertical moves that turn a board's matrix into the goal's is read
//! from a table made by one breadth-first search over all matrices from the goal's (24,964
//! for a 4x4 board). The same over columns counts horizontal moves. Every move is either
//! vertical or horizontal, so the sum of the two is admissible; each table's value changes
//! by at most one per move, so it is consistent. It dominates Manhattan distance, which is
//! the same count with every tile on its own.
//!
//! A search carries the two matrices' indices: a move is one lookup in a transition table
//! (the matrix reached when the blank's line trades with the next line a tile of a given
//! goal line).
//!
//! **Inversion distance** (Takahashi's other bound; he calls it ID) counts the same moves
//! another way. Read the tiles row by row, skipping the blank, and count the pairs out of
//! their goal order: `I` inversions. A horizontal move leaves that order alone; a vertical
//! one lifts a tile over the `k = width − 1` tiles between its cells, changing `I` by an
//! amount of `k`'s parity and at most `k`. So the vertical moves
//! number at least the fewest `n` with `n·k ≥ I` (and, for odd `k`, `n` of `I`'s parity): a
//! distance in the graph of counter values whose edges are those changes, so it changes by at
//! most one per move. The same column by column bounds the horizontal moves. Each axis takes
//! the larger of the two bounds: still admissible and consistent, and it about halves walking
//! distance's nodes on Korf's 100 (docs/performance-history.md). A move updates `I` from the tiles it passes: `k` comparisons.

use super::{Family, Heuristic};
use crate::observe::Observer;
use crate::puzzle::{Board, Shape};
use crate::search::{Config, SolveError};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;

/// The most lines (rows or columns) a table is made for: six lines of two (a 2x6 board's
/// rows) give 367,560 matrices; seven or eight (2x7, 2x8) give millions.
pub(crate) const MAX_LINES: usize = 6;

/// Marks a move the matrix does not allow (no tile of that goal line in the next line).
const NONE: u32 = u32::MAX;

/// The walking-distance table of one axis: every matrix reachable from the goal's, its
/// distance, and its transitions.
#[derive(Debug)]
pub(crate) struct WalkTable {
    lines: usize,
    bits: u32,
    index: FxHashMap<u128, u32>,
    dist: Vec<u8>,
    /// `next[(state * 2 + dir) * lines + class]`: the matrix after the blank moves to the
    /// previous line (`dir` 0) or the next one (1), taking a tile of goal line `class`
    /// from there.
    next: Vec<u32>,
}

impl WalkTable {
    /// The table for `lines` lines of `capacity` cells each, the goal's blank in line
    /// `blank_line` (for rows: the board's height, width and the goal blank's row).
    pub(crate) fn new(lines: usize, capacity: usize, blank_line: usize) -> WalkTable {
        assert!(
            lines <= MAX_LINES && blank_line < lines,
            "checked by supports"
        );
        let bits = usize::BITS - capacity.leading_zeros();
        let mut t = WalkTable {
            lines,
            bits,
            index: FxHashMap::default(),
            dist: Vec::new(),
            next: Vec::new(),
        };
        let mut goal = [0u8; MAX_LINES * MAX_LINES];
        for l in 0..lines {
            goal[l * lines + l] = (capacity - (l == blank_line) as usize) as u8;
        }
        let start = t.key(&goal, blank_line);
        t.index.insert(start, 0);
        t.dist.push(0);
        let mut queue = VecDeque::from([(start, blank_line)]);
        while let Some((key, blank)) = queue.pop_front() {
            let state = t.index[&key] as usize;
            let m = t.matrix(key);
            t.next.resize((state + 1) * 2 * lines, NONE);
            for (dir, to) in [(0, blank.wrapping_sub(1)), (1, blank + 1)] {
                if to >= lines {
                    continue;
                }
                for class in 0..lines {
                    if m[to * lines + class] == 0 {
                        continue;
                    }
                    let mut after = m;
                    after[to * lines + class] -= 1;
                    after[blank * lines + class] += 1;
                    let k = t.key(&after, to);
                    let n = t.dist.len() as u32;
                    let s = *t.index.entry(k).or_insert_with(|| {
                        queue.push_back((k, to));
                        n
                    });
                    if s == n {
                        t.dist.push(t.dist[state] + 1);
                    }
                    t.next[(state * 2 + dir) * lines + class] = s;
                }
            }
        }
        t
    }

    fn key(&self, m: &[u8; MAX_LINES * MAX_LINES], blank: usize) -> u128 {
        let n = self.lines * self.lines;
        let mut k = blank as u128;
        for &v in &m[..n] {
            k = (k << self.bits) | v as u128;
        }
        k
    }

    fn matrix(&self, mut key: u128) -> [u8; MAX_LINES * MAX_LINES] {
        let n = self.lines * self.lines;
        let mut m = [0u8; MAX_LINES * MAX_LINES];
        for v in m[..n].iter_mut().rev() {
            *v = (key & ((1 << self.bits) - 1)) as u8;
            key >>= self.bits;
        }
        m
    }

    #[cfg(test)]
    /// Matrices in the table.
    pub(crate) fn len(&self) -> usize {
        self.dist.len()
    }

    /// The state of a board's matrix: `line[cell]` is the cell's line, `class[tile]` the
    /// tile's goal line.
    fn state_of(&self, b: &Board, line: &[u8; 16], class: &[u8; 16]) -> u32 {
        let mut m = [0u8; MAX_LINES * MAX_LINES];
        for c in 0..b.shape().cells() {
            let t = b.tile(c) as usize;
            if t != 0 {
                m[line[c] as usize * self.lines + class[t] as usize] += 1;
            }
        }
        // Every matrix of a board is reachable: its tiles can be walked to any lines (a test
        // looks up every 8-puzzle board, of both parities).
        *self
            .index
            .get(&self.key(&m, line[b.blank()] as usize))
            .expect("every matrix with the goal's line counts is in the table")
    }

    #[inline]
    fn step(&self, state: u32, blank_line: u8, to_line: u8, class: u8) -> u32 {
        let dir = (to_line > blank_line) as usize;
        self.next[(state as usize * 2 + dir) * self.lines + class as usize]
    }
}

/// The two tables a goal needs: rows and columns; and for the inversion distance, the
/// column-by-column order of the cells and the moves that undo a count of inversions.
#[derive(Debug)]
pub(crate) struct WalkTables {
    rows: WalkTable,
    cols: WalkTable,
    /// The cell at each place of the board read column by column, and each cell's place.
    col_major: [u8; 16],
    place_h: [u8; 16],
    /// `id_v[I]`: the fewest vertical moves `I` row inversions need; `id_h` for columns.
    id_v: [u8; INVERSIONS],
    id_h: [u8; INVERSIONS],
}

impl WalkTables {
    /// The tables for goals of `shape` with the blank at `blank`.
    pub(crate) fn new(shape: Shape, blank: usize) -> WalkTables {
        let (w, h) = (shape.width(), shape.height());
        let (r, c) = shape.row_col(blank);
        let (mut col_major, mut place_h) = ([0; 16], [0; 16]);
        for (cell, place) in place_h.iter_mut().enumerate().take(shape.cells()) {
            let (r, k) = shape.row_col(cell);
            (col_major[k * h + r], *place) = (cell as u8, (k * h + r) as u8);
        }
        WalkTables {
            rows: WalkTable::new(h, w, r),
            cols: WalkTable::new(w, h, c),
            col_major,
            place_h,
            id_v: inversion_table(w - 1),
            id_h: inversion_table(h - 1),
        }
    }

    #[cfg(test)]
    /// The row table (vertical moves) and the column table (horizontal moves).
    pub(crate) fn tables(&self) -> (&WalkTable, &WalkTable) {
        (&self.rows, &self.cols)
    }
}

/// The walking-distance heuristic for one goal, with the inversion distance.
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    tables: Arc<WalkTables>,
    row: [u8; 16],
    col: [u8; 16],
    goal_row: [u8; 16],
    goal_col: [u8; 16],
    /// Each tile's place in the goal read row by row (its goal cell), and column by column.
    key_v: [u8; 16],
    key_h: [u8; 16],
}

/// Inversion counts of at most 15 tiles: 0 to 105 (and room to spare).
const INVERSIONS: usize = 128;

/// What [`WalkingDistance`] carries from a node to its children: the two matrices' states,
/// and the inversions read row by row and column by column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdMemo {
    rows: u32,
    cols: u32,
    inv_v: u8,
    inv_h: u8,
}

/// `t[I]`: the fewest moves that undo `I` inversions when each changes them by an amount of
/// `k`'s parity and at most `k` (the moves that lift a tile over `k` others); all 0 when
/// `k` is 0 (a line of one cell: no such move).
fn inversion_table(k: usize) -> [u8; INVERSIONS] {
    std::array::from_fn(|i| {
        if k == 0 {
            return 0;
        }
        let mut n = i.div_ceil(k);
        if k % 2 == 1 && n % 2 != i % 2 {
            n += 1;
        }
        n as u8
    })
}

impl WalkingDistance {
    /// The heuristic for `goal`, its tables made here (a few milliseconds on 4x4).
    ///
    /// # Panics
    /// On a board with more than `MAX_LINES` rows or columns (`Family::supports`
    /// refuses those with a message).
    pub fn new(goal: &Board) -> WalkingDistance {
        WalkingDistance::with_tables(goal, Arc::new(WalkTables::new(goal.shape(), goal.blank())))
    }

    /// The heuristic for `goal` with tables made for its shape and blank cell.
    pub(crate) fn with_tables(goal: &Board, tables: Arc<WalkTables>) -> WalkingDistance {
        let shape = goal.shape();
        let mut wd = WalkingDistance {
            tables,
            row: [0; 16],
            col: [0; 16],
            goal_row: [0; 16],
            goal_col: [0; 16],
            key_v: [0; 16],
            key_h: [0; 16],
        };
        for c in 0..shape.cells() {
            let (r, k) = shape.row_col(c);
            (wd.row[c], wd.col[c]) = (r as u8, k as u8);
            let t = goal.tile(c) as usize;
            (wd.goal_row[t], wd.goal_col[t]) = (r as u8, k as u8);
            (wd.key_v[t], wd.key_h[t]) = (c as u8, wd.tables.place_h[c]);
        }
        wd
    }

    /// The inversions of `b` read row by row and column by column, against the goal's orders.
    fn inversions(&self, b: &Board) -> (u8, u8) {
        let n = b.shape().cells();
        let count = |cells: &mut dyn Iterator<Item = usize>, key: &[u8; 16]| {
            let tiles = cells.map(|c| b.tile(c) as usize).filter(|&t| t != 0);
            crate::puzzle::inversions(tiles.map(|t| key[t])) as u8
        };
        (
            count(&mut (0..n), &self.key_v),
            count(
                &mut (0..n).map(|p| self.tables.col_major[p] as usize),
                &self.key_h,
            ),
        )
    }

    /// The memo of board `b`.
    pub(crate) fn memo(&self, b: &Board) -> WdMemo {
        let (inv_v, inv_h) = self.inversions(b);
        WdMemo {
            rows: self.tables.rows.state_of(b, &self.row, &self.goal_row),
            cols: self.tables.cols.state_of(b, &self.col, &self.goal_col),
            inv_v,
            inv_h,
        }
    }

    /// The bounds on vertical and horizontal moves of a memo: per axis the larger of the
    /// walking distance and the inversion distance.
    #[inline]
    pub(crate) fn parts(&self, m: &WdMemo) -> (u32, u32) {
        let t = &*self.tables;
        let v = t.rows.dist[m.rows as usize].max(t.id_v[m.inv_v as usize & (INVERSIONS - 1)]);
        let h = t.cols.dist[m.cols as usize].max(t.id_h[m.inv_h as usize & (INVERSIONS - 1)]);
        (v as u32, h as u32)
    }

    /// The memo after `tile` slid from cell `from` to cell `to` (the blank's cell), on the
    /// board `after` the move.
    #[inline]
    pub(crate) fn next(
        &self,
        m: &WdMemo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> WdMemo {
        let (from, to, tile) = (from & 15, to & 15, tile as usize & 15);
        let cells = after.packed();
        let key_of = |c: u8, key: &[u8; 16]| key[((cells >> (4 * (c & 15))) & 0xF) as usize];
        let mut m = *m;
        if self.row[from] != self.row[to] {
            m.rows =
                (self.tables.rows).step(m.rows, self.row[to], self.row[from], self.goal_row[tile]);
            let passed = (from.min(to) + 1..from.max(to)).map(|c| key_of(c as u8, &self.key_v));
            m.inv_v = inversions_after(m.inv_v, self.key_v[tile], to < from, passed);
        } else {
            m.cols =
                (self.tables.cols).step(m.cols, self.col[to], self.col[from], self.goal_col[tile]);
            let (a, b) = (
                self.tables.place_h[from] as usize,
                self.tables.place_h[to] as usize,
            );
            let passed = (a.min(b) + 1..a.max(b))
                .map(|p| key_of(self.tables.col_major[p & 15], &self.key_h));
            m.inv_h = inversions_after(m.inv_h, self.key_h[tile], b < a, passed);
        }
        m
    }
}

/// The inversions after a tile whose goal place is `key` passes tiles whose goal places are
/// `passed`, to an earlier place in the order or a later one: each pair it passes turns into
/// an inversion or out of one.
#[inline(always)]
fn inversions_after(inv: u8, key: u8, earlier: bool, passed: impl Iterator<Item = u8>) -> u8 {
    // Counted without branches (which way each comparison goes is a coin toss): `below` of
    // the `n` passed tiles belong before this one. Moving earlier puts the tile before all
    // `n`: those `below` become inversions, the others stop being ones.
    let (mut below, mut n) = (0i32, 0i32);
    for u in passed {
        below += (u < key) as i32;
        n += 1;
    }
    let change = 2 * below - n;
    (inv as i32 + if earlier { change } else { -change }) as u8
}

impl Heuristic for WalkingDistance {
    type Memo = WdMemo;

    fn estimate(&self, b: &Board) -> u32 {
        self.start(b).0
    }

    /// Recomputes both matrices (a search that keeps the memo uses `step`).
    fn update(&self, _h: u32, after: &Board, _tile: u8, _from: usize, _to: usize) -> u32 {
        self.estimate(after)
    }

    fn start(&self, b: &Board) -> (u32, WdMemo) {
        let m = self.memo(b);
        let (v, h) = self.parts(&m);
        (v + h, m)
    }

    #[inline]
    fn step(
        &self,
        _h: u32,
        memo: &WdMemo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, WdMemo) {
        let m = self.next(memo, after, tile, from, to);
        let (v, h) = self.parts(&m);
        (v + h, m)
    }
}

/// Whether walking-distance tables can be made for boards of `shape`.
///
/// # Errors
/// A board with more than [`MAX_LINES`] rows or columns.
pub(crate) fn check_shape(shape: Shape) -> Result<(), SolveError> {
    let lines = shape.width().max(shape.height());
    if lines > MAX_LINES {
        let said = |how: &str| {
            format!(
                "walking distance takes boards of at most {MAX_LINES} rows and columns; a \
                 {shape} board has {lines} lines, whose table would hold millions of \
                 matrices: use {how}"
            )
        };
        return Err(SolveError::new(crate::observe::Wording::new(
            said("the linear-conflict or pdb heuristic"),
            said("--heuristic linear-conflict or pdb"),
        )));
    }
    Ok(())
}

/// The tables of a run, by (shape, goal blank cell), made before any case is timed.
pub(crate) type SharedTables = FxHashMap<(Shape, usize), Arc<WalkTables>>;

/// Makes the tables `goals` need in `shared`.
///
/// # Errors
/// A goal whose shape has too many lines ([`check_shape`]).
pub(crate) fn prepare_tables(shared: &mut SharedTables, goals: &[Board]) -> Result<(), SolveError> {
    for g in goals {
        check_shape(g.shape())?;
        shared
            .entry((g.shape(), g.blank()))
            .or_insert_with(|| Arc::new(WalkTables::new(g.shape(), g.blank())));
    }
    Ok(())
}

/// The prepared tables for `goal`.
///
/// # Errors
/// They were not prepared.
pub(crate) fn tables_for(
    shared: &SharedTables,
    goal: &Board,
) -> Result<Arc<WalkTables>, SolveError> {
    shared
        .get(&(goal.shape(), goal.blank()))
        .cloned()
        .ok_or_else(|| {
            SolveError::new(format!(
            "the walking-distance tables for {} goals with the blank at cell {} were not made; \
             call Solver::prepare with the goals first",
            goal.shape(),
            goal.blank()
        ))
        })
}

impl Family for WalkingDistance {
    const NAME: &'static str = "walking-distance";
    type Shared = SharedTables;

    fn supports(_config: &Config, shape: Shape) -> Result<(), SolveError> {
        check_shape(shape)
    }

    fn prepare(
        shared: &mut SharedTables,
        _config: &Config,
        goals: &[Board],
        _observer: &dyn Observer,
    ) -> Result<(), SolveError> {
        prepare_tables(shared, goals)
    }

    fn for_goal(shared: &SharedTables, _: &Config, goal: &Board) -> Result<Self, SolveError> {
        Ok(WalkingDistance::with_tables(
            goal,
            tables_for(shared, goal)?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::MOVE_ORDER;

    /// The published size of the 15-puzzle's walking-distance table (Takahashi): 24,964
    /// matrices, the same for rows and columns, wherever the goal's blank is.
    #[test]
    fn the_4x4_walking_distance_table_has_24964_matrices() {
        for blank in [0, 5, 15] {
            let t = WalkTables::new(Shape::S4X4, blank);
            let (rows, cols) = t.tables();
            assert_eq!(
                (rows.len(), cols.len()),
                (24_964, 24_964),
                "blank at {blank}"
            );
        }
    }

    /// The inversion tables against a breadth-first search over counter values whose moves
    /// change the count by `k`'s parity and at most `k`.
    #[test]
    fn inversion_tables_are_distances_in_the_counter_graph() {
        for k in 0..8usize {
            let mut dist = [u8::MAX; INVERSIONS];
            dist[0] = 0;
            let mut queue = VecDeque::from([0usize]);
            while let Some(i) = queue.pop_front() {
                for s in (0..=k).filter(|s| s % 2 == k % 2) {
                    for j in [i + s, i.wrapping_sub(s)] {
                        if j < INVERSIONS && dist[j] == u8::MAX {
                            dist[j] = dist[i] + 1;
                            queue.push_back(j);
                        }
                    }
                }
            }
            let table = inversion_table(k);
            let mut reached = 0;
            for i in 0..INVERSIONS {
                // Counts no move sequence reaches never occur on a board (with `k` even,
                // every move keeps the count's parity, and the goal's is 0).
                if dist[i] != u8::MAX {
                    assert_eq!(table[i], dist[i], "k {k}, {i} inversions");
                    reached += 1;
                }
            }
            assert!(reached >= INVERSIONS / 2 || k == 0, "k {k}: {reached}");
        }
    }

    /// Along random walks from random goals, on shapes with lines of 2 to 5 cells: the
    /// carried memo (matrices and inversion counts) equals one made afresh after every move,
    /// and the inversion distance exceeds the walking distance on one axis or the other of
    /// some boards (else it would add nothing).
    #[test]
    fn inversions_are_carried_move_by_move_and_add_to_walking_distance() {
        let mut seed = 11u64;
        let mut rand = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let mut above = 0;
        for (w, h) in [
            (4, 4),
            (4, 3),
            (3, 4),
            (4, 2),
            (2, 4),
            (5, 3),
            (3, 5),
            (2, 3),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let mut goal = Board::standard_goal(shape);
            let mut wd = WalkingDistance::new(&goal);
            // Few goals (each makes its tables), many walks from each.
            for walk in 0..30 {
                if walk % 10 == 0 {
                    let mut tiles: Vec<u8> = (0..shape.cells() as u8).collect();
                    for i in (1..tiles.len()).rev() {
                        tiles.swap(i, rand() % (i + 1));
                    }
                    goal = Board::from_tiles(shape, &tiles);
                    wd = WalkingDistance::new(&goal);
                }
                let (mut b, mut m) = (goal, wd.memo(&goal));
                for _ in 0..60 {
                    let Some(next) = b.apply(MOVE_ORDER[rand() % 4]) else {
                        continue;
                    };
                    let (from, to) = (next.blank(), b.blank());
                    m = wd.next(&m, &next, b.tile(from), from, to);
                    b = next;
                    assert_eq!(m, wd.memo(&b), "{shape} {b}");
                    let (v, h) = wd.parts(&m);
                    let t = &wd.tables;
                    above += (v > t.rows.dist[m.rows as usize] as u32
                        || h > t.cols.dist[m.cols as usize] as u32)
                        as u32;
                }
            }
        }
        assert!(above > 100, "{above}");
    }
}
