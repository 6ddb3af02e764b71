//! `--rows SPEC`: the dataset rows a run solves, by data-row number (1-based, counted under
//! the header over all inputs in order, blank and `#` comment lines not counted), as a list
//! of numbers and ranges: `38,40,25,44`, `1-10,17`. The rows are numbers, not ids: they name
//! a row of any dataset, whatever its ids look like (in Korf's 100 and 50 the ids are the row
//! numbers). The chosen rows are the run's cases, in input order, numbered 0, 1, … so that
//! `--shard I/N` splits them as it splits a whole dataset, and rows outside the selection are
//! only counted, never read as problems.

use super::{InputError, InputErrorKind, InputFile};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A set of data rows (`--rows`): disjoint ranges of 0-based row indices in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rows {
    /// Half-open ranges `[from, to)` of 0-based row indices, sorted, neither touching nor
    /// overlapping.
    ranges: Vec<(usize, usize)>,
    /// `before[k]`: how many rows the ranges before range `k` hold.
    before: Vec<usize>,
}

impl Rows {
    /// The rows in the ranges `spans` (0-based, half-open, any order, may overlap).
    fn of(mut spans: Vec<(usize, usize)>) -> Rows {
        spans.sort_unstable();
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (from, to) in spans {
            match ranges.last_mut() {
                Some(last) if from <= last.1 => last.1 = last.1.max(to),
                _ => ranges.push((from, to)),
            }
        }
        let mut before = Vec::with_capacity(ranges.len());
        let mut n = 0;
        for &(from, to) in &ranges {
            before.push(n);
            n += to - from;
        }
        Rows { ranges, before }
    }

    /// How many rows are chosen.
    pub fn len(&self) -> usize {
        self.ranges
            .last()
            .map_or(0, |&(f, t)| self.before[self.before.len() - 1] + t - f)
    }

    /// Whether none is (never, for a parsed spec).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The case that row `row` (0-based, over all inputs) is, when it is chosen: its
    /// position among the chosen rows.
    pub fn case_of(&self, row: usize) -> Option<usize> {
        let k = self.ranges.partition_point(|&(_, to)| to <= row);
        let &(from, _) = self.ranges.get(k)?;
        (from <= row).then(|| self.before[k] + row - from)
    }

    /// The row (0-based, over all inputs) that case `case` is (the inverse of
    /// [`Rows::case_of`]).
    ///
    /// # Panics
    /// `case` ≥ [`Rows::len`].
    pub fn row_of(&self, case: usize) -> usize {
        assert!(
            case < self.len(),
            "case {case} of {} chosen rows",
            self.len()
        );
        let k = self.before.partition_point(|&b| b <= case) - 1;
        self.ranges[k].0 + case - self.before[k]
    }

    /// How many of the chosen rows are among `total` rows (all of them, when none is
    /// [`Rows::beyond`]).
    pub fn within(&self, total: usize) -> usize {
        self.case_of(total).unwrap_or_else(|| {
            let k = self.ranges.partition_point(|&(from, _)| from < total);
            (0..k).map(|j| self.ranges[j].1 - self.ranges[j].0).sum()
        })
    }

    /// The chosen rows that are not among `total` rows, as the spec would write them
    /// (1-based), or `None` when every chosen row exists.
    pub fn beyond(&self, total: usize) -> Option<String> {
        let past: Vec<(usize, usize)> = self
            .ranges
            .iter()
            .filter(|r| r.1 > total)
            .map(|&(f, t)| (f.max(total), t))
            .collect();
        (!past.is_empty()).then(|| Rows::of(past).to_string())
    }
}

/// Refuses `--rows` that name rows the inputs `files` do not have.
///
/// # Errors
/// [`InputErrorKind::NoSuchRows`], naming the files, the rows and how many there are.
pub(crate) fn exist(rows: Option<&Rows>, files: &[InputFile]) -> Result<(), InputError> {
    let total: usize = files.iter().map(|f| f.rows).sum();
    match rows.and_then(|r| r.beyond(total)) {
        None => Ok(()),
        Some(missing) => {
            let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            let kind = InputErrorKind::NoSuchRows { missing, total };
            Err(InputError::new(names.join(", "), None, kind))
        }
    }
}

impl fmt::Display for Rows {
    /// The canonical spec: 1-based, in order, ranges merged (`1-10,17,25`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, &(from, to)) in self.ranges.iter().enumerate() {
            let sep = if k == 0 { "" } else { "," };
            match to - from {
                1 => write!(f, "{sep}{}", from + 1)?,
                _ => write!(f, "{sep}{}-{}", from + 1, to)?,
            }
        }
        Ok(())
    }
}

/// How to write a spec, for the errors.
const HOW: &str = "list data rows by number, counted from 1 under the header (rows are \
                   counted, not ids), e.g. 38,40 or 1-10,17";

impl FromStr for Rows {
    type Err = String;
    fn from_str(s: &str) -> Result<Rows, String> {
        let number = |t: &str| -> Result<usize, String> {
            let t = t.trim();
            match t.parse::<usize>() {
                Ok(0) => Err(format!(
                    "row 0 does not exist: rows are counted from 1 (the first row under the \
                     header); {HOW}"
                )),
                Ok(n) => Ok(n),
                Err(_) => Err(format!(
                    "`{}` is not a row number: {HOW}",
                    crate::util::clip(t, 40)
                )),
            }
        };
        let mut spans = Vec::new();
        for item in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (from, to) = match item.split_once('-') {
                // A range names both ends, and only two: `1-`, `-3` and `1-2-3` are refused
                // as a whole.
                Some((a, b)) if a.trim().is_empty() || b.trim().is_empty() || b.contains('-') => {
                    return Err(format!(
                        "`{}` is not a range of rows: write FIRST-LAST with both ends, e.g. \
                         1-10; {HOW}",
                        crate::util::clip(item, 40)
                    ))
                }
                Some((a, b)) => (number(a)?, number(b)?),
                None => (number(item)?, number(item)?),
            };
            if from > to {
                return Err(format!(
                    "`{item}` runs backwards: write the smaller row first ({to}-{from})"
                ));
            }
            spans.push((from - 1, to));
        }
        if spans.is_empty() {
            return Err(format!("`{s}` names no row: {HOW}"));
        }
        Ok(Rows::of(spans))
    }
}

impl Serialize for Rows {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rows {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rows, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of 0..30 against a plain list of the chosen ones.
    #[test]
    fn cases_and_rows_agree_with_the_list_the_spec_names() {
        for (spec, canonical) in [
            ("38,40,25,44", "25,38,40,44"),
            ("1-10,17", "1-10,17"),
            (" 3 , 2-4,9-9,5 ", "2-5,9"),
            ("7,1-3,4", "1-4,7"),
        ] {
            let rows: Rows = spec.parse().unwrap();
            assert_eq!(rows.to_string(), canonical);
            assert_eq!(canonical.parse::<Rows>().unwrap(), rows);
            let mut want: Vec<usize> = Vec::new();
            for item in spec.split(',') {
                let (a, b) = item.trim().split_once('-').unwrap_or((item, item));
                let (a, b): (usize, usize) = (a.trim().parse().unwrap(), b.trim().parse().unwrap());
                want.extend((a - 1)..b);
            }
            want.sort_unstable();
            want.dedup();
            assert_eq!(rows.len(), want.len(), "{spec}");
            for row in 0..60 {
                let case = want.iter().position(|&r| r == row);
                assert_eq!(rows.case_of(row), case, "{spec}: row {row}");
                if let Some(c) = case {
                    assert_eq!(rows.row_of(c), row);
                }
            }
        }
    }

    #[test]
    fn specs_that_name_nothing_or_no_row_are_refused() {
        for bad in ["", ",", " , ", "0", "3-1", "a", "1-", "-4", "1,x", "2.5"] {
            let e = bad.parse::<Rows>().unwrap_err();
            assert!(
                e.contains("row") && e.contains("e.g.") || e.contains("backwards"),
                "{e}"
            );
        }
        let rows: Rows = "5,48-52,60".parse().unwrap();
        assert_eq!(rows.beyond(50).as_deref(), Some("51-52,60"));
        assert_eq!(rows.beyond(60), None);
        assert_eq!(
            (rows.within(50), rows.within(49), rows.within(5)),
            (4, 3, 1)
        );
        assert_eq!(
            (rows.within(4), rows.within(51), rows.within(100)),
            (0, 5, 7)
        );
    }
}
