//! Heuristics: admissible estimates of the moves left to the goal.
//!
//! Every heuristic is built once per goal and updated incrementally as a tile slides, so
//! `astar` and `idastar` never recompute a whole board's estimate inside the search.

use crate::puzzle::{Board, Shape};
use std::fmt;
use std::str::FromStr;

/// A heuristic, as chosen with `--heuristic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeuristicKind {
    /// Sum of the tiles' Manhattan distances.
    #[default]
    Manhattan,
    /// Manhattan plus 2 for each tile that must leave its row or column to let another pass.
    LinearConflict,
    /// Additive disjoint pattern databases (see `search::pdb`).
    Pdb,
}

impl HeuristicKind {
    pub const ALL: [HeuristicKind; 3] = [
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Pdb,
    ];
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Pdb => "pdb",
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        HeuristicKind::ALL
            .into_iter()
            .find(|h| h.name() == s.trim())
            .ok_or_else(|| {
                format!("unknown heuristic `{s}`; choose manhattan, linear-conflict or pdb")
            })
    }
}

/// An estimate that can be updated when one tile slides.
pub trait Heuristic {
    /// What a depth-first search carries from a node to its children so that the next
    /// update is cheap: nothing for Manhattan, tile cells and per-group values for a pattern
    /// database (whose estimate, a maximum of two sums, cannot be updated from `h` alone).
    type Memo: Copy;
    /// The estimate for a whole board.
    fn estimate(&self, b: &Board) -> u32;
    /// The estimate after `tile` slid from cell `from` to cell `to`; `h` is the estimate
    /// before the move and `after` the board after it.
    fn update(&self, h: u32, after: &Board, tile: u8, from: usize, to: usize) -> u32;
    /// The estimate for a whole board, and its memo.
    fn start(&self, b: &Board) -> (u32, Self::Memo);
    /// [`Heuristic::update`] with the parent's memo; returns the child's.
    fn step(
        &self,
        h: u32,
        memo: &Self::Memo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, Self::Memo);
}

/// `start` and `step` for heuristics that need no memo.
macro_rules! no_memo {
    () => {
        type Memo = ();
        #[inline]
        fn start(&self, b: &Board) -> (u32, ()) {
            (self.estimate(b), ())
        }
        #[inline]
        fn step(
            &self,
            h: u32,
            _: &(),
            after: &Board,
            tile: u8,
            from: usize,
            to: usize,
        ) -> (u32, ()) {
            (self.update(h, after, tile, from, to), ())
        }
    };
}

/// Manhattan distance of the tiles (not the blank) to their goal cells.
///
/// Leaving the blank out keeps it admissible: the second seed article summed the blank's
/// distance too, which can overestimate and made its A* return paths longer than optimal.
/// It is also consistent (a move changes it by exactly one), so A* never reopens a state.
#[derive(Clone, Debug)]
pub struct Manhattan {
    /// `dist[tile][pos]`: the distance of `tile` at `pos` from its goal cell (0 for the blank).
    dist: [[u8; 16]; 16],
}

impl Manhattan {
    pub fn new(goal: &Board) -> Manhattan {
        let shape = goal.shape();
        let mut dist = [[0u8; 16]; 16];
        for gp in 0..shape.cells() {
            let tile = goal.tile(gp) as usize;
            if tile == 0 {
                continue;
            }
            let (gr, gc) = shape.row_col(gp);
            for (p, d) in dist[tile].iter_mut().enumerate().take(shape.cells()) {
                let (r, c) = shape.row_col(p);
                *d = (r.abs_diff(gr) + c.abs_diff(gc)) as u8;
            }
        }
        Manhattan { dist }
    }

    /// How the estimate changes when `tile` slides from cell `from` to cell `to`.
    #[inline(always)]
    pub fn delta(&self, tile: u8, from: usize, to: usize) -> i32 {
        // Cells are below 16: the masks let the compiler drop the bounds checks.
        let row = &self.dist[tile as usize & 15];
        row[to & 15] as i32 - row[from & 15] as i32
    }
}

impl Heuristic for Manhattan {
    no_memo!();
    fn estimate(&self, b: &Board) -> u32 {
        (0..b.shape().cells())
            .map(|p| self.dist[b.tile(p) as usize][p] as u32)
            .sum()
    }
    #[inline(always)]
    fn update(&self, h: u32, _after: &Board, tile: u8, from: usize, to: usize) -> u32 {
        (h as i32 + self.delta(tile, from, to)) as u32
    }
}

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
