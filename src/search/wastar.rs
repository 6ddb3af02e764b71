//! `wastar`: weighted A* (Pohl, 1970): the open list ranked by `g + w·h` for a weight
//! `w ≥ 1` (`--weight`, default 1.5), so the search trusts the heuristic more and expands
//! fewer states. With an admissible heuristic, and states reopened when reached more
//! cheaply (as [`super::astar`] does), every path is at most `w` times the shortest; weight
//! 1 is A*. Not optimal by construction: runs judge its paths against the optimum (cases.csv
//! `optimal`, summary.csv `non_optimal` and `suboptimality_mean`).

use super::astar::{self, Order};
use super::heuristic::Heuristic;
use super::{Outcome, Problem, SolveOptions};

/// The registry entry: weighted A* with the heuristic and weight of the run's [`super::Config`].
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "wastar",
    describe:
        "weighted A*: ranked by g + w·h (--weight, default 1.5), paths at most w × the shortest",
    options: &[&super::heuristic::HEURISTIC, &WEIGHT],
    make: super::registry::Make::Custom(|c| {
        Box::new(super::informed::Informed::<WeightedAstar>::new("wastar", c))
    }),
};

/// wastar's own option: its weight (`--weight`).
pub const WEIGHT: super::options::Knob<astar::Weight> = super::options::Knob {
    name: "weight",
    default: "1.5",
    range: "1 to 1000, up to three decimals",
    help: "states ranked by g + weight × h; paths at most weight × the shortest",
    flag: "--weight",
    parse: str::parse,
    show: astar::Weight::to_string,
    with: &[],
    applies: None,
};

/// wastar as a [`super::heuristic::Guided`] search.
pub(crate) struct WeightedAstar;

impl super::heuristic::Guided for WeightedAstar {
    fn wide(config: &super::Config) -> Option<super::wide::Mode> {
        Some(super::wide::Mode::Weighted(WEIGHT.get(config)))
    }
    const OPTIMAL: bool = false;
    /// Within its weight of the shortest (with an admissible heuristic).
    fn claim(config: &super::Config) -> super::Claim {
        super::Claim::Within(WEIGHT.get(config))
    }
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        solve(problem, opts, h)
    }
}

/// A path by weighted A* with heuristic `h` and the weight of `opts.config` ([`WEIGHT`]).
///
/// ```
/// use tilebench::search::{heuristic::Manhattan, wastar, Config, Limits, Problem};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let mut config = Config::default();
/// config.set(&wastar::WEIGHT, "2").unwrap();
/// let opts = config.options(&Limits::default());
/// let out = wastar::solve(&p, &opts, &Manhattan::new(&p.goal));
/// assert!((19..=38).contains(&out.steps().unwrap()));
/// ```
pub fn solve<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
    astar::solve_with(problem, opts, h, Order::Weighted(WEIGHT.get(&opts.config)))
}
