//! `astar` and `idastar` behind the [`Solver`] trait: the heuristic chosen in the [`Config`],
//! built per goal in [`Solver::prepare`] (pattern databases loaded there too), so a timed
//! solve does one map lookup and no allocation, lock or parse.

use super::heuristic::{Heuristic, HeuristicKind, LinearConflict, Manhattan};
use super::pdb::{Pdb, PdbSet};
use super::{
    shortcut, Config, Limits, Outcome, Prepare, Problem, SolveError, SolveOptions, Solver,
};
use crate::puzzle::{Board, Shape};
use std::collections::HashMap;
use std::sync::Arc;

/// A search guided by a heuristic.
pub trait Guided: Send + Sync + 'static {
    /// Runs the search with heuristic `h`, built for `problem.goal`.
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome;
}

/// A heuristic ready for one goal.
enum Ready {
    Manhattan(Manhattan),
    LinearConflict(LinearConflict),
    Pdb(Pdb),
}

/// Heuristics kept per goal; beyond this many distinct goals, Manhattan and linear conflict
/// are built per case (a 16×16 table: cheap) and pattern-database lookups per case too.
const MAX_READY: usize = 4096;

/// `astar` or `idastar` with its heuristic.
pub struct Informed<G: Guided> {
    name: &'static str,
    config: Config,
    /// Pattern databases by (shape, goal blank cell).
    tables: HashMap<(Shape, usize), Arc<PdbSet>>,
    ready: HashMap<Board, Ready>,
    search: std::marker::PhantomData<G>,
}

impl<G: Guided> Informed<G> {
    /// The solver `name`, configured by `config`.
    pub fn new(name: &'static str, config: &Config) -> Informed<G> {
        Informed {
            name,
            config: config.clone(),
            tables: HashMap::new(),
            ready: HashMap::new(),
            search: std::marker::PhantomData,
        }
    }

    fn ready_for(&self, goal: &Board) -> Result<Ready, SolveError> {
        Ok(match self.config.heuristic {
            HeuristicKind::Manhattan => Ready::Manhattan(Manhattan::new(goal)),
            HeuristicKind::LinearConflict => Ready::LinearConflict(LinearConflict::new(goal)),
            HeuristicKind::Pdb => {
                let set = self
                    .tables
                    .get(&(goal.shape(), goal.blank()))
                    .ok_or_else(|| {
                        SolveError::new(format!(
                            "{}: the pattern databases for {} goals with the blank at cell {} \
                             were not loaded; call Solver::prepare with the goals first",
                            self.name,
                            goal.shape(),
                            goal.blank()
                        ))
                    })?;
                Ready::Pdb(Pdb::with_reflection(
                    goal,
                    set.clone(),
                    self.config.pdb.reflection,
                ))
            }
        })
    }

    fn run(&self, p: &Problem, opts: &SolveOptions, h: &Ready) -> Outcome {
        match h {
            Ready::Manhattan(h) => G::search(p, opts, h),
            Ready::LinearConflict(h) => G::search(p, opts, h),
            Ready::Pdb(h) => G::search(p, opts, h),
        }
    }
}

impl<G: Guided> Solver for Informed<G> {
    fn name(&self) -> &str {
        self.name
    }
    fn optimal(&self) -> bool {
        true
    }
    fn supports(&self, shape: Shape) -> Result<(), SolveError> {
        if self.config.heuristic == HeuristicKind::Pdb {
            self.config.pdb.partition_for(shape).map_err(|e| {
                SolveError(format!("--pdb-partition: {e} (for the {shape} boards)"))
            })?;
        }
        Ok(())
    }
    fn prepare(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        if self.config.heuristic == HeuristicKind::Pdb {
            for g in goals {
                let key = (g.shape(), g.blank());
                if !self.tables.contains_key(&key) {
                    self.supports(g.shape())?;
                    let set = self
                        .config
                        .pdb
                        .tables(key.0, key.1, ctx.observer)
                        .map_err(SolveError)?;
                    self.tables.insert(key, set);
                }
            }
        }
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
        match self.ready.get(&problem.goal) {
            Some(h) => Ok(self.run(problem, &opts, h)),
            None => Ok(self.run(problem, &opts, &self.ready_for(&problem.goal)?)),
        }
    }
}
