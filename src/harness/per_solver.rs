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
//! assert!(PerSolver::<Claim>::parse("--solver-claim", &["bob=fast".into()]).is_err());
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
    /// Reads the values of `flag` (its name, for messages). A value that reads as a whole
    /// is for the solvers not named (so `within=1.5` is a claim, not a solver `within`);
    /// otherwise `SOLVER=VALUE`.
    ///
    /// # Errors
    /// A value that reads neither way, or a solver (or the others) given two values.
    pub fn parse(flag: &str, values: &[String]) -> Result<PerSolver<T>, String> {
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
                    return Err(format!("{flag} {v}: {}", first_error.unwrap_or(e)));
                }
            };
            match name {
                None if out.others.is_some() => {
                    return Err(format!(
                        "{flag} {v}: a value for every solver was already given; give one, \
                         and SOLVER=VALUE for the solvers that differ"
                    ))
                }
                None => out.others = Some(value),
                Some(n) if out.named.iter().any(|(m, _)| m.eq_ignore_ascii_case(&n)) => {
                    return Err(format!(
                        "{flag} {v}: `{n}` was already given a value; give each solver one"
                    ))
                }
                Some(n) => out.named.push((n, value)),
            }
        }
        Ok(out)
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
    /// A name that is not in `solvers`; the message lists them.
    pub fn check_names(&self, flag: &str, solvers: &[&str]) -> Result<(), String> {
        for (n, _) in &self.named {
            if !solvers.iter().any(|s| s.eq_ignore_ascii_case(n)) {
                let list = if solvers.is_empty() {
                    "the run has none".to_string()
                } else {
                    format!("the run's are {}", solvers.join(", "))
                };
                return Err(format!(
                    "{flag} {n}=…: `{n}` is not a --solver NAME ({list}); name an external \
                     solver of the run"
                ));
            }
        }
        Ok(())
    }
}
