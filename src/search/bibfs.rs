//! `bibfs`: bidirectional breadth-first search.
//!
//! Two BFS, one from the start and one from the goal, each advancing a whole layer at a
//! time; the side with the smaller frontier goes next. When a layer generates a state the
//! other side has reached, the layer is finished and the shortest of the meetings found is
//! the answer: every meeting in that layer has the same forward depth, and the other side's
//! depths are exact, so the minimum over the layer is optimal. Each side keeps, per state,
//! the move that reached it and its depth, so the path is read back from the meeting point.
//!
//! On the 8-puzzle this searches two balls of radius ~d/2 instead of one of radius d.

use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Move, Neighbors};
use rustc_hash::FxHashMap;

const ROOT: u8 = 4;

struct Side {
    /// Each reached state: (move that reached it, or ROOT; depth).
    seen: FxHashMap<u64, (u8, u16)>,
    frontier: Vec<(u64, u8)>,
    depth: u16,
}

impl Side {
    fn new(b: &Board) -> Side {
        let mut seen = FxHashMap::default();
        seen.insert(b.packed(), (ROOT, 0));
        Side {
            seen,
            frontier: vec![(b.packed(), b.blank() as u8)],
            depth: 0,
        }
    }
}

/// The moves from `side`'s root to `cells`, read back through the stored moves.
fn moves_from_root(side: &Side, shape: crate::puzzle::Shape, cells: u64) -> Vec<Move> {
    let mut b = Board::from_packed(shape, cells);
    let mut path = Vec::new();
    loop {
        let (m, _) = side.seen[&b.packed()];
        if m == ROOT {
            break;
        }
        let mv = Move::from_index(m);
        path.push(mv);
        b = b
            .apply(mv.inverse())
            .expect("the inverse of a legal move is legal");
    }
    path.reverse();
    path
}

/// The registry entry.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "bibfs",
    describe: "bidirectional BFS, the smaller frontier advances a layer at a time",
    options: &[],
    make: super::registry::Make::Plain {
        search: solve,
        supports: super::registry::packed_shape,
    },
};

/// Shortest path by bidirectional BFS.
pub(crate) fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    let shape = problem.start.shape();
    let neighbors = Neighbors::of(shape);
    let mut budget = Budget::new(&opts.limits);
    let mut stats = Stats {
        peak_frontier: 2,
        ..Stats::default()
    };
    let mut sides = [Side::new(&problem.start), Side::new(&problem.goal)];
    loop {
        // Advance the side with the smaller frontier; stop when one side has nothing left.
        let s = if sides[0].frontier.len() <= sides[1].frontier.len() {
            0
        } else {
            1
        };
        if sides[s].frontier.is_empty() {
            stats.stored = (sides[0].seen.len() + sides[1].seen.len()) as u64;
            return Outcome::without_path(Status::Unsolvable, stats);
        }
        let (a, b) = sides.split_at_mut(1);
        let (me, other) = if s == 0 {
            (&mut a[0], &mut b[0])
        } else {
            (&mut b[0], &mut a[0])
        };
        let frontier = std::mem::take(&mut me.frontier);
        let child_depth = me.depth + 1;
        let want = frontier.len() * 2;
        if !budget.room(want * std::mem::size_of::<(u64, u8)>()) {
            stats.stored = (me.seen.len() + other.seen.len()) as u64;
            return Outcome::out_of(budget.reason(stats.expanded, false), stats);
        }
        let mut next = Vec::with_capacity(want);
        let mut best: Option<(u16, u64)> = None;
        for &(cells, blank) in &frontier {
            let full = (me.seen.len() + other.seen.len()) as u64 >= budget.max_states;
            // Under a heap budget, the table's and the next frontier's doublings are asked
            // for before they happen.
            let no_room = budget.watches_memory() && {
                let (len, cap) = (me.seen.len(), me.seen.capacity());
                let grow = crate::memory::table_growth::<(u64, (u8, u16))>(len, cap, 4)
                    + crate::memory::vec_growth(&next, 4);
                !budget.room(grow)
            };
            if full || no_room || budget.exhausted(stats.expanded) {
                stats.stored = (me.seen.len() + other.seen.len()) as u64;
                return Outcome::out_of(budget.reason(stats.expanded, full), stats);
            }
            stats.expanded += 1;
            let last = me.seen[&cells].0;
            let board = Board::from_parts(shape, cells, blank);
            for &(m, to) in neighbors.children(blank as usize, last).as_slice() {
                let c = board.slide_blank_to(to as usize).packed();
                stats.generated += 1;
                if let std::collections::hash_map::Entry::Vacant(e) = me.seen.entry(c) {
                    e.insert((m, child_depth));
                    next.push((c, to));
                    if let Some(&(_, od)) = other.seen.get(&c) {
                        let total = child_depth + od;
                        if best.is_none_or(|(t, _)| total < t) {
                            best = Some((total, c));
                        }
                    }
                }
            }
        }
        me.frontier = next;
        me.depth = child_depth;
        stats.peak_frontier = stats
            .peak_frontier
            .max((me.frontier.len() + other.frontier.len()) as u64);
        if let Some((_, meet)) = best {
            stats.stored = (me.seen.len() + other.seen.len()) as u64;
            let (fwd, bwd) = if s == 0 {
                (&*me, &*other)
            } else {
                (&*other, &*me)
            };
            let mut path = moves_from_root(fwd, shape, meet);
            // From the meeting point to the goal: the goal side's moves, undone in reverse.
            let back = moves_from_root(bwd, shape, meet);
            path.extend(back.iter().rev().map(|m| m.inverse()));
            return Outcome::solved(path, stats);
        }
    }
}
