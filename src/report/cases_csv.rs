//! cases.csv: one row per case × strategy, in input order then strategy order.

use crate::harness::input::Case;
use crate::harness::record::{Record, RowStatus};
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
    pub status: RowStatus,
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
            status: r.status,
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

/// The header of cases.csv: the fields of [`CaseRow`], in order.
pub const COLUMNS: [&str; 19] = [
    "input",
    "line",
    "id",
    "strategy",
    "start",
    "goal",
    "status",
    "steps",
    "expected_steps",
    "matches_expected",
    "optimal",
    "expanded",
    "generated",
    "stored",
    "peak_frontier",
    "latency_ns",
    "latency_min_ns",
    "path",
    "message",
];

/// Rows formatted per parallel task, and tasks per batch written before the next batch
/// starts: memory stays bounded however many rows there are.
const CHUNK: usize = 8192;
const BATCH: usize = 16;

/// Appends one record's row (the same fields as [`CaseRow::new`], without building one).
fn write_row(out: &mut csv::Writer<Vec<u8>>, case: &Case, r: &Record) -> csv::Result<()> {
    let mut num = itoa::Buffer::new();
    let mut board = String::with_capacity(48);
    let searched = r.status.searched();
    out.write_field(case.source.as_bytes())?;
    out.write_field(num.format(case.line))?;
    out.write_field(&case.id)?;
    out.write_field(&r.strategy)?;
    for (text, which) in [(&case.start_text, 0), (&case.goal_text, 1)] {
        board.clear();
        match &case.problem {
            Ok(p) => {
                let b = if which == 0 { p.start } else { p.goal };
                let _ = b.write_to(&mut board, "x");
                out.write_field(&board)?;
            }
            Err(_) => out.write_field(text)?,
        }
    }
    out.write_field(r.status.as_str())?;
    for v in [r.steps, case.expected_steps] {
        out.write_field(v.map_or("", |x| num.format(x)))?;
    }
    for b in [r.matches_expected, r.optimal] {
        out.write_field(match b {
            Some(true) => "true",
            Some(false) => "false",
            None => "",
        })?;
    }
    for v in [
        r.counters.expanded,
        r.counters.generated,
        r.counters.stored,
        r.counters.peak_frontier,
        Some(r.latency_ns),
        Some(r.latency_min_ns),
    ] {
        out.write_field(match v {
            Some(x) if searched => num.format(x),
            _ => "",
        })?;
    }
    out.write_field(r.path.as_deref().unwrap_or(""))?;
    out.write_field(&r.message)?;
    out.write_record(None::<&[u8]>)
}

/// Writes cases.csv. Rows are formatted in parallel, in chunks, and written in order.
pub fn write(mut w: impl Write, cases: &[Case], records: &[Record]) -> csv::Result<()> {
    use rayon::prelude::*;
    let mut header = csv::Writer::from_writer(Vec::new());
    header.write_record(COLUMNS)?;
    w.write_all(&header.into_inner().map_err(|e| e.into_error())?)?;
    for batch in records.chunks(CHUNK * BATCH) {
        let parts: Vec<csv::Result<Vec<u8>>> = batch
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut out = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(Vec::with_capacity(chunk.len() * 128));
                for r in chunk {
                    write_row(&mut out, &cases[r.case], r)?;
                }
                out.into_inner().map_err(|e| e.into_error().into())
            })
            .collect();
        for part in parts {
            w.write_all(&part?)?;
        }
    }
    w.flush()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::input::{parse_dataset, InputOptions};
    use crate::harness::runner::{run, RunConfig};
    use crate::search::{registry, Config, Limits};

    #[test]
    fn the_fast_writer_writes_what_case_row_says() {
        let text = "id,start,goal,expected_steps\n\
                    a,2 3 4 1 5 x 7 6 8,,19\n\
                    \"b,c\",1 2 3 4 5 6 7 7 x,,\n\
                    d,2 1 3 4 5 6 7 8 x,,-1\n\
                    e,1 2 3 x 4 6 7 5 8,,4\n";
        let (_, cases) =
            parse_dataset("in,put.csv", text.as_bytes(), &InputOptions::default()).unwrap();
        let cfg = RunConfig {
            threads: 1,
            limits: Limits::default(),
            repeat: 1,
            keep_paths: true,
        };
        let mut solvers: Vec<_> = ["astar", "bfs-rank"]
            .iter()
            .map(|n| registry::find(n).unwrap().build(&Config::default()))
            .collect();
        let out = run(&cases, &mut solvers, &cfg, &crate::observe::Silent).unwrap();
        let mut bytes = Vec::new();
        write(&mut bytes, &cases, &out.records).unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let read: Vec<CaseRow> = r.deserialize().map(|x| x.unwrap()).collect();
        let want: Vec<CaseRow> = out
            .records
            .iter()
            .map(|rec| CaseRow::new(&cases[rec.case], rec))
            .collect();
        assert_eq!(read, want);
        assert_eq!(read.len(), 8);
    }
}
