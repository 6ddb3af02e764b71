//! `walking-distance-lc`: walking distance and linear conflict, axis by axis.
//!
//! Both heuristics count vertical and horizontal moves separately, and both count some of
//! the same moves: walking distance's row table sees a tile leave its goal row, and so do
//! the row conflicts. So their sum is not admissible, but this is: in any solution, let `V`
//! be its vertical moves and `H` its horizontal ones (`V + H` moves in all). Then
//!
//! - `V ≥ WDv` (the row table: the fewest vertical moves that fix every row's goal-row
//!   counts, or the inversion distance read row by row if larger: both bound `V`; see
//!   [`WalkingDistance`]) and `V ≥ MDv + 2·RC` (linear conflict's vertical part: each tile's row
//!   distance, plus two for each tile that must leave its goal row to let another pass;
//!   see [`LinearConflict`]);
//! - likewise `H ≥ WDh` and `H ≥ MDh + 2·CC`;
//!
//! hence `max(WDv, MDv + 2·RC) + max(WDh, MDh + 2·CC) ≤ V + H`, the estimate here. It is at
//! least walking distance and at least linear conflict. A vertical move changes only the
//! vertical terms, each by at most one, and so their maximum; likewise horizontally: the
//! estimate is consistent. Tests check it against exact distances and neighbours.

use super::linear_conflict::LcMemo;
use super::walking_distance::{self, SharedTables, WalkTables, WdMemo};
use super::{Family, Heuristic, LinearConflict, WalkingDistance};
use crate::observe::Observer;
use crate::puzzle::{Board, Shape};
use crate::search::{Config, SolveError};
use std::sync::Arc;

/// Walking distance and linear conflict, the larger of the two per axis.
#[derive(Clone, Debug)]
pub struct WalkingDistanceLc {
    wd: WalkingDistance,
    lc: LinearConflict,
}

/// What [`WalkingDistanceLc`] carries from a node to its children: the walking-distance
/// matrices and linear conflict's two parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdLcMemo {
    wd: WdMemo,
    lc: LcMemo,
}

impl WalkingDistanceLc {
    /// The heuristic for `goal`, its tables made here.
    pub fn new(goal: &Board) -> WalkingDistanceLc {
        WalkingDistanceLc::with_tables(goal, Arc::new(WalkTables::new(goal.shape(), goal.blank())))
    }

    /// The heuristic for `goal` with walking-distance tables made for its shape and blank.
    pub(crate) fn with_tables(goal: &Board, tables: Arc<WalkTables>) -> WalkingDistanceLc {
        WalkingDistanceLc {
            wd: WalkingDistance::with_tables(goal, tables),
            lc: LinearConflict::new(goal),
        }
    }

    #[inline]
    fn value(&self, m: &WdLcMemo) -> u32 {
        let (v, h) = self.wd.parts(&m.wd);
        v.max(m.lc.vertical as u32) + h.max(m.lc.horizontal as u32)
    }
}

impl Heuristic for WalkingDistanceLc {
    type Memo = WdLcMemo;

    fn estimate(&self, b: &Board) -> u32 {
        self.start(b).0
    }

    /// Recomputes everything (a search that keeps the memo uses `step`).
    fn update(&self, _h: u32, after: &Board, _tile: u8, _from: usize, _to: usize) -> u32 {
        self.estimate(after)
    }

    fn start(&self, b: &Board) -> (u32, WdLcMemo) {
        let m = WdLcMemo {
            wd: self.wd.memo(b),
            lc: self.lc.memo(b),
        };
        (self.value(&m), m)
    }

    #[inline]
    fn step(
        &self,
        _h: u32,
        memo: &WdLcMemo,
        after: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> (u32, WdLcMemo) {
        let m = WdLcMemo {
            wd: self.wd.next(&memo.wd, after, tile, from, to),
            lc: self.lc.next(&memo.lc, after, tile, from, to),
        };
        (self.value(&m), m)
    }
}

impl Family for WalkingDistanceLc {
    const NAME: &'static str = "walking-distance-lc";
    type Shared = SharedTables;

    fn supports(_config: &Config, shape: Shape) -> Result<(), SolveError> {
        walking_distance::check_shape(shape)
    }

    fn prepare(
        shared: &mut SharedTables,
        _config: &Config,
        goals: &[Board],
        _observer: &dyn Observer,
    ) -> Result<(), SolveError> {
        walking_distance::prepare_tables(shared, goals)
    }

    fn for_goal(shared: &SharedTables, _: &Config, goal: &Board) -> Result<Self, SolveError> {
        Ok(WalkingDistanceLc::with_tables(
            goal,
            walking_distance::tables_for(shared, goal)?,
        ))
    }
}
