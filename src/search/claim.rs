//! What a solver promises about its answers, and what the judge holds it to: the shortest
//! path ([`Claim::Optimal`]), a path at most W times the shortest ([`Claim::Within`]:
//! weighted A* with weight W), or any path that reaches the goal ([`Claim::Valid`]: greedy
//! best-first search).
//!
//! ```
//! use tilebench::search::Claim;
//! let c: Claim = "within=1.2".parse().unwrap();
//! assert_eq!(c.bound(20), Some(24));
//! assert_eq!(c.to_string(), "within=1.2");
//! assert_eq!("optimal".parse::<Claim>().unwrap().bound(20), Some(20));
//! assert_eq!("valid".parse::<Claim>().unwrap().bound(20), None);
//! assert!("within=0.5".parse::<Claim>().is_err());
//! ```

use super::astar::Weight;
use std::fmt;

/// A solver's promise about the length of its paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Claim {
    /// Every path is a shortest one.
    #[default]
    Optimal,
    /// Every path is at most W times the shortest (rounded down to whole moves).
    Within(Weight),
    /// Any path that reaches the goal.
    Valid,
}

impl Claim {
    /// The longest path the claim allows when the shortest is `optimum` moves; `None` when
    /// any valid path is allowed.
    pub fn bound(self, optimum: u64) -> Option<u64> {
        match self {
            Claim::Optimal => Some(optimum),
            Claim::Within(w) => Some(w.times(optimum)),
            Claim::Valid => None,
        }
    }

    /// The claim as a sentence's words: `optimal`, `within 1.5 × the optimum`, `any valid path`.
    pub fn describe(self) -> String {
        match self {
            Claim::Optimal => "optimal".into(),
            Claim::Within(w) => format!("within {w} × the optimum"),
            Claim::Valid => "any valid path".into(),
        }
    }
}

impl fmt::Display for Claim {
    /// `optimal`, `within=W` or `valid`: what `--solver-claim` takes and cases.csv's `claim`
    /// column holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claim::Optimal => f.write_str("optimal"),
            Claim::Within(w) => write!(f, "within={w}"),
            Claim::Valid => f.write_str("valid"),
        }
    }
}

impl std::str::FromStr for Claim {
    type Err = String;
    /// Reads `optimal`, `within=W` (W a weight from 1 to 1000, up to three decimals) or `valid`.
    fn from_str(s: &str) -> Result<Claim, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("optimal") {
            return Ok(Claim::Optimal);
        }
        if t.eq_ignore_ascii_case("valid") {
            return Ok(Claim::Valid);
        }
        match t.split_once('=') {
            Some((k, w)) if k.trim().eq_ignore_ascii_case("within") => Ok(Claim::Within(
                w.parse().map_err(|e| format!("claim `{t}`: {e}"))?,
            )),
            _ => Err(format!(
                "`{t}` is not a claim; write `optimal` (shortest paths), `within=W` (at most W \
                 × the shortest, e.g. within=1.5) or `valid` (any path that reaches the goal)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_round_down_to_whole_moves() {
        let w = |s: &str| Claim::Within(s.parse().unwrap());
        assert_eq!(w("1.5").bound(19), Some(28));
        assert_eq!(w("1").bound(19), Some(19));
        assert_eq!(w("1.25").bound(20), Some(25));
        assert_eq!(Claim::Optimal.bound(0), Some(0));
        for text in ["optimal", "valid", "within=1.5", "within=2"] {
            assert_eq!(text.parse::<Claim>().unwrap().to_string(), text);
        }
        let bad = "fast".parse::<Claim>().unwrap_err();
        assert!(bad.contains("`within=W`"), "{bad}");
    }
}
