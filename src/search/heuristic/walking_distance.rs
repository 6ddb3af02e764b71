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

use super::{Family, Heuristic};
use crate::observe::Observer;
use crate::puzzle::{Board, Shape};
use crate::search::{Config, SolveError};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;

/// The most lines (rows or columns) a table is made for: six lines of two (a 2x6 board's
/// rows) give 367,560 matrices; seven or eight (2x7, 2x8) give millions.
pub const MAX_LINES: usize = 6;

/// Marks a move the matrix does not allow (no tile of that goal line in the next line).
const NONE: u32 = u32::MAX;

/// The walking-distance table of one axis: every matrix reachable from the goal's, its
/// distance, and its transitions.
#[derive(Debug)]
pub struct WalkTable {
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
    pub fn new(lines: usize, capacity: usize, blank_line: usize) -> WalkTable {
        assert!(lines <= MAX_LINES && blank_line < lines, "checked by supports");
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

    /// Matrices in the table.
    pub fn len(&self) -> usize {
        self.dist.len()
    }

    /// Whether the table is empty (never: it holds the goal's matrix).
    pub fn is_empty(&self) -> bool {
        self.dist.is_empty()
    }

    /// The largest distance in the table.
    pub fn max_distance(&self) -> u32 {
        self.dist.iter().copied().max().unwrap_or(0) as u32
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

/// The two tables a goal needs: rows and columns.
#[derive(Debug)]
pub struct WalkTables {
    rows: WalkTable,
    cols: WalkTable,
}

impl WalkTables {
    /// The tables for goals of `shape` with the blank at `blank`.
    pub fn new(shape: Shape, blank: usize) -> WalkTables {
        let (w, h) = (shape.width(), shape.height());
        let (r, c) = shape.row_col(blank);
        WalkTables {
            rows: WalkTable::new(h, w, r),
            cols: WalkTable::new(w, h, c),
        }
    }

    /// The row table (vertical moves) and the column table (horizontal moves).
    pub fn tables(&self) -> (&WalkTable, &WalkTable) {
        (&self.rows, &self.cols)
    }
}

/// The walking-distance heuristic for one goal.
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    tables: Arc<WalkTables>,
    row: [u8; 16],
    col: [u8; 16],
    goal_row: [u8; 16],
    goal_col: [u8; 16],
}

/// What [`WalkingDistance`] carries from a node to its children: the two matrices' states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdMemo {
    rows: u32,
    cols: u32,
}

impl WalkingDistance {
    /// The heuristic for `goal`, its tables made here (a few milliseconds on 4x4).
    ///
    /// # Panics
    /// On a board with more than [`MAX_LINES`] rows or columns ([`Family::supports`]
    /// refuses those with a message).
    pub fn new(goal: &Board) -> WalkingDistance {
        WalkingDistance::with_tables(goal, Arc::new(WalkTables::new(goal.shape(), goal.blank())))
    }

    /// The heuristic for `goal` with tables made for its shape and blank cell.
    pub fn with_tables(goal: &Board, tables: Arc<WalkTables>) -> WalkingDistance {
        let shape = goal.shape();
        let mut wd = WalkingDistance {
            tables,
            row: [0; 16],
            col: [0; 16],
            goal_row: [0; 16],
            goal_col: [0; 16],
        };
        for c in 0..shape.cells() {
            let (r, k) = shape.row_col(c);
            (wd.row[c], wd.col[c]) = (r as u8, k as u8);
            let t = goal.tile(c) as usize;
            (wd.goal_row[t], wd.goal_col[t]) = (r as u8, k as u8);
        }
        wd
    }

    /// The memo of board `b`.
    pub fn memo(&self, b: &Board) -> WdMemo {
        WdMemo {
            rows: self.tables.rows.state_of(b, &self.row, &self.goal_row),
            cols: self.tables.cols.state_of(b, &self.col, &self.goal_col),
        }
    }

    /// The vertical and horizontal walking distances of a memo's matrices.
    #[inline]
    pub fn parts(&self, m: &WdMemo) -> (u32, u32) {
        (
            self.tables.rows.dist[m.rows as usize] as u32,
            self.tables.cols.dist[m.cols as usize] as u32,
        )
    }

    /// The memo after `tile` slid from cell `from` to cell `to` (the blank's cell).
    #[inline]
    pub fn next(&self, m: &WdMemo, tile: u8, from: usize, to: usize) -> WdMemo {
        let (from, to, tile) = (from & 15, to & 15, tile as usize & 15);
        let mut m = *m;
        if self.row[from] != self.row[to] {
            m.rows = (self.tables.rows).step(m.rows, self.row[to], self.row[from], self.goal_row[tile]);
        } else {
            m.cols = (self.tables.cols).step(m.cols, self.col[to], self.col[from], self.goal_col[tile]);
        }
        m
    }
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
        _after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, WdMemo) {
        let m = self.next(memo, tile, from, to);
        let (v, h) = self.parts(&m);
        (v + h, m)
    }
}

/// Whether walking-distance tables can be made for boards of `shape`.
///
/// # Errors
/// A board with more than [`MAX_LINES`] rows or columns.
pub fn check_shape(shape: Shape) -> Result<(), SolveError> {
    let lines = shape.width().max(shape.height());
    if lines > MAX_LINES {
        return Err(SolveError(format!(
            "walking distance takes boards of at most {MAX_LINES} rows and columns; a {shape} \
             board has {lines} lines, whose table would hold millions of matrices: use \
             --heuristic linear-conflict or pdb"
        )));
    }
    Ok(())
}

/// The tables of a run, by (shape, goal blank cell), made before any case is timed.
pub type SharedTables = FxHashMap<(Shape, usize), Arc<WalkTables>>;

/// Makes the tables `goals` need in `shared`.
///
/// # Errors
/// A goal whose shape has too many lines ([`check_shape`]).
pub fn prepare_tables(shared: &mut SharedTables, goals: &[Board]) -> Result<(), SolveError> {
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
pub fn tables_for(shared: &SharedTables, goal: &Board) -> Result<Arc<WalkTables>, SolveError> {
    shared.get(&(goal.shape(), goal.blank())).cloned().ok_or_else(|| {
        SolveError(format!(
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
        Ok(WalkingDistance::with_tables(goal, tables_for(shared, goal)?))
    }
}
