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
//! through parent indices. Each stored state keeps its heuristic's memo beside it (a
//! pattern database's per-group values), so a child costs what a move costs IDA*: one
//! lookup for the moved tile's group, not every group. A state reached again with a
//! smaller `g` gets a new heap entry; the old entry becomes stale and is skipped when popped
//! (it is not counted as expanded). With an inconsistent heuristic (dual lookups) a child's
//! estimate is raised to its parent's less one (pathmax), and closed states reached more
//! cheaply are reopened, so the answer stays optimal.

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

/// An open list: entries pushed with a rank `f` and their `g`, popped by smallest `f`, then
/// largest `g`, then newest.
trait Open {
    fn push(&mut self, f: u64, g: u32, idx: u32);
    /// The next (g, node) to expand.
    fn pop(&mut self) -> Option<(u32, u32)>;
    fn len(&self) -> usize;
}

impl Open for Buckets {
    #[inline]
    fn push(&mut self, f: u64, g: u32, idx: u32) {
        Buckets::push(self, f as u32, g, idx)
    }
    #[inline]
    fn pop(&mut self) -> Option<(u32, u32)> {
        Buckets::pop(self)
    }
    fn len(&self) -> usize {
        self.len
    }
}

/// The open list of weighted A* and greedy search, whose ranks (`den·g + num·h`, or `h`
/// with paths of any length) would make buckets by `f` then `g` sparse and large: a binary
/// heap, O(log n) a push or pop.
#[derive(Default)]
struct Heap {
    heap: std::collections::BinaryHeap<(std::cmp::Reverse<u64>, u32, u32, u32)>,
    pushed: u32,
}

impl Open for Heap {
    #[inline]
    fn push(&mut self, f: u64, g: u32, idx: u32) {
        self.pushed = self.pushed.wrapping_add(1);
        self.heap.push((std::cmp::Reverse(f), g, self.pushed, idx));
    }
    #[inline]
    fn pop(&mut self) -> Option<(u32, u32)> {
        self.heap.pop().map(|(_, g, _, idx)| (g, idx))
    }
    fn len(&self) -> usize {
        self.heap.len()
    }
}

/// How the open list ranks a node of cost `g` and estimate `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// A*: `g + h`.
    Astar,
    /// Weighted A*: `g + w·h`, compared exactly as `den·g + num·h` for `w = num/den`.
    Weighted(Weight),
    /// Greedy best-first search: `h` alone.
    Greedy,
}

impl Order {
    #[inline]
    fn rank(self, g: u32, h: u32) -> u64 {
        match self {
            Order::Astar => (g + h) as u64,
            Order::Weighted(w) => w.den as u64 * g as u64 + w.num as u64 * h as u64,
            Order::Greedy => h as u64,
        }
    }
}

/// A weight of at least 1 with at most three decimals, kept exact as a fraction
/// `num / den` in lowest terms (`--weight 1.5` is 3/2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    num: u32,
    den: u32,
}

impl Weight {
    /// The largest weight taken.
    pub const MAX: u32 = 1000;

    /// The weight as a number.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Default for Weight {
    /// 1.5.
    fn default() -> Self {
        Weight { num: 3, den: 2 }
    }
}

impl std::fmt::Display for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, frac) = (self.num / self.den, self.num % self.den);
        if frac == 0 {
            return write!(f, "{whole}");
        }
        // `den` divides 1000: three decimals, trailing zeros dropped.
        let thousandths = frac * (1000 / self.den);
        let digits = format!("{thousandths:03}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl std::str::FromStr for Weight {
    type Err = String;
    /// Reads `1`, `1.5`, `2.125`: at least 1, at most [`Weight::MAX`], at most three decimals.
    fn from_str(s: &str) -> Result<Weight, String> {
        let s = s.trim();
        let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || !digits(frac) {
            return Err(format!(
                "`{s}` is not a weight; give a decimal number of at least 1, e.g. 1.5"
            ));
        }
        if frac.len() > 3 {
            return Err(format!("`{s}`: give the weight with at most three decimals"));
        }
        let den = 10u64.pow(frac.len() as u32);
        let whole: u64 = whole.parse().unwrap_or(u64::MAX);
        let num = whole
            .saturating_mul(den)
            .saturating_add(frac.parse::<u64>().unwrap_or(0));
        if num < den || num > Weight::MAX as u64 * den {
            return Err(format!(
                "weight {s} is out of range: weighted A* takes weights from 1 (plain A*) to {}",
                Weight::MAX
            ));
        }
        let gcd = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let d = gcd(num, den);
        Ok(Weight {
            num: (num / d) as u32,
            den: (den / d) as u32,
        })
    }
}

/// Per-thread memory reused from case to case.
#[derive(Default)]
struct Scratch {
    open: Buckets,
    heap: Heap,
    nodes: Vec<Node>,
    index: FxHashMap<u64, u32>,
    /// The heuristic's memos, one per node, one vector per memo type.
    memos: FxHashMap<std::any::TypeId, Box<dyn std::any::Any>>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// This thread's vector of `M` memos, emptied.
fn memos<M: 'static>(all: &mut FxHashMap<std::any::TypeId, Box<dyn std::any::Any>>) -> &mut Vec<M> {
    let v = all
        .entry(std::any::TypeId::of::<M>())
        .or_insert_with(|| Box::new(Vec::<M>::new()))
        .downcast_mut::<Vec<M>>()
        .expect("keyed by its type");
    v.clear();
    v
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
    solve_with(problem, opts, h, Order::Astar)
}

/// Best-first search with heuristic `h`, the open list ranked by `order`: A* (shortest
/// paths), weighted A* (paths at most `w` times the shortest, with an admissible `h`), or
/// greedy best-first (any path, usually found fastest).
///
/// ```
/// use tilebench::search::astar::{self, Order};
/// use tilebench::search::{heuristic::Manhattan, Problem, SolveOptions};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let h = Manhattan::new(&p.goal);
/// let w = astar::solve_with(&p, &SolveOptions::default(), &h, Order::Weighted("2".parse().unwrap()));
/// assert!(w.steps().unwrap() <= 2 * 19);
/// let g = astar::solve_with(&p, &SolveOptions::default(), &h, Order::Greedy);
/// assert_eq!(p.start.replay(g.path.as_ref().unwrap()).unwrap(), p.goal);
/// ```
pub fn solve_with<H: Heuristic>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    order: Order,
) -> Outcome {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let Scratch {
            open,
            heap,
            nodes,
            index,
            memos: all,
        } = &mut *scratch;
        open.clear();
        heap.heap.clear();
        // Clearing a hash map costs its capacity: after a rare huge case, start small again
        // rather than make every later (small) case pay for it.
        if index.capacity() > 16 * index.len().max(4096) {
            *index = FxHashMap::default();
        } else {
            index.clear();
        }
        nodes.clear();
        let memos = memos::<H::Memo>(all);
        let store = Store {
            nodes,
            index,
            memos,
        };
        match order {
            Order::Astar => search(problem, opts, h, order, open, store),
            _ => search(problem, opts, h, order, heap, store),
        }
    })
}

/// The stored states: the arena, its index by packed board, and the memos beside it.
struct Store<'a, M> {
    nodes: &'a mut Vec<Node>,
    index: &'a mut FxHashMap<u64, u32>,
    memos: &'a mut Vec<M>,
}

impl<M> Store<'_, M> {
    /// Stores `node` (with `memo`) as reached now; returns its index to push on the open
    /// list, or `None` when the state is known with a `g` as small. A state reached more
    /// cheaply gets the new parent and is reopened if closed (only an inconsistent
    /// heuristic closes a state before its cheapest path); it keeps the larger estimate.
    #[inline]
    fn reach(&mut self, node: Node, memo: M) -> Option<u32> {
        let next = self.nodes.len() as u32;
        match self.index.entry(node.cells) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let j = *e.get();
                let old = &mut self.nodes[j as usize];
                if old.g <= node.g {
                    return None;
                }
                let h = old.h.max(node.h);
                *old = Node { h, ..node };
                Some(j)
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(next);
                self.memos.push(memo);
                self.nodes.push(node);
                Some(next)
            }
        }
    }
}

fn search<H: Heuristic, O: Open>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    order: Order,
    open: &mut O,
    mut store: Store<H::Memo>,
) -> Outcome {
    let shape = problem.start.shape();
    let neighbors = Neighbors::of(shape);
    let goal = problem.goal.packed();
    let mut budget = Budget::new(&opts.limits);
    let mut stats = Stats::default();

    let start = problem.start;
    let (h0, memo0) = h.start(&start);
    let pathmax = !h.consistent();
    let root = Node {
        cells: start.packed(),
        parent: u32::MAX,
        g: 0,
        h: h0 as u16,
        blank: start.blank() as u8,
        mv: NO_MOVE,
        closed: false,
    };
    store.reach(root, memo0);
    open.push(order.rank(0, h0), 0, 0);
    stats.peak_frontier = 1;

    while let Some((g, idx)) = open.pop() {
        let (g, idx) = (g as u16, idx as usize);
        let node = store.nodes[idx];
        if node.closed || node.g != g {
            continue; // stale entry
        }
        stats.stored = store.index.len() as u64;
        if node.cells == goal {
            return Outcome::solved(path_to(store.nodes, idx), stats);
        }
        let full = store.nodes.len() as u64 >= budget.max_states;
        // A path of 65,535 moves (only greedy search strays that far): give up too.
        let (Some(cg), false, false) = (node.g.checked_add(1), full, budget.exhausted(stats.expanded)) else {
            return Outcome::without_path(Status::Limit, stats);
        };
        store.nodes[idx].closed = true;
        stats.expanded += 1;
        let board = Board::from_parts(shape, node.cells, node.blank);
        for &(m, to) in neighbors.children(node.blank as usize, node.mv).as_slice() {
            let tile = board.tile(to as usize);
            let child = board.slide_blank_to(to as usize);
            stats.generated += 1;
            let (ch, child_memo) = h.step(
                node.h as u32,
                &store.memos[idx],
                &child,
                tile,
                to as usize,
                node.blank as usize,
            );
            let ch = if pathmax {
                ch.max((node.h as u32).saturating_sub(1))
            } else {
                ch
            } as u16;
            let reached = Node {
                cells: child.packed(),
                parent: idx as u32,
                g: cg,
                h: ch,
                blank: to,
                mv: m,
                closed: false,
            };
            let Some(cidx) = store.reach(reached, child_memo) else {
                continue;
            };
            let f = order.rank(cg as u32, store.nodes[cidx as usize].h as u32);
            open.push(f, cg as u32, cidx);
        }
        stats.peak_frontier = stats.peak_frontier.max(open.len() as u64);
    }
    stats.stored = store.index.len() as u64;
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
