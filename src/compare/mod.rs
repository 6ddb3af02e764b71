//! The comparison engine: runs (or sets of replicate runs), or solvers of one run, compared
//! case by case: answers, work and paired latency.
//!
//! A [`Plan`] says what is compared ([`Subject`]: any number of runs, or any number of
//! solvers of one run), against which reference, and with which [`Thresholds`]; [`compare`]
//! checks it and returns a [`Comparison`]: one [`PairComparison`] per current side against
//! its baseline, each with typed per-solver counter totals, latency figures with intervals
//! and verdicts, and the lists of rows that differ. Nothing here prints: [`render`] turns a
//! comparison into text (terminal, Markdown, JSON, JUnit XML), one file per format.
//!
//! Rows are matched by (input, id — or line when a row has no id —, solver); an input whose
//! path differs between two runs is matched by its checksum (from each run's run.json). It
//! fails closed: what it cannot check is a failure, never a pass.
//!
//! - correctness: a different status or step count is always a regression;
//! - work: expanded and generated, per case and per solver total, may not grow by more than
//!   [`Thresholds::max_work_increase_pct`]; a counter one run has and the other lacks (an
//!   empty cell) on a row of both is a regression, never a 0;
//! - latency: per case, p50 and p99 per solver, gated only with
//!   [`Thresholds::max_latency_increase_pct`]; with one run a side the verdicts are
//!   indications (the interval over cases cannot see the noise between runs);
//! - a case in the baseline but not in the current run is a regression (results were lost);
//!   a new case is reported only.
//!
//! Two solvers of one run differ by design: their answers and work are listed, and only a
//! gated latency fails.
//!
//! ```no_run
//! use tilebench::compare::{compare, Plan, Subject};
//! let plan = Plan::new(Subject::Runs {
//!     runs: vec!["results/base".into(), "results/pr".into()],
//!     reference: None,
//!     all_pairs: false,
//! });
//! let c = compare(&plan)?;
//! for pair in &c.pairs {
//!     for s in &pair.solvers {
//!         println!("{}: {} wrong answer(s)", s.solver, s.wrong);
//!     }
//! }
//! println!("{}", tilebench::compare::render::text(&c));
//! # Ok::<(), tilebench::compare::CompareError>(())
//! ```

mod join;
pub(crate) mod model;
mod pair;
pub mod render;
mod sides;

pub use model::{
    Comparison, Counter, CounterTotal, Figure, LatencyFigure, LatencyVerdict, List, ListKind,
    PairComparison, PairKind, SolverComparison, Thresholds,
};

use std::path::PathBuf;

/// Why a comparison could not be made (the binary's exit code 2).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompareError {
    /// The plan does not fit together: a threshold that is not a finite percentage, fewer
    /// than two sides, a reference or solver the runs do not have.
    /// In the plan's words (its thresholds' and subject's fields); [`Wording::with_flags`]
    /// as the command line says it.
    ///
    /// [`Wording::with_flags`]: crate::observe::Wording::with_flags
    #[error("{0}")]
    Plan(crate::observe::Wording),
    /// A run's results cannot be read or used: missing, empty, headerless, a missing column, a
    /// row that does not parse (the message names the file and line).
    #[error("{0}")]
    Results(String),
    /// Two runs share no input file, so no case can be matched.
    #[error("{0}")]
    DifferentInputs(String),
    /// An export cannot be written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
}

/// What is compared.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Subject {
    /// Runs: each a results directory, its cases.csv, or a directory of replicate runs.
    Runs {
        /// Two or more.
        runs: Vec<PathBuf>,
        /// The baseline every other run is compared against: one of `runs` as given, or its
        /// directory's name (default: the first).
        reference: Option<String>,
        /// Every pair of runs (the earlier as baseline) instead of each against the
        /// reference.
        all_pairs: bool,
    },
    /// Solvers of one run (or of one set of replicate runs), case by case.
    Solvers {
        /// The run.
        run: PathBuf,
        /// Two or more of its solvers.
        solvers: Vec<String>,
        /// The solver every other one is compared against (default: the last named, so that
        /// `A,B` compares A against B).
        reference: Option<String>,
        /// Every pair (the later named as baseline) instead of each against the reference.
        all_pairs: bool,
    },
}

/// A comparison to make: what, against what, with which thresholds.
#[derive(Clone, Debug)]
pub struct Plan {
    /// What is compared.
    pub subject: Subject,
    /// The gates.
    pub thresholds: Thresholds,
    /// How many rows each list names.
    pub show: usize,
}

impl Plan {
    /// A plan with the default thresholds (no work growth, latency not gated, 2% noise) and
    /// 20 rows a list.
    pub fn new(subject: Subject) -> Plan {
        Plan {
            subject,
            thresholds: Thresholds::default(),
            show: 20,
        }
    }

    /// Refuses a threshold that is not a finite percentage ≥ 0 (NaN would turn a gate off).
    ///
    /// # Errors
    /// The first such threshold, by its option's name.
    pub(crate) fn check(&self) -> Result<(), CompareError> {
        let t = &self.thresholds;
        for (option, value) in [
            ("--max-work-increase", Some(t.max_work_increase_pct)),
            ("--max-latency-increase", t.max_latency_increase_pct),
            ("--noise-threshold", Some(t.noise_threshold_pct)),
        ] {
            if let Some(v) = value.filter(|v| !(v.is_finite() && *v >= 0.0)) {
                return Err(CompareError::Plan(plan_error(format!(
                    "{option} {v}: give the allowed increase in percent, a finite number ≥ 0 \
                     (e.g. 5 for 5%)"
                ))));
            }
        }
        Ok(())
    }
}

/// Makes the comparison `plan` asks for.
///
/// # Errors
/// The plan is inconsistent ([`CompareError::Plan`]), a run cannot be read
/// ([`CompareError::Results`]), or two runs share no input
/// ([`CompareError::DifferentInputs`]).
pub fn compare(plan: &Plan) -> Result<Comparison, CompareError> {
    plan.check()?;
    let th = &plan.thresholds;
    let mut left_out = Vec::new();
    let mut pairs = Vec::new();
    match &plan.subject {
        Subject::Runs {
            runs,
            reference,
            all_pairs,
        } => {
            if runs.len() < 2 {
                return Err(CompareError::Plan(plan_error(
                    "give two or more results to compare (BASELINE CURRENT …), or one with \
                     --strategies A,B",
                )));
            }
            let sets = runs
                .iter()
                .map(|p| sides::load_set(p))
                .collect::<Result<Vec<_>, _>>()?;
            let label = |i: usize| sets[i].given.display().to_string();
            let order = run_pairs(runs, reference.as_deref(), *all_pairs)?;
            if runs.len() > 2 && !*all_pairs {
                left_out.push(format!(
                    "each run is compared with {} only, not with one another; add --all-pairs \
                     for every pair",
                    label(order[0].0)
                ));
            }
            for (b, c) in order {
                pairs.push(pair::compare_pair(
                    (sets[b].clone(), sets[c].clone()),
                    PairKind::Runs,
                    (label(b), label(c)),
                    th,
                    plan.show,
                )?);
            }
        }
        Subject::Solvers {
            run,
            solvers,
            reference,
            all_pairs,
        } => {
            let set = sides::load_set(run)?;
            let order = solver_pairs(solvers, reference.as_deref(), *all_pairs)?;
            let unnamed: Vec<&str> = set.runs[0]
                .solvers()
                .into_iter()
                .filter(|s| !solvers.iter().any(|n| n == s))
                .collect();
            if !unnamed.is_empty() {
                left_out.push(format!(
                    "{} of {} not compared: name them in --strategies to include them",
                    unnamed.join(", "),
                    run.display()
                ));
            }
            for (b, c) in order {
                let (base, cur) = sides::pick_pair(&set, &solvers[c], &solvers[b])?;
                pairs.push(pair::compare_pair(
                    (base, cur),
                    PairKind::Solvers,
                    (solvers[b].clone(), solvers[c].clone()),
                    th,
                    plan.show,
                )?);
            }
        }
    }
    Ok(Comparison {
        pairs,
        thresholds: *th,
        left_out,
    })
}

/// The command line's phrases of compare's plan errors, and each in [`Plan`]'s words (its
/// subject's `reference` and solvers, its thresholds' fields).
const PHRASES: [(&str, &str); 7] = [
    ("against --reference)", "against the reference)"),
    ("--reference ", "reference "),
    ("to --strategies", "to the solvers"),
    ("--strategies ", "the solvers "),
    ("--max-work-increase ", "max_work_increase_pct "),
    ("--max-latency-increase ", "max_latency_increase_pct "),
    ("--noise-threshold ", "noise_threshold_pct "),
];

/// A plan error made with the command line's phrases ([`PHRASES`]): in the plan's words,
/// and as it was made.
pub(crate) fn plan_error(flags: impl Into<String>) -> crate::observe::Wording {
    let flags = flags.into();
    let words = PHRASES
        .iter()
        .fold(flags.clone(), |t, (flag, words)| t.replace(flag, words));
    crate::observe::Wording::new(words, flags)
}

/// The (baseline, current) index pairs of runs: each against the reference, or all pairs.
fn run_pairs(
    runs: &[PathBuf],
    reference: Option<&str>,
    all_pairs: bool,
) -> Result<Vec<(usize, usize)>, CompareError> {
    let r = match reference {
        None => 0,
        Some(name) => runs
            .iter()
            .position(|p| {
                p.as_os_str() == name
                    || p.file_name().is_some_and(|f| f == name)
                    || p.parent().and_then(|d| d.file_name()).is_some_and(|f| {
                        f == name
                            && p.file_name()
                                .is_some_and(|n| n == crate::results::CASES_CSV)
                    })
            })
            .ok_or_else(|| {
                CompareError::Plan(plan_error(format!(
                    "--reference {name}: no such run among {}; give one of them (as given, or \
                     its directory's name)",
                    runs.iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            })?,
    };
    Ok(ordered_pairs(runs.len(), r, all_pairs, false))
}

/// The (baseline, current) index pairs of solvers: each against the reference (default the
/// last), or all pairs (the later named as baseline).
fn solver_pairs(
    solvers: &[String],
    reference: Option<&str>,
    all_pairs: bool,
) -> Result<Vec<(usize, usize)>, CompareError> {
    let distinct = solvers
        .iter()
        .enumerate()
        .all(|(i, s)| !s.is_empty() && !solvers[..i].contains(s));
    if solvers.len() < 2 || !distinct {
        return Err(CompareError::Plan(plan_error(format!(
            "--strategies {}: give two or more different strategies of the run, e.g. \
             astar,bfs-rank (each is compared against the last, or against --reference)",
            solvers.join(",")
        ))));
    }
    let r = match reference {
        None => solvers.len() - 1,
        Some(name) => solvers.iter().position(|s| s == name).ok_or_else(|| {
            CompareError::Plan(plan_error(format!(
                "--reference {name}: not one of --strategies {}; name it there too",
                solvers.join(",")
            )))
        })?,
    };
    Ok(ordered_pairs(solvers.len(), r, all_pairs, true))
}

/// `n` sides as (baseline, current) pairs: every other side against `reference`, in order;
/// or every pair, the earlier side the baseline (the later with `later_is_baseline`).
fn ordered_pairs(
    n: usize,
    reference: usize,
    all_pairs: bool,
    later_is_baseline: bool,
) -> Vec<(usize, usize)> {
    if !all_pairs {
        return (0..n)
            .filter(|&i| i != reference)
            .map(|i| (reference, i))
            .collect();
    }
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            out.push(if later_is_baseline { (j, i) } else { (i, j) });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_go_against_the_reference_or_cover_every_pair() {
        assert_eq!(ordered_pairs(3, 0, false, false), [(0, 1), (0, 2)]);
        assert_eq!(ordered_pairs(3, 1, false, false), [(1, 0), (1, 2)]);
        assert_eq!(ordered_pairs(3, 0, true, false), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(ordered_pairs(3, 0, true, true), [(1, 0), (2, 0), (2, 1)]);
    }

    #[test]
    fn two_solvers_compare_the_first_against_the_second() {
        let names = ["idastar".to_string(), "astar".to_string()];
        assert_eq!(solver_pairs(&names, None, false).unwrap(), [(1, 0)]);
        let three = ["a", "b", "c"].map(String::from);
        assert_eq!(
            solver_pairs(&three, Some("a"), false).unwrap(),
            [(0, 1), (0, 2)]
        );
        assert!(solver_pairs(&three, Some("d"), false).is_err());
        let same = ["a", "a"].map(String::from);
        assert!(solver_pairs(&same, None, false).is_err());
    }

    #[test]
    fn a_reference_run_is_found_by_path_or_directory_name() {
        let runs: Vec<PathBuf> = ["results/a", "results/b/cases.csv", "c"]
            .map(PathBuf::from)
            .to_vec();
        assert_eq!(
            run_pairs(&runs, Some("b"), false).unwrap(),
            [(1, 0), (1, 2)]
        );
        assert_eq!(
            run_pairs(&runs, Some("results/a"), false).unwrap()[0],
            (0, 1)
        );
        let err = run_pairs(&runs, Some("zz"), false).unwrap_err();
        assert!(
            err.to_string().contains("reference zz: no such run"),
            "{err}"
        );
        assert!(!err.to_string().contains("--"), "{err}");
        let CompareError::Plan(w) = err else {
            panic!("{err:?}")
        };
        assert!(
            w.with_flags().starts_with("--reference zz: no such run"),
            "{w:?}"
        );
    }

    #[test]
    fn thresholds_must_be_finite_and_not_negative() {
        let mut plan = Plan::new(Subject::Runs {
            runs: vec![],
            reference: None,
            all_pairs: false,
        });
        plan.thresholds.noise_threshold_pct = f64::NAN;
        let err = plan.check().unwrap_err().to_string();
        assert!(err.starts_with("noise_threshold_pct NaN"), "{err}");
        plan.thresholds.noise_threshold_pct = 2.0;
        plan.thresholds.max_latency_increase_pct = Some(-1.0);
        assert!(plan.check().is_err());
    }
}

#[cfg(test)]
mod engine_tests;
