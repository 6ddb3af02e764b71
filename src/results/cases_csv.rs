//! cases.csv: one row per case × strategy, in input order then strategy order.

use crate::dataset::Case;
use crate::results::record::{Column, Record, RowStatus};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The columns of cases.csv, in order. Counters and latencies are empty on `invalid` and
/// `error` rows (and counters on rows of external programs that do not report them); `steps`
/// is −1 for `unsolvable`; `path` is filled only with `--paths`. Columns added after the first
/// release are `#[serde(default)]`, so older results (baselines) still read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRow {
    /// The dataset file the case came from, as named on the command line.
    pub input: String,
    /// The case's 1-based line in that file.
    pub line: u64,
    /// The row's `id` column, or empty.
    pub id: String,
    /// The solver: a built-in strategy, an external program or a user's solver.
    pub strategy: String,
    /// The start board, blank as `x` (as written in the dataset when the row is invalid).
    pub start: String,
    /// The goal board, blank as `x` (as written in the dataset when the row is invalid).
    pub goal: String,
    /// How the case ended for this solver.
    pub status: RowStatus,
    /// Moves in the answer; −1 when unsolvable; empty when there is no answer.
    pub steps: Option<i64>,
    /// The dataset's known optimal number of moves (−1 = unsolvable), or empty.
    pub expected_steps: Option<i64>,
    /// Whether `steps` equals `expected_steps`; empty when there is nothing to compare.
    pub matches_expected: Option<bool>,
    /// External solvers: whether the answer is as short as the optimum (empty otherwise).
    #[serde(default)]
    pub optimal: Option<bool>,
    /// States whose successors were generated.
    pub expanded: Option<u64>,
    /// Successor states created, duplicates included.
    pub generated: Option<u64>,
    /// Distinct states held for duplicate detection, at the peak.
    pub stored: Option<u64>,
    /// The largest size of the queue or open list, in states.
    pub peak_frontier: Option<u64>,
    /// Median wall time of the solve over the repeats, in nanoseconds.
    pub latency_ns: Option<u64>,
    /// Fastest of the repeats, in nanoseconds.
    pub latency_min_ns: Option<u64>,
    /// The blank's moves as a string (`ullddr…`), only with `--paths`.
    pub path: Option<String>,
    /// Why the row is invalid, an error or wrong, or a note; empty otherwise.
    pub message: String,
    /// CPU time of a process run for this case alone (per-case external programs), µs.
    #[serde(default)]
    pub cpu_us: Option<u64>,
    /// Peak memory of a process run for this case alone, KB.
    #[serde(default)]
    pub max_rss_kb: Option<u64>,
    /// The optimum, where known: the one a judged answer was compared with
    /// (`expected_steps`, or astar's length), or a solved row's `expected_steps`.
    #[serde(default)]
    pub optimum_steps: Option<u64>,
    /// A path's steps ÷ `optimum_steps` (1 = a shortest path; 4 decimals), whatever the
    /// solver claims, on solved rows and on `wrong` ones whose valid path was over its claim;
    /// empty for other rows and where the optimum is not known.
    #[serde(default)]
    pub suboptimality: Option<f64>,
    /// A `limit` row: which budget ran out (`time`, `nodes`, `states` or `memory`); empty
    /// otherwise, and where it is not known.
    #[serde(default)]
    pub limit_reason: String,
    /// What the solver promises about its paths: `optimal`, `within=W` or `valid` (empty in
    /// files written before the claims, and in rows written without their solver).
    #[serde(default)]
    pub claim: String,
    /// Built-in and in-process solvers: the most heap the case held at once, in bytes
    /// (counted by the binary's allocator; empty for external programs and older files).
    #[serde(default)]
    pub peak_heap_bytes: Option<u64>,
    /// The board's shape, `WxH` (`3x4`): a board of 12 cells may be 3x4 or 4x3, so a reader
    /// needs it to replay a path. Empty for an invalid row, and in files written before the
    /// column (their boards are square: `verify` reads them as such).
    #[serde(default)]
    pub size: String,
    /// The built-in strategy the row's solver runs (`astar` for the configuration labelled
    /// `astar:heuristic=pdb`), `external` for an external program, empty for a library
    /// user's solver (and in files written before the configuration columns).
    #[serde(default)]
    pub algorithm: String,
    /// The row's cells in the option columns ([`crate::search::configuration::columns`]
    /// after `algorithm`: `heuristic`, `partition`, …, `weight`, `hash_buckets`), in that
    /// order: the value the solver ran with where its strategy reads the option, empty
    /// otherwise (and in files written before the column). No cell at all when every one is
    /// empty.
    #[serde(skip)]
    pub options: Vec<String>,
}

impl CaseRow {
    /// The row written for record `r` of case `case`; counters and latencies are left empty
    /// unless the solver searched ([`RowStatus::searched`]).
    pub fn new(case: &Case, r: &Record) -> CaseRow {
        let searched = r.status.searched();
        let when = |v: Option<u64>| v.filter(|_| searched);
        CaseRow {
            input: case.source.to_string(),
            line: case.line,
            id: case.id.to_string(),
            strategy: r.strategy.to_string(),
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
            latency_ns: when(r.latency_ns),
            latency_min_ns: when(r.latency_min_ns),
            path: r.path.clone(),
            message: r.message.clone(),
            cpu_us: when(r.cpu_us),
            max_rss_kb: when(r.max_rss_kb),
            optimum_steps: r.optimum_steps,
            suboptimality: r.suboptimality(),
            limit_reason: r
                .limit_reason
                .map_or("", crate::search::LimitReason::as_str)
                .to_string(),
            claim: String::new(),
            peak_heap_bytes: when(r.peak_heap_bytes),
            size: case
                .problem
                .as_ref()
                .map_or_else(|_| String::new(), |p| p.start.shape().to_string()),
            algorithm: String::new(),
            options: Vec::new(),
        }
    }

    /// Its solver's configuration cells ([`crate::search::configuration::columns`]).
    pub(crate) fn setting(&self) -> crate::search::configuration::Setting {
        let mut out = vec![self.algorithm.clone()];
        out.extend(self.options.iter().cloned());
        out.resize(crate::search::configuration::columns().len(), String::new());
        out
    }

    /// The record this row was written from (`case`: the case's index in its run).
    pub fn to_record(&self, case: usize) -> Record {
        Record {
            case,
            strategy: self.strategy.as_str().into(),
            status: self.status,
            steps: self.steps,
            matches_expected: self.matches_expected,
            optimal: self.optimal,
            optimum_steps: self.optimum_steps,
            counters: crate::search::Counters {
                expanded: self.expanded,
                generated: self.generated,
                stored: self.stored,
                peak_frontier: self.peak_frontier,
            },
            latency_ns: self.latency_ns,
            latency_min_ns: self.latency_min_ns,
            cpu_us: self.cpu_us,
            max_rss_kb: self.max_rss_kb,
            peak_heap_bytes: self.peak_heap_bytes,
            path: self.path.clone(),
            message: self.message.clone(),
            limit_reason: crate::search::LimitReason::parse(&self.limit_reason),
        }
    }
}

/// Where a file's option columns are ([`crate::search::configuration::columns`] after
/// `algorithm`), found by their names in its header: cases.csv's and summary.csv's readers'.
/// A column the file lacks (written before it) reads as empty.
pub(crate) struct OptionColumns(Vec<Option<usize>>);

impl OptionColumns {
    /// The option columns of a file with this `header`.
    pub(crate) fn locate(header: &csv::StringRecord) -> OptionColumns {
        let at = crate::search::configuration::columns()[1..]
            .iter()
            .map(|c| header.iter().position(|h| h == *c))
            .collect();
        OptionColumns(at)
    }

    /// A row's option cells, in the columns' order.
    pub(crate) fn cells(&self, record: &csv::StringRecord) -> Vec<String> {
        self.0
            .iter()
            .map(|at| at.and_then(|i| record.get(i)).unwrap_or("").to_string())
            .collect()
    }
}

/// Option cells as [`CaseRow::options`] holds them: none when every one is empty.
pub(crate) fn some_cells(cells: Vec<String>) -> Vec<String> {
    if cells.iter().all(String::is_empty) {
        Vec::new()
    } else {
        cells
    }
}

/// cases.csv's columns before the options: [`Column::CASES_CSV`]'s names, ending with
/// `algorithm` (a test checks that [`CaseRow`]'s fields are the same, in the same order).
pub const FIXED_COLUMNS: [&str; Column::CASES_CSV.len()] = {
    let mut names = [""; Column::CASES_CSV.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Column::CASES_CSV[i].name();
        i += 1;
    }
    names
};

/// The header of cases.csv: [`FIXED_COLUMNS`], then one column per option of the built-in
/// strategies ([`crate::search::configuration::columns`] after `algorithm`).
pub fn columns() -> &'static [&'static str] {
    static COLUMNS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    COLUMNS.get_or_init(|| {
        let mut out = FIXED_COLUMNS.to_vec();
        out.extend(&crate::search::configuration::columns()[1..]);
        out
    })
}

/// Rows formatted per parallel task, and tasks per batch written before the next batch
/// starts: memory stays bounded however many rows there are.
const CHUNK: usize = 8192;
const BATCH: usize = 16;

/// The last goal's text in the rows a task formats (rows of a dataset mostly share their
/// goal, formatted once for them all; another goal is formatted into the same buffer).
struct LastGoal(
    Option<crate::puzzle::Board>,
    [u8; crate::puzzle::Board::TEXT_ROOM],
    usize,
);

impl Default for LastGoal {
    fn default() -> LastGoal {
        LastGoal(None, [0; crate::puzzle::Board::TEXT_ROOM], 0)
    }
}

impl LastGoal {
    fn text(&mut self, b: crate::puzzle::Board) -> &[u8] {
        if self.0 != Some(b) {
            self.2 = b.write_ascii(&mut self.1, b'x');
            self.0 = Some(b);
        }
        &self.1[..self.2]
    }
}

/// The cells of a row that come from its solver rather than its record: its `claim`, then its
/// configuration ([`crate::search::configuration::columns`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SolverCells {
    /// What it promises about its paths (`optimal`, `within=W`, `valid`).
    claim: String,
    /// Its configuration's cells.
    setting: crate::search::configuration::Setting,
    /// The same as CSV fields (joined by commas, quoted where a cell needs it): written at
    /// once on every row.
    joined: Vec<u8>,
}

impl SolverCells {
    /// The cells of a solver that claims `claim`, configured as `setting` (one cell for each
    /// of [`crate::search::configuration::columns`]).
    pub(crate) fn new(claim: String, setting: &[String]) -> SolverCells {
        let mut joined = Vec::new();
        let mut row = crate::util::CsvRow::new(&mut joined);
        for cell in setting {
            row.field(cell);
        }
        row.end();
        joined.pop(); // the line end
        SolverCells {
            claim,
            joined,
            setting: setting.to_vec(),
        }
    }

    /// Its configuration's cells (summary.csv's too).
    pub(crate) fn setting(&self) -> &[String] {
        &self.setting
    }
}

/// Appends one record's row (the same fields as [`CaseRow::new`], without building one), its
/// solver's cells given (none: left empty).
fn write_row(
    out: &mut Vec<u8>,
    case: &Case,
    r: &Record,
    solver: Option<&SolverCells>,
    goals: &mut LastGoal,
) {
    let mut row = crate::util::CsvRow::new(out);
    row.field(case.source.as_bytes());
    row.number(case.line);
    row.field(case.id.as_str());
    row.field(&r.strategy);
    match &case.problem {
        Ok(p) => {
            row.plain_in_place(crate::puzzle::Board::TEXT_ROOM, |b| {
                p.start.write_ascii(b, b'x')
            });
            row.plain(goals.text(p.goal));
        }
        Err(_) => {
            row.field(&case.start_text);
            row.field(&case.goal_text);
        }
    }
    row.plain(r.status.as_str());
    r.write_steps(&mut row);
    match case.expected_steps {
        Some(e) => row.signed(e),
        None => row.plain(""),
    }
    r.write_tail(&mut row);
    row.plain(solver.map_or("", |s| s.claim.as_str()));
    r.write_last(&mut row);
    match &case.problem {
        Ok(p) => {
            // `WxH` (as `Shape`'s Display) without the formatting machinery: a side is at
            // most two digits.
            let shape = p.start.shape();
            let mut buf = [0u8; 5];
            let mut n = 0;
            for (i, side) in [shape.width(), shape.height()].into_iter().enumerate() {
                if i == 1 {
                    buf[n] = b'x';
                    n += 1;
                }
                if side >= 10 {
                    buf[n] = b'0' + (side / 10) as u8;
                    n += 1;
                }
                buf[n] = b'0' + (side % 10) as u8;
                n += 1;
            }
            row.plain(&buf[..n]);
        }
        Err(_) => row.plain(""),
    }
    match solver {
        Some(s) => row.fields_written(&s.joined),
        None => {
            for _ in 0..crate::search::configuration::columns().len() {
                row.plain("");
            }
        }
    }
    row.end();
}

/// Writes cases.csv. Rows are formatted in parallel, in chunks, and written in order.
///
/// # Errors
/// A write to `w` that fails.
pub fn write(mut w: impl Write, cases: &[Case], records: &[Record]) -> csv::Result<()> {
    write_header(&mut w)?;
    write_rows(&mut w, |i| &cases[i], records, &[])?;
    w.flush()?;
    Ok(())
}

/// Writes cases.csv's header line (see [`write_rows`] for its rows).
///
/// # Errors
/// A write to `w` that fails.
pub(crate) fn write_header(mut w: impl Write) -> csv::Result<()> {
    let mut header = csv::Writer::from_writer(Vec::new());
    header.write_record(columns())?;
    w.write_all(&header.into_inner().map_err(|e| e.into_error())?)?;
    Ok(())
}

/// Writes rows of cases.csv, one per record (of `case(record.case)`), in the records'
/// order. Rows are formatted in parallel, in parts of [`CHUNK`] rows.
/// `solvers` are the solvers' own cells ([`SolverCells`]) when the records come case by case,
/// one per solver in this order (a run's); empty, those columns are left empty.
///
/// # Errors
/// A write to `w` that fails.
pub(crate) fn write_rows<'a>(
    mut w: impl Write,
    case: impl Fn(usize) -> &'a Case + Sync,
    records: &[Record],
    solvers: &[SolverCells],
) -> csv::Result<()> {
    use rayon::prelude::*;
    for (b, batch) in records.chunks(CHUNK * BATCH).enumerate() {
        let parts: Vec<Vec<u8>> = batch
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut out = Vec::with_capacity(chunk.len() * 128);
                let from = b * CHUNK * BATCH + c * CHUNK;
                format_rows(&mut out, &case, chunk, solvers, from);
                out
            })
            .collect();
        for part in parts {
            w.write_all(&part)?;
        }
    }
    Ok(())
}

/// Appends the rows of `records` (of `case(record.case)`) to `out`, in order, on this
/// thread. `solvers` are the solvers' own cells, in the order their records come (empty,
/// those columns are left empty); `records[0]` is the `first`-th record of the run, whose
/// solver is `first` modulo their number.
pub(crate) fn format_rows<'a>(
    out: &mut Vec<u8>,
    case: impl Fn(usize) -> &'a Case,
    records: &[Record],
    solvers: &[SolverCells],
    first: usize,
) {
    let k = solvers.len().max(1);
    let mut goals = LastGoal::default();
    for (i, r) in records.iter().enumerate() {
        write_row(
            out,
            case(r.case),
            r,
            solvers.get((first + i) % k),
            &mut goals,
        );
    }
}

/// Columns added after the first release (`#[serde(default)]` in [`CaseRow`]): older results,
/// such as saved baselines, may lack them, as they may lack any option column. Every other
/// column of [`FIXED_COLUMNS`] must be there.
pub(crate) const LATER_COLUMNS: [&str; 10] = [
    "optimal",
    "cpu_us",
    "max_rss_kb",
    "optimum_steps",
    "suboptimality",
    "limit_reason",
    "claim",
    "peak_heap_bytes",
    "size",
    "algorithm",
];

/// Reads a cases.csv back. Errors name the file (and line, and column) and say what to do.
///
/// # Errors
/// A file that cannot be opened or read; an empty file (0 bytes: a run that did not finish);
/// a file without the header line, or whose header lacks a column of [`FIXED_COLUMNS`] (other than
/// `LATER_COLUMNS`: a missing column would read as empty cells); a row that is not a
/// [`CaseRow`] (a value that does not parse).
pub fn read(path: &Path) -> Result<Vec<CaseRow>, ReadError> {
    Rows::open(path)?.collect()
}

/// A cases.csv read one row at a time, in file order: readers of runs of any size (verify,
/// plot, compare) hold only the rows they work on. Errors are [`read`]'s.
pub struct Rows {
    path: std::path::PathBuf,
    reader: csv::Reader<std::fs::File>,
    header: csv::StringRecord,
    record: csv::StringRecord,
    /// Where the option columns are ([`CaseRow::options`]).
    options: OptionColumns,
    done: bool,
}

const REDO: &str = "give the cases.csv of a finished `tilebench run`, or run it again";

/// Why a cases.csv cannot be read ([`read`], [`Rows`]): each message names the file and
/// line (and the column, for a value) and says what to do; [`path`](ReadError::path) and
/// [`line`](ReadError::line) give the position alone.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be opened.
    #[error("{}: cannot read: {source}", .path.display())]
    Open {
        /// The file.
        path: std::path::PathBuf,
        /// The CSV reader's error (the system's, for a file that cannot be opened).
        source: csv::Error,
    },
    /// The header line cannot be read (bytes that are not UTF-8, a quote never closed).
    #[error("{}:1: cannot read the header line: {source}; {REDO}", .path.display())]
    Header {
        /// The file.
        path: std::path::PathBuf,
        /// The CSV reader's error.
        source: csv::Error,
    },
    /// The file is empty: the run that wrote it did not finish.
    #[error("{} is empty ({bytes} bytes, no header line): a cases.csv starts with the line `{}`; the run that wrote it did not finish: {REDO}", .path.display(), header_start())]
    Empty {
        /// The file.
        path: std::path::PathBuf,
        /// Its size: 0, or a line of blank cells.
        bytes: u64,
    },
    /// The first line names none of a cases.csv's columns: the header was lost, or this is
    /// another kind of file.
    #[error("{}:1: no header line: the first line (`{}`) names none of the columns of a cases.csv (`{}`); the header was lost or this is another kind of file: {REDO}", .path.display(), crate::util::clip(.first_line, 60), header_start())]
    NoHeader {
        /// The file.
        path: std::path::PathBuf,
        /// Its first line, as read.
        first_line: String,
    },
    /// The header lacks columns every cases.csv has.
    #[error("{}:1: the header has no `{}` column{}; a cases.csv written by tilebench has every one of `{}` (its cells would read as empty): {REDO}", .path.display(), .missing.join("`, `"), if .missing.len() > 1 { "s" } else { "" }, FIXED_COLUMNS.join(","))]
    MissingColumns {
        /// The file.
        path: std::path::PathBuf,
        /// The columns it lacks, in [`FIXED_COLUMNS`]' order.
        missing: Vec<String>,
    },
    /// A line the CSV reader cannot read (a quote never closed, bytes that are not UTF-8).
    #[error("{}:{line}: {source}; the file is damaged: {REDO}", .path.display())]
    Damaged {
        /// The file.
        path: std::path::PathBuf,
        /// The 1-based line (1 for the header).
        line: u64,
        /// The CSV reader's error.
        source: csv::Error,
    },
    /// A row whose value in a column cannot be read (a status that is not one, a count that
    /// is not a number).
    #[error("{}:{line}: {reason}; {REDO}", .path.display())]
    Row {
        /// The file.
        path: std::path::PathBuf,
        /// The row's 1-based line.
        line: u64,
        /// The column, where the reader can tell which.
        column: Option<String>,
        /// What is wrong, naming the column and its value.
        reason: String,
    },
}

impl ReadError {
    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::Open { path, .. }
            | ReadError::Header { path, .. }
            | ReadError::Empty { path, .. }
            | ReadError::NoHeader { path, .. }
            | ReadError::MissingColumns { path, .. }
            | ReadError::Damaged { path, .. }
            | ReadError::Row { path, .. } => path,
        }
    }

    /// The 1-based line the error is on (1 for the header), where there is one.
    pub fn line(&self) -> Option<u64> {
        match self {
            ReadError::Open { .. } | ReadError::Empty { .. } => None,
            ReadError::Header { .. }
            | ReadError::NoHeader { .. }
            | ReadError::MissingColumns { .. } => Some(1),
            ReadError::Damaged { line, .. } | ReadError::Row { line, .. } => Some(*line),
        }
    }

    /// The column a [`ReadError::Row`] is about, where known.
    pub fn column(&self) -> Option<&str> {
        match self {
            ReadError::Row { column, .. } => column.as_deref(),
            _ => None,
        }
    }
}

/// Readers of cases.csv that still report a sentence take this one as it reads.
impl From<ReadError> for String {
    fn from(e: ReadError) -> String {
        e.to_string()
    }
}

/// `input,line,id,strategy,…`: how a cases.csv starts, for messages.
fn header_start() -> String {
    format!("{},…", FIXED_COLUMNS[..4].join(","))
}

impl Rows {
    /// Opens a cases.csv and checks its header (see [`read`]).
    ///
    /// # Errors
    /// As [`read`], for the file and its header.
    pub fn open(path: &Path) -> Result<Rows, ReadError> {
        let at = || path.to_path_buf();
        let mut r = csv::Reader::from_path(path)
            .map_err(|source| ReadError::Open { path: at(), source })?;
        let header = r
            .headers()
            .map_err(|source| ReadError::Header { path: at(), source })?
            .clone();
        if header.iter().all(|h| h.trim().is_empty()) {
            let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
            return Err(ReadError::Empty { path: at(), bytes });
        }
        let missing: Vec<&str> = FIXED_COLUMNS
            .iter()
            .filter(|c| !LATER_COLUMNS.contains(c) && !header.iter().any(|h| h == **c))
            .copied()
            .collect();
        if missing.len() == FIXED_COLUMNS.len() - LATER_COLUMNS.len() {
            return Err(ReadError::NoHeader {
                path: at(),
                first_line: header.iter().collect::<Vec<_>>().join(","),
            });
        }
        if !missing.is_empty() {
            return Err(ReadError::MissingColumns {
                path: at(),
                missing: missing.iter().map(|c| c.to_string()).collect(),
            });
        }
        let options = OptionColumns::locate(&header);
        Ok(Rows {
            path: path.to_path_buf(),
            reader: r,
            header,
            record: csv::StringRecord::new(),
            options,
            done: false,
        })
    }

    /// The next row, if any.
    fn next_row(&mut self) -> Result<Option<CaseRow>, ReadError> {
        match self.reader.read_record(&mut self.record) {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(source) => {
                return Err(ReadError::Damaged {
                    path: self.path.clone(),
                    line: source.position().map_or(0, csv::Position::line),
                    source,
                });
            }
        }
        let (header, record) = (&self.header, &self.record);
        let mut row: CaseRow = record.deserialize(Some(header)).map_err(|e| {
            let (column, reason) = row_problem(header, record, &e);
            ReadError::Row {
                path: self.path.clone(),
                line: record.position().map_or(0, csv::Position::line),
                column,
                reason,
            }
        })?;
        row.options = some_cells(self.options.cells(record));
        Ok(Some(row))
    }
}

/// The message for a row of the cases.csv at `path` that is not a [`CaseRow`]: the file, the
/// line, the column and its value, and what to do (`redo`).
pub(crate) fn unreadable_row(
    path: &Path,
    header: &csv::StringRecord,
    record: &csv::StringRecord,
    e: &csv::Error,
    redo: &str,
) -> String {
    let line = record.position().map_or(0, csv::Position::line);
    let (_, reason) = row_problem(header, record, e);
    format!("{}:{line}: {reason}; {redo}", path.display())
}

/// What is wrong with a row that is not a [`CaseRow`]: the column, where the reader can tell,
/// and a clause naming it and its value (the caller adds the file, line and what to do).
fn row_problem(
    header: &csv::StringRecord,
    record: &csv::StringRecord,
    e: &csv::Error,
) -> (Option<String>, String) {
    let csv::ErrorKind::Deserialize { err, .. } = e.kind() else {
        return (None, e.to_string());
    };
    let column = |i: usize| Some((header.get(i)?, record.get(i)?));
    let field = err
        .field()
        .and_then(|i| column(usize::try_from(i).ok()?))
        // An enum's error (an unknown status) does not say which field it was in.
        .or_else(|| {
            let i = header.iter().position(|h| h == "status")?;
            let (name, value) = column(i)?;
            (!RowStatus::ALL.iter().any(|s| s.as_str() == value)).then_some((name, value))
        });
    match field {
        Some(("status", value)) => (
            Some("status".into()),
            format!(
                "column `status`: `{}` is not a status (one of {}); the file was edited or is \
                 damaged",
                crate::util::clip(value, 40),
                RowStatus::ALL
                    .map(|s| format!("`{}`", s.as_str()))
                    .join(", ")
            ),
        ),
        Some((column, value)) => (
            Some(column.into()),
            format!(
                "column `{column}`: `{}` cannot be read ({}); the file was edited or is damaged",
                crate::util::clip(value, 40),
                err.kind()
            ),
        ),
        None => (None, err.kind().to_string()),
    }
}

/// How many rows of one strategy one input has in a cases.csv (see [`Rows::tally`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tally {
    /// The `input` column.
    pub input: String,
    /// The `strategy` column.
    pub strategy: String,
    /// Rows with this input and strategy.
    pub rows: usize,
    /// The first row's configuration cells ([`crate::search::configuration::columns`]), each
    /// `None` where the file has no such column (written before it); `None` in a file
    /// written before those columns.
    pub setting: Option<Vec<Option<String>>>,
}

impl Rows {
    /// Counts the rows of each (input, strategy) in one pass that reads only those two
    /// columns, in order of first appearance: what a reader needs to know about a whole file
    /// before it streams it (compare pairs the runs' inputs and strategies this way).
    ///
    /// # Errors
    /// A line the CSV reader cannot read (the file is damaged), named by its line.
    pub(crate) fn tally(mut self) -> Result<Vec<Tally>, ReadError> {
        let column = |name: &str| self.header.iter().position(|h| h == name);
        let (Some(input), Some(strategy)) = (column("input"), column("strategy")) else {
            return Err(ReadError::MissingColumns {
                path: self.path.clone(),
                missing: ["input", "strategy"]
                    .into_iter()
                    .filter(|c| column(c).is_none())
                    .map(String::from)
                    .collect(),
            });
        };
        // The configuration's cells, where the file has `algorithm` (an option column it
        // lacks reads as empty).
        let setting: Option<Vec<Option<usize>>> = column("algorithm").map(|_| {
            crate::search::configuration::columns()
                .iter()
                .map(|c| column(c))
                .collect()
        });
        let mut out: Vec<Tally> = Vec::new();
        let mut record = csv::ByteRecord::new();
        loop {
            match self.reader.read_byte_record(&mut record) {
                Ok(true) => {}
                Ok(false) => return Ok(out),
                Err(source) => {
                    return Err(ReadError::Damaged {
                        path: self.path.clone(),
                        line: source.position().map_or(0, csv::Position::line),
                        source,
                    });
                }
            }
            let cell = |i: usize| String::from_utf8_lossy(record.get(i).unwrap_or_default());
            let (i, s) = (cell(input), cell(strategy));
            // Rows come in blocks of one input, then strategies in turn: look from the end.
            match out
                .iter_mut()
                .rev()
                .find(|t| t.input == i && t.strategy == s)
            {
                Some(t) => t.rows += 1,
                None => out.push(Tally {
                    setting: setting
                        .as_ref()
                        .map(|at| at.iter().map(|k| k.map(|k| cell(k).into_owned())).collect()),
                    input: i.into_owned(),
                    strategy: s.into_owned(),
                    rows: 1,
                }),
            }
        }
    }
}

impl Iterator for Rows {
    type Item = Result<CaseRow, ReadError>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_row().transpose();
        self.done = !matches!(next, Some(Ok(_)));
        next
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_row_is_written_byte_for_byte_as_the_csv_crate_writes_it() {
        // Fields with every byte the quoting rule looks at, at every position, and a spread
        // of generated ones (bytes from a small alphabet of the special and plain ones).
        let mut rows: Vec<Vec<Vec<u8>>> = vec![vec![
            b"plain".to_vec(),
            b"".to_vec(),
            b"a,b".to_vec(),
            b"q\"uote".to_vec(),
            b"\"".to_vec(),
            b"line\nbreak".to_vec(),
            b"cr\rx".to_vec(),
            b"  spaced  ".to_vec(),
            b"#hash".to_vec(),
            "\u{fc}n\u{ef}".as_bytes().to_vec(),
            b"1 2 3 4 5 6 7 8 x".to_vec(),
        ]];
        let alphabet = b"a ,\"\n\r#x1";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..500 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let row = (0..1 + (seed >> 61) as usize)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (0..(seed >> 60) as usize)
                        .map(|k| alphabet[((seed >> (4 * k)) % alphabet.len() as u64) as usize])
                        .collect()
                })
                .collect();
            rows.push(row);
        }
        let mut quoted = 0;
        for row in rows
            .into_iter()
            .filter(|r: &Vec<Vec<u8>>| r.len() > 1 || !r[0].is_empty())
        {
            let mut ours = Vec::new();
            let mut w = crate::util::CsvRow::new(&mut ours);
            for f in &row {
                w.field(f);
            }
            w.end();
            let mut theirs = csv::Writer::from_writer(Vec::new());
            theirs.write_record(&row).unwrap();
            let theirs = theirs.into_inner().unwrap();
            quoted += ours.contains(&b'"') as u32;
            if !ours.contains(&b'"') {
                // Text that needs no quotes is written alike by `plain`, which does not look.
                let mut plain = Vec::new();
                let mut w = crate::util::CsvRow::new(&mut plain);
                for f in &row {
                    w.plain(f);
                }
                w.end();
                assert_eq!(plain, ours);
            }
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "{row:?}"
            );
        }
        assert!(quoted > 100, "{quoted}");
    }

    use super::*;
    use crate::dataset::{parse_dataset, InputOptions};
    use crate::harness::runner::{run, RunConfig};
    use crate::search::{registry, Config, Limits};

    #[test]
    fn the_fast_writer_writes_what_case_row_says() {
        let text = "id,start,goal,expected_steps\n\
                    a,2 3 4 1 5 x 7 6 8,,19\n\
                    \"b,c\",1 2 3 4 5 6 7 7 x,,\n\
                    d,2 1 3 4 5 6 7 8 x,,-1\n\
                    e,1 2 3 x 4 6 7 5 8,,4\n\
                    f,1 x 2 3 4 5 6 7 8,x 1 2 3 4 5 6 7 8,\n\
                    g,1 2 3 4 5 6 x 7 8,,2\n";
        let (_, cases) =
            parse_dataset("in,put.csv", text.as_bytes(), &InputOptions::default()).unwrap();
        let cfg = RunConfig {
            threads: 1,
            limits: Limits::default(),
            repeat: 1,
            keep_paths: true,
            order: crate::harness::runner::Order::Shuffled { seed: 5 },
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
        assert_eq!(read.len(), 12);
        // Rows whose goal changes from one row to the next (each task formats a goal once).
        assert_eq!(read[9].goal, "x 1 2 3 4 5 6 7 8");
        assert_eq!(read[10].goal, "1 2 3 4 5 6 7 8 x");
    }

    /// With its solvers' cells, a row ends with each solver's claim and configuration cells,
    /// in the header's columns: the cells joined once are the cells written one by one.
    #[test]
    fn the_solvers_cells_fill_their_columns() {
        let text = "id,start,goal\na,2 3 4 1 5 x 7 6 8,\nb,1 2 3 4 5 6 7 8 x,\n";
        let (_, cases) =
            parse_dataset("in.csv", text.as_bytes(), &InputOptions::default()).unwrap();
        let width = crate::search::configuration::columns().len();
        let solvers: Vec<SolverCells> = (0..2)
            .map(|j| {
                let setting: Vec<String> = (0..width)
                    .map(|c| match (c + j) % 3 {
                        0 => String::new(),
                        // A cell that needs quotes stays one cell.
                        1 if j == 1 => format!("a,\"b{c}"),
                        _ => format!("v{j}.{c}"),
                    })
                    .collect();
                SolverCells::new(["optimal", "within=1.5"][j].to_string(), &setting)
            })
            .collect();
        let records: Vec<Record> = (0..4)
            .map(|i| Record::empty(i / 2, ["s0", "s1"][i % 2]))
            .collect();
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        write_rows(&mut bytes, |i| &cases[i], &records, &solvers).unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let header = r.headers().unwrap().clone();
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        let first = at(crate::search::configuration::columns()[0]);
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        assert_eq!(rows.len(), 4);
        for (i, row) in rows.iter().enumerate() {
            let s = &solvers[i % 2];
            assert_eq!(row.len(), header.len());
            assert_eq!(&row[at("claim")], s.claim);
            let cells: Vec<&str> = row.iter().skip(first).take(width).collect();
            assert_eq!(cells, s.setting, "row {i}");
        }
    }

    /// Each way a cases.csv cannot be read has its file, line and column, and a sentence
    /// that names them and says what to do.
    #[test]
    fn read_errors_have_their_position_and_words() {
        let dir = std::env::temp_dir().join(format!("tilebench-readerr-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let header = FIXED_COLUMNS.join(",");

        let p = file("empty.csv", "");
        let e = read(&p).unwrap_err();
        assert!(matches!(e, ReadError::Empty { bytes: 0, .. }), "{e:?}");
        assert_eq!((e.path(), e.line()), (p.as_path(), None));
        assert_eq!(
            e.to_string(),
            format!(
                "{} is empty (0 bytes, no header line): a cases.csv starts with the line \
                 `input,line,id,strategy,…`; the run that wrote it did not finish: {REDO}",
                p.display()
            )
        );

        let p = file("other.csv", "a,b\n1,2\n");
        let e = read(&p).unwrap_err();
        assert!(matches!(&e, ReadError::NoHeader { first_line, .. } if first_line == "a,b"));
        assert_eq!(e.line(), Some(1));
        assert!(e.to_string().starts_with(&format!(
            "{}:1: no header line: the first line (`a,b`)",
            p.display()
        )));

        let without: Vec<&str> = FIXED_COLUMNS
            .iter()
            .filter(|c| **c != "expanded" && **c != "status")
            .copied()
            .collect();
        let p = file("short.csv", &format!("{}\n", without.join(",")));
        let e = read(&p).unwrap_err();
        let ReadError::MissingColumns { missing, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(missing, &["status", "expanded"]);
        assert!(e.to_string().starts_with(&format!(
            "{}:1: the header has no `status`, `expanded` columns; ",
            p.display()
        )));

        let mut cells = vec![String::new(); FIXED_COLUMNS.len()];
        for (name, value) in [
            ("input", "a.csv"),
            ("line", "2"),
            ("strategy", "bfs"),
            ("status", "banana"),
        ] {
            cells[FIXED_COLUMNS.iter().position(|c| *c == name).unwrap()] = value.into();
        }
        let p = file("row.csv", &format!("{header}\n{}\n", cells.join(",")));
        let e = read(&p).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some("status")));
        assert!(e.to_string().starts_with(&format!(
            "{}:2: column `status`: `banana` is not a status (one of `solved`, ",
            p.display()
        )));
        assert!(e.to_string().ends_with(&format!("is damaged; {REDO}")));

        let p = file("quote.csv", &format!("{header}\n\"a.csv,2\n"));
        let e = read(&p).unwrap_err();
        assert!(matches!(e, ReadError::Damaged { line: 2, .. }), "{e:?}");
        assert!(e.to_string().starts_with(&format!("{}:2: ", p.display())));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
