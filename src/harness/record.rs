//! One record per case × strategy: what every report is made from.

use crate::search::{Stats, Status, Strategy};
use serde::Serialize;

/// The status column: a search status, or why there was no search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RowStatus {
    Solved,
    Unsolvable,
    Limit,
    /// The input row could not be read.
    Invalid,
    /// The strategy failed on this case (refused the board, or panicked).
    Error,
}

impl RowStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::Unsolvable => "unsolvable",
            RowStatus::Limit => "limit",
            RowStatus::Invalid => "invalid",
            RowStatus::Error => "error",
        }
    }
    /// Whether a search ran (and so has counters and a latency).
    pub fn searched(self) -> bool {
        matches!(
            self,
            RowStatus::Solved | RowStatus::Unsolvable | RowStatus::Limit
        )
    }
}

impl From<Status> for RowStatus {
    fn from(s: Status) -> RowStatus {
        match s {
            Status::Solved => RowStatus::Solved,
            Status::Unsolvable => RowStatus::Unsolvable,
            Status::Limit => RowStatus::Limit,
        }
    }
}

/// The result of one strategy on one case.
#[derive(Clone, Debug)]
pub struct Record {
    /// Index of the case in the run's case list.
    pub case: usize,
    pub strategy: Strategy,
    pub status: RowStatus,
    /// Moves in the path found (solved), −1 when unsolvable, `None` otherwise.
    pub steps: Option<i64>,
    /// Whether `steps` equals the case's `expected_steps`; `None` when there is nothing to compare.
    pub matches_expected: Option<bool>,
    pub stats: Stats,
    /// Median wall time of the solve alone over the repeats, in nanoseconds.
    pub latency_ns: u64,
    /// Fastest of the repeats, in nanoseconds.
    pub latency_min_ns: u64,
    /// The move string (kept only with `--paths`).
    pub path: Option<String>,
    /// Why the row is invalid or an error; empty otherwise.
    pub message: String,
}

impl Record {
    /// Compares a result with the expected answer (−1 = unsolvable).
    pub fn compare(status: RowStatus, steps: Option<i64>, expected: Option<i64>) -> Option<bool> {
        let e = expected?;
        match status {
            RowStatus::Solved | RowStatus::Unsolvable => Some(steps == Some(e)),
            _ => None,
        }
    }
}
