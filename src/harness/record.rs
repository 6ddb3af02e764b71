//! One record per case × strategy: what every report is made from.

use crate::search::Status;
use serde::Serialize;

/// The status column: a search status, or why there was no search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowStatus {
    Solved,
    Unsolvable,
    Limit,
    /// The input row could not be read.
    Invalid,
    /// The strategy failed on this case (refused the board, or panicked; an external program
    /// crashed, printed something that is not an answer, or could not be asked).
    Error,
    /// An external program's answer is wrong: an illegal move, a path that does not reach the
    /// goal, `unsolvable` for a solvable pair (or an answer for an unsolvable one), or a step
    /// count that differs from the optimum.
    Wrong,
}

impl RowStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::Unsolvable => "unsolvable",
            RowStatus::Limit => "limit",
            RowStatus::Invalid => "invalid",
            RowStatus::Error => "error",
            RowStatus::Wrong => "wrong",
        }
    }
    /// Whether a solver ran to an answer or a budget (and so has a latency, and counters when
    /// the solver reports them).
    pub fn searched(self) -> bool {
        matches!(
            self,
            RowStatus::Solved | RowStatus::Unsolvable | RowStatus::Limit | RowStatus::Wrong
        )
    }
}

impl std::str::FromStr for RowStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<RowStatus, String> {
        [
            RowStatus::Solved,
            RowStatus::Unsolvable,
            RowStatus::Limit,
            RowStatus::Invalid,
            RowStatus::Error,
            RowStatus::Wrong,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
        .ok_or_else(|| format!("`{s}` is not a row status"))
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

pub use crate::search::Counters;

/// The result of one strategy on one case.
#[derive(Clone, Debug)]
pub struct Record {
    /// Index of the case in the run's case list.
    pub case: usize,
    /// The strategy's name: a built-in strategy or an external solver (`--solver NAME=…`).
    pub strategy: String,
    pub status: RowStatus,
    /// Moves in the path found (solved), −1 when unsolvable, `None` otherwise. On `wrong`
    /// rows, what the program claimed (its path's length, its number, or −1).
    pub steps: Option<i64>,
    /// Whether `steps` equals the case's `expected_steps`; `None` when there is nothing to compare.
    pub matches_expected: Option<bool>,
    /// External solvers only: whether a valid path is as short as the optimum; `None` for
    /// built-in strategies (optimal by construction) and when there is nothing to judge.
    pub optimal: Option<bool>,
    pub counters: Counters,
    /// Median wall time of the solve alone over the repeats, in nanoseconds.
    pub latency_ns: u64,
    /// Fastest of the repeats, in nanoseconds.
    pub latency_min_ns: u64,
    /// The move string (kept only with `--paths`).
    pub path: Option<String>,
    /// Why the row is invalid, an error or wrong, or a note on an external answer; empty otherwise.
    pub message: String,
}

impl Record {
    /// A record with no result yet: status `invalid`, nothing measured.
    pub fn empty(case: usize, strategy: &str) -> Record {
        Record {
            case,
            strategy: strategy.to_string(),
            status: RowStatus::Invalid,
            steps: None,
            matches_expected: None,
            optimal: None,
            counters: Counters::default(),
            latency_ns: 0,
            latency_min_ns: 0,
            path: None,
            message: String::new(),
        }
    }

    /// Compares a result with the expected answer (−1 = unsolvable).
    pub fn compare(status: RowStatus, steps: Option<i64>, expected: Option<i64>) -> Option<bool> {
        let e = expected?;
        match status {
            RowStatus::Solved | RowStatus::Unsolvable => Some(steps == Some(e)),
            _ => None,
        }
    }
}
