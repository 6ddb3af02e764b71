//! Pattern databases on 5x5 with small partitions (their tables built in moments, cached
//! beside the integration tests'): the estimates are admissible along optimal paths, the
//! reflected sum is at least the regular one, the dual estimates are the regular sums on the
//! dual boards, and IDA* with them finds paths as short as IDA* with Manhattan distance,
//! every path replayed.

use super::*;
use crate::observe::Silent;
use crate::puzzle::{Board, Move, Shape};
use crate::search::fsm::Prune;
use crate::search::pdb::{self, LookupMode, Partition};
use crate::search::wide::{self, Estimate, Mode};
use crate::search::{Problem, SolveOptions};
use crate::util::Rng;

/// The board `moves` (indices of `Move::from_index`; those off the board skipped) lead to
/// from `goal`.
fn walk(goal: Board, moves: &[u8]) -> Board {
    let mut b = goal;
    for &m in moves {
        if let Some(next) = b.apply(Move::from_index(m)) {
            b = next;
        }
    }
    b
}

fn pdb_dir() -> std::path::PathBuf {
    // The integration tests' cache (tests/all/pdb24.rs), where the default target directory is:
    // the tables are built once for both.
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp/pdb24-tests")
}

/// Korf's goal (blank first) and the standard one (blank last).
fn goals() -> [Board; 2] {
    let korf: Board = (0..25)
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
        .parse()
        .unwrap();
    [korf, Board::standard_goal(Shape::S5X5)]
}

/// The boards along `path` from `start`, both ends included.
fn replay(start: Board, path: &[Move]) -> Vec<Board> {
    let mut boards = vec![start];
    for &m in path {
        let next = boards
            .last()
            .unwrap()
            .apply(m)
            .expect("a move on the board");
        boards.push(next);
    }
    boards
}

#[test]
fn small_5x5_tables_give_optimal_paths_and_admissible_estimates() {
    let mut rng = Rng::new(24);
    let (mut longer, mut dual_higher) = (0, 0);
    let mut nodes = (0u64, 0u64);
    for goal in goals() {
        for partition in ["3-3-3-3-3-3-3-3", "4-4-4-4-4-4"] {
            let p = Partition::parse(partition, Shape::S5X5).unwrap();
            let set = pdb::shared(Shape::S5X5, goal.blank(), &p, &pdb_dir(), &Silent);
            let regular = WidePdb::new(&goal, set.clone(), LookupMode::Regular);
            let reflected = WidePdb::new(&goal, set.clone(), LookupMode::Reflected);
            let max = WidePdb::new(&goal, set.clone(), LookupMode::Max);
            let eager = WidePdb::new(&goal, set.clone(), LookupMode::Eager);
            let ranked = WidePdb::ranked(&goal, set, LookupMode::Max);
            assert!(!regular.reflects() && reflected.reflects() && max.reflects());
            assert!(!reflected.duals() && max.duals() && eager.duals() && ranked.duals());
            let manhattan = Estimate::new(&goal, false);
            for _ in 0..12 {
                let moves: Vec<u8> = (0..40 + rng.index(20))
                    .map(|_| rng.index(4) as u8)
                    .collect();
                let start = walk(goal, &moves);
                let problem = Problem::new(start, goal).unwrap();
                let opts = SolveOptions::default();
                let want = wide::solve(&problem, &opts, &manhattan, Mode::Ida)
                    .steps()
                    .unwrap();
                // The direct layout and the ranked one search alike, node for node.
                let (a, b) = (
                    ida(&problem, &opts, &max, Prune::Fsm),
                    ida(&problem, &opts, &ranked, Prune::Fsm),
                );
                assert_eq!(a.path, b.path, "{partition} {start}");
                assert_eq!(a.stats.generated, b.stats.generated, "{partition} {start}");
                // Leaving out only the moves straight back finds as short a path; over all
                // the boards, with more nodes (on one board the goal can come sooner).
                for h in [&reflected, &max] {
                    let parent = ida(&problem, &opts, h, Prune::Parent);
                    let fsm = ida(&problem, &opts, h, Prune::Fsm);
                    assert_eq!(parent.steps(), fsm.steps(), "{partition} {start}");
                    nodes.0 += fsm.stats.generated;
                    nodes.1 += parent.stats.generated;
                }
                for h in [&regular, &reflected, &max, &eager] {
                    let out = ida(&problem, &opts, h, Prune::Fsm);
                    let path = out.path.clone().unwrap();
                    let boards = replay(start, &path);
                    assert_eq!(*boards.last().unwrap(), goal, "{partition} {start}");
                    assert_eq!(path.len(), want, "{partition} {start}");
                    // Along an optimal path the distance falls by one a move: every
                    // estimate is at most it, and of its parity. (Not consistent: a value
                    // is the least over the blank's regions, and where a group walls cells
                    // off, one move can lower it by more than one.)
                    for (i, b) in boards.iter().enumerate() {
                        let (e, left) = (h.estimate(b), (path.len() - i) as u32);
                        assert!(e <= left, "{partition} {b}: {e} > {left}");
                        assert_eq!(e % 2, left % 2, "{partition} {b}: parity");
                    }
                }
                for b in replay(start, &path_of(&problem, &reflected)) {
                    let (r, f, m) = (
                        regular.estimate(&b),
                        reflected.estimate(&b),
                        max.estimate(&b),
                    );
                    assert!(m >= f && f >= r && r >= manhattan.of(&b.tiles()), "{b}");
                    assert_eq!(m, ranked.estimate(&b), "{b}: the layouts disagree");
                    longer += u32::from(f > r);
                    dual_higher += u32::from(m > f);
                }
            }
        }
    }
    // The reflection adds something somewhere, or it would not be tested.
    assert!(longer > 0, "the reflected sum never exceeded the regular");
    assert!(nodes.0 < nodes.1, "the machine left out nothing: {nodes:?}");
    assert!(dual_higher > 0, "the dual sums never exceeded the others");
}

/// The board's dual boards built from their definition (`φ⁻¹∘p⁻¹∘φ`, `p` taking each cell
/// to its tile's goal cell, for every symmetry `φ` that takes the goal's blank cell to the
/// board's): each is as far from the goal as the board (IDA* with Manhattan distance finds
/// paths of one length), and the regular sum on it is one of the board's dual estimates.
#[test]
fn the_dual_estimates_are_the_regular_sums_on_the_dual_boards() {
    let mut rng = Rng::new(55);
    let p = Partition::parse("4-4-4-4-4-4", Shape::S5X5).unwrap();
    for goal in goals() {
        let set = pdb::shared(Shape::S5X5, goal.blank(), &p, &pdb_dir(), &Silent);
        let regular = WidePdb::new(&goal, set.clone(), LookupMode::Regular);
        let max = WidePdb::new(&goal, set, LookupMode::Max);
        let manhattan = Estimate::new(&goal, false);
        let maps = pdb::symmetry_maps(Shape::S5X5);
        let mut goal_cell = [0usize; 25];
        for c in 0..25 {
            goal_cell[goal.tile(c) as usize] = c;
        }
        let mut checked = 0;
        while checked < 30 {
            let moves: Vec<u8> = (0..24 + rng.index(10))
                .map(|_| rng.index(4) as u8)
                .collect();
            let board = walk(goal, &moves);
            let phis: Vec<&Vec<u8>> = maps
                .iter()
                .filter(|m| m[goal.blank()] as usize == board.blank())
                .collect();
            if phis.is_empty() {
                assert!(max.dual_estimates(&board).is_empty(), "{board}");
                continue;
            }
            let mut want: Vec<u32> = phis
                .iter()
                .map(|phi| {
                    let mut inv = [0usize; 25];
                    for (c, &x) in phi.iter().enumerate() {
                        inv[x as usize] = c;
                    }
                    // The tile that belongs on `h` sits at φ⁻¹ of the goal cell of the
                    // tile on φ(h).
                    let mut tiles = [0u8; 25];
                    for h in 0..25 {
                        let on = board.tile(phi[h] as usize);
                        tiles[inv[goal_cell[on as usize]]] = goal.tile(h);
                    }
                    let dual = Board::from_tiles(Shape::S5X5, &tiles);
                    let opts = SolveOptions::default();
                    let steps = |b: Board| {
                        let problem = Problem::new(b, goal).unwrap();
                        wide::solve(&problem, &opts, &manhattan, Mode::Ida)
                            .steps()
                            .unwrap()
                    };
                    assert_eq!(steps(dual), steps(board), "{board}: its dual {dual}");
                    regular.estimate(&dual)
                })
                .collect();
            let mut got = max.dual_estimates(&board);
            want.sort();
            got.sort();
            assert_eq!(got, want, "{board}");
            checked += 1;
        }
    }
}

fn path_of(problem: &Problem, h: &WidePdb) -> Vec<Move> {
    ida(problem, &SolveOptions::default(), h, Prune::Fsm)
        .path
        .unwrap()
}
