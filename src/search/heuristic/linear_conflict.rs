//! `linear-conflict`: Manhattan distance plus linear conflicts.

use super::{Family, Heuristic};
use crate::puzzle::{Board, Shape};
use crate::search::{Config, SolveError};

/// Manhattan distance plus linear conflicts (Hansson, Mayer and Yung, 1992).
///
/// Two tiles are in linear conflict when both sit in their goal row (or column) in reverse
/// order: one must leave the line and come back, two moves Manhattan does not count. For
/// each line, the fewest tiles to remove so the rest are in order is `k − LIS`, where LIS is
/// the longest increasing run of goal columns; each removal adds 2. Admissible: the tiles of
/// a row that never leave it keep their order (tiles in a row cannot pass each other), so at
/// least `k − LIS` leave it, each with two vertical moves its Manhattan distance (0 in its
/// goal row) does not count. So the *vertical part*, vertical Manhattan distance plus the row
/// conflicts, is at most the number of vertical moves, and the horizontal part (columns) at
/// most the horizontal ones (`LinearConflict::parts`; walking distance combines with
/// each part on its own). Each part changes by exactly one per move in its direction, so
/// the estimate is consistent.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    shape: Shape,
    /// Goal row and column of each tile.
    goal_row: [u8; 16],
    goal_col: [u8; 16],
    /// `row_digit[r][tile]`: the tile's goal column if row `r` is its goal row, else the
    /// row's length; a row's digits in order index [`line_table`].
    row_digit: [[u8; 16]; 8],
    col_digit: [[u8; 16]; 8],
    rows: Option<&'static [u8]>,
    cols: Option<&'static [u8]>,
}

/// The longest line a conflict table is made for: `(n + 1)^n` entries, 117,649 for 6.
const MAX_TABLE_LINE: usize = 6;

/// `2 × (k − LIS)` for every line of `n` cells, indexed by the line's digits read as a
/// number in base `n + 1` (a digit is a tile's goal position along the line, or `n` for a
/// tile of another line or the blank); made once per length, shared by every goal.
fn line_table(n: usize) -> Option<&'static [u8]> {
    static TABLES: [std::sync::OnceLock<Vec<u8>>; MAX_TABLE_LINE + 1] =
        [const { std::sync::OnceLock::new() }; MAX_TABLE_LINE + 1];
    let t = TABLES.get(n)?.get_or_init(|| {
        let base = n + 1;
        (0..base.pow(n as u32))
            .map(|mut code| {
                let mut keys = [0u8; MAX_TABLE_LINE];
                let mut k = 0;
                for _ in 0..n {
                    // Most significant digit first: the line's first cell.
                    let d = code / base.pow(n as u32 - 1);
                    code = (code % base.pow(n as u32 - 1)) * base;
                    if d < n {
                        keys[k] = d as u8;
                        k += 1;
                    }
                }
                2 * (k - lis(&keys[..k])) as u8
            })
            .collect()
    });
    Some(t)
}

impl LinearConflict {
    /// The heuristic for `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        let shape = goal.shape();
        let mut goal_row = [u8::MAX; 16];
        let mut goal_col = [u8::MAX; 16];
        for p in 0..shape.cells() {
            let t = goal.tile(p) as usize;
            if t != 0 {
                let (r, c) = shape.row_col(p);
                goal_row[t] = r as u8;
                goal_col[t] = c as u8;
            }
        }
        let (w, h) = (shape.width(), shape.height());
        let mut row_digit = [[w as u8; 16]; 8];
        let mut col_digit = [[h as u8; 16]; 8];
        for t in 1..shape.cells() {
            row_digit[goal_row[t] as usize][t] = goal_col[t];
            col_digit[goal_col[t] as usize][t] = goal_row[t];
        }
        LinearConflict {
            shape,
            goal_row,
            goal_col,
            row_digit,
            col_digit,
            rows: line_table(w),
            cols: line_table(h),
        }
    }

    /// Extra moves for row `r` of `b`: 2 × (tiles in their goal row − longest in-order subsequence).
    #[inline]
    fn row_conflicts(&self, b: &Board, r: usize) -> u32 {
        let w = self.shape.width();
        if let Some(table) = self.rows {
            let digit = &self.row_digit[r & 7];
            let code = (0..w).fold(0, |code, c| {
                code * (w + 1) + digit[b.tile(r * w + c) as usize & 15] as usize
            });
            return table[code] as u32;
        }
        let mut keys = [0u8; 16];
        let mut n = 0;
        for c in 0..w {
            let t = b.tile(r * w + c) as usize;
            if t != 0 && self.goal_row[t] as usize == r {
                keys[n] = self.goal_col[t];
                n += 1;
            }
        }
        2 * (n - lis(&keys[..n])) as u32
    }

    #[inline]
    fn col_conflicts(&self, b: &Board, c: usize) -> u32 {
        let w = self.shape.width();
        if let Some(table) = self.cols {
            let digit = &self.col_digit[c & 7];
            let code = (0..self.shape.height()).fold(0, |code, r| {
                code * (self.shape.height() + 1) + digit[b.tile(r * w + c) as usize & 15] as usize
            });
            return table[code] as u32;
        }
        let mut keys = [0u8; 16];
        let mut n = 0;
        for r in 0..self.shape.height() {
            let t = b.tile(r * w + c) as usize;
            if t != 0 && self.goal_col[t] as usize == c {
                keys[n] = self.goal_row[t];
                n += 1;
            }
        }
        2 * (n - lis(&keys[..n])) as u32
    }

    /// The vertical part (the tiles' row distances plus the row conflicts) and the
    /// horizontal part (column distances plus column conflicts) of `b`'s estimate.
    pub(crate) fn parts(&self, b: &Board) -> (u32, u32) {
        let (mut v, mut h) = (0, 0);
        for p in 0..self.shape.cells() {
            let t = b.tile(p) as usize;
            if t != 0 {
                let (r, c) = self.shape.row_col(p);
                v += r.abs_diff(self.goal_row[t] as usize) as u32;
                h += c.abs_diff(self.goal_col[t] as usize) as u32;
            }
        }
        v += (0..self.shape.height())
            .map(|r| self.row_conflicts(b, r))
            .sum::<u32>();
        h += (0..self.shape.width())
            .map(|c| self.col_conflicts(b, c))
            .sum::<u32>();
        (v, h)
    }

    /// The memo of `b`: its parts and every line's conflicts.
    pub(crate) fn memo(&self, b: &Board) -> LcMemo {
        let (vertical, horizontal) = self.parts(b);
        let mut lines = [0u8; 16];
        for (r, l) in lines.iter_mut().enumerate().take(self.shape.height()) {
            *l = self.row_conflicts(b, r) as u8;
        }
        for c in 0..self.shape.width() {
            lines[8 + c] = self.col_conflicts(b, c) as u8;
        }
        LcMemo {
            vertical: vertical as u16,
            horizontal: horizontal as u16,
            lines,
        }
    }

    /// The memo after `tile` slid from `from` to `to` (`after` is the board after the
    /// move): only the lines the tile left and entered change, in the part of the move's
    /// direction (a horizontal slide keeps every row's order).
    #[inline]
    pub(crate) fn next(
        &self,
        m: &LcMemo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> LcMemo {
        let mut m = *m;
        let w = self.shape.width();
        let (fr, fc) = (from / w, from % w);
        let (tr, tc) = (to / w, to % w);
        let t = tile as usize & 15;
        if fr == tr {
            let gc = self.goal_col[t] as usize;
            let mut d = tc.abs_diff(gc) as i32 - fc.abs_diff(gc) as i32;
            for c in [fc, tc] {
                let now = self.col_conflicts(after, c) as u8;
                d += now as i32 - m.lines[(8 + c) & 15] as i32;
                m.lines[(8 + c) & 15] = now;
            }
            m.horizontal = (m.horizontal as i32 + d) as u16;
        } else {
            let gr = self.goal_row[t] as usize;
            let mut d = tr.abs_diff(gr) as i32 - fr.abs_diff(gr) as i32;
            for r in [fr, tr] {
                let now = self.row_conflicts(after, r) as u8;
                d += now as i32 - m.lines[r & 15] as i32;
                m.lines[r & 15] = now;
            }
            m.vertical = (m.vertical as i32 + d) as u16;
        }
        m
    }
}

/// What [`LinearConflict`] carries from a node to its children: its two parts and the
/// conflicts of every row (`lines[r]`) and column (`lines[8 + c]`), so a move re-scores only
/// the two lines it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcMemo {
    /// The vertical part: row distances plus row conflicts.
    pub vertical: u16,
    /// The horizontal part: column distances plus column conflicts.
    pub horizontal: u16,
    lines: [u8; 16],
}

/// Length of the longest strictly increasing subsequence of at most 16 keys.
#[inline]
fn lis(keys: &[u8]) -> usize {
    let mut best = [0usize; 16];
    let mut longest = 0;
    for i in 0..keys.len() {
        best[i] = 1;
        for j in 0..i {
            if keys[j] < keys[i] && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
            }
        }
        longest = longest.max(best[i]);
    }
    longest
}

impl Heuristic for LinearConflict {
    type Memo = LcMemo;
    fn estimate(&self, b: &Board) -> u32 {
        let (v, h) = self.parts(b);
        v + h
    }
    /// Without a memo: the board before the move is rebuilt to re-score its two lines.
    fn update(&self, _h: u32, after: &Board, tile: u8, from: usize, to: usize) -> u32 {
        let before = self.memo(&after.slide_blank_to(to));
        let m = self.next(&before, after, tile, from, to);
        (m.vertical + m.horizontal) as u32
    }
    fn start(&self, b: &Board) -> (u32, LcMemo) {
        let m = self.memo(b);
        ((m.vertical + m.horizontal) as u32, m)
    }
    #[inline]
    fn step(
        &self,
        _h: u32,
        memo: &LcMemo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, LcMemo) {
        let m = self.next(memo, after, tile, from, to);
        ((m.vertical + m.horizontal) as u32, m)
    }
}

impl Family for LinearConflict {
    const NAME: &'static str = "linear-conflict";
    type Shared = ();
    fn for_goal(_: &(), _: &Config, goal: &Board) -> Result<LinearConflict, SolveError> {
        Ok(LinearConflict::new(goal))
    }
}
