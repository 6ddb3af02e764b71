//! The built-in strategies: one list, read by the CLI help, `--strategy list` and `all`,
//! the README check and the tests.
//!
//! ```
//! use tilebench::search::{registry, Config, Limits, Problem};
//! let astar = registry::find("astar").unwrap();
//! let solver = astar.build(&Config::default());
//! let p = Problem::new(
//!     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
//!     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
//! ).unwrap();
//! assert_eq!(solver.solve(&p, &Limits::default()).unwrap().steps(), Some(19));
//! ```

pub use super::options::Config;
use super::options::Opt;
use super::{shortcut, Limits, Outcome, Problem, SolveError, SolveOptions, Solver};
use crate::puzzle::Shape;

/// A search function of the plain kind: a problem and options in, an outcome out.
pub(crate) type SearchFn = fn(&Problem, &SolveOptions) -> Outcome;

/// How a built-in strategy becomes a solver.
#[derive(Clone, Copy)]
pub enum Make {
    /// A search function, wrapped with the shared shortcuts (start = goal, parity).
    Plain {
        /// The search.
        search: SearchFn,
        /// Which shapes it takes.
        supports: fn(Shape) -> Result<(), SolveError>,
    },
    /// A solver type of its own.
    Custom(fn(&Config) -> Box<dyn Solver>),
}

/// One built-in strategy: its name, a line for the help, its options, and how to build it.
#[derive(Clone, Copy)]
pub struct Builtin {
    /// The name in outputs and on the command line.
    pub name: &'static str,
    /// One line for `--help`, `--strategy list` and the README.
    pub describe: &'static str,
    /// The options it reads (declared where they are read: `heuristic::HEURISTIC`,
    /// `wastar::WEIGHT`, `bfs_hash::BUCKETS`); each brings the options it is read with
    /// ([`super::options::Knob::with`]).
    pub options: &'static [&'static dyn Opt],
    /// How to build it.
    pub make: Make,
}

/// Every packed shape (at most 16 cells): the `supports` of the breadth-first strategies,
/// which store every state they reach.
///
/// # Errors
/// A board of more than 16 cells: the message says which strategies take it.
pub fn packed_shape(shape: Shape) -> Result<(), SolveError> {
    if shape.is_packed() {
        return Ok(());
    }
    Err(SolveError::new(format!(
        "breadth-first search stores every state it reaches and takes boards of at most 16 \
         cells; this {shape} board has {}: use astar, idastar, wastar or greedy",
        shape.cells()
    )))
}

impl Builtin {
    /// Whether its answers are shortest paths by construction ([`Solver::optimal`]).
    pub fn optimal(&self) -> bool {
        match self.make {
            Make::Plain { .. } => true,
            Make::Custom(make) => make(&Config::default()).optimal(),
        }
    }

    /// A solver configured by `config`.
    pub fn build(&self, config: &Config) -> Box<dyn Solver> {
        match self.make {
            Make::Plain { search, supports } => Box::new(Plain {
                name: self.name,
                config: config.clone(),
                search,
                supports,
            }),
            Make::Custom(make) => make(config),
        }
    }

    /// Builds the strategy, prepares it for this problem's goal and solves it: for one-off
    /// use (tests, examples, `tilebench solve`). A run prepares once for all its cases.
    ///
    /// # Errors
    /// The strategy cannot be prepared for the goal, or fails on the problem.
    pub fn solve_once(
        &self,
        config: &Config,
        problem: &Problem,
        limits: &Limits,
    ) -> Result<Outcome, SolveError> {
        let mut solver = self.build(config);
        let ctx = super::Prepare {
            threads: 1,
            problems: std::slice::from_ref(problem),
            observer: &crate::observe::Silent,
        };
        solver.prepare(&[problem.goal], &ctx)?;
        solver.solve(problem, limits)
    }
}

/// Every built-in strategy.
pub fn all() -> &'static [Builtin] {
    super::BUILTINS
}

/// The strategies a run takes when none is named: the optimal ones (a run's `--check`
/// requires its answers to be shortest; `wastar` and `greedy` are asked for by name or
/// with `all`), less [`VARIANTS`].
pub fn defaults() -> Vec<&'static Builtin> {
    all()
        .iter()
        .filter(|b| b.optimal() && !VARIANTS.contains(&b.name))
        .collect()
}

/// Optimal strategies a run takes only by name or with `all`: `dida` is `idastar` node for
/// node with every heuristic but `pdb` (the only one with dual boards), so a default run
/// would print the same row twice; `idastar-tt` is `idastar` with a table, a second IDA*
/// a default run need not pay for.
pub const VARIANTS: &[&str] = &["dida", "idastar-tt"];

/// The options `strategy` reads: those it lists, each followed by those it is read with, each
/// once.
pub fn options_of(strategy: &Builtin) -> Vec<&'static dyn Opt> {
    let mut out: Vec<&'static dyn Opt> = Vec::new();
    fn add(out: &mut Vec<&'static dyn Opt>, o: &'static dyn Opt) {
        if !out.iter().any(|k| k.name() == o.name()) {
            out.push(o);
        }
        for w in o.with() {
            add(out, *w);
        }
    }
    for o in strategy.options {
        add(&mut out, *o);
    }
    out
}

/// Whether the built-in strategy `strategy` reads the option `option` (false for a name
/// that is not a built-in strategy's: an external program's).
pub(crate) fn reads(strategy: &str, option: &str) -> bool {
    find(strategy).is_some_and(|b| options_of(b).iter().any(|k| k.name() == option))
}

/// The built-in strategies that read the option `option`, in registry order.
pub(crate) fn readers(option: &str) -> Vec<&'static str> {
    all()
        .iter()
        .filter(|b| options_of(b).iter().any(|k| k.name() == option))
        .map(|b| b.name)
        .collect()
}

/// Every option some built-in strategy reads, each once, in registry order.
pub(crate) fn knobs() -> Vec<&'static dyn Opt> {
    let mut out: Vec<&'static dyn Opt> = Vec::new();
    for k in all().iter().flat_map(options_of) {
        if !out.iter().any(|o| o.name() == k.name()) {
            out.push(k);
        }
    }
    out
}

/// The option called `name`, if a built-in strategy reads one.
pub(crate) fn knob(name: &str) -> Option<&'static dyn Opt> {
    knobs().into_iter().find(|k| k.name() == name)
}

/// The built-in strategy called `name` (any case).
pub fn find(name: &str) -> Option<&'static Builtin> {
    let name = name.trim();
    all().iter().find(|b| b.name.eq_ignore_ascii_case(name))
}

/// The names of the built-in strategies, in order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|b| b.name).collect()
}

/// A name that is no built-in strategy's, or a list that names none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StrategyError {
    /// No built-in strategy has this name; the message lists the choices.
    #[error("unknown strategy `{name}`; choose from {} (or `all`)", names().join(", "))]
    Unknown {
        /// The name given (trimmed).
        name: String,
    },
    /// The list names no strategy.
    #[error("no strategy given; name one or more, e.g. `astar,bfs-rank`, or `all`")]
    Empty,
}

/// The built-in strategy `name` (case does not count).
///
/// # Errors
/// No strategy has that name ([`StrategyError::Unknown`]).
pub fn lookup(name: &str) -> Result<&'static Builtin, StrategyError> {
    find(name).ok_or_else(|| StrategyError::Unknown {
        name: name.trim().to_string(),
    })
}

/// Reads `a,b,c` or `all` into strategies, in the order given, without repeats.
///
/// # Errors
/// An unknown name, or an empty list.
pub fn parse_list(s: &str) -> Result<Vec<&'static Builtin>, StrategyError> {
    let mut out: Vec<&'static Builtin> = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let add: Vec<&'static Builtin> = if part.eq_ignore_ascii_case("all") {
            all().iter().collect()
        } else {
            vec![lookup(part)?]
        };
        for b in add {
            if !out.iter().any(|o| o.name == b.name) {
                out.push(b);
            }
        }
    }
    if out.is_empty() {
        return Err(StrategyError::Empty);
    }
    Ok(out)
}

/// A plain search behind the [`Solver`] trait.
struct Plain {
    name: &'static str,
    config: Config,
    search: SearchFn,
    supports: fn(Shape) -> Result<(), SolveError>,
}

impl Solver for Plain {
    fn name(&self) -> &str {
        self.name
    }
    fn optimal(&self) -> bool {
        true
    }
    fn supports(&self, shape: Shape) -> Result<(), SolveError> {
        (self.supports)(shape)
    }
    fn solve(&self, problem: &Problem, limits: &Limits) -> Result<Outcome, SolveError> {
        (self.supports)(problem.start.shape())?;
        if let Some(o) = shortcut(problem, self.config.exhaustive) {
            return Ok(o);
        }
        Ok((self.search)(problem, &self.config.options(limits)))
    }
}
