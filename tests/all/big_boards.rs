//! Boards of more than 16 cells (5x5, 6x6, 7x7): read and written back, searched by the
//! strategies that need no table (`search::wide`, whose searches against the tuned ones on
//! small boards are its unit tests), refused by the others with a sentence, and run end to
//! end from `gen` to cases.csv.

use crate::common::{col, read_csv, run_ok, temp_dir, walk, Rng};
use tilebench::puzzle::{is_solvable, Board, Shape};
use tilebench::search::heuristic::HeuristicKind;
use tilebench::search::{registry, Config, Limits, Problem, Status};

fn config(heuristic: HeuristicKind, weight: &str) -> Config {
    Config::default()
        .with(&tilebench::search::heuristic::HEURISTIC, heuristic.name())
        .and_then(|c| c.with(&tilebench::search::wastar::WEIGHT, weight))
        .unwrap()
}

fn random_walk(goal: Board, n: usize, rng: &mut Rng) -> Board {
    let moves: Vec<u8> = (0..n).map(|_| rng.index(4) as u8).collect();
    walk(goal, &moves)
}

/// Boards of 25, 36 and 49 cells (and oblong ones) are read from any of the blank's
/// spellings and written back as read; a square's size is its cell count; 64 cells are
/// refused with the limit named.
#[test]
fn big_boards_read_and_write_back() {
    let mut rng = Rng::new(3);
    for (w, h) in [(5, 5), (6, 6), (7, 7), (5, 4), (2, 24)] {
        let shape = Shape::new(w, h).unwrap();
        for _ in 0..20 {
            let b = random_walk(Board::standard_goal(shape), 500, &mut rng);
            let text = b.to_string();
            assert_eq!(Board::parse(&text, Some(shape)), Ok(b));
            assert_eq!(Board::parse(&b.format_with("0"), Some(shape)), Ok(b));
            assert_eq!(
                Board::parse(&b.format_with("_").replace(' ', ","), Some(shape)),
                Ok(b)
            );
            if w == h {
                assert_eq!(text.parse::<Board>(), Ok(b));
            }
            assert_eq!(b.tiles().len(), w * h);
        }
    }
    let too_big: Vec<String> = (0..64).map(|t| t.to_string()).collect();
    let e = Board::parse(&too_big.join(" "), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("64 cells"), "{e}");
    let e = "8x8".parse::<Shape>().unwrap_err().to_string();
    assert!(e.contains("at most 49"), "{e}");
}

/// Shallow 5x5 and 6x6 boards (random walks): astar, idastar and idastar-tt with Manhattan
/// and with linear conflict agree on the length, no longer than the walk; every path replays
/// to the goal.
#[test]
fn shallow_big_boards_are_solved_optimally_and_the_strategies_agree() {
    let mut rng = Rng::new(12);
    for (shape, depth) in [(Shape::S5X5, 36), (Shape::new(6, 6).unwrap(), 30)] {
        let goal = Board::standard_goal(shape);
        for _ in 0..4 {
            let start = random_walk(goal, depth, &mut rng);
            let p = Problem::new(start, goal).unwrap();
            let mut lengths = Vec::new();
            for name in ["astar", "idastar", "idastar-tt"] {
                for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                    let out = registry::find(name)
                        .unwrap()
                        .solve_once(&config(h, "1"), &p, &Limits::default())
                        .unwrap();
                    assert_eq!(out.status, Status::Solved, "{name} {h} on {start}");
                    let path = out.path.unwrap();
                    assert_eq!(start.replay(&path), Ok(goal), "{name} {h}");
                    lengths.push((name, h, path.len()));
                }
            }
            assert!(
                lengths.iter().all(|l| l.2 == lengths[0].2 && l.2 <= depth),
                "{start}: {lengths:?}"
            );
        }
    }
}

/// Random 5x5, 6x6 and 7x7 boards from `gen` (drawn uniformly) are solved by wastar
/// (weight 3, and 10 on 7x7) and greedy with linear conflict; every path replays to its
/// goal; on 5x5 walks whose optimum gen found, wastar (weight 1.5) stays within its weight.
#[test]
fn random_big_boards_from_gen_are_solved_by_wastar_and_greedy() {
    let dir = temp_dir("big-gen");
    let sets: [(&str, &[&str], &str); 4] = [
        ("5x5", &[], "3"),
        ("6x6", &[], "3"),
        ("7x7", &[], "10"),
        ("5x5", &["--walk", "40"], "1.5"),
    ];
    let mut within = 0;
    for (i, (size, extra, weight)) in sets.iter().enumerate() {
        let file = dir.join(format!("{i}.csv"));
        let mut args = vec!["gen", "--size", size, "--count", "3", "--seed", "21", "-o"];
        args.push(file.to_str().unwrap());
        args.extend_from_slice(extra);
        run_ok(&args);
        let (header, rows) = read_csv(&file);
        assert_eq!(rows.len(), 3);
        for row in rows {
            let start: Board = row[col(&header, "start")].parse().unwrap();
            let goal: Board = row[col(&header, "goal")].parse().unwrap();
            assert_eq!(start.shape().to_string(), *size);
            assert!(
                is_solvable(&start, &goal),
                "gen's pairs are solvable by default"
            );
            let p = Problem::new(start, goal).unwrap();
            let cfg = config(HeuristicKind::LinearConflict, weight);
            for name in ["wastar", "greedy"] {
                let out = registry::find(name)
                    .unwrap()
                    .solve_once(&cfg, &p, &Limits::default())
                    .unwrap();
                assert_eq!(out.status, Status::Solved, "{name} on {size} {start}");
                let path = out.path.unwrap();
                assert_eq!(start.replay(&path), Ok(goal), "{name} on {size}");
                let expected = &row[col(&header, "expected_steps")];
                if name == "wastar" && !expected.is_empty() {
                    let optimum: u64 = expected.parse().unwrap();
                    assert!(
                        path.len() as u64
                            <= tilebench::search::wastar::WEIGHT.get(&cfg).times(optimum)
                    );
                    within += 1;
                }
            }
        }
    }
    assert!(within > 0, "gen found no optimum of a 5x5 walk of 40 moves");
}

/// The strategies that store every state or index the whole space, and the heuristics
/// with tables (but IDA\* with pattern databases up to 25 cells), refuse a 5x5 board through
/// `supports`, with a sentence that says what to use.
#[test]
fn table_and_breadth_first_strategies_refuse_big_boards_with_a_sentence() {
    for shape in [
        Shape::S5X5,
        Shape::new(7, 7).unwrap(),
        Shape::new(2, 9).unwrap(),
    ] {
        for name in [
            "bfs-set",
            "bfs-hash",
            "bfs-hashset",
            "bfs-rank",
            "bibfs",
            "table",
            "dida",
        ] {
            let e = registry::find(name)
                .unwrap()
                .build(&Config::default())
                .supports(shape)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("16 cells") || e.contains("9 cells"),
                "{name}: {e}"
            );
            assert!(e.contains("astar"), "{name}: {e}");
        }
        let e = registry::find("idastar")
            .unwrap()
            .build(&config(HeuristicKind::WalkingDistance, "1"))
            .supports(shape)
            .unwrap_err()
            .to_string();
        assert!(e.contains("manhattan or linear-conflict"), "{e}");
        // Pattern databases: IDA* on boards of up to 25 cells, refused beyond; the
        // best-first searches say to use IDA*.
        let pdb = config(HeuristicKind::Pdb, "2");
        for name in ["idastar", "idastar-tt"] {
            let got = registry::find(name).unwrap().build(&pdb).supports(shape);
            if shape.cells() <= 25 {
                assert_eq!(got, Ok(()), "{name} {shape}");
            } else {
                let e = got.unwrap_err().to_string();
                assert!(e.contains("at most 25 cells"), "{e}");
                assert!(e.contains("manhattan or linear-conflict"), "{e}");
            }
        }
        for name in ["astar", "wastar", "greedy"] {
            let e = registry::find(name)
                .unwrap()
                .build(&pdb)
                .supports(shape)
                .unwrap_err()
                .to_string();
            assert!(e.contains("idastar or idastar-tt"), "{name}: {e}");
        }
        for name in ["astar", "idastar", "idastar-tt", "wastar", "greedy"] {
            for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                let s = registry::find(name).unwrap().build(&config(h, "2"));
                assert_eq!(s.supports(shape), Ok(()), "{name} {h}");
            }
        }
    }
}

/// A 5x5 dataset through `run --check --paths`: every row verified against gen's exact
/// answers, cases.csv's boards as the input wrote them, and its paths replaying.
#[test]
fn a_5x5_run_checks_and_writes_its_boards_back() {
    let dir = temp_dir("big-run");
    let data = dir.join("walks.csv");
    run_ok(&[
        "gen",
        "--size",
        "5x5",
        "--count",
        "6",
        "--walk",
        "30",
        "--seed",
        "4",
        "-o",
        data.to_str().unwrap(),
    ]);
    let out = dir.join("run");
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "idastar",
        "-s",
        "greedy",
        "--heuristic",
        "linear-conflict",
        "--check",
        "--paths",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (ih, input) = read_csv(&data);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    assert_eq!(rows.len(), 12);
    for row in &rows {
        let line: usize = row[col(&h, "line")].parse().unwrap();
        let src = &input[line - 2];
        assert_eq!(row[col(&h, "start")], src[col(&ih, "start")]);
        assert_eq!(row[col(&h, "goal")], src[col(&ih, "goal")]);
        let start: Board = row[col(&h, "start")].parse().unwrap();
        let goal: Board = row[col(&h, "goal")].parse().unwrap();
        let path = tilebench::puzzle::Move::parse_path(&row[col(&h, "path")]).unwrap();
        assert_eq!(start.replay(&path), Ok(goal));
        if row[col(&h, "strategy")] == "idastar" {
            assert_eq!(path.len().to_string(), src[col(&ih, "expected_steps")]);
        }
    }
}
