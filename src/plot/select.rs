//! Which solvers `plot` and `report` compare: every solver of every run against a reference
//! (`--reference NAME`, by default the first run when runs share solver names, else the
//! first solver of the first run), or every pair
//! (`--all-pairs`), at most [`Selection::max_pairs`] of them; and how each solver is labelled
//! (its name, or `<run>/<name>` where two runs hold that name).
//!
//! Nothing is dropped silently: the pairs beyond the cap are kept in [`Plan::left_out`], and
//! `Plan::notes` says what was left out and how to include it.

use super::per_case::Side;
use super::RunData;

/// The most pairs compared and drawn by default (each pair is a comparison and two scatter
/// charts): a 15-solver run against a reference is 14.
pub const DEFAULT_MAX_PAIRS: usize = 30;

/// What the user asked to compare (the command line's `--reference`, `--all-pairs`,
/// `--max-pairs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The solver every other one is compared with: `run/solver`, or a solver's name when one
    /// run alone holds it; or a run's name (each solver of the other runs against the one of
    /// the same name in that run); `None`: the first run when another run shares a solver's
    /// name with it, else the first solver of the first run.
    pub reference: Option<String>,
    /// Every pair of solvers instead of each against the reference.
    pub all_pairs: bool,
    /// The most pairs compared and drawn; those beyond are left out, and said so.
    pub max_pairs: usize,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection {
            reference: None,
            all_pairs: false,
            max_pairs: DEFAULT_MAX_PAIRS,
        }
    }
}

/// One solver of one run: its run's index and its index in that run's summary.csv order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolverId {
    /// The run, in the order the runs were given.
    pub run: usize,
    /// The solver, in its run's summary.csv order.
    pub solver: usize,
}

/// A reference ([`Selection::reference`], `--reference`) that names no solver, or more than
/// one. Said in the selection's words; a command line names its flags.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SelectError {
    /// No solver has that name (or `run/name` label), and no run.
    #[error("reference {name}: no solver or run is called that; choose a solver ({choices}) or, with several runs, a run")]
    NotFound {
        /// The name given.
        name: String,
        /// Every label, comma-separated.
        choices: String,
    },
    /// Several runs hold a solver of that name.
    #[error("reference {name}: {runs} runs hold a solver called that; say which as RUN/SOLVER: {choices}")]
    Ambiguous {
        /// The name given.
        name: String,
        /// How many runs hold it.
        runs: usize,
        /// The `run/solver` labels it could mean.
        choices: String,
    },
    /// `--reference` and `--all-pairs` together.
    #[error(
        "a reference and all pairs cannot go together: give one (all pairs have no reference)"
    )]
    ReferenceAndAllPairs,
}

/// What every pair is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// One solver.
    Solver(SolverId),
    /// A run (its index): each solver of the other runs against its namesake there.
    Run(usize),
}

/// The pairs to compare and draw, resolved against the runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The reference, when comparing against one (not with `--all-pairs`).
    pub reference: Option<Reference>,
    /// Solvers with no namesake in the reference run (`--reference RUN`): not compared.
    pub unmatched: Vec<SolverId>,
    /// (x, y): y is compared with x (x is the reference, or the earlier of the two in table
    /// order), in table order.
    pub pairs: Vec<(SolverId, SolverId)>,
    /// The pairs beyond [`Selection::max_pairs`], in the same order.
    pub left_out: Vec<(SolverId, SolverId)>,
    /// The cap that was applied.
    pub max_pairs: usize,
}

/// Every solver of every run, in table order (runs in the order given, solvers in their
/// summary.csv order).
pub(crate) fn solvers(runs: &[RunData]) -> Vec<SolverId> {
    runs.iter()
        .enumerate()
        .flat_map(|(run, r)| (0..r.strategies.len()).map(move |solver| SolverId { run, solver }))
        .collect()
}

/// A solver's name as every chart, table and message shows it: the name alone, or
/// `<run>/<name>` when another run holds a solver of the same name.
pub(crate) fn label(runs: &[RunData], run: usize, name: &str) -> String {
    let holders = runs
        .iter()
        .filter(|r| r.strategies.iter().any(|s| s.name == name))
        .count();
    if holders > 1 {
        format!("{}/{name}", runs[run].label)
    } else {
        name.to_string()
    }
}

/// The label of `id` (see [`label`]).
pub(crate) fn label_of(runs: &[RunData], id: SolverId) -> String {
    label(runs, id.run, &runs[id.run].strategies[id.solver].name)
}

impl Selection {
    /// The plan over these runs.
    ///
    /// # Errors
    /// A reference that names no solver or more than one, or a reference with all pairs.
    pub(crate) fn plan(&self, runs: &[RunData]) -> Result<Plan, SelectError> {
        let all = solvers(runs);
        let (mut unmatched, mut unmatched_pairs) = (Vec::new(), Vec::new());
        let (reference, mut pairs) = if self.all_pairs {
            if self.reference.is_some() {
                return Err(SelectError::ReferenceAndAllPairs);
            }
            let pairs: Vec<(SolverId, SolverId)> = all
                .iter()
                .enumerate()
                .flat_map(|(i, &x)| all[i + 1..].iter().map(move |&y| (x, y)))
                .collect();
            (None, pairs)
        } else {
            match self.resolve(runs, &all)? {
                None => (None, Vec::new()),
                Some(Reference::Solver(r)) => {
                    let pairs = all.iter().filter(|&&y| y != r).map(|&y| (r, y)).collect();
                    (Some(Reference::Solver(r)), pairs)
                }
                Some(Reference::Run(r)) => {
                    let namesake = |y: &SolverId| {
                        let name = &runs[y.run].strategies[y.solver].name;
                        let solver = runs[r].strategies.iter().position(|s| &s.name == name)?;
                        Some(SolverId { run: r, solver })
                    };
                    for y in all.iter().filter(|y| y.run != r) {
                        match namesake(y) {
                            Some(x) => unmatched_pairs.push((x, *y)),
                            None => unmatched.push(*y),
                        }
                    }
                    (
                        Some(Reference::Run(r)),
                        std::mem::take(&mut unmatched_pairs),
                    )
                }
            }
        };
        let left_out = pairs.split_off(self.max_pairs.min(pairs.len()));
        Ok(Plan {
            reference,
            unmatched,
            pairs,
            left_out,
            max_pairs: self.max_pairs,
        })
    }

    /// The reference: the solver or run named; by default the first run when another run
    /// shares a solver's name with it, else the first solver (`None` when there is no solver).
    fn resolve(
        &self,
        runs: &[RunData],
        all: &[SolverId],
    ) -> Result<Option<Reference>, SelectError> {
        let Some(name) = &self.reference else {
            // Several runs of the same solvers (a baseline and a change, replicates): each
            // solver against its namesake in the first run, as `compare` does; else the
            // first solver.
            let shared = all.iter().any(|y| {
                y.run != 0
                    && runs[0]
                        .strategies
                        .iter()
                        .any(|s| s.name == runs[y.run].strategies[y.solver].name)
            });
            if runs.len() > 1 && shared {
                return Ok(Some(Reference::Run(0)));
            }
            return Ok(all.first().copied().map(Reference::Solver));
        };
        let name = name.trim();
        if let Some(r) = runs.iter().position(|r| r.label == name) {
            if runs.len() > 1 {
                return Ok(Some(Reference::Run(r)));
            }
        }
        Ok(Some(Reference::Solver(self.solver(runs, all, name)?)))
    }

    /// The solver called `name` (`run/solver`, or a name one run alone holds).
    fn solver(
        &self,
        runs: &[RunData],
        all: &[SolverId],
        name: &str,
    ) -> Result<SolverId, SelectError> {
        let full = |id: &SolverId| {
            format!(
                "{}/{}",
                runs[id.run].label, runs[id.run].strategies[id.solver].name
            )
        };
        if let Some(id) = all.iter().find(|id| full(id) == name) {
            return Ok(*id);
        }
        let named: Vec<&SolverId> = all
            .iter()
            .filter(|id| runs[id.run].strategies[id.solver].name == name)
            .collect();
        match named.as_slice() {
            [one] => Ok(**one),
            [] => Err(SelectError::NotFound {
                name: name.to_string(),
                choices: all
                    .iter()
                    .map(|&id| label_of(runs, id))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
            many => Err(SelectError::Ambiguous {
                name: name.to_string(),
                runs: many.len(),
                choices: many
                    .iter()
                    .map(|id| full(id))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}

impl Plan {
    /// What was left out and how to include it: a sentence each, none when nothing was.
    pub(crate) fn notes(&self, runs: &[RunData]) -> Vec<String> {
        let mut out = Vec::new();
        if let (Some(Reference::Run(r)), false) = (self.reference, self.unmatched.is_empty()) {
            let names: Vec<String> = self.unmatched.iter().map(|&y| label_of(runs, y)).collect();
            out.push(format!(
                "not compared: {}, which {} has no solver of the same name; to compare them, \
                 give --reference RUN/SOLVER or --all-pairs",
                names.join(", "),
                runs[r].label
            ));
        }
        if self.left_out.is_empty() {
            return out;
        }
        let total = self.pairs.len() + self.left_out.len();
        let names: Vec<String> = self
            .left_out
            .iter()
            .map(|&(x, y)| format!("{} vs {}", label_of(runs, y), label_of(runs, x)))
            .collect();
        out.push(format!(
            "{total} pairs of solvers, {} compared and drawn (--max-pairs {}); left out: {}. \
             To include them, give --max-pairs {total}{}",
            self.pairs.len(),
            self.max_pairs,
            names.join(", "),
            if self.reference.is_none() {
                ", or compare against one solver with --reference NAME instead of --all-pairs"
            } else {
                ""
            }
        ));
        out
    }

    /// The pairs with their labels: ((x label, x), (y label, y)).
    pub(crate) fn labelled<'a>(&self, runs: &'a [RunData]) -> Vec<(Side<'a>, Side<'a>)> {
        let side = |id: SolverId| (label_of(runs, id), &runs[id.run].strategies[id.solver]);
        self.pairs
            .iter()
            .map(|&(x, y)| (side(x), side(y)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{LatencySource, StrategyData};

    fn run(label: &str, names: &[&str]) -> RunData {
        RunData {
            label: label.into(),
            dir: label.into(),
            strategies: names
                .iter()
                .map(|n| StrategyData {
                    name: n.to_string(),
                    latency_ns: crate::report::new_histogram(),
                    expanded_by_steps: Vec::new(),
                    cases_per_s: None,
                    cases: Vec::new(),
                    rows: 0,
                    every: 1,
                })
                .collect(),
            latency_source: LatencySource::CasesCsv,
            summaries: Vec::new(),
        }
    }

    fn pair_labels(runs: &[RunData], p: &Plan) -> Vec<String> {
        p.labelled(runs)
            .into_iter()
            .map(|(x, y)| format!("{} vs {}", y.0, x.0))
            .collect()
    }

    #[test]
    fn three_runs_every_solver_against_the_first_and_labels_only_where_names_clash() {
        let runs = [
            run("a", &["astar", "idastar"]),
            run("b", &["astar"]),
            run("c", &["astar", "bfs"]),
        ];
        // By default, runs that share solvers: each solver against its namesake in the
        // first run, and the one without (bfs) named.
        let p = Selection::default().plan(&runs).unwrap();
        assert_eq!(p.reference, Some(Reference::Run(0)));
        assert_eq!(
            pair_labels(&runs, &p),
            ["b/astar vs a/astar", "c/astar vs a/astar"]
        );
        assert!(
            p.notes(&runs).join(" ").contains("bfs"),
            "{:?}",
            p.notes(&runs)
        );
        // The first solver, named: every other solver against it.
        let p = Selection {
            reference: Some("a/astar".into()),
            ..Selection::default()
        }
        .plan(&runs)
        .unwrap();
        assert_eq!(
            pair_labels(&runs, &p),
            [
                "idastar vs a/astar",
                "b/astar vs a/astar",
                "c/astar vs a/astar",
                "bfs vs a/astar"
            ]
        );
        assert!(p.left_out.is_empty() && p.notes(&runs).is_empty());
        // A reference by its plain name when unique, by run/name when not.
        let s = |r: &str| Selection {
            reference: Some(r.into()),
            ..Selection::default()
        };
        let p = s("bfs").plan(&runs).unwrap();
        assert_eq!(
            p.reference,
            Some(Reference::Solver(SolverId { run: 2, solver: 1 }))
        );
        assert_eq!(p.pairs.len(), 4);
        let p = s("c/astar").plan(&runs).unwrap();
        assert_eq!(
            p.reference,
            Some(Reference::Solver(SolverId { run: 2, solver: 0 }))
        );
        // A run: each solver of the others against its namesake there, the rest named.
        let p = s("b").plan(&runs).unwrap();
        assert_eq!(
            pair_labels(&runs, &p),
            ["a/astar vs b/astar", "c/astar vs b/astar"]
        );
        let notes = p.notes(&runs).join(" ");
        assert!(
            notes.contains("not compared: idastar, bfs, which b has no"),
            "{notes}"
        );
        let e = s("astar").plan(&runs).unwrap_err().to_string();
        assert!(
            e.contains("3 runs") && e.contains("a/astar, b/astar, c/astar"),
            "{e}"
        );
        let e = s("dfs").plan(&runs).unwrap_err().to_string();
        assert!(
            e.contains("no solver") && e.contains("idastar, b/astar"),
            "{e}"
        );
    }

    #[test]
    fn all_pairs_beyond_the_cap_are_left_out_and_said_so() {
        let names: Vec<String> = (1..=15).map(|i| format!("s{i:02}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let runs = [run("class", &names)];
        let all = Selection {
            all_pairs: true,
            ..Selection::default()
        };
        let p = all.plan(&runs).unwrap();
        assert_eq!(p.pairs.len() + p.left_out.len(), 15 * 14 / 2);
        assert_eq!(p.pairs.len(), DEFAULT_MAX_PAIRS);
        let notes = p.notes(&runs);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("105 pairs of solvers, 30 compared"),
            "{notes:?}"
        );
        assert!(notes[0].contains("--max-pairs 105"), "{notes:?}");
        // The last pair is named among those left out.
        assert!(notes[0].contains("s15 vs s14"), "{notes:?}");
        // Every pair once, none with itself.
        let mut seen = std::collections::HashSet::new();
        for &(x, y) in p.pairs.iter().chain(&p.left_out) {
            assert_ne!(x, y);
            assert!(seen.insert((x.solver.min(y.solver), x.solver.max(y.solver))));
        }
        let uncapped = Selection {
            max_pairs: usize::MAX,
            ..all
        };
        assert!(uncapped.plan(&runs).unwrap().left_out.is_empty());
        // Against a reference: 14 pairs, under the default cap.
        let p = Selection::default().plan(&runs).unwrap();
        assert_eq!((p.pairs.len(), p.left_out.len()), (14, 0));
    }
}
