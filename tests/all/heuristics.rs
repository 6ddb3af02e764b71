//! Heuristics against independent truth: every lookup mode of the pattern databases (the
//! dual boards built here from their definition), walking distance and its combination with
//! linear conflict (exact distances from whole-space tables and BFS, neighbours for
//! consistency, the published table size), and the optimality of the searches using them.

use crate::common::{bfs_distance, walk};
use proptest::prelude::*;
use std::sync::Arc;
use tilebench::observe::Silent;
use tilebench::puzzle::{Board, Move, Shape};
use tilebench::search::heuristic::{
    Heuristic, LinearConflict, Manhattan, WalkingDistance, WalkingDistanceLc,
};
use tilebench::search::pdb::{self, LookupMode, Partition, Pdb, PdbSet};
use tilebench::search::{astar, idastar, Problem, SolveOptions};
use tilebench::space::DistanceTable;

fn tables(goal: &Board, partition: &str) -> Arc<PdbSet> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-heuristics");
    let p = Partition::parse(partition, goal.shape()).unwrap();
    pdb::shared(goal.shape(), goal.blank(), &p, &dir, &Silent)
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
    let (mut seen_dual_above, mut seen_walked_above, mut seen_farther_above) = (0, 0, 0);
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
                let with_lengths = expected_duals(&b, &goal, &maps, &plain, mode.walks());
                let mut expected: Vec<u32> = with_lengths.iter().map(|&(v, _)| v).collect();
                match mode {
                    LookupMode::Regular | LookupMode::Reflected => expected.clear(),
                    LookupMode::Dual => expected.truncate(1),
                    LookupMode::Max | LookupMode::Eager | LookupMode::Walked => {}
                }
                duals.sort_unstable();
                let mut sorted = expected.clone();
                sorted.sort_unstable();
                if mode == LookupMode::Dual {
                    // One of the symmetries: its value is among those of all of them.
                    let all: Vec<u32> = expected_duals(&b, &goal, &maps, &plain, false)
                        .iter()
                        .map(|&(v, _)| v)
                        .collect();
                    assert_eq!(duals.len(), sorted.len(), "{mode} {b}");
                    assert!(duals.iter().all(|v| all.contains(v)), "{mode} {b}");
                } else {
                    assert_eq!(duals, sorted, "{mode} {b}");
                }
                values.extend(&duals);
                let best = *values.iter().max().unwrap();
                assert_eq!(h.estimate(&b), best, "{mode} {b}");
                // A search asks only whether the estimate reaches `enough`: the lookups may
                // stop there (between batches of walked ones), never before, never above.
                let lazy = values[..values.len() - duals.len()]
                    .iter()
                    .copied()
                    .max()
                    .unwrap();
                for enough in lazy..=best + 1 {
                    let r = h.refine(lazy, &b, enough);
                    assert!(lazy <= r && r <= best, "{mode} {b}: {r} for {enough}");
                    assert!(r >= enough || r == best, "{mode} {b}: {r} for {enough}");
                }
                let above = mode.duals() && duals.iter().any(|&d| d > values[0]);
                seen_dual_above += (above && mode == LookupMode::Max) as u32;
                seen_walked_above += (above
                    && mode == LookupMode::Walked
                    && maps.iter().all(|m| m[goal.blank()] != b.blank()))
                    as u32;
                // A walk one move longer than the nearest scoring above every other lookup.
                let shortest = with_lengths.iter().map(|&(_, l)| l).min().unwrap_or(0);
                let (farther, nearer): (Vec<_>, Vec<_>) =
                    with_lengths.iter().partition(|&&(_, l)| l > shortest);
                seen_farther_above += (mode == LookupMode::Walked
                    && farther.iter().map(|&(v, _)| v).max()
                        > nearer
                            .iter()
                            .map(|&(v, _)| v)
                            .chain(values[..values.len() - duals.len()].iter().copied())
                            .max()) as u32;
            }
        }
    }
    // The duals add something on some of these boards, the walked ones too (else the test
    // shows nothing).
    assert!(seen_dual_above > 20, "{seen_dual_above}");
    assert!(seen_walked_above > 10, "{seen_walked_above}");
    assert!(seen_farther_above > 3, "{seen_farther_above}");
}

/// The dual values of `b` by their definition: where a symmetry takes the goal's blank cell
/// to `b`'s, the plain value of each dual board; elsewhere, if `walks`, for every sequence
/// of moves (found here by trying all sequences of each length) that brings the blank to
/// such a cell in as few moves as the nearest takes or one more, the plain value of each
/// dual board of the board it reaches, less its length. Each value comes with that length.
fn expected_duals(
    b: &Board,
    goal: &Board,
    maps: &[Vec<usize>],
    plain: &Pdb,
    walks: bool,
) -> Vec<(u32, u32)> {
    let exact = |x: &Board| {
        maps.iter()
            .filter(|m| m[goal.blank()] == x.blank())
            .collect::<Vec<_>>()
    };
    let mut out = Vec::new();
    let mut nearest = None;
    for len in 0..=if walks { 4 } else { 0 } {
        if nearest.is_some_and(|m| len > m + 1) {
            break;
        }
        for code in 0..4u32.pow(len) {
            let mut x = *b;
            let mut ok = true;
            for i in 0..len {
                match x.apply(Move::from_index(((code >> (2 * i)) & 3) as u8)) {
                    Some(next) => x = next,
                    None => ok = false,
                }
            }
            if ok && (len == 0 || !exact(&x).is_empty()) {
                for phi in exact(&x) {
                    let value = plain.estimate(&dual_board(&x, goal, phi));
                    out.push((value.saturating_sub(len), len));
                }
            }
        }
        if len == 0 && !exact(b).is_empty() {
            return out; // exact duals: no walks
        }
        if !out.is_empty() && nearest.is_none() {
            nearest = Some(len);
        }
    }
    out
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

/// IDA* (with BPMX where the lookups are inconsistent), dual IDA* (its paths from dual
/// boards mapped back) and A* (reopening states) find shortest paths with every mode: random 8-puzzle pairs against the distance table, and
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
    // Dual IDA* must jump somewhere (else it is idastar and shows nothing): its counts differ
    // from idastar's on some pairs.
    let mut jumped = 0;
    for mode in LookupMode::ALL {
        let h3 = Pdb::with_lookup(&goal, set.clone(), mode);
        let mut check = |p: &Problem, d: usize, h: &Pdb| {
            let opts = SolveOptions::default();
            let plain = idastar::solve(p, &opts, h);
            let dual = idastar::solve_dual(p, &opts, h);
            jumped += (dual.stats.generated != plain.stats.generated) as u32;
            for (name, out) in [
                ("idastar", plain),
                ("dida", dual),
                ("idastar-tt", idastar::solve_transpositions(p, &opts, h)),
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
    assert!(jumped > 10, "dual IDA* jumped on {jumped} pairs");
}

/// Every board of `goal`'s shape with its exact distance (the whole space, both parities
/// of tiles: the unreachable ones come with `None`).
fn every_board(goal: Board) -> Vec<(Board, Option<u8>)> {
    let table = DistanceTable::build(goal).unwrap();
    let shape = goal.shape();
    let ranker = tilebench::puzzle::Ranker::new(shape);
    (0..ranker.size())
        .map(|r| {
            let b = Board::from_packed(shape, ranker.unrank(r));
            (b, table.distance(&b))
        })
        .collect()
}

/// Walking distance and its combination with linear conflict never exceed the exact
/// distance and change by at most one per move (consistent), on every board of the 8-puzzle
/// and of the 2x4 puzzle, for corner, edge and centre goal blanks; walking distance is at
/// least Manhattan, the combination at least walking distance and linear conflict, and
/// each is above them somewhere.
#[test]
fn walking_distance_is_admissible_and_consistent_on_whole_spaces() {
    let goals = [
        (Shape::S3X3, "1 2 3 4 5 6 7 8 0"),
        (Shape::S3X3, "0 1 2 3 4 5 6 7 8"),
        (Shape::S3X3, "1 2 3 4 0 5 6 7 8"),
        (Shape::S3X3, "1 0 2 3 4 5 6 7 8"),
        (Shape::new(4, 2).unwrap(), "1 2 3 4 5 6 7 0"),
        (Shape::new(2, 4).unwrap(), "1 2 3 0 4 5 6 7"),
    ];
    for (shape, goal) in goals {
        let goal = Board::parse(goal, Some(shape)).unwrap();
        let (md, lc) = (Manhattan::new(&goal), LinearConflict::new(&goal));
        let (wd, wdlc) = (WalkingDistance::new(&goal), WalkingDistanceLc::new(&goal));
        let (mut above_md, mut above_both) = (0, 0);
        for (b, d) in every_board(goal) {
            let (m, l, w, c) = (
                md.estimate(&b),
                lc.estimate(&b),
                wd.estimate(&b),
                wdlc.estimate(&b),
            );
            assert!(
                m <= w && w.max(l) <= c,
                "{b}: md {m} lc {l} wd {w} wd-lc {c}"
            );
            above_md += (w > m) as u32;
            above_both += (c > w.max(l)) as u32;
            let Some(d) = d else { continue };
            assert!(c <= d as u32, "{b}: wd-lc {c} above the distance {d}");
            for m in tilebench::puzzle::MOVE_ORDER {
                if let Some(n) = b.apply(m) {
                    for (name, h) in [("wd", &wd as &dyn Estimate), ("wd-lc", &wdlc)] {
                        let (x, y) = (h.value(&b), h.value(&n));
                        assert!(x.abs_diff(y) <= 1, "{name}: {b} {x} → {n} {y}");
                    }
                }
            }
        }
        assert!(
            above_md > 0 && above_both > 0,
            "{goal}: {above_md} {above_both}"
        );
    }
}

/// `estimate` of any heuristic, behind one object type for the loop above.
trait Estimate {
    fn value(&self, b: &Board) -> u32;
}
impl<H: Heuristic> Estimate for H {
    fn value(&self, b: &Board) -> u32 {
        self.estimate(b)
    }
}

/// On boards too large to tabulate (3x4, 4x3, 4x4, 5x3), random walks from random goals: never
/// above the BFS distance, and the incremental step (what the searches call) equals a full
/// estimate after every move.
#[test]
fn walking_distance_is_admissible_and_incremental_on_larger_boards() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(30));
    for shape in [
        Shape::new(3, 4).unwrap(),
        Shape::new(4, 3).unwrap(),
        Shape::S4X4,
        // Rows of 5: a vertical move passes 4 tiles (the inversion distance's `k`).
        Shape::new(5, 3).unwrap(),
    ] {
        let n = shape.cells() as u8;
        let cases = (
            Just((0..n).collect::<Vec<u8>>()).prop_shuffle(),
            proptest::collection::vec(0u8..4, 0..24),
        );
        runner
            .run(&cases, |(tiles, moves)| {
                let goal = Board::from_tiles(shape, &tiles);
                let start = walk(goal, &moves);
                let d = bfs_distance(start, goal);
                let (wd, wdlc) = (WalkingDistance::new(&goal), WalkingDistanceLc::new(&goal));
                prop_assert!(wdlc.estimate(&start) <= d, "{} above {}", start, d);
                prop_assert!(wd.estimate(&start) <= wdlc.estimate(&start));
                let (mut b, (mut hw, mut mw), (mut hc, mut mc)) =
                    (goal, wd.start(&goal), wdlc.start(&goal));
                for &m in &moves {
                    let Some(next) = b.apply(Move::from_index(m)) else {
                        continue;
                    };
                    let tile = b.tile(next.blank());
                    (hw, mw) = wd.step(hw, &mw, &next, tile, next.blank(), b.blank());
                    (hc, mc) = wdlc.step(hc, &mc, &next, tile, next.blank(), b.blank());
                    b = next;
                    prop_assert_eq!(hw, wd.estimate(&b));
                    prop_assert_eq!(hc, wdlc.estimate(&b));
                }
                Ok(())
            })
            .unwrap();
    }
}

/// `astar` and `idastar` with walking distance, alone and with linear conflict, find
/// shortest paths: the bundled shallow 15-puzzle pairs, and the Korf instances his IDA*
/// solved in under 2 million nodes, against his optimal lengths.
#[test]
fn searches_with_walking_distance_are_optimal() {
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |file: &str, nodes_below: Option<u64>| -> Vec<(Problem, usize)> {
        let mut rows = csv::ReaderBuilder::new()
            .comment(Some(b'#'))
            .from_path(format!("{root}/inputs/{file}"))
            .unwrap();
        let header = rows.headers().unwrap().clone();
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        let (s, g, e) = (col("start"), col("goal"), col("expected_steps"));
        let mut nodes =
            csv::Reader::from_path(format!("{root}/inputs/korf100-ida-nodes.csv")).unwrap();
        let korf: Vec<u64> = nodes
            .records()
            .map(|r| r.unwrap()[4].parse().unwrap())
            .collect();
        rows.records()
            .enumerate()
            .filter_map(|(i, r)| {
                let r = r.unwrap();
                let d: i64 = r[e].parse().unwrap();
                let keep = d >= 0 && nodes_below.is_none_or(|n| korf[i] < n);
                keep.then(|| {
                    (
                        Problem::new(r[s].parse().unwrap(), r[g].parse().unwrap()).unwrap(),
                        d as usize,
                    )
                })
            })
            .collect()
    };
    let mut problems = read("4x4-shallow.csv", None);
    let korf = read("korf100.csv", Some(2_000_000));
    assert!(korf.len() >= 3, "{}", korf.len());
    problems.extend(korf);
    for (p, d) in &problems {
        let opts = SolveOptions::default();
        let (wd, wdlc) = (
            WalkingDistance::new(&p.goal),
            WalkingDistanceLc::new(&p.goal),
        );
        for (name, out) in [
            ("idastar wd", idastar::solve(p, &opts, &wd)),
            ("astar wd", astar::solve(p, &opts, &wd)),
            ("idastar wd-lc", idastar::solve(p, &opts, &wdlc)),
            ("astar wd-lc", astar::solve(p, &opts, &wdlc)),
        ] {
            let path = out
                .path
                .unwrap_or_else(|| panic!("{name}: no path for {}", p.start));
            assert_eq!(p.start.replay(&path).unwrap(), p.goal, "{name}");
            assert_eq!(path.len(), *d, "{name}: {}", p.start);
        }
    }
}

/// Linear conflict on boards with lines longer than four cells (8x2, 2x8, 5x3, 3x5): rows
/// of up to eight tiles in their goal row (it kept at most four keys a line and panicked),
/// lines longer than its tables (seven and eight cells), admissible against BFS.
#[test]
fn linear_conflict_takes_lines_of_any_length() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(20));
    for (w, h) in [(8, 2), (2, 8), (5, 3), (3, 5)] {
        let shape = Shape::new(w, h).unwrap();
        let goal = Board::standard_goal(shape);
        let lc = LinearConflict::new(&goal);
        assert_eq!(lc.estimate(&goal), 0);
        runner
            .run(&proptest::collection::vec(0u8..4, 0..20), |moves| {
                let start = walk(goal, &moves);
                let (d, v) = (bfs_distance(start, goal), lc.estimate(&start));
                prop_assert!(Manhattan::new(&goal).estimate(&start) <= v);
                prop_assert!(v <= d, "{}: {} above {}", start, v, d);
                Ok(())
            })
            .unwrap();
    }
}
