//! The run, in a straight line: plan → input → solve → record → export.
//!
//! [`run`] takes a plan and returns the finished run:
//!
//! ```
//! use tilebench::prelude::*;
//!
//! let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
//!     .with(strategies::ASTAR)
//!     .with(strategies::IDASTAR)
//!     .with_out(std::env::temp_dir().join(format!("tilebench-doc-run-{}", std::process::id())))
//!     .with_mode(OutMode::Force);
//! let done = run(plan)?;
//! assert_eq!(done.rows, 6 * 2); // the six seed rows × two strategies
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`execute_with`] is the same run with an [`Observer`] for notices and progress, and a flag
//! that stops it between cases (the journal keeps what was done, for `--resume`):
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tilebench::harness::pipeline::{execute_with, Ending};
//! use tilebench::harness::plan::{OutMode, RunPlan};
//! use tilebench::observe::Silent;
//!
//! // Strategies by name, as the command line gives them.
//! let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
//!     .with_strategies("astar,idastar")?
//!     .with_out(std::env::temp_dir().join(format!("tilebench-doc-{}", std::process::id())))
//!     .with_mode(OutMode::Force);
//! // A flag another thread (a signal handler, a deadline) may raise.
//! let stop = AtomicBool::new(false);
//! match execute_with(plan, &Silent, &stop)? {
//!     Ending::Finished(run) => {
//!         assert_eq!(run.rows, 6 * 2); // the six seed rows × two strategies
//!         assert!(run.check_failures().is_empty());
//!         assert!(run.dir.join("cases.csv").is_file());
//!     }
//!     Ending::Stopped(s) => println!("stopped: {} of {} saved", s.saved, s.total),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::plan::{Chosen, OutMode, RunPlan};
use super::rundir::RunDir;
use super::runner::{self, Cases, Jobs, Pass, RunConfig, Workers};
use super::spool::Dataset;
use super::store::{Layout, Store};
use super::{journal, Session};
use crate::check::Digest;
use crate::check::Judged;
use crate::check::SolverCheck;
use crate::dataset::shard::Shard;
use crate::dataset::{InputError, InputErrorKind};
use crate::error::OutputError;
use crate::external::Program;
use crate::observe::Observer;
use crate::report::{ReportTally, RunReport, StrategySummary};
use crate::results::cases_csv;
use crate::results::record::Record;
use crate::results::run_json::{PdbInfo, RunInfo};
use crate::search::configuration::{setting, Setting};
use crate::search::heuristic::HeuristicKind;
use crate::search::{registry, Limits, Solver};
use crate::util::atomic_write;
use crate::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime};

/// A finished run: its directory, and what it found. The rows themselves are in its
/// cases.csv (a run of any size is never held in memory); what the checks found is summed
/// up in [`Finished::digest`].
pub struct Finished {
    /// Where the files are.
    pub dir: RunDir,
    /// Cases read (all shards').
    pub cases: usize,
    /// Rows written to cases.csv: one per case of the shard × solver.
    pub rows: usize,
    /// What the checks found over the rows: counts, and the first few messages of each kind.
    pub digest: Digest,
    /// The solvers' names, and whether each is optimal by construction.
    pub solvers: Vec<(String, bool)>,
    /// Per solver, as in summary.csv.
    pub summaries: Vec<StrategySummary>,
    /// The cases this run covers (its shard).
    pub shard: Shard,
    /// Worker threads.
    pub threads: usize,
    /// This session's wall time.
    pub wall: Duration,
    /// The baseline saved, if one was asked for: its name and directory.
    pub baseline: Option<(String, PathBuf)>,
    /// The budget of each solve (to say which one a `limit` row ran out of).
    pub limits: Limits,
}

/// A run stopped before its end (`stop` was raised): what is saved, and where.
pub struct Stopped {
    /// The directory to resume.
    pub dir: RunDir,
    /// Case × solver jobs saved in the journal.
    pub saved: usize,
    /// Case × solver jobs in the run.
    pub total: usize,
}

/// How a run ended.
pub enum Ending {
    /// Every case was solved and every file written.
    Finished(Box<Finished>),
    /// Stopped; the journal holds what was done.
    Stopped(Stopped),
}

impl Finished {
    /// `--check`'s failures: the rows that are not verified (wrong answers, and rows with no
    /// answer or nothing to confirm it), as `file:line: solver: what` lines; the first
    /// [`Digest::FAILURES`] of them (`digest.failures.count` says how many there are).
    /// Empty when `--check` passes without `--allow-limit`.
    pub fn check_failures(&self) -> Vec<String> {
        self.digest.failures.first.clone()
    }

    /// Each solver's rows counted by `--check`'s reasons: verified, wrong, unverified.
    pub fn tally(&self) -> Vec<SolverCheck> {
        self.digest.solvers.clone()
    }

    /// The messages of the shard's invalid rows (the first 20; `digest.invalid.count` says
    /// how many there are).
    pub fn invalid(&self) -> Vec<&str> {
        self.digest
            .invalid
            .first
            .iter()
            .map(String::as_str)
            .collect()
    }

    /// The messages of the `error` rows (the first 20; `digest.errors.count` says how many
    /// there are).
    pub fn errors(&self) -> Vec<&str> {
        self.digest
            .errors
            .first
            .iter()
            .map(String::as_str)
            .collect()
    }

    /// The cases.csv path.
    pub fn cases_csv(&self) -> PathBuf {
        self.dir.join(crate::results::CASES_CSV)
    }
}

/// The solvers of a plan, in output order: built-in strategies, external programs, the
/// user's own; each with its cells in the configuration columns of cases.csv and summary.csv.
fn solvers_of(
    plan: &mut RunPlan,
    shapes: &[crate::puzzle::Shape],
) -> (Vec<Box<dyn Solver>>, Vec<Setting>) {
    let fits = |s: &dyn Solver| shapes.iter().all(|&sh| s.supports(sh).is_ok());
    let defaults = if plan.fitting_strategies {
        registry::defaults()
    } else {
        Vec::new()
    };
    // A built-in strategy with the run's options (the closure holds `plan.config` alone).
    let builtin = |b: &'static crate::search::Builtin| {
        (b.build(&plan.config), setting(Some(b), &plan.config))
    };
    let mut out: Vec<(Box<dyn Solver>, Setting)> = defaults
        .into_iter()
        .map(builtin)
        .filter(|(s, _)| fits(&**s))
        .collect();
    // The user's own solvers are moved out; the rest stay, for run.json.
    let chosen = std::mem::take(&mut plan.solvers);
    for c in chosen {
        match c {
            Chosen::Strategy(b) => {
                out.push(builtin(b));
                plan.solvers.push(c);
            }
            Chosen::Configured(ref k) => {
                out.push((k.build(), k.setting()));
                plan.solvers.push(c);
            }
            Chosen::Program(ref e) => {
                let program = Box::new(Program::new(e.clone())) as Box<dyn Solver>;
                out.push((program, setting(None, &plan.config)));
                plan.solvers.push(c);
            }
            Chosen::Own(s) => out.push((s, crate::search::configuration::unset())),
        }
    }
    out.into_iter().unzip()
}

/// run.json's record of a plan.
fn info_of(
    plan: &RunPlan,
    files: Vec<crate::dataset::InputFile>,
    (names, settings): (&[String], &[Setting]),
) -> RunInfo {
    use crate::search::{bfs_hash::BUCKETS, heuristic::HEURISTIC, pdb::PdbOptions, wastar::WEIGHT};
    let pdb = HEURISTIC.get(&plan.config) == HeuristicKind::Pdb;
    let pdb_options = PdbOptions::of(&plan.config);
    RunInfo {
        tilebench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: crate::util::git_commit().map(str::to_string),
        command: plan.command.clone(),
        threads: 0,
        cpu_model: crate::util::cpu_model(),
        started_at: String::new(),
        wall_s: 0.0,
        inputs: files,
        strategies: names.to_vec(),
        prepare_s: Default::default(),
        exhaustive: plan.config.exhaustive,
        repeat: plan.repeat,
        max_nodes: plan.limits.max_nodes,
        timeout_s: plan.limits.timeout.map(|t| t.as_secs_f64()),
        hash_buckets: BUCKETS.get(&plan.config),
        heuristic: plan.config.text(&HEURISTIC),
        weight: plan.config.text(&WEIGHT),
        pdb: pdb.then(|| PdbInfo {
            partition: plan.config.text(&crate::search::pdb::PARTITION),
            lookup: plan.config.text(&crate::search::pdb::LOOKUP),
            dir: pdb_options.dir().display().to_string(),
        }),
        max_states: plan.limits.max_states,
        max_memory: plan.limits.max_memory,
        paths: plan.keep_paths,
        latency: "wall time of each solve alone (parsing and output excluded), in ns; \
                  with --repeat K, latency_ns is the median and latency_min_ns the fastest"
            .into(),
        external_solvers: plan.programs().map(|e| e.info()).collect(),
        cases_xxh3_64: None,
        cases_fnv1a64: None,
        size: plan.input.size.map(|s| s.to_string()),
        goal: plan.input.goal.clone(),
        shard: plan.shard,
        rows: plan.rows.clone(),
        sessions: None,
        merged_from: Vec::new(),
        solver_facts: Default::default(),
        order: plan.order.name().to_string(),
        seed: match plan.order {
            super::runner::Order::Shuffled { seed } => Some(seed),
            super::runner::Order::Blocked => None,
        },
        configurations: names
            .iter()
            .zip(settings)
            .map(|(name, setting)| crate::search::configuration::describe(name, setting))
            .collect(),
    }
}

/// The shard's case × solver grid: which slot a record fills.
struct Grid<'a> {
    dir: &'a RunDir,
    layout: Layout,
    names: &'a [String],
}

impl Grid<'_> {
    fn len(&self) -> usize {
        self.layout.len()
    }
    /// The error of a grid with empty slots after the run.
    fn missing(&self, have: usize) -> Error {
        OutputError::Incomplete {
            path: self.dir.join(journal::JOURNAL),
            have,
            total: self.len(),
        }
        .into()
    }
}

/// Where a run may keep its cases while it runs, in order of preference: its results
/// directory when it exists, else beside it (the nearest directory of `--out` that exists,
/// or `results/`), else the system's temporary directory.
fn scratch_dirs(plan: &RunPlan) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    match &plan.out {
        Some(out) => dirs.extend(out.ancestors().find(|a| a.is_dir()).map(PathBuf::from)),
        None => dirs.push(PathBuf::from("results")),
    }
    dirs.push(std::env::temp_dir());
    dirs
}

/// The cases of a plan's inputs, spooled, with word of repeated ids.
fn read_cases(plan: &RunPlan, observer: &dyn Observer) -> Result<Dataset> {
    // A shard reads the others' rows only to count them (and for their shapes when the
    // strategies are those that fit every board of the inputs).
    let share = crate::dataset::Share {
        shard: plan.shard.unwrap_or(Shard::ALL),
        rows: plan.rows.as_ref(),
        shapes: plan.fitting_strategies,
    };
    let cases = Dataset::read(&plan.inputs, &plan.input, &scratch_dirs(plan), share)?;
    let files = &cases.files;
    crate::dataset::rows::exist(plan.rows.as_ref(), files)?;
    if let Some(rows) = &plan.rows {
        let warning = super::spool::id_warning(rows, share.shard, &cases);
        warning.inspect(|w| w.tell(observer));
    }
    if cases.is_empty() {
        let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let kind = InputErrorKind::NoRows;
        return Err(Error::Input(InputError::new(names.join(", "), None, kind)));
    }
    let (duplicates, n) = &cases.duplicates;
    for w in duplicates {
        observer.notice(&format!("warning: {w}"));
    }
    if *n > duplicates.len() {
        observer.notice(&format!(
            "warning: … and {} more repeated ids",
            n - duplicates.len()
        ));
    }
    Ok(cases)
}

/// A run between its plan and its files.
struct Run<'a> {
    plan: RunPlan,
    cases: Dataset,
    solvers: Vec<Box<dyn Solver>>,
    /// Each solver's cells in the configuration columns.
    settings: Vec<Setting>,
    names: Vec<String>,
    info: RunInfo,
    workers: Workers,
    observer: &'a dyn Observer,
    started: SystemTime,
}

/// What the journal says is left to do.
struct Todo {
    /// The jobs left.
    jobs: Jobs,
    /// Case × solver jobs already done.
    already: usize,
    /// The journal's times (the earlier sessions').
    earlier: journal::Loaded,
    /// The records so far, in their slots (the journal); its writer holds it while the
    /// cases are solved.
    store: Option<Store>,
}

impl Todo {
    /// The shard's case × solver grid minus the jobs the journal's store holds whole.
    fn of(grid: &Grid, observer: &dyn Observer) -> Result<Todo> {
        let dir = grid.dir.path();
        let cannot = |source: std::io::Error| OutputError::JournalOpen {
            path: dir.to_path_buf(),
            source,
        };
        let run = journal::identity(dir).map_err(cannot)?;
        let opened = Store::open(dir, grid.layout, run).map_err(cannot)?;
        let (earlier, restarted) =
            journal::load_or_restart(dir).map_err(|reason| OutputError::Journal {
                path: dir.to_path_buf(),
                reason: reason.into(),
            })?;
        if let Some(notice) = restarted {
            observer.notice(&notice);
        }
        let journal = grid.dir.join(journal::JOURNAL);
        if opened.cleared > 0 {
            let n = opened.cleared;
            observer.notice(&format!(
                "tilebench: {n} {} in {} {} cut off mid-write (the run was killed, or the \
                 machine stopped) or not this run's; {} solved again",
                if n == 1 { "record" } else { "records" },
                journal.display(),
                if n == 1 { "was" } else { "were" },
                if n == 1 {
                    "its case is"
                } else {
                    "their cases are"
                },
            ));
        } else if opened.already == 0 && earlier.last_session > 0 {
            observer.notice(&format!(
                "tilebench: the journal in {} holds no finished result; every case is solved",
                dir.display()
            ));
        }
        let jobs = if opened.done.is_empty() {
            Jobs::all(grid.layout)
        } else {
            Jobs::except(grid.layout, opened.done)
        };
        Ok(Todo {
            jobs,
            already: opened.already,
            earlier,
            store: Some(opened.store),
        })
    }
}

impl Run<'_> {
    /// Creates or resumes the results directory. A fresh run prepares every solver first,
    /// before its directory exists, so that a solver that cannot run (a partition that does
    /// not fit) leaves nothing behind; a resumed one prepares later, only what has work.
    fn open(&mut self) -> Result<(RunDir, Option<Vec<Duration>>)> {
        if self.plan.mode == OutMode::Resume {
            let out = self.plan.out.as_deref();
            let dir = RunDir::resume(out, &mut self.info, self.observer).map_err(|reason| {
                OutputError::Directory {
                    path: out.map(Path::to_path_buf),
                    reason,
                }
            })?;
            self.arm_interrupt(&dir);
            return Ok((dir, None));
        }
        let prepared = self.prepare(&[])?;
        let force = self.plan.mode == OutMode::Force;
        let out = self.plan.out.as_deref();
        let dir = RunDir::create(out, force, self.started, &self.info).map_err(|reason| {
            OutputError::Directory {
                path: out.map(Path::to_path_buf),
                reason,
            }
        })?;
        self.arm_interrupt(&dir);
        Ok((dir, Some(prepared)))
    }

    /// Gives the signal handler the command that resumes the run in `dir` (when the run has
    /// a command line), to print at once on Ctrl-C.
    fn arm_interrupt(&self, dir: &RunDir) {
        if !self.plan.command.is_empty() {
            let out = self.plan.out.is_none();
            let resume = super::rundir::resume_command(&self.plan.command, dir.path(), out);
            super::interrupt::arm(&resume);
        }
    }

    /// How each solver is judged, and its own cells of cases.csv (claim, configuration).
    fn judged(&self) -> (Vec<Judged>, Vec<cases_csv::SolverCells>) {
        let judged: Vec<Judged> = self.solvers.iter().map(|s| Judged::of(&**s)).collect();
        let cells = judged
            .iter()
            .zip(&self.settings)
            .map(|(j, setting)| cases_csv::SolverCells::new(j.claim.to_string(), setting))
            .collect();
        (judged, cells)
    }

    fn prepare(&mut self, needed: &[bool]) -> Result<Vec<Duration>> {
        // A signal now ends the run at once: nothing is solved yet, and a table build may
        // take minutes.
        let _preparing = super::interrupt::Preparing::begin();
        Ok(runner::prepare(
            &self.workers,
            &mut self.solvers,
            needed,
            Cases::Spooled(&self.cases),
            self.observer,
        )?)
    }

    /// Solves what `todo` lists, journalling each record and putting it in the store;
    /// returns this session and the store.
    fn solve(
        &mut self,
        dir: &RunDir,
        todo: &mut Todo,
        prepared: &[Duration],
        stop: &AtomicBool,
    ) -> Result<Session> {
        let cfg = RunConfig {
            threads: self.plan.threads,
            limits: self.plan.limits,
            repeat: self.plan.repeat,
            keep_paths: self.plan.keep_paths,
            order: self.plan.order,
        };
        let session_no = todo.earlier.last_session + 1;
        let store = todo
            .store
            .take()
            .expect("the store is opened before the pass");
        let journal_error = |reason: crate::observe::Wording| OutputError::Journal {
            path: dir.path().to_path_buf(),
            reason,
        };
        let journal_error_text = |reason: String| journal_error(reason.into());
        let writer = journal::Writer::open(dir.path(), session_no, self.names.clone(), store)
            .map_err(journal_error_text)?;
        let pass = Pass {
            cases: Cases::Spooled(&self.cases),
            cfg: &cfg,
            todo: &todo.jobs,
            sink: &writer,
            stop,
            observer: self.observer,
        };
        let session = runner::run_into(&self.workers, &mut self.solvers, prepared, &pass).map_err(
            |reason| OutputError::Directory {
                path: Some(dir.path().to_path_buf()),
                reason,
            },
        )?;
        todo.store = Some(writer.finish().map_err(journal_error)?);
        Ok(session)
    }
}

/// Runs `plan` to the end, silently: [`execute_with`] with no observer and nothing to stop it.
///
/// # Errors
/// As [`execute_with`].
pub fn run(plan: RunPlan) -> Result<Finished> {
    match execute_with(plan, &crate::observe::Silent, &AtomicBool::new(false))? {
        Ending::Finished(done) => Ok(*done),
        // `execute_with` stops only when its flag is raised, and nothing holds this one.
        Ending::Stopped(_) => unreachable!("a run without a stop flag was stopped"),
    }
}

/// Runs `plan`: reads the inputs, solves every case of its shard with every solver (only
/// what the journal lacks when resuming), writes the run's files and exports, and returns
/// what it found. Notices and progress go to `observer`; raising `stop` ends the run early
/// with its journal saved.
///
/// # Errors
/// [`Error::Plan`] (options that do not fit) and [`Error::Input`] (an unusable file) before
/// anything is solved or written; [`Error::Solver`] when a solver cannot be prepared (before
/// the results directory exists, for a fresh run); [`Error::Output`] when the results
/// directory cannot be created, resumed or written. Each is a sentence that says what to do.
pub fn execute_with(
    mut plan: RunPlan,
    observer: &dyn Observer,
    stop: &AtomicBool,
) -> Result<Ending> {
    let started = SystemTime::now();
    plan.check().map_err(Error::Plan)?;
    let cases = read_cases(&plan, observer)?;
    let (solvers, settings) = solvers_of(&mut plan, &cases.shapes);
    let names: Vec<String> = solvers.iter().map(|s| s.name().to_string()).collect();
    let mut info = info_of(&plan, cases.files.clone(), (&names, &settings));
    info.started_at = crate::util::rfc3339(started);
    let mut run = Run {
        workers: Workers::new(plan.threads).map_err(|reason| OutputError::Threads { reason })?,
        plan,
        cases,
        solvers,
        settings,
        names,
        info,
        observer,
        started,
    };
    let (dir, prepared) = run.open()?;
    let shard = run.plan.shard.unwrap_or(Shard::ALL);
    let names = run.names.clone();
    let layout = Layout {
        shard,
        cases: run.cases.len(),
        solvers: names.len(),
    };
    let grid = Grid {
        dir: &dir,
        layout,
        names: &names,
    };
    let mut todo = Todo::of(&grid, observer)?;
    if todo.already > 0 {
        observer.notice(&format!(
            "tilebench: resuming {}: {} of {} case × strategy jobs were done, {} to go",
            dir.path().display(),
            todo.already,
            grid.len(),
            grid.len() - todo.already
        ));
    }
    let prepared = match prepared {
        Some(p) => p,
        None => run.prepare(
            &(0..names.len())
                .map(|j| todo.jobs.left(j) > 0)
                .collect::<Vec<_>>(),
        )?,
    };
    crate::util::crash_point("solving", "");
    let t0 = Instant::now();
    let session = run.solve(&dir, &mut todo, &prepared, stop)?;
    if session.stopped {
        return Ok(Ending::Stopped(Stopped {
            saved: todo.already + session.solved,
            total: grid.len(),
            dir,
        }));
    }
    let wall = t0.elapsed();
    // A session with nothing to do (every job was done) ran no pass and is not counted.
    let this_session = todo.jobs.any().then_some(todo.earlier.last_session + 1);
    let solvers: Vec<(String, bool)> = run
        .solvers
        .iter()
        .map(|s| (s.name().to_string(), s.optimal()))
        .collect();
    let done = Sessions {
        store: todo
            .store
            .take()
            .expect("the store is back from the writer"),
        earlier: todo.earlier,
        this_session,
        session: &session,
        wall,
        started,
    };
    let (judged, cells) = run.judged();
    let rows = (
        Cases::Spooled(&run.cases),
        &judged[..],
        &run.plan.limits,
        &cells[..],
    );
    let (summaries, digest) = done.write(&grid, rows, &mut run.info)?;
    let total = grid.len();
    let baseline = exports(&run.plan, &dir, (&summaries, &run.info, &digest))?;
    Ok(Ending::Finished(Box::new(Finished {
        dir,
        cases: run.cases.len(),
        rows: total,
        digest,
        solvers,
        summaries,
        shard,
        threads: session.threads,
        wall,
        baseline,
        limits: run.plan.limits,
    })))
}

/// Writes the plan's exports of the summaries and saves its baseline, if it asks for one
/// (its name and directory).
fn exports(
    plan: &RunPlan,
    dir: &RunDir,
    (summaries, info, digest): (&[StrategySummary], &RunInfo, &Digest),
) -> Result<Option<(String, PathBuf)>> {
    let run = crate::report::RunExport {
        summaries,
        info,
        digest,
        allow_limit: &plan.allow_limit,
    };
    for e in &plan.exports {
        std::fs::write(&e.path, e.format.export.render_run(&run)).map_err(|source| {
            OutputError::Export {
                path: e.path.clone(),
                source,
            }
        })?;
    }
    Ok(match &plan.save_baseline {
        Some(name) => Some((
            name.clone(),
            dir.save_baseline(name)
                .map_err(|reason| OutputError::Baseline {
                    path: dir.path().to_path_buf(),
                    name: name.clone(),
                    reason,
                })?,
        )),
        None => None,
    })
}

/// Beside a solver's raw p50 latency, the same less its measured process start-up
/// (`startup_us`, per-case external programs): `latency_p50_raw_us` and
/// `latency_p50_corrected_us`, labelled, as hyperfine reports a command with its shell's
/// start-up subtracted.
fn add_corrected(
    facts: &mut std::collections::BTreeMap<String, String>,
    report: &RunReport,
    name: &str,
) {
    let Some(startup) = facts.get("startup_us").and_then(|s| s.parse::<f64>().ok()) else {
        return;
    };
    let Some(raw) = report
        .summaries
        .iter()
        .find(|s| s.strategy == name)
        .and_then(|s| s.latency_p50_us)
    else {
        return;
    };
    facts.insert("latency_p50_raw_us".into(), format!("{raw:.1}"));
    facts.insert(
        "latency_p50_corrected_us".into(),
        format!("{:.1}", (raw - startup).max(0.0)),
    );
}

/// Every session's records and times, at the end of the last.
struct Sessions<'a> {
    /// Every record, in its slot.
    store: Store,
    /// The journal's times as they were when this session started.
    earlier: journal::Loaded,
    /// This session's number, when it ran a pass.
    this_session: Option<u32>,
    session: &'a Session,
    /// This session's wall time.
    wall: Duration,
    /// When the run started (the interval log's start).
    started: SystemTime,
}

/// What the final pass reads beside the records: the cases, how each solver is judged, the
/// run's limits, and each solver's own cells (claim and configuration).
type Rows<'a> = (
    Cases<'a>,
    &'a [Judged],
    &'a Limits,
    &'a [cases_csv::SolverCells],
);

/// Cases whose records are read and formatted together in the final pass: one task.
const CHUNK: usize = 1 << 12;

/// Chunks read and formatted in parallel while the window before is tallied, checked and
/// written (memory stays bounded: two windows of chunks are held at once).
const WINDOW: usize = 4;

/// One chunk of the final pass: its positions, records, cases and rows formatted, or, when
/// some of its records are missing, how many it has.
enum Chunk<'a> {
    Full {
        positions: std::ops::Range<usize>,
        records: Vec<Record>,
        held: super::spool::CaseBlock<'a>,
        rows: Vec<u8>,
    },
    Missing(usize),
}

impl Sessions<'_> {
    /// Writes cases.csv from the store, a window of chunks of cases at a time (so in memory
    /// that does not grow with the run), summing up the histograms, the summaries and the
    /// checks' digest as it goes. Each window's chunks are read and formatted in parallel
    /// while the window before is tallied, checked and written.
    fn write_cases(&self, grid: &Grid, rows: Rows) -> Result<(ReportTally, Digest, String)> {
        use rayon::prelude::*;
        let (cases, judged, limits, cells) = rows;
        let (names, layout) = (grid.names, &grid.layout);
        let positions = layout.positions();
        let mut tally = ReportTally::new(names);
        let mut digest = Digest::default();
        let mut have = 0;
        let mut missing = false;
        // One chunk, from position `from`: its records, cases and rows.
        let load = |from: usize| -> std::io::Result<Chunk> {
            let to = (from + CHUNK).min(positions);
            let (records, missing) = self.store.read_done(from, to, names)?;
            if missing > 0 {
                return Ok(Chunk::Missing(records.len()));
            }
            let held = cases.block(layout.shard, from..to, super::spool::Need::All)?;
            let mut rows = Vec::with_capacity(records.len() * 160);
            // A chunk's first record is its first case's first solver's.
            cases_csv::format_rows(&mut rows, |i| held.get(i), &records, cells, 0);
            Ok(Chunk::Full {
                positions: from..to,
                records,
                held,
                rows,
            })
        };
        // The window of chunks from position `from` (empty past the last).
        let window = |from: usize| -> std::io::Result<Vec<Chunk>> {
            (from..positions.min(from + WINDOW * CHUNK))
                .step_by(CHUNK)
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(load)
                .collect()
        };
        // The file's checksum, for run.json (merge checks a shard's rows against it).
        let mut hash = crate::util::Xxh3::default();
        let written = atomic_write(&grid.dir.join(crate::results::CASES_CSV), |w| {
            let mut header = Vec::new();
            cases_csv::write_header(&mut header).map_err(std::io::Error::other)?;
            hash.update(&header);
            w.write_all(&header)?;
            // Straight to the file: the rows come formatted in parts, which the buffer would
            // only copy.
            w.flush()?;
            let file = w.get_mut();
            let mut next = window(0)?;
            let mut from = 0;
            while !next.is_empty() {
                from += WINDOW * CHUNK;
                let this = std::mem::take(&mut next);
                let (done, after) = rayon::join(
                    || -> std::io::Result<()> {
                        for chunk in this {
                            let (positions, records, held, rows) = match chunk {
                                Chunk::Missing(found) => {
                                    have += found;
                                    missing = true;
                                    continue;
                                }
                                Chunk::Full {
                                    positions,
                                    records,
                                    held,
                                    rows,
                                } => (positions, records, held, rows),
                            };
                            have += records.len();
                            hash.update(&rows);
                            file.write_all(&rows)?;
                            // Its pages start for the disk as they are written (the sync at
                            // the end then waits less).
                            crate::util::start_writeback(file);
                            for (i, r) in records.iter().enumerate() {
                                tally.add_at(i % names.len(), r);
                            }
                            let of: Vec<&crate::dataset::Case> = positions
                                .map(|p| held.get(layout.shard.case_at(p)))
                                .collect();
                            digest.add(&of, &records, judged, limits);
                        }
                        Ok(())
                    },
                    || window(from),
                );
                done?;
                next = after?;
            }
            if have < grid.len() {
                return Err(std::io::Error::other("records missing"));
            }
            Ok(())
        });
        // Records missing is the journal's fault; any other error (a full disk) is the
        // write's own, and says so.
        if missing || (written.is_ok() && have < grid.len()) {
            return Err(grid.missing(have));
        }
        written.map_err(|e| OutputError::CasesCsv {
            path: grid.dir.join(crate::results::CASES_CSV),
            reason: e.to_string(),
        })?;
        Ok((tally, digest, hash.hex()))
    }

    /// Writes the final files: cases.csv, then summary.csv, histograms and run.json (with
    /// `info` completed); then the journal goes. Returns the summaries and the checks'
    /// digest.
    fn write(
        self,
        grid: &Grid,
        rows: Rows,
        info: &mut RunInfo,
    ) -> Result<(Vec<StrategySummary>, Digest)> {
        let names = grid.names;
        let dir = grid.dir;
        // Per solver: the earlier sessions' time plus this one's.
        let sum = |earlier: &std::collections::BTreeMap<String, Duration>, now: &[Duration]| {
            names
                .iter()
                .zip(now)
                .map(|(n, d)| earlier.get(n).copied().unwrap_or_default() + *d)
                .collect::<Vec<Duration>>()
        };
        let wall = sum(&self.earlier.wall, &self.session.wall);
        let prepare = sum(&self.earlier.prepare, &self.session.prepare);
        let sessions = self.this_session.unwrap_or(self.earlier.last_session);
        let (tally, digest, checksum) = self.write_cases(grid, rows)?;
        info.cases_xxh3_64 = Some(checksum);
        let mut report = tally.report(&wall);
        for (s, cells) in report.summaries.iter_mut().zip(rows.3) {
            s.set_setting(cells.setting());
        }
        info.threads = self.session.threads;
        info.solver_facts = names
            .iter()
            .zip(&self.session.facts)
            .filter(|(_, f)| !f.is_empty())
            .map(|(n, f)| (n.clone(), f.iter().cloned().collect()))
            .collect();
        for (name, facts) in &mut info.solver_facts {
            add_corrected(facts, &report, name);
        }
        info.prepare_s = names
            .iter()
            .zip(&prepare)
            .map(|(n, d)| (n.clone(), d.as_secs_f64()))
            .collect();
        info.sessions = (sessions > 1).then_some(sessions);
        info.wall_s = if sessions > 1 {
            // Time spent solving, summed over the sessions.
            info.prepare_s.values().sum::<f64>()
                + wall.iter().map(Duration::as_secs_f64).sum::<f64>()
        } else {
            self.wall.as_secs_f64()
        };
        crate::report::write_run_files(dir.path(), &report, &wall, self.started, info).map_err(
            |reason| OutputError::RunFiles {
                path: dir.path().to_path_buf(),
                reason,
            },
        )?;
        crate::util::crash_point("finished", "");
        // The store is the journal: it goes with it, once the run's files are all written.
        dir.finish();
        if let Some(t) = self.store.discard(dir.path()) {
            let _ = t.join();
        }
        Ok((report.summaries, digest))
    }
}
