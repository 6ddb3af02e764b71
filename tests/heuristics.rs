//! Heuristics against independent truth: every lookup mode of the pattern databases (the
//! dual boards built here from their definition, exact distances from full BFS tables and
//! searches), and the optimality of the searches that use them.

use proptest::prelude::*;
use std::sync::Arc;
use tilebench::observe::Silent;
use tilebench::puzzle::{Board, Move, Shape};
use tilebench::search::heuristic::Heuristic;
use tilebench::search::pdb::{self, LookupMode, Partition, Pdb, PdbSet};
use tilebench::search::{astar, idastar, registry, Config, Limits, Problem, SolveOptions};
use tilebench::space::DistanceTable;

fn tables(goal: &Board, partition: &str) -> Arc<PdbSet> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-heuristics");
    let p = Partition::parse(partition, goal.shape()).unwrap();
    pdb::shared(goal.shape(), goal.blank(), &p, &dir, &Silent)
}

fn bfs_distance(start: Board, goal: Board) -> u32 {
    registry::find("bfs-hashset")
        .unwrap()
        .solve_once(
            &Config::default(),
            &Problem::new(start, goal).unwrap(),
            &Limits::default(),
        )
        .unwrap()
        .steps()
        .unwrap() as u32
}

fn walk(goal: Board, moves: &[u8]) -> Board {
    let mut b = goal;
    for &m in moves {
        if let Some(n) = b.apply(Move::from_index(m)) {
            b = n;
        }
    }
    b
}

/// The eight maps of the square's symmetry group (four on a rectangle), as cell maps,
/// written out here rather than taken from the library.
fn symmetries(shape: Shape) -> Vec<Vec<usize>> {
    let (w, h) = (shape.width(), shape.height());
    let mut out = Vec::new();
    for k in 0..8 {
        if k >= 4 && w != h {
            break;
        }
        let map: Vec<usize> = (0..w * h)
            .map(|p| {
                let (r, c) = (p / w, p % w);
                let (r, c) = match k {
                    0 => (r, c),
                    1 => (h - 1 - r, w - 1 - c),
                    2 => (r, w - 1 - c),
                    3 => (h - 1 - r, c),
                    4 => (c, r),
                    5 => (w - 1 - c, h - 1 - r),
                    6 => (c, w - 1 - r),
                    _ => (h - 1 - c, r),
                };
                r * w + c
            })
            .collect();
        out.push(map);
    }
    out
}

fn inverse(map: &[usize]) -> Vec<usize> {
    let mut inv = vec![0; map.len()];
    for (c, &m) in map.iter().enumerate() {
        inv[m] = c;
    }
    inv
}

/// The board as a map cell → goal cell of the tile on it.
fn goal_cells(b: &Board, goal: &Board) -> Vec<usize> {
    let n = b.shape().cells();
    let mut home = [0; 16];
    for c in 0..n {
        home[goal.tile(c) as usize] = c;
    }
    (0..n).map(|c| home[b.tile(c) as usize]).collect()
}

/// The board whose map is `q` (cell → goal cell).
fn from_goal_cells(q: &[usize], goal: &Board) -> Board {
    let tiles: Vec<u8> = q.iter().map(|&gc| goal.tile(gc)).collect();
    Board::from_tiles(goal.shape(), &tiles)
}

/// The dual board through the symmetry `phi` (which must take the goal's blank cell to the
/// board's): `φ⁻¹ ∘ p⁻¹ ∘ φ`.
fn dual_board(b: &Board, goal: &Board, phi: &[usize]) -> Board {
    let p = goal_cells(b, goal);
    let (p_inv, phi_inv) = (inverse(&p), inverse(phi));
    let x: Vec<usize> = (0..p.len()).map(|l| phi_inv[p_inv[phi[l]]]).collect();
    from_goal_cells(&x, goal)
}

/// The reflected board through the symmetry `r` (which keeps the goal's blank cell): `r ∘ p ∘ r`.
fn reflected_board(b: &Board, goal: &Board, r: &[usize]) -> Board {
    let p = goal_cells(b, goal);
    let x: Vec<usize> = (0..p.len()).map(|l| r[p[r[l]]]).collect();
    from_goal_cells(&x, goal)
}

/// On the 8-puzzle, every board with its blank where a symmetry takes the goal's blank is
/// exactly as far from the goal as each of its dual boards; the plain inverse of a board
/// whose blank is elsewhere is not (why the dual lookups are limited to those cells).
#[test]
fn dual_boards_are_as_far_as_the_board_and_the_plain_inverse_is_not() {
    for goal in [
        "0 1 2 3 4 5 6 7 8",
        "1 2 3 4 5 6 7 8 0",
        "1 2 3 4 0 5 6 7 8",
    ] {
        let goal: Board = goal.parse().unwrap();
        let table = DistanceTable::build(goal).unwrap();
        let maps = symmetries(goal.shape());
        let (mut duals, mut inverse_differs) = (0u64, 0u64);
        for d in 0..=table.max_distance() as u8 {
            for b in table.states_at(d) {
                for phi in maps.iter().filter(|m| m[goal.blank()] == b.blank()) {
                    let x = dual_board(&b, &goal, phi);
                    assert_eq!(table.distance(&x), Some(d), "{b}: dual {x}");
                    duals += 1;
                }
                if b.blank() != goal.blank() {
                    let x = dual_board(&b, &goal, &maps[0]);
                    inverse_differs += (table.distance(&x) != Some(d)) as u64;
                }
            }
        }
        assert!(duals > 20_000, "{goal}: {duals} duals checked");
        assert!(inverse_differs > 0, "{goal}");
    }
}

/// Each mode's lookups, against the plain (regular) sums of boards built here: the
/// reflected and dual values are the regular values of the transformed boards, and the
/// estimate is the largest of the values the mode takes.
#[test]
fn reflected_and_dual_values_are_the_plain_values_of_the_transformed_boards() {
    let cases = [
        ("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", "5-5-5"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", "5-5-5"),
        ("1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15", "5-5-5"),
        ("0 1 2 3 4 5 6 7 8", "4-4"),
        ("1 2 3 4 0 5 6 7 8", "4-4"),
        ("1 2 3 4 5 6 7 0", "3-4"),
    ];
    let mut seen_dual_above = 0;
    for (goal, partition) in cases {
        let cells = goal.split(' ').count();
        let shape = Shape::from_cells(cells).unwrap_or(Shape::new(4, 2).unwrap());
        let goal = Board::parse(goal, Some(shape)).unwrap();
        let set = tables(&goal, partition);
        let plain = Pdb::with_lookup(&goal, set.clone(), LookupMode::Regular);
        let maps = symmetries(shape);
        let mirror = maps
            .iter()
            .skip(1)
            .filter(|m| m[goal.blank()] == goal.blank() && inverse(m) == **m)
            .min_by_key(|m| [4, 5, 1, 2, 3].iter().position(|&k| maps.get(k) == Some(m)));
        let mut seed = 7u64;
        for _ in 0..300 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let moves: Vec<u8> = (0..40).map(|i| ((seed >> (i % 60)) & 3) as u8).collect();
            let b = walk(goal, &moves);
            for mode in LookupMode::ALL {
                let h = Pdb::with_lookup(&goal, set.clone(), mode);
                let mut values = vec![plain.estimate(&b)];
                assert_eq!(h.regular(&b), values[0]);
                match (mode.reflects(), mirror) {
                    (true, Some(r)) => {
                        let r_value = plain.estimate(&reflected_board(&b, &goal, r));
                        assert_eq!(h.reflected(&b), Some(r_value), "{mode} {b}");
                        values.push(r_value);
                    }
                    _ => assert_eq!(h.reflected(&b), None, "{mode} {b}"),
                }
                let mut duals = h.dual_sums(&b);
                let mut expected: Vec<u32> = maps
                    .iter()
                    .filter(|m| m[goal.blank()] == b.blank())
                    .map(|phi| plain.estimate(&dual_board(&b, &goal, phi)))
                    .collect();
                match mode {
                    LookupMode::Regular | LookupMode::Reflected => expected.clear(),
                    LookupMode::Dual => expected.truncate(1),
                    LookupMode::Max => {}
                }
                duals.sort_unstable();
                let mut sorted = expected.clone();
                sorted.sort_unstable();
                if mode == LookupMode::Dual {
                    // One of the symmetries: its value is among those of all of them.
                    let all: Vec<u32> = maps
                        .iter()
                        .filter(|m| m[goal.blank()] == b.blank())
                        .map(|phi| plain.estimate(&dual_board(&b, &goal, phi)))
                        .collect();
                    assert_eq!(duals.len(), sorted.len(), "{mode} {b}");
                    assert!(duals.iter().all(|v| all.contains(v)), "{mode} {b}");
                } else {
                    assert_eq!(duals, sorted, "{mode} {b}");
                }
                values.extend(&duals);
                let best = *values.iter().max().unwrap();
                assert_eq!(h.estimate(&b), best, "{mode} {b}");
                seen_dual_above +=
                    (mode == LookupMode::Max && duals.iter().any(|&d| d > values[0])) as u32;
            }
        }
    }
    // The duals add something on some of these boards (else the test shows nothing).
    assert!(seen_dual_above > 20, "{seen_dual_above}");
}

/// Every mode never exceeds the true distance: all of the 8-puzzle's boards against its
/// distance table, and shallow 15-puzzle boards against BFS; the incremental step agrees
/// with a full estimate after every move.
#[test]
fn every_lookup_mode_is_admissible() {
    for goal in ["0 1 2 3 4 5 6 7 8", "1 2 3 4 5 6 7 8 0"] {
        let goal: Board = goal.parse().unwrap();
        let table = DistanceTable::build(goal).unwrap();
        let set = tables(&goal, "4-4");
        for mode in LookupMode::ALL {
            let h = Pdb::with_lookup(&goal, set.clone(), mode);
            for d in 0..=table.max_distance() as u8 {
                for b in table.states_at(d) {
                    assert!(h.estimate(&b) <= d as u32, "{mode}: {b} at {d}");
                }
            }
        }
    }
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(40));
    let goals = [
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
    ];
    runner
        .run(&proptest::collection::vec(0u8..4, 0..26), |moves| {
            for goal in goals {
                let goal: Board = goal.parse().unwrap();
                let set = tables(&goal, "5-5-5");
                let start = walk(goal, &moves);
                let d = bfs_distance(start, goal);
                for mode in LookupMode::ALL {
                    let h = Pdb::with_lookup(&goal, set.clone(), mode);
                    prop_assert!(h.estimate(&start) <= d, "{} {}: above {}", mode, start, d);
                    let (mut b, (mut hv, mut memo)) = (goal, h.start(&goal));
                    for &m in &moves {
                        let Some(next) = b.apply(Move::from_index(m)) else {
                            continue;
                        };
                        let tile = b.tile(next.blank());
                        (hv, memo) = h.step(hv, &memo, &next, tile, next.blank(), b.blank());
                        b = next;
                        prop_assert_eq!(hv, h.estimate(&b));
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}

/// IDA* (with BPMX where the lookups are inconsistent) and A* (reopening states) find
/// shortest paths with every mode: random 8-puzzle pairs against the distance table, and
/// the bundled shallow 15-puzzle pairs against their expected_steps.
#[test]
fn idastar_and_astar_are_optimal_with_every_lookup_mode() {
    let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    let table = DistanceTable::build(goal).unwrap();
    let set = tables(&goal, "4-4");
    let mut problems = Vec::new();
    for d in (0..=table.max_distance() as u8).step_by(3) {
        for b in table.states_at(d).into_iter().step_by(997).take(8) {
            problems.push((Problem::new(b, goal).unwrap(), d as usize));
        }
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let mut rows = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(format!("{root}/inputs/4x4-shallow.csv"))
        .unwrap();
    let header = rows.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (s, g, e) = (col("start"), col("goal"), col("expected_steps"));
    let shallow: Vec<(Problem, usize)> = rows
        .records()
        .filter_map(|r| {
            let r = r.unwrap();
            let p = Problem::new(r[s].parse().unwrap(), r[g].parse().unwrap()).unwrap();
            let d: i64 = r[e].parse().unwrap();
            (d >= 0).then_some((p, d as usize))
        })
        .collect();
    assert!(shallow.len() >= 80, "{}", shallow.len());
    for mode in LookupMode::ALL {
        let h3 = Pdb::with_lookup(&goal, set.clone(), mode);
        let check = |p: &Problem, d: usize, h: &Pdb| {
            let opts = SolveOptions::default();
            for (name, out) in [
                ("idastar", idastar::solve(p, &opts, h)),
                ("astar", astar::solve(p, &opts, h)),
            ] {
                let path = out.path.unwrap_or_else(|| panic!("{name} {mode}: no path"));
                assert_eq!(p.start.replay(&path).unwrap(), p.goal, "{name} {mode}");
                assert_eq!(path.len(), d, "{name} {mode}: {}", p.start);
            }
        };
        for (p, d) in &problems {
            check(p, *d, &h3);
        }
        for (p, d) in &shallow {
            let h4 = Pdb::with_lookup(&p.goal, tables(&p.goal, "5-5-5"), mode);
            check(p, *d, &h4);
        }
    }
}
