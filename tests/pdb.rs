//! Pattern databases: admissible (never above the true distance, checked against BFS),
//! at least Manhattan, and IDA*/A* with them find optimal paths; the cache file is reused,
//! and a damaged file is rebuilt.

use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use std::sync::Arc;
use tilebench::puzzle::{is_solvable, Board, Move, Shape};
use tilebench::search::heuristic::{Heuristic, HeuristicKind, Manhattan};
use tilebench::search::pdb::{self, load_or_build, Partition, Pdb, PdbConfig};
use tilebench::search::{Problem, SolveOptions, Strategy};

fn pdb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-tests")
}

fn heuristic(goal: &Board, partition: &str) -> Pdb {
    let p = Partition::parse(partition, goal.shape()).unwrap();
    Pdb::new(
        goal,
        pdb::shared(goal.shape(), goal.blank(), &p, &pdb_dir()),
    )
}

fn bfs_distance(start: Board, goal: Board) -> u32 {
    Strategy::BfsHashSet
        .solve(
            &Problem::new(start, goal).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap()
        .steps()
        .unwrap() as u32
}

fn board(shape: Shape) -> impl proptest::strategy::Strategy<Value = Board> {
    Just((0..shape.cells() as u8).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(move |t: Vec<u8>| Board::from_tiles(shape, &t))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn admissible_and_above_manhattan_on_3x3(start in board(Shape::S3X3), goal in board(Shape::S3X3)) {
        prop_assume!(is_solvable(&start, &goal));
        let h = heuristic(&goal, "4-4").estimate(&start);
        prop_assert!(h >= Manhattan::new(&goal).estimate(&start));
        prop_assert!(h <= bfs_distance(start, goal), "pdb {} above the true distance", h);
    }

    #[test]
    fn admissible_on_shallow_4x4(moves in proptest::collection::vec(0u8..4, 0..24)) {
        // Korf's goal (blank first) and the standard one (blank last): both corner layouts.
        for goal in [
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse::<Board>().unwrap(),
            Board::standard_goal(Shape::S4X4),
        ] {
            let mut start = goal;
            for &m in &moves {
                if let Some(b) = start.apply(Move::from_index(m)) {
                    start = b;
                }
            }
            let h = heuristic(&goal, "5-5-5");
            let v = h.estimate(&start);
            prop_assert!(v >= Manhattan::new(&goal).estimate(&start));
            prop_assert!(v <= bfs_distance(start, goal), "pdb {} above the true distance", v);
            // The incremental update agrees with a full estimate after each move.
            let mut b = goal;
            let mut hv = 0;
            for &m in &moves {
                let Some(next) = b.apply(Move::from_index(m)) else { continue };
                let tile = b.tile(next.blank());
                hv = h.update(hv, &next, tile, next.blank(), b.blank());
                b = next;
                prop_assert_eq!(hv, h.estimate(&b));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A single group holding every tile makes every move cost 1: the table is then the
    /// exact distance, an end-to-end check of the builder against BFS.
    #[test]
    fn one_group_of_all_tiles_is_exact_on_3x3(start in board(Shape::S3X3), goal in board(Shape::S3X3)) {
        prop_assume!(is_solvable(&start, &goal));
        prop_assert_eq!(heuristic(&goal, "8").estimate(&start), bfs_distance(start, goal));
    }
}

#[test]
fn idastar_and_astar_with_pdb_are_optimal_on_2x3_and_3x3() {
    pdb::configure(PdbConfig {
        dir: Some(pdb_dir()),
        partition: None,
    });
    let opts = SolveOptions {
        heuristic: HeuristicKind::Pdb,
        ..SolveOptions::default()
    };
    for (start, goal) in [
        ("2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x"),
        ("2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2"),
    ] {
        let p = Problem::new(start.parse().unwrap(), goal.parse().unwrap()).unwrap();
        let want = bfs_distance(p.start, p.goal) as usize;
        for s in [Strategy::Idastar, Strategy::Astar] {
            let out = s.solve(&p, &opts).unwrap();
            assert_eq!(out.steps(), Some(want), "{s}");
            assert_eq!(p.start.replay(out.path.as_ref().unwrap()).unwrap(), p.goal);
        }
    }
}

#[test]
fn cache_files_are_reused_and_damaged_ones_rebuilt() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-cache-test");
    let _ = std::fs::remove_dir_all(&dir);
    let shape: Shape = "3x2".parse().unwrap();
    let p = Partition::parse("3-2", shape).unwrap();
    let log = std::sync::Mutex::new(Vec::new());
    let say = |l: String| log.lock().unwrap().push(l);
    let first = load_or_build(shape, 5, &p, &dir, &say);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 2);
    let again = load_or_build(shape, 5, &p, &dir, &say);
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains("loaded"))
            .count()
            == 2
    );
    // Flip a byte of one table: the checksum catches it and the table is rebuilt.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let i = bytes.len() - 20;
    bytes[i] ^= 0xFF;
    std::fs::write(&files[0], bytes).unwrap();
    let rebuilt = load_or_build(shape, 5, &p, &dir, &say);
    assert!(
        log.lock().unwrap().iter().any(|l| l.contains("damaged")),
        "{:?}",
        log.lock().unwrap()
    );
    // Built, loaded and rebuilt tables give the same estimates everywhere.
    let goal = Board::standard_goal(shape);
    let [a, b, c] = [first, again, rebuilt].map(|set| Pdb::new(&goal, Arc::new(set)));
    let mut s = goal;
    for i in 0..40u8 {
        if let Some(n) = s.apply(Move::from_index((i as u32 * 7 % 4) as u8)) {
            s = n;
        }
        assert_eq!(a.estimate(&s), b.estimate(&s));
        assert_eq!(a.estimate(&s), c.estimate(&s));
    }
}
