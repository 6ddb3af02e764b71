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
use std::path::Path;
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
    let goal_kind = GoalKind::from_arg(&args.goal, shape)?;
    // Exact answers: the full distance table where the space fits (≤ 12 cells); beyond it,
    // bidirectional BFS, which needs shallow pairs (random walks).
    let tabulated = tilebench::space::DistanceTable::check(shape).is_ok();
    if !tabulated && (args.walk.is_none() || args.depth.is_some() || args.per_depth.is_some()) {
        return Err(format!(
            "a {shape} board's space is too large to tabulate, so its exact answers come from \
             bidirectional BFS, which needs shallow pairs: use --walk N (N up to about 40)"
        ));
    }
    let oracle = if tabulated {
        Some(Oracle::new(shape).map_err(|e| format!("gen: {e}"))?)
    } else {
        None
    };
    let mut generator = Generator {
        shape,
        goal_kind,
        oracle,
        rng: Rng::new(args.seed),
        by_depth: HashMap::new(),
    };
    let depths = generator.depths(&args);
    let rows = generator.rows(&depths, &args)?;
    let mut out = open_out(args.out.as_deref())?;
    write_dataset(&mut out, shape, tabulated, &rows).map_err(|e| e.to_string())?;
    Ok(OK)
}

impl GoalKind {
    /// The goal of `--goal`: `standard`, `random` or a board.
    fn from_arg(goal: &str, shape: Shape) -> Result<GoalKind, String> {
        Ok(match goal {
            "standard" => GoalKind::Fixed(Board::standard_goal(shape)),
            "random" => GoalKind::Random,
            g => GoalKind::Fixed(
                Board::parse(g, Some(shape)).map_err(|e| format!("--goal `{g}`: {e}"))?,
            ),
        })
    }

    /// The goal of the next pair: the fixed goal, or a random board.
    fn pick(&self, shape: Shape, rng: &mut Rng) -> Board {
        match self {
            GoalKind::Fixed(g) => *g,
            GoalKind::Random => random_board(shape, rng),
        }
    }
}

/// One dataset row: id, start, goal, expected_steps.
type Row = (usize, Board, Board, i64);

/// Draws the dataset's pairs and their exact answers from one seeded generator.
struct Generator {
    shape: Shape,
    goal_kind: GoalKind,
    /// The distance tables, when the space fits (else answers come from bidirectional BFS).
    oracle: Option<Oracle>,
    rng: Rng,
    /// Per goal blank, the ranks of the states at each distance, made when first needed.
    by_depth: HashMap<usize, Vec<Vec<u64>>>,
}

impl Generator {
    /// The depths to produce, one entry per pair (None = any depth).
    fn depths(&mut self, args: &GenArgs) -> Vec<Option<u8>> {
        let Some(k) = args.per_depth else {
            return vec![args.depth; args.count];
        };
        let oracle = self.oracle.as_mut().expect("tabulated");
        let max = match &self.goal_kind {
            GoalKind::Fixed(g) => oracle.table(g.blank()).max_distance(),
            GoalKind::Random => (0..self.shape.cells())
                .map(|b| oracle.table(b).max_distance())
                .max()
                .unwrap_or(0),
        };
        (0..=max as u8)
            .flat_map(|d| std::iter::repeat_n(Some(d), k))
            .collect()
    }

    /// The dataset's rows, one per entry of `depths`, with ids from 1.
    fn rows(&mut self, depths: &[Option<u8>], args: &GenArgs) -> Result<Vec<Row>, String> {
        let mut rows = Vec::with_capacity(depths.len());
        for (i, depth) in depths.iter().enumerate() {
            let (start, goal, expected) = match depth {
                Some(d) => self.at_depth(*d)?,
                None => {
                    let unsolvable = self.rng.unit() < args.unsolvable;
                    self.any_depth(args.walk, unsolvable)?
                }
            };
            rows.push((i + 1, start, goal, expected));
        }
        Ok(rows)
    }

    /// A pair drawn uniformly from the states at exactly distance `d` from a goal that has them.
    fn at_depth(&mut self, d: u8) -> Result<(Board, Board, i64), String> {
        let mut tries = 0;
        let oracle = self.oracle.as_mut().expect("tabulated");
        loop {
            let goal = self.goal_kind.pick(self.shape, &mut self.rng);
            let table_ranks = self
                .by_depth
                .entry(goal.blank())
                .or_insert_with(|| oracle.table(goal.blank()).ranks_by_distance());
            if let Some(ranks) = table_ranks.get(d as usize) {
                let r = ranks[self.rng.below(ranks.len() as u64) as usize];
                let canon = oracle.table(goal.blank()).unrank(r);
                return Ok((unlabel(&canon, &goal), goal, d as i64));
            }
            tries += 1;
            if tries > 1000 || matches!(self.goal_kind, GoalKind::Fixed(_)) {
                let shape = self.shape;
                return Err(format!(
                    "--depth {d}: no {shape} state is {d} moves from the goal; `tilebench space --size {shape}` shows the depths that exist"
                ));
            }
        }
    }

    /// A pair at any depth (a random board, or a random walk of `walk` moves from the goal),
    /// solvable or not as asked, with its exact distance (−1 when unsolvable).
    fn any_depth(
        &mut self,
        walk: Option<usize>,
        unsolvable: bool,
    ) -> Result<(Board, Board, i64), String> {
        let goal = self.goal_kind.pick(self.shape, &mut self.rng);
        let mut start = match walk {
            Some(n) => random_walk(goal, n, &mut self.rng),
            None => random_board(self.shape, &mut self.rng),
        };
        if is_solvable(&start, &goal) == unsolvable {
            start = flip_parity(&start);
        }
        let expected = match self.oracle.as_mut() {
            Some(o) => o.distance(&start, &goal).map_or(-1, |d| d as i64),
            None => exact_by_bibfs(start, goal)?,
        };
        Ok((start, goal, expected))
    }
}

/// Where the dataset goes: the --out file, or stdout.
fn open_out(path: Option<&Path>) -> Result<Box<dyn Write>, String> {
    Ok(match path {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    })
}

/// The command that made the file, without where it was written.
fn command_without_out() -> String {
    let mut command = Vec::new();
    let mut argv = std::env::args().skip(1);
    while let Some(a) = argv.next() {
        if a == "-o" || a == "--out" {
            argv.next();
        } else if !a.starts_with("--out=") {
            command.push(a);
        }
    }
    command.join(" ")
}

/// Writes the dataset: comment lines saying how it was made, the header, the rows.
fn write_dataset(
    out: &mut dyn Write,
    shape: Shape,
    tabulated: bool,
    rows: &[Row],
) -> std::io::Result<()> {
    writeln!(
        out,
        "# made by tilebench {} with: tilebench {}",
        env!("CARGO_PKG_VERSION"),
        command_without_out()
    )?;
    writeln!(
        out,
        "# expected_steps is exact ({}); -1 = unsolvable",
        if tabulated {
            "full-space BFS distance table"
        } else {
            "bidirectional BFS"
        }
    )?;
    let square = Shape::from_cells(shape.cells()) == Some(shape);
    if square {
        writeln!(out, "id,start,goal,expected_steps")?;
    } else {
        writeln!(out, "id,size,start,goal,expected_steps")?;
    }
    for (id, start, goal, expected) in rows {
        if square {
            writeln!(out, "{id},{start},{goal},{expected}")?;
        } else {
            writeln!(out, "{id},{shape},{start},{goal},{expected}")?;
        }
    }
    out.flush()
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
