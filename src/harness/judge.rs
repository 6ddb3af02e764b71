//! Judging every answer, whoever gave it: replay, parity and the optimum.
//!
//! - `unsolvable` is right exactly when the parity test says the pair is unsolvable;
//! - a path is replayed from the start; an illegal move, or an end that is not the goal, is
//!   `wrong` (so is any path for an unsolvable pair: none can reach the goal);
//! - for a solver that is not optimal by construction, a valid path is compared with the
//!   optimum: `optimal` is true or false, and a path longer than its solver's
//!   [`Claim`] allows (the optimum for `optimal`, W × the optimum for `within=W`; any path for
//!   `valid`) is `wrong`, with the bound in the message;
//! - a number of moves without a path (an external `steps` program) must be at least the
//!   optimum and within the claim (for `optimal`: equal to the optimum), or it is `wrong`.
//!
//! The optimum is the row's `expected_steps`, or, when the row has none, the length found by
//! the built-in `astar` strategy (computed once per case, under the run's limits, before the
//! passes that need it).

use super::spool::CaseBlock;
use crate::check::Judged;
use crate::dataset::Case;
use crate::observe::Silent;
use crate::puzzle::{is_solvable, Board};
use crate::results::record::RowStatus;
use crate::search::{registry, Claim, Config, Limits, Outcome, Prepare, Problem, Solver, Status};
use std::sync::OnceLock;

/// Where an optimum comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The row's `expected_steps` column.
    ExpectedSteps,
    /// A search by the built-in `astar` strategy, for a row without `expected_steps`.
    Astar,
}

impl Source {
    /// How messages name it: `expected_steps` or `astar`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Source::ExpectedSteps => "expected_steps",
            Source::Astar => "astar",
        }
    }
}

/// The optimal lengths of a run's cases, computed when first needed and shared by every
/// solver that is not optimal by construction.
pub(crate) struct Optimum {
    limits: Limits,
    reference: Box<dyn Solver>,
    /// The cases of the block being solved, in increasing order, and their cached optima.
    block: Vec<usize>,
    cache: Vec<OnceLock<Result<u64, String>>>,
}

impl Optimum {
    /// Optima computed by `astar` (Manhattan) within `limits`, for cases whose goal is one of
    /// `goals`.
    pub(crate) fn new(limits: Limits, goals: &[Board]) -> Optimum {
        let astar = registry::find("astar").expect("astar is built in");
        let mut reference = astar.build(&Config::default());
        let ctx = Prepare {
            threads: rayon::current_num_threads(),
            problems: &[],
            observer: &Silent,
        };
        // Manhattan tables per goal: cannot fail.
        let _ = reference.prepare(goals, &ctx);
        Optimum {
            limits,
            reference,
            block: Vec::new(),
            cache: Vec::new(),
        }
    }

    /// Computes, in parallel, the optimum of every solvable case of `block` (indices into
    /// `cases`, in increasing order) that has no expected_steps; the previous block's are
    /// forgotten, so that memory does not grow with the run.
    pub(crate) fn prepare(&mut self, cases: &CaseBlock, block: impl Iterator<Item = usize>) {
        use rayon::prelude::*;
        self.block = block.collect();
        self.cache = self.block.iter().map(|_| OnceLock::new()).collect();
        let this = &*self;
        this.block.par_iter().for_each(|&i| {
            let case = cases.get(i);
            if let Ok(p) = &case.problem {
                if is_solvable(&p.start, &p.goal) {
                    let _ = this.of(i, case, p);
                }
            }
        });
    }

    /// The optimal number of moves of case `index` (a solvable pair), and where it comes from.
    ///
    /// # Errors
    /// When the row has no `expected_steps` and `astar` cannot find the optimum: it runs out
    /// of the run's limits, finds no path, or fails. The result is cached, error included.
    pub(crate) fn of(
        &self,
        index: usize,
        case: &Case,
        problem: &Problem,
    ) -> Result<(u64, Source), String> {
        if let Some(e) = case.expected_steps.filter(|&e| e >= 0) {
            return Ok((e as u64, Source::ExpectedSteps));
        }
        let Ok(at) = self.block.binary_search(&index) else {
            return Err(
                "the optimum of a case outside the block being solved was asked for \
                        (a bug in tilebench)"
                    .to_string(),
            );
        };
        let found =
            self.cache[at].get_or_init(|| match self.reference.solve(problem, &self.limits) {
                Ok(o) if o.status == Status::Solved => Ok(o.steps().unwrap_or(0) as u64),
                Ok(o) if o.status == Status::Limit => Err(format!(
                    "the row has no expected_steps, and astar, computing the optimum, ran out \
                     of {}; give the row its expected_steps, or a larger budget",
                    crate::check::budget_spent(
                        &self.limits,
                        o.limit,
                        Some(o.stats.expanded),
                        Some(o.stats.stored)
                    )
                )),
                Ok(o) => Err(format!("astar says {}", o.status.as_str())),
                Err(e) => Err(format!("astar cannot compute the optimum: {e}")),
            });
        found.clone().map(|n| (n, Source::Astar))
    }
}

/// What a row says about an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The row's status.
    pub status: RowStatus,
    /// The moves claimed: the path's length, the number, or −1.
    pub steps: Option<i64>,
    /// Whether a valid answer is as short as the optimum; `None` for solvers that are optimal
    /// by construction, and when there is nothing to judge.
    pub optimal: Option<bool>,
    /// The optimum `optimal` was judged against.
    pub optimum: Option<u64>,
    /// Why the answer is wrong, or a note (not optimal, optimum unknown); empty when all is well.
    pub why: String,
}

/// Judges a solver's `outcome` for `problem`. Solvers optimal by construction are not
/// compared with the optimum, so `optimum` is not called for them; the others' answers are
/// held to their claim.
pub(crate) fn judge(
    problem: &Problem,
    outcome: &Outcome,
    solver: Judged,
    optimum: impl FnOnce() -> Result<(u64, Source), String>,
) -> Verdict {
    let mut v = Verdict {
        status: RowStatus::Wrong,
        steps: None,
        optimal: None,
        optimum: None,
        why: String::new(),
    };
    match outcome.status {
        Status::Limit => {
            v.status = RowStatus::Limit;
            return v;
        }
        Status::Unsolvable => {
            v.steps = Some(-1);
            if is_solvable(&problem.start, &problem.goal) {
                v.why = match optimum() {
                    Ok((n, src)) => format!(
                        "the pair is solvable (parity), in {n} moves ({})",
                        src.name()
                    ),
                    Err(_) => "the pair is solvable (parity)".into(),
                };
            } else {
                v.status = RowStatus::Unsolvable;
            }
            return v;
        }
        Status::Solved => {}
    }
    let Some(moves) = &outcome.path else {
        let solvable = is_solvable(&problem.start, &problem.goal);
        let Some(n) = outcome.claimed_steps else {
            v.why = "it said solved but gave neither a path nor a number of moves".into();
            return v;
        };
        v.steps = Some(n as i64);
        if !solvable {
            v.why = "the pair is unsolvable (parity); the answer should be -1".into();
            return v;
        }
        match optimum() {
            // A number is a claim of its own: not shorter than the optimum, and within the
            // solver's claim (for `optimal`, the optimum itself).
            Ok((best, src)) if n < best || solver.claim == Claim::Optimal && n != best => {
                v.why = format!("the optimum is {best} moves ({})", src.name());
            }
            Ok((best, src)) => {
                if let Some(why) = over_claim(n, best, src, solver.claim) {
                    v.why = why;
                } else {
                    v.status = RowStatus::Solved;
                    v.optimal = Some(n == best);
                    v.optimum = Some(best);
                }
            }
            Err(e) => {
                // Not judged, so never called optimal: `optimal` stays empty.
                v.status = RowStatus::Solved;
                v.why = format!("{n} moves, not verified: {e}");
            }
        }
        return v;
    };
    judge_path(problem, moves, v, solver, optimum)
}

/// Why `n` moves break `claim` when the optimum is `best` (from `src`); `None` within it.
fn over_claim(n: u64, best: u64, src: Source, claim: Claim) -> Option<String> {
    let bound = claim.bound(best).filter(|&b| n > b)?;
    Some(match claim {
        Claim::Within(w) => format!(
            "over its claim: {n} moves, more than within={w} allows ({w} × the optimum {best} \
             ({}), {bound} moves)",
            src.name()
        ),
        _ => format!(
            "not optimal: {n} moves, the optimum is {best} ({})",
            src.name()
        ),
    })
}

/// [`judge`] of an answer that is a path (`v` as `judge` made it).
fn judge_path(
    problem: &Problem,
    moves: &[crate::puzzle::Move],
    mut v: Verdict,
    solver: Judged,
    optimum: impl FnOnce() -> Result<(u64, Source), String>,
) -> Verdict {
    v.steps = Some(moves.len() as i64);
    // A path that reaches the goal shows the pair solvable: parity is asked only of the
    // others (an unsolvable pair is named as such before what is wrong with the path).
    let replayed = problem.start.replay(moves);
    let reached = matches!(&replayed, Ok(end) if *end == problem.goal);
    if !reached && !is_solvable(&problem.start, &problem.goal) {
        v.why = "the pair is unsolvable (parity); the answer should be `unsolvable`".into();
        return v;
    }
    match replayed {
        Err(e) => {
            v.why = e.to_string();
            return v;
        }
        Ok(end) if end != problem.goal => {
            v.why = format!(
                "the path ends at `{end}`, not at the goal `{}`",
                problem.goal
            );
            return v;
        }
        Ok(_) => {}
    }
    v.status = RowStatus::Solved;
    if solver.by_construction {
        return v;
    }
    let n = moves.len() as u64;
    match optimum() {
        Ok((best, src)) => {
            v.optimal = Some(n <= best);
            v.optimum = Some(best);
            if let Some(why) = over_claim(n, best, src, solver.claim) {
                v.status = RowStatus::Wrong;
                v.why = why;
            }
        }
        // Any valid path keeps a `valid` claim: nothing is left to verify.
        Err(_) if solver.claim == Claim::Valid => {}
        Err(e) => v.why = format!("a valid path of {n} moves, its claim not verified: {e}"),
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Move;

    fn problem(start: &str, goal: &str) -> Problem {
        Problem::new(start.parse().unwrap(), goal.parse().unwrap()).unwrap()
    }
    fn moves(s: &str) -> Outcome {
        Outcome::solved(Move::parse_path(s).unwrap(), Default::default())
    }
    fn number(n: u64) -> Outcome {
        let mut o = Outcome::without_path(Status::Solved, Default::default());
        o.claimed_steps = Some(n);
        o
    }
    fn unsolvable() -> Outcome {
        Outcome::without_path(Status::Unsolvable, Default::default())
    }
    fn claims(claim: Claim) -> Judged {
        Judged {
            by_construction: false,
            claim,
        }
    }
    const SAMPLE: &str = "2 3 4 1 5 x 7 6 8";
    const GOAL: &str = "1 2 3 4 5 6 7 8 x";
    const PATH: &str = "dlurullddrurdllurdr";

    fn check(p: &Problem, a: &Outcome) -> Verdict {
        judge(p, a, claims(Claim::Optimal), || {
            Ok((19, Source::ExpectedSteps))
        })
    }

    #[test]
    fn answers_are_judged() {
        let p = problem(SAMPLE, GOAL);
        let ok = check(&p, &moves(PATH));
        assert_eq!(
            (ok.status, ok.optimal, ok.steps),
            (RowStatus::Solved, Some(true), Some(19))
        );
        let long = check(&p, &moves(&format!("{PATH}ud")));
        assert_eq!((long.status, long.optimal), (RowStatus::Wrong, Some(false)));
        assert!(long
            .why
            .contains("21 moves, the optimum is 19 (expected_steps)"));
        let off = check(&p, &moves(&format!("r{PATH}")));
        assert_eq!(off.status, RowStatus::Wrong);
        assert!(
            off.why
                .contains("move 1 (`r`) takes the blank off the board"),
            "{}",
            off.why
        );
        let short = check(&p, &moves(&PATH[..18]));
        assert_eq!(short.status, RowStatus::Wrong);
        assert!(short.why.contains("not at the goal"), "{}", short.why);
        let lie = check(&p, &unsolvable());
        assert_eq!((lie.status, lie.steps), (RowStatus::Wrong, Some(-1)));
        assert_eq!(check(&p, &number(19)).status, RowStatus::Solved);
        assert_eq!(check(&p, &number(21)).status, RowStatus::Wrong);

        let u = problem("2 1 3 4 5 6 7 8 x", GOAL);
        assert_eq!(check(&u, &unsolvable()).status, RowStatus::Unsolvable);
        assert_eq!(check(&u, &moves("ud")).status, RowStatus::Wrong);
        assert_eq!(check(&u, &number(3)).status, RowStatus::Wrong);
    }

    #[test]
    fn an_unknown_optimum_leaves_optimal_empty() {
        let p = problem(SAMPLE, GOAL);
        let v = judge(
            &p,
            &moves(PATH),
            claims(Claim::Optimal),
            || Err("no".into()),
        );
        assert_eq!((v.status, v.optimal), (RowStatus::Solved, None));
        assert_eq!(
            v.why,
            "a valid path of 19 moves, its claim not verified: no"
        );
        let n = judge(&p, &number(21), claims(Claim::Optimal), || Err("no".into()));
        assert_eq!((n.status, n.optimal), (RowStatus::Solved, None));
        assert_eq!(n.why, "21 moves, not verified: no");
    }

    /// A path is held to its solver's claim: within the bound it is right (and `optimal`
    /// says whether it is shortest), past it `wrong` naming the bound; a `valid` claim takes
    /// any path that reaches the goal, an unknown optimum included.
    #[test]
    fn answers_are_held_to_their_claim() {
        let p = problem(SAMPLE, GOAL);
        // 19 + 2k moves: the path, then `ud` k times.
        let path = |k: usize| moves(&format!("{PATH}{}", "ud".repeat(k)));
        let within = |w: &str| claims(Claim::Within(w.parse().unwrap()));
        let at = |c: Judged, k: usize| judge(&p, &path(k), c, || Ok((19, Source::Astar)));
        // 1.2 × 19 = 22.8: 21 moves are within, 23 are not.
        let ok = at(within("1.2"), 1);
        assert_eq!(
            (ok.status, ok.optimal, ok.optimum),
            (RowStatus::Solved, Some(false), Some(19))
        );
        assert_eq!(ok.why, "");
        let over = at(within("1.2"), 2);
        assert_eq!(over.status, RowStatus::Wrong);
        assert_eq!(
            over.why,
            "over its claim: 23 moves, more than within=1.2 allows (1.2 × the optimum 19 \
             (astar), 22 moves)"
        );
        assert_eq!(at(within("1.2"), 0).optimal, Some(true));
        assert_eq!(at(claims(Claim::Valid), 40).status, RowStatus::Solved);
        let valid = judge(&p, &path(3), claims(Claim::Valid), || Err("no".into()));
        assert_eq!((valid.status, valid.why.as_str()), (RowStatus::Solved, ""));
        // A number of moves: at least the optimum, at most the bound.
        let n = |c: Judged, k: u64| judge(&p, &number(k), c, || Ok((19, Source::Astar))).status;
        assert_eq!(n(within("1.2"), 22), RowStatus::Solved);
        assert_eq!(n(within("1.2"), 23), RowStatus::Wrong);
        assert_eq!(n(within("1.2"), 18), RowStatus::Wrong);
        assert_eq!(n(claims(Claim::Valid), 99), RowStatus::Solved);
        // Optimal by construction: never compared with the optimum.
        let built = Judged {
            by_construction: true,
            claim: Claim::Optimal,
        };
        let v = judge(&p, &path(1), built, || panic!("not asked"));
        assert_eq!((v.status, v.optimal), (RowStatus::Solved, None));
    }
}
