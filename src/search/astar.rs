//! `astar`: A* with an admissible heuristic (Manhattan distance of the tiles by default), a
//! bucket open list, and ties on `f` broken in favour of the deeper node (larger `g`), which
//! reaches the goal sooner on a puzzle with many equal-`f` plateaus; among equal `f` and `g`,
//! the newest entry first.
//!
//! `f` and `g` are small integers, so the open list is an array of stacks indexed by `f`
//! then by `g` (deepest first): push and pop are O(1) amortised, against O(log n) for a
//! binary heap. The buckets are kept per thread and reused, so a case allocates nothing
//! once the thread has warmed up.
//!
//! States live in an arena (`Vec<Node>`) indexed from a hash map, so a path is read back
//! through parent indices. The heuristic is updated incrementally on every move. A state
//! reached again with a smaller `g` gets a new heap entry; the old entry becomes stale and
//! is skipped when popped (it is not counted as expanded).

use super::heuristic::Heuristic;
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Move, Neighbors};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

#[derive(Clone, Copy)]
struct Node {
    cells: u64,
    parent: u32,
    g: u16,
    h: u16,
    blank: u8,
    mv: u8,
    closed: bool,
}

const NO_MOVE: u8 = u8::MAX;

/// The open list: `levels[f][g]` is a stack of node indices; popped by smallest `f`, then
/// largest `g`, then newest.
#[derive(Default)]
struct Buckets {
    levels: Vec<Vec<Vec<u32>>>,
    /// Entries per `f` level.
    counts: Vec<usize>,
    /// Per `f` level: no stack above this `g` holds an entry.
    top: Vec<usize>,
    /// No entry has an `f` below this.
    fmin: usize,
    len: usize,
}

impl Buckets {
    fn clear(&mut self) {
        for level in &mut self.levels {
            for stack in level.iter_mut() {
                stack.clear();
            }
        }
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.top.iter_mut().for_each(|t| *t = 0);
        self.fmin = 0;
        self.len = 0;
    }

    #[inline]
    fn push(&mut self, f: u32, g: u32, idx: u32) {
        let (f, g) = (f as usize, g as usize);
        if f >= self.levels.len() {
            self.levels.resize_with(f + 1, Vec::new);
            self.counts.resize(f + 1, 0);
            self.top.resize(f + 1, 0);
        }
        let level = &mut self.levels[f];
        if g >= level.len() {
            level.resize_with(g + 1, Vec::new);
        }
        level[g].push(idx);
        self.top[f] = self.top[f].max(g);
        self.counts[f] += 1;
        self.fmin = self.fmin.min(f);
        self.len += 1;
    }

    /// The next (g, node) to expand.
    #[inline]
    fn pop(&mut self) -> Option<(u32, u32)> {
        if self.len == 0 {
            return None;
        }
        while self.counts[self.fmin] == 0 {
            self.fmin += 1;
        }
        let level = &mut self.levels[self.fmin];
        let top = &mut self.top[self.fmin];
        while level[*top].is_empty() {
            *top -= 1;
        }
        let g = *top;
        let idx = level[g].pop()?;
        self.counts[self.fmin] -= 1;
        self.len -= 1;
        Some((g as u32, idx))
    }
}

/// Per-thread memory reused from case to case.
#[derive(Default)]
struct Scratch {
    open: Buckets,
    nodes: Vec<Node>,
    index: FxHashMap<u64, u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The registry entry: astar with the heuristic of the run's [`super::Config`].
pub const STRATEGY: super::Builtin = super::Builtin {
    name: "astar",
    describe: "A* with --heuristic (default Manhattan), bucket open list",
    make: super::registry::Make::Custom(|c| Box::new(super::informed::Informed::<Astar>::new("astar", c))),
};

/// astar as a [`super::heuristic::Guided`] search.
pub struct Astar;

impl super::heuristic::Guided for Astar {
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        solve(problem, opts, h)
    }
}

/// Shortest path by A* with heuristic `h`, built for `problem.goal`. It must be admissible;
/// with a consistent one (Manhattan is) no closed state is ever reopened.
///
/// ```
/// use tilebench::search::{astar, heuristic::Manhattan, Problem, SolveOptions};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let h = Manhattan::new(&p.goal);
/// assert_eq!(astar::solve(&p, &SolveOptions::default(), &h).steps(), Some(19));
/// ```
pub fn solve<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let Scratch { open, nodes, index } = &mut *scratch;
        open.clear();
        // Clearing a hash map costs its capacity: after a rare huge case, start small again
        // rather than make every later (small) case pay for it.
        if index.capacity() > 16 * index.len().max(4096) {
            *index = FxHashMap::default();
        } else {
            index.clear();
        }
        nodes.clear();
        search(problem, opts, h, open, nodes, index)
    })
}

fn search<H: Heuristic>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    open: &mut Buckets,
    nodes: &mut Vec<Node>,
    index: &mut FxHashMap<u64, u32>,
) -> Outcome {
    let shape = problem.start.shape();
    let neighbors = Neighbors::of(shape);
    let goal = problem.goal.packed();
    let mut budget = Budget::new(&opts.limits);
    let mut stats = Stats::default();

    let start = problem.start;
    let h0 = h.estimate(&start);
    nodes.push(Node {
        cells: start.packed(),
        parent: u32::MAX,
        g: 0,
        h: h0 as u16,
        blank: start.blank() as u8,
        mv: NO_MOVE,
        closed: false,
    });
    index.insert(start.packed(), 0);
    open.push(h0, 0, 0);
    stats.peak_frontier = 1;

    while let Some((g, idx)) = open.pop() {
        let (g, idx) = (g as u16, idx as usize);
        let node = nodes[idx];
        if node.closed || node.g != g {
            continue; // stale entry
        }
        if node.cells == goal {
            stats.stored = index.len() as u64;
            return Outcome::solved(path_to(nodes, idx), stats);
        }
        if budget.exhausted(stats.expanded) || nodes.len() as u64 >= budget.max_states {
            stats.stored = index.len() as u64;
            return Outcome::without_path(Status::Limit, stats);
        }
        nodes[idx].closed = true;
        stats.expanded += 1;
        let board = Board::from_parts(shape, node.cells, node.blank);
        let cg = node.g + 1;
        for &(m, to) in neighbors.children(node.blank as usize, node.mv).as_slice() {
            let tile = board.tile(to as usize);
            let child = board.slide_blank_to(to as usize);
            stats.generated += 1;
            let ch = h.update(
                node.h as u32,
                &child,
                tile,
                to as usize,
                node.blank as usize,
            ) as u16;
            let next = nodes.len() as u32;
            let cidx = match index.entry(child.packed()) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let j = *e.get();
                    let old = &mut nodes[j as usize];
                    if old.g <= cg {
                        continue;
                    }
                    // A shorter way to a known state (to a closed one only with an
                    // inconsistent heuristic, which then reopens it).
                    old.g = cg;
                    old.parent = idx as u32;
                    old.mv = m;
                    old.closed = false;
                    j
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(next);
                    nodes.push(Node {
                        cells: child.packed(),
                        parent: idx as u32,
                        g: cg,
                        h: ch,
                        blank: to,
                        mv: m,
                        closed: false,
                    });
                    next
                }
            };
            open.push(cg as u32 + ch as u32, cg as u32, cidx);
        }
        stats.peak_frontier = stats.peak_frontier.max(open.len as u64);
    }
    stats.stored = index.len() as u64;
    Outcome::without_path(Status::Unsolvable, stats)
}

fn path_to(nodes: &[Node], mut i: usize) -> Vec<Move> {
    let mut path = Vec::new();
    while nodes[i].mv != NO_MOVE {
        path.push(Move::from_index(nodes[i].mv));
        i = nodes[i].parent as usize;
    }
    path.reverse();
    path
}
