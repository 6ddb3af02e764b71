//! `greedy`: greedy best-first search: the open list ranked by the heuristic alone (ties
//! to the deeper, then the newer state), states stored and never expanded twice unless
//! reached more cheaply. It finds some path quickly, often far longer than the shortest.
//! Not optimal by construction: runs judge its paths against the optimum.

use super::astar::{self, Order};
use super::heuristic::Heuristic;
use super::{Outcome, Problem, SolveOptions};

/// The registry entry: greedy best-first search with the heuristic of the run's [`super::Config`].
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "greedy",
    describe: "greedy best-first search: ranked by h alone (--heuristic), any path, few expansions",
    options: &[&super::heuristic::HEURISTIC],
    make: super::registry::Make::Custom(|c| {
        Box::new(super::informed::Informed::<Greedy>::new("greedy", c))
    }),
};

/// greedy as a [`super::heuristic::Guided`] search.
pub(crate) struct Greedy;

impl super::heuristic::Guided for Greedy {
    fn wide(_config: &super::Config) -> Option<super::wide::Mode> {
        Some(super::wide::Mode::Greedy)
    }
    const OPTIMAL: bool = false;
    /// Any path that reaches the goal.
    fn claim(_config: &super::Config) -> super::Claim {
        super::Claim::Valid
    }
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        solve(problem, opts, h)
    }
}

/// A path by greedy best-first search with heuristic `h`.
///
/// ```
/// use tilebench::search::{greedy, heuristic::Manhattan, Problem, SolveOptions};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let out = greedy::solve(&p, &SolveOptions::default(), &Manhattan::new(&p.goal));
/// assert_eq!(p.start.replay(out.path.as_ref().unwrap()).unwrap(), p.goal);
/// ```
pub fn solve<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
    astar::solve_with(problem, opts, h, Order::Greedy)
}
