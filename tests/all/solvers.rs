//! Strategy correctness against independent truth: path replay, agreement between
//! strategies, and the seed articles' samples; the suboptimal strategies (weighted A*,
//! greedy) against exact distances and their bound, and as runs report them.

#[path = "../../benches/common/cases.rs"]
mod cases;
#[path = "../../benches/common/peer.rs"]
mod peer;

use crate::common::walk;
use proptest::prelude::*;
use tilebench::puzzle::{is_solvable, Board, Move, Shape};
use tilebench::search::heuristic::{Heuristic, HeuristicKind, LinearConflict, Manhattan};
use tilebench::search::{heuristic::HEURISTIC, wastar::WEIGHT};
use tilebench::search::{registry, Builtin, Config, Limits, Outcome, Problem, SolveError, Status};

/// Every optimal built-in strategy, from the registry (the ones a run takes by default).
/// Every optimal built-in: a run's defaults and the variants run only when named (`dida`).
fn strategies() -> Vec<&'static Builtin> {
    registry::all().iter().filter(|b| b.optimal()).collect()
}

fn by_name(name: &str) -> &'static Builtin {
    registry::find(name).unwrap()
}

fn solve(s: &Builtin, p: &Problem, cfg: &Config) -> Result<Outcome, SolveError> {
    s.solve_once(cfg, p, &Limits::default())
}

fn exhaustive() -> Config {
    Config {
        exhaustive: true,
        ..Config::default()
    }
}

fn problem(start: &str, goal: &str) -> Problem {
    Problem::new(start.parse().unwrap(), goal.parse().unwrap()).unwrap()
}

fn check_solution(p: &Problem, s: &Builtin, cfg: &Config) -> usize {
    let strategy = s.name;
    let out = solve(s, p, cfg).unwrap();
    assert_eq!(out.status, Status::Solved, "{strategy}");
    let path = out.path.as_ref().unwrap();
    let end = p.start.replay(path).expect("path must be legal");
    assert_eq!(end, p.goal, "{strategy}: path does not reach the goal");
    // Every state but the roots is generated first; bibfs has two roots (start and goal).
    let roots = if strategy == "bibfs" { 2 } else { 1 };
    assert!(
        out.stats.expanded <= out.stats.generated + roots,
        "{strategy}"
    );
    assert!(
        out.stats.stored <= out.stats.generated + roots,
        "{strategy}"
    );
    path.len()
}

#[test]
fn first_article_sample_is_19_moves_for_every_strategy() {
    let p = problem("2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x");
    // The article's own answer replays to the goal and is 19 moves: optimal is at most 19.
    let article = Move::parse_path("ullddrurdllurdruldr").unwrap();
    assert_eq!(p.start.replay(&article).unwrap(), p.goal);
    for s in strategies() {
        assert_eq!(check_solution(&p, s, &Config::default()), 19, "{}", s.name);
    }
}

#[test]
fn third_article_pair_is_31_moves_for_every_strategy() {
    let p = problem("2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2");
    for s in strategies() {
        assert_eq!(check_solution(&p, s, &Config::default()), 31, "{}", s.name);
    }
}

#[test]
fn unsolvable_pair_by_parity_and_by_exhaustion() {
    let p = problem("2 1 3 4 5 6 7 8 x", "1 2 3 4 5 6 7 8 x");
    assert!(!is_solvable(&p.start, &p.goal));
    for st in strategies() {
        let s = st.name;
        let quick = solve(st, &p, &Config::default()).unwrap();
        assert_eq!(quick.status, Status::Unsolvable);
        assert_eq!(quick.stats.expanded, 0);
        let full = solve(st, &p, &exhaustive()).unwrap();
        assert_eq!(full.status, Status::Unsolvable, "{s}");
        if s == "idastar-tt" {
            // IDA* to the same bound, each board searched once an iteration: fewer nodes than
            // IDA* leaving out the same moves (the moves straight back).
            let mut config = exhaustive();
            config
                .set(&tilebench::search::fsm::PRUNE, "parent")
                .unwrap();
            let plain = solve(by_name("idastar"), &p, &config).unwrap();
            assert_eq!(plain.status, Status::Unsolvable);
            let (tt, all) = (full.stats.expanded, plain.stats.expanded);
            assert!(tt > 10_000 && tt < all / 2, "{s}: {tt} against {all}");
        } else if matches!(s, "idastar" | "dida") {
            // A tree search: it stops once its bound passes the 3x3 diameter (31).
            assert!(full.stats.expanded > 100_000, "{s}");
        } else if s == "table" {
            // The table holds the exhaustive answer: no search per case.
            assert_eq!(full.stats.expanded, 0);
        } else if s == "bibfs" {
            // Both sides run until one of them exhausts its half of the space.
            assert!(full.stats.stored >= 181_440, "{s}");
        } else {
            // Exhaustion visits the start's whole component: 9!/2 states.
            assert_eq!(full.stats.stored, 181_440, "{s}");
            assert_eq!(full.stats.expanded, 181_440, "{s}");
        }
    }
}

#[test]
fn rank_refuses_4x4_with_a_clear_error() {
    let goal = Board::standard_goal(Shape::S4X4);
    let start = goal.apply(Move::Up).unwrap();
    let err = solve(
        by_name("bfs-rank"),
        &Problem::new(start, goal).unwrap(),
        &Config::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("bfs-rank"), "{err}");
    assert!(err.to_string().contains("4x4"), "{err}");
}

/// A uniformly random board of `shape` from a proptest permutation.
fn board_strategy(shape: Shape) -> impl proptest::strategy::Strategy<Value = Board> {
    let n = shape.cells() as u8;
    Just((0..n).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(move |tiles: Vec<u8>| Board::from_tiles(shape, &tiles))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn all_strategies_agree_and_replay(start in board_strategy(Shape::S3X3), goal in board_strategy(Shape::S3X3)) {
        let p = Problem::new(start, goal).unwrap();
        let opts = Config::default();
        if is_solvable(&start, &goal) {
            let mut lengths: Vec<usize> = strategies().iter().map(|s| check_solution(&p, s, &opts)).collect();
            let lc = Config::default().with(&HEURISTIC, HeuristicKind::LinearConflict.name()).unwrap();
            lengths.push(check_solution(&p, by_name("astar"), &lc));
            lengths.push(check_solution(&p, by_name("idastar"), &lc));
            prop_assert!(lengths.iter().all(|&l| l == lengths[0]), "lengths differ: {:?}", lengths);
        } else {
            for s in strategies() {
                prop_assert_eq!(solve(s, &p, &opts).unwrap().status, Status::Unsolvable);
            }
        }
    }

    #[test]
    fn parity_matches_reachability_on_2x3(start in board_strategy(Shape::new(3, 2).unwrap()), goal in board_strategy(Shape::new(3, 2).unwrap())) {
        // Exhaustive BFS is the truth; 2x3 boards have an odd width and a 6!-state space.
        let p = Problem::new(start, goal).unwrap();
        let reached = solve(by_name("bfs-hashset"), &p, &exhaustive()).unwrap().status == Status::Solved;
        prop_assert_eq!(reached, is_solvable(&start, &goal));
    }

    #[test]
    fn parity_matches_reachability_on_even_widths(start in board_strategy(Shape::new(2, 3).unwrap()), goal in board_strategy(Shape::new(2, 3).unwrap())) {
        let p = Problem::new(start, goal).unwrap();
        let reached = solve(by_name("bfs-rank"), &p, &exhaustive()).unwrap().status == Status::Solved;
        prop_assert_eq!(reached, is_solvable(&start, &goal));
    }

    #[test]
    fn parity_matches_reachability_on_2x4(start in board_strategy(Shape::new(4, 2).unwrap()), goal in board_strategy(Shape::new(4, 2).unwrap())) {
        let p = Problem::new(start, goal).unwrap();
        let reached = solve(by_name("bfs-rank"), &p, &exhaustive()).unwrap().status == Status::Solved;
        prop_assert_eq!(reached, is_solvable(&start, &goal));
    }
}

/// The exact distance by BFS (truth for heuristic checks).
fn true_distance(start: Board, goal: Board) -> u32 {
    let out = solve(
        by_name("bfs-hashset"),
        &Problem::new(start, goal).unwrap(),
        &Config::default(),
    )
    .unwrap();
    out.steps().unwrap() as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn linear_conflict_is_admissible_and_dominates_manhattan_3x3(start in board_strategy(Shape::S3X3), goal in board_strategy(Shape::S3X3)) {
        prop_assume!(is_solvable(&start, &goal));
        let md = Manhattan::new(&goal).estimate(&start);
        let lc = LinearConflict::new(&goal).estimate(&start);
        prop_assert!(md <= lc, "md {} > lc {}", md, lc);
        let d = true_distance(start, goal);
        prop_assert!(lc <= d, "lc {} > true distance {}", lc, d);
    }

    #[test]
    fn linear_conflict_is_admissible_on_shallow_4x4(goal in board_strategy(Shape::S4X4), moves in proptest::collection::vec(0u8..4, 0..22)) {
        let start = walk(goal, &moves);
        let md = Manhattan::new(&goal).estimate(&start);
        let lc = LinearConflict::new(&goal).estimate(&start);
        prop_assert!(md <= lc);
        let d = true_distance(start, goal);
        prop_assert!(lc <= d, "lc {} > true distance {} for {} -> {}", lc, d, start, goal);
    }

    #[test]
    fn incremental_updates_equal_full_estimates(goal in board_strategy(Shape::S4X4), moves in proptest::collection::vec(0u8..4, 1..40)) {
        let md = Manhattan::new(&goal);
        let lc = LinearConflict::new(&goal);
        let mut b = goal;
        let (mut hm, mut hl) = (0, 0);
        for &m in &moves {
            let Some(next) = b.apply(Move::from_index(m)) else { continue };
            // The tile that slid went from the blank's new cell to its old one.
            let tile = b.tile(next.blank());
            hm = md.update(hm, &next, tile, next.blank(), b.blank());
            hl = lc.update(hl, &next, tile, next.blank(), b.blank());
            b = next;
            prop_assert_eq!(hm, md.estimate(&b));
            prop_assert_eq!(hl, lc.estimate(&b));
        }
    }
}

/// Every strategy that takes the shape, with every heuristic (pattern databases with the
/// shape's default partition, 5-5-5 on 4x4, in every lookup mode), finds a path of the same length that replays
/// to the goal, on every shape from 2x2 to 4x4; starts are random walks from a random goal
/// (short on the shapes BFS cannot exhaust).
#[test]
fn every_strategy_and_heuristic_agrees_on_every_shape() {
    use proptest::test_runner::{Config as Cases, TestRunner};
    use tilebench::search::pdb::{self, Partition, Pdb};
    use tilebench::search::SolveOptions;
    use tilebench::search::{astar, idastar};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-solvers");
    for (shape, walk_len) in [
        ("2x2", 12),
        ("3x2", 30),
        ("2x3", 30),
        ("4x2", 40),
        ("2x4", 40),
        ("3x3", 60),
        ("4x3", 24),
        ("3x4", 24),
        ("4x4", 16),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let cases = (
            board_strategy(shape),
            proptest::collection::vec(0u8..4, 0..walk_len),
        );
        let mut runner = TestRunner::new(Cases::with_cases(12));
        runner
            .run(&cases, |(goal, moves)| {
                let p = Problem::new(walk(goal, &moves), goal).unwrap();
                let mut lengths = Vec::new();
                for s in strategies()
                    .iter()
                    .filter(|s| s.build(&Config::default()).supports(shape).is_ok())
                {
                    let heuristics = HeuristicKind::ALL
                        .iter()
                        .filter(|&&h| h != HeuristicKind::Pdb);
                    for &h in heuristics {
                        let opts = Config::default().with(&HEURISTIC, h.name()).unwrap();
                        lengths.push((format!("{} {h}", s.name), check_solution(&p, s, &opts)));
                        if !matches!(s.name, "astar" | "idastar" | "dida" | "idastar-tt") {
                            break;
                        }
                    }
                }
                let partition = if shape == Shape::S4X4 {
                    Partition::parse("5-5-5", shape).unwrap()
                } else {
                    Partition::default_for(shape)
                };
                let set = pdb::shared(
                    shape,
                    goal.blank(),
                    &partition,
                    &dir,
                    &tilebench::observe::Silent,
                );
                for mode in tilebench::search::pdb::LookupMode::ALL {
                    let h = Pdb::with_lookup(&goal, set.clone(), mode);
                    let opts = SolveOptions::default();
                    for (name, out) in [
                        ("idastar pdb", idastar::solve(&p, &opts, &h)),
                        ("dida pdb", idastar::solve_dual(&p, &opts, &h)),
                        (
                            "idastar-tt pdb",
                            idastar::solve_transpositions(&p, &opts, &h),
                        ),
                        ("astar pdb", astar::solve(&p, &opts, &h)),
                    ] {
                        let path = out.path.expect(name);
                        prop_assert_eq!(p.start.replay(&path).unwrap(), goal);
                        lengths.push((format!("{name} {mode}"), path.len()));
                    }
                }
                prop_assert!(
                    lengths.iter().all(|l| l.1 == lengths[0].1),
                    "{shape}: lengths differ: {:?}",
                    lengths
                );
                Ok(())
            })
            .unwrap();
    }
}

/// How a budget applies to a strategy: it stops the search (`limit`, with the counters so
/// far), or the strategy has nothing for it to stop.
#[derive(Debug, PartialEq)]
enum Applies {
    Yes,
    /// `table` looks the answer up: no search, no budget.
    Lookup,
    /// `idastar` stores only its path: the memory guard has nothing to guard.
    NoStore,
    /// `idastar-tt`'s table is a cache: the guard makes it smaller, and the search goes on.
    Cache,
}

fn applies(strategy: &str, budget: &str) -> Applies {
    match (strategy, budget) {
        ("table", _) => Applies::Lookup,
        ("idastar" | "dida", "max-states") => Applies::NoStore,
        ("idastar-tt", "max-states") => Applies::Cache,
        _ => Applies::Yes,
    }
}

/// A 31-move 3x3 pair: every searching strategy expands thousands of states on it.
fn deep_3x3() -> Problem {
    problem("8 6 7 2 5 4 3 x 1", "1 2 3 4 5 6 7 8 x")
}

#[test]
fn node_and_state_budgets_stop_every_strategy_with_its_counters() {
    let p = deep_3x3();
    for s in strategies() {
        let nodes = Limits {
            max_nodes: Some(100),
            ..Limits::default()
        };
        let out = s.solve_once(&Config::default(), &p, &nodes).unwrap();
        let st = out.stats;
        match applies(s.name, "max-nodes") {
            Applies::Yes => {
                assert_eq!(out.status, Status::Limit, "{}", s.name);
                assert_eq!(st.expanded, 100, "{}: {st:?}", s.name);
                assert!(
                    st.generated >= st.expanded && st.stored > 0,
                    "{}: {st:?}",
                    s.name
                );
                assert!(out.path.is_none(), "{}", s.name);
            }
            _ => assert_eq!(out.steps(), Some(31), "{}", s.name),
        }
        let states = Limits {
            max_states: 500,
            ..Limits::default()
        };
        let out = s.solve_once(&Config::default(), &p, &states).unwrap();
        let st = out.stats;
        match applies(s.name, "max-states") {
            Applies::Yes => {
                assert_eq!(out.status, Status::Limit, "{}", s.name);
                // The guard is looked at before each expansion, whose children (at most 3
                // new states) may pass it by a little.
                assert!((500..=504).contains(&st.stored), "{}: {st:?}", s.name);
                assert!(st.expanded > 0 && st.expanded < 500, "{}: {st:?}", s.name);
            }
            Applies::NoStore => {
                assert_eq!(out.steps(), Some(31), "{}", s.name);
                assert!(st.stored <= 32, "{}: {st:?}", s.name);
            }
            Applies::Lookup => assert_eq!(out.steps(), Some(31), "{}", s.name),
            Applies::Cache => {
                assert_eq!(out.steps(), Some(31), "{}", s.name);
                assert!(st.stored > 32 && st.stored <= 500, "{}: {st:?}", s.name);
            }
        }
    }
}

/// Pairs no strategy solves in a fraction of a second: Korf's instance 1 (57 moves) on 4x4,
/// a 34-move 3x4 pair for `bfs-rank` (which takes at most 12 cells), and the 3x3 pair for
/// `table` (at most 9).
fn hard_for(s: &Builtin) -> Problem {
    let korf1 = problem(
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
    );
    let s3x4 = Shape::new(3, 4).unwrap();
    let candidates = [
        korf1,
        Problem::new(
            Board::parse("6 8 11 4 3 x 1 7 9 2 5 10", Some(s3x4)).unwrap(),
            Board::standard_goal(s3x4),
        )
        .unwrap(),
        deep_3x3(),
    ];
    let solver = s.build(&Config::default());
    candidates
        .into_iter()
        .find(|p| solver.supports(p.start.shape()).is_ok())
        .unwrap_or_else(|| panic!("{} takes none of the boards", s.name))
}

#[test]
fn a_timeout_stops_every_strategy_with_its_counters() {
    let timeout = std::time::Duration::from_millis(20);
    // A second guard, should the timeout be ignored: far more states than 20 ms can store.
    let max_states = 3_000_000;
    for s in strategies() {
        let p = hard_for(s);
        let limits = Limits {
            timeout: Some(timeout),
            max_states,
            ..Limits::default()
        };
        let t0 = std::time::Instant::now();
        let out = s.solve_once(&Config::default(), &p, &limits).unwrap();
        let took = t0.elapsed();
        let st = out.stats;
        if applies(s.name, "timeout") == Applies::Lookup {
            assert_eq!(out.steps(), Some(31), "{}", s.name);
            continue;
        }
        assert_eq!(out.status, Status::Limit, "{}: {st:?}", s.name);
        assert!(st.expanded > 0 && st.generated > 0, "{}: {st:?}", s.name);
        assert!(
            st.stored < max_states,
            "{}: stopped by the state guard: {st:?}",
            s.name
        );
        // It cannot have stopped on the timeout before the timeout.
        assert!(took >= timeout, "{}: {took:?}", s.name);
    }
}

/// The peer oracle of `examples/peers.rs` and `scripts/bench.sh` in the test suite: the
/// `pathfinding` crate's BFS, bidirectional BFS, A* and IDA* (written as a user of it would,
/// benches/common/peer.rs) give every built-in strategy's lengths on 30 random solvable 3x3
/// pairs, and 10 at depths 26 to 31.
#[test]
fn the_pathfinding_crate_agrees_with_every_strategy() {
    let goal = Board::standard_goal(Shape::S3X3);
    let goal_cells = peer::cells(&goal);
    let peers: [(&str, peer::Solver); 4] = [
        ("pathfinding::bfs", peer::pf_bfs),
        ("pathfinding::bfs_bidirectional", peer::pf_bfs_bidirectional),
        ("pathfinding::astar", peer::pf_astar),
        ("pathfinding::idastar", peer::pf_idastar),
    ];
    let solvers: Vec<_> = strategies()
        .iter()
        .map(|b| {
            let mut s = b.build(&Config::default());
            let ctx = tilebench::search::Prepare {
                threads: 1,
                problems: &[],
                observer: &tilebench::observe::Silent,
            };
            s.prepare(&[goal], &ctx).unwrap();
            s
        })
        .collect();
    let mut starts = cases::random_solvable(30, 3);
    starts.extend(cases::at_depths(10, 26..=31, 4));
    for start in &starts {
        let p = Problem::new(*start, goal).unwrap();
        let want = peer::pf_astar(&peer::cells(start), &goal_cells).expect("solvable");
        for (name, f) in peers {
            assert_eq!(
                f(&peer::cells(start), &goal_cells),
                Some(want),
                "{name} on {start}"
            );
        }
        for s in &solvers {
            let out = s.solve(&p, &Limits::default()).unwrap();
            assert_eq!(out.steps(), Some(want), "{} on {start}", s.name());
            assert_eq!(
                p.start.replay(out.path.as_ref().unwrap()),
                Ok(goal),
                "{}",
                s.name()
            );
        }
    }
}

/// Where the counts are comparable: a search to exhaustion visits the start's whole
/// connected half, which `pathfinding::bfs_reach` counts on its own.
#[test]
fn exhaustive_bfs_expands_the_states_pathfinding_reaches() {
    let goal = Board::standard_goal(Shape::S3X3);
    let start: Board = "2 1 3 4 5 6 7 8 x".parse().unwrap();
    let reached = pathfinding::prelude::bfs_reach(peer::cells(&start), peer::neighbours).count();
    let p = Problem::new(start, goal).unwrap();
    let mut searched = 0;
    for s in strategies().iter().filter(|s| s.name.starts_with("bfs-")) {
        let out = solve(s, &p, &exhaustive()).unwrap();
        assert_eq!(out.status, Status::Unsolvable, "{}", s.name);
        assert_eq!(out.stats.expanded as usize, reached, "{}", s.name);
        assert_eq!(out.stats.stored as usize, reached, "{}", s.name);
        searched += 1;
    }
    assert!(searched >= 4, "the BFS variants are in the registry");
}

/// `wastar` and `greedy` say they are not optimal, so runs leave them out unless named and
/// judge their paths; every other built-in is optimal.
#[test]
fn the_registry_declares_the_suboptimal_strategies() {
    let not_optimal: Vec<&str> = registry::all()
        .iter()
        .filter(|b| !b.optimal())
        .map(|b| b.name)
        .collect();
    assert_eq!(not_optimal, ["wastar", "greedy"]);
    assert!(strategies()
        .iter()
        .all(|b| b.build(&Config::default()).optimal()));
    assert_eq!(strategies().len() + 2, registry::all().len());
    // A run's defaults: the optimal ones but the variants.
    let defaults: Vec<&str> = registry::defaults().iter().map(|b| b.name).collect();
    let want: Vec<&str> = strategies()
        .iter()
        .map(|b| b.name)
        .filter(|n| !registry::VARIANTS.contains(n))
        .collect();
    assert_eq!(defaults, want);
    assert!(registry::VARIANTS
        .iter()
        .all(|v| registry::find(v).is_some()));
}

/// Weighted A*'s paths are at most `w` times the shortest (exact distances from the whole
/// 8-puzzle table; weight 1 is A*), greedy's reach the goal; both prove unsolvable pairs
/// with --exhaustive, for every heuristic.
#[test]
fn weighted_astar_keeps_its_bound_and_greedy_reaches_the_goal() {
    use tilebench::space::DistanceTable;
    let goal = Board::standard_goal(Shape::S3X3);
    let table = DistanceTable::build(goal).unwrap();
    let (wastar, greedy) = (by_name("wastar"), by_name("greedy"));
    let heuristics = HeuristicKind::ALL
        .iter()
        .filter(|&&h| h != HeuristicKind::Pdb);
    let (mut longer, mut greedy_longer) = (0, 0);
    for &heuristic in heuristics {
        for d in (2..=31u8).step_by(3) {
            for start in table.states_at(d).into_iter().step_by(4099).take(6) {
                let p = Problem::new(start, goal).unwrap();
                for w in ["1", "1.25", "2", "5"] {
                    let cfg = Config::default()
                        .with(&HEURISTIC, heuristic.name())
                        .and_then(|c| c.with(&WEIGHT, w))
                        .unwrap();
                    let steps = check_solution(&p, wastar, &cfg);
                    let bound = WEIGHT.get(&cfg).value() * d as f64;
                    assert!(
                        steps as f64 <= bound,
                        "{heuristic} w {w}: {steps} > {bound}"
                    );
                    if w == "1" {
                        assert_eq!(steps, d as usize, "{heuristic}: weight 1 is A*");
                    }
                    longer += (steps > d as usize) as u32;
                }
                let cfg = Config::default()
                    .with(&HEURISTIC, heuristic.name())
                    .unwrap();
                greedy_longer += (check_solution(&p, greedy, &cfg) > d as usize) as u32;
            }
        }
    }
    // The weights and greediness show (else the test shows nothing).
    assert!(longer > 0 && greedy_longer > 0, "{longer} {greedy_longer}");
    let p = problem("2 1 3 4 5 6 7 8 x", "1 2 3 4 5 6 7 8 x");
    for s in [wastar, greedy] {
        assert_eq!(
            solve(s, &p, &exhaustive()).unwrap().status,
            Status::Unsolvable,
            "{}",
            s.name
        );
    }
}

/// `--weight` takes decimals from 1 to 1000 with up to three decimals, exactly (`1.5` is
/// 3/2), and refuses the rest with a message.
#[test]
fn weights_are_read_exactly_and_checked() {
    use tilebench::search::astar::Weight;
    for (text, shown, value) in [
        ("1", "1", 1.0),
        ("1.5", "1.5", 1.5),
        ("2.125", "2.125", 2.125),
        ("1.50", "1.5", 1.5),
        ("1000", "1000", 1000.0),
    ] {
        let w: Weight = text.parse().unwrap();
        assert_eq!((w.to_string().as_str(), w.value()), (shown, value));
    }
    for (text, says) in [
        ("0.5", "from 1"),
        ("1000.5", "to 1000"),
        ("1.2345", "three decimals"),
        ("nan", "not a weight"),
        ("inf", "not a weight"),
        ("-2", "not a weight"),
        ("1e3", "not a weight"),
        ("", "not a weight"),
        ("1.", "not a weight"),
    ] {
        let err = text.parse::<Weight>().unwrap_err();
        assert!(err.contains(says), "{text}: {err}");
    }
}

/// A run with `wastar` and `greedy` named judges their paths against the optimum
/// (`expected_steps`, or astar's length on rows without it): cases.csv's `optimal` and
/// `optimum_steps` and `suboptimality`, summary.csv's `non_optimal`, `suboptimality_mean`,
/// `suboptimality_max` and `quality` (recomputed here from cases.csv); the optimal strategies
/// get a suboptimality only where the optimum is known (`expected_steps`); a run that names
/// no strategy leaves them out; a weight below 1 is refused.
#[test]
fn a_run_judges_the_suboptimal_strategies_and_reports_their_suboptimality() {
    use crate::common::{col, read_csv, run_ok, temp_dir};
    let dir = temp_dir("suboptimal");
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/inputs/random-1k.csv")).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(81)
        .collect();
    let with = dir.join("with.csv");
    std::fs::write(&with, rows.join("\n")).unwrap();
    // The same pairs without expected_steps: the optimum comes from astar.
    let without = dir.join("without.csv");
    let cut: Vec<String> = rows
        .iter()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect();
    std::fs::write(&without, cut.join("\n")).unwrap();
    let mut optimum_of_run = Vec::new();
    for (name, data) in [("with", &with), ("without", &without)] {
        let out = dir.join(name);
        let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
        run_ok(&[
            "run",
            d,
            "-s",
            "astar,wastar,greedy",
            "--weight",
            "3",
            "-q",
            "--out",
            o,
        ]);
        let (h, cases) = read_csv(&out.join("cases.csv"));
        let (strategy, status, steps, optimal, optimum) = (
            col(&h, "strategy"),
            col(&h, "status"),
            col(&h, "steps"),
            col(&h, "optimal"),
            col(&h, "optimum_steps"),
        );
        let (ratio, claim) = (col(&h, "suboptimality"), col(&h, "claim"));
        let astar: Vec<&Vec<String>> = cases.iter().filter(|r| r[strategy] == "astar").collect();
        let (h2, summary) = read_csv(&out.join("summary.csv"));
        let figure =
            |s: &str, c: &str| summary.iter().find(|r| r[0] == s).unwrap()[col(&h2, c)].clone();
        let known = if name == "with" { "1.0" } else { "" };
        assert_eq!(figure("astar", "suboptimality_mean"), known);
        assert_eq!(figure("astar", "suboptimality_max"), known);
        assert_eq!(figure("astar", "non_optimal"), "0");
        for a in &astar {
            assert_eq!(a[claim], "optimal");
            let want = if name == "with" && a[status] == "solved" {
                "1"
            } else {
                ""
            };
            assert_eq!(a[ratio], want, "{a:?}");
        }
        for s in ["wastar", "greedy"] {
            let mine: Vec<&Vec<String>> = cases.iter().filter(|r| r[strategy] == s).collect();
            assert_eq!(mine.len(), astar.len());
            let (mut sum, mut n, mut not_optimal) = (0.0, 0, 0);
            let (mut worst, mut quality) = (0.0f64, 0.0);
            for (r, a) in mine.iter().zip(&astar) {
                assert_eq!(r[claim], if s == "greedy" { "valid" } else { "within=3" });
                if r[status] != "solved" {
                    assert_eq!(
                        (r[optimum].as_str(), r[ratio].as_str()),
                        ("", ""),
                        "{s}: {r:?}"
                    );
                    continue;
                }
                // astar's length is the optimum.
                assert_eq!(r[optimum], a[steps], "{s}: {r:?}");
                let (got, best): (f64, f64) =
                    (r[steps].parse().unwrap(), r[optimum].parse().unwrap());
                assert_eq!(r[optimal], (got == best).to_string(), "{s}: {r:?}");
                not_optimal += (got > best) as u32;
                assert!(got <= 3.0 * best || s == "greedy", "{s}: {r:?}");
                let (q, value) = if best > 0.0 {
                    (got / best, best / got)
                } else {
                    (1.0, 1.0)
                };
                let shown: f64 = r[ratio].parse().unwrap();
                assert!((shown - q).abs() <= 0.00005, "{s}: {r:?}");
                (sum, n, quality) = (sum + q, n + 1, quality + value);
                worst = worst.max(shown);
            }
            let max: f64 = figure(s, "suboptimality_max").parse().unwrap();
            assert_eq!(max, worst, "{s}");
            let score: f64 = figure(s, "quality").parse().unwrap();
            assert!(
                (score - quality).abs() < 0.0006,
                "{s}: {score} vs {quality}"
            );
            let mean: f64 = figure(s, "suboptimality_mean").parse().unwrap();
            assert!(
                (mean - sum / n as f64).abs() < 0.0006,
                "{s}: {mean} vs {}",
                sum / n as f64
            );
            assert_eq!(figure(s, "non_optimal"), not_optimal.to_string(), "{s}");
            if s == "greedy" {
                assert!(not_optimal > 0 && mean > 1.0, "{mean}");
            }
        }
        optimum_of_run.push(
            cases
                .iter()
                .filter(|r| r[strategy] != "astar")
                .map(|r| r[optimum].clone())
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(
        optimum_of_run[0], optimum_of_run[1],
        "expected_steps and astar agree"
    );
    // No strategy named: the optimal ones only.
    let out = dir.join("default");
    run_ok(&[
        "run",
        with.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, cases) = read_csv(&out.join("cases.csv"));
    assert!(cases
        .iter()
        .all(|r| !["wastar", "greedy"].contains(&r[col(&h, "strategy")].as_str())));
    let bad = crate::common::bin()
        .args([
            "run",
            with.to_str().unwrap(),
            "-s",
            "wastar",
            "--weight",
            "0.5",
            "-q",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("--weight") && err.contains("from 1"), "{err}");
}
