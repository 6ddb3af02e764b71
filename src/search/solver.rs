//! The plug-in point: one trait for everything that answers cases.
//!
//! A built-in strategy, an external program and a user's own Rust type are all a
//! [`Solver`]. The harness treats them alike: it calls [`Solver::prepare`] before the clock
//! starts, times [`Solver::reply`] (by default [`Solver::solve`]) on every case (repeats,
//! median, determinism: one helper, [`crate::harness::measure`]), and judges every answer the
//! same way (path replay, parity, the optimum: [`crate::harness::judge`]).
//!
//! ```
//! use tilebench::search::{Limits, Outcome, Problem, SolveError, Solver};
//!
//! /// Answers only the pairs that are already solved.
//! struct Lazy;
//! impl Solver for Lazy {
//!     fn name(&self) -> &str { "lazy" }
//!     fn solve(&self, p: &Problem, _: &Limits) -> Result<Outcome, SolveError> {
//!         if p.start == p.goal {
//!             Ok(Outcome::solved(Vec::new(), Default::default()))
//!         } else {
//!             Err(SolveError::new("lazy only answers solved boards"))
//!         }
//!     }
//! }
//! let goal = "1 2 3 4 5 6 7 8 x".parse().unwrap();
//! let out = Lazy.solve(&Problem::new(goal, goal).unwrap(), &Limits::default()).unwrap();
//! assert_eq!(out.steps(), Some(0));
//! ```

use super::{Claim, Limits, Outcome, Problem, Reply, SolveError};
use crate::observe::Observer;
use crate::puzzle::{Board, Shape};

/// What a solver is given before its pass: where to send notices and progress, and how many
/// worker threads will call [`Solver::solve`] at once.
pub struct Prepare<'a> {
    /// Worker threads of the pass (an external program runs one process per thread).
    pub threads: usize,
    /// Every valid problem of the run, in case order (a program run in batch mode gets them
    /// all at once), for a solver whose [`Solver::wants_problems`] is true; empty for others,
    /// so that a run's memory does not grow with its dataset.
    pub problems: &'a [Problem],
    /// Where notices and progress go (the library never prints).
    pub observer: &'a dyn Observer,
}

/// Anything that answers cases.
///
/// `solve` is called from several threads at once, so the type is `Send + Sync`; what it
/// needs across cases (tables, processes) is built in [`Solver::prepare`], which runs before
/// any case is timed.
pub trait Solver: Send + Sync {
    /// The name in every output (cases.csv `strategy`, summary rows, histogram file names).
    fn name(&self) -> &str;

    /// Whether every answer is a shortest path by construction. Optimal solvers must agree
    /// on every case's length (`run --check`); the answers of the others are compared with
    /// the optimum, and cases.csv's `optimal` column says whether each was shortest.
    fn optimal(&self) -> bool {
        false
    }

    /// What it promises about its paths, which the judge holds every answer to: the shortest
    /// ([`Claim::Optimal`], the default), at most W × the shortest ([`Claim::Within`]), or
    /// any path that reaches the goal ([`Claim::Valid`]). A solver that is not
    /// [`Solver::optimal`] by construction has its paths compared with the optimum; one over
    /// its claim's bound is `wrong`.
    fn claim(&self) -> Claim {
        Claim::Optimal
    }

    /// Whether this solver takes boards of this shape, and if not, why.
    ///
    /// # Errors
    /// Why the shape is not taken (for example, a table that would not fit in memory).
    fn supports(&self, _shape: Shape) -> Result<(), SolveError> {
        Ok(())
    }

    /// Whether it solves in this process, on the calling thread: its heap is then measured
    /// per case (cases.csv's `peak_heap_bytes`, with [`crate::memory::CountingAlloc`]
    /// installed). False for an external program, whose memory is its process's RSS.
    fn in_process(&self) -> bool {
        true
    }

    /// Whether [`Solver::prepare`] needs every problem of the run in [`Prepare::problems`]
    /// (held in memory for the whole run: 32 bytes a case). False unless overridden.
    fn wants_problems(&self) -> bool {
        false
    }

    /// Builds what cases share (tables, heuristics, processes) for these goals, before the
    /// clock starts. `goals` are the distinct goals of the cases the pass will solve.
    ///
    /// # Errors
    /// The solver cannot run on these goals at all (a configuration that does not fit); the
    /// run stops before solving, with this message.
    fn prepare(&mut self, _goals: &[Board], _ctx: &Prepare) -> Result<(), SolveError> {
        Ok(())
    }

    /// Solves one case within `limits`. A search that runs out of budget returns an
    /// [`Outcome`] with status `limit` and its counters so far.
    ///
    /// # Errors
    /// The solver failed on this case; the case's row becomes `error` with this message.
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError>;

    /// Solves one case and says what the solver measured of the solve itself: what the
    /// harness calls. By default [`Solver::solve`] with nothing measured, for the harness
    /// times the call; a solver that knows better (an external program's own round trip,
    /// its CPU time, the line it printed) overrides it, and its `solve` is the reply's
    /// outcome.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tilebench::prelude::*;
    ///
    /// /// A search on another machine: the harness would time the network too, so it says
    /// /// what the remote end measured.
    /// struct Remote;
    /// impl Solver for Remote {
    ///     fn name(&self) -> &str { "remote" }
    ///     fn solve(&self, p: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
    ///         strategies::ASTAR.solve_once(&Default::default(), p, limits)
    ///     }
    ///     fn reply(&self, p: &Problem, limits: &Limits) -> Result<Reply, SolveError> {
    ///         let mut reply = Reply::from(self.solve(p, limits)?);
    ///         reply.report.latency = Some(Duration::from_micros(250));
    ///         reply.report.usage = Some(Usage { cpu_us: 240, max_rss_kb: 2048 });
    ///         Ok(reply)
    ///     }
    /// }
    /// let p = Problem::new("1 2 3 4 5 6 7 x 8".parse()?, "1 2 3 4 5 6 7 8 x".parse()?)?;
    /// let reply = Remote.reply(&p, &Limits::default())?;
    /// assert_eq!((reply.outcome.steps(), reply.report.latency), (Some(1), Some(Duration::from_micros(250))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Solver::solve`].
    fn reply(&self, problem: &Problem, limits: &Limits) -> Result<Reply, SolveError> {
        self.solve(problem, limits).map(Reply::from)
    }

    /// The pass is over: release what `prepare` set up (an external program's processes).
    fn finish(&mut self) {}

    /// Notices for the user since the last call (a program switched to another way of
    /// running, and why); the harness asks during and after the pass. A notice that names an
    /// option is a [`Wording`](crate::observe::Wording) (a command line names its flag); a
    /// `String` converts with `.into()`.
    fn notices(&self) -> Vec<crate::observe::Wording> {
        Vec::new()
    }

    /// What to tell the user when the case `case` (`file:line`) has been in flight on
    /// worker `worker` for `elapsed`: by default, that it has not answered. `None` says
    /// nothing (a solver that has said it once already).
    fn stalled(
        &self,
        worker: usize,
        case: &str,
        elapsed: std::time::Duration,
    ) -> Option<crate::observe::Wording> {
        let _ = worker;
        Some(
            format!(
                "tilebench: {} has not answered {case} for {} s",
                self.name(),
                elapsed.as_secs()
            )
            .into(),
        )
    }

    /// Labelled facts about how the pass ran, for run.json's `solver_facts` (an external
    /// program's final spawn mode, its stdout, the start-up cost of a process, a batch's wall
    /// time); asked after [`Solver::finish`].
    fn facts(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn optimal(&self) -> bool {
        (**self).optimal()
    }
    fn claim(&self) -> Claim {
        (**self).claim()
    }
    fn supports(&self, shape: Shape) -> Result<(), SolveError> {
        (**self).supports(shape)
    }
    fn in_process(&self) -> bool {
        (**self).in_process()
    }
    fn wants_problems(&self) -> bool {
        (**self).wants_problems()
    }
    fn prepare(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        (**self).prepare(goals, ctx)
    }
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        (**self).solve(problem, limits)
    }
    fn reply(&self, problem: &Problem, limits: &Limits) -> Result<Reply, SolveError> {
        (**self).reply(problem, limits)
    }
    fn finish(&mut self) {
        (**self).finish()
    }
    fn notices(&self) -> Vec<crate::observe::Wording> {
        (**self).notices()
    }
    fn stalled(
        &self,
        worker: usize,
        case: &str,
        elapsed: std::time::Duration,
    ) -> Option<crate::observe::Wording> {
        (**self).stalled(worker, case, elapsed)
    }
    fn facts(&self) -> Vec<(String, String)> {
        (**self).facts()
    }
}

/// A solver made of a name and a closure, for a search written in a few lines: what the
/// closure returns for a problem is the row's answer, timed and checked like a built-in
/// strategy's. It claims shortest paths unless told otherwise ([`FnSolver::claiming`]).
///
/// ```
/// use tilebench::prelude::*;
/// use tilebench::search::solver_fn;
///
/// // Answers only what needs no search (start = goal, or parity), and gives up on the rest.
/// let lazy = solver_fn("lazy", |p: &Problem, _: &Limits| {
///     Ok(shortcut(p, false).unwrap_or_else(|| Outcome::without_path(Status::Limit, Stats::default())))
/// })
/// .claiming(Claim::Valid);
/// // Without the built-in strategies that run by default.
/// let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
///     .without_builtins()
///     .with_solver(lazy)
///     .with_out(std::env::temp_dir().join(format!("tilebench-doc-fn-{}", std::process::id())))
///     .with_mode(OutMode::Force);
/// let done = run(plan)?;
/// assert_eq!(done.rows, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solver_fn<F>(name: impl Into<String>, solve: F) -> FnSolver<F>
where
    F: Fn(&Problem, &Limits) -> Result<Outcome, SolveError> + Send + Sync,
{
    FnSolver {
        name: name.into(),
        claim: Claim::Optimal,
        solve,
    }
}

/// A [`Solver`] made by [`solver_fn`].
pub struct FnSolver<F> {
    name: String,
    claim: Claim,
    solve: F,
}

impl<F> FnSolver<F> {
    /// The same solver, promising `claim` of its paths (`Claim::Valid` for a search that is
    /// not optimal: its longer paths are then not wrong answers).
    #[must_use]
    pub fn claiming(mut self, claim: Claim) -> FnSolver<F> {
        self.claim = claim;
        self
    }
}

impl<F> Solver for FnSolver<F>
where
    F: Fn(&Problem, &Limits) -> Result<Outcome, SolveError> + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }
    fn claim(&self) -> Claim {
        self.claim
    }
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        (self.solve)(problem, limits)
    }
}
