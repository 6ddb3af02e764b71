//! Solving every case × solver in parallel, timing each solve.
//!
//! The cases are taken a block of `BLOCK` at a time; within a block the solvers run one
//! after another, each over the block's cases in parallel on a rayon pool of `--threads`
//! workers: a solver's wall time and cases/s are then its own, not shared with the others,
//! and the solvers take turns every block, so that a change in the machine's load over a long
//! run falls on all of them alike instead of on whichever ran last. Before the first block
//! every solver is prepared (tables, processes), outside every latency.
//! `run_into` hands each record to a `Sink` as it finishes (the run's journal, so an
//! interrupted run keeps its finished cases) and can run any subset of the case × solver grid
//! (a resumed run, a shard); the unit tests' `run` keeps every record in memory, in input
//! order then solver order. Every answer is timed by `super::measure` and judged by
//! `super::judge`, whoever gave it.

use super::judge::{judge, Optimum};
use super::measure::measure;
use super::spool::{CaseBlock, Dataset};
use super::store::Layout;
use crate::check::Judged;
use crate::dataset::Case;
use crate::observe::Observer;
use crate::puzzle::{Board, Move};
use crate::results::record::{Record, RowStatus};
use crate::search::{LimitReason, Limits, Prepare, SolveError, Solver};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How to run the solvers.
#[derive(Clone, Debug)]
pub(crate) struct RunConfig {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The budget of each solve.
    pub limits: Limits,
    /// Solve each case this many times; latency is the median, and the minimum is kept too.
    pub repeat: u32,
    /// Keep each path's move string.
    pub keep_paths: bool,
    /// In which order the solvers take their turns at the cases.
    pub order: Order,
}

/// In which order the solvers of a run take turns at its cases. Either way each solver's
/// records are the same and cases.csv's rows are in input order, then solver order; only
/// when each solve runs changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// `--order blocked`: every solver in turn over a whole `BLOCK` of cases, in the run's
    /// solver order.
    #[default]
    Blocked,
    /// `--order shuffled` (the run's default): each block is cut into small turns of cases
    /// (see [`Order::turns_of`]), and at each turn the solvers go in an order shuffled from
    /// `seed` and the turn's first position, so that slow drift of the machine (heat, other
    /// load) falls on every solver alike, not on whichever runs last.
    Shuffled {
        /// The shuffles' seed (`--seed`, in run.json).
        seed: u64,
    },
}

/// The most cases in a turn of [`Order::Shuffled`] before the solvers' speed is known.
pub(crate) const TURN_MAX: usize = 256;

/// The work a turn of [`Order::Shuffled`] aims at once the solvers' speed is known (their
/// wall time per case so far, together): long enough that handing the turn to the workers
/// and back, and its checkpoint, are a small part of it; short enough that slow drift of the
/// machine falls alike on the solvers within it.
pub(crate) const TURN_WORK: std::time::Duration = std::time::Duration::from_millis(20);

impl Order {
    /// Its name: `blocked` or `shuffled`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Blocked => "blocked",
            Order::Shuffled { .. } => "shuffled",
        }
    }

    /// The turns of `block` (positions), in order: the whole block when blocked; shuffled,
    /// runs of a sixteenth of the block, at least 4 cases per worker (each worker then has
    /// work in a turn) and at most `TURN_MAX`.
    ///
    /// ```
    /// use tilebench::harness::runner::Order;
    /// let turns = Order::Shuffled { seed: 1 }.turns(0..100, 2);
    /// assert_eq!((turns.len(), turns[0].clone(), turns[12].clone()), (13, 0..8, 96..100));
    /// assert_eq!(Order::Blocked.turns(0..100, 2), [0..100]);
    /// ```
    pub fn turns(
        self,
        block: std::ops::Range<usize>,
        threads: usize,
    ) -> Vec<std::ops::Range<usize>> {
        let mut turns = Turns {
            order: self,
            at: block.start,
            block,
            threads,
        };
        std::iter::from_fn(|| turns.next(None)).collect()
    }

    /// The turns of `block` for `k` solvers whose wall time per case so far, together, is
    /// `per_case` (`None` before each has run): one turn when `k` is 1, since one solver has
    /// no one to take turns with and each turn costs a hand-off to the workers and back (a
    /// quarter of a 1M-row `table` run); shuffled, turns of about 20 ms (`TURN_WORK`) once the
    /// solvers' speed is known (cheap solvers get long turns: with two `table` solvers, a
    /// turn of 256 cases cost more in hand-offs than in solving), from 4 cases a worker to a
    /// sixteenth of the block; before that, [`Order::turns`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use tilebench::harness::runner::Order;
    /// let shuffled = Order::Shuffled { seed: 1 };
    /// assert_eq!(shuffled.turns_of(1, 0..100, 2, None), [0..100]);
    /// assert_eq!(shuffled.turns_of(2, 0..100, 2, None), shuffled.turns(0..100, 2));
    /// // 2 µs a case: 20 ms is 10,000 cases, but at most a sixteenth of the block.
    /// let cheap = shuffled.turns_of(2, 0..65_536, 2, Some(Duration::from_micros(2)));
    /// assert_eq!((cheap.len(), cheap[0].clone()), (16, 0..4096));
    /// // 10 ms a case: 2 cases, but at least 4 a worker.
    /// let slow = shuffled.turns_of(2, 0..100, 2, Some(Duration::from_millis(10)));
    /// assert_eq!((slow.len(), slow[0].clone()), (13, 0..8));
    /// ```
    pub fn turns_of(
        self,
        k: usize,
        block: std::ops::Range<usize>,
        threads: usize,
        per_case: Option<std::time::Duration>,
    ) -> Vec<std::ops::Range<usize>> {
        let mut turns = self.turns_in(k, block, threads);
        std::iter::from_fn(|| turns.next(per_case)).collect()
    }

    /// The turns of `block` for `k` solvers, cut one at a time as [`Order::turns_of`] cuts
    /// them, each by the solvers' wall time per case known when it starts ([`Turns::next`]).
    pub(crate) fn turns_in(self, k: usize, block: std::ops::Range<usize>, threads: usize) -> Turns {
        Turns {
            order: if k == 1 { Order::Blocked } else { self },
            at: block.start,
            block,
            threads,
        }
    }

    /// The order of `k` solvers at the turn that starts at position `at`.
    pub fn solvers(self, k: usize, at: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..k).collect();
        if let Order::Shuffled { seed } = self {
            let mut rng =
                crate::util::Rng::new(seed ^ (at as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            rng.shuffle(&mut order);
        }
        order
    }
}

/// A block's turns, cut one at a time ([`Order::turns_in`]).
#[derive(Clone, Debug)]
pub(crate) struct Turns {
    order: Order,
    block: std::ops::Range<usize>,
    threads: usize,
    /// Where the next turn starts.
    at: usize,
}

impl Turns {
    /// The next turn, for solvers whose wall time per case so far is `per_case` together
    /// (`None` before each has had a turn); `None` past the block's end.
    pub(crate) fn next(
        &mut self,
        per_case: Option<std::time::Duration>,
    ) -> Option<std::ops::Range<usize>> {
        if self.at >= self.block.end {
            return None;
        }
        let (n, threads) = (self.block.len(), self.threads);
        let len = match (self.order, per_case) {
            (Order::Blocked, _) => n,
            (Order::Shuffled { .. }, Some(cost)) => {
                let fit = TURN_WORK.as_nanos() / cost.as_nanos().max(1);
                usize::try_from(fit).unwrap_or(usize::MAX).min(n / 16)
            }
            (Order::Shuffled { .. }, None) => (n / 16).min(TURN_MAX),
        }
        .max(4 * threads)
        .max(1);
        let turn = self.at..(self.at + len).min(self.block.end);
        self.at = turn.end;
        Some(turn)
    }

    /// Whether the last turn was the block's last.
    pub(crate) fn ended(&self) -> bool {
        self.at >= self.block.end
    }
}

/// All records, in case-major order, and each solver's wall time.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct RunOutput {
    /// One record per case × solver.
    pub records: Vec<Record>,
    /// Wall time of each solver's pass over the cases, in solver order.
    pub wall: Vec<Duration>,
}

/// Where a pass's records go as they finish, and when passes start and end.
pub(crate) trait Sink: Sync {
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
    /// The pass ended (all its cases done, or stopped); `wall` is the job's time in all its
    /// passes of this session so far. Its records are to be kept safe now (the journal
    /// syncs them).
    fn pass_end(&self, _job: usize, _wall: Duration) {}
    /// A turn of [`Order::Shuffled`] ended that is not the last of its block: as
    /// [`Sink::pass_end`], but its records need not be synced yet (the block's last turn,
    /// or the journal's next regular sync, does it).
    fn turn_end(&self, job: usize, wall: Duration) {
        self.pass_end(job, wall);
    }
    /// Whether the sink can no longer keep records (a journal whose disk is full): the
    /// pass then stops, rather than solve what would be lost. Its error comes later, from
    /// whoever owns the sink.
    fn failed(&self) -> bool {
        false
    }
}

/// What one session of solving did.
pub(crate) struct Session {
    /// Wall time of each solver's pass in this session (zero for solvers with nothing to do).
    pub wall: Vec<Duration>,
    /// Positions each solver was handed in its turns this session.
    pub handed: Vec<usize>,
    /// Time each solver spent preparing before its pass.
    pub prepare: Vec<Duration>,
    /// Worker threads used.
    pub threads: usize,
    /// Case × solver jobs solved in this session.
    pub solved: usize,
    /// `stop` was raised: the cases not started yet were left undone.
    pub stopped: bool,
    /// Each solver's facts about its pass ([`Solver::facts`]), in solver order.
    pub facts: Vec<Vec<(String, String)>>,
}

impl Session {
    /// A session about to start, for solvers prepared in `prepared`.
    fn new(prepared: &[Duration], threads: usize) -> Session {
        Session {
            wall: vec![Duration::ZERO; prepared.len()],
            handed: vec![0; prepared.len()],
            prepare: prepared.to_vec(),
            threads,
            solved: 0,
            stopped: false,
            facts: vec![Vec::new(); prepared.len()],
        }
    }

    /// The solvers' wall time per case this session, together (each one's wall over the
    /// positions it was handed), once every one has had a turn.
    fn per_case(&self) -> Option<Duration> {
        let mut sum = Duration::ZERO;
        for (wall, &n) in self.wall.iter().zip(&self.handed) {
            sum += wall.checked_div(u32::try_from(n).ok().filter(|&n| n > 0)?)?;
        }
        Some(sum)
    }
}

/// The worker threads of a run.
pub(crate) struct Workers {
    pool: rayon::ThreadPool,
}

impl Workers {
    /// `threads` workers (0: one per core).
    ///
    /// # Errors
    /// The threads cannot be started.
    pub(crate) fn new(threads: usize) -> Result<Workers, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("tilebench-{i}"))
            .build()
            .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
        Ok(Workers { pool })
    }

    /// How many workers there are.
    pub(crate) fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }
}

/// Prepares the solvers whose `needed` entry is true (all when `needed` is empty) for the
/// goals of `cases`, on the workers; returns the time each took.
///
/// # Errors
/// A solver that cannot run on these goals; the message starts with its name.
pub(crate) fn prepare(
    workers: &Workers,
    solvers: &mut [Box<dyn Solver>],
    needed: &[bool],
    cases: Cases,
    observer: &dyn Observer,
) -> Result<Vec<Duration>, SolveError> {
    let goals = cases.goals();
    let wanted = solvers
        .iter()
        .enumerate()
        .any(|(j, s)| needed.get(j) != Some(&false) && s.wants_problems());
    let problems = if wanted {
        cases
            .problems()
            .map_err(|e| SolveError::new(unreadable(&e)))?
    } else {
        Vec::new()
    };
    let ctx = Prepare {
        threads: workers.threads(),
        problems: &problems,
        observer,
    };
    let mut took = vec![Duration::ZERO; solvers.len()];
    for (j, solver) in solvers.iter_mut().enumerate() {
        if needed.get(j) == Some(&false) {
            continue;
        }
        let t0 = Instant::now();
        workers
            .pool
            .install(|| solver.prepare(&goals, &ctx))
            .map_err(|e| e.in_solver(solver.name()))?;
        took[j] = t0.elapsed();
    }
    Ok(took)
}

/// Prepares every solver and solves every case with it, records in memory: how the unit
/// tests run solvers (a run goes through the pipeline's passes).
///
/// # Errors
/// The worker threads cannot start, or a solver cannot be prepared.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn run(
    cases: &[Case],
    solvers: &mut [Box<dyn Solver>],
    cfg: &RunConfig,
    observer: &dyn Observer,
) -> Result<RunOutput, String> {
    struct Collect(Vec<std::sync::Mutex<Option<Record>>>, usize);
    impl Sink for Collect {
        fn record(&self, job: usize, rec: Record) {
            let at = rec.case * self.1 + job;
            *self.0[at].lock().unwrap() = Some(rec);
        }
    }
    let k = solvers.len();
    let sink = Collect(
        (0..cases.len() * k)
            .map(|_| std::sync::Mutex::new(None))
            .collect(),
        k,
    );
    let todo = Jobs::all(Layout {
        shard: crate::dataset::shard::Shard::ALL,
        cases: cases.len(),
        solvers: k,
    });
    let stop = AtomicBool::new(false);
    let workers = Workers::new(cfg.threads)?;
    let prepared = prepare(&workers, solvers, &[], Cases::Memory(cases), observer)
        .map_err(SolveError::into_message)?;
    let pass = Pass {
        cases: Cases::Memory(cases),
        cfg,
        todo: &todo,
        sink: &sink,
        stop: &stop,
        observer,
    };
    let session = run_into(&workers, solvers, &prepared, &pass).map_err(|e| e.to_string())?;
    let records = sink
        .0
        .into_iter()
        .map(|m| m.into_inner().unwrap().expect("one record per case"))
        .collect();
    Ok(RunOutput {
        records,
        wall: session.wall,
    })
}

/// A run's cases, as the runner reads them: all in memory, or spooled to disk and read back
/// a block at a time.
#[derive(Clone, Copy)]
pub(crate) enum Cases<'a> {
    /// Every case, in memory (indexed by its number in the run).
    Memory(&'a [Case]),
    /// Read once and spooled ([`Dataset`]).
    Spooled(&'a Dataset),
}

impl<'a> Cases<'a> {
    /// The cases of `shard` at `positions`, held while they are solved or written.
    ///
    /// # Errors
    /// Spooled cases that cannot be read back.
    pub(crate) fn block(
        &self,
        shard: crate::dataset::shard::Shard,
        positions: std::ops::Range<usize>,
        need: super::spool::Need,
    ) -> std::io::Result<CaseBlock<'a>> {
        match *self {
            Cases::Memory(c) => Ok(CaseBlock::all(c)),
            Cases::Spooled(d) => d.cases(shard, positions, need),
        }
    }
    /// The distinct goals of the valid cases, in first-seen order.
    pub(crate) fn goals(&self) -> Vec<Board> {
        match *self {
            Cases::Memory(c) => goals_of(c),
            Cases::Spooled(d) => d.goals.clone(),
        }
    }
    /// Every valid case's problem, in order.
    ///
    /// # Errors
    /// Spooled cases that cannot be read back.
    pub(crate) fn problems(&self) -> std::io::Result<Vec<crate::search::Problem>> {
        match *self {
            Cases::Memory(c) => Ok(c
                .iter()
                .filter_map(|c| c.problem.as_ref().ok().copied())
                .collect()),
            Cases::Spooled(d) => d.problems(),
        }
    }
}

/// The distinct goals of the valid cases, in first-seen order.
pub(crate) fn goals_of(cases: &[Case]) -> Vec<Board> {
    let mut seen = std::collections::HashSet::new();
    cases
        .iter()
        .filter_map(|c| c.problem.as_ref().ok())
        .filter(|p| seen.insert(p.goal))
        .map(|p| p.goal)
        .collect()
}

/// Which cases each solver has yet to solve: its shard's cases less the jobs done, kept as
/// one flag per case × solver (none at all when nothing is done).
pub(crate) struct Jobs {
    layout: Layout,
    /// Per slot of the layout, whether it is done; empty when none is.
    done: Vec<bool>,
    /// Per solver, the cases left.
    left: Vec<usize>,
}

impl Jobs {
    /// Every case of the layout, for every solver.
    pub(crate) fn all(layout: Layout) -> Jobs {
        Jobs {
            left: vec![layout.positions(); layout.solvers],
            layout,
            done: Vec::new(),
        }
    }
    /// The jobs of the layout whose flag in `done` (one per slot, see [`Layout::slot`]) is
    /// false.
    pub(crate) fn except(layout: Layout, done: Vec<bool>) -> Jobs {
        assert_eq!(done.len(), layout.len(), "one flag per slot");
        let n = layout.positions();
        let left = (0..layout.solvers)
            .map(|j| done[j * n..(j + 1) * n].iter().filter(|&&d| !d).count())
            .collect();
        Jobs { layout, done, left }
    }
    /// How many cases solver `job` has left.
    pub(crate) fn left(&self, job: usize) -> usize {
        self.left[job]
    }
    /// Whether any solver has a case left.
    pub(crate) fn any(&self) -> bool {
        self.left.iter().any(|&n| n > 0)
    }
    /// The case × solver jobs left.
    pub(crate) fn total(&self) -> usize {
        self.left.iter().sum()
    }
    /// Whether solver `job` has the shard's position `p` left.
    fn is_left(&self, job: usize, p: usize) -> bool {
        !self
            .done
            .get(job * self.layout.positions() + p)
            .copied()
            .unwrap_or(false)
    }
    /// How many of positions `block` solver `job` has left.
    fn left_in(&self, job: usize, block: &std::ops::Range<usize>) -> usize {
        if self.done.is_empty() {
            return block.len();
        }
        block.clone().filter(|&p| self.is_left(job, p)).count()
    }
    /// The cases of positions `turn` (of a block of `block` positions) solver `job` has
    /// left, in order, as a parallel iterator. Its jobs hold at most a 64th of a worker's
    /// share of the block: rayon would otherwise run a quarter or an eighth of a turn as one
    /// job, and a few slow cases in one left the other workers idle at the end (Korf's 100:
    /// a turn of 100 cases, each worker's last job 12 or 25 of them). A block of 65,536
    /// cases still has jobs of up to 512, so its turns' records reach the journal in
    /// batches of hundreds (a job's records go together).
    fn cases(
        &self,
        job: usize,
        turn: std::ops::Range<usize>,
        block: usize,
    ) -> impl ParallelIterator<Item = usize> + '_ {
        let shard = self.layout.shard;
        let most = block / (64 * rayon::current_num_threads().max(1));
        turn.into_par_iter()
            .with_max_len(most.max(1))
            .filter(move |&p| self.is_left(job, p))
            .map(move |p| shard.case_at(p))
    }
}

/// What [`run_into`] solves and where the records go.
pub(crate) struct Pass<'a> {
    /// Every case of the run.
    pub cases: Cases<'a>,
    /// Limits, repeats, paths.
    pub cfg: &'a RunConfig,
    /// The cases each solver solves (indices into `cases`).
    pub todo: &'a Jobs,
    /// Where each record goes as it finishes.
    pub sink: &'a dyn Sink,
    /// Raised to stop: cases not started yet are skipped (the ones in flight finish and are
    /// handed over) and no further solver's pass runs.
    pub stop: &'a AtomicBool,
    /// Progress.
    pub observer: &'a dyn Observer,
}

/// Solves the cases `pass.todo` lists for solver `j` with solver `j` (prepared, in
/// `prepared[j]`), a [`BLOCK`] of positions at a time, every solver in turn within a block,
/// handing each record to the sink as it finishes. Each solver's turn at a block is one pass
/// for the sink ([`Sink::pass_start`], [`Sink::pass_end`]); its preparation time goes with
/// its first.
///
/// # Errors
/// Spooled cases that cannot be read back (what was solved before is in the sink).
pub(crate) fn run_into(
    workers: &Workers,
    solvers: &mut [Box<dyn Solver>],
    prepared: &[Duration],
    pass: &Pass,
) -> Result<Session, crate::observe::Wording> {
    let Pass {
        cases,
        cfg,
        todo,
        sink,
        stop,
        observer,
    } = *pass;
    assert_eq!(
        todo.layout.solvers,
        solvers.len(),
        "one todo list per solver"
    );
    let pool = &workers.pool;
    let threads = workers.threads();
    let total = todo.total() as u64;
    let bar = observer.progress("", total);
    let mut session = Session::new(prepared, threads);
    let solved = AtomicUsize::new(0);
    crate::external::process::reset_stop();
    crate::search::reset_stop();
    // Optimal lengths for judging the answers of solvers that are not optimal by
    // construction: the rows' expected_steps, or astar's answer, computed for each block
    // before its passes so that it is not in their wall time.
    let judged = solvers
        .iter()
        .enumerate()
        .any(|(j, s)| !s.optimal() && todo.left(j) > 0);
    let goals = if judged { cases.goals() } else { Vec::new() };
    let mut optimum = Optimum::new(cfg.limits, &goals);
    let tick = || {
        bar.inc(1);
        solved.fetch_add(1, Ordering::Relaxed);
    };
    let k = solvers.len();
    let skip = |block: &std::ops::Range<usize>| (0..k).all(|j| todo.left_in(j, block) == 0);
    let mut started = vec![false; solvers.len()];
    let positions = todo.layout.positions();
    let shard = todo.layout.shard;
    let mut failed = None;
    'blocks: for from in (0..positions).step_by(BLOCK) {
        let block = from..(from + BLOCK).min(positions);
        if skip(&block) {
            continue;
        }
        let held =
            match pool.install(|| cases.block(shard, block.clone(), super::spool::Need::Solving)) {
                Ok(h) => h,
                Err(e) => {
                    failed = Some(unreadable_block(&e));
                    break;
                }
            };
        if judged {
            pool.install(|| optimum.prepare(&held, block.clone().map(|p| shard.case_at(p))));
        }
        let mut turns = cfg.order.turns_in(k, block.clone(), threads);
        while let Some(turn) = turns.next(session.per_case()) {
            for j in cfg.order.solvers(k, turn.start) {
                if stop.load(Ordering::SeqCst) || sink.failed() {
                    break 'blocks;
                }
                if todo.left_in(j, &turn) == 0 {
                    continue;
                }
                let one: &dyn Solver = &*solvers[j];
                bar.label(one.name());
                let turn = Block {
                    job: j,
                    positions: turn.clone(),
                    block: block.len(),
                    optimum: &optimum,
                    cases: &held,
                };
                take_turn(
                    workers,
                    one,
                    pass,
                    &turn,
                    (&mut session, &mut started),
                    &tick,
                );
                if turns.ended() {
                    sink.pass_end(j, session.wall[j]);
                } else {
                    sink.turn_end(j, session.wall[j]);
                }
            }
        }
    }
    finish_solvers(solvers, &started, &mut session, observer);
    if stop.load(Ordering::SeqCst) {
        session.stopped = true;
    }
    bar.finish();
    session.solved = solved.load(Ordering::Relaxed);
    match failed {
        Some(e) => Err(e),
        None => Ok(session),
    }
}

/// Solver `turn.job`'s turn at the positions of `turn`: one pass for the sink, started with
/// the job's time so far this session (so that the journal's checkpoints count it all), its
/// preparation counted with its first turn; its wall time is added to `session`'s. The sink
/// is told of the end by the caller.
fn take_turn(
    workers: &Workers,
    one: &dyn Solver,
    pass: &Pass,
    turn: &Block,
    (session, started): (&mut Session, &mut [bool]),
    tick: &(dyn Fn() + Sync),
) {
    let j = turn.job;
    let t0 = Instant::now();
    let prepare = if started[j] {
        Duration::ZERO
    } else {
        session.prepare[j]
    };
    started[j] = true;
    let so_far = t0.checked_sub(session.wall[j]).unwrap_or(t0);
    pass.sink.pass_start(j, one.name(), prepare, so_far);
    solve_block(workers, one, pass, turn, tick);
    session.wall[j] += t0.elapsed();
    session.handed[j] += turn.positions.len();
}

/// Ends what prepare started (an external program's processes), outside the passes' wall
/// time, and passes on what each solver had to say at its end.
fn finish_solvers(
    solvers: &mut [Box<dyn Solver>],
    started: &[bool],
    session: &mut Session,
    observer: &dyn Observer,
) {
    for (j, solver) in solvers.iter_mut().enumerate() {
        if started[j] {
            solver.finish();
            session.facts[j] = solver.facts();
            for n in solver.notices() {
                n.tell(observer);
            }
        }
    }
}

/// The error of spooled cases that cannot be read back.
/// The run's error for cases that cannot be read back: what was solved is kept.
fn unreadable_block(e: &std::io::Error) -> crate::observe::Wording {
    let said = |resume: &str| {
        format!(
            "{}; the journal holds what was solved: run again with {resume}",
            unreadable(e)
        )
    };
    crate::observe::Wording::new(said("the mode Resume"), said("--resume"))
}

fn unreadable(e: &std::io::Error) -> String {
    format!(
        "cannot read the cases back from the run's scratch file: {}",
        crate::util::io_reason(e)
    )
}

/// One solver's turn at a block of positions.
struct Block<'a> {
    job: usize,
    positions: std::ops::Range<usize>,
    /// How many positions the whole block has (the turn is some of them).
    block: usize,
    optimum: &'a Optimum,
    /// The block's cases.
    cases: &'a CaseBlock<'a>,
}

/// Solves the cases of `block` that `pass.todo` lists for its solver, in parallel, with a
/// [`Watch`] beside; `tick` counts each record handed to the sink.
fn solve_block(
    workers: &Workers,
    one: &dyn Solver,
    pass: &Pass,
    block: &Block,
    tick: &(dyn Fn() + Sync),
) {
    let (cases, stop, sink) = (block.cases, pass.stop, pass.sink);
    let j = block.job;
    let watch = Watch::new(workers.threads());
    std::thread::scope(|scope| {
        scope.spawn(|| watch.run(one, cases, stop, pass.observer));
        workers.pool.install(|| {
            pass.todo
                .cases(j, block.positions.clone(), block.block)
                .for_each_init(
                    || Batch::new(sink, j),
                    |batch, i| {
                        if stop.load(Ordering::Relaxed) || sink.failed() {
                            return;
                        }
                        watch.begin(i);
                        let rec = run_one(i, cases.get(i), one, pass.cfg, block.optimum);
                        watch.end();
                        // A case cut short by the stop (an external program's exchange
                        // stopped, a search's budget run out) is left for --resume, not recorded.
                        if matches!(rec.status, RowStatus::Error | RowStatus::Limit)
                            && stop.load(Ordering::SeqCst)
                        {
                            return;
                        }
                        batch.push(rec);
                        tick();
                    },
                )
        });
        watch.finish();
    });
}

/// Cases (positions of the shard) solved by every solver in turn before the next block: the
/// solvers take turns this often. Each block's pass is synced to the journal as it ends.
pub(crate) const BLOCK: usize = 1 << 16;

/// How long a case may be in flight before the user is told what is probably wrong.
const STALL_AFTER: Duration = Duration::from_secs(5);

/// Watches a pass from beside it: passes the solver's notices on as they come, tells the
/// user about cases in flight for [`STALL_AFTER`], and stops external programs' exchanges in
/// flight as soon as the stop flag is raised.
struct Watch {
    /// Per worker: 1 + the case in flight, or 0. The watch times a case from when it first
    /// sees it (within one look of its start), so a worker reads no clock and takes no lock
    /// for it.
    in_flight: Vec<AtomicUsize>,
    /// Set when the pass has ended; the condition variable wakes the watch at once (a plain
    /// sleep between its looks made every pass end up to one look later: 25 ms on average,
    /// per block and solver).
    done: std::sync::Mutex<bool>,
    wake: std::sync::Condvar,
}

impl Watch {
    fn new(threads: usize) -> Watch {
        Watch {
            in_flight: (0..threads.max(1)).map(|_| AtomicUsize::new(0)).collect(),
            done: std::sync::Mutex::new(false),
            wake: std::sync::Condvar::new(),
        }
    }
    /// Tells the watch that the pass has ended.
    fn finish(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.wake.notify_all();
    }
    fn slot(&self) -> &AtomicUsize {
        crate::util::for_worker(&self.in_flight)
    }
    fn begin(&self, case: usize) {
        self.slot().store(case + 1, Ordering::Relaxed);
    }
    fn end(&self) {
        self.slot().store(0, Ordering::Relaxed);
    }
    fn run(
        &self,
        solver: &dyn Solver,
        cases: &CaseBlock,
        stop: &AtomicBool,
        observer: &dyn Observer,
    ) {
        let mut warned = std::collections::HashSet::new();
        let mut stopped = false;
        // Per worker: the case seen in flight at the last look, and since when.
        let mut seen = vec![(0usize, Instant::now()); self.in_flight.len()];
        loop {
            let finished = *self.done.lock().unwrap_or_else(|e| e.into_inner());
            for n in solver.notices() {
                n.tell(observer);
            }
            if finished {
                return;
            }
            if !stopped && stop.load(Ordering::SeqCst) {
                stopped = true;
                crate::external::process::stop_all();
                crate::search::stop_all();
            }
            for (worker, (slot, (was, since))) in self.in_flight.iter().zip(&mut seen).enumerate() {
                let now = slot.load(Ordering::Relaxed);
                if now != *was {
                    (*was, *since) = (now, Instant::now());
                }
                let Some(i) = now.checked_sub(1) else {
                    continue;
                };
                if since.elapsed() >= STALL_AFTER && warned.insert(i) {
                    let c = cases.get(i);
                    let case = format!("{}:{}", c.source, c.line);
                    if let Some(text) = solver.stalled(worker, &case, STALL_AFTER) {
                        text.tell(observer);
                    }
                }
            }
            let done = self.done.lock().unwrap_or_else(|e| e.into_inner());
            if !*done {
                let _ = self.wake.wait_timeout(done, Duration::from_millis(50));
            }
        }
    }
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
    /// Records between two looks at the clock, when they are fast…
    const LOOK: usize = 8;
    /// …that is, faster than this (in nanoseconds).
    const SLOW_NS: u64 = 1_000_000;

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
        // The clock is read after a slow record (or one without a latency), else every
        // [`Batch::LOOK`] records: reading it after each of a million fast records cost
        // about a twentieth of the pass, and a batch is late by at most a few milliseconds.
        let slow = r.latency_ns.is_none_or(|ns| ns >= Self::SLOW_NS);
        self.recs.push(r);
        crate::util::crash_point("solved", "");
        let n = self.recs.len();
        if n >= Self::MAX || ((slow || n % Self::LOOK == 0) && self.since.elapsed() >= Self::AGE) {
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

/// Solves one case with one solver, `repeat` times, and judges the answer.
pub(crate) fn run_one(
    index: usize,
    case: &Case,
    solver: &dyn Solver,
    cfg: &RunConfig,
    optimum: &Optimum,
) -> Record {
    let mut rec = Record::empty(index, solver.name());
    let problem = match &case.problem {
        Ok(p) => p,
        Err(msg) => {
            rec.message = msg.clone();
            return rec;
        }
    };
    // `file:line` for messages, formatted only when one is written.
    let at = crate::dataset::At(&case.source, case.line);
    let m = match measure(solver, problem, &cfg.limits, cfg.repeat) {
        Ok(m) => m,
        Err(e) => {
            rec.status = RowStatus::Error;
            rec.message = crate::util::escape_controls(format!("{at}: {e}"));
            return rec;
        }
    };
    let (outcome, report) = (&m.reply.outcome, &m.reply.report);
    let verdict = judge(problem, outcome, Judged::of(solver), || {
        optimum.of(index, case, problem)
    });
    rec.latency_min_ns = m.latency_min_ns;
    rec.latency_ns = m.latency_ns;
    rec.cpu_us = report.usage.map(|u| u.cpu_us);
    rec.max_rss_kb = report.usage.map(|u| u.max_rss_kb).or(report.peak_rss_kb);
    rec.peak_heap_bytes = m.peak_heap_bytes;
    rec.status = verdict.status;
    rec.counters = outcome.counters();
    if rec.status == RowStatus::Limit {
        let c = &rec.counters;
        rec.limit_reason = outcome
            .limit
            .or_else(|| LimitReason::of_counters(&cfg.limits, c.expanded, c.stored));
    }
    rec.steps = verdict.steps;
    rec.optimal = verdict.optimal;
    // The optimum wherever it is known, for the row's suboptimality: the one the answer was
    // judged against, or (for a solver optimal by construction) the dataset's.
    rec.optimum_steps = verdict.optimum.or_else(|| {
        (rec.status == RowStatus::Solved)
            .then_some(case.expected_steps)
            .flatten()
            .and_then(|e| u64::try_from(e).ok())
    });
    rec.matches_expected = Record::compare(rec.status, rec.steps, case.expected_steps);
    if cfg.keep_paths && rec.status == RowStatus::Solved {
        rec.path = outcome.path.as_deref().map(Move::path_string);
    }
    let name = solver.name();
    rec.message = match (&report.note, verdict.why.is_empty(), rec.status) {
        (Some(note), false, RowStatus::Wrong) => {
            format!("{at}: {name}: wrong answer: {note}: {}", verdict.why)
        }
        (None, false, RowStatus::Wrong) => format!("{at}: {name}: wrong answer: {}", verdict.why),
        (_, false, _) => format!("{at}: {name}: {}", verdict.why),
        (Some(note), true, RowStatus::Limit) => format!("{at}: {name}: {note}"),
        _ => String::new(),
    };
    // Whatever a program printed, no raw control byte reaches cases.csv or a terminal.
    if !rec.message.is_empty() {
        rec.message = crate::util::escape_controls(std::mem::take(&mut rec.message));
    }
    rec
}

#[cfg(test)]
mod tests {
    /// The solvers' wall per case is unknown until each has been handed positions, then the
    /// sum of each one's wall over its positions; the turns it sizes hold about
    /// `TURN_WORK` of it.
    #[test]
    fn turns_are_sized_by_the_solvers_wall_per_case() {
        use super::*;
        let mut s = Session::new(&[Duration::ZERO; 2], 2);
        assert_eq!(s.per_case(), None);
        s.wall = vec![Duration::from_millis(3), Duration::from_millis(1)];
        s.handed = vec![1000, 0];
        assert_eq!(s.per_case(), None);
        s.handed = vec![1000, 500];
        let cost = s.per_case().unwrap();
        assert_eq!(cost, Duration::from_micros(5));
        let turns = Order::Shuffled { seed: 3 }.turns_of(2, 0..65_536, 2, Some(cost));
        assert_eq!(turns[0].len(), (TURN_WORK.as_micros() / 5) as usize);
        assert_eq!(turns.iter().map(|t| t.len()).sum::<usize>(), 65_536);
        assert!(turns.windows(2).all(|w| w[0].end == w[1].start));
    }

    /// A strategy that panics is caught by the runner (moved here from the integration
    /// tests: the runner's `run` is crate-private).
    mod panics {
        use super::super::*;
        use crate::dataset::{Case, Source};
        use crate::puzzle::{Board, Shape};
        use crate::report::RunReport;
        use crate::results::record::RowStatus;
        use crate::search::{registry, Config, Limits, Problem};

        fn case(line: u64, start: Board, goal: Board) -> Case {
            Case {
                source: Source::new("lib.csv"),
                line,
                id: format!("c{line}").as_str().into(),
                start_text: start.to_string(),
                goal_text: goal.to_string(),
                expected_steps: None,
                problem: Ok(Problem { start, goal }),
            }
        }

        /// The runner catches a panic inside a strategy and records it as an `error` row; the cases
        /// around it are solved, and the reports count it.
        ///
        /// There is no test-only switch in the strategies to make them panic. The panic here is a
        /// real one, reachable through the library: `Board::from_parts` trusts its caller's blank
        /// position, and a board whose blank lies outside the board makes move generation index out
        /// of bounds in every strategy (idastar, which masks its indices, checks the blank first and
        /// panics with its own message). (CSV input cannot build such a board: `Board::parse` checks
        /// every tile.) The `thread 'tilebench-N' panicked at …` lines this test prints on stderr are
        /// the default panic hook reporting the panics that the runner then catches.
        #[test]
        fn a_strategy_that_panics_on_one_case_gives_error_rows_and_the_other_cases_are_solved() {
            let s3 = Shape::new(3, 3).unwrap();
            let goal = Board::standard_goal(s3);
            let start: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
            let broken = Board::from_parts(s3, start.packed(), 200);
            let cases = vec![
                case(1, start, goal),
                case(2, broken, goal),
                case(3, "1 2 3 x 4 6 7 5 8".parse().unwrap(), goal),
            ];
            // `table` answers an unsolvable-looking pair by parity before touching the board, so it
            // does not reach the panic; every searching strategy does.
            let strategies: Vec<_> = registry::defaults()
                .into_iter()
                .filter(|s| s.name != "table")
                .collect();
            let names: Vec<String> = strategies.iter().map(|s| s.name.to_string()).collect();
            for threads in [1, 2] {
                let cfg = RunConfig {
                    threads,
                    limits: Limits::default(),
                    repeat: 1,
                    keep_paths: false,
                    order: Order::Shuffled { seed: 3 },
                };
                // Past the parity test, which would answer the broken board without moving.
                let config = Config {
                    exhaustive: true,
                    ..Config::default()
                };
                let mut solvers: Vec<_> = strategies.iter().map(|s| s.build(&config)).collect();
                let out = run(&cases, &mut solvers, &cfg, &crate::observe::Silent)
                    .expect("the run survives the panics");
                assert_eq!(out.records.len(), 3 * strategies.len());
                for (i, r) in out.records.iter().enumerate() {
                    assert_eq!(
                        r.case,
                        i / strategies.len(),
                        "input order, then strategy order"
                    );
                    assert_eq!(r.strategy, names[i % names.len()]);
                    match r.case {
                        1 => {
                            assert_eq!(r.status, RowStatus::Error, "{r:?}");
                            // An index out of bounds, or idastar's own check of the blank.
                            let want = format!("lib.csv:2: {} panicked: ", r.strategy);
                            assert!(r.message.starts_with(&want), "{}", r.message);
                            assert_eq!(r.steps, None);
                        }
                        c => {
                            assert_eq!(r.status, RowStatus::Solved, "{r:?}");
                            assert_eq!(r.steps, Some(if c == 0 { 19 } else { 3 }));
                        }
                    }
                }
                let report = RunReport::new(&cases, &out.records, &names, &out.wall);
                for s in &report.summaries {
                    assert_eq!((s.solved, s.errors, s.cases), (2, 1, 3), "{}", s.strategy);
                }
            }
        }
    }
}
