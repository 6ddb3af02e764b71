//! `astar`, `idastar`, `wastar` and `greedy` behind the [`Solver`] trait: the heuristic
//! chosen in the [`Config`], built per goal in [`Solver::prepare`] (pattern databases loaded
//! there too), so a timed solve does one map lookup and no allocation, lock or parse.

use super::fsm::PRUNE;
use super::heuristic::pdb::{LookupMode, PdbOptions, PdbSet};
use super::heuristic::{Guided, HeuristicKind, Ready, Shared};
use super::wide::Estimate;
use super::wide_pdb::WidePdb;
use super::{shortcut, Config, Limits, Outcome, Prepare, Problem, SolveError, Solver};
use crate::puzzle::{Board, Shape};
use std::collections::HashMap;
use std::sync::Arc;

/// Heuristics kept per goal; beyond this many distinct goals, the rest are built per case
/// (cheap: a 16×16 table, or a pattern database's per-goal tile maps).
const MAX_READY: usize = 4096;

/// A heuristic search with its heuristic.
pub(crate) struct Informed<G: Guided> {
    name: &'static str,
    config: Config,
    /// The configuration's heuristic ([`super::heuristic::HEURISTIC`]).
    kind: HeuristicKind,
    shared: Shared,
    ready: HashMap<Board, Ready>,
    /// The estimates of goals of more than 16 cells, searched by [`super::wide`].
    wide: HashMap<Board, Estimate>,
    /// The pattern databases of goals of more than 16 cells, by (shape, goal blank), and
    /// the estimates of those goals ([`super::wide_pdb`], IDA\* only).
    wide_sets: HashMap<(Shape, usize), Arc<PdbSet>>,
    wide_pdb: HashMap<Board, WidePdb>,
    search: std::marker::PhantomData<G>,
}

impl<G: Guided> Informed<G> {
    /// The solver `name`, configured by `config`.
    pub(crate) fn new(name: &'static str, config: &Config) -> Informed<G> {
        Informed {
            name,
            config: config.clone(),
            kind: super::heuristic::HEURISTIC.get(config),
            shared: Shared::default(),
            ready: HashMap::new(),
            wide: HashMap::new(),
            wide_sets: HashMap::new(),
            wide_pdb: HashMap::new(),
            search: std::marker::PhantomData,
        }
    }

    fn ready_for(&self, goal: &Board) -> Result<Ready, SolveError> {
        self.shared
            .ready(self.kind, &self.config, goal)
            .map_err(|e| SolveError::new(format!("{}: {e}", self.name)))
    }

    /// Whether it takes boards of more than 16 cells of `shape`: with Manhattan distance
    /// or linear conflict, if the search has a way for them.
    fn supports_wide(&self, shape: Shape) -> Result<(), SolveError> {
        if G::wide(&self.config).is_none() {
            let instead = if self.kind == HeuristicKind::Pdb {
                "idastar or idastar-tt (pattern databases), or astar, wastar or greedy with \
                 manhattan or linear-conflict"
            } else {
                "astar, idastar, idastar-tt, wastar or greedy"
            };
            return Err(SolveError::new(format!(
                "{} takes boards of at most 16 cells, and this {shape} board has {}: use \
                 {instead}",
                self.name,
                shape.cells()
            )));
        }
        match self.kind {
            HeuristicKind::Manhattan | HeuristicKind::LinearConflict => Ok(()),
            HeuristicKind::Pdb if G::wide(&self.config) == Some(super::wide::Mode::Ida) => {
                self.supports_wide_pdb(shape)
            }
            HeuristicKind::Pdb => Err(SolveError::new(format!(
                "the pdb heuristic on boards of more than 16 cells is searched by IDA* only, \
                 and this {shape} board has {} cells: use idastar or idastar-tt with \
                 heuristic=pdb, or the manhattan or linear-conflict heuristic",
                shape.cells()
            ))),
            h => {
                let said = |how: &str| {
                    format!(
                        "the {h} heuristic takes boards of at most 16 cells, and this {shape} \
                         board has {}: use the manhattan or linear-conflict heuristic ({how})",
                        shape.cells()
                    )
                };
                Err(SolveError::new(crate::observe::Wording::new(
                    said("the `heuristic` option"),
                    said("`--heuristic`, or `:heuristic=` in a configuration"),
                )))
            }
        }
    }

    /// Whether IDA\* with pattern databases takes boards of `shape` (more than 16 cells):
    /// a partition that fits, and lookups it makes there (no walked duals).
    fn supports_wide_pdb(&self, shape: Shape) -> Result<(), SolveError> {
        let opts = PdbOptions::of(&self.config);
        opts.partition_for(shape).map_err(|e| {
            let reason = crate::observe::Wording::from(e);
            SolveError::of_option(
                &super::pdb::PARTITION,
                reason.map(|t| format!("{t} (for the {shape} boards)")),
            )
        })?;
        match opts.lookup_for(shape) {
            LookupMode::Walked => Err(SolveError::new(format!(
                "lookup=walked: on boards of more than 16 cells the pattern databases make no \
                 walked dual lookups: choose regular, reflected, dual, max or eager for the \
                 {shape} boards"
            ))),
            _ => Ok(()),
        }
    }

    /// Loads the tables of the wide goals `goals` (pattern databases) and makes their
    /// estimates.
    fn prepare_wide_pdb(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        let opts = PdbOptions::of(&self.config);
        for g in goals {
            if self.supports_wide(g.shape()).is_err() {
                continue;
            }
            let key = (g.shape(), g.blank());
            if let std::collections::hash_map::Entry::Vacant(slot) = self.wide_sets.entry(key) {
                slot.insert(
                    opts.tables(key.0, key.1, ctx.observer)
                        .map_err(SolveError::new)?,
                );
            }
            if self.wide_pdb.len() < MAX_READY && !self.wide_pdb.contains_key(g) {
                let mode = opts.lookup_for(g.shape());
                let e = WidePdb::new(g, self.wide_sets[&key].clone(), mode);
                self.wide_pdb.insert(*g, e);
            }
        }
        Ok(())
    }

    /// Solves a wide case with the pattern databases prepared for its goal.
    fn solve_wide_pdb(
        &self,
        problem: &Problem,
        opts: &super::SolveOptions,
    ) -> Result<Outcome, SolveError> {
        let goal = &problem.goal;
        if let Some(e) = self.wide_pdb.get(goal) {
            return Ok(super::wide_pdb::ida(
                problem,
                opts,
                e,
                PRUNE.get(&self.config),
            ));
        }
        let set = self
            .wide_sets
            .get(&(goal.shape(), goal.blank()))
            .ok_or_else(|| {
                SolveError::new(format!(
                    "{}: the pattern databases for {} goals with the blank at cell {} were not \
                     loaded; call Solver::prepare with the goals first",
                    self.name,
                    goal.shape(),
                    goal.blank()
                ))
            })?;
        let mode = PdbOptions::of(&self.config).lookup_for(goal.shape());
        let e = WidePdb::new(goal, set.clone(), mode);
        Ok(super::wide_pdb::ida(
            problem,
            opts,
            &e,
            PRUNE.get(&self.config),
        ))
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
        // The IDA* searches' machine (made once per process, about a millisecond): made here,
        // so that no timed case pays for it.
        PRUNE.get(&self.config).machine();
        if self.kind == HeuristicKind::Pdb {
            self.prepare_wide_pdb(&wide, ctx)?;
        }
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
            // In the library's words; the harness writes a row's message with the flags.
            self.supports_wide(problem.goal.shape())?;
            if self.kind == HeuristicKind::Pdb {
                return self.solve_wide_pdb(problem, &opts);
            }
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
