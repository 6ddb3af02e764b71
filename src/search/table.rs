//! `table`: exact distance tables, then an O(steps) walk down them.
//!
//! For boards of at most 9 cells, one [`DistanceTable`] per cell of the goal's blank holds
//! the exact distance of every arrangement (9 × 9! bytes = 3.3 MB for 3x3). Any goal is
//! relabelled onto the table for its blank cell, so nine tables answer every pair. They are
//! built once per process (in parallel, before a run starts timing cases: see [`prepare`])
//! and shared read-only by all threads. A case is then answered by the walk from the start to
//! a neighbour one move closer, step after step: a shortest path in O(steps). Every state's
//! walk is written out when the table is built ([`Walks`]), so a case reads its path.
//!
//! Counters: `expanded` is the states walked through (= steps), `generated` the neighbours
//! looked up; `stored` and `peak_frontier` are 0 (the table is built once, not per case).

use super::{Outcome, Problem, SolveError, Solver, Stats, Status};
use crate::puzzle::{Board, Move, Neighbors, Shape};
use crate::space::DistanceTable;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The largest board `table` takes.
pub(crate) const MAX_CELLS: usize = 9;

/// Every table of one shape, each built on first use.
pub(crate) struct TableSet {
    tables: Vec<OnceLock<Walks>>,
}

impl TableSet {
    fn table(&self, shape: Shape, blank: usize) -> &Walks {
        self.tables[blank].get_or_init(|| Walks::new(crate::space::canonical_goal(shape, blank)))
    }
}

/// Moves a [`Walks`] entry holds: 2 bits each in a `u64`.
const HELD: u8 = 32;

/// A distance table with every state's walk down it written out: the walk's first
/// [`HELD`] moves (2 bits each, the first lowest) and the neighbours it looks up (its
/// `generated`), so that a case is one rank and three reads, not a read and a rank update
/// for each step, each waiting for the one before. Longer walks (only 2x4 and 4x2 boards
/// have any: up to 36 moves) are walked step by step.
pub(crate) struct Walks {
    table: DistanceTable,
    moves: Vec<u64>,
    generated: Vec<u8>,
}

impl Walks {
    /// Builds the distance table to `goal` and writes out every state's walk while its
    /// search runs: a state's walk is its first move and then the walk of the state that
    /// move reaches, which is one level nearer and so already final when the search sets the
    /// state's move ([`DistanceTable::build_with`]). No state is unranked or ranked again
    /// after the search (a pass over the finished table did that for every state, and cost
    /// twice the search: the nine tables of a dataset with many goals were most of its
    /// preparation).
    fn new(goal: Board) -> Walks {
        let shape = goal.shape();
        let neighbors = Neighbors::of(shape);
        let n = crate::puzzle::factorial(shape.cells()) as usize;
        let mut moves = vec![0u64; n];
        // The neighbours looked up after the first step (the step from a state whose move
        // before is the walk's own), then with the first step's.
        let mut after = vec![0u8; n];
        let mut generated = vec![0u8; n];
        let looked = |blank: u8, last: u8, m: u8| {
            neighbors
                .index_of(blank as usize, last, m)
                .expect("a distance table always has a neighbour one move closer") as u8
                + 1
        };
        let table = DistanceTable::build_with(goal, |t| {
            let then = if t.parent_distance > 0 {
                looked(t.parent_blank, t.back, t.parent_toward) + after[t.parent]
            } else {
                0
            };
            moves[t.state] = u64::from(t.back) | moves[t.parent] << 2;
            after[t.state] = then;
            generated[t.state] = looked(t.blank, u8::MAX, t.back) + then;
        })
        .expect("shape checked");
        Walks {
            table,
            moves,
            generated,
        }
    }
}

fn registry() -> &'static Mutex<HashMap<Shape, Arc<TableSet>>> {
    static TABLES: OnceLock<Mutex<HashMap<Shape, Arc<TableSet>>>> = OnceLock::new();
    TABLES.get_or_init(|| Mutex::new(HashMap::new()))
}

thread_local! {
    /// The last table set this thread used, to skip the registry's lock on every case.
    static LAST: std::cell::RefCell<Option<(Shape, Arc<TableSet>)>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with the table set of `shape`, from this thread's cache when it holds that
/// shape (no lock, and no shared reference count touched on every case: two threads
/// cloning one `Arc` a million times a second fight over its counter).
fn with_tables<R>(shape: Shape, f: impl FnOnce(&TableSet) -> R) -> R {
    LAST.with(|l| {
        let mut last = l.borrow_mut();
        if !matches!(&*last, Some((s, _)) if *s == shape) {
            *last = Some((shape, shared_tables_for(shape)));
        }
        let (_, set) = last.as_ref().expect("just set");
        f(set)
    })
}

fn shared_tables_for(shape: Shape) -> Arc<TableSet> {
    let mut reg = registry().lock().expect("table registry");
    reg.entry(shape)
        .or_insert_with(|| {
            Arc::new(TableSet {
                tables: (0..shape.cells()).map(|_| OnceLock::new()).collect(),
            })
        })
        .clone()
}

/// Whether `table` takes boards of this shape.
///
/// # Errors
/// A shape of more than [`MAX_CELLS`] cells; the message suggests astar or idastar.
pub(crate) fn check(shape: Shape) -> Result<(), SolveError> {
    if shape.cells() > MAX_CELLS {
        return Err(SolveError::new(format!(
            "table holds exact distances for boards of at most {MAX_CELLS} cells; a {shape} board has {} \
             (its tables would need {}! bytes each): use astar or idastar",
            shape.cells(),
            shape.cells()
        )));
    }
    Ok(())
}

/// Builds the tables of `shape` for goals with the blank in `blanks` now, in parallel (so no
/// case pays for a build), and returns the shape's set.
pub(crate) fn prepare(shape: Shape, blanks: &[usize]) -> Arc<TableSet> {
    let set = shared_tables_for(shape);
    blanks.par_iter().for_each(|&b| {
        set.table(shape, b);
    });
    set
}

/// The registry entry.
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "table",
    describe: "exact distance tables built once per run, then an O(steps) walk",
    options: &[],
    make: super::registry::Make::Custom(|_| Box::new(Table::default())),
};

/// `table` behind the [`Solver`] trait: the tables of the run's shapes, built in `prepare`.
#[derive(Default)]
pub(crate) struct Table {
    /// The run's shapes and their tables (a run has one or two shapes: a list, not a hash
    /// map, is looked up for every case).
    sets: Vec<(Shape, Arc<TableSet>)>,
}

impl Solver for Table {
    fn name(&self) -> &str {
        "table"
    }
    fn optimal(&self) -> bool {
        true
    }
    fn supports(&self, shape: Shape) -> Result<(), SolveError> {
        check(shape)
    }
    fn prepare(&mut self, goals: &[Board], _ctx: &super::Prepare) -> Result<(), SolveError> {
        let mut blanks: HashMap<Shape, Vec<usize>> = HashMap::new();
        for g in goals.iter().filter(|g| check(g.shape()).is_ok()) {
            let b = blanks.entry(g.shape()).or_default();
            if !b.contains(&g.blank()) {
                b.push(g.blank());
            }
        }
        for (shape, b) in blanks {
            let set = prepare(shape, &b);
            match self.sets.iter_mut().find(|(s, _)| *s == shape) {
                Some(had) => had.1 = set,
                None => self.sets.push((shape, set)),
            }
        }
        Ok(())
    }
    fn solve(&self, problem: &Problem, _limits: &super::Limits) -> Result<Outcome, SolveError> {
        let shape = problem.start.shape();
        check(shape)?;
        // No parity test first (the harness judges every answer by parity): an unsolvable
        // start is one the table does not reach, and the walk says so as `shortcut` would,
        // and a start that is the goal is a walk of no step.
        Ok(match self.sets.iter().find(|(s, _)| *s == shape) {
            Some((_, set)) => walk(problem, set.table(shape, problem.goal.blank())),
            None => solve(problem),
        })
    }
}

/// Callers check the shape first ([`check`]).
pub(crate) fn solve(problem: &Problem) -> Outcome {
    let shape = problem.start.shape();
    with_tables(shape, |set| {
        walk(problem, set.table(shape, problem.goal.blank()))
    })
}

/// The path down the table from the start to the goal, one neighbour a step closer, as
/// [`Walks`] holds it written out (or as [`walk_steps`] walks it, when it is longer than an
/// entry holds).
fn walk(problem: &Problem, walks: &Walks) -> Outcome {
    let table = &walks.table;
    let b = table.relabelled(&problem.start, &problem.goal);
    let r = table.ranker().rank(b.packed()) as usize;
    let Some((d, _)) = table.step_at(r as u64) else {
        return Outcome::without_path(Status::Unsolvable, Stats::default());
    };
    if d > HELD {
        return walk_steps(problem, table);
    }
    let (bits, generated) = (walks.moves[r], walks.generated[r]);
    let path = (0..d)
        .map(|i| Move::from_index((bits >> (2 * i)) as u8 & 3))
        .collect();
    let stats = Stats {
        expanded: u64::from(d),
        generated: u64::from(generated),
        ..Stats::default()
    };
    Outcome::solved(path, stats)
}

/// The path down the table from the start to the goal, one neighbour a step closer. The
/// board's rank follows it move by move ([`crate::puzzle::Lehmer`]): a step reads the
/// table at a rank updated by the few digits the move changed, not a whole new rank.
fn walk_steps(problem: &Problem, table: &DistanceTable) -> Outcome {
    let shape = problem.start.shape();
    let mut stats = Stats::default();
    let ranker = table.ranker();
    let mut b = ranker.lehmer(&table.relabelled(&problem.start, &problem.goal));
    let Some((d, mut toward)) = table.step_at(b.rank()) else {
        return Outcome::without_path(Status::Unsolvable, stats);
    };
    let neighbors = Neighbors::of(shape);
    let mut path = Vec::with_capacity(d as usize);
    let mut last = u8::MAX;
    for left in (1..=d).rev() {
        stats.expanded += 1;
        let blank = b.board().blank();
        // The table's first move a step closer: the neighbour a walk trying the children in
        // move order would stop at, so `generated` counts the children up to it.
        let Some(at) = neighbors.index_of(blank, last, toward) else {
            unreachable!("a distance table always has a neighbour one move closer");
        };
        stats.generated += at as u64 + 1;
        b.slide(ranker, neighbors.target(blank, toward as usize) as usize);
        last = toward;
        path.push(Move::from_index(toward));
        if left > 1 {
            toward = table.toward_at(b.rank());
        }
    }
    Outcome::solved(path, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{canonical_goal, relabel};

    /// The walk as it was before the rank followed the board: a whole rank per step.
    fn walk_ranking_each_step(problem: &Problem, table: &DistanceTable) -> Outcome {
        let shape = problem.start.shape();
        let mut stats = Stats::default();
        let mut b: Board = relabel(&problem.start, &problem.goal);
        let Some((d, mut toward)) = table.step(&b) else {
            return Outcome::without_path(Status::Unsolvable, stats);
        };
        let neighbors = Neighbors::of(shape);
        let mut path = Vec::new();
        let mut last = u8::MAX;
        for left in (1..=d).rev() {
            stats.expanded += 1;
            let at = neighbors.index_of(b.blank(), last, toward).unwrap();
            stats.generated += at as u64 + 1;
            b = b.slide_blank_to(neighbors.target(b.blank(), toward as usize) as usize);
            last = toward;
            path.push(Move::from_index(toward));
            if left > 1 {
                toward = table.step(&b).unwrap().1;
            }
        }
        Outcome::solved(path, stats)
    }

    /// On every shape `table` takes, with goals of every blank cell (and non-canonical
    /// names), the walk's outcome (path, counters, status) is the full-rank walk's, for
    /// solvable and unsolvable starts scrambled by random walks and starts that are the goal
    /// (which a parity test answered before the walk, with the same outcome).
    #[test]
    fn the_walk_by_incremental_rank_is_the_walk_by_whole_ranks() {
        let mut rng = crate::util::Rng::new(17);
        let (mut walked, mut long) = (0, 0);
        for (w, h) in crate::puzzle::TEST_SHAPES {
            let shape = Shape::new(w, h).unwrap();
            if check(shape).is_err() {
                continue;
            }
            let nb = Neighbors::of(shape);
            let tables: Vec<Walks> = (0..shape.cells())
                .map(|blank| Walks::new(canonical_goal(shape, blank)))
                .collect();
            for blank in 0..shape.cells() {
                // A goal with its own names: a canonical goal scrambled; its table is the
                // one of its blank cell.
                let goal = nb.random_walk(canonical_goal(shape, blank), 31, &mut rng);
                let table = &tables[goal.blank()];
                // The farthest starts too: on 2x4 and 4x2 their walks are longer than an
                // entry holds.
                let far = table.table.max_distance() as u8;
                let farthest = table.table.states_at(far);
                for k in 0..60 + farthest.len().min(4) {
                    let n = rng.index(80);
                    let mut start = nb.random_walk(goal, n, &mut rng);
                    if k >= 60 {
                        start = crate::space::unlabel(&farthest[k - 60], &goal);
                    }
                    if k % 4 == 3 {
                        start = start.with_parity_flipped();
                    }
                    if k % 8 == 5 {
                        start = goal;
                    }
                    let p = Problem { start, goal };
                    // As before the walk answered unsolvable and trivial pairs itself too.
                    let want = crate::search::shortcut(&p, false)
                        .unwrap_or_else(|| walk_ranking_each_step(&p, &table.table));
                    // Written out (when it fits), and walked step by step.
                    for got in [walk(&p, table), walk_steps(&p, &table.table)] {
                        assert_eq!(got.status, want.status, "{shape} {start} → {goal}");
                        assert_eq!(got.path, want.path, "{shape} {start} → {goal}");
                        assert_eq!(got.stats, want.stats, "{shape} {start} → {goal}");
                    }
                    long += usize::from(got_len(&want) > usize::from(HELD));
                    walked += 1;
                }
            }
        }
        assert!(walked > 1000);
        assert!(long > 0, "no walk was longer than an entry holds");
    }

    /// The walks as they were written out before the search did it: level by level over the
    /// finished table, each state unranked and the state its move reaches ranked again.
    fn walks_by_levels(table: &DistanceTable) -> (Vec<u64>, Vec<u8>) {
        let neighbors = Neighbors::of(table.goal().shape());
        let ranker = table.ranker();
        let n = table.len();
        let (mut moves, mut after, mut generated) = (vec![0u64; n], vec![0u8; n], vec![0u8; n]);
        let looked =
            |blank: usize, last: u8, m: u8| neighbors.index_of(blank, last, m).unwrap() as u8 + 1;
        for (d, ranks) in table.ranks_by_distance().iter().enumerate().skip(1) {
            for &r in ranks {
                let b = table.unrank(r);
                let m = table.toward_at(r);
                let next = b.slide_blank_to(neighbors.target(b.blank(), m as usize) as usize);
                let q = ranker.rank(next.packed()) as usize;
                let then = if d > 1 {
                    looked(next.blank(), m, table.toward_at(q as u64)) + after[q]
                } else {
                    0
                };
                moves[r as usize] = u64::from(m) | moves[q] << 2;
                after[r as usize] = then;
                generated[r as usize] = looked(b.blank(), u8::MAX, m) + then;
            }
        }
        (moves, generated)
    }

    /// On every shape `table` takes and every cell of the goal's blank, the walks written
    /// out during the search are, state for state, the ones a pass over the finished table
    /// writes, and the table itself is [`DistanceTable::build`]'s.
    #[test]
    fn walks_written_during_the_search_are_the_walks_written_after_it() {
        let mut states = 0;
        for (w, h) in crate::puzzle::TEST_SHAPES {
            let shape = Shape::new(w, h).unwrap();
            if check(shape).is_err() {
                continue;
            }
            for blank in 0..shape.cells() {
                let goal = canonical_goal(shape, blank);
                let walks = Walks::new(goal);
                let plain = DistanceTable::build(goal).unwrap();
                let (moves, generated) = walks_by_levels(&plain);
                for r in 0..plain.len() as u64 {
                    assert_eq!(
                        walks.table.step_at(r),
                        plain.step_at(r),
                        "{shape} blank {blank} rank {r}"
                    );
                }
                assert!(walks.moves == moves, "{shape} blank {blank}: moves differ");
                assert!(
                    walks.generated == generated,
                    "{shape} blank {blank}: generated differ"
                );
                assert!(generated.iter().any(|&g| g > 0));
                states += plain.len();
            }
        }
        assert!(states > 9 * 362_880, "3x3 was not among the shapes");
    }

    /// A pair with an arbitrary goal (random names, blank anywhere), answered through the
    /// shared table of its blank cell (relabelled onto the canonical goal), gets the length
    /// its own table (a search from that very goal) gives, and a path that replays from the
    /// start to the goal; a start of the other parity is unsolvable, as its own table says.
    #[test]
    fn an_arbitrary_goal_through_the_shared_table_is_answered_as_by_its_own() {
        let mut rng = crate::util::Rng::new(43);
        let mut checked = 0;
        for (w, h) in crate::puzzle::TEST_SHAPES {
            let shape = Shape::new(w, h).unwrap();
            if check(shape).is_err() {
                continue;
            }
            let nb = Neighbors::of(shape);
            for _ in 0..6 {
                let goal = nb.random_walk(
                    canonical_goal(shape, rng.index(shape.cells() as u64) as usize),
                    40,
                    &mut rng,
                );
                let own = DistanceTable::build(goal).unwrap();
                for k in 0..40 {
                    let mut start = nb.random_walk(goal, rng.index(60), &mut rng);
                    if k % 5 == 4 {
                        start = start.with_parity_flipped();
                    }
                    let got = solve(&Problem { start, goal });
                    match own.distance(&start) {
                        Some(d) => {
                            assert_eq!(got.status, Status::Solved, "{start} → {goal}");
                            let path = got.path.as_ref().unwrap();
                            assert_eq!(path.len(), usize::from(d), "{start} → {goal}");
                            assert_eq!(start.replay(path).unwrap(), goal, "{start} → {goal}");
                        }
                        None => assert_eq!(got.status, Status::Unsolvable, "{start} → {goal}"),
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 500);
    }

    fn got_len(o: &Outcome) -> usize {
        o.path.as_ref().map_or(0, Vec::len)
    }
}
