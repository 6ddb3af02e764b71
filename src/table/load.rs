//! Runs read back for tables: solvers, tasks and each solver's outcome on each task.

use super::TableError;
use crate::results::cases_csv::{CaseRow, Rows};
use crate::results::record::RowStatus;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How a solver's latency was measured, from the run's run.json.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// A built-in strategy or a library user's solver: the solve alone, in the process.
    InProcess,
    /// An external program kept running (`persistent`): the round trip of one case.
    RoundTrip,
    /// An external program started for each case (`per-case`): the process's wall time.
    ProcessPerCase,
    /// An external program given every case at once (`batch`): no time per case, only the
    /// batch's wall time over its cases.
    BatchMean,
    /// Not recorded (the run has no readable run.json).
    Unknown,
}

impl Timing {
    /// The words a table shows.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Timing::InProcess => "in process",
            Timing::RoundTrip => "round trip",
            Timing::ProcessPerCase => "process per case",
            Timing::BatchMean => "batch mean",
            Timing::Unknown => "unknown (no run.json)",
        }
    }
}

/// One solver of one run: a column of the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Solver {
    /// The column's name: the solver's name, or `run/solver` when two runs hold that name.
    pub label: String,
    /// The run's label: its directory's name (or the path given, when two share a name).
    pub run: String,
    /// The solver's name in cases.csv's `strategy` column.
    pub name: String,
    /// How its latency was measured.
    pub timing: Timing,
    /// A batch-mode program's mean time per case (the batch's wall time ÷ its cases), µs.
    pub batch_mean_us: Option<f64>,
    /// Whether its answers are judged (it is not optimal by construction: an external
    /// program, `wastar`, `greedy`): some row has the `optimal` column filled or is `wrong`.
    pub judged: bool,
}

/// One task: a dataset row, matched across runs by input, line, id and boards.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The dataset file, as the run named it.
    pub input: String,
    /// The row's line in it.
    pub line: u64,
    /// The row's `id`, or empty.
    pub id: String,
    /// Cells of the board (9 for 3x3).
    pub cells: usize,
    /// The optimal length: `expected_steps`, else the optimum a judged answer was compared
    /// with, else the length every optimal-by-construction solver that answered agrees on;
    /// −1 unsolvable; `None` unknown.
    pub optimum: Option<i64>,
}

impl Task {
    /// `input:line`, the label of a per-task row.
    pub(crate) fn label(&self) -> String {
        format!("{}:{}", self.input, self.line)
    }
}

/// One solver's row for one task: the cases.csv columns tables read.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How the case ended.
    pub status: RowStatus,
    /// `steps`.
    pub steps: Option<i64>,
    /// `optimal`.
    pub optimal: Option<bool>,
    /// `expanded`.
    pub expanded: Option<u64>,
    /// `generated`.
    pub generated: Option<u64>,
    /// `stored`.
    pub stored: Option<u64>,
    /// `peak_frontier`.
    pub peak_frontier: Option<u64>,
    /// `latency_ns`.
    pub latency_ns: Option<u64>,
    /// `cpu_us`.
    pub cpu_us: Option<u64>,
    /// `max_rss_kb`.
    pub max_rss_kb: Option<u64>,
}

impl Outcome {
    #[cfg(test)]
    /// An outcome of this status with no steps and nothing measured.
    pub(crate) fn new(status: RowStatus) -> Outcome {
        Outcome {
            status,
            steps: None,
            optimal: None,
            expanded: None,
            generated: None,
            stored: None,
            peak_frontier: None,
            latency_ns: None,
            cpu_us: None,
            max_rss_kb: None,
        }
    }

    fn of(r: &CaseRow) -> Outcome {
        Outcome {
            status: r.status,
            steps: r.steps,
            optimal: r.optimal,
            expanded: r.expanded,
            generated: r.generated,
            stored: r.stored,
            peak_frontier: r.peak_frontier,
            latency_ns: r.latency_ns,
            cpu_us: r.cpu_us,
            max_rss_kb: r.max_rss_kb,
        }
    }

    fn answered(&self) -> bool {
        matches!(self.status, RowStatus::Solved | RowStatus::Unsolvable)
    }
}

/// Runs read back: the tables' input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Data {
    /// The columns, in run order then cases.csv order.
    pub solvers: Vec<Solver>,
    /// The rows of the per-task tables, in order of first appearance.
    pub tasks: Vec<Task>,
    /// `outcomes[task][solver]`: `None` where the solver's run has no row for the task.
    pub outcomes: Vec<Vec<Option<Outcome>>>,
}

impl Data {
    /// Whether `solver` answered `task` right: solved (a judged solver's answer passed the
    /// judge; an optimal solver's length equals the task's optimum when it is known) or
    /// proved it unsolvable (and the optimum does not say otherwise).
    pub(crate) fn right(&self, task: usize, solver: usize) -> bool {
        let Some(o) = &self.outcomes[task][solver] else {
            return false;
        };
        if !o.answered() {
            return false;
        }
        let steps = if o.status == RowStatus::Unsolvable {
            Some(-1)
        } else {
            o.steps
        };
        match (self.solvers[solver].judged, self.tasks[task].optimum) {
            // The judge made a wrong answer a `wrong` row.
            (true, _) => true,
            (false, Some(opt)) => steps == Some(opt),
            (false, None) => true,
        }
    }

    /// Whether `solver`'s answer to `task` is right and as short as can be: an optimal
    /// solver's right answer, a judged answer with `optimal` = true, or a proof of
    /// unsolvability.
    pub(crate) fn optimal(&self, task: usize, solver: usize) -> bool {
        if !self.right(task, solver) {
            return false;
        }
        let o = self.outcomes[task][solver].as_ref().expect("right");
        !self.solvers[solver].judged || o.optimal == Some(true) || o.status == RowStatus::Unsolvable
    }

    /// The tasks (of `tasks`) every solver answered right: the ones aggregates are over.
    pub(crate) fn common(&self, tasks: &[usize]) -> Vec<usize> {
        tasks
            .iter()
            .copied()
            .filter(|&t| (0..self.solvers.len()).all(|s| self.right(t, s)))
            .collect()
    }
}

/// The cases.csv and the run's directory for a path given as either.
fn locate(path: &Path) -> Result<(PathBuf, PathBuf), TableError> {
    let shown = path.display();
    if path.is_dir() {
        let cases = path.join(crate::results::CASES_CSV);
        if !cases.is_file() {
            return Err(TableError::Read(format!(
                "{shown}: no cases.csv in this directory; give a results directory written by \
                 `tilebench run` (it holds cases.csv, summary.csv and run.json), or its cases.csv"
            )));
        }
        return Ok((cases, path.to_path_buf()));
    }
    if path.is_file() {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        return Ok((path.to_path_buf(), dir));
    }
    Err(TableError::NoSuchRun {
        path: path.to_path_buf(),
    })
}

/// What run.json says about how each solver was timed: (timing, batch mean µs) by name.
fn timings(dir: &Path) -> Option<HashMap<String, (Timing, Option<f64>)>> {
    let text = std::fs::read_to_string(dir.join(crate::results::RUN_JSON)).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let mut out = HashMap::new();
    let spawn = |s: &str| match s {
        "persistent" => Timing::RoundTrip,
        "per-case" => Timing::ProcessPerCase,
        "batch" => Timing::BatchMean,
        _ => Timing::Unknown,
    };
    for e in json["external_solvers"].as_array().into_iter().flatten() {
        if let (Some(name), Some(s)) = (e["name"].as_str(), e["spawn"].as_str()) {
            out.insert(name.to_string(), (spawn(s), None));
        }
    }
    // The final spawn mode (a program may have fallen back to another), and a batch's mean.
    for (name, facts) in json["solver_facts"].as_object().into_iter().flatten() {
        if let Some(s) = facts["spawn"].as_str() {
            let mean = facts["batch_mean_us"].as_str().and_then(|m| m.parse().ok());
            out.insert(name.clone(), (spawn(s), mean));
        }
    }
    Some(out)
}

/// A task's identity across runs.
type Key = (String, u64, String, String, String);

/// One run read: its label, solvers (by name) and rows.
struct Run {
    label: String,
    dir: PathBuf,
    names: Vec<String>,
    rows: Vec<CaseRow>,
}

fn read_run(path: &Path) -> Result<Run, TableError> {
    let (cases, dir) = locate(path)?;
    let mut rows = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let read = |e: crate::results::cases_csv::ReadError| TableError::Read(e.to_string());
    for row in Rows::open(&cases).map_err(read)? {
        let row = row.map_err(read)?;
        if !names.contains(&row.strategy) {
            names.push(row.strategy.clone());
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(TableError::Empty(cases));
    }
    let label = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    Ok(Run {
        label,
        dir,
        names,
        rows,
    })
}

/// Reads runs (results directories, or their cases.csv; run.json beside it, when there is
/// one, says how external programs were timed).
///
/// # Errors
/// No path; a path that does not exist or holds no cases.csv; a cases.csv that cannot be read
/// (named with its line) or has no rows.
pub fn load(paths: &[PathBuf]) -> Result<Data, TableError> {
    if paths.is_empty() {
        return Err(TableError::NoRuns);
    }
    let mut runs = paths
        .iter()
        .map(|p| read_run(p))
        .collect::<Result<Vec<_>, _>>()?;
    distinct_labels(&mut runs, paths);
    let mut data = Data::default();
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut expected: Vec<Option<i64>> = Vec::new();
    let mut optimum: Vec<Option<i64>> = Vec::new();
    for run in &runs {
        let times = timings(&run.dir);
        let first = data.solvers.len();
        for name in &run.names {
            let (timing, batch_mean_us) = match &times {
                None => (Timing::Unknown, None),
                Some(t) => t.get(name).copied().unwrap_or((Timing::InProcess, None)),
            };
            data.solvers.push(Solver {
                label: name.clone(),
                run: run.label.clone(),
                name: name.clone(),
                timing,
                batch_mean_us,
                judged: false,
            });
        }
        for r in &run.rows {
            let key = (
                r.input.clone(),
                r.line,
                r.id.clone(),
                r.start.clone(),
                r.goal.clone(),
            );
            let t = *index.entry(key).or_insert_with(|| {
                data.tasks.push(Task {
                    input: r.input.clone(),
                    line: r.line,
                    id: r.id.clone(),
                    cells: r.start.split_whitespace().count(),
                    optimum: None,
                });
                expected.push(None);
                optimum.push(None);
                data.tasks.len() - 1
            });
            expected[t] = expected[t].or(r.expected_steps);
            optimum[t] = optimum[t].or(r.optimum_steps.and_then(|o| i64::try_from(o).ok()));
            let s = first
                + run
                    .names
                    .iter()
                    .position(|n| *n == r.strategy)
                    .expect("named");
            if data.outcomes.len() <= t {
                data.outcomes.resize(t + 1, Vec::new());
            }
            data.outcomes[t].resize(data.solvers.len(), None);
            data.outcomes[t][s] = Some(Outcome::of(r));
            if r.optimal.is_some() || r.status == RowStatus::Wrong {
                data.solvers[s].judged = true;
            }
        }
    }
    for row in &mut data.outcomes {
        row.resize(data.solvers.len(), None);
    }
    for t in 0..data.tasks.len() {
        data.tasks[t].optimum = expected[t]
            .or(optimum[t])
            .or_else(|| agreed_optimum(&data, t));
    }
    label_solvers(&mut data.solvers);
    Ok(data)
}

/// The length every optimal-by-construction solver that answered `task` gives, when they
/// agree (and at least one answered).
fn agreed_optimum(data: &Data, task: usize) -> Option<i64> {
    let mut lengths = data.outcomes[task]
        .iter()
        .zip(&data.solvers)
        .filter(|(_, s)| !s.judged)
        .filter_map(|(o, _)| {
            let o = o.as_ref()?;
            match o.status {
                RowStatus::Unsolvable => Some(-1),
                RowStatus::Solved => o.steps,
                _ => None,
            }
        });
    let first = lengths.next()?;
    lengths.all(|l| l == first).then_some(first)
}

/// Run labels made distinct: the directory's name, else the path as given, else numbered.
fn distinct_labels(runs: &mut [Run], paths: &[PathBuf]) {
    let clash = |runs: &[Run]| {
        let mut labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
        labels.sort_unstable();
        labels.windows(2).any(|w| w[0] == w[1])
    };
    if clash(runs) {
        for (r, p) in runs.iter_mut().zip(paths) {
            r.label = p.display().to_string();
        }
    }
    if clash(runs) {
        for (i, r) in runs.iter_mut().enumerate() {
            r.label = format!("{}#{}", r.label, i + 1);
        }
    }
}

/// A solver's label is its name, or `run/name` when another run holds the same name.
fn label_solvers(solvers: &mut [Solver]) {
    let names: Vec<String> = solvers.iter().map(|s| s.name.clone()).collect();
    for s in solvers.iter_mut() {
        if names.iter().filter(|n| **n == s.name).count() > 1 {
            s.label = format!("{}/{}", s.run, s.name);
        }
    }
}
