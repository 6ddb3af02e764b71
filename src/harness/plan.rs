//! A run as a value: inputs, solvers, limits and outputs, checked once before any solving.

use super::input::InputOptions;
use super::rundir::check_baseline_name;
use super::shard::Shard;
use crate::external::ExternalSolver;
use crate::report::Format;
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

/// Everything a run needs. Build one with [`RunPlan::new`], set what differs from the
/// defaults, and hand it to [`super::pipeline::execute`].
pub struct RunPlan {
    /// Datasets (CSV paths, `-` for stdin); none: the built-in seed samples.
    pub inputs: Vec<String>,
    /// How rows are read (`--size`, `--goal`).
    pub input: InputOptions,
    /// The built-in strategies to run, and how they are configured.
    pub strategies: Vec<&'static Builtin>,
    /// Built-in strategies with options of their own and labels (`-s NAME:KEY=VALUE`), run
    /// after `strategies`.
    pub configurations: Vec<crate::search::configuration::Configuration>,
    /// Run every optimal built-in strategy that fits the boards ([`crate::search::registry::defaults`]), instead of `strategies`.
    pub fitting_strategies: bool,
    /// The built-ins' configuration (heuristic, pattern databases, …).
    pub config: Config,
    /// External programs (`--solver NAME=COMMAND`).
    pub external: Vec<ExternalSolver>,
    /// Solvers of the library user's own, run after the others.
    pub custom: Vec<Box<dyn Solver>>,
    /// The budget of each solve.
    pub limits: Limits,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Solves per case; latency is the median.
    pub repeat: u32,
    /// Keep every path's move string in cases.csv.
    pub keep_paths: bool,
    /// The results directory (`None`: `results/run-<UTC>`).
    pub out: Option<PathBuf>,
    /// New, forced or resumed.
    pub mode: OutMode,
    /// Run only this shard of the cases.
    pub shard: Option<Shard>,
    /// `--rows`: run only these rows of the inputs (before the shard takes its share).
    pub rows: Option<super::rows::Rows>,
    /// Extra summary exports.
    pub exports: Vec<Export>,
    /// The `limit` rows `--check` accepts (`--allow-limit`), for exports of the checks
    /// (JUnit); none by default.
    pub allow_limit: crate::check::AllowLimit,
    /// Also save the run as this baseline.
    pub save_baseline: Option<String>,
    /// The command line, for run.json and the resume hint.
    pub command: Vec<String>,
    /// How the solvers take turns at the cases (shuffled, seed 1, unless set).
    pub order: super::runner::Order,
}

impl RunPlan {
    /// A plan to run every fitting built-in strategy on `inputs`, with the defaults.
    pub fn new(inputs: Vec<String>) -> RunPlan {
        RunPlan {
            inputs,
            input: InputOptions::default(),
            strategies: Vec::new(),
            fitting_strategies: true,
            configurations: Vec::new(),
            config: Config::default(),
            external: Vec::new(),
            custom: Vec::new(),
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

    /// Runs only the built-in strategies named (`a,b` or `all`), or none.
    ///
    /// # Errors
    /// An unknown name.
    pub fn with_strategies(mut self, list: &str) -> Result<RunPlan, String> {
        self.fitting_strategies = false;
        self.strategies = if list.trim().eq_ignore_ascii_case("none") {
            Vec::new()
        } else {
            registry::parse_list(list).map_err(|e| format!("--strategy: {e}"))?
        };
        Ok(self)
    }

    /// Adds a solver of the user's own.
    pub fn with_solver(mut self, solver: impl Solver + 'static) -> RunPlan {
        self.custom.push(Box::new(solver));
        self
    }

    /// The names of the external and custom solvers, in order.
    fn extra_names(&self) -> impl Iterator<Item = &str> {
        self.external
            .iter()
            .map(|e| e.name.as_str())
            .chain(self.custom.iter().map(|c| c.name()))
    }

    /// Checks everything that can be checked before reading the inputs: solver names, the
    /// limits, every output path (exports, the baseline name).
    ///
    /// # Errors
    /// The first problem found, as a sentence that says what to do.
    pub fn check(&self) -> Result<(), String> {
        // Names become file names (`latency-NAME.hgrm`, case folded on some systems): two
        // that would share one are refused.
        let file = |n: &str| crate::results::latency_hgrm(n).to_lowercase();
        let taken = |seen: &[String], n: &str| seen.iter().any(|s| file(s) == file(n));
        let mut seen: Vec<String> = self.strategies.iter().map(|b| b.name.to_string()).collect();
        for c in &self.configurations {
            if let Some(other) = seen.iter().find(|s| file(s) == file(&c.label)) {
                return Err(if *other == c.label {
                    format!(
                        "-s: two configurations are labelled `{}`; give one a label of its own \
                         (-s LABEL=NAME:KEY=VALUE)",
                        c.label
                    )
                } else {
                    format!(
                        "-s: the labels `{other}` and `{}` would share the file {}: they differ \
                         only in case or in characters a file name cannot hold; give one a \
                         label of its own (-s LABEL=NAME:KEY=VALUE)",
                        c.label,
                        crate::results::latency_hgrm(&c.label)
                    )
                });
            }
            seen.push(c.label.clone());
        }
        for name in self.extra_names() {
            if registry::find(name).is_some() {
                return Err(format!(
                    "the solver name `{name}` is the name of a built-in strategy; choose \
                     another, e.g. `my-{name}`"
                ));
            }
            if taken(&seen, name) {
                return Err(format!(
                    "the name `{name}` is taken by another solver (names become file names, \
                     so case does not count); give each its own name"
                ));
            }
            seen.push(name.to_string());
        }
        if !self.fitting_strategies && seen.is_empty() {
            return Err(
                "--strategy none leaves nothing to run; add --solver NAME=COMMAND or name a \
                 strategy"
                    .into(),
            );
        }
        if self.repeat == 0 {
            return Err("--repeat 0: give 1 or more".into());
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
    fn check_options(&self) -> Result<(), String> {
        let plain: Vec<&Builtin> = if self.fitting_strategies {
            registry::defaults()
        } else {
            self.strategies.clone()
        };
        let mut chosen = plain.clone();
        chosen.extend(self.configurations.iter().map(|c| c.strategy));
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
                || self.configurations.iter().any(|c| {
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
                || self.configurations.iter().any(|c| pdb(&c.config));
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
        let names: Vec<&str> = chosen.iter().map(|b| b.name).collect();
        let readers = registry::readers(option);
        Err(if !chosen.iter().any(|b| readers.contains(&b.name)) {
            format!(
                "{text} is read only by {}, and this run takes {}: it would change nothing \
                 (and be checked against no board); add one of them with -s, or drop {flag}",
                readers.join(", "),
                if names.is_empty() {
                    "no built-in strategy".to_string()
                } else {
                    names.join(", ")
                }
            )
        } else if registry::knob(option).is_some_and(|k| !k.applies(&self.config))
            || flag == "--pdb-dir"
        {
            format!(
                "{text} is for pattern databases, and no solver of this run estimates with them: \
                 add --heuristic pdb (or `:heuristic=pdb` to a configuration), or drop {flag}"
            )
        } else {
            format!(
                "{text} would change nothing: every configuration of this run that reads \
                 `{option}` sets its own; drop {flag}"
            )
        })
    }
}

/// Fails now, not after solving, when `path` cannot be written: its directory is missing,
/// or it is a directory.
fn check_writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "{} is a directory; give a file name to export to",
            path.display()
        ));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = parent {
        if !dir.is_dir() {
            return Err(format!(
                "cannot write {}: the directory {} does not exist; create it first",
                path.display(),
                dir.display()
            ));
        }
    }
    Ok(())
}
