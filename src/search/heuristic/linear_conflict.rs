//! `linear-conflict`: Manhattan distance plus linear conflicts.

use super::{Family, Heuristic, Manhattan};
use crate::puzzle::{Board, Shape};
use crate::search::{Config, SolveError};

/// Manhattan distance plus linear conflicts (Hansson, Mayer and Yung, 1992).
///
/// Two tiles are in linear conflict when both sit in their goal row (or column) in reverse
/// order: one must leave the line and come back, two moves Manhattan does not count. For
/// each line, the fewest tiles to remove so the rest are in order is `k − LIS`, where LIS is
/// the longest increasing run of goal columns; each removal adds 2. Admissible (rows and
/// columns are counted separately because a tile removed from its row moves vertically,
/// which Manhattan already pays for; see the property tests).
#[derive(Clone, Debug)]
pub struct LinearConflict {
    md: Manhattan,
    shape: Shape,
    /// Goal row and column of each tile.
    goal_row: [u8; 16],
    goal_col: [u8; 16],
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
        LinearConflict {
            md: Manhattan::new(goal),
            shape,
            goal_row,
            goal_col,
        }
    }

    /// Extra moves for row `r` of `b`: 2 × (tiles in their goal row − longest in-order subsequence).
    fn row_conflicts(&self, b: &Board, r: usize) -> u32 {
        let w = self.shape.width();
        let mut keys = [0u8; 4];
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

    fn col_conflicts(&self, b: &Board, c: usize) -> u32 {
        let w = self.shape.width();
        let mut keys = [0u8; 4];
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

    fn conflicts(&self, b: &Board) -> u32 {
        (0..self.shape.height())
            .map(|r| self.row_conflicts(b, r))
            .sum::<u32>()
            + (0..self.shape.width())
                .map(|c| self.col_conflicts(b, c))
                .sum::<u32>()
    }
}

/// Length of the longest strictly increasing subsequence of at most 4 keys.
#[inline]
fn lis(keys: &[u8]) -> usize {
    let mut best = [0usize; 4];
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
    no_memo!();
    fn estimate(&self, b: &Board) -> u32 {
        self.md.estimate(b) + self.conflicts(b)
    }
    fn update(&self, h: u32, after: &Board, tile: u8, from: usize, to: usize) -> u32 {
        // Only the lines the tile left and entered change. Rebuild the board before the
        // move to subtract their old conflicts.
        let before = after.slide_blank_to(to);
        let w = self.shape.width();
        let (fr, fc) = (from / w, from % w);
        let (tr, tc) = (to / w, to % w);
        let mut h = h as i32 + self.md.delta(tile, from, to);
        if fr == tr {
            // A horizontal slide: the row's order is unchanged, two columns change.
            for c in [fc, tc] {
                h += self.col_conflicts(after, c) as i32 - self.col_conflicts(&before, c) as i32;
            }
        } else {
            for r in [fr, tr] {
                h += self.row_conflicts(after, r) as i32 - self.row_conflicts(&before, r) as i32;
            }
        }
        h as u32
    }
}

impl Family for LinearConflict {
    const NAME: &'static str = "linear-conflict";
    type Shared = ();
    fn for_goal(_: &(), _: &Config, goal: &Board) -> Result<LinearConflict, SolveError> {
        Ok(LinearConflict::new(goal))
    }
}
