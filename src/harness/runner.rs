//! Solving every case × strategy in parallel, timing each solve.
//!
//! A [`Job`] is a built-in [`Strategy`] or an external solver program. Jobs run one after
//! another, each over all cases in parallel on a rayon pool of `--threads` workers: a job's
//! wall time and cases/s are then its own, not shared with the others. [`run_into`] hands each
//! record to a [`Sink`] as it finishes (the run's journal, so an interrupted run keeps its
//! finished cases) and can run any subset of the case × job grid (a resumed run, a shard);
//! [`run`] keeps every record in memory, in input order then job order. A panic inside a strategy is caught
//! and recorded as an `error` row.

use super::input::Case;
use super::record::{Record, RowStatus};
use crate::external::validate::Optimum;
use crate::external::{ExternalSolver, Pass};
use crate::puzzle::Move;
use crate::search::{Outcome, SolveOptions, Strategy};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One column of the comparison: a built-in strategy or an external program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    Builtin(Strategy),
    External(ExternalSolver),
}

impl Job {
    /// The name in every output (cases.csv `strategy`, summary rows, histogram files).
    pub fn name(&self) -> &str {
        match self {
            Job::Builtin(s) => s.name(),
            Job::External(e) => &e.name,
        }
    }
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub jobs: Vec<Job>,
    pub threads: usize,
    pub solve: SolveOptions,
    /// Solve each case this many times; latency is the median, and the minimum is kept too.
    pub repeat: u32,
    /// Keep each path's move string.
    pub keep_paths: bool,
    /// Draw a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
}

/// All records, in case-major order, and each strategy's wall time.
pub struct RunOutput {
    pub records: Vec<Record>,
    /// Wall time of each job's pass over the cases, in `RunConfig::jobs` order.
    pub wall: Vec<Duration>,
    /// Time each strategy spent preparing shared data (the `table` strategy's tables)
    /// before its pass; not part of any case's latency.
    pub prepare: Vec<Duration>,
    pub threads: usize,
}

/// Where a pass's records go as they finish, and when passes start and end.
pub trait Sink: Sync {
    /// A job's pass is about to start (after `prepare` spent building shared data).
    fn pass_start(&self, _job: usize, _name: &str, _prepare: Duration, _start: Instant) {}
    /// One finished case × job. Called from the worker threads, in completion order.
    fn record(&self, job: usize, rec: Record);
    /// Several finished cases of one job (workers hand records over in small batches).
    fn records(&self, job: usize, recs: Vec<Record>) {
        for r in recs {
            self.record(job, r);
        }
    }
    /// The pass ended (all its cases done, or stopped) after `wall`.
    fn pass_end(&self, _job: usize, _wall: Duration) {}
}

/// What one session of solving did.
pub struct Session {
    /// Wall time of each job's pass in this session (zero for jobs with nothing to do).
    pub wall: Vec<Duration>,
    /// Time each job spent preparing shared data before its pass.
    pub prepare: Vec<Duration>,
    pub threads: usize,
    /// Jobs solved in this session.
    pub solved: usize,
    /// `stop` was raised: the cases not started yet were left undone.
    pub stopped: bool,
}

/// Solves every case with every strategy, records in memory.
pub fn run(cases: &[Case], cfg: &RunConfig) -> Result<RunOutput, String> {
    struct Collect(Vec<std::sync::Mutex<Option<Record>>>, usize);
    impl Sink for Collect {
        fn record(&self, job: usize, rec: Record) {
            let at = rec.case * self.1 + job;
            *self.0[at].lock().unwrap() = Some(rec);
        }
    }
    let k = cfg.jobs.len();
    let sink = Collect(
        (0..cases.len() * k)
            .map(|_| std::sync::Mutex::new(None))
            .collect(),
        k,
    );
    let todo: Vec<Vec<usize>> = vec![(0..cases.len()).collect(); k];
    let stop = AtomicBool::new(false);
    let session = run_into(cases, cfg, &todo, &sink, &stop)?;
    let records = sink
        .0
        .into_iter()
        .map(|m| m.into_inner().unwrap().expect("one record per case"))
        .collect();
    Ok(RunOutput {
        records,
        wall: session.wall,
        prepare: session.prepare,
        threads: session.threads,
    })
}

/// Solves the cases `todo[j]` (indices into `cases`) with job `j`, for every job in turn,
/// handing each record to `sink` as it finishes. When `stop` is raised, cases not started
/// yet are skipped (the ones in flight finish and are handed over) and no further pass runs.
pub fn run_into(
    cases: &[Case],
    cfg: &RunConfig,
    todo: &[Vec<usize>],
    sink: &dyn Sink,
    stop: &AtomicBool,
) -> Result<Session, String> {
    assert_eq!(todo.len(), cfg.jobs.len(), "one todo list per job");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .thread_name(|i| format!("tilebench-{i}"))
        .build()
        .map_err(|e| format!("cannot start {} worker threads: {e}", cfg.threads))?;
    let threads = pool.current_num_threads();
    let total = todo.iter().map(Vec::len).sum::<usize>() as u64;
    let bar = progress_bar(total, cfg.progress);
    let hidden = bar.is_hidden();
    let mut session = Session {
        wall: vec![Duration::ZERO; cfg.jobs.len()],
        prepare: vec![Duration::ZERO; cfg.jobs.len()],
        threads,
        solved: 0,
        stopped: false,
    };
    let solved = AtomicUsize::new(0);

    // Optimal lengths for judging external answers: the rows' expected_steps, or astar's
    // answer, computed before the programs run so that it is not in their wall time.
    let optimum = Optimum::new(cases.len(), cfg.solve);
    let external_todo = cfg
        .jobs
        .iter()
        .zip(todo)
        .any(|(j, t)| matches!(j, Job::External(_)) && !t.is_empty());
    if external_todo {
        pool.install(|| optimum.prepare(cases));
    }
    // Each shape with the goal-blank cells its cases use.
    let mut shapes: std::collections::BTreeMap<_, Vec<usize>> = Default::default();
    for p in cases.iter().filter_map(|c| c.problem.as_ref().ok()) {
        let blanks = shapes.entry(p.start.shape()).or_default();
        if !blanks.contains(&p.goal.blank()) {
            blanks.push(p.goal.blank());
        }
    }
    let tick = || {
        if !hidden {
            bar.inc(1);
        }
        solved.fetch_add(1, Ordering::Relaxed);
    };
    for (j, job) in cfg.jobs.iter().enumerate() {
        if stop.load(Ordering::SeqCst) {
            session.stopped = true;
            break;
        }
        let indices = &todo[j];
        if indices.is_empty() {
            continue;
        }
        bar.set_message(job.name().to_string());
        let t0 = Instant::now();
        if let Job::Builtin(strategy) = job {
            pool.install(|| {
                for (&shape, blanks) in &shapes {
                    strategy.prepare(shape, blanks, &cfg.solve);
                }
            });
        }
        session.prepare[j] = t0.elapsed();
        let t0 = Instant::now();
        sink.pass_start(j, job.name(), session.prepare[j], t0);
        let elapsed = match job {
            Job::Builtin(strategy) => {
                pool.install(|| {
                    indices.par_iter().for_each_init(
                        || Batch::new(sink, j),
                        |batch, &i| {
                            if !stop.load(Ordering::Relaxed) {
                                batch.push(run_one(i, &cases[i], *strategy, cfg));
                                tick();
                            }
                        },
                    )
                });
                t0.elapsed()
            }
            Job::External(solver) => {
                let pass = Pass::new(
                    solver,
                    &optimum,
                    threads,
                    cfg.solve.limits.timeout,
                    cfg.repeat,
                    cfg.keep_paths,
                );
                pool.install(|| {
                    indices.par_iter().for_each_init(
                        || Batch::new(sink, j),
                        |batch, &i| {
                            if !stop.load(Ordering::Relaxed) {
                                batch.push(pass.solve(i, &cases[i]));
                                tick();
                            }
                        },
                    )
                });
                let elapsed = t0.elapsed();
                // Ends the programs (end of input, then a kill after a grace period), outside
                // the pass's wall time.
                drop(pass);
                elapsed
            }
        };
        session.wall[j] = elapsed;
        sink.pass_end(j, elapsed);
    }
    if stop.load(Ordering::SeqCst) {
        session.stopped = true;
    }
    bar.finish_and_clear();
    session.solved = solved.load(Ordering::Relaxed);
    Ok(session)
}

/// A worker's finished records on their way to the sink: handed over every [`Batch::MAX`]
/// records, every [`Batch::AGE`], and when the worker's share of the pass ends (on drop).
struct Batch<'a> {
    sink: &'a dyn Sink,
    job: usize,
    recs: Vec<Record>,
    since: Instant,
}

impl<'a> Batch<'a> {
    const MAX: usize = 256;
    const AGE: Duration = Duration::from_millis(100);

    fn new(sink: &'a dyn Sink, job: usize) -> Batch<'a> {
        Batch {
            sink,
            job,
            recs: Vec::new(),
            since: Instant::now(),
        }
    }
    fn push(&mut self, r: Record) {
        if self.recs.is_empty() {
            self.since = Instant::now();
        }
        self.recs.push(r);
        if self.recs.len() >= Self::MAX || self.since.elapsed() >= Self::AGE {
            self.flush();
        }
    }
    fn flush(&mut self) {
        if !self.recs.is_empty() {
            self.sink.records(self.job, std::mem::take(&mut self.recs));
        }
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

fn progress_bar(total: u64, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {msg:12} [{bar:40}] {pos}/{len} jobs  {per_sec}  ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Solves one case with one strategy, `repeat` times.
fn run_one(index: usize, case: &Case, strategy: Strategy, cfg: &RunConfig) -> Record {
    let mut rec = Record::empty(index, strategy.name());
    let problem = match &case.problem {
        Ok(p) => p,
        Err(msg) => {
            rec.message = msg.clone();
            return rec;
        }
    };
    // `file:line` for messages, formatted only when one is written.
    let at = crate::harness::input::At(&case.source, case.line);
    let repeats = cfg.repeat.max(1) as usize;
    let (mut one, mut many) = ([0u64; 1], Vec::new());
    let times: &mut [u64] = if repeats == 1 {
        &mut one
    } else {
        many.resize(repeats, 0);
        &mut many
    };
    let mut first: Option<Outcome> = None;
    for slot in times.iter_mut() {
        let t0 = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| strategy.solve(problem, &cfg.solve)));
        let elapsed = t0.elapsed().as_nanos() as u64;
        let outcome = match result {
            Ok(Ok(o)) => o,
            Ok(Err(e)) => {
                rec.status = RowStatus::Error;
                rec.message = format!("{at}: {e}");
                return rec;
            }
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                rec.status = RowStatus::Error;
                rec.message = format!("{at}: {strategy} panicked: {what}");
                return rec;
            }
        };
        *slot = elapsed;
        match &first {
            None => first = Some(outcome),
            Some(f) if f.stats != outcome.stats || f.status != outcome.status => {
                rec.status = RowStatus::Error;
                rec.message = format!(
                    "{at}: {strategy} is not deterministic: repeats gave different counters ({:?} then {:?})",
                    f.stats, outcome.stats
                );
                return rec;
            }
            Some(_) => {}
        }
    }
    let outcome = first.expect("at least one repeat");
    times.sort_unstable();
    rec.latency_min_ns = times[0];
    rec.latency_ns = times[times.len() / 2];
    rec.status = outcome.status.into();
    rec.counters = outcome.stats.into();
    rec.steps = match rec.status {
        RowStatus::Solved => outcome.steps().map(|s| s as i64),
        RowStatus::Unsolvable => Some(-1),
        _ => None,
    };
    rec.matches_expected = Record::compare(rec.status, rec.steps, case.expected_steps);
    if cfg.keep_paths {
        rec.path = outcome.path.as_deref().map(Move::path_string);
    }
    rec
}
