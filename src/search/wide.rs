//! The searches on boards of more than 16 cells (5x5, 6x6, 7x7 and oblong shapes up to 49
//! cells): A\*, weighted A\*, greedy best-first and IDA\*, with Manhattan distance or linear
//! conflict.
//!
//! The searches tuned for the 8- and 15-puzzles keep a board in one `u64`, four bits a cell,
//! and are left exactly as they are. A larger board holds a byte a cell
//! ([`crate::puzzle::Board`]); these searches work on those bytes (in place, for IDA\*) and
//! store a state as six bits a cell in five words (`Key`, 40 bytes). `astar`, `idastar`,
//! `idastar-tt`, `wastar` and `greedy` hand a large board to them (`super::informed`);
//! they take boards of any size, so tests run them on small boards too, against the tuned
//! searches.
//!
//! Memory: A\* takes about 300 bytes a stored state at its peak (the record with its
//! 40-byte key, the hash table's entry and the open list's, each grown by doubling; 3.3 GB
//! for 10 million states measured on 5x5), so it stores at most `MAX_STATES` states
//! whatever `--max-states` says (about 700 MB); past that the case ends as `limit`
//! (`states`). IDA\* stores nothing but its
//! path (`idastar-tt` runs without its transposition table on these boards), and leaves out
//! the move sequences of the configuration's `prune` (`super::fsm::PRUNE`; `idastar-tt`
//! reads none: the duplicates).

use super::astar::Weight;
use super::fsm::{Fsm, PRUNE};
use super::{Budget, LimitReason, Outcome, Problem, SolveOptions, Stats};
use crate::puzzle::{Board, Move, Shape, MAX_CELLS};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The most states A\* stores on a board of more than 16 cells (about 700 MB at about 300
/// bytes a state), unless `--max-states` is lower.
pub(crate) const MAX_STATES: u64 = 2_000_000;

/// How the search ranks states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A\*: `g + h`, shortest paths.
    Astar,
    /// Weighted A\*: `g + w·h`, paths at most `w` times the shortest.
    Weighted(Weight),
    /// Greedy best-first: `h` alone, any path.
    Greedy,
    /// IDA\*: depth-first with a bound on `g + h` raised each iteration, shortest paths.
    Ida,
}

/// The estimate: Manhattan distance of the tiles, plus (with `conflicts`) the linear
/// conflicts of every row and column, as `linear-conflict` counts them: for each line,
/// 2 × (the tiles in their goal line − the longest run of them in goal order).
#[derive(Clone, Debug)]
pub(crate) struct Estimate {
    width: usize,
    height: usize,
    /// `dist[tile * cells + pos]`: the tile's Manhattan distance from `pos` to its goal cell.
    dist: Vec<u8>,
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
    conflicts: bool,
}

impl Estimate {
    /// Manhattan distance (plus linear conflicts when `conflicts`) towards `goal`.
    pub(crate) fn new(goal: &Board, conflicts: bool) -> Estimate {
        let shape = goal.shape();
        let n = shape.cells();
        let mut goal_row = [0u8; MAX_CELLS];
        let mut goal_col = [0u8; MAX_CELLS];
        for p in 0..n {
            let (r, c) = shape.row_col(p);
            goal_row[goal.tile(p) as usize] = r as u8;
            goal_col[goal.tile(p) as usize] = c as u8;
        }
        let mut dist = vec![0u8; n * n];
        for t in 1..n {
            for p in 0..n {
                let (r, c) = shape.row_col(p);
                dist[t * n + p] =
                    (r.abs_diff(goal_row[t] as usize) + c.abs_diff(goal_col[t] as usize)) as u8;
            }
        }
        Estimate {
            width: shape.width(),
            height: shape.height(),
            dist,
            goal_row,
            goal_col,
            conflicts,
        }
    }

    fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The estimate of a whole board, given as its tiles.
    pub(crate) fn of(&self, tiles: &[u8]) -> u32 {
        let n = self.cells();
        let mut h: u32 = (0..n)
            .map(|p| self.dist[tiles[p] as usize * n + p] as u32)
            .sum();
        if self.conflicts {
            h += (0..self.height).map(|r| self.row(tiles, r)).sum::<u32>();
            h += (0..self.width).map(|c| self.col(tiles, c)).sum::<u32>();
        }
        h
    }

    /// The conflicts of row `r`: 2 × (tiles in their goal row − longest in goal-column order).
    fn row(&self, tiles: &[u8], r: usize) -> u32 {
        let mut keys = [0u8; 24];
        let mut k = 0;
        for c in 0..self.width {
            let t = tiles[r * self.width + c] as usize;
            if t != 0 && self.goal_row[t] as usize == r {
                keys[k] = self.goal_col[t];
                k += 1;
            }
        }
        2 * (k - longest_increasing(&keys[..k])) as u32
    }

    /// The conflicts of column `c`.
    fn col(&self, tiles: &[u8], c: usize) -> u32 {
        let mut keys = [0u8; 24];
        let mut k = 0;
        for r in 0..self.height {
            let t = tiles[r * self.width + c] as usize;
            if t != 0 && self.goal_col[t] as usize == c {
                keys[k] = self.goal_row[t];
                k += 1;
            }
        }
        2 * (k - longest_increasing(&keys[..k])) as u32
    }

    /// The estimate after the blank at `from` moved to `to`, the tile there sliding to
    /// `from` (`before` and `after` are the tiles before and after the move; `h` the
    /// estimate before it).
    #[inline]
    fn after_move(&self, h: u32, before: &[u8], after: &[u8], from: usize, to: usize) -> u32 {
        let n = self.cells();
        let t = after[from] as usize;
        let mut h = h + self.dist[t * n + from] as u32 - self.dist[t * n + to] as u32;
        if self.conflicts {
            let w = self.width;
            if from / w == to / w {
                // The tile changed column: the two columns' conflicts.
                let (a, b) = (from % w, to % w);
                h = h + self.col(after, a) + self.col(after, b)
                    - self.col(before, a)
                    - self.col(before, b);
            } else {
                let (a, b) = (from / w, to / w);
                h = h + self.row(after, a) + self.row(after, b)
                    - self.row(before, a)
                    - self.row(before, b);
            }
        }
        h
    }
}

/// The length of the longest strictly increasing subsequence of `keys` (at most a line's
/// length, so the quadratic count is cheap).
fn longest_increasing(keys: &[u8]) -> usize {
    let mut best = [0usize; 24];
    let mut longest = 0;
    for i in 0..keys.len() {
        best[i] = 1
            + (0..i)
                .filter(|&j| keys[j] < keys[i])
                .map(|j| best[j])
                .max()
                .unwrap_or(0);
        longest = longest.max(best[i]);
    }
    longest
}

/// A stored state: six bits a cell, ten cells a word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Key([u64; 5]);

impl Key {
    fn of(tiles: &[u8]) -> Key {
        let mut k = [0u64; 5];
        for (p, &t) in tiles.iter().enumerate() {
            k[p / 10] |= (t as u64) << (6 * (p % 10));
        }
        Key(k)
    }
    fn tiles(&self, n: usize) -> [u8; MAX_CELLS] {
        let mut t = [0u8; MAX_CELLS];
        for (p, tile) in t.iter_mut().enumerate().take(n) {
            *tile = ((self.0[p / 10] >> (6 * (p % 10))) & 63) as u8;
        }
        t
    }
}

/// The blank's cell after move `m` from `pos`, if the move stays on the board.
#[inline]
fn target(shape: Shape, pos: usize, m: Move) -> Option<usize> {
    let (w, h) = (shape.width(), shape.height());
    match m {
        Move::Up if pos >= w => Some(pos - w),
        Move::Down if pos + w < w * h => Some(pos + w),
        Move::Left if pos % w > 0 => Some(pos - 1),
        Move::Right if pos % w + 1 < w => Some(pos + 1),
        _ => None,
    }
}

/// Solves `problem` (a solvable pair, or with `opts.exhaustive` any pair; boards of any
/// size) by `mode` with estimate `h`.
pub(crate) fn solve(problem: &Problem, opts: &SolveOptions, h: &Estimate, mode: Mode) -> Outcome {
    match mode {
        Mode::Ida => ida(problem, opts, h),
        _ => best_first(problem, opts, h, mode),
    }
}

/// A record of A\*'s store: the state, how it was reached and its costs.
#[derive(Clone, Copy)]
struct Rec {
    key: Key,
    parent: u32,
    g: u32,
    h: u32,
    mv: u8,
    /// Expanded: not improved again (with a consistent estimate A\* never needs to, and
    /// weighted A\* keeps its bound without reopening).
    closed: bool,
}

/// The rank of a state on the open list (smaller first), times 1000 so that a weight of
/// three decimals ranks exactly. Greedy breaks ties of the estimate towards the shallower
/// state (towards the deeper one, as A\* does, it ran out of 2,000,000 states on 7x7
/// boards it now solves in 100,000 expansions).
fn rank(mode: Mode, g: u32, h: u32) -> u64 {
    match mode {
        Mode::Astar | Mode::Ida => 1000 * (g as u64 + h as u64),
        Mode::Weighted(w) => 1000 * g as u64 + w.times(1000 * h as u64),
        Mode::Greedy => 1000 * h as u64 + g.min(999) as u64,
    }
}

/// A\*, weighted A\* or greedy best-first: an open list ranked by `mode` (ties to the
/// deeper state, then to the oldest), a state stored once; one still open is updated when reached more cheaply
/// (not by greedy), one expanded is not reopened.
fn best_first(problem: &Problem, opts: &SolveOptions, est: &Estimate, mode: Mode) -> Outcome {
    let shape = problem.start.shape();
    let n = shape.cells();
    let goal = Key::of(&problem.goal.tiles());
    let mut budget = Budget::new(&opts.limits);
    let max_states = budget.max_states.min(MAX_STATES);
    let mut stats = Stats::default();
    let start = problem.start.tiles();
    let h0 = est.of(&start);
    let mut recs = vec![Rec {
        key: Key::of(&start),
        parent: u32::MAX,
        g: 0,
        h: h0,
        mv: u8::MAX,
        closed: false,
    }];
    let mut index: FxHashMap<Key, u32> = FxHashMap::default();
    index.insert(recs[0].key, 0);
    let mut open = BinaryHeap::new();
    open.push(Reverse((rank(mode, 0, h0), Reverse(0u32), 0u32)));
    while let Some(Reverse((_, Reverse(g), i))) = open.pop() {
        let rec = recs[i as usize];
        if rec.g != g {
            continue; // outdated: reached more cheaply since
        }
        if rec.key == goal {
            stats.stored = recs.len() as u64;
            return Outcome::solved(path_of(&recs, i), stats);
        }
        // Under a heap budget: room for this expansion's children in the records, the
        // index and the open list, asked before any of them grows.
        let spent = budget.exhausted(stats.expanded)
            || budget.watches_memory() && !budget.room(growth(&recs, &index, &open));
        if spent {
            stats.stored = recs.len() as u64;
            return Outcome::out_of(budget.reason(stats.expanded, false), stats);
        }
        stats.expanded += 1;
        recs[i as usize].closed = true;
        let before = rec.key.tiles(n);
        let blank = before.iter().take(n).position(|&t| t == 0).unwrap_or(0);
        for m in crate::puzzle::MOVE_ORDER {
            if rec.mv != u8::MAX && m.inverse() as u8 == rec.mv {
                continue;
            }
            let Some(to) = target(shape, blank, m) else {
                continue;
            };
            let mut after = before;
            after.swap(blank, to);
            stats.generated += 1;
            let child = Rec {
                key: Key::of(&after[..n]),
                parent: i,
                g: g + 1,
                h: est.after_move(rec.h, &before[..n], &after[..n], blank, to),
                mv: m as u8,
                closed: false,
            };
            let at = match index.get(&child.key) {
                // Greedy ranks by the estimate alone: a shorter way to a state changes nothing.
                Some(_) if mode == Mode::Greedy => continue,
                Some(&j) if recs[j as usize].closed || recs[j as usize].g <= child.g => continue,
                Some(&j) => {
                    recs[j as usize] = Rec {
                        h: recs[j as usize].h,
                        ..child
                    };
                    j
                }
                None => {
                    if recs.len() as u64 >= max_states {
                        stats.stored = recs.len() as u64;
                        return Outcome::out_of(LimitReason::States, stats);
                    }
                    recs.push(child);
                    index.insert(child.key, recs.len() as u32 - 1);
                    recs.len() as u32 - 1
                }
            };
            let r = &recs[at as usize];
            open.push(Reverse((rank(mode, r.g, r.h), Reverse(r.g), at)));
        }
        stats.peak_frontier = stats.peak_frontier.max(open.len() as u64);
    }
    stats.stored = recs.len() as u64;
    Outcome::without_path(super::Status::Unsolvable, stats)
}

/// The bytes the records, the index and the open list of [`best_first`] allocate to take
/// the four children of one expansion.
fn growth<T>(recs: &Vec<Rec>, index: &FxHashMap<Key, u32>, open: &BinaryHeap<T>) -> usize {
    use crate::memory::{growth, table_growth, vec_growth};
    let entry = std::mem::size_of::<T>();
    vec_growth(recs, 4)
        + table_growth::<(Key, u32)>(index.len(), index.capacity(), 4)
        + growth(open.len() + 4, open.capacity(), entry, false)
}

/// The moves from the start to record `i`, by its parents.
fn path_of(recs: &[Rec], mut i: u32) -> Vec<Move> {
    let mut path = Vec::new();
    while recs[i as usize].parent != u32::MAX {
        path.push(Move::from_index(recs[i as usize].mv));
        i = recs[i as usize].parent;
    }
    path.reverse();
    path
}

/// IDA\*'s state: the board's tiles (changed in place), the path and the counters.
struct Ida<'a> {
    shape: Shape,
    est: &'a Estimate,
    fsm: &'a Fsm,
    goal: [u8; MAX_CELLS],
    tiles: [u8; MAX_CELLS],
    path: Vec<Move>,
    stats: Stats,
    budget: Budget,
    out_of_budget: bool,
}

impl Ida<'_> {
    /// Searches below the current board (blank at `blank`, `g` moves from the start,
    /// estimate `h`) within `bound`: `None` when the goal was reached (the path holds the
    /// moves), else the least `g + h` beyond the bound.
    fn dive(&mut self, blank: usize, state: u32, g: u32, h: u32, bound: u32) -> Option<u32> {
        let f = g + h;
        if f > bound {
            return Some(f);
        }
        if h == 0 && self.tiles == self.goal {
            return None;
        }
        if self.budget.exhausted(self.stats.expanded) {
            self.out_of_budget = true;
            return Some(u32::MAX);
        }
        self.stats.expanded += 1;
        self.stats.peak_frontier = self.stats.peak_frontier.max(g as u64 + 1);
        let n = self.shape.cells();
        let mut least = u32::MAX;
        for (i, m) in crate::puzzle::MOVE_ORDER.into_iter().enumerate() {
            let next = self.fsm.step(state, i);
            if next == Fsm::PRUNED {
                continue;
            }
            let Some(to) = target(self.shape, blank, m) else {
                continue;
            };
            self.stats.generated += 1;
            let before = self.tiles;
            self.tiles.swap(blank, to);
            let child_h = self
                .est
                .after_move(h, &before[..n], &self.tiles[..n], blank, to);
            self.path.push(m);
            // `None`: the goal is reached, the path stays as it is.
            let found = self.dive(to, next, g + 1, child_h, bound)?;
            self.path.pop();
            self.tiles.swap(blank, to);
            if self.out_of_budget {
                return Some(u32::MAX);
            }
            least = least.min(found);
        }
        Some(least)
    }
}

/// IDA\*: depth-first searches bounded by `g + h`, the bound raised to the least value
/// beyond it each iteration, leaving out the move sequences of `opts.config`'s [`PRUNE`].
/// Counters sum over the iterations.
fn ida(problem: &Problem, opts: &SolveOptions, est: &Estimate) -> Outcome {
    let n = problem.start.shape().cells();
    let mut search = Ida {
        shape: problem.start.shape(),
        est,
        fsm: PRUNE.get(&opts.config).machine(),
        goal: [0; MAX_CELLS],
        tiles: [0; MAX_CELLS],
        path: Vec::new(),
        stats: Stats::default(),
        budget: Budget::new(&opts.limits),
        out_of_budget: false,
    };
    search.goal[..n].copy_from_slice(&problem.goal.tiles());
    search.tiles[..n].copy_from_slice(&problem.start.tiles());
    let h0 = est.of(&search.tiles[..n]);
    let mut bound = h0;
    loop {
        match search.dive(problem.start.blank(), Fsm::START, 0, h0, bound) {
            None => return Outcome::solved(search.path, search.stats),
            Some(_) if search.out_of_budget => {
                let reason = search.budget.reason(search.stats.expanded, false);
                return Outcome::out_of(reason, search.stats);
            }
            Some(u32::MAX) => {
                return Outcome::without_path(super::Status::Unsolvable, search.stats);
            }
            Some(next) => bound = next,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Move, Shape};
    use crate::search::heuristic::{Heuristic, LinearConflict, Manhattan};
    use crate::search::{astar, idastar};
    use crate::util::Rng;

    /// The board `n` random moves (those off the board skipped) lead to from `goal`.
    fn random_walk(goal: Board, n: usize, rng: &mut Rng) -> Board {
        let mut b = goal;
        for _ in 0..n {
            if let Some(next) = b.apply(Move::from_index(rng.index(4) as u8)) {
                b = next;
            }
        }
        b
    }

    /// A 5x5 board one move from the goal is solved in one move (the example this function's
    /// documentation gave while it was public).
    #[test]
    fn a_5x5_board_one_move_away_is_one_move() {
        let goal = Board::standard_goal("5x5".parse().unwrap());
        let start = goal.apply(Move::Up).unwrap();
        let p = Problem::new(start, goal).unwrap();
        let out = solve(
            &p,
            &SolveOptions::default(),
            &Estimate::new(&goal, true),
            Mode::Astar,
        );
        assert_eq!(out.steps(), Some(1));
    }

    /// On 3x3 and 4x4 boards, where the tuned searches run, the byte-a-cell searches give
    /// the same estimates and the same optimal lengths, and their paths replay to the goal.
    #[test]
    fn wide_searches_agree_with_the_tuned_ones_on_small_boards() {
        let mut rng = Rng::new(8);
        let opts = SolveOptions::default();
        for (shape, depth) in [(Shape::S3X3, 60), (Shape::S4X4, 40)] {
            let goal = Board::standard_goal(shape);
            for _ in 0..25 {
                let start = random_walk(goal, depth, &mut rng);
                let p = Problem::new(start, goal).unwrap();
                let (md, lc) = (Manhattan::new(&goal), LinearConflict::new(&goal));
                let (wmd, wlc) = (Estimate::new(&goal, false), Estimate::new(&goal, true));
                assert_eq!(wmd.of(&start.tiles()), md.estimate(&start), "{start}");
                assert_eq!(wlc.of(&start.tiles()), lc.estimate(&start), "{start}");
                let want = astar::solve(&p, &opts, &lc).steps().unwrap();
                assert_eq!(idastar::solve(&p, &opts, &md).steps(), Some(want));
                for (mode, est) in [(Mode::Astar, &wmd), (Mode::Astar, &wlc), (Mode::Ida, &wlc)] {
                    let out = solve(&p, &opts, est, mode);
                    let path = out.path.as_ref().expect("solved");
                    assert_eq!(path.len(), want, "{mode:?} on {start}");
                    assert_eq!(start.replay(path), Ok(goal));
                }
            }
        }
    }

    /// Korf's 50 24-puzzle instances (`inputs/korf50-24.csv`): each optimal length is at
    /// least the start's Manhattan distance and linear-conflict estimate and of the Manhattan
    /// distance's parity (every move changes it by one).
    #[test]
    fn korfs_50_lengths_fit_their_estimates() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/inputs/korf50-24.csv");
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("id,start,goal,expected_steps,korf_felner_nodes")
        );
        let mut seen = 0;
        for line in lines {
            let f: Vec<&str> = line.split(',').collect();
            let (id, start, goal): (&str, Board, Board) =
                (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
            let steps: u32 = f[3].parse().unwrap();
            let md = Estimate::new(&goal, false).of(&start.tiles());
            let lc = Estimate::new(&goal, true).of(&start.tiles());
            assert!(md <= lc && lc <= steps, "instance {id}: {md} {lc} {steps}");
            assert_eq!(md % 2, steps % 2, "instance {id}");
            seen += 1;
        }
        assert_eq!(seen, 50);
    }
}
