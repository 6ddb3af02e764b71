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
use std::path::{Path, PathBuf};
use tilebench::puzzle::{is_solvable, Board, Shape, MOVE_ORDER};
use tilebench::space::{unlabel, Oracle};
use tilebench::util::{shell_command, Fnv1a64, Rng};

enum GoalKind {
    Fixed(Board),
    Random,
}

fn random_board(shape: Shape, rng: &mut Rng) -> Board {
    let mut tiles: Vec<u8> = (0..shape.cells() as u8).collect();
    rng.shuffle(&mut tiles);
    Board::from_tiles(shape, &tiles)
}

pub fn run(args: GenArgs) -> CmdResult {
    let shape: Shape = args.size;
    if args.unsolvable > 0.0 && (args.depth.is_some() || args.per_depth.is_some()) {
        let (opt, value) = match (args.depth, args.per_depth) {
            (Some(d), _) => ("--depth", d as u64),
            (_, k) => ("--per-depth", k.unwrap_or(0)),
        };
        return Err(format!(
            "--unsolvable {} with {opt} {value}: pairs at a given depth are solvable (an \
             unsolvable pair has no depth); drop --unsolvable, or drop {opt} to mix unsolvable \
             pairs into uniformly sampled ones",
            args.unsolvable
        ));
    }
    let goal_kind = GoalKind::from_arg(&args.goal, shape)?;
    // Exact answers: the full distance table where the space fits (≤ 12 cells); beyond it,
    // bidirectional BFS, which needs shallow pairs (random walks); beyond 16 cells, IDA*
    // within a budget, where it finishes (else the cell is empty).
    let tabulated = tilebench::space::DistanceTable::check(shape).is_ok();
    if !shape.is_packed() && (args.depth.is_some() || args.per_depth.is_some()) {
        return Err(format!(
            "--depth and --per-depth need a distance table, and a {shape} board's space is far \
             too large for one: drop them (pairs are drawn uniformly, or by --walk N)"
        ));
    }
    if shape.is_packed()
        && !tabulated
        && (args.walk.is_none() || args.depth.is_some() || args.per_depth.is_some())
    {
        return Err(format!(
            "a {shape} board's space is too large to tabulate, so its exact answers come from \
             bidirectional BFS, which needs shallow pairs: use --walk N (N up to about 40)"
        ));
    }
    if let Some(p) = &args.out {
        check_out(p)?;
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
    // Checked before a byte is written (the tables are built now rather than at the first
    // row).
    if let (Some(d), true) = (args.depth, tabulated) {
        if d > generator.max_depth() {
            return Err(format!(
                "--depth {d}: no {shape} state is {d} moves from {}; the deepest is {} moves \
                 (`tilebench space --size {shape}` shows the depths that exist)",
                if matches!(generator.goal_kind, GoalKind::Fixed(_)) {
                    "the goal"
                } else {
                    "any goal"
                },
                generator.max_depth()
            ));
        }
    }
    let method = if tabulated {
        "full-space BFS distance table"
    } else if shape.is_packed() {
        "bidirectional BFS"
    } else {
        WIDE_METHOD
    };
    match &args.out {
        None => to_stdout(&mut generator, &args, method),
        Some(path) => to_file(&mut generator, &args, method, path),
    }
}

/// A writer that writes `header` before the first bytes written to it (or at
/// [`HeaderFirst::finish`], when none were).
struct HeaderFirst<W: Write> {
    header: Option<String>,
    inner: W,
}

impl<W: Write> HeaderFirst<W> {
    fn pending(&mut self) -> std::io::Result<()> {
        match self.header.take() {
            Some(h) => self.inner.write_all(h.as_bytes()),
            None => Ok(()),
        }
    }
    /// Writes the header if no row was written.
    fn finish(&mut self) -> std::io::Result<()> {
        self.pending()
    }
}

impl<W: Write> Write for HeaderFirst<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending()?;
        self.inner.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Why writing the dataset stopped.
enum Failure {
    /// The output could not be written.
    Write(std::io::Error),
    /// No such pair could be made (the message says why).
    Gen(String),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Write(e)
    }
}

/// Writes the dataset to stdout, and how it was made to stderr. A closed pipe (`| head`)
/// ends it quietly.
fn to_stdout(generator: &mut Generator, args: &GenArgs, method: &str) -> CmdResult {
    eprintln!(
        "tilebench gen: made by tilebench {} with `{}`; expected_steps is exact ({method}), \
         -1 = unsolvable (with --out FILE this goes to FILE.json)",
        env!("CARGO_PKG_VERSION"),
        shell_command(&command())
    );
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = generator
        .write(args, &mut out)
        .and_then(|_| Ok(out.flush()?));
    match written {
        Ok(()) => Ok(OK),
        Err(Failure::Write(e)) => super::stdout_written(Err(e)),
        Err(Failure::Gen(msg)) => Err(msg),
    }
}

/// Refuses an --out that cannot be a file, before any work.
fn check_out(path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!(
            "--out {shown} is a directory; give a file name, e.g. {}",
            path.join("dataset.csv").display()
        ));
    }
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => Err(format!(
            "--out {shown}: the directory {} does not exist; create it first",
            dir.display()
        )),
        _ => Ok(()),
    }
}

/// Writes the dataset to `path` and how it was made to `path`.json, each atomically (a
/// failure leaves no half-written file).
fn to_file(
    generator: &mut Generator,
    args: &GenArgs,
    method: &'static str,
    path: &Path,
) -> CmdResult {
    let mut failure = None;
    let mut made = None;
    tilebench::util::atomic_write(path, |w| {
        let mut tally = Tally {
            inner: w,
            bytes: 0,
            hash: Fnv1a64::default(),
        };
        match generator.write(args, &mut tally) {
            Ok(rows) => {
                made = Some((rows, tally.bytes, tally.hash.hex()));
                Ok(())
            }
            Err(Failure::Write(e)) => Err(e),
            Err(Failure::Gen(msg)) => {
                failure = Some(msg);
                Err(std::io::Error::other("stopped"))
            }
        }
    })
    .map_err(|e| failure.take().unwrap_or(e))?;
    let (rows, bytes, fnv1a64) = made.expect("written");
    let sidecar = sidecar_path(path);
    let provenance = Provenance {
        tilebench_version: env!("CARGO_PKG_VERSION"),
        git_commit: tilebench::util::git_commit(),
        command: command(),
        rows,
        bytes,
        fnv1a64,
        columns: columns(generator.shape).to_vec(),
        expected_steps: ExpectedSteps {
            exact: true,
            method,
            unsolvable: -1,
        },
    };
    tilebench::util::atomic_write(&sidecar, |w| {
        serde_json::to_writer_pretty(&mut *w, &provenance)?;
        writeln!(w)
    })?;
    eprintln!(
        "tilebench gen: wrote {rows} rows to {}; how they were made is in {}",
        path.display(),
        sidecar.display()
    );
    Ok(OK)
}

/// Where `gen --out FILE` says how FILE was made: FILE.json.
fn sidecar_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".json");
    PathBuf::from(name)
}

/// How a dataset was made, in its `.json` sidecar.
#[derive(serde::Serialize)]
struct Provenance {
    tilebench_version: &'static str,
    git_commit: Option<&'static str>,
    /// The command, without `--out`.
    command: Vec<String>,
    rows: u64,
    bytes: u64,
    /// The dataset's checksum, as run.json records its inputs'.
    fnv1a64: String,
    columns: Vec<&'static str>,
    expected_steps: ExpectedSteps,
}

/// How the dataset's `expected_steps` were computed.
#[derive(serde::Serialize)]
struct ExpectedSteps {
    exact: bool,
    method: &'static str,
    unsolvable: i64,
}

/// A writer that counts and hashes what goes through it.
struct Tally<W> {
    inner: W,
    bytes: u64,
    hash: Fnv1a64,
}

impl<W: Write> Write for Tally<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The dataset's columns: a `size` column for boards that are not square.
fn columns(shape: Shape) -> &'static [&'static str] {
    if Shape::from_cells(shape.cells()) == Some(shape) {
        &["id", "start", "goal", "expected_steps"]
    } else {
        &["id", "size", "start", "goal", "expected_steps"]
    }
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
    /// The largest distance from the goal (from any goal, for random goals).
    fn max_depth(&mut self) -> u8 {
        let oracle = self.oracle.as_mut().expect("tabulated");
        let max = match &self.goal_kind {
            GoalKind::Fixed(g) => oracle.table(g.blank()).max_distance(),
            GoalKind::Random => (0..self.shape.cells())
                .map(|b| oracle.table(b).max_distance())
                .max()
                .unwrap_or(0),
        };
        max as u8
    }

    /// Writes the header, then the rows one by one as they are drawn (nothing is held but
    /// the distance tables), with ids from 1; returns how many rows were written.
    fn write(&mut self, args: &GenArgs, out: &mut impl Write) -> Result<u64, Failure> {
        // The header goes out with the first row: a pair that cannot be made (the first row's
        // error) leaves nothing written, not a header-only file.
        let mut out = HeaderFirst {
            header: Some(format!("{}\n", columns(self.shape).join(","))),
            inner: out,
        };
        let rows = self.write_rows(args, &mut out)?;
        out.finish()?;
        Ok(rows)
    }

    /// [`Generator::write`]'s rows.
    fn write_rows(&mut self, args: &GenArgs, out: &mut impl Write) -> Result<u64, Failure> {
        let mut id = 0;
        match args.per_depth {
            Some(k) => {
                for d in 0..=self.max_depth() {
                    for _ in 0..k {
                        id += 1;
                        self.row(id, Some(d), args, out)?;
                    }
                }
            }
            None if args.depth.is_none()
                && matches!(self.goal_kind, GoalKind::Random)
                && self.oracle.is_some() =>
            {
                id = self.write_random_goals(args, out)?;
            }
            None => {
                for _ in 0..args.count {
                    id += 1;
                    self.row(id, args.depth, args, out)?;
                }
            }
        }
        Ok(id)
    }

    /// [`Generator::write`] for pairs of any depth towards random goals, whose answers need
    /// the distance table of each goal's blank cell: held all at once, a 3x4 board's twelve
    /// tables would take over 9 GB. The pairs are drawn first (as the rows would draw them,
    /// so the dataset is the same), then answered one table at a time, each dropped before
    /// the next is built, then written in order.
    fn write_random_goals(&mut self, args: &GenArgs, out: &mut impl Write) -> Result<u64, Failure> {
        let mut pairs = Vec::with_capacity(args.count.min(1 << 24) as usize);
        for _ in 0..args.count {
            let unsolvable = self.rng.unit() < args.unsolvable;
            pairs.push(self.draw(args.walk, unsolvable));
        }
        let oracle = self.oracle.as_mut().expect("tabulated");
        let mut expected = vec![-1i64; pairs.len()];
        for blank in 0..self.shape.cells() {
            // The table is built by the first pair that needs it (none, when no goal has
            // its blank here).
            for (i, (start, goal)) in pairs.iter().enumerate() {
                if goal.blank() == blank {
                    expected[i] = oracle.distance(start, goal).map_or(-1, |d| d as i64);
                }
            }
            oracle.forget(blank);
        }
        for (i, ((start, goal), e)) in pairs.iter().zip(&expected).enumerate() {
            self.write_row(i as u64 + 1, (start, goal, Some(*e)), out)?;
        }
        Ok(pairs.len() as u64)
    }

    /// One row of the dataset (an empty expected_steps when it is not known).
    fn write_row(
        &self,
        id: u64,
        (start, goal, expected): (&Board, &Board, Option<i64>),
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let expected = Blank(expected);
        if columns(self.shape).len() == 4 {
            writeln!(out, "{id},{start},{goal},{expected}")
        } else {
            writeln!(out, "{id},{},{start},{goal},{expected}", self.shape)
        }
    }

    /// Draws one pair (at `depth`, or at any depth) and writes its row.
    fn row(
        &mut self,
        id: u64,
        depth: Option<u8>,
        args: &GenArgs,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let (start, goal, expected) = match depth {
            Some(d) => self.at_depth(d),
            None => {
                let unsolvable = self.rng.unit() < args.unsolvable;
                self.any_depth(args.walk, unsolvable)
            }
        }
        .map_err(Failure::Gen)?;
        Ok(self.write_row(id, (&start, &goal, expected), out)?)
    }

    /// A pair drawn uniformly from the states at exactly distance `d` from a goal that has them.
    fn at_depth(&mut self, d: u8) -> Result<(Board, Board, Option<i64>), String> {
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
                return Ok((unlabel(&canon, &goal), goal, Some(d as i64)));
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
    /// solvable or not as asked, with its exact distance (−1 when unsolvable; none for a
    /// board of more than 16 cells that IDA* did not solve within its budget).
    fn any_depth(
        &mut self,
        walk: Option<usize>,
        unsolvable: bool,
    ) -> Result<(Board, Board, Option<i64>), String> {
        let (start, goal) = self.draw(walk, unsolvable);
        let expected = match self.oracle.as_mut() {
            Some(o) => Some(o.distance(&start, &goal).map_or(-1, |d| d as i64)),
            None if start.is_packed() => Some(exact_by_bibfs(start, goal)?),
            None => exact_by_ida(start, goal, walk.is_some()),
        };
        Ok((start, goal, expected))
    }

    /// A pair of any depth, solvable or not as asked: its goal, then its start (a random
    /// board, or a random walk of `walk` moves from the goal).
    fn draw(&mut self, walk: Option<usize>, unsolvable: bool) -> (Board, Board) {
        let goal = self.goal_kind.pick(self.shape, &mut self.rng);
        let mut start = match walk {
            Some(n) => random_walk(goal, n, &mut self.rng),
            None => random_board(self.shape, &mut self.rng),
        };
        if is_solvable(&start, &goal) == unsolvable {
            start = start.with_parity_flipped();
        }
        (start, goal)
    }
}

/// The command that made the dataset, without where it was written.
fn command() -> Vec<String> {
    let mut command = vec!["tilebench".to_string()];
    let mut argv = std::env::args().skip(1);
    while let Some(a) = argv.next() {
        if a == "-o" || a == "--out" {
            argv.next();
        } else if !(a.starts_with("--out=") || a.starts_with("-o") && a.len() > 2) {
            command.push(a);
        }
    }
    command
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

/// How the answers of boards of more than 16 cells are found.
const WIDE_METHOD: &str = "IDA* with linear conflict within 2,000,000 expansions (random \
    walks only; empty where it did not finish)";

/// An optional number as a CSV cell: the number, or nothing.
struct Blank(Option<i64>);

impl std::fmt::Display for Blank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{v}"),
            None => Ok(()),
        }
    }
}

/// The exact distance of a pair of more than 16 cells (−1 when unsolvable): by IDA* with
/// linear conflict within 2,000,000 expansions, tried only for a random walk (`walked`: a
/// uniformly drawn 5x5 board is about 150 moves from its goal, far out of reach); `None`
/// when not tried or not finished.
fn exact_by_ida(start: Board, goal: Board, walked: bool) -> Option<i64> {
    use tilebench::search::wide::{self, Estimate, Mode};
    use tilebench::search::{Limits, Problem, SolveOptions, Status};
    if !is_solvable(&start, &goal) {
        return Some(-1);
    }
    if !walked {
        return None;
    }
    let p = Problem::new(start, goal).ok()?;
    let opts = SolveOptions {
        limits: Limits {
            max_nodes: Some(2_000_000),
            ..Limits::default()
        },
        ..SolveOptions::default()
    };
    let out = wide::solve(&p, &opts, &Estimate::new(&goal, true), Mode::Ida);
    (out.status == Status::Solved).then(|| out.steps().unwrap_or(0) as i64)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs towards random goals are answered one goal-blank table at a time: none is held
    /// once they are written, and each answer is the distance a fresh table gives.
    #[test]
    fn random_goals_are_answered_one_table_at_a_time() {
        let shape: Shape = "2x3".parse().unwrap();
        let args = GenArgs {
            count: 300,
            size: shape,
            goal: "random".into(),
            unsolvable: 0.2,
            depth: None,
            per_depth: None,
            walk: None,
            seed: 5,
            out: None,
        };
        let mut generator = Generator {
            shape,
            goal_kind: GoalKind::from_arg(&args.goal, shape).unwrap(),
            oracle: Some(Oracle::new(shape).unwrap()),
            rng: Rng::new(args.seed),
            by_depth: HashMap::new(),
        };
        let mut out = Vec::new();
        assert!(matches!(generator.write(&args, &mut out), Ok(300)));
        assert_eq!(generator.oracle.as_ref().unwrap().held(), 0);
        let text = String::from_utf8(out).unwrap();
        let mut fresh = Oracle::new(shape).unwrap();
        let mut blanks = std::collections::HashSet::new();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let board = |t: &str| Board::parse(t, Some(shape)).unwrap();
            let (start, goal) = (board(f[2]), board(f[3]));
            blanks.insert(goal.blank());
            let want = fresh.distance(&start, &goal).map_or(-1, |d| d as i64);
            assert_eq!(f[4].parse::<i64>().unwrap(), want, "{line}");
        }
        assert!(blanks.len() > 1, "the goals' blanks should vary");
    }
}
