//! `--shard I/N`: a stable share of a run's cases. Case `i` (0-based, over all inputs in
//! order) belongs to shard `i mod N + 1`, whatever the thread count or machine, so N runs
//! with shards 1/N … N/N cover every case exactly once and `merge` puts them back together.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (`--shard I/N`, written `I/N`): the cases whose 0-based index
/// `i` has `i mod count = index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, 1-based: 1 ≤ `index` ≤ `count`.
    pub index: u32,
    /// How many shards the run is split into.
    pub count: u32,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether case `case` (0-based, over all inputs in order) is in this shard.
    pub fn contains(self, case: usize) -> bool {
        case % self.count as usize == (self.index - 1) as usize
    }
    /// The position of a case of this shard among the shard's cases.
    pub fn position(self, case: usize) -> usize {
        case / self.count as usize
    }
    /// The case at `position` among the shard's cases (the inverse of [`Shard::position`]).
    pub fn case_at(self, position: usize) -> usize {
        position * self.count as usize + (self.index - 1) as usize
    }
    /// How many of `total` cases are in this shard.
    pub fn len(self, total: usize) -> usize {
        (total + self.count as usize - self.index as usize) / self.count as usize
    }
    /// The shard's cases among `total`, in order.
    pub fn cases(self, total: usize) -> impl Iterator<Item = usize> {
        ((self.index - 1) as usize..total).step_by(self.count as usize)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}`: write I/N with 1 ≤ I ≤ N, e.g. 2/8 (the second of 8 shards)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_case_once() {
        for n in 1..5u32 {
            let mut seen = [0; 11];
            for i in 1..=n {
                let s: Shard = format!("{i}/{n}").parse().unwrap();
                let mine: Vec<usize> = s.cases(11).collect();
                assert_eq!(mine.len(), s.len(11));
                for (p, &c) in mine.iter().enumerate() {
                    assert!(s.contains(c));
                    assert_eq!(s.position(c), p);
                    seen[c] += 1;
                }
            }
            assert!(seen.iter().all(|&x| x == 1));
        }
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err());
        }
    }
}
