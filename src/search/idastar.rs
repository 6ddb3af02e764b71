//! `idastar`: iterative-deepening A* (Korf, 1985).
//!
//! Depth-first searches bounded by `f = g + h`, the bound raised each iteration to the
//! smallest `f` that exceeded it. Memory is the path alone. Moves are applied and undone in
//! place on one packed board, the move back to the parent is never generated, and the
//! heuristic is updated incrementally.
//!
//! Counting follows Korf's 1985 experiments, so that with the Manhattan heuristic the totals
//! on his 100 instances equal the published ones: children are generated in the blank-move
//! order up, left, right, down; `generated` counts every child generated over all iterations
//! (Korf's "nodes generated" is `generated + 1`, the root); the search stops at the first
//! goal found. `expanded` counts nodes whose children were generated, over all iterations.

use super::heuristic::Heuristic;
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Move, Neighbors};

struct Search<'a, H: Heuristic> {
    h: &'a H,
    neighbors: Neighbors,
    shape: crate::puzzle::Shape,
    goal: u64,
    bound: u32,
    next_bound: u32,
    path: Vec<u8>,
    stats: Stats,
    budget: Budget,
    out_of_budget: bool,
}

impl<H: Heuristic> Search<'_, H> {
    /// Searches below a node at depth `g` with estimate `h`. Returns true when the goal is found.
    fn dfs(&mut self, cells: u64, blank: usize, g: u32, h: u32, memo: &H::Memo, last: u8) -> bool {
        let f = g + h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if cells == self.goal {
            return true;
        }
        if self.budget.exhausted(self.stats.expanded) {
            self.out_of_budget = true;
            return false;
        }
        self.stats.expanded += 1;
        let depth = self.path.len() as u64 + 1;
        self.stats.peak_frontier = self.stats.peak_frontier.max(depth);
        // The moves are tested here rather than read from `Neighbors::children` as the other
        // searches do: in this, the hottest loop, that measured 99–106 M nodes/s against
        // 129 M for the open-coded test (Korf #2 5 13 16 20 23, one thread).
        for m in 0..4u8 {
            if last == 3 - m {
                continue;
            }
            let to = self.neighbors.target(blank, m as usize);
            if to == Neighbors::NONE {
                continue;
            }
            let to = to as usize;
            self.stats.generated += 1;
            let tile = ((cells >> (4 * to)) & 0xF) as u8;
            // The tile slides from `to` into the blank's cell.
            let child = cells - ((tile as u64) << (4 * to)) + ((tile as u64) << (4 * blank));
            let after = crate::puzzle::Board::from_parts(self.shape, child, to as u8);
            let (ch, child_memo) = self.h.step(h, memo, &after, tile, to, blank);
            // Prune here rather than in the call: most children are beyond the bound.
            let f = g + 1 + ch;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            self.path.push(m);
            if self.dfs(child, to, g + 1, ch, &child_memo, m) {
                return true;
            }
            self.path.pop();
            if self.out_of_budget {
                return false;
            }
        }
        false
    }
}

/// Shortest path by IDA* with heuristic `h` (built for `problem.goal`).
///
/// ```
/// use tilebench::search::{heuristic::Manhattan, idastar, Problem, SolveOptions};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let h = Manhattan::new(&p.goal);
/// assert_eq!(idastar::solve(&p, &SolveOptions::default(), &h).steps(), Some(19));
/// ```
pub fn solve<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
    let start = problem.start;
    let (h0, memo) = h.start(&start);
    let mut s = Search {
        h,
        neighbors: Neighbors::new(start.shape()),
        shape: start.shape(),
        goal: problem.goal.packed(),
        bound: h0,
        next_bound: u32::MAX,
        path: Vec::with_capacity(128),
        stats: Stats::default(),
        budget: Budget::new(&opts.limits),
        out_of_budget: false,
    };
    loop {
        s.next_bound = u32::MAX;
        if s.dfs(start.packed(), start.blank(), 0, h0, &memo, u8::MAX) {
            let path = s.path.iter().map(|&m| Move::from_index(m)).collect();
            s.stats.stored = s.stats.peak_frontier;
            return Outcome::solved(path, s.stats);
        }
        if s.out_of_budget {
            s.stats.stored = s.stats.peak_frontier;
            return Outcome::without_path(Status::Limit, s.stats);
        }
        s.stats.stored = s.stats.peak_frontier;
        // A tree search never runs out of paths on a graph with cycles; it proves a pair
        // unsolvable (with --exhaustive) once the bound passes the board's known diameter.
        match diameter(start.shape()) {
            Some(d) if s.next_bound > d => {
                return Outcome::without_path(Status::Unsolvable, s.stats)
            }
            None if s.next_bound > UNKNOWN_DIAMETER_CAP => {
                return Outcome::without_path(Status::Limit, s.stats)
            }
            _ => {}
        }
        s.bound = s.next_bound;
    }
}

/// The largest optimal solution length of any pair, where it is known (the "God's number"
/// of the shape): no solvable pair needs more moves.
pub fn diameter(shape: crate::puzzle::Shape) -> Option<u32> {
    let (w, h) = (
        shape.width().min(shape.height()),
        shape.width().max(shape.height()),
    );
    match (w, h) {
        (2, 2) => Some(6),
        (2, 3) => Some(21),
        (2, 4) => Some(36),
        (2, 5) => Some(55),
        (2, 6) => Some(80),
        (3, 3) => Some(31),
        (3, 4) => Some(53),
        (4, 4) => Some(80),
        _ => None,
    }
}

/// Where no diameter is known, an exhaustive IDA* gives up (status `limit`) past this bound.
const UNKNOWN_DIAMETER_CAP: u32 = 250;
