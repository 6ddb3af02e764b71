//! A run as a value: inputs, solvers, limits and outputs, checked once before any solving.

use super::rundir::check_baseline_name;
use crate::dataset::shard::Shard;
use crate::dataset::InputOptions;
use crate::error::PlanError;
use crate::external::ExternalSolver;
use crate::report::Format;
use crate::search::configuration::Configuration;
use crate::search::{registry, Builtin, Config, Limits, Solver};
use std::path::{Path, PathBuf};

/// What to do with an output directory that already holds a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutMode {
    /// Refuse it.
    #[default]
    New,
    /// Overwrite it.
    Force,
    /// Finish its unfinished run: solve only what its journal lacks.
    Resume,
}

/// An extra export of the per-solver summary (`--export NAME=FILE`).
pub struct Export {
    /// Where it is written.
    pub path: PathBuf,
    /// The format.
    pub format: &'static Format,
}

/// Everything a run needs, built in steps: [`RunPlan::new`] with the inputs, then a `with_…`
/// call for each thing that differs from the defaults, and the plan goes to
/// [`super::pipeline::run`] (or [`super::pipeline::execute_with`]).
///
/// ```
/// use tilebench::prelude::*;
/// use tilebench::search::strategies;
///
/// let plan = RunPlan::new(vec!["inputs/seeds.csv".into()])
///     .with(strategies::IDASTAR)
///     .with(strategies::ASTAR)
///     .with_threads(2)
///     .with_out(std::env::temp_dir().join(format!("tilebench-doc-plan-{}", std::process::id())))
///     .with_mode(OutMode::Force);
/// assert_eq!(plan.strategies().map(|b| b.name).collect::<Vec<_>>(), ["idastar", "astar"]);
/// let done = run(plan)?;
/// assert_eq!(done.rows, 12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RunPlan {
    /// Datasets (CSV paths, `-` for stdin); none: the built-in seed samples.
    pub(crate) inputs: Vec<String>,
    /// How rows are read (`--size`, `--goal`).
    pub(crate) input: InputOptions,
    /// The solvers to run, in the order every output lists them: built-in strategies,
    /// configurations, external programs and the user's own, as added ([`RunPlan::with`]).
    pub(crate) solvers: Vec<Chosen>,
    /// Also run every optimal built-in strategy that fits the boards
    /// ([`crate::search::registry::defaults`]), before `solvers`: true until a built-in
    /// strategy or a configuration is chosen ([`RunPlan::with_strategies`], [`RunPlan::with`])
    /// or the defaults are turned off ([`RunPlan::without_builtins`]); turned on again by
    /// [`RunPlan::with_fitting_builtins`].
    pub(crate) fitting_strategies: bool,
    /// The built-ins' run-wide options (heuristic, pattern databases, …).
    pub(crate) config: Config,
    /// The budget of each solve.
    pub(crate) limits: Limits,
    /// Worker threads (0: one per core).
    pub(crate) threads: usize,
    /// Solves per case; latency is the median.
    pub(crate) repeat: u32,
    /// Keep every path's move string in cases.csv.
    pub(crate) keep_paths: bool,
    /// The results directory (`None`: `results/run-<UTC>`).
    pub(crate) out: Option<PathBuf>,
    /// New, forced or resumed.
    pub(crate) mode: OutMode,
    /// Run only this shard of the cases.
    pub(crate) shard: Option<Shard>,
    /// `--rows`: run only these rows of the inputs (before the shard takes its share).
    pub(crate) rows: Option<crate::dataset::rows::Rows>,
    /// Extra summary exports.
    pub(crate) exports: Vec<Export>,
    /// The `limit` rows `--check` accepts (`--allow-limit`), for exports of the checks
    /// (JUnit); none by default.
    pub(crate) allow_limit: crate::check::AllowLimit,
    /// Also save the run as this baseline.
    pub(crate) save_baseline: Option<String>,
    /// The command line, for run.json and the resume hint.
    pub(crate) command: Vec<String>,
    /// How the solvers take turns at the cases (shuffled, seed 1, unless set).
    pub(crate) order: super::runner::Order,
}

/// One solver of a run ([`RunPlan::solvers`]).
#[non_exhaustive]
pub enum Chosen {
    /// A built-in strategy, with the run's options ([`RunPlan::config`]).
    Strategy(&'static Builtin),
    /// A built-in strategy with options of its own, under its label (`-s NAME:KEY=VALUE`).
    Configured(Configuration),
    /// An external program (`--solver NAME=COMMAND`).
    Program(ExternalSolver),
    /// A solver of the library user's own.
    Own(Box<dyn Solver>),
}

impl From<&'static Builtin> for Chosen {
    fn from(b: &'static Builtin) -> Chosen {
        Chosen::Strategy(b)
    }
}

impl From<Configuration> for Chosen {
    fn from(c: Configuration) -> Chosen {
        Chosen::Configured(c)
    }
}

impl From<ExternalSolver> for Chosen {
    fn from(e: ExternalSolver) -> Chosen {
        Chosen::Program(e)
    }
}

impl RunPlan {
    /// A plan to run every fitting built-in strategy on `inputs`, with the defaults.
    pub fn new(inputs: Vec<String>) -> RunPlan {
        RunPlan {
            inputs,
            input: InputOptions::default(),
            solvers: Vec::new(),
            fitting_strategies: true,
            config: Config::default(),
            limits: Limits::default(),
            threads: 0,
            repeat: 1,
            keep_paths: false,
            out: None,
            mode: OutMode::New,
            shard: None,
            rows: None,
            exports: Vec::new(),
            allow_limit: Default::default(),
            save_baseline: None,
            command: Vec::new(),
            order: super::runner::Order::Shuffled { seed: 1 },
        }
    }

    /// Runs the built-in strategies named (`a,b` or `all`), after the solvers already
    /// chosen, instead of the fitting defaults; `none` chooses none of them.
    ///
    /// # Errors
    /// An unknown name, or a list that names none ([`PlanError::Strategies`]).
    pub fn with_strategies(mut self, list: &str) -> Result<RunPlan, PlanError> {
        self.fitting_strategies = false;
        if !list.trim().eq_ignore_ascii_case("none") {
            let chosen = registry::parse_list(list)?;
            self.solvers
                .extend(chosen.into_iter().map(Chosen::Strategy));
        }
        Ok(self)
    }

    /// Adds a solver: a built-in strategy ([`crate::search::strategies`]), a configuration,
    /// an external program or one of your own ([`Chosen`]). Choosing a built-in strategy or a
    /// configuration stops the fitting defaults, as `-s` does; a program or a solver of your
    /// own runs beside them unless [`RunPlan::without_builtins`] is called.
    #[must_use]
    pub fn with(mut self, solver: impl Into<Chosen>) -> RunPlan {
        let solver = solver.into();
        if matches!(solver, Chosen::Strategy(_) | Chosen::Configured(_)) {
            self.fitting_strategies = false;
        }
        self.solvers.push(solver);
        self
    }

    /// Runs no built-in strategy but those chosen: without it, a plan whose solvers are all
    /// the user's own also runs every optimal built-in strategy that fits the boards, first.
    /// (`with_strategies("none")` in a word, for a plan built in code.)
    ///
    /// ```
    /// use tilebench::prelude::*;
    ///
    /// let mine = || solver_fn("mine", |p: &Problem, _: &Limits| {
    ///     Ok(shortcut(p, false).unwrap_or_else(|| Outcome::without_path(Status::Limit, Stats::default())))
    /// });
    /// let files = vec!["inputs/seeds.csv".to_string()];
    /// let alone = RunPlan::new(files.clone()).without_builtins().with_solver(mine());
    /// assert!(!alone.runs_fitting_builtins() && alone.solvers().len() == 1);
    /// // Without it, the fitting built-ins run beside `mine`.
    /// assert!(RunPlan::new(files).with_solver(mine()).runs_fitting_builtins());
    /// ```
    #[must_use]
    pub fn without_builtins(mut self) -> RunPlan {
        self.fitting_strategies = false;
        self
    }

    /// Runs every optimal built-in strategy that fits the boards too, first, whatever else
    /// was chosen: the defaults beside a configuration of one of them
    /// (`.with(fast).with_fitting_builtins()`).
    #[must_use]
    pub fn with_fitting_builtins(mut self) -> RunPlan {
        self.fitting_strategies = true;
        self
    }

    /// Adds a solver of the user's own (after the others chosen so far).
    #[must_use]
    pub fn with_solver(self, solver: impl Solver + 'static) -> RunPlan {
        self.with(Chosen::Own(Box::new(solver)))
    }

    /// How rows are read: a board size or a goal for rows that lack one (`--size`,
    /// `--goal`).
    #[must_use]
    pub fn with_input(mut self, input: InputOptions) -> RunPlan {
        self.input = input;
        self
    }

    /// The built-ins' run-wide options (heuristic, weight, pattern databases, …).
    #[must_use]
    pub fn with_config(mut self, config: Config) -> RunPlan {
        self.config = config;
        self
    }

    /// The budget of each solve (default: [`Limits::default`]).
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> RunPlan {
        self.limits = limits;
        self
    }

    /// Worker threads (default 0: one per core).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> RunPlan {
        self.threads = threads;
        self
    }

    /// Solves per case (default 1); a row's latency is the median.
    #[must_use]
    pub fn with_repeat(mut self, repeat: u32) -> RunPlan {
        self.repeat = repeat;
        self
    }

    /// Keeps every path's move string in cases.csv (default: not).
    #[must_use]
    pub fn with_paths(mut self, keep: bool) -> RunPlan {
        self.keep_paths = keep;
        self
    }

    /// The results directory (default: `results/run-<UTC>`).
    #[must_use]
    pub fn with_out(mut self, dir: impl Into<PathBuf>) -> RunPlan {
        self.out = Some(dir.into());
        self
    }

    /// What to do with an output directory that holds a run (default: refuse it).
    #[must_use]
    pub fn with_mode(mut self, mode: OutMode) -> RunPlan {
        self.mode = mode;
        self
    }

    /// Runs only this shard of the cases.
    #[must_use]
    pub fn with_shard(mut self, shard: Shard) -> RunPlan {
        self.shard = Some(shard);
        self
    }

    /// Runs only these rows of the inputs (before a shard takes its share).
    #[must_use]
    pub fn with_rows(mut self, rows: crate::dataset::rows::Rows) -> RunPlan {
        self.rows = Some(rows);
        self
    }

    /// Adds an export of the per-solver summary.
    #[must_use]
    pub fn with_export(mut self, export: Export) -> RunPlan {
        self.exports.push(export);
        self
    }

    /// The `limit` rows the checks accept, for exports of the checks (JUnit).
    #[must_use]
    pub fn with_allow_limit(mut self, allow: crate::check::AllowLimit) -> RunPlan {
        self.allow_limit = allow;
        self
    }

    /// Also saves the run as the baseline `name` (`results/baselines/NAME`), for later runs
    /// to be compared with.
    #[must_use]
    pub fn saving_baseline(mut self, name: impl Into<String>) -> RunPlan {
        self.save_baseline = Some(name.into());
        self
    }

    /// The command line that made the run, for run.json and the line that resumes it.
    #[must_use]
    pub fn with_command(mut self, command: Vec<String>) -> RunPlan {
        self.command = command;
        self
    }

    /// How the solvers take turns at the cases (default: shuffled, seed 1).
    #[must_use]
    pub fn with_order(mut self, order: super::runner::Order) -> RunPlan {
        self.order = order;
        self
    }

    /// The solvers chosen, in the order every output lists them (after the fitting
    /// built-ins, when those run).
    pub fn solvers(&self) -> &[Chosen] {
        &self.solvers
    }

    /// Whether every optimal built-in strategy that fits the boards runs too, before the
    /// solvers chosen: true until a strategy or a configuration is chosen, or
    /// [`RunPlan::without_builtins`].
    pub fn runs_fitting_builtins(&self) -> bool {
        self.fitting_strategies
    }

    /// The built-ins' run-wide options.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The built-in strategies chosen (by name or by value), in order.
    pub fn strategies(&self) -> impl Iterator<Item = &'static Builtin> + '_ {
        self.solvers.iter().filter_map(|c| match c {
            Chosen::Strategy(b) => Some(*b),
            _ => None,
        })
    }

    /// The configurations chosen, in order.
    pub fn configurations(&self) -> impl Iterator<Item = &Configuration> {
        self.solvers.iter().filter_map(|c| match c {
            Chosen::Configured(c) => Some(c),
            _ => None,
        })
    }

    /// The external programs chosen, in order.
    pub fn programs(&self) -> impl Iterator<Item = &ExternalSolver> {
        self.solvers.iter().filter_map(|c| match c {
            Chosen::Program(e) => Some(e),
            _ => None,
        })
    }

    /// The names of the external and custom solvers, in order.
    fn extra_names(&self) -> impl Iterator<Item = &str> {
        self.solvers.iter().filter_map(|c| match c {
            Chosen::Program(e) => Some(e.name.as_str()),
            Chosen::Own(s) => Some(s.name()),
            _ => None,
        })
    }

    /// Checks everything that can be checked before reading the inputs: solver names, the
    /// limits, every output path (exports, the baseline name).
    ///
    /// # Errors
    /// The first problem found, as a sentence that says what to do.
    pub fn check(&self) -> Result<(), PlanError> {
        // Names become file names (`latency-NAME.hgrm`, case folded on some systems): two
        // that would share one are refused.
        let file = |n: &str| crate::results::latency_hgrm(n).to_lowercase();
        let taken = |seen: &[String], n: &str| seen.iter().any(|s| file(s) == file(n));
        let mut seen: Vec<String> = self.strategies().map(|b| b.name.to_string()).collect();
        for c in self.configurations() {
            if let Some(other) = seen.iter().find(|s| file(s) == file(&c.label)) {
                return Err(if *other == c.label {
                    PlanError::LabelTaken {
                        label: c.label.clone(),
                    }
                } else {
                    PlanError::LabelsShareFile {
                        first: other.clone(),
                        second: c.label.clone(),
                        file: crate::results::latency_hgrm(&c.label),
                    }
                });
            }
            seen.push(c.label.clone());
        }
        for name in self.extra_names() {
            if registry::find(name).is_some() {
                return Err(PlanError::BuiltinName {
                    name: name.to_string(),
                });
            }
            if taken(&seen, name) {
                return Err(PlanError::NameTaken {
                    name: name.to_string(),
                });
            }
            seen.push(name.to_string());
        }
        if !self.fitting_strategies && seen.is_empty() {
            return Err(PlanError::NothingToRun);
        }
        if self.repeat == 0 {
            return Err(PlanError::NoRepeats);
        }
        self.check_options()?;
        for e in &self.exports {
            check_writable(&e.path)?;
        }
        if let Some(name) = &self.save_baseline {
            check_baseline_name(name)?;
        }
        Ok(())
    }
}

impl RunPlan {
    /// Refuses a run-wide option set away from its default that changes no solver of the run
    /// ([`crate::search::options::Knob`], declared by the strategies that read it): no
    /// strategy of the run reads it (`-s table --heuristic pdb --pdb-partition 9-9` would
    /// otherwise be taken and change nothing, its tables never checked), it applies under
    /// another option's value that no solver has (`--pdb-partition` without `heuristic=pdb`),
    /// or every configuration that reads it sets its own.
    fn check_options(&self) -> Result<(), PlanError> {
        let mut plain: Vec<&Builtin> = if self.fitting_strategies {
            registry::defaults()
        } else {
            Vec::new()
        };
        plain.extend(self.strategies());
        let mut chosen = plain.clone();
        chosen.extend(self.configurations().map(|c| c.strategy));
        let mut given: Vec<(&str, String, String)> = Vec::new();
        for (option, text) in self.config.given() {
            let Some(knob) = registry::knob(option) else {
                continue;
            };
            if text == knob.default() {
                continue;
            }
            let flag = if knob.flag().is_empty() {
                option
            } else {
                knob.flag()
            };
            let used = plain
                .iter()
                .any(|b| registry::reads(b.name, option) && knob.applies(&self.config))
                || self.configurations().any(|c| {
                    registry::reads(c.strategy.name, option)
                        && knob.applies(&c.config)
                        && !c.options.iter().any(|(k, _)| k == option)
                });
            if !used {
                given.push((option, format!("{flag} {text}"), flag.to_string()));
            }
        }
        if let Some(dir) = &self.config.pdb_dir {
            let pdb = crate::search::pdb::uses_pdb;
            let used = plain
                .iter()
                .any(|b| registry::reads(b.name, "heuristic") && pdb(&self.config))
                || self.configurations().any(|c| pdb(&c.config));
            if !used {
                given.push((
                    "partition",
                    format!("--pdb-dir {}", dir.display()),
                    "--pdb-dir".into(),
                ));
            }
        }
        let Some((option, text, flag)) = given.into_iter().next() else {
            return Ok(());
        };
        let readers = registry::readers(option);
        let (option, given) = (option.to_string(), text);
        Err(if !chosen.iter().any(|b| readers.contains(&b.name)) {
            PlanError::OptionUnread {
                option,
                given,
                flag,
                readers: readers.iter().map(|r| r.to_string()).collect(),
                strategies: chosen.iter().map(|b| b.name.to_string()).collect(),
            }
        } else if registry::knob(&option).is_some_and(|k| !k.applies(&self.config))
            || flag == "--pdb-dir"
        {
            PlanError::OptionWithoutPdb {
                option,
                given,
                flag,
            }
        } else {
            PlanError::OptionOverridden {
                option,
                given,
                flag,
            }
        })
    }
}

/// Fails now, not after solving, when `path` cannot be written: its directory is missing,
/// or it is a directory.
fn check_writable(path: &Path) -> Result<(), PlanError> {
    if path.is_dir() {
        return Err(PlanError::ExportIsDirectory {
            path: path.to_path_buf(),
        });
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = parent {
        if !dir.is_dir() {
            return Err(PlanError::ExportDirectoryMissing {
                path: path.to_path_buf(),
                dir: dir.to_path_buf(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fitting built-ins run until a built-in strategy or a configuration is chosen:
    /// an external program or a solver of the user's own runs beside them, as on the command
    /// line; `without_builtins` and `with_fitting_builtins` say it outright, last call wins.
    #[test]
    fn what_is_chosen_decides_whether_the_fitting_builtins_run() {
        use crate::external::protocol::{Blank, Protocol, Spawn};
        use crate::search::{solver_fn, strategies, Outcome, Stats, Status};
        let plan = || RunPlan::new(vec!["cases.csv".into()]);
        let program = || {
            ExternalSolver::parse("mine=./mine", Protocol::Moves, Blank::X, Spawn::Persistent)
                .unwrap()
        };
        let own = || {
            solver_fn("own", |_: &crate::search::Problem, _: &Limits| {
                Ok(Outcome::without_path(Status::Limit, Stats::default()))
            })
        };
        let configured =
            || Configuration::parse("fast=wastar:weight=3", &Config::default()).unwrap();
        assert!(plan().runs_fitting_builtins());
        assert!(plan().with(program()).runs_fitting_builtins());
        assert!(plan().with_solver(own()).runs_fitting_builtins());
        assert!(!plan().with(strategies::ASTAR).runs_fitting_builtins());
        assert!(!plan().with(configured()).runs_fitting_builtins());
        assert!(!plan()
            .with_strategies("astar")
            .unwrap()
            .runs_fitting_builtins());
        assert!(!plan()
            .with(program())
            .without_builtins()
            .runs_fitting_builtins());
        let both = plan().with(configured()).with_fitting_builtins();
        assert!(both.runs_fitting_builtins());
        assert_eq!(both.solvers().len(), 1);
        // A program added after a strategy leaves the choice as the strategy made it.
        let after = plan().with(strategies::IDASTAR).with(program());
        assert!(!after.runs_fitting_builtins());
        assert_eq!(after.programs().count(), 1);
    }

    /// Each plan error has its fields and says what to do, before anything is read.
    #[test]
    fn plan_errors_have_their_fields_and_words() {
        let plan = || {
            RunPlan::new(vec!["cases.csv".into()])
                .with_strategies("bfs-hash")
                .unwrap()
        };

        let mut p = plan();
        let weight = registry::knob("weight").unwrap();
        p.config.set(weight, "2").unwrap();
        let e = p.check().unwrap_err();
        let PlanError::OptionUnread {
            option,
            given,
            readers,
            strategies,
            ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(
            (option.as_str(), strategies.as_slice()),
            ("weight", &["bfs-hash".to_string()][..])
        );
        assert!(readers.iter().any(|r| r == "wastar"), "{readers:?}");
        assert!(given.ends_with(" 2"), "{given}");
        let text = e.to_string();
        assert!(text.starts_with("weight 2 is read only by "), "{text}");
        assert!(
            text.contains(", and this run takes bfs-hash: it would change nothing"),
            "{text}"
        );

        let dir = std::env::temp_dir();
        let mut p = plan();
        p.exports.push(Export {
            path: dir.clone(),
            format: &crate::report::markdown::FORMAT,
        });
        let e = p.check().unwrap_err();
        assert_eq!(e, PlanError::ExportIsDirectory { path: dir.clone() });
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a directory; give a file name to export to",
                dir.display()
            )
        );

        let mut p = plan();
        let path = dir.join("tilebench-no-such-dir").join("run.md");
        p.exports.push(Export {
            path: path.clone(),
            format: &crate::report::markdown::FORMAT,
        });
        let e = p.check().unwrap_err();
        assert!(
            matches!(&e, PlanError::ExportDirectoryMissing { dir: d, .. } if *d == dir.join("tilebench-no-such-dir"))
        );
        assert!(
            e.to_string().ends_with("does not exist; create it first"),
            "{e}"
        );

        let mut p = plan();
        p.save_baseline = Some("a/b".into());
        let e = p.check().unwrap_err();
        assert_eq!(e, PlanError::BaselineName { name: "a/b".into() });
        assert_eq!(
            e.to_string(),
            "`a/b` cannot name a baseline: a baseline name is one plain word, e.g. `main`"
        );
    }
}
