//! The options of the built-in strategies, each declared in the file that reads it, and the
//! [`Config`] that holds a solver's values of them.
//!
//! An option is a [`Knob`]: a name, a default, its range and a line of help, how its text is
//! read (checked once, when a configuration or a run's flag gives it) and written back.
//! A strategy lists the options it reads in its registry entry ([`super::Builtin::options`]);
//! from there come `run -s list`, the checks of `-s NAME:KEY=VALUE` and `--sweep`, the labels,
//! and cases.csv's and summary.csv's configuration columns. [`Config`] is no union of every
//! strategy's fields: it holds the values given, by option, and a strategy reads its own
//! typed value with [`Knob::get`]. Adding an option to a strategy is its `Knob` in the
//! strategy's file and its name in that file's `options` list.
//!
//! ```
//! use tilebench::search::{options::Knob, Config};
//! const DEPTH: Knob<u32> = Knob {
//!     name: "depth",
//!     default: "3",
//!     range: "1 to 9",
//!     help: "how deep to look",
//!     flag: "",
//!     parse: |v| v.parse().ok().filter(|d| (1..=9).contains(d)).ok_or(format!("`{v}` is not 1 to 9")),
//!     show: |d| d.to_string(),
//!     with: &[],
//!     applies: None,
//! };
//! let mut config = Config::default();
//! assert_eq!(DEPTH.get(&config), 3); // the default
//! config.set(&DEPTH, "5").unwrap();
//! assert_eq!((DEPTH.get(&config), config.text(&DEPTH)), (5, "5".to_string()));
//! let e = config.set(&DEPTH, "12").unwrap_err();
//! assert_eq!((e.option, e.value.as_str()), ("depth", "12"));
//! assert_eq!(e.to_string(), "`12` is not 1 to 9");
//! assert_eq!(DEPTH.get(&config), 5); // unchanged
//! ```

use std::any::Any;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A checked value: its text as written back, and the value itself.
type Value = (String, Arc<dyn Any + Send + Sync>);

/// An option of one or more strategies, whose values are of type `T`.
pub struct Knob<T: 'static> {
    /// The name: `-s NAME:KEY=VALUE`, `--sweep KEY=…`, run.json's configurations; `-` is
    /// written `_` in its cases.csv column.
    pub name: &'static str,
    /// Its default, as written.
    pub default: &'static str,
    /// The values it takes, for `run -s list`.
    pub range: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The run's flag that sets it for every configuration that does not (`--weight`), or
    /// empty when there is none.
    pub flag: &'static str,
    /// Reads a value as written, checked: a sentence saying what it takes otherwise.
    /// Text by design: the end of a sentence that [`OptionError`] types with the option and
    /// the value.
    pub parse: fn(&str) -> Result<T, String>,
    /// Writes a value as it would be given.
    pub show: fn(&T) -> String,
    /// Options read along with this one by every strategy that reads it (the heuristic's:
    /// the pattern databases' partition and lookups).
    pub with: &'static [&'static dyn Opt],
    /// When it is read only under some value of another option (the pattern databases' with
    /// `heuristic=pdb`): whether a configuration reads it. `None`: always.
    pub applies: Option<fn(&Config) -> bool>,
}

impl<T: Clone + Send + Sync + 'static> Knob<T> {
    /// Its value in `config`: the one given, or its default.
    ///
    /// # Panics
    /// Its default does not parse (a declaration a test of the registry checks).
    pub fn get(&self, config: &Config) -> T {
        match config.options.0.get(self.name) {
            Some((_, v)) => v
                .downcast_ref::<T>()
                .cloned()
                .expect("an option's value is of its type"),
            None => (self.parse)(self.default).expect("an option's default parses"),
        }
    }
}

/// Any [`Knob`], whatever the type of its values: what strategies list.
pub trait Opt: Sync {
    /// [`Knob::name`].
    fn name(&self) -> &'static str;
    /// [`Knob::default`].
    fn default(&self) -> &'static str;
    /// [`Knob::range`].
    fn range(&self) -> &'static str;
    /// [`Knob::help`].
    fn help(&self) -> &'static str;
    /// [`Knob::flag`].
    fn flag(&self) -> &'static str;
    /// [`Knob::with`].
    fn with(&self) -> &'static [&'static dyn Opt];
    /// Whether `config` reads it ([`Knob::applies`]).
    fn applies(&self, config: &Config) -> bool;
    /// Reads `text`, checked: its canonical text and value.
    ///
    /// # Errors
    /// A value out of its range ([`OptionError`]: a sentence saying what it takes).
    fn check(&self, text: &str) -> Result<Value, OptionError>;
}

impl<T: Clone + Send + Sync + 'static> Opt for Knob<T> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn default(&self) -> &'static str {
        self.default
    }
    fn range(&self) -> &'static str {
        self.range
    }
    fn help(&self) -> &'static str {
        self.help
    }
    fn flag(&self) -> &'static str {
        self.flag
    }
    fn with(&self) -> &'static [&'static dyn Opt] {
        self.with
    }
    fn applies(&self, config: &Config) -> bool {
        self.applies.is_none_or(|f| f(config))
    }
    fn check(&self, text: &str) -> Result<Value, OptionError> {
        let v = (self.parse)(text.trim()).map_err(|reason| OptionError {
            option: self.name,
            value: text.to_string(),
            reason,
        })?;
        Ok(((self.show)(&v), Arc::new(v)))
    }
}

impl std::fmt::Debug for dyn Opt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opt({})", self.name())
    }
}

/// An option's value out of its range ([`Config::set`]); the message says what it takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
#[non_exhaustive]
pub struct OptionError {
    /// The option's name (`weight`, `heuristic`).
    pub option: &'static str,
    /// The value given.
    pub value: String,
    /// The sentence: what is wrong and what the option takes.
    pub reason: String,
}

// The message, for callers that still build a sentence of their own (`?` into a `String`).
impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.reason
    }
}

/// How a built-in strategy is configured: the options given (the others take their
/// defaults), and what every strategy shares.
#[derive(Clone, Default)]
pub struct Config {
    /// Search unsolvable pairs to exhaustion instead of answering by the parity test.
    pub exhaustive: bool,
    /// Where pattern databases are cached (`--pdb-dir`; default `$TILEBENCH_PDB_DIR`,
    /// `$XDG_CACHE_HOME/tilebench/pdb` or `~/.cache/tilebench/pdb`): where tables are kept,
    /// not what they hold.
    pub pdb_dir: Option<PathBuf>,
    /// The options given ([`Config::set`], [`Config::text`]).
    pub options: Options,
}

/// The options given to a configuration, by name: their texts and values, shared between
/// the solvers built from it (a clone is a reference count).
#[derive(Clone, Default)]
pub struct Options(Arc<BTreeMap<&'static str, Value>>);

impl Config {
    /// Sets option `knob` from its text, checked.
    ///
    /// # Errors
    /// A value out of its range ([`OptionError`]: a sentence saying what it takes).
    pub fn set(&mut self, knob: &dyn Opt, text: &str) -> Result<(), OptionError> {
        let value = knob.check(text)?;
        Arc::make_mut(&mut self.options.0).insert(knob.name(), value);
        Ok(())
    }

    /// The configuration with option `knob` set from its text, checked
    /// (`Config::default().with(&WEIGHT, "2")`).
    ///
    /// # Errors
    /// A value out of its range ([`OptionError`]).
    pub fn with(mut self, knob: &dyn Opt, text: &str) -> Result<Config, OptionError> {
        self.set(knob, text)?;
        Ok(self)
    }

    /// Option `knob`'s value as written: the one given, or its default.
    pub fn text(&self, knob: &dyn Opt) -> String {
        self.options
            .0
            .get(knob.name())
            .map_or_else(|| knob.default().to_string(), |(t, _)| t.clone())
    }

    /// Whether option `knob` was given a value (its default otherwise).
    pub fn is_set(&self, knob: &dyn Opt) -> bool {
        self.options.0.contains_key(knob.name())
    }

    /// The options given, as `(name, text)`, by name.
    pub fn given(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.options.0.iter().map(|(k, (t, _))| (*k, t.as_str()))
    }

    /// The search functions' options for one solve within `limits`.
    pub fn options(&self, limits: &super::Limits) -> super::SolveOptions {
        super::SolveOptions {
            exhaustive: self.exhaustive,
            limits: *limits,
            config: self.clone(),
        }
    }
}

impl PartialEq for Config {
    /// Equal when every option has the same text (a default given equals the default not).
    fn eq(&self, other: &Config) -> bool {
        let texts = |c: &Config| -> Vec<(&'static str, String)> {
            c.options
                .0
                .iter()
                .map(|(k, (t, _))| (*k, t.clone()))
                .collect()
        };
        let (a, b) = (texts(self), texts(other));
        let same = |x: &[(&'static str, String)], y: &[(&'static str, String)]| {
            x.iter().all(|(k, t)| {
                y.iter().find(|(j, _)| j == k).map_or_else(
                    || super::registry::knob(k).is_some_and(|o| o.default() == t),
                    |(_, u)| u == t,
                )
            })
        };
        self.exhaustive == other.exhaustive
            && self.pdb_dir == other.pdb_dir
            && same(&a, &b)
            && same(&b, &a)
    }
}

impl Eq for Config {}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Config");
        d.field("exhaustive", &self.exhaustive);
        d.field("pdb_dir", &self.pdb_dir);
        for (k, (t, _)) in self.options.0.iter() {
            d.field(k, t);
        }
        d.finish()
    }
}
