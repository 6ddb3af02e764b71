//! `astar`: A* with an admissible heuristic (Manhattan distance of the tiles by default), a
//! bucket open list, and ties on `f` broken in favour of the deeper node (larger `g`), which
//! reaches the goal sooner on a puzzle with many equal-`f` plateaus; among equal `f` and `g`,
//! the newest entry first.
//!
//! `f` and `g` are small integers, so the open list is a stack per (`f`, `g`), threaded
//! through the nodes themselves (deepest `g` first): push and pop are O(1) amortised,
//! against O(log n) for a binary heap. The buckets are kept per thread and reused, so a
//! case allocates nothing once the thread has warmed up.
//!
//! States live in an arena (`Vec<Node>`, 16 bytes a node; a path is read back by undoing
//! each node's move and looking the board before it up), and a per-thread closed table
//! maps boards to it: open addressing with
//! 8-byte slots (an arena index, a 16-bit tag of the board's hash, and the generation, the
//! case, that wrote them), so nothing is cleared between cases, and whose active part
//! starts small each case and grows at half full (four times the first part, then
//! doubling), so a small case after a huge one still works in a few cache-resident
//! kilobytes. Each stored state keeps its heuristic's memo beside it (a
//! pattern database's per-group values), so a child costs what a move costs IDA*: one
//! lookup for the moved tile's group, not every group. A state reached again with a
//! smaller `g` gets a new node and entry; the old entry becomes stale and is skipped when
//! popped (it is not counted as expanded). With an inconsistent heuristic (dual lookups) a child's
//! estimate is raised to its parent's less one (pathmax), and closed states reached more
//! cheaply are reopened, so the answer stays optimal.

use super::heuristic::Heuristic;
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Children, Move, Neighbors, Shape, PACKED_CELLS};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::OnceLock;

/// The successors of `shape`'s states indexed by a node's [`Node::blank_mv`] byte (the
/// blank's cell and the move that made the state), built on first use and shared: an
/// expansion reads its list with one load, where [`Neighbors::children`] splits the byte
/// and clamps the move first.
fn kids_by_byte(shape: Shape) -> &'static [Children; 256] {
    const SIDES: usize = PACKED_CELLS + 1;
    static CACHE: [OnceLock<Box<[Children; 256]>>; SIDES * SIDES] =
        [const { OnceLock::new() }; SIDES * SIDES];
    CACHE[shape.width() * SIDES + shape.height()].get_or_init(|| {
        let neighbors = Neighbors::of(shape);
        Box::new(std::array::from_fn(|b| {
            neighbors.children(b & 0xF, (b >> 4) as u8)
        }))
    })
}

/// A stored state, and an entry of the open list: a node is pushed once, when it is
/// stored, and its `next` threads it on its stack. It needs no "closed" flag: a state
/// reached again with a smaller `g` is stored again as a new node (and pushed), and the old
/// one takes the new `g`, so its entry no longer matches it and is skipped when popped; a
/// node is expanded at most once. It holds no parent: the path is read back by undoing
/// each node's move and looking the board before it up in the closed table.
#[derive(Clone, Copy)]
struct Node {
    cells: u64,
    /// [`Buckets`]: 1 + the node below this one on its stack, or 0 at the bottom.
    next: u32,
    g: u16,
    h: u8,
    /// The blank's cell (low 4 bits) and the index of the move that made the state (high
    /// 4 bits, [`NO_MOVE`] for the start, [`OUTDATED`] for a state stored again since).
    blank_mv: u8,
}

impl Node {
    #[inline]
    fn blank(self) -> u8 {
        self.blank_mv & 0xF
    }
    #[inline]
    fn mv(self) -> u8 {
        self.blank_mv >> 4
    }
}

const NO_MOVE: u8 = 0xF;
/// The move nibble of a node whose state was stored again (with a smaller `g`): the closed
/// table points at the newer node, and a growing table skips this one.
const OUTDATED: u8 = 0xE;

/// The open list: a stack of nodes for each (`f`, `g`), popped by smallest `f`, then
/// largest `g`, then newest. The stacks are threaded through the nodes themselves (each
/// names the node below it, [`Node::next`]), so a push writes nothing beyond the node
/// being stored and a pop reads the node it expands next anyway; where a vector per stack
/// cost three dependent loads, and an array of entries 8 bytes a push.
#[derive(Default)]
struct Buckets {
    /// `heads[row(f) + g]`: 1 + the top node of stack (`f`, `g`), or 0 when it is empty.
    /// A* has `g ≤ f` (estimates are not negative), so the rows form a triangle.
    heads: Vec<u32>,
    /// Per `f`: the entries on its stacks, and a `g` no stack above holds an entry.
    levels: Vec<Level>,
    /// No entry has an `f` below this.
    fmin: usize,
    /// The entries on the stacks.
    len: usize,
}

/// The entries of one `f`.
#[derive(Clone, Copy, Default)]
struct Level {
    count: u32,
    top: u32,
}

/// Where the stacks of `f` start in [`Buckets::heads`].
#[inline(always)]
fn row(f: usize) -> usize {
    f * (f + 1) / 2
}

impl Buckets {
    fn clear(&mut self) {
        for (f, level) in self.levels.iter_mut().enumerate() {
            if level.count != 0 {
                self.heads[row(f)..row(f + 1)].fill(0);
            }
            *level = Level::default();
        }
        self.fmin = 0;
        self.len = 0;
    }

    /// Pushes node `idx`; returns what its [`Node::next`] must hold.
    #[inline(always)]
    fn push(&mut self, f: u32, g: u32, idx: u32) -> u32 {
        let (f, g) = (f as usize, g as usize);
        debug_assert!(g <= f, "A* pushes f = g + h with h ≥ 0");
        if f >= self.levels.len() {
            *self = std::mem::take(self).grown(f);
        }
        let head = &mut self.heads[row(f) + g];
        let below = *head;
        *head = idx + 1;
        let level = &mut self.levels[f];
        level.top = level.top.max(g as u32);
        level.count += 1;
        self.fmin = self.fmin.min(f);
        self.len += 1;
        below
    }

    /// With room for the stacks of every `f` up to `f`. By value, as [`Arena::push`] grows.
    #[cold]
    #[inline(never)]
    fn grown(mut self, f: usize) -> Buckets {
        self.levels.resize(f + 1, Level::default());
        self.heads.resize(row(f + 1), 0);
        self
    }

    /// The next (g, index, node) to expand, the stacks threaded through `nodes`.
    #[inline(always)]
    fn pop(&mut self, nodes: &[Node]) -> Option<(u32, u32, Node)> {
        if self.len == 0 {
            return None;
        }
        while self.levels[self.fmin].count == 0 {
            self.fmin += 1;
        }
        let at = row(self.fmin);
        let level = &mut self.levels[self.fmin];
        while self.heads[at + level.top as usize] == 0 {
            level.top -= 1;
        }
        let head = &mut self.heads[at + level.top as usize];
        let idx = *head - 1;
        let node = nodes[idx as usize];
        *head = node.next;
        level.count -= 1;
        self.len -= 1;
        Some((level.top, idx, node))
    }
}

/// An open list: entries pushed with a rank `f` and their `g`, popped by smallest `f`, then
/// largest `g`, then newest.
trait Open {
    /// Pushes node `idx`; returns what its [`Node::next`] must hold.
    fn push(&mut self, f: u64, g: u32, idx: u32) -> u32;
    /// The next (g, index, node) to expand.
    fn pop(&mut self, nodes: &[Node]) -> Option<(u32, u32, Node)>;
    fn len(&self) -> usize;
    /// The heap bytes `more` pushes could allocate at once (see [`Store::growth`]).
    fn growth(&self, _more: usize) -> usize {
        0
    }
}

impl Open for Buckets {
    #[inline(always)]
    fn push(&mut self, f: u64, g: u32, idx: u32) -> u32 {
        Buckets::push(self, f as u32, g, idx)
    }
    #[inline(always)]
    fn pop(&mut self, nodes: &[Node]) -> Option<(u32, u32, Node)> {
        Buckets::pop(self, nodes)
    }
    fn len(&self) -> usize {
        self.len
    }
}

/// The open list of weighted A* and greedy search, whose ranks (`den·g + num·h`, or `h`
/// with paths of any length) would make buckets by `f` then `g` sparse and large: a binary
/// heap, O(log n) a push or pop. An entry is one `u128`, ordered as the search pops: the
/// rank (inverted, so the smallest is the greatest) in the high 64 bits, then `g` (the
/// deeper first), then the node's arena index (the newest first: every push stores a new
/// node, so indices rise in push order). One integer compare where a tuple took four.
#[derive(Default)]
struct Heap {
    heap: std::collections::BinaryHeap<u128>,
}

impl Open for Heap {
    #[inline]
    fn push(&mut self, f: u64, g: u32, idx: u32) -> u32 {
        self.heap
            .push(((u64::MAX - f) as u128) << 64 | (g as u128) << 32 | idx as u128);
        0
    }
    #[inline]
    fn pop(&mut self, nodes: &[Node]) -> Option<(u32, u32, Node)> {
        self.heap.pop().map(|entry| {
            let (g, idx) = ((entry >> 32) as u32, entry as u32);
            (g, idx, nodes[idx as usize])
        })
    }
    fn len(&self) -> usize {
        self.heap.len()
    }
    fn growth(&self, more: usize) -> usize {
        let (len, cap) = (self.heap.len(), self.heap.capacity());
        crate::memory::growth(len + more, cap, std::mem::size_of::<u128>(), false)
    }
}

/// How the open list ranks a node of cost `g` and estimate `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
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

    /// `n` times the weight, rounded down: the longest path weighted A* may return when the
    /// shortest is `n` moves (exact, in integers).
    pub fn times(self, n: u64) -> u64 {
        (n as u128 * self.num as u128 / self.den as u128) as u64
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
            return Err(format!(
                "`{s}`: give the weight with at most three decimals"
            ));
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

/// A vector that a case fills from the start and that never shrinks: the first `len`
/// entries are this case's, the rest room (what earlier cases left). `Vec::push` is not
/// used: its growth path takes the vector's address, after which the compiler must assume
/// any store may change the length and reloads it; here growth takes the vector by value,
/// and a search's lengths and pointers stay in registers.
struct Arena<T> {
    room: Vec<T>,
    len: usize,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena {
            room: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Copy> Arena<T> {
    /// An empty arena with `room` to fill.
    fn new(room: Vec<T>) -> Arena<T> {
        Arena { room, len: 0 }
    }

    /// Appends `x`; returns its index.
    #[inline(always)]
    fn push(&mut self, x: T) -> usize {
        let i = self.len;
        match self.room.get_mut(i) {
            Some(at) => *at = x,
            None => {
                self.room = grown(std::mem::take(&mut self.room), x);
                self.room[i] = x;
            }
        }
        self.len = i + 1;
        i
    }

    /// The heap bytes `more` pushes could allocate at once: [`grown`]'s doubling.
    fn growth(&self, more: usize) -> usize {
        if self.len + more <= self.room.len() {
            return 0;
        }
        let n = (2 * self.room.len()).max(1024);
        crate::memory::growth(n, self.room.capacity(), std::mem::size_of::<T>(), false)
    }

    /// This case's entries.
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        &self.room[..self.len]
    }
}

/// `v` with twice its room (at least 1,024 entries), the new entries `fill`.
#[cold]
#[inline(never)]
fn grown<T: Copy>(mut v: Vec<T>, fill: T) -> Vec<T> {
    let n = (2 * v.len()).max(1024);
    v.resize(n, fill);
    v
}

/// Per-thread memory reused from case to case.
#[derive(Default)]
struct Scratch {
    open: Buckets,
    heap: Heap,
    nodes: Vec<Node>,
    closed: Closed,
    /// The heuristic's memos, one per node, one vector per memo type.
    memos: FxHashMap<std::any::TypeId, Box<dyn std::any::Any>>,
}

/// The closed table: packed boards to arena indices, by open addressing with linear probing.
/// It is reused from case to case without being cleared: a slot is in use only if its
/// stamp is the current generation, and each case (and each doubling) takes a new one; when
/// the stamps run out, the table is zeroed once and they start again from 1. Each case
/// starts on the first [`Closed::MIN_SLOTS`] slots and grows its part when half full (by
/// four the first time, as a case that outgrows it is a long one, then by two),
/// re-inserting the arena's states (which are exactly the table's entries). Half full, a
/// new board's probe mostly ends at its home slot: at three quarters the probe's branch
/// was mispredicted about every other lookup. A slot holds 16
/// bits of the board's hash, not the board: the arena has the board, and a found state's
/// node is read next anyway, so a slot is 8 bytes and a new case's part fits the L1 cache.
#[derive(Default)]
struct Closed {
    slots: Vec<Slot>,
    /// The active part's size less one (a power of two less one).
    mask: usize,
    /// The entries at which the active part grows: half of it.
    limit: usize,
    /// The current generation, at least 1 once a case has begun (0 marks zeroed slots).
    stamp: u16,
    len: usize,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    index: u32,
    /// 16 bits of the board's hash (others than the home slot's), to skip other boards
    /// without reading their nodes.
    tag: u16,
    stamp: u16,
}

impl Closed {
    /// The active part of a new case: 4,096 slots, 32 KB.
    const MIN_SLOTS: usize = 1 << 12;

    /// Starts a case with no state stored.
    fn begin(&mut self) {
        if self.slots.len() < Self::MIN_SLOTS {
            self.slots.resize(Self::MIN_SLOTS, Slot::default());
        }
        self.resize(Self::MIN_SLOTS);
        self.len = 0;
        self.next_generation();
        self.ask_for_part();
    }

    /// Asks for every cache line of the active part. A case probes it at random: after
    /// other work (another strategy's case) its lines are out of the caches, and each first
    /// probe of a line would wait for it; asked for together, they arrive in one stream.
    #[inline]
    fn ask_for_part(&self) {
        let per_line = 64 / std::mem::size_of::<Slot>();
        for line in self.slots[..=self.mask].chunks_exact(per_line) {
            crate::util::prefetch(&line[0]);
        }
    }

    /// Makes the first `size` slots the active part.
    fn resize(&mut self, size: usize) {
        self.mask = size - 1;
        self.limit = size / 2;
    }

    /// Makes every slot free.
    fn next_generation(&mut self) {
        if self.stamp == u16::MAX {
            self.slots.fill(Slot::default());
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// The home slot of `cells` and its tag.
    #[inline]
    fn home(&self, cells: u64) -> (usize, u16) {
        let hash = cells.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((hash >> 32) as usize & self.mask, (hash >> 16) as u16)
    }

    /// Where `cells` is: `Ok` with its slot and arena index if this case stored it,
    /// otherwise `Err` with the free slot where it goes (with its tag).
    #[inline(always)]
    fn probe(&self, cells: u64, stored: &[Node]) -> Result<(usize, u32), (usize, u16)> {
        let (mut i, tag) = self.home(cells);
        loop {
            let slot = self.slots[i];
            if slot.stamp != self.stamp {
                return Err((i, tag));
            }
            if slot.tag == tag && stored[slot.index as usize].cells == cells {
                return Ok((i, slot.index));
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The slot and arena index of `cells` if this case stored it; otherwise records it
    /// at the arena's next index (`stored.len()`) and returns `None`.
    #[inline(always)]
    fn find_or_insert(&mut self, cells: u64, stored: &[Node]) -> Option<(usize, u32)> {
        if self.len >= self.limit {
            *self = std::mem::take(self).grown(stored);
        }
        let (i, tag) = match self.probe(cells, stored) {
            Ok(found) => return Some(found),
            Err(free) => free,
        };
        self.slots[i] = Slot {
            index: stored.len() as u32,
            tag,
            stamp: self.stamp,
        };
        self.len += 1;
        None
    }

    /// The heap bytes `more` inserts could allocate at once: [`Closed::grown`]'s slots.
    fn growth(&self, more: usize) -> usize {
        if self.len + more < self.limit {
            return 0;
        }
        let size = match self.mask + 1 {
            Self::MIN_SLOTS => 4 * Self::MIN_SLOTS,
            size => 2 * size,
        };
        if self.slots.len() >= size {
            return 0;
        }
        crate::memory::growth(
            size,
            self.slots.capacity(),
            std::mem::size_of::<Slot>(),
            false,
        )
    }

    /// The table with its active part grown, `stored` (every node so far but the
    /// outdated ones) stored in it again. By value, as [`Arena::push`] grows.
    #[cold]
    #[inline(never)]
    fn grown(mut self, stored: &[Node]) -> Closed {
        // A case that outgrows the first part is a long one: skip a doubling (and its
        // re-insertions) and go straight to four times the first part.
        let size = match self.mask + 1 {
            Self::MIN_SLOTS => 4 * Self::MIN_SLOTS,
            size => 2 * size,
        };
        if self.slots.len() < size {
            self.slots.resize(size, Slot::default());
        }
        self.resize(size);
        self.next_generation();
        self.ask_for_part();
        for (index, node) in stored.iter().enumerate() {
            if node.mv() == OUTDATED {
                continue;
            }
            let (mut i, tag) = self.home(node.cells);
            while self.slots[i].stamp == self.stamp {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = Slot {
                index: index as u32,
                tag,
                stamp: self.stamp,
            };
        }
        self
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// This thread's room for `M` memos.
fn memos<M: 'static>(all: &mut FxHashMap<std::any::TypeId, Box<dyn std::any::Any>>) -> &mut Vec<M> {
    all.entry(std::any::TypeId::of::<M>())
        .or_insert_with(|| Box::new(Vec::<M>::new()))
        .downcast_mut::<Vec<M>>()
        .expect("keyed by its type")
}

/// The registry entry: astar with the heuristic of the run's [`super::Config`].
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "astar",
    describe: "A* with --heuristic (default Manhattan), bucket open list",
    options: &[&super::heuristic::HEURISTIC],
    make: super::registry::Make::Custom(|c| {
        Box::new(super::informed::Informed::<Astar>::new("astar", c))
    }),
};

/// astar as a [`super::heuristic::Guided`] search.
pub(crate) struct Astar;

impl super::heuristic::Guided for Astar {
    fn wide(_config: &super::Config) -> Option<super::wide::Mode> {
        Some(super::wide::Mode::Astar)
    }
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
/// greedy best-first (any path, usually found fastest). `wastar::solve` and
/// `greedy::solve` are its public doors.
pub(crate) fn solve_with<H: Heuristic>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    order: Order,
) -> Outcome {
    // Nodes keep the blank in 4 bits: a board built unchecked (`Board::from_parts`) with its
    // blank off the board would be searched as another board and answered wrongly. Refuse it
    // here, once, as idastar does.
    assert!(
        problem.start.blank() < problem.start.shape().cells(),
        "the start board's blank is outside the board"
    );
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        if opts.limits.max_memory.is_some() {
            // Under a heap budget every case starts from nothing (see `crate::memory`).
            *scratch = Scratch::default();
        }
        let Scratch {
            open,
            heap,
            nodes,
            closed,
            memos: all,
        } = &mut *scratch;
        open.clear();
        heap.heap.clear();
        let memos = memos::<H::Memo>(all);
        let mut store = Store {
            nodes: Arena::new(std::mem::take(nodes)),
            memos: Arena::new(std::mem::take(memos)),
            closed: std::mem::take(closed),
        };
        store.closed.begin();
        let outcome = match order {
            Order::Astar => search(problem, opts, h, order, open, &mut store),
            _ => search(problem, opts, h, order, heap, &mut store),
        };
        *nodes = store.nodes.room;
        *memos = store.memos.room;
        *closed = store.closed;
        outcome
    })
}

/// The stored states: the arena, each state's heuristic memo, and the closed table.
struct Store<M> {
    nodes: Arena<Node>,
    memos: Arena<M>,
    closed: Closed,
}

impl<M> Default for Store<M> {
    fn default() -> Self {
        Store {
            nodes: Arena::default(),
            memos: Arena::default(),
            closed: Closed::default(),
        }
    }
}

impl<M: Copy> Store<M> {
    /// The heap bytes the next expansion (at most 4 children) could allocate at once: the
    /// arena's, the memos' and the closed table's doublings, asked of the budget before.
    fn growth(&self) -> usize {
        let memos = if std::mem::size_of::<M>() == 0 {
            0
        } else {
            self.memos.growth(4)
        };
        self.nodes.growth(4) + memos + self.closed.growth(4)
    }

    /// Stores `node` (with `memo`) as reached now and pushes it on `open`, ranked by
    /// `order`, unless the state is known with a `g` as small. A state reached more cheaply is stored again as a new node, with the new move, and
    /// pushed (reopened, if it was closed: only an inconsistent heuristic closes a state
    /// before its cheapest path); it keeps the larger estimate, and the old node is
    /// outdated.
    #[inline(always)]
    fn reach(&mut self, node: Node, memo: M, open: &mut impl Open, order: Order) {
        let new = self.nodes.len as u32;
        let Some((slot, j)) = self
            .closed
            .find_or_insert(node.cells, self.nodes.as_slice())
        else {
            if std::mem::size_of::<M>() != 0 {
                self.memos.push(memo);
            }
            let next = open.push(order.rank(node.g as u32, node.h as u32), node.g as u32, new);
            self.nodes.push(Node { next, ..node });
            return;
        };
        let old = &mut self.nodes.room[j as usize];
        if old.g <= node.g {
            return;
        }
        let h = old.h.max(node.h);
        // Its open-list entry (pushed with the old `g`) no longer matches it.
        old.g = node.g;
        old.blank_mv = old.blank() | OUTDATED << 4;
        if std::mem::size_of::<M>() != 0 {
            let memo = self.memos.room[j as usize];
            self.memos.push(memo);
        }
        let next = open.push(order.rank(node.g as u32, h as u32), node.g as u32, new);
        self.nodes.push(Node { h, next, ..node });
        self.closed.slots[slot].index = new;
    }

    /// The moves from the start to node `idx`: each node's move undone, the board before
    /// it looked up.
    fn path_to(
        &self,
        shape: crate::puzzle::Shape,
        neighbors: &Neighbors,
        mut idx: u32,
    ) -> Vec<Move> {
        let nodes = self.nodes.as_slice();
        let mut path = Vec::new();
        loop {
            let node = nodes[idx as usize];
            if node.mv() == NO_MOVE {
                break;
            }
            let m = Move::from_index(node.mv());
            path.push(m);
            let back = neighbors.target(node.blank() as usize, m.inverse() as usize);
            let before =
                Board::from_parts(shape, node.cells, node.blank()).slide_blank_to(back as usize);
            (_, idx) = self
                .closed
                .probe(before.packed(), nodes)
                .expect("a stored state's parent is stored");
        }
        path.reverse();
        path
    }
}

/// The search on locals: the open list and the store are moved out of the thread's
/// scratch and back, so the compiler keeps their lengths in registers (behind the
/// references, every store to a node could be a store to a length).
fn search<H: Heuristic, O: Open + Default>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    order: Order,
    kept_open: &mut O,
    kept: &mut Store<H::Memo>,
) -> Outcome {
    let mut open = std::mem::take(kept_open);
    let mut store = std::mem::take(kept);
    let outcome = run(problem, opts, h, order, &mut open, &mut store);
    *kept_open = open;
    *kept = store;
    outcome
}

#[inline(always)]
fn run<H: Heuristic, O: Open>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    order: Order,
    open: &mut O,
    store: &mut Store<H::Memo>,
) -> Outcome {
    let shape = problem.start.shape();
    let neighbors = Neighbors::of(shape);
    let by_byte = kids_by_byte(shape);
    let goal = problem.goal.packed();
    let mut budget = Budget::new(&opts.limits);
    let mut stats = Stats::default();

    let start = problem.start;
    let (h0, memo0) = h.start(&start);
    let pathmax = !h.consistent();
    let root = Node {
        cells: start.packed(),
        next: 0,
        g: 0,
        h: estimate(h0),
        blank_mv: start.blank() as u8 | NO_MOVE << 4,
    };
    store.reach(root, memo0, open, order);
    stats.peak_frontier = 1;

    while let Some((g, idx, node)) = open.pop(store.nodes.as_slice()) {
        let (g, idx) = (g as u16, idx as usize);
        if node.g != g {
            continue; // stale entry
        }
        if node.cells == goal {
            stats.stored = store.closed.len as u64;
            return Outcome::solved(store.path_to(shape, neighbors, idx as u32), stats);
        }
        let full = store.closed.len as u64 >= budget.max_states;
        let spent = budget.exhausted(stats.expanded)
            || budget.watches_memory() && !budget.room(store.growth() + open.growth(4));
        // A path of 65,535 moves (only greedy search strays that far): give up too.
        let (Some(cg), false, false) = (node.g.checked_add(1), full, spent) else {
            stats.stored = store.closed.len as u64;
            if full || spent {
                return Outcome::out_of(budget.reason(stats.expanded, full), stats);
            }
            return Outcome::without_path(Status::Limit, stats);
        };
        stats.expanded += 1;
        // A memo of no size (Manhattan's) is not stored: any value is every state's.
        let memo = if std::mem::size_of::<H::Memo>() == 0 {
            memo0
        } else {
            store.memos.room[idx]
        };
        let board = Board::from_parts(shape, node.cells, node.blank());
        let kids = by_byte[node.blank_mv as usize];
        let kids = kids.as_slice();
        stats.generated += kids.len() as u64;
        for &(m, to) in kids {
            let tile = board.tile(to as usize);
            let child = board.slide_blank_to(to as usize);
            let (ch, child_memo) = h.step(
                node.h as u32,
                &memo,
                &child,
                tile,
                to as usize,
                node.blank() as usize,
            );
            let ch = if pathmax {
                ch.max((node.h as u32).saturating_sub(1))
            } else {
                ch
            };
            let reached = Node {
                cells: child.packed(),
                next: 0,
                g: cg,
                h: estimate(ch),
                blank_mv: to | m << 4,
            };
            store.reach(reached, child_memo, open, order);
        }
        stats.peak_frontier = stats.peak_frontier.max(open.len() as u64);
    }
    stats.stored = store.closed.len as u64;
    Outcome::without_path(Status::Unsolvable, stats)
}

/// A heuristic value as a node holds it. No estimate reaches 255 on a board of at most 16
/// cells: an admissible one is at most the distance (80 on 4x4), and Manhattan's sum at
/// most 15 tiles × 15 cells on 1x16.
#[inline]
fn estimate(h: u32) -> u8 {
    debug_assert!(h <= u8::MAX as u32, "estimate {h} does not fit a node");
    h.min(u8::MAX as u32) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Weighted A*'s path is at most twice the shortest (19 moves) and greedy's replays to the
    /// goal (the example `solve_with`'s documentation gave while it was public).
    #[test]
    fn weighted_and_greedy_orders_find_paths() {
        let p = Problem::new(
            "2 3 4 1 5 x 7 6 8".parse().unwrap(),
            "1 2 3 4 5 6 7 8 x".parse().unwrap(),
        )
        .unwrap();
        let h = crate::search::heuristic::Manhattan::new(&p.goal);
        let opts = SolveOptions::default();
        let w = solve_with(&p, &opts, &h, Order::Weighted("2".parse().unwrap()));
        assert!(w.steps().unwrap() <= 2 * 19);
        let g = solve_with(&p, &opts, &h, Order::Greedy);
        assert_eq!(p.start.replay(g.path.as_ref().unwrap()).unwrap(), p.goal);
    }

    fn node(cells: u64) -> Node {
        Node {
            cells,
            next: 0,
            g: 0,
            h: 0,
            blank_mv: NO_MOVE << 4,
        }
    }

    /// Stores `keys` in a fresh case of `closed`, as the search does; returns what each
    /// lookup found.
    fn case(closed: &mut Closed, keys: &[u64]) -> Vec<Option<u32>> {
        closed.begin();
        let mut stored = Vec::new();
        keys.iter()
            .map(|&k| {
                let found = closed.find_or_insert(k, &stored).map(|(_, j)| j);
                if found.is_none() {
                    stored.push(node(k));
                }
                found
            })
            .collect()
    }

    #[test]
    fn the_closed_table_forgets_earlier_cases_across_the_stamp_wrap_around() {
        let mut closed = Closed {
            stamp: u16::MAX - 2,
            ..Closed::default()
        };
        // Cases at stamps MAX-1, MAX, then (wrapped, the table zeroed) 1 and 2: each sees
        // only its own states, whatever earlier cases left in the slots.
        for round in 0..4u64 {
            let keys = [7, 7 + round, 1 << 40, 7];
            let found = case(&mut closed, &keys);
            let expected = if round == 0 {
                vec![None, Some(0), None, Some(0)]
            } else {
                vec![None, None, None, Some(0)]
            };
            assert_eq!(found, expected, "round {round}, stamp {}", closed.stamp);
        }
        assert_eq!(closed.stamp, 2, "the generations wrapped to 1 and went on");
    }

    #[test]
    fn two_boards_with_one_home_slot_and_tag_are_told_apart_by_their_nodes() {
        let mut closed = Closed::default();
        closed.begin();
        // Boards whose home slot (in a new case's part) and 16-bit tag coincide.
        // Random boards meet one after about 2^14 (28 bits in all).
        let mut rng = crate::util::Rng::new(17);
        let mut seen = std::collections::HashMap::new();
        let (a, b) = std::iter::repeat_with(|| rng.next_u64())
            .find_map(|k| {
                seen.insert(closed.home(k), k)
                    .filter(|&first| first != k)
                    .map(|first| (first, k))
            })
            .expect("the pigeonhole gives a pair");
        assert_ne!(a, b);
        assert_eq!(
            case(&mut closed, &[a, b, a, b]),
            [None, None, Some(0), Some(1)]
        );
    }

    #[test]
    fn an_arena_keeps_its_entries_as_it_grows_and_a_new_case_starts_empty_on_its_room() {
        let mut arena = Arena::default();
        let values: Vec<u64> = (0..3000u64).map(|k| k * k).collect();
        let indices: Vec<usize> = values.iter().map(|&v| arena.push(v)).collect();
        assert_eq!(indices, (0..3000).collect::<Vec<_>>());
        assert_eq!(arena.as_slice(), values.as_slice());
        // The next case reuses the room: empty, then overwriting what the last one left.
        let mut next = Arena::new(arena.room);
        assert!(next.as_slice().is_empty());
        assert!(next.room.len() >= 3000, "the room is kept");
        next.push(7);
        assert_eq!(next.as_slice(), [7]);
    }

    #[test]
    fn states_reached_more_cheaply_get_new_nodes_and_paths_read_back_through_them() {
        use crate::puzzle::{Shape, MOVE_ORDER};
        use crate::search::heuristic::Manhattan;
        let goal = Board::standard_goal(Shape::S3X3);
        let h = Manhattan::new(&goal);
        let mut rng = crate::util::Rng::new(11);
        let mut outdated = 0;
        for _ in 0..40 {
            // A random walk from the goal: a solvable start.
            let mut start = goal;
            for _ in 0..60 {
                let m = MOVE_ORDER[rng.below(4) as usize];
                start = start.apply(m).unwrap_or(start);
            }
            let p = Problem::new(start, goal).unwrap();
            let weighted = Order::Weighted("2".parse().unwrap());
            for order in [Order::Greedy, weighted, Order::Astar] {
                let out = solve_with(&p, &SolveOptions::default(), &h, order);
                let path = out.path.expect("a solvable start is solved");
                assert_eq!(start.replay(&path), Ok(goal), "{order:?} from {start}");
                // Greedy and weighted search reach states again by shorter paths: the
                // arena then holds outdated nodes (this thread's arena, this case's and
                // earlier ones': enough to see that the paths above went through some).
                outdated += SCRATCH.with(|s| {
                    s.borrow()
                        .nodes
                        .iter()
                        .filter(|n| n.mv() == OUTDATED)
                        .count()
                });
            }
        }
        assert!(outdated > 0, "no search above reached a state more cheaply");
    }

    #[test]
    fn the_closed_table_keeps_every_state_as_it_doubles() {
        let mut closed = Closed::default();
        // A small case first, then one that grows the active part three times (by four,
        // then twice by two), then a small one again that must not see the big one's states.
        case(&mut closed, &[1, 2, 3]);
        let keys: Vec<u64> = (0..5 * Closed::MIN_SLOTS as u64)
            .map(|k| k * 0x10001)
            .collect();
        assert!(case(&mut closed, &keys).iter().all(Option::is_none));
        assert!(closed.mask + 1 >= 8 * Closed::MIN_SLOTS);
        let stored: Vec<Node> = keys.iter().map(|&k| node(k)).collect();
        let again: Vec<Option<u32>> = keys
            .iter()
            .map(|&k| closed.find_or_insert(k, &stored).map(|(_, j)| j))
            .collect();
        let expected: Vec<Option<u32>> = (0..keys.len() as u32).map(Some).collect();
        assert_eq!(again, expected, "every state found at its arena index");
        assert_eq!(case(&mut closed, &[keys[3], keys[3]]), vec![None, Some(0)]);
        assert_eq!(
            closed.mask + 1,
            Closed::MIN_SLOTS,
            "a new case starts small"
        );
    }
}
