//! Pattern databases on 5x5 (`search::wide_pdb`), with small partitions so that the tests
//! build their tables in moments (the 6-6-6-6 tables are built by `scripts/bench.sh
//! --korf24`, never here): the estimates are admissible along optimal paths,
//! the reflected sum is at least the regular one, and IDA* with them finds paths as short as
//! IDA* with Manhattan distance, every path replayed.

use crate::common::{run_ok, temp_dir, walk};
use tilebench::observe::Silent;
use tilebench::puzzle::{Board, Shape};
use tilebench::search::pdb::{self, LookupMode, Partition};
use tilebench::search::wide::{self, Estimate, Mode};
use tilebench::search::wide_pdb::{self, WidePdb};
use tilebench::search::{Problem, SolveOptions};
use tilebench::util::Rng;

fn pdb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb24-tests")
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
fn replay(start: Board, path: &[tilebench::puzzle::Move]) -> Vec<Board> {
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
    let mut longer = 0;
    for goal in goals() {
        for partition in ["3-3-3-3-3-3-3-3", "4-4-4-4-4-4"] {
            let p = Partition::parse(partition, Shape::S5X5).unwrap();
            let set = pdb::shared(Shape::S5X5, goal.blank(), &p, &pdb_dir(), &Silent);
            let regular = WidePdb::new(&goal, set.clone(), LookupMode::Regular);
            let reflected = WidePdb::new(&goal, set, LookupMode::Max);
            assert!(!regular.reflects() && reflected.reflects());
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
                for h in [&regular, &reflected] {
                    let out = wide_pdb::ida(&problem, &opts, h);
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
                    let (r, f) = (regular.estimate(&b), reflected.estimate(&b));
                    assert!(f >= r && r >= manhattan.of(&b.tiles()), "{b}");
                    longer += u32::from(f > r);
                }
            }
        }
    }
    // The reflection adds something somewhere, or it would not be tested.
    assert!(longer > 0, "the reflected sum never exceeded the regular");
}

fn path_of(problem: &Problem, h: &WidePdb) -> Vec<tilebench::puzzle::Move> {
    wide_pdb::ida(problem, &SolveOptions::default(), h)
        .path
        .unwrap()
}

/// `run` on 5x5 with `idastar:heuristic=pdb` and a small partition, under `--check`: every
/// row verified against gen's exact answers; `lookup=dual` is refused with a sentence.
#[test]
fn a_5x5_run_with_pattern_databases_checks() {
    let dir = temp_dir("pdb24-run");
    let data = dir.join("w.csv");
    run_ok(&[
        "gen",
        "--size",
        "5x5",
        "--walk",
        "40",
        "-n",
        "8",
        "--seed",
        "5",
        "-o",
        data.to_str().unwrap(),
    ]);
    let pdb_dir = pdb_dir();
    let out = run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "idastar:heuristic=pdb:partition=3-3-3-3-3-3-3-3",
        "-s",
        "idastar-tt:heuristic=pdb:partition=4-4-4-4-4-4:lookup=regular",
        "--pdb-dir",
        pdb_dir.to_str().unwrap(),
        "--check",
        "-o",
        dir.join("r").to_str().unwrap(),
    ]);
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("check: passed: all 16 answered rows verified"),
        "{text}"
    );
    let cfg = tilebench::search::Config::default()
        .with(&tilebench::search::heuristic::HEURISTIC, "pdb")
        .and_then(|c| c.with(&pdb::LOOKUP, "dual"))
        .unwrap();
    let e = tilebench::search::registry::find("idastar")
        .unwrap()
        .build(&cfg)
        .supports(Shape::S5X5)
        .unwrap_err()
        .to_string();
    assert!(e.contains("regular and reflected lookups only"), "{e}");
}
