//! A configuration is a solver: a built-in strategy with its own options and a label,
//! `-s NAME[:KEY=VALUE]...` or `-s LABEL=NAME[:KEY=VALUE]...` on the command line. Its options
//! are the strategy's [`super::options::Knob`]s; the run's flags are the defaults of the
//! ones it does not set. Its label (given, or the canonical text with only the options that
//! differ from the run's) is its name in every output.
//!
//! ```
//! use tilebench::search::{configuration::Configuration, Config};
//! let base = Config::default();
//! let c = Configuration::parse("astar:heuristic=linear-conflict", &base).unwrap();
//! assert_eq!(c.label, "astar:heuristic=linear-conflict");
//! let same = Configuration::parse("astar:heuristic=manhattan", &base).unwrap();
//! assert_eq!(same.label, "astar"); // the run's default: not in the label
//! let fast = Configuration::parse("fast=wastar:weight=3", &base).unwrap();
//! assert_eq!((fast.label.as_str(), fast.strategy.name), ("fast", "wastar"));
//! assert!(Configuration::parse("table:weight=3", &base).is_err());
//! ```

use super::{registry, Builtin, Claim, Config, Limits, Outcome, Prepare, Problem, SolveError};
use crate::puzzle::{Board, Shape};
use std::sync::OnceLock;

/// A built-in strategy, the options it was given, and its label.
#[derive(Clone)]
pub struct Configuration {
    /// The name in every output.
    pub label: String,
    /// The strategy.
    pub strategy: &'static Builtin,
    /// Its configuration: the run's, with the options given applied.
    pub config: Config,
    /// The options given, as `(key, value)`, in the order given.
    pub options: Vec<(String, String)>,
}

impl Configuration {
    /// Reads `[LABEL=]NAME[:KEY=VALUE]...`, its options applied to `base` (the run's flags).
    ///
    /// # Errors
    /// [`ConfigurationError`]: an unknown strategy, a key the strategy does not read (the
    /// message lists those it does), a value out of range, a key given twice, or a bad label.
    pub fn parse(text: &str, base: &Config) -> Result<Configuration, ConfigurationError> {
        let text = text.trim();
        let error = |kind| ConfigurationError {
            text: text.to_string(),
            kind,
        };
        let (label, name, rest) = split(text);
        let strategy =
            registry::lookup(name).map_err(|e| error(ConfigurationErrorKind::Strategy(e)))?;
        let mut config = base.clone();
        let mut options: Vec<(String, String)> = Vec::new();
        let reads = registry::options_of(strategy);
        for part in rest.split(':').filter(|p| !p.trim().is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(error(ConfigurationErrorKind::NotKeyValue {
                    part: part.into(),
                }));
            };
            let (k, v) = (k.trim(), v.trim());
            let Some(knob) = reads.iter().find(|o| o.name() == k) else {
                return Err(error(ConfigurationErrorKind::NoSuchOption {
                    strategy: strategy.name,
                    key: k.into(),
                    takes: reads.iter().map(|o| o.name()).collect(),
                }));
            };
            if options.iter().any(|(o, _)| o == k) {
                return Err(error(ConfigurationErrorKind::Twice { key: k.into() }));
            }
            config
                .set(*knob, v)
                .map_err(|e| error(ConfigurationErrorKind::Value(e)))?;
            options.push((k.to_string(), v.to_string()));
        }
        // An option read only under another's value (pdb's partition with heuristic=pdb).
        if let Some((k, _)) = options
            .iter()
            .find(|(k, _)| reads.iter().any(|o| o.name() == k && !o.applies(&config)))
        {
            return Err(error(ConfigurationErrorKind::OnlyWithPdb {
                key: k.clone(),
            }));
        }
        // Only the options given that differ from the run's, in the strategy's order, each
        // as written back (`weight=2.50` is `weight=2.5`, `lookup=default` the default).
        let canonical = reads
            .iter()
            .filter(|k| options.iter().any(|(o, _)| o == k.name()))
            .filter(|k| config.text(**k) != base.text(**k))
            .fold(strategy.name.to_string(), |s, k| {
                format!("{s}:{}={}", k.name(), config.text(*k))
            });
        let label = match label {
            Some("") => return Err(error(ConfigurationErrorKind::EmptyLabel)),
            Some(l) if l.contains([',', ':', '/', ' ']) => {
                return Err(error(ConfigurationErrorKind::LabelNotAWord {
                    label: l.into(),
                }))
            }
            Some(l) if registry::find(l).is_some_and(|b| b.name != strategy.name) => {
                return Err(error(ConfigurationErrorKind::LabelIsStrategy {
                    label: l.into(),
                }))
            }
            Some(l) => l.to_string(),
            None => canonical,
        };
        Ok(Configuration {
            label,
            strategy,
            config,
            options,
        })
    }

    /// Its cells in cases.csv's and summary.csv's configuration columns (`COLUMNS`).
    pub fn setting(&self) -> Setting {
        setting(Some(self.strategy), &self.config)
    }

    /// The solver: the strategy built with its configuration, named by its label.
    pub fn build(&self) -> Box<dyn super::Solver> {
        Box::new(Labelled {
            label: self.label.clone(),
            inner: self.strategy.build(&self.config),
        })
    }
}

/// `--sweep KEY=V1,V2,...`: every configuration of `texts` (each `[LABEL=]NAME[:K=V]...`)
/// whose strategy reads `key` (where it applies: `partition` under `heuristic=pdb`, given to
/// the configuration or by the run's flags, `base`) and does not set it becomes one per value,
/// in order (a label given gets `-VALUE`: `fast-2`); the others are kept as they are.
///
/// ```
/// use tilebench::search::configuration::sweep;
/// let texts = vec!["astar".to_string(), "bfs-rank".to_string()];
/// let base = tilebench::search::Config::default();
/// let out = sweep(texts, "heuristic=manhattan,linear-conflict", &base).unwrap();
/// assert_eq!(out, ["astar:heuristic=manhattan", "astar:heuristic=linear-conflict", "bfs-rank"]);
/// ```
///
/// # Errors
/// [`SweepError`]: a sweep that is not `KEY=V1,V2,...`, or whose key no configuration of
/// `texts` takes.
pub fn sweep(texts: Vec<String>, spec: &str, base: &Config) -> Result<Vec<String>, SweepError> {
    let error = |kind| SweepError {
        spec: spec.to_string(),
        kind,
    };
    let Some((key, values)) = spec.split_once('=') else {
        return Err(error(SweepErrorKind::NotKeyValues));
    };
    let key = key.trim();
    let values: Vec<&str> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        return Err(error(SweepErrorKind::NoValues));
    }
    let mut out = Vec::new();
    let mut taken = false;
    for text in texts {
        let (label, name, rest) = split(&text);
        let sets = rest
            .split(':')
            .any(|p| p.split_once('=').is_some_and(|(k, _)| k.trim() == key));
        // An option read only under another's value: swept where that value is set.
        let applies = registry::knob(key).is_none_or(|k| {
            Configuration::parse(&text, base).map_or(true, |c| k.applies(&c.config))
        });
        if !registry::reads(name, key) || sets || !applies {
            out.push(text.clone());
            continue;
        }
        taken = true;
        for v in &values {
            out.push(match label {
                Some(l) => format!("{l}-{v}={name}{}:{key}={v}", tail(rest)),
                None => format!("{name}{}:{key}={v}", tail(rest)),
            });
        }
    }
    if !taken {
        let readers = registry::readers(key);
        return Err(error(if readers.is_empty() {
            SweepErrorKind::NoSuchOption { key: key.into() }
        } else {
            SweepErrorKind::NotTaken {
                key: key.into(),
                readers,
            }
        }));
    }
    Ok(out)
}

/// A configuration [`Configuration::parse`] refuses: its text and what is wrong with it.
/// The message starts with the configuration's text; the command line names its `-s`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("configuration `{text}`: {kind}")]
#[non_exhaustive]
pub struct ConfigurationError {
    /// The text as given (trimmed): `[LABEL=]NAME[:KEY=VALUE]...`.
    pub text: String,
    /// What is wrong with it.
    pub kind: ConfigurationErrorKind,
}

/// What is wrong with a configuration ([`ConfigurationError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigurationErrorKind {
    /// The strategy's name is not a built-in strategy's.
    #[error(transparent)]
    Strategy(registry::StrategyError),
    /// A part after `:` without `=`.
    #[error("`{part}` is not KEY=VALUE")]
    NotKeyValue {
        /// The part as given.
        part: String,
    },
    /// An option the strategy does not read.
    #[error("{strategy} takes no option `{key}`; it takes {}", list_or_none(.takes))]
    NoSuchOption {
        /// The strategy.
        strategy: &'static str,
        /// The option given.
        key: String,
        /// The options it reads, in its order.
        takes: Vec<&'static str>,
    },
    /// An option given twice.
    #[error("`{key}` is given twice")]
    Twice {
        /// The option.
        key: String,
    },
    /// A value out of the option's range.
    #[error("{}: {}", .0.option, .0)]
    Value(super::options::OptionError),
    /// An option of the pattern databases without `heuristic=pdb`.
    #[error("`{key}` is read only with heuristic=pdb; add `:heuristic=pdb`, or drop `{key}`")]
    OnlyWithPdb {
        /// The option.
        key: String,
    },
    /// `=NAME`: nothing before the `=`.
    #[error("the label before `=` is empty; give a word (`fast=wastar`), or drop the `=`")]
    EmptyLabel,
    /// A label with `,` `:` `/` or a space.
    #[error(
        "the label `{label}` must be a word without `,` `:` `/` or spaces (it names output files)"
    )]
    LabelNotAWord {
        /// The label.
        label: String,
    },
    /// A label that is another built-in strategy's name.
    #[error("the label `{label}` is the name of another built-in strategy; choose another, e.g. `my-{label}`")]
    LabelIsStrategy {
        /// The label.
        label: String,
    },
}

/// `a, b, c`, or `none`.
fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// A sweep [`sweep`] refuses: its text and what is wrong with it. The message starts with
/// the sweep's text; the command line names its `--sweep`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sweep `{spec}`: {kind}")]
#[non_exhaustive]
pub struct SweepError {
    /// The sweep as given: `KEY=V1,V2,...`.
    pub spec: String,
    /// What is wrong with it.
    pub kind: SweepErrorKind,
}

/// What is wrong with a sweep ([`SweepError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SweepErrorKind {
    /// No `=`.
    #[error("write KEY=V1,V2,…, e.g. heuristic=manhattan,linear-conflict")]
    NotKeyValues,
    /// Nothing after the `=`.
    #[error("give one value or more after `=`")]
    NoValues,
    /// No built-in strategy reads the key.
    #[error("no strategy takes an option `{key}`")]
    NoSuchOption {
        /// The key.
        key: String,
    },
    /// Strategies read the key, but none of the configurations given that does not set it.
    #[error(
        "no configuration given takes `{key}` (it is read by {}), or each sets it already; \
         sweep a key once, over all its values",
        .readers.join(", ")
    )]
    NotTaken {
        /// The key.
        key: String,
        /// The strategies that read it.
        readers: Vec<&'static str>,
    },
}

/// `[LABEL=]NAME[:REST]` as (the label, if given; the strategy's name; the options' text).
fn split(text: &str) -> (Option<&str>, &str, &str) {
    let (head, rest) = text.split_once(':').unwrap_or((text, ""));
    match head.split_once('=') {
        Some((l, n)) => (Some(l.trim()), n.trim(), rest),
        None => (None, head.trim(), rest),
    }
}

/// `:REST`, or nothing for no options.
fn tail(rest: &str) -> String {
    if rest.is_empty() {
        String::new()
    } else {
        format!(":{rest}")
    }
}

/// The columns of cases.csv and summary.csv that say how a row's solver was configured (after
/// every other column): `algorithm`, the built-in strategy the solver runs (`external` for an
/// external program, empty for a library user's own solver), then one column per option some
/// built-in strategy reads (`registry::knobs`, in registry order, `-` written `_`), holding
/// the value the solver ran with where its strategy reads that option (and, for an option
/// read only under another's value, where it applies) and empty where it does not. The list
/// follows the registry: an option declared by a strategy has its column.
///
/// ```
/// use tilebench::search::configuration::columns;
/// assert_eq!(columns()[0], "algorithm");
/// assert_eq!(columns()[1..], ["hash_buckets", "heuristic", "partition", "lookup", "prune", "weight"]);
/// ```
pub fn columns() -> &'static [&'static str] {
    static COLUMNS: OnceLock<Vec<&'static str>> = OnceLock::new();
    COLUMNS.get_or_init(|| {
        let mut out = vec!["algorithm"];
        for k in registry::knobs() {
            let name: &'static str = Box::leak(k.name().replace('-', "_").into_boxed_str());
            out.push(name);
        }
        out
    })
}

/// A solver's cells in [`columns`], in order.
///
/// ```
/// use tilebench::search::{configuration::{columns, setting}, registry, Config};
/// let wastar = setting(Some(registry::find("wastar").unwrap()), &Config::default());
/// let cell = |c: &str| wastar[columns().iter().position(|k| *k == c).unwrap()].as_str();
/// assert_eq!((cell("algorithm"), cell("heuristic"), cell("weight")), ("wastar", "manhattan", "1.5"));
/// assert_eq!((cell("partition"), cell("hash_buckets")), ("", "")); // not pdb; not bfs-hash
/// ```
pub(crate) type Setting = Vec<String>;

/// A solver's label and what it runs, in one line for run.json (`fast: algorithm wastar,
/// heuristic manhattan, weight 3`): `--resume` and `merge` refuse a label that now runs
/// something else.
pub(crate) fn describe(label: &str, setting: &Setting) -> String {
    let cells: Vec<String> = columns()
        .iter()
        .zip(setting)
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    format!("{label}: {}", cells.join(", "))
}

/// The `Setting` of the built-in strategy `strategy` run with `config` (the effective value
/// of each option it reads: given, or the run's, or the default); of an external program
/// with `None`.
pub fn setting(strategy: Option<&Builtin>, config: &Config) -> Setting {
    let mut out: Setting = vec![String::new(); columns().len()];
    let Some(b) = strategy else {
        out[0] = "external".to_string();
        return out;
    };
    out[0] = b.name.to_string();
    let reads = registry::options_of(b);
    for (cell, column) in out.iter_mut().zip(columns()).skip(1) {
        let key = column.replace('_', "-");
        if let Some(k) = reads.iter().find(|k| k.name() == key) {
            if k.applies(config) {
                *cell = config.text(*k);
            }
        }
    }
    out
}

/// A setting with no cells (a library user's own solver; rows written before the columns).
pub(crate) fn unset() -> Setting {
    vec![String::new(); columns().len()]
}

/// A solver under another name.
struct Labelled {
    label: String,
    inner: Box<dyn super::Solver>,
}

impl super::Solver for Labelled {
    fn name(&self) -> &str {
        &self.label
    }
    fn optimal(&self) -> bool {
        self.inner.optimal()
    }
    fn claim(&self) -> Claim {
        self.inner.claim()
    }
    fn supports(&self, shape: Shape) -> Result<(), SolveError> {
        self.inner.supports(shape)
    }
    fn wants_problems(&self) -> bool {
        self.inner.wants_problems()
    }
    fn prepare(&mut self, goals: &[Board], ctx: &Prepare) -> Result<(), SolveError> {
        self.inner.prepare(goals, ctx)
    }
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        self.inner.solve(problem, limits)
    }
    fn reply(&self, problem: &Problem, limits: &Limits) -> Result<super::Reply, SolveError> {
        self.inner.reply(problem, limits)
    }
    fn finish(&mut self) {
        self.inner.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_errors_keep_their_text_and_kind_in_the_librarys_words() {
        let base = Config::default();
        let e = |text: &str| Configuration::parse(text, &base).err().unwrap();
        let err = e("table:weight=3");
        assert_eq!(err.text, "table:weight=3");
        assert_eq!(
            err.kind,
            ConfigurationErrorKind::NoSuchOption {
                strategy: "table",
                key: "weight".into(),
                takes: vec![]
            }
        );
        assert_eq!(
            err.to_string(),
            "configuration `table:weight=3`: table takes no option `weight`; it takes none"
        );
        let err = e(" wastar:weight=0.5 ");
        assert_eq!(err.text, "wastar:weight=0.5");
        let ConfigurationErrorKind::Value(v) = &err.kind else {
            panic!("{err:?}")
        };
        assert_eq!((v.option, v.value.as_str()), ("weight", "0.5"));
        assert!(
            err.to_string()
                .starts_with("configuration `wastar:weight=0.5`: weight: "),
            "{err}"
        );
        assert_eq!(
            e("astar:x").kind,
            ConfigurationErrorKind::NotKeyValue { part: "x".into() }
        );
        assert_eq!(
            e("wastar:weight=2:weight=3").to_string(),
            "configuration `wastar:weight=2:weight=3`: `weight` is given twice"
        );
        assert_eq!(
            e("astar:partition=4-4").to_string(),
            "configuration `astar:partition=4-4`: `partition` is read only with heuristic=pdb; \
             add `:heuristic=pdb`, or drop `partition`"
        );
        assert_eq!(e("=astar").kind, ConfigurationErrorKind::EmptyLabel);
        assert_eq!(
            e("=astar").to_string(),
            "configuration `=astar`: the label before `=` is empty; give a word (`fast=wastar`), or drop the `=`"
        );
        assert_eq!(
            e("a/b=astar").to_string(),
            "configuration `a/b=astar`: the label `a/b` must be a word without `,` `:` `/` or \
             spaces (it names output files)"
        );
        assert_eq!(
            e("idastar=astar").kind,
            ConfigurationErrorKind::LabelIsStrategy {
                label: "idastar".into()
            }
        );
        assert!(matches!(
            e("Astra").kind,
            ConfigurationErrorKind::Strategy(_)
        ));
        for text in ["table:weight=3", "=astar", "wastar:weight=0.5", "Astra"] {
            let m = e(text).to_string();
            assert!(!m.contains("-s ") && !m.contains("--"), "{m}");
        }
    }

    #[test]
    fn sweep_errors_keep_their_text_and_kind_in_the_librarys_words() {
        let base = Config::default();
        let e =
            |spec: &str| sweep(vec!["astar".into(), "bfs-rank".into()], spec, &base).unwrap_err();
        let err = e("heuristic");
        assert_eq!(
            (err.spec.as_str(), &err.kind),
            ("heuristic", &SweepErrorKind::NotKeyValues)
        );
        assert_eq!(
            err.to_string(),
            "sweep `heuristic`: write KEY=V1,V2,…, e.g. heuristic=manhattan,linear-conflict"
        );
        assert_eq!(e("weight= ,").kind, SweepErrorKind::NoValues);
        assert_eq!(
            e("weight= ,").to_string(),
            "sweep `weight= ,`: give one value or more after `=`"
        );
        assert_eq!(
            e("speed=1").kind,
            SweepErrorKind::NoSuchOption {
                key: "speed".into()
            }
        );
        assert_eq!(
            e("speed=1").to_string(),
            "sweep `speed=1`: no strategy takes an option `speed`"
        );
        let err = e("weight=2,3");
        assert_eq!(
            err.kind,
            SweepErrorKind::NotTaken {
                key: "weight".into(),
                readers: vec!["wastar"]
            }
        );
        assert_eq!(
            err.to_string(),
            "sweep `weight=2,3`: no configuration given takes `weight` (it is read by wastar), or \
             each sets it already; sweep a key once, over all its values"
        );
        for spec in ["heuristic", "speed=1", "weight=2,3"] {
            let m = e(spec).to_string();
            assert!(!m.contains("--") && !m.contains("-s "), "{m}");
        }
    }

    #[test]
    fn every_option_a_strategy_reads_has_its_column() {
        let mut knobs: Vec<String> = registry::knobs()
            .iter()
            .map(|k| k.name().replace('-', "_"))
            .collect();
        knobs.sort();
        let mut cols: Vec<String> = columns()[1..].iter().map(|c| c.to_string()).collect();
        cols.sort();
        assert_eq!(
            knobs, cols,
            "configuration::columns lacks an option's column"
        );
        // Each default parses, and shows as itself.
        for k in registry::knobs() {
            let (text, _) = k
                .check(k.default())
                .unwrap_or_else(|e| panic!("{}: {e}", k.name()));
            assert_eq!(text, k.default(), "{}", k.name());
        }
        // Each strategy's cells: its name, and a value exactly where it reads the option.
        let mut pdb = Config::default();
        pdb.set(&crate::search::heuristic::HEURISTIC, "pdb")
            .unwrap();
        for config in [Config::default(), pdb] {
            for b in registry::all() {
                let cells = setting(Some(b), &config);
                assert_eq!(cells[0], b.name);
                for (cell, column) in cells.iter().zip(columns()).skip(1) {
                    let key = column.replace('_', "-");
                    let reads = registry::reads(b.name, &key)
                        && registry::knob(&key).unwrap().applies(&config);
                    assert_eq!(!cell.is_empty(), reads, "{} {column}", b.name);
                }
            }
        }
    }

    /// `run -s list` names every lookup the option takes.
    #[test]
    fn the_lookup_option_lists_every_mode() {
        use crate::search::pdb::{LookupMode, LOOKUP};
        for m in LookupMode::ALL {
            assert!(LOOKUP.range.contains(m.name()), "{m}");
            assert!((LOOKUP.parse)(m.name()).is_ok(), "{m}");
        }
    }

    #[test]
    fn an_option_read_only_under_another_is_refused_without_it() {
        let base = Config::default();
        let e = Configuration::parse("astar:partition=7-8", &base)
            .err()
            .unwrap();
        assert_eq!(
            e.kind,
            ConfigurationErrorKind::OnlyWithPdb {
                key: "partition".into()
            }
        );
        let c = Configuration::parse("astar:heuristic=pdb:partition=6-6-3", &base).unwrap();
        assert_eq!(c.label, "astar:heuristic=pdb:partition=6-6-3");
        let cells = c.setting();
        let at = |k: &str| columns().iter().position(|c| *c == k).unwrap();
        assert_eq!(cells[at("partition")], "6-6-3");
        assert_eq!(cells[at("lookup")], "max");
    }
}
