//! Solving every case × strategy in parallel, timing each solve.
//!
//! A [`Job`] is a built-in [`Strategy`] or an external solver program. Jobs run one after
//! another, each over all cases in parallel on a rayon pool of `--threads` workers: a job's
//! wall time and cases/s are then its own, not shared with the others. Records come back in
//! input order then job order, whatever the thread count. A panic inside a strategy is caught
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

/// Solves every case with every strategy.
pub fn run(cases: &[Case], cfg: &RunConfig) -> Result<RunOutput, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .thread_name(|i| format!("tilebench-{i}"))
        .build()
        .map_err(|e| format!("cannot start {} worker threads: {e}", cfg.threads))?;
    let threads = pool.current_num_threads();
    let total = (cases.len() * cfg.jobs.len()) as u64;
    let bar = progress_bar(total, cfg.progress);
    let hidden = bar.is_hidden();

    // Optimal lengths for judging external answers: the rows' expected_steps, or astar's
    // answer, computed before the programs run so that it is not in their wall time.
    let optimum = Optimum::new(cases.len(), cfg.solve);
    if cfg.jobs.iter().any(|j| matches!(j, Job::External(_))) {
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
    };
    let mut per_job: Vec<Vec<Record>> = Vec::with_capacity(cfg.jobs.len());
    let mut wall = Vec::with_capacity(cfg.jobs.len());
    let mut prepare = Vec::with_capacity(cfg.jobs.len());
    for job in &cfg.jobs {
        bar.set_message(job.name().to_string());
        let t0 = Instant::now();
        if let Job::Builtin(strategy) = job {
            pool.install(|| {
                for (&shape, blanks) in &shapes {
                    strategy.prepare(shape, blanks, &cfg.solve);
                }
            });
        }
        prepare.push(t0.elapsed());
        let t0 = Instant::now();
        let (records, elapsed): (Vec<Record>, Duration) = match job {
            Job::Builtin(strategy) => {
                let records = pool.install(|| {
                    cases
                        .par_iter()
                        .enumerate()
                        .map(|(i, case)| {
                            let r = run_one(i, case, *strategy, cfg);
                            tick();
                            r
                        })
                        .collect()
                });
                (records, t0.elapsed())
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
                let records = pool.install(|| {
                    cases
                        .par_iter()
                        .enumerate()
                        .map(|(i, case)| {
                            let r = pass.solve(i, case);
                            tick();
                            r
                        })
                        .collect()
                });
                let elapsed = t0.elapsed();
                // Ends the programs (end of input, then a kill after a grace period), outside
                // the pass's wall time.
                drop(pass);
                (records, elapsed)
            }
        };
        wall.push(elapsed);
        per_job.push(records);
    }
    bar.finish_and_clear();

    // Interleave into input order, then job order.
    let mut iters: Vec<_> = per_job.into_iter().map(Vec::into_iter).collect();
    let mut records = Vec::with_capacity(total as usize);
    for _ in 0..cases.len() {
        for it in iters.iter_mut() {
            records.push(it.next().expect("one record per case"));
        }
    }
    Ok(RunOutput {
        records,
        wall,
        prepare,
        threads,
    })
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
    let at = format!("{}:{}", case.source, case.line);
    let mut times = Vec::with_capacity(cfg.repeat.max(1) as usize);
    let mut first: Option<Outcome> = None;
    for _ in 0..cfg.repeat.max(1) {
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
        times.push(elapsed);
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
