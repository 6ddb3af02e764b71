//! Datasets with exact answers, deterministic for a seed (`tilebench gen`).
//!
//! Starts are sampled uniformly from the board's arrangements (or, with a depth, uniformly
//! from the states at that exact distance), or by random walks from the goal; every
//! `expected_steps` comes from a full distance table of the state space (`Oracle`), a
//! method independent of the strategies under test, where the space fits (at most 12
//! cells); from bidirectional BFS on larger boards of at most 16 cells (shallow pairs, by
//! walks); from IDA* within a budget beyond (random walks only; empty where it did not
//! finish).
//!
//! ```
//! use tilebench::gen::{GenSpec, Generator};
//! let spec = GenSpec { count: 3, seed: 7, ..GenSpec::default() };
//! let mut out = Vec::new();
//! let rows = Generator::new(spec).unwrap().write(&mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(rows, 3);
//! assert!(text.starts_with("id,start,goal,expected_steps\n1,"));
//! ```

use crate::observe::Wording;
use crate::puzzle::{is_solvable, Board, Shape, MOVE_ORDER};
use crate::space::{unlabel, Oracle};
use crate::util::{Fnv1a64, Rng};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The goal of a dataset's pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Tiles in order, blank last.
    Standard,
    /// A random board for each pair.
    Random,
    /// This board.
    Board(Board),
}

impl Goal {
    /// Reads `standard`, `random` or a board of `shape`.
    ///
    /// # Errors
    /// A board that does not read: the message says why.
    pub fn parse(text: &str, shape: Shape) -> Result<Goal, GenError> {
        Ok(match text.trim() {
            "standard" => Goal::Standard,
            "random" => Goal::Random,
            g => Goal::Board(
                Board::parse(g, Some(shape))
                    .map_err(|e| GenError::Options(worded(format!("--goal `{g}`: {e}"))))?,
            ),
        })
    }
}

/// What a dataset holds: `gen`'s options, checked by [`Generator::new`].
#[derive(Clone, Debug, PartialEq)]
pub struct GenSpec {
    /// The board shape.
    pub shape: Shape,
    /// The goal of every pair.
    pub goal: Goal,
    /// How many pairs (without `per_depth`).
    pub count: u64,
    /// The fraction of pairs that are unsolvable (0 to 1).
    pub unsolvable: f64,
    /// Every pair exactly this many moves apart.
    pub depth: Option<u8>,
    /// This many pairs at each distance that exists.
    pub per_depth: Option<u64>,
    /// Starts by random walks of this many moves from the goal.
    pub walk: Option<usize>,
    /// The seed: one seed, one dataset.
    pub seed: u64,
}

impl Default for GenSpec {
    /// 100 pairs of 3x3 boards to the standard goal, uniformly drawn, seed 1.
    fn default() -> Self {
        GenSpec {
            shape: Shape::S3X3,
            goal: Goal::Standard,
            count: 100,
            unsolvable: 0.0,
            depth: None,
            per_depth: None,
            walk: None,
            seed: 1,
        }
    }
}

/// Why a dataset could not be made or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// The options ask for what cannot be made (the sentence says why and what to do, in
    /// the options' words; [`Wording::with_flags`] as the command line says it).
    #[error("{0}")]
    Options(Wording),
    /// A pair could not be answered exactly (the sentence says what to change).
    #[error("{0}")]
    Pair(Wording),
    /// The output could not be written.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// The command line's flags in `gen`'s messages, and each in [`GenSpec`]'s words.
const PHRASES: [(&str, &str); 6] = [
    ("--per-depth", "per_depth"),
    ("--depth", "depth"),
    ("--unsolvable", "unsolvable"),
    ("--walk", "walk"),
    ("--out ", "the output file "),
    ("--goal ", "goal "),
];

/// A message made with the command line's flags ([`PHRASES`]): in [`GenSpec`]'s words, and
/// as it was made.
fn worded(flags: String) -> Wording {
    let words = PHRASES
        .iter()
        .fold(flags.clone(), |t, (flag, words)| t.replace(flag, words));
    Wording::new(words, flags)
}

/// `text` (made with the flags), then where to see the depths that exist: `tilebench space
/// --size SHAPE` on the command line, `space::DistanceTable` in the library; in parentheses
/// (`paren`) or after a `;`.
fn with_depths(text: String, (shape, paren): (Shape, bool)) -> Wording {
    let w = worded(text);
    let tail = |what: &str| {
        if paren {
            format!(" ({what} shows the depths that exist)")
        } else {
            format!("; {what} shows the depths that exist")
        }
    };
    Wording::new(
        format!("{}{}", w.words(), tail("`space::DistanceTable`")),
        format!(
            "{}{}",
            w.with_flags(),
            tail(&format!("`tilebench space --size {shape}`"))
        ),
    )
}

/// A random board of `shape` (either parity).
pub(crate) fn random_board(shape: Shape, rng: &mut Rng) -> Board {
    let mut tiles: Vec<u8> = (0..shape.cells() as u8).collect();
    rng.shuffle(&mut tiles);
    Board::from_tiles(shape, &tiles)
}

/// Refuses a path the dataset cannot be written to (a directory, or in a directory that
/// does not exist), before any work.
///
/// # Errors
/// The sentence says what is wrong and what to give.
pub fn check_out(path: &Path) -> Result<(), GenError> {
    let shown = path.display();
    if path.is_dir() {
        return Err(GenError::Options(worded(format!(
            "--out {shown} is a directory; give a file name, e.g. {}",
            path.join("dataset.csv").display()
        ))));
    }
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => Err(GenError::Options(worded(format!(
            "--out {shown}: the directory {} does not exist; create it first",
            dir.display()
        )))),
        _ => Ok(()),
    }
}

/// Draws a dataset's pairs and their exact answers from one seeded generator.
pub struct Generator {
    spec: GenSpec,
    /// The distance tables, when the space fits (else answers come from a search).
    oracle: Option<Oracle>,
    rng: Rng,
    /// Per goal blank, the ranks of the states at each distance, made when first needed.
    by_depth: HashMap<usize, Vec<Vec<u64>>>,
}

/// What [`Generator::write_file`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Rows of data.
    pub rows: u64,
    /// Where it says how the file was made (`FILE.json`).
    pub sidecar: PathBuf,
}

impl Generator {
    /// A generator of `spec`'s dataset, its options checked and its distance tables made
    /// (they are needed before the first row).
    ///
    /// # Errors
    /// Options that ask for what cannot be made: unsolvable pairs at a depth, a depth that
    /// does not exist, a depth on a board too large to tabulate, uniform pairs on a board
    /// whose answers need shallow walks.
    pub fn new(spec: GenSpec) -> Result<Generator, GenError> {
        let shape = spec.shape;
        let refuse = |m: String| Err(GenError::Options(worded(m)));
        if spec.unsolvable > 0.0 && (spec.depth.is_some() || spec.per_depth.is_some()) {
            let (opt, value) = match (spec.depth, spec.per_depth) {
                (Some(d), _) => ("--depth", d as u64),
                (_, k) => ("--per-depth", k.unwrap_or(0)),
            };
            return refuse(format!(
                "--unsolvable {} with {opt} {value}: pairs at a given depth are solvable (an \
                 unsolvable pair has no depth); drop --unsolvable, or drop {opt} to mix \
                 unsolvable pairs into uniformly sampled ones",
                spec.unsolvable
            ));
        }
        let tabulated = crate::space::DistanceTable::check(shape).is_ok();
        let at_depth = spec.depth.is_some() || spec.per_depth.is_some();
        if !shape.is_packed() && at_depth {
            return refuse(format!(
                "--depth and --per-depth need a distance table, and a {shape} board's space is \
                 far too large for one: drop them (pairs are drawn uniformly, or by --walk N)"
            ));
        }
        if shape.is_packed() && !tabulated && (spec.walk.is_none() || at_depth) {
            return refuse(format!(
                "a {shape} board's space is too large to tabulate, so its exact answers come \
                 from bidirectional BFS, which needs shallow pairs: use --walk N (N up to about \
                 40)"
            ));
        }
        let oracle = if tabulated {
            Some(Oracle::new(shape).map_err(|e| GenError::Options(format!("gen: {e}").into()))?)
        } else {
            None
        };
        let mut generator = Generator {
            rng: Rng::new(spec.seed),
            spec,
            oracle,
            by_depth: HashMap::new(),
        };
        if let (Some(d), true) = (generator.spec.depth, tabulated) {
            if d > generator.max_depth() {
                return Err(GenError::Options(with_depths(
                    format!(
                        "--depth {d}: no {shape} state is {d} moves from {}; the deepest is {} \
                     moves",
                        if matches!(generator.spec.goal, Goal::Random) {
                            "any goal"
                        } else {
                            "the goal"
                        },
                        generator.max_depth()
                    ),
                    (shape, true),
                )));
            }
        }
        Ok(generator)
    }

    /// How the `expected_steps` are found, in words.
    pub fn method(&self) -> &'static str {
        if self.oracle.is_some() {
            "full-space BFS distance table"
        } else if self.spec.shape.is_packed() {
            "bidirectional BFS"
        } else {
            WIDE_METHOD
        }
    }

    /// The dataset's columns: a `size` column for boards that are not square.
    pub(crate) fn columns(&self) -> &'static [&'static str] {
        columns(self.spec.shape)
    }

    /// Writes the dataset to `path` and how it was made (`command`, the method, the rows,
    /// the checksum) to `path`.json, each atomically: a failure leaves no half-written file.
    ///
    /// # Errors
    /// A pair that cannot be answered, or a file that cannot be written.
    pub fn write_file(&mut self, path: &Path, command: Vec<String>) -> Result<Written, GenError> {
        let mut failure = None;
        let mut made = None;
        crate::util::atomic_write(path, |w| {
            let mut tally = Tally {
                inner: w,
                bytes: 0,
                hash: Fnv1a64::default(),
            };
            match self.write(&mut tally) {
                Ok(rows) => {
                    made = Some((rows, tally.bytes, tally.hash.hex()));
                    Ok(())
                }
                Err(GenError::Write(e)) => Err(e),
                Err(e) => {
                    failure = Some(e);
                    Err(std::io::Error::other("stopped"))
                }
            }
        })
        .map_err(|e| {
            failure
                .take()
                .unwrap_or_else(|| GenError::Options(e.to_string().into()))
        })?;
        let (rows, bytes, fnv1a64) = made.expect("written");
        let sidecar = sidecar_path(path);
        let provenance = Provenance {
            tilebench_version: env!("CARGO_PKG_VERSION"),
            git_commit: crate::util::git_commit(),
            command,
            rows,
            bytes,
            fnv1a64,
            columns: self.columns().to_vec(),
            expected_steps: ExpectedSteps {
                exact: true,
                method: self.method(),
                unsolvable: -1,
            },
        };
        crate::util::atomic_write(&sidecar, |w| {
            serde_json::to_writer_pretty(&mut *w, &provenance)?;
            writeln!(w)
        })
        .map_err(|e| GenError::Options(e.to_string().into()))?;
        Ok(Written { rows, sidecar })
    }

    /// The largest distance from the goal (from any goal, for random goals).
    fn max_depth(&mut self) -> u8 {
        let oracle = self.oracle.as_mut().expect("tabulated");
        let max = match self.spec.goal.fixed(self.spec.shape) {
            Some(g) => oracle.table(g.blank()).max_distance(),
            None => (0..self.spec.shape.cells())
                .map(|b| oracle.table(b).max_distance())
                .max()
                .unwrap_or(0),
        };
        max as u8
    }

    /// Writes the header, then the rows one by one as they are drawn (nothing is held but
    /// the distance tables), with ids from 1; returns how many rows were written.
    ///
    /// # Errors
    /// A pair that cannot be answered exactly (nothing is written then: the header goes out
    /// with the first row), or `out` fails.
    pub fn write(&mut self, out: &mut impl Write) -> Result<u64, GenError> {
        // The header goes out with the first row: a pair that cannot be made (the first row's
        // error) leaves nothing written, not a header-only file.
        let mut out = HeaderFirst {
            header: Some(format!("{}\n", self.columns().join(","))),
            inner: out,
        };
        let rows = self.write_rows(&mut out)?;
        out.finish()?;
        Ok(rows)
    }

    /// [`Generator::write`]'s rows.
    fn write_rows(&mut self, out: &mut impl Write) -> Result<u64, GenError> {
        let mut id = 0;
        match self.spec.per_depth {
            Some(k) => {
                for d in 0..=self.max_depth() {
                    for _ in 0..k {
                        id += 1;
                        self.row(id, Some(d), out)?;
                    }
                }
            }
            None if self.spec.depth.is_none()
                && self.spec.goal == Goal::Random
                && self.oracle.is_some() =>
            {
                id = self.write_random_goals(out)?;
            }
            None => {
                for _ in 0..self.spec.count {
                    id += 1;
                    self.row(id, self.spec.depth, out)?;
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
    fn write_random_goals(&mut self, out: &mut impl Write) -> Result<u64, GenError> {
        let mut pairs = Vec::with_capacity(self.spec.count.min(1 << 24) as usize);
        for _ in 0..self.spec.count {
            let unsolvable = self.rng.unit() < self.spec.unsolvable;
            pairs.push(self.draw(self.spec.walk, unsolvable));
        }
        let oracle = self.oracle.as_mut().expect("tabulated");
        let mut expected = vec![-1i64; pairs.len()];
        for blank in 0..self.spec.shape.cells() {
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
        if self.columns().len() == 4 {
            writeln!(out, "{id},{start},{goal},{expected}")
        } else {
            writeln!(out, "{id},{},{start},{goal},{expected}", self.spec.shape)
        }
    }

    /// Draws one pair (at `depth`, or at any depth) and writes its row.
    fn row(&mut self, id: u64, depth: Option<u8>, out: &mut impl Write) -> Result<(), GenError> {
        let (start, goal, expected) = match depth {
            Some(d) => self.at_depth(d),
            None => {
                let unsolvable = self.rng.unit() < self.spec.unsolvable;
                self.any_depth(self.spec.walk, unsolvable)
            }
        }
        .map_err(GenError::Pair)?;
        Ok(self.write_row(id, (&start, &goal, expected), out)?)
    }

    /// A pair drawn uniformly from the states at exactly distance `d` from a goal that has them.
    fn at_depth(&mut self, d: u8) -> Result<(Board, Board, Option<i64>), Wording> {
        let mut tries = 0;
        let oracle = self.oracle.as_mut().expect("tabulated");
        loop {
            let goal = self.spec.goal.pick(self.spec.shape, &mut self.rng);
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
            if tries > 1000 || self.spec.goal != Goal::Random {
                let shape = self.spec.shape;
                return Err(with_depths(
                    format!("--depth {d}: no {shape} state is {d} moves from the goal"),
                    (shape, false),
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
    ) -> Result<(Board, Board, Option<i64>), Wording> {
        let (start, goal) = self.draw(walk, unsolvable);
        let expected = match self.oracle.as_mut() {
            Some(o) => Some(o.distance(&start, &goal).map_or(-1, |d| d as i64)),
            None if start.is_packed() => Some(exact_by_bibfs(start, goal).map_err(worded)?),
            None => exact_by_ida(start, goal, walk.is_some()),
        };
        Ok((start, goal, expected))
    }

    /// A pair of any depth, solvable or not as asked: its goal, then its start (a random
    /// board, or a random walk of `walk` moves from the goal).
    fn draw(&mut self, walk: Option<usize>, unsolvable: bool) -> (Board, Board) {
        let goal = self.spec.goal.pick(self.spec.shape, &mut self.rng);
        let mut start = match walk {
            Some(n) => random_walk(goal, n, &mut self.rng),
            None => random_board(self.spec.shape, &mut self.rng),
        };
        if is_solvable(&start, &goal) == unsolvable {
            start = start.with_parity_flipped();
        }
        (start, goal)
    }
}

impl Goal {
    /// The goal every pair shares, if one does.
    fn fixed(&self, shape: Shape) -> Option<Board> {
        match self {
            Goal::Standard => Some(Board::standard_goal(shape)),
            Goal::Random => None,
            Goal::Board(b) => Some(*b),
        }
    }

    /// The goal of the next pair: the fixed goal, or a random board.
    fn pick(&self, shape: Shape, rng: &mut Rng) -> Board {
        self.fixed(shape)
            .unwrap_or_else(|| random_board(shape, rng))
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

/// Where `gen --out FILE` says how FILE was made: FILE.json.
fn sidecar_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".json");
    PathBuf::from(name)
}

/// The dataset's columns: a `size` column for boards that are not square.
fn columns(shape: Shape) -> &'static [&'static str] {
    if Shape::from_cells(shape.cells()) == Some(shape) {
        &["id", "start", "goal", "expected_steps"]
    } else {
        &["id", "size", "start", "goal", "expected_steps"]
    }
}

/// A random walk of `n` moves from `goal`, never undoing the previous move.
pub(crate) fn random_walk(goal: Board, n: usize, rng: &mut Rng) -> Board {
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
    use crate::search::wide::{self, Estimate, Mode};
    use crate::search::{Limits, Problem, SolveOptions, Status};
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
    use crate::search::{Problem, SolveOptions, Status};
    let p = Problem::new(start, goal).map_err(|e| e.to_string())?;
    let out = crate::search::shortcut(&p, false)
        .unwrap_or_else(|| crate::search::bibfs::solve(&p, &SolveOptions::default()));
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
        let spec = GenSpec {
            count: 300,
            shape,
            goal: Goal::Random,
            unsolvable: 0.2,
            seed: 5,
            ..GenSpec::default()
        };
        let mut generator = Generator::new(spec).unwrap();
        let mut out = Vec::new();
        assert!(matches!(generator.write(&mut out), Ok(300)));
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
