//! `astar`, `idastar`, `wastar` and `greedy` behind the [`Solver`] trait: the heuristic
//! chosen in the [`Config`], built per goal in [`Solver::prepare`] (pattern databases loaded
//! there too), so a timed solve does one map lookup and no allocation, lock or parse.

use super::heuristic::{Guided, Ready, Shared};
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
    shared: Shared,
    ready: HashMap<Board, Ready>,
    search: std::marker::PhantomData<G>,
}

impl<G: Guided> Informed<G> {
    /// The solver `name`, configured by `config`.
    pub fn new(name: &'static str, config: &Config) -> Informed<G> {
        Informed {
            name,
            config: config.clone(),
            shared: Shared::default(),
            ready: HashMap::new(),
            search: std::marker::PhantomData,
        }
    }

    fn ready_for(&self, goal: &Board) -> Result<Ready, SolveError> {
        self.shared
            .ready(self.config.heuristic, &self.config, goal)
            .map_err(|e| SolveError(format!("{}: {e}", self.name)))
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
        self.config.heuristic.supports(&self.config, shape)
    }
    fn prepare(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        let kind = self.config.heuristic;
        self.shared
            .prepare(kind, &self.config, goals, ctx.observer)?;
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
        Ok(match self.ready.get(&problem.goal) {
            Some(h) => h.run::<G>(problem, &opts),
            None => self.ready_for(&problem.goal)?.run::<G>(problem, &opts),
        })
    }
}
