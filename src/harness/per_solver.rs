//! Options given per solver in the `[SOLVER=]VALUE` form (`--solver-claim bob=valid`, or
//! `--solver-claim valid` for every solver not named), repeatable, as `--allow-limit` takes.
//!
//! ```
//! use tilebench::cli_support::PerSolver;
//! use tilebench::search::Claim;
//! let values = ["valid".to_string(), "bob=within=1.5".to_string()];
//! let claims = PerSolver::<Claim>::parse("--solver-claim", &values).unwrap();
//! assert_eq!(claims.get("bob"), Some(&"within=1.5".parse().unwrap()));
//! assert_eq!(claims.get("eve"), Some(&Claim::Valid));
//! let e = PerSolver::<Claim>::parse("solver-claim", &["bob=fast".into()]).unwrap_err();
//! assert_eq!((e.option(), e.value()), ("solver-claim", "bob=fast"));
//! ```

use std::str::FromStr;

/// One option's values: the one for solvers not named, and the named solvers' own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerSolver<T> {
    /// The value for every solver not named (`None`: the option's own default).
    pub others: Option<T>,
    /// `(solver, value)`, in the order given.
    pub named: Vec<(String, T)>,
}

impl<T> Default for PerSolver<T> {
    fn default() -> Self {
        PerSolver {
            others: None,
            named: Vec::new(),
        }
    }
}

impl<T: FromStr<Err = String>> PerSolver<T> {
    /// Reads the values of `option` (its name, for messages). A value that reads as a whole
    /// is for the solvers not named (so `within=1.5` is a claim, not a solver `within`);
    /// otherwise `SOLVER=VALUE`.
    ///
    /// # Errors
    /// [`PerSolverError`]: a value that reads neither way, or a solver (or the others) given
    /// two values.
    pub fn parse(option: &str, values: &[String]) -> Result<PerSolver<T>, PerSolverError> {
        let mut out = PerSolver::default();
        for v in values {
            let whole = v.trim().parse::<T>();
            // SOLVER=VALUE, where a configuration's label may hold `=` too
            // (`astar:heuristic=pdb=all`): the first split whose value reads.
            let splits = v
                .match_indices('=')
                .map(|(i, _)| (&v[..i], &v[i + 1..]))
                .filter(|(name, _)| !name.trim().is_empty());
            let mut first_error = None;
            let mut named = None;
            for (name, value) in splits {
                match value.parse::<T>() {
                    Ok(value) => {
                        named = Some((name.trim().to_string(), value));
                        break;
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
            let (name, value) = match (whole, named) {
                (Ok(value), _) => (None, value),
                (Err(_), Some((name, value))) => (Some(name), value),
                (Err(e), None) => {
                    return Err(PerSolverError::Value {
                        option: option.into(),
                        value: v.clone(),
                        reason: first_error.unwrap_or(e),
                    });
                }
            };
            match name {
                None if out.others.is_some() => {
                    return Err(PerSolverError::OthersTwice {
                        option: option.into(),
                        value: v.clone(),
                    })
                }
                None => out.others = Some(value),
                Some(n) if out.named.iter().any(|(m, _)| m.eq_ignore_ascii_case(&n)) => {
                    return Err(PerSolverError::SolverTwice {
                        option: option.into(),
                        value: v.clone(),
                        solver: n,
                    })
                }
                Some(n) => out.named.push((n, value)),
            }
        }
        Ok(out)
    }
}

/// A value of a per-solver option that [`PerSolver::parse`] or [`PerSolver::check_names`]
/// refuses. Each message starts with the option's name as the caller gave it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PerSolverError {
    /// A value that reads neither as a whole nor as `SOLVER=VALUE`.
    #[error("{option} {value}: {reason}")]
    Value {
        /// The option's name.
        option: String,
        /// The value as given.
        value: String,
        /// Why its value does not read (the value type's sentence).
        reason: String,
    },
    /// A second value for every solver not named.
    #[error(
        "{option} {value}: a value for every solver was already given; give one, and \
         SOLVER=VALUE for the solvers that differ"
    )]
    OthersTwice {
        /// The option's name.
        option: String,
        /// The second value.
        value: String,
    },
    /// A second value for one solver.
    #[error("{option} {value}: `{solver}` was already given a value; give each solver one")]
    SolverTwice {
        /// The option's name.
        option: String,
        /// The second value.
        value: String,
        /// The solver.
        solver: String,
    },
    /// A solver's name that is none of the run's external solvers.
    #[error(
        "{option} {solver}=…: `{solver}` is not an external solver's name ({}); name an \
         external solver of the run",
        solvers_of_run(.solvers)
    )]
    UnknownSolver {
        /// The option's name.
        option: String,
        /// The name given.
        solver: String,
        /// The run's external solvers.
        solvers: Vec<String>,
    },
}

/// `the run's are a, b`, or `the run has none`.
fn solvers_of_run(solvers: &[String]) -> String {
    if solvers.is_empty() {
        "the run has none".to_string()
    } else {
        format!("the run's are {}", solvers.join(", "))
    }
}

impl PerSolverError {
    /// The option's name.
    pub fn option(&self) -> &str {
        match self {
            PerSolverError::Value { option, .. }
            | PerSolverError::OthersTwice { option, .. }
            | PerSolverError::SolverTwice { option, .. }
            | PerSolverError::UnknownSolver { option, .. } => option,
        }
    }

    /// The value as given (for [`PerSolverError::UnknownSolver`], the solver's name).
    pub fn value(&self) -> &str {
        match self {
            PerSolverError::Value { value, .. }
            | PerSolverError::OthersTwice { value, .. }
            | PerSolverError::SolverTwice { value, .. } => value,
            PerSolverError::UnknownSolver { solver, .. } => solver,
        }
    }
}

impl<T> PerSolver<T> {
    /// The value for `solver`: its own, or the others'.
    pub fn get(&self, solver: &str) -> Option<&T> {
        self.named
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(solver))
            .map(|(_, v)| v)
            .or(self.others.as_ref())
    }

    /// Checks that every solver named is one of `solvers`.
    ///
    /// # Errors
    /// A name that is not in `solvers` ([`PerSolverError::UnknownSolver`]: the message lists
    /// them).
    pub fn check_names(&self, option: &str, solvers: &[&str]) -> Result<(), PerSolverError> {
        for (n, _) in &self.named {
            if !solvers.iter().any(|s| s.eq_ignore_ascii_case(n)) {
                return Err(PerSolverError::UnknownSolver {
                    option: option.into(),
                    solver: n.clone(),
                    solvers: solvers.iter().map(|s| s.to_string()).collect(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Claim;

    fn parse(values: &[&str]) -> Result<PerSolver<Claim>, PerSolverError> {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        PerSolver::parse("solver-claim", &values)
    }

    #[test]
    fn per_solver_errors_keep_the_option_value_and_solver() {
        let e = parse(&["bob=fast"]).unwrap_err();
        let PerSolverError::Value {
            option,
            value,
            reason,
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(
            (option.as_str(), value.as_str()),
            ("solver-claim", "bob=fast")
        );
        assert_eq!(e.to_string(), format!("solver-claim bob=fast: {reason}"));
        let e = parse(&["valid", "optimal"]).unwrap_err();
        assert_eq!(
            e,
            PerSolverError::OthersTwice {
                option: "solver-claim".into(),
                value: "optimal".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "solver-claim optimal: a value for every solver was already given; give one, and \
             SOLVER=VALUE for the solvers that differ"
        );
        let e = parse(&["bob=valid", "BOB=optimal"]).unwrap_err();
        assert_eq!((e.option(), e.value()), ("solver-claim", "BOB=optimal"));
        assert_eq!(
            e.to_string(),
            "solver-claim BOB=optimal: `BOB` was already given a value; give each solver one"
        );
        let claims = parse(&["bob=valid"]).unwrap();
        assert_eq!(claims.check_names("solver-claim", &["Bob", "eve"]), Ok(()));
        let e = claims.check_names("solver-claim", &["eve"]).unwrap_err();
        assert_eq!(
            e,
            PerSolverError::UnknownSolver {
                option: "solver-claim".into(),
                solver: "bob".into(),
                solvers: vec!["eve".into()]
            }
        );
        assert_eq!(
            e.to_string(),
            "solver-claim bob=…: `bob` is not an external solver's name (the run's are eve); \
             name an external solver of the run"
        );
        assert!(claims
            .check_names("solver-claim", &[])
            .unwrap_err()
            .to_string()
            .contains("(the run has none)"));
    }
}
