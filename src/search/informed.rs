//! `astar`, `idastar`, `wastar` and `greedy` behind the [`Solver`] trait: the heuristic
//! chosen in the [`Config`], built per goal in [`Solver::prepare`] (pattern databases loaded
//! there too), so a timed solve does one map lookup and no allocation, lock or parse.

use super::heuristic::{Guided, HeuristicKind, Ready, Shared};
use super::wide::Estimate;
use super::{shortcut, Config, Limits, Outcome, Prepare, Problem, SolveError, Solver};
use crate::puzzle::{Board, Shape};
use std::collections::HashMap;

/// Heuristics kept per goal; beyond this many distinct goals, the rest are built per case
/// (cheap: a 16×16 table, or a pattern database's per-goal tile maps).
const MAX_READY: usize = 4096;

/// A heuristic search with its heuristic.
pub struct Informed<G: Guided> {
    name: &'static str,
    config: Config,
    /// The configuration's heuristic ([`super::heuristic::HEURISTIC`]).
    kind: HeuristicKind,
    shared: Shared,
    ready: HashMap<Board, Ready>,
    /// The estimates of goals of more than 16 cells, searched by [`super::wide`].
    wide: HashMap<Board, Estimate>,
    search: std::marker::PhantomData<G>,
}

impl<G: Guided> Informed<G> {
    /// The solver `name`, configured by `config`.
    pub fn new(name: &'static str, config: &Config) -> Informed<G> {
        Informed {
            name,
            config: config.clone(),
            kind: super::heuristic::HEURISTIC.get(config),
            shared: Shared::default(),
            ready: HashMap::new(),
            wide: HashMap::new(),
            search: std::marker::PhantomData,
        }
    }

    fn ready_for(&self, goal: &Board) -> Result<Ready, SolveError> {
        self.shared
            .ready(self.kind, &self.config, goal)
            .map_err(|e| SolveError(format!("{}: {e}", self.name)))
    }

    /// Whether it takes boards of more than 16 cells of `shape`: with Manhattan distance
    /// or linear conflict, if the search has a way for them.
    fn supports_wide(&self, shape: Shape) -> Result<(), SolveError> {
        if G::wide(&self.config).is_none() {
            return Err(SolveError(format!(
                "{} takes boards of at most 16 cells, and this {shape} board has {}: use astar, \
                 idastar, idastar-tt, wastar or greedy",
                self.name,
                shape.cells()
            )));
        }
        match self.kind {
            HeuristicKind::Manhattan | HeuristicKind::LinearConflict => Ok(()),
            h => Err(SolveError(format!(
                "the {h} heuristic takes boards of at most 16 cells, and this {shape} board \
                 has {}: use the manhattan or linear-conflict heuristic (`--heuristic`, or \
                 `:heuristic=` in a configuration)",
                shape.cells()
            ))),
        }
    }

    /// The estimate of `goal`, a board of more than 16 cells.
    fn wide_estimate(&self, goal: &Board) -> Estimate {
        let conflicts = self.kind == HeuristicKind::LinearConflict;
        Estimate::new(goal, conflicts)
    }
}

impl<G: Guided> Solver for Informed<G> {
    fn name(&self) -> &str {
        self.name
    }
    fn optimal(&self) -> bool {
        G::OPTIMAL
    }
    fn claim(&self) -> super::Claim {
        G::claim(&self.config)
    }
    fn supports(&self, shape: Shape) -> Result<(), SolveError> {
        if !shape.is_packed() {
            return self.supports_wide(shape);
        }
        self.kind.supports(&self.config, shape)
    }
    fn prepare(&mut self, all_goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        // Goals of more than 16 cells are searched by `wide`, with its own estimate; a
        // configuration that does not take them answers each of their cases with why.
        let (goals, wide): (Vec<Board>, Vec<Board>) = all_goals.iter().partition(|g| g.is_packed());
        for g in wide.iter().take(MAX_READY) {
            if self.supports_wide(g.shape()).is_ok() && !self.wide.contains_key(g) {
                let e = self.wide_estimate(g);
                self.wide.insert(*g, e);
            }
        }
        let kind = self.kind;
        self.shared
            .prepare(kind, &self.config, &goals, ctx.observer)?;
        for g in goals.iter().take(MAX_READY) {
            if !self.ready.contains_key(g) {
                let h = self.ready_for(g)?;
                self.ready.insert(*g, h);
            }
        }
        Ok(())
    }
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        if let Some(o) = shortcut(problem, self.config.exhaustive) {
            return Ok(o);
        }
        let opts = self.config.options(limits);
        if !problem.goal.is_packed() {
            self.supports_wide(problem.goal.shape())?;
            let mode = G::wide(&self.config).expect("checked by supports_wide");
            return Ok(match self.wide.get(&problem.goal) {
                Some(e) => super::wide::solve(problem, &opts, e, mode),
                None => {
                    super::wide::solve(problem, &opts, &self.wide_estimate(&problem.goal), mode)
                }
            });
        }
        Ok(match self.ready.get(&problem.goal) {
            Some(h) => h.run::<G>(problem, &opts),
            None => self.ready_for(&problem.goal)?.run::<G>(problem, &opts),
        })
    }
}
