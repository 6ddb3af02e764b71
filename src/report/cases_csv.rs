//! cases.csv: one row per case × strategy, in input order then strategy order.

use crate::harness::input::Case;
use crate::harness::record::Record;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The columns of cases.csv, in order. Counters and latencies are empty on `invalid` and
/// `error` rows (and counters on rows of external programs that do not report them); `steps`
/// is −1 for `unsolvable`; `path` is filled only with `--paths`. Columns added after the first
/// release are `#[serde(default)]`, so older results (baselines) still read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRow {
    pub input: String,
    pub line: u64,
    pub id: String,
    pub strategy: String,
    pub start: String,
    pub goal: String,
    pub status: String,
    pub steps: Option<i64>,
    pub expected_steps: Option<i64>,
    pub matches_expected: Option<bool>,
    /// External solvers: whether the answer is as short as the optimum (empty otherwise).
    #[serde(default)]
    pub optimal: Option<bool>,
    pub expanded: Option<u64>,
    pub generated: Option<u64>,
    pub stored: Option<u64>,
    pub peak_frontier: Option<u64>,
    pub latency_ns: Option<u64>,
    pub latency_min_ns: Option<u64>,
    pub path: Option<String>,
    pub message: String,
}

impl CaseRow {
    pub fn new(case: &Case, r: &Record) -> CaseRow {
        let searched = r.status.searched();
        let when = |v: Option<u64>| v.filter(|_| searched);
        CaseRow {
            input: case.source.to_string(),
            line: case.line,
            id: case.id.clone(),
            strategy: r.strategy.clone(),
            start: case
                .problem
                .as_ref()
                .map_or_else(|_| case.start_text.clone(), |p| p.start.to_string()),
            goal: case
                .problem
                .as_ref()
                .map_or_else(|_| case.goal_text.clone(), |p| p.goal.to_string()),
            status: r.status.as_str().to_string(),
            steps: r.steps,
            expected_steps: case.expected_steps,
            matches_expected: r.matches_expected,
            optimal: r.optimal,
            expanded: when(r.counters.expanded),
            generated: when(r.counters.generated),
            stored: when(r.counters.stored),
            peak_frontier: when(r.counters.peak_frontier),
            latency_ns: when(Some(r.latency_ns)),
            latency_min_ns: when(Some(r.latency_min_ns)),
            path: r.path.clone(),
            message: r.message.clone(),
        }
    }

    /// The key that matches a row across runs: input, id (or line when there is no id), strategy.
    pub fn key(&self) -> (String, String, String) {
        let which = if self.id.is_empty() {
            format!("line {}", self.line)
        } else {
            self.id.clone()
        };
        (self.input.clone(), which, self.strategy.clone())
    }
}

/// Writes cases.csv.
pub fn write(w: impl Write, cases: &[Case], records: &[Record]) -> csv::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    for r in records {
        out.serialize(CaseRow::new(&cases[r.case], r))?;
    }
    out.flush()?;
    Ok(())
}

/// Reads a cases.csv back. Errors name the file and line.
pub fn read(path: &Path) -> Result<Vec<CaseRow>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    r.deserialize()
        .map(|row| {
            row.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                format!("{}:{line}: {e}", path.display())
            })
        })
        .collect()
}
