//! `bfs-set`: BFS whose repeated states are kept in an ordered set (`BTreeSet`), as the first
//! seed article's `std::set` version. O(log n) per lookup; the slowest of the BFS variants,
//! kept so users can see what an ordered set costs.
//!
//! What surrounds the set is made cheap:
//!
//! - on boards of at most 9 cells the key is 32 bits (the article's `std::set<int>` is too),
//!   since the last cell's tile is the one the other cells lack, so a B-tree node holds its
//!   11 keys in 44 bytes instead of 88;
//! - the children are inserted in batches, in ascending key order. A child inserted as it is
//!   generated lands anywhere in a tree of a megabyte or more: each insert is a descent from
//!   the root whose nodes are mostly out of the L1 cache. Here the queue is taken a chunk of
//!   parents at a time (`CHUNK` of them, a contiguous range of already-queued nodes); all
//!   their children's keys are generated into a reused buffer, each tagged with its place,
//!   sorted (a radix sort for 32-bit keys), repeats within the chunk dropped (the first
//!   generated stays), and the rest inserted in ascending order, so consecutive inserts share
//!   most of their descent and find its nodes in cache; and a board reached twice from one
//!   chunk (half the repeats of a BFS layer) costs no second descent. Each insert is still the
//!   one lookup-and-insert of [`BTreeSet::insert`], and it is still most of the time (about
//!   60% in a profile): the linear search within each node, not the cache misses, is what is
//!   left of its cost. On 3x3 (`peers 2000 300 7`, medians) this took a case from 13.5-14.4
//!   ms to 11.4-12.2 ms;
//! - the queue is kept per thread and reused from case to case.
//!
//! The answers and counters are those of the generic [`bfs`](super::bfs::bfs) with a
//! `BTreeSet`, state for state: after the chunk's inserts its parents are replayed in queue
//! order, each child in generation order, with the budget checked before each parent and the
//! goal tested as each new child is queued. A chunk's generation stops at the goal's first
//! child, but the set may still hold children generated after the budget's stop, so `stored`
//! is counted, not read from the set: the set's size before the chunk plus the new children
//! queued so far. The set itself may pass the `max_states` guard by at most one chunk's
//! children.

use super::bfs::{path_to, Node, NO_MOVE};
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Board, Neighbors, Shape};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The largest board whose packed cells, less the last one, fit a `u32` key.
const NARROW_CELLS: usize = 9;

/// The most parents whose children are inserted as one batch. Big enough that a batch's keys
/// are dense in the set (thousands of inserts share their upper levels) and that most
/// repeats within a BFS layer fall in one batch (each then costs no insert), small enough
/// that its tagged keys (some 220 kB, and as much again to sort them) stay in the L2 cache
/// between the sort, the inserts and the replay; larger chunks were no faster
/// (docs/performance-history.md, "Figures moved from the code").
const CHUNK: usize = 16_384;

/// A key of the ordered set, and that key tagged with a child's place in its chunk so that a
/// plain sort orders the children by key and, among equal keys, in generation order.
trait Key: Copy + Ord {
    /// The key in the high bits, the place in the low ones.
    type Tagged: Copy + Ord;
    /// The key of a board's packed cells.
    fn of(cells: u64) -> Self;
    /// The tagged key of a board's packed cells, generated `i`-th in its chunk.
    fn tag(cells: u64, i: u32) -> Self::Tagged;
    /// The key and the place back.
    fn untag(t: Self::Tagged) -> (Self, usize);
    /// Sorts tagged keys; `spare` is scratch space.
    fn sort(tags: &mut Vec<Self::Tagged>, spare: &mut Vec<Self::Tagged>);
}

/// Boards of at most [`NARROW_CELLS`] cells: their first 8 cells (the low 32 bits of
/// [`Board::packed`]), which determine the last.
impl Key for u32 {
    type Tagged = u64;
    #[inline(always)]
    fn of(cells: u64) -> u32 {
        cells as u32
    }
    #[inline(always)]
    fn tag(cells: u64, i: u32) -> u64 {
        (cells as u32 as u64) << 32 | i as u64
    }
    #[inline(always)]
    fn untag(t: u64) -> (u32, usize) {
        ((t >> 32) as u32, t as u32 as usize)
    }
    /// A radix sort on the key's three 11-bit digits (the places are already ascending,
    /// and each pass is stable; 24 KB of counts): two-thirds the time of `sort_unstable` on a
    /// batch's ~15,000 tags (chunks of 8,192 parents) with four 8-bit digits; with three, a
    /// case about 2% less.
    fn sort(tags: &mut Vec<u64>, spare: &mut Vec<u64>) {
        const BITS: u32 = 11;
        const DIGITS: usize = 1 << BITS;
        let mut counts = [[0u32; DIGITS]; 3];
        let digit =
            |t: u64, pass: usize| ((t >> (32 + BITS as usize * pass)) as usize) & (DIGITS - 1);
        for &t in tags.iter() {
            for (pass, count) in counts.iter_mut().enumerate() {
                count[digit(t, pass)] += 1;
            }
        }
        spare.resize(tags.len(), 0);
        for (pass, count) in counts.iter_mut().enumerate() {
            if count.contains(&(tags.len() as u32)) {
                continue; // every key has this digit: the pass would change nothing
            }
            let mut sum = 0;
            for c in count.iter_mut() {
                (*c, sum) = (sum, sum + *c);
            }
            for &t in tags.iter() {
                let c = &mut count[digit(t, pass)];
                spare[*c as usize] = t;
                *c += 1;
            }
            std::mem::swap(tags, spare);
        }
    }
}

/// Larger boards: all their packed cells.
impl Key for u64 {
    type Tagged = u128;
    #[inline(always)]
    fn of(cells: u64) -> u64 {
        cells
    }
    #[inline(always)]
    fn tag(cells: u64, i: u32) -> u128 {
        (cells as u128) << 32 | i as u128
    }
    #[inline(always)]
    fn untag(t: u128) -> (u64, usize) {
        ((t >> 32) as u64, t as u32 as usize)
    }
    fn sort(tags: &mut Vec<u128>, _: &mut Vec<u128>) {
        tags.sort_unstable();
    }
}

thread_local! {
    static QUEUE: RefCell<Vec<Node>> = const { RefCell::new(Vec::new()) };
}

/// The registry entry.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "bfs-set",
    describe: "BFS, repeated states in an ordered set (BTreeSet)",
    options: &[],
    make: super::registry::Make::Plain {
        search: solve,
        supports: super::registry::packed_shape,
    },
};

/// Shortest path by BFS with a `BTreeSet` of packed boards (32-bit keys on boards of at most
/// 9 cells, 64-bit ones beyond), its inserts batched in key order.
pub(crate) fn solve(problem: &Problem, opts: &SolveOptions) -> Outcome {
    QUEUE.with(|queue| {
        let queue = &mut *queue.borrow_mut();
        if opts.limits.max_memory.is_some() {
            // Under a heap budget every case starts from nothing (see `crate::memory`).
            *queue = Vec::new();
        }
        if problem.start.shape().cells() <= NARROW_CELLS {
            Search::<u32>::new(problem, opts, queue).run()
        } else {
            Search::<u64>::new(problem, opts, queue).run()
        }
    })
}

/// One BFS: the set, the queue, the chunk's scratch buffers and the counters.
struct Search<'a, K: Key> {
    shape: Shape,
    neighbors: &'static Neighbors,
    goal: u64,
    budget: Budget,
    stats: Stats,
    /// The boards seen, keyed by [`Key`].
    set: BTreeSet<K>,
    /// Every state queued; `queue[head]` is the next to expand.
    queue: &'a mut Vec<Node>,
    head: usize,
    /// `fresh[i]`: the chunk's `i`-th child is the first of its board in the chunk and was
    /// not in the set.
    fresh: Vec<bool>,
    /// The children's tagged keys, sorted.
    tags: Vec<K::Tagged>,
    /// Scratch space for sorting `tags`.
    spare: Vec<K::Tagged>,
}

impl<'a, K: Key> Search<'a, K> {
    /// A search from `problem.start`, queued and in the set, nothing expanded.
    fn new(problem: &Problem, opts: &SolveOptions, queue: &'a mut Vec<Node>) -> Self {
        let start = problem.start;
        queue.clear();
        queue.push(Node {
            cells: start.packed(),
            parent: u32::MAX,
            blank: start.blank() as u8,
            mv: NO_MOVE,
        });
        let mut set = BTreeSet::new();
        set.insert(K::of(start.packed()));
        Search {
            shape: start.shape(),
            neighbors: Neighbors::of(start.shape()),
            goal: problem.goal.packed(),
            budget: Budget::new(&opts.limits),
            stats: Stats {
                peak_frontier: 1,
                ..Stats::default()
            },
            set,
            queue,
            head: 0,
            fresh: Vec::new(),
            tags: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Expands the queue a chunk at a time until the goal, the budget or the queue's end.
    fn run(mut self) -> Outcome {
        while self.head < self.queue.len() {
            let end = self.queue.len().min(self.head + CHUNK);
            self.generate(end);
            let before = self.set.len() as u64;
            self.insert_sorted();
            if let Some(out) = self.replay(end, before) {
                return out;
            }
        }
        self.stats.stored = self.set.len() as u64;
        Outcome::without_path(Status::Unsolvable, self.stats)
    }

    /// Fills `tags` with the keys of the children of `queue[head..end]`, tagged with their
    /// places in the order the generic BFS generates them. The children themselves are made
    /// again by [`Search::replay`] (a few instructions each): cheaper than storing them.
    /// Stops at the goal's first child, where the replay will end, so the last chunk of a
    /// solved search sorts and inserts only what comes before the goal. (That child is new:
    /// the goal is in the set before it only if it is the start, and no child is the start,
    /// since each of its neighbours is queued from it and a child never undoes its move.)
    fn generate(&mut self, end: usize) {
        self.tags.clear();
        for node in &self.queue[self.head..end] {
            let board = Board::from_parts(self.shape, node.cells, node.blank);
            let moves = self.neighbors.children(node.blank as usize, node.mv);
            for &(_, to) in moves.as_slice() {
                let cells = board.slide_blank_to(to as usize).packed();
                self.tags.push(K::tag(cells, self.tags.len() as u32));
                if cells == self.goal {
                    return; // the replay ends here: nothing after it need be inserted
                }
            }
        }
    }

    /// Inserts the chunk's children into the set in ascending key order, one insert per
    /// distinct board, and marks in `fresh` the ones that were new (the first generated of
    /// each board that was not in the set).
    fn insert_sorted(&mut self) {
        K::sort(&mut self.tags, &mut self.spare);
        self.fresh.clear();
        self.fresh.resize(self.tags.len(), false);
        let mut last = None;
        for &t in &self.tags {
            let (key, i) = K::untag(t);
            if last != Some(key) {
                last = Some(key);
                self.fresh[i] = self.set.insert(key);
            }
        }
    }

    /// Expands `queue[head..end]` again in order, as the generic BFS does with the children
    /// [`Search::insert_sorted`] has judged: the same budget checks, queue pushes, goal tests
    /// and counters. `before` is the set's size before the chunk. Returns the outcome if the
    /// search ends in the chunk.
    fn replay(&mut self, end: usize, before: u64) -> Option<Outcome> {
        let mut stored = before;
        let mut k = 0;
        while self.head < end {
            let queued = self.queue.len() as u64;
            let full = queued >= self.budget.max_states;
            // Under a heap budget, the queue's doubling is asked for before it happens (the
            // set grows by small nodes, which the budget's periodic check sees).
            let no_room = self.budget.watches_memory()
                && !self.budget.room(crate::memory::vec_growth(self.queue, 4));
            if full || no_room || self.budget.exhausted(self.stats.expanded) {
                self.stats.stored = stored;
                let why = self.budget.reason(self.stats.expanded, full);
                return Some(Outcome::out_of(why, self.stats));
            }
            self.stats.expanded += 1;
            let node = self.queue[self.head];
            let board = Board::from_parts(self.shape, node.cells, node.blank);
            let moves = self.neighbors.children(node.blank as usize, node.mv);
            for &(mv, to) in moves.as_slice() {
                self.stats.generated += 1;
                let fresh = self.fresh[k];
                k += 1;
                if !fresh {
                    continue;
                }
                stored += 1;
                let cells = board.slide_blank_to(to as usize).packed();
                let parent = self.head as u32;
                self.queue.push(Node {
                    cells,
                    parent,
                    blank: to,
                    mv,
                });
                if cells == self.goal {
                    return Some(self.solved(stored));
                }
            }
            self.head += 1;
            let frontier = (self.queue.len() - self.head) as u64;
            self.stats.peak_frontier = self.stats.peak_frontier.max(frontier);
        }
        None
    }

    /// The outcome when the goal has just been queued, with `stored` states seen.
    fn solved(&mut self, stored: u64) -> Outcome {
        let last = self.queue.len() - 1;
        self.stats.stored = stored;
        let frontier = (last - self.head) as u64;
        self.stats.peak_frontier = self.stats.peak_frontier.max(frontier);
        Outcome::solved(path_to(self.queue, last), self.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Ranker, MOVE_ORDER};
    use crate::search::bfs::bfs;
    use crate::search::Limits;
    use crate::util::Rng;
    use std::time::Duration;

    #[test]
    fn the_narrow_key_tells_every_3x3_board_apart() {
        // 9! boards, one per rank: their 32-bit keys are 9! distinct values.
        let ranker = Ranker::new(Shape::S3X3);
        let mut set = BTreeSet::new();
        for r in 0..ranker.size() {
            let b = Board::from_packed(Shape::S3X3, ranker.unrank(r));
            assert_eq!(
                <u32 as Key>::untag(<u32 as Key>::tag(b.packed(), 7)),
                (u32::of(b.packed()), 7)
            );
            assert!(set.insert(u32::of(b.packed())), "rank {r} ({b}) collides");
        }
        assert_eq!(set.len() as u64, ranker.size());
    }

    #[test]
    fn the_radix_sort_sorts_as_sort_unstable() {
        let mut rng = Rng::new(5);
        for n in [0, 1, 2, 100, 20_000] {
            // Keys from a small range (many repeats) or the whole of it, one byte or four.
            for range in [3, 1 << 8, 1 << 32] {
                let mut tags: Vec<u64> = (0..n)
                    .map(|i| u32::tag(rng.below(range) * 0x0101_0101 % (1 << 32), i))
                    .collect();
                let mut expected = tags.clone();
                expected.sort_unstable();
                u32::sort(&mut tags, &mut Vec::new());
                assert_eq!(tags, expected, "{n} tags below {range}");
            }
        }
    }

    /// A uniformly random board of `shape` (either parity).
    fn random_board(shape: Shape, rng: &mut Rng) -> Board {
        let mut tiles: Vec<u8> = (0..shape.cells() as u8).collect();
        rng.shuffle(&mut tiles);
        Board::from_tiles(shape, &tiles)
    }

    /// `goal` after up to `moves` random moves of the blank.
    fn walk(goal: Board, moves: u64, rng: &mut Rng) -> Board {
        (0..moves).fold(goal, |b, _| {
            b.apply(MOVE_ORDER[rng.below(4) as usize]).unwrap_or(b)
        })
    }

    /// The `i`-th budget of a cycle: none, a node budget, a state guard, both, or a timeout
    /// that has run out before the first expansion.
    fn limits(i: usize, rng: &mut Rng) -> Limits {
        let nodes = Some(rng.below(20_000) + 1);
        let states = rng.below(30_000) + 1;
        match i % 5 {
            0 => Limits::default(),
            1 => Limits {
                max_nodes: nodes,
                ..Limits::default()
            },
            2 => Limits {
                max_states: states,
                ..Limits::default()
            },
            3 => Limits {
                max_nodes: nodes,
                max_states: states,
                ..Limits::default()
            },
            _ => Limits {
                timeout: Some(Duration::ZERO),
                ..Limits::default()
            },
        }
    }

    /// The batched search answers as the generic BFS with a `BTreeSet` does, counters and all.
    fn agrees(start: Board, goal: Board, limits: Limits) -> Status {
        let problem = Problem::new(start, goal).unwrap();
        let opts = SolveOptions {
            limits,
            ..SolveOptions::default()
        };
        let plain = bfs(&problem, &opts, &mut BTreeSet::new(), &mut Vec::new());
        let batched = solve(&problem, &opts);
        assert_eq!(batched, plain, "{start} to {goal} with {limits:?}");
        batched.status
    }

    #[test]
    fn batched_inserts_change_no_answer_or_counter_on_3x3() {
        let mut rng = Rng::new(17);
        let goal = Board::standard_goal(Shape::S3X3);
        let mut statuses = [0; 3];
        for i in 0..150 {
            // Random pairs (half of them unsolvable: searched to exhaustion when unbudgeted,
            // which is slow, so only every third), and shallow starts.
            let (start, goal) = match i % 3 {
                0 => (
                    random_board(Shape::S3X3, &mut rng),
                    random_board(Shape::S3X3, &mut rng),
                ),
                1 => (random_board(Shape::S3X3, &mut rng), goal),
                _ => (walk(goal, rng.below(40), &mut rng), goal),
            };
            let limits = limits(i, &mut rng);
            let unsolvable = !crate::puzzle::is_solvable(&start, &goal);
            if unsolvable && limits == Limits::default() && i % 3 != 0 {
                continue;
            }
            statuses[agrees(start, goal, limits) as usize] += 1;
        }
        assert!(
            statuses.iter().all(|&n| n > 5),
            "solved, unsolvable, limit: {statuses:?}"
        );
    }

    #[test]
    fn batched_inserts_change_no_answer_or_counter_on_larger_boards() {
        let mut rng = Rng::new(18);
        // 2x4 (a 32-bit key, its whole space searched) and 3x4 (a 64-bit key: shallow starts,
        // or a budget).
        for shape in [Shape::new(4, 2).unwrap(), Shape::new(2, 4).unwrap()] {
            for i in 0..40 {
                let (start, goal) = (random_board(shape, &mut rng), random_board(shape, &mut rng));
                agrees(start, goal, limits(i, &mut rng));
            }
            // The start as the goal (the registry answers it without a search): no child is
            // the start, so the search runs to exhaustion, every chunk generated whole.
            let goal = random_board(shape, &mut rng);
            assert_eq!(agrees(goal, goal, Limits::default()), Status::Unsolvable);
        }
        // The same on 2x3 (the smallest 32-bit-key space beside 2x2) and, budgeted, on 3x4
        // and 4x3 (64-bit keys; a budget past one chunk).
        let shape = Shape::new(3, 2).unwrap();
        let goal = random_board(shape, &mut rng);
        assert_eq!(agrees(goal, goal, Limits::default()), Status::Unsolvable);
        for shape in [Shape::new(4, 3).unwrap(), Shape::new(3, 4).unwrap()] {
            let goal = random_board(shape, &mut rng);
            let budget = Limits {
                max_nodes: Some(3 * CHUNK as u64 / 2),
                ..Limits::default()
            };
            assert_eq!(agrees(goal, goal, budget), Status::Limit);
        }
        for shape in [Shape::new(4, 3).unwrap(), Shape::new(3, 4).unwrap()] {
            let goal = Board::standard_goal(shape);
            for i in 0..30 {
                // (Not the goal itself: without the registry's shortcut, the search would
                // look for it through the whole space.)
                let start = walk(goal, rng.below(18) + 1, &mut rng);
                if start != goal {
                    agrees(start, goal, limits(i, &mut rng));
                }
                let (start, goal) = (random_board(shape, &mut rng), random_board(shape, &mut rng));
                let nodes = Some(rng.below(20_000) + 1);
                agrees(
                    start,
                    goal,
                    Limits {
                        max_nodes: nodes,
                        ..Limits::default()
                    },
                );
            }
        }
    }
}
