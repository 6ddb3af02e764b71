//! `manhattan`: the tiles' Manhattan distances.

use super::{Family, Heuristic};
use crate::puzzle::Board;
use crate::search::{Config, SolveError};

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
    /// The heuristic for `goal`.
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

impl Family for Manhattan {
    const NAME: &'static str = "manhattan";
    type Shared = ();
    fn for_goal(_: &(), _: &Config, goal: &Board) -> Result<Manhattan, SolveError> {
        Ok(Manhattan::new(goal))
    }
}
