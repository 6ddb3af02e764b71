//! `tilebench gen`: datasets with exact answers, deterministic for a seed.
//!
//! Starts are sampled uniformly from the board's arrangements (or, with `--depth` and
//! `--per-depth`, uniformly from the states at that exact distance), and every
//! `expected_steps` comes from a full distance table of the state space ([`Oracle`]), a
//! method independent of the strategies under test.

use super::{CmdResult, OK};
use crate::cli::GenArgs;
use std::collections::HashMap;
use std::io::Write;
use tilebench::puzzle::{is_solvable, Board, Shape, MOVE_ORDER};
use tilebench::space::{unlabel, Oracle};
use tilebench::util::Rng;

enum GoalKind {
    Fixed(Board),
    Random,
}

fn random_board(shape: Shape, rng: &mut Rng) -> Board {
    let mut tiles: Vec<u8> = (0..shape.cells() as u8).collect();
    rng.shuffle(&mut tiles);
    Board::from_tiles(shape, &tiles)
}

/// Swaps the first two tiles (not the blank): flips solvability, a bijection between halves.
fn flip_parity(b: &Board) -> Board {
    let mut tiles = b.tiles();
    let cells: Vec<usize> = (0..tiles.len())
        .filter(|&p| tiles[p] != 0)
        .take(2)
        .collect();
    tiles.swap(cells[0], cells[1]);
    Board::from_tiles(b.shape(), &tiles)
}

pub fn run(args: GenArgs) -> CmdResult {
    let shape: Shape = args.size;
    if !(0.0..=1.0).contains(&args.unsolvable) {
        return Err(format!(
            "--unsolvable {}: give a fraction from 0 to 1",
            args.unsolvable
        ));
    }
    let goal_kind = match args.goal.as_str() {
        "standard" => GoalKind::Fixed(Board::standard_goal(shape)),
        "random" => GoalKind::Random,
        g => {
            GoalKind::Fixed(Board::parse(g, Some(shape)).map_err(|e| format!("--goal `{g}`: {e}"))?)
        }
    };
    // Exact answers: the full distance table where the space fits (≤ 12 cells); beyond it,
    // bidirectional BFS, which needs shallow pairs (random walks).
    let tabulated = tilebench::space::DistanceTable::check(shape).is_ok();
    if !tabulated && (args.walk.is_none() || args.depth.is_some() || args.per_depth.is_some()) {
        return Err(format!(
            "a {shape} board's space is too large to tabulate, so its exact answers come from \
             bidirectional BFS, which needs shallow pairs: use --walk N (N up to about 40)"
        ));
    }
    let mut oracle = if tabulated {
        Some(Oracle::new(shape).map_err(|e| format!("gen: {e}"))?)
    } else {
        None
    };
    let mut rng = Rng::new(args.seed);
    let pick_goal = |rng: &mut Rng| match &goal_kind {
        GoalKind::Fixed(g) => *g,
        GoalKind::Random => random_board(shape, rng),
    };

    // The depths to produce, one entry per pair (None = any depth).
    let depths: Vec<Option<u8>> = if let Some(k) = args.per_depth {
        let max = match &goal_kind {
            GoalKind::Fixed(g) => oracle
                .as_mut()
                .expect("tabulated")
                .table(g.blank())
                .max_distance(),
            GoalKind::Random => (0..shape.cells())
                .map(|b| oracle.as_mut().expect("tabulated").table(b).max_distance())
                .max()
                .unwrap_or(0),
        };
        (0..=max as u8)
            .flat_map(|d| std::iter::repeat_n(Some(d), k))
            .collect()
    } else {
        vec![args.depth; args.count]
    };

    let mut by_depth: HashMap<usize, Vec<Vec<u64>>> = HashMap::new();
    let mut rows = Vec::with_capacity(depths.len());
    for (i, depth) in depths.iter().enumerate() {
        let unsolvable = depth.is_none() && rng.unit() < args.unsolvable;
        let (start, goal, expected): (Board, Board, i64) = match depth {
            Some(d) => {
                // Uniform over the states at exactly distance d from a goal that has them.
                let mut tries = 0;
                let oracle = oracle.as_mut().expect("tabulated");
                loop {
                    let goal = pick_goal(&mut rng);
                    let table_ranks = by_depth
                        .entry(goal.blank())
                        .or_insert_with(|| oracle.table(goal.blank()).ranks_by_distance());
                    if let Some(ranks) = table_ranks.get(*d as usize) {
                        let r = ranks[rng.below(ranks.len() as u64) as usize];
                        let canon = oracle.table(goal.blank()).unrank(r);
                        break (unlabel(&canon, &goal), goal, *d as i64);
                    }
                    tries += 1;
                    if tries > 1000 || matches!(goal_kind, GoalKind::Fixed(_)) {
                        return Err(format!(
                            "--depth {d}: no {shape} state is {d} moves from the goal; `tilebench space --size {shape}` shows the depths that exist"
                        ));
                    }
                }
            }
            None => {
                let goal = pick_goal(&mut rng);
                let mut start = match args.walk {
                    Some(n) => random_walk(goal, n, &mut rng),
                    None => random_board(shape, &mut rng),
                };
                if is_solvable(&start, &goal) == unsolvable {
                    start = flip_parity(&start);
                }
                let expected = match oracle.as_mut() {
                    Some(o) => o.distance(&start, &goal).map_or(-1, |d| d as i64),
                    None => exact_by_bibfs(start, goal)?,
                };
                (start, goal, expected)
            }
        };
        rows.push((i + 1, start, goal, expected));
    }

    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let io = |e: std::io::Error| e.to_string();
    // The command that made the file, without where it was written.
    let mut command = Vec::new();
    let mut argv = std::env::args().skip(1);
    while let Some(a) = argv.next() {
        if a == "-o" || a == "--out" {
            argv.next();
        } else if !a.starts_with("--out=") {
            command.push(a);
        }
    }
    writeln!(
        out,
        "# made by tilebench {} with: tilebench {}",
        env!("CARGO_PKG_VERSION"),
        command.join(" ")
    )
    .map_err(io)?;
    writeln!(
        out,
        "# expected_steps is exact ({}); -1 = unsolvable",
        if tabulated {
            "full-space BFS distance table"
        } else {
            "bidirectional BFS"
        }
    )
    .map_err(io)?;
    let square = Shape::from_cells(shape.cells()) == Some(shape);
    if square {
        writeln!(out, "id,start,goal,expected_steps").map_err(io)?;
    } else {
        writeln!(out, "id,size,start,goal,expected_steps").map_err(io)?;
    }
    for (id, start, goal, expected) in rows {
        if square {
            writeln!(out, "{id},{start},{goal},{expected}").map_err(io)?;
        } else {
            writeln!(out, "{id},{shape},{start},{goal},{expected}").map_err(io)?;
        }
    }
    out.flush().map_err(io)?;
    Ok(OK)
}

/// A random walk of `n` moves from `goal`, never undoing the previous move.
fn random_walk(goal: Board, n: usize, rng: &mut Rng) -> Board {
    let mut b = goal;
    let mut last: Option<usize> = None;
    for _ in 0..n {
        let legal: Vec<usize> = (0..4)
            .filter(|&m| last != Some(3 - m) && b.apply(MOVE_ORDER[m]).is_some())
            .collect();
        let m = legal[rng.below(legal.len() as u64) as usize];
        b = b.apply(MOVE_ORDER[m]).expect("legal move");
        last = Some(m);
    }
    b
}

/// The exact distance by bidirectional BFS (−1 when unsolvable), for boards too large to tabulate.
fn exact_by_bibfs(start: Board, goal: Board) -> Result<i64, String> {
    use tilebench::search::{Problem, SolveOptions, Status};
    let p = Problem::new(start, goal)?;
    let out = tilebench::search::shortcut(&p, false)
        .unwrap_or_else(|| tilebench::search::bibfs::solve(&p, &SolveOptions::default()));
    match out.status {
        Status::Solved => Ok(out.steps().unwrap_or(0) as i64),
        Status::Unsolvable => Ok(-1),
        Status::Limit => Err(format!(
            "{start} → {goal} is too deep for an exact answer by bidirectional BFS; use a shorter --walk"
        )),
    }
}
