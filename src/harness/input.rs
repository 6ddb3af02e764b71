//! Reading datasets: CSV rows → cases.
//!
//! A dataset is CSV with a header row. `start` is required; `id`, `goal`, `expected_steps`
//! (−1 = unsolvable) and `size` (`3x4`) are optional; other columns are ignored. Blank lines
//! and lines starting with `#` are skipped. Lines may end in `\n`, `\r\n` or a lone `\r`,
//! mixed in one file; a UTF-8 byte-order mark is skipped. A row that cannot be read becomes a case with an
//! error (status `invalid` in the results): one bad row never costs the others their results.
//! A file that cannot be read at all is an [`InputError`], reported before any solving.

use crate::puzzle::{Board, Shape};
use crate::search::Problem;
use crate::util::clip;
use std::fmt;
use std::io::Read;
use std::sync::Arc;

/// The small dataset `tilebench run` uses when no file is given.
pub const BUILTIN_NAME: &str = "<builtin>/seeds.csv";
/// The text of that dataset (`inputs/seeds.csv`, compiled in), named [`BUILTIN_NAME`] in the
/// outputs.
pub const BUILTIN: &str = include_str!("../../inputs/seeds.csv");

/// One input row: a start, a goal, an optional known answer, and where it came from.
#[derive(Clone, Debug)]
pub struct Case {
    /// The input file, as named on the command line (`-` for stdin).
    pub source: Arc<str>,
    /// The 1-based line of the row in its file.
    pub line: u64,
    /// The `id` column, or empty.
    pub id: String,
    /// The start as written.
    pub start_text: String,
    /// The goal as written (the default goal when the row has none).
    pub goal_text: String,
    /// The known optimal number of moves; −1 means unsolvable.
    pub expected_steps: Option<i64>,
    /// The problem, or why the row is invalid (the message names file, line and problem).
    pub problem: Result<Problem, String>,
}

/// A dataset file's facts for run.json.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct InputFile {
    /// The file as named on the command line (`-` for stdin, [`BUILTIN_NAME`] for the
    /// built-in dataset).
    pub path: String,
    /// Rows read as cases (the header, blank lines and `#` comments not counted).
    pub rows: usize,
    /// Of those, the rows that could not be read as a problem (status `invalid`).
    pub invalid_rows: usize,
    /// The file's size in bytes.
    pub bytes: usize,
    /// The FNV-1a 64-bit hash of the file's bytes, as 16 hex digits: `--resume` refuses a
    /// file whose hash changed.
    pub fnv1a64: String,
}

/// Options that apply to every row.
#[derive(Clone, Debug, Default)]
pub struct InputOptions {
    /// Board shape for rows without a `size` column (otherwise inferred from the cell count).
    pub size: Option<Shape>,
    /// Goal for rows without one (otherwise the standard goal: tiles in order, blank last).
    pub goal: Option<String>,
}

/// A file that cannot be used at all.
#[derive(Debug)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for InputError {}

/// Reads every dataset in `paths` (`-` = stdin) and returns the files' facts and all cases,
/// in file order then row order. An empty `paths` reads the built-in dataset.
///
/// # Errors
/// When a file (or stdin) cannot be read, or when [`parse_dataset`] rejects one: the first
/// such file ends the reading.
pub fn read_inputs(
    paths: &[String],
    opts: &InputOptions,
) -> Result<(Vec<InputFile>, Vec<Case>), InputError> {
    each_once(paths)?;
    let mut files = Vec::new();
    let mut cases = Vec::new();
    if paths.is_empty() {
        let (f, c) = parse_dataset(BUILTIN_NAME, BUILTIN.as_bytes(), opts)?;
        files.push(f);
        cases.extend(c);
    }
    for p in paths {
        let bytes = if p == "-" {
            let mut buf = Vec::new();
            std::io::stdin().read_to_end(&mut buf).map_err(|e| {
                InputError(format!(
                    "cannot read standard input: {}",
                    crate::util::io_reason(&e)
                ))
            })?;
            buf
        } else {
            std::fs::read(p).map_err(|e| {
                InputError(match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        format!("{p}: no such file; check the path (datasets ship in inputs/)")
                    }
                    std::io::ErrorKind::IsADirectory => format!(
                        "{p}: a directory, not a dataset; give a CSV file (datasets ship in \
                         inputs/)"
                    ),
                    _ => format!("{p}: cannot read: {}", crate::util::io_reason(&e)),
                })
            })?
        };
        let (f, c) = parse_dataset(p, &bytes, opts)?;
        files.push(f);
        if cases.is_empty() {
            cases = c; // no copy of a large file's cases
        } else {
            cases.extend(c);
        }
    }
    Ok((files, cases))
}

/// Refuses a file named twice (as the same path, or two paths to one file) and stdin named
/// twice: the first would have every row solved twice under two names, the second finds
/// stdin already read.
fn each_once(paths: &[String]) -> Result<(), InputError> {
    let mut seen: std::collections::HashMap<std::path::PathBuf, (usize, &str)> = Default::default();
    for (j, p) in paths.iter().enumerate() {
        let key = std::fs::canonicalize(p).unwrap_or_else(|_| p.into());
        let Some(&(i, q)) = seen.get(&key) else {
            seen.insert(key, (j, p));
            continue;
        };
        let (i, j) = (i + 1, j + 1);
        return Err(InputError(if p == "-" {
            format!(
                "`-` (standard input) is given twice, as files {i} and {j}; standard input can \
                 be read only once: give `-` once, and put the other rows in a file"
            )
        } else if p == q {
            format!(
                "{p} is given twice, as files {i} and {j}; its rows would be solved twice: give \
                 each file once"
            )
        } else {
            format!(
                "{q} and {p} (files {i} and {j}) are the same file; its rows would be solved \
                 twice, under two names: give each file once"
            )
        }));
    }
    Ok(())
}

/// Column positions of the known fields.
struct Columns {
    start: usize,
    id: Option<usize>,
    goal: Option<usize>,
    expected: Option<usize>,
    size: Option<usize>,
}

impl Columns {
    /// The known fields' positions in `header` (read on line `header_line`); `start` is
    /// required.
    fn find(
        label: &str,
        header: &csv::StringRecord,
        header_line: u64,
    ) -> Result<Columns, InputError> {
        let find = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        for name in ["start", "id", "goal", "expected_steps", "size"] {
            let at: Vec<String> = (0..header.len())
                .filter(|&i| header[i].trim().eq_ignore_ascii_case(name))
                .map(|i| (i + 1).to_string())
                .collect();
            if let [first @ .., last] = &at[..] {
                if !first.is_empty() {
                    return Err(InputError(format!(
                        "{label}:{header_line}: the header names `{name}` more than once (columns {} and {last}), \
                         so it is not clear which to read: rename or remove all but one",
                        first.join(", ")
                    )));
                }
            }
        }
        Ok(Columns {
            start: find("start").ok_or_else(|| {
                InputError(format!(
                    "{label}:{header_line}: no `start` column in the header ({}); the header must name at least `start` \
                     (optional: id, goal, expected_steps, size)",
                    clip(&header.iter().collect::<Vec<_>>().join(","), 80)
                ))
            })?,
            id: find("id"),
            goal: find("goal"),
            expected: find("expected_steps"),
            size: find("size"),
        })
    }
}

/// A row as split from the file: its line, and its record or why it could not be read.
type RawRow = (u64, Result<csv::StringRecord, String>);

/// Parses one dataset's bytes. `label` names it in messages.
///
/// # Errors
/// When the bytes are not UTF-8, when `opts.goal` is not a board, when the file is empty or
/// its header cannot be read, or when the header has no `start` column. Bad rows are not
/// errors: they become cases whose `problem` is an `Err`.
pub fn parse_dataset(
    label: &str,
    bytes: &[u8],
    opts: &InputOptions,
) -> Result<(InputFile, Vec<Case>), InputError> {
    let text = unify_line_ends(decode(label, bytes)?);
    let text: &str = &text;
    let default_goal = default_goal(opts)?;

    let lines = LineIndex::new(text.as_bytes());
    let mut reader = csv_reader(text.as_bytes());
    let mut records = reader.records().filter(|r| !matches!(r, Ok(r) if blank(r)));
    let (header, header_line) = read_header(label, text, &lines, &mut records)?;
    let cols = Columns::find(label, &header, header_line)?;
    let file_shape = ShapeRule::for_file(&cols, opts);

    // The CSV reader must see the file in order (a quoted field may span lines), so rows are
    // split here, one after another; turning them into cases (two board parses, a parity
    // test) is the larger part and runs in parallel below.
    let body = body_start(text, &header);
    // A file without quotes has one record a line: a big one is split at line ends into
    // pieces read in parallel. (A quoted field may hold a line end, so with quotes one
    // reader reads the file in order.)
    let parallel =
        text.len() - body > PARALLEL_READ_BYTES && !text.as_bytes()[body..].contains(&b'"');
    let maker = CaseMaker {
        label,
        source: Arc::from(label),
        cols,
        opts,
        default_goal,
    };
    // The cases, and the checksum of the bytes meanwhile.
    let (cases, fnv1a64) = rayon::join(
        || {
            if parallel {
                maker.cases_in_pieces(text, body, &lines, file_shape)
            } else {
                maker.cases(read_in_order(text, &lines, records), file_shape)
            }
        },
        || crate::util::fnv1a64(bytes),
    );
    let file = InputFile {
        path: label.to_string(),
        rows: cases.len(),
        invalid_rows: cases.iter().filter(|c| c.problem.is_err()).count(),
        bytes: bytes.len(),
        fnv1a64,
    };
    Ok((file, cases))
}

/// The dataset's bytes as UTF-8 text, without a byte-order mark.
fn decode<'a>(label: &str, bytes: &'a [u8]) -> Result<&'a str, InputError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = LineIndex::new(&bytes[..at]).line(at as u64);
        InputError(format!(
            "{label}:{line}: not valid UTF-8 (byte 0x{:02x}); tilebench reads UTF-8 CSV: re-save the file as UTF-8",
            bytes[at]
        ))
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// The text with every lone `\r` (an old Mac line end) made a `\n`, byte for byte, so
/// offsets and line numbers stay the same. The CSV reader ends a `#` comment only at `\n`:
/// in a file of lone `\r`s, a comment line would swallow the rest of the file.
fn unify_line_ends(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let lone = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !(text.contains('\r') && (0..b.len()).any(lone)) {
        return text.into();
    }
    let unified: Vec<u8> = (0..b.len())
        .map(|i| if lone(i) { b'\n' } else { b[i] })
        .collect();
    // One ASCII byte for another: still UTF-8.
    String::from_utf8(unified)
        .expect("ASCII replaced by ASCII")
        .into()
}

/// The --goal board, for rows without a goal.
fn default_goal(opts: &InputOptions) -> Result<Option<Board>, InputError> {
    match &opts.goal {
        Some(g) => Ok(Some(
            Board::parse(g, opts.size).map_err(|e| InputError(format!("--goal `{g}`: {e}")))?,
        )),
        None => Ok(None),
    }
}

/// The header, the first record that is not blank or a comment, and its line.
fn read_header(
    label: &str,
    text: &str,
    lines: &LineIndex,
    records: &mut impl Iterator<Item = csv::Result<csv::StringRecord>>,
) -> Result<(csv::StringRecord, u64), InputError> {
    match records.next() {
        Some(Ok(r)) => {
            let line = r
                .position()
                .map_or(1, |p| lines.line(record_start(text, p.byte()) as u64));
            Ok((r, line))
        }
        Some(Err(e)) => Err(InputError(format!("{label}: cannot read the header: {e}"))),
        None => Err(InputError(format!(
            "{label}: the file is empty; a dataset needs a header row with a `start` column, then one row per case"
        ))),
    }
}

/// Where the rows start: after the header's line.
fn body_start(text: &str, header: &csv::StringRecord) -> usize {
    let header_start = record_start(text, header.position().map_or(0, |p| p.byte()));
    text.as_bytes()[header_start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |i| header_start + i + 1)
}

/// The rows after the header, from one reader that reads the file in order (as a file with
/// quotes must be read).
fn read_in_order(
    text: &str,
    lines: &LineIndex,
    records: impl Iterator<Item = csv::Result<csv::StringRecord>>,
) -> Vec<RawRow> {
    let mut rows = Vec::new();
    let mut records = records.peekable();
    while let Some(rec) = records.next() {
        let last = records.peek().is_none();
        let (line, result) = match rec {
            Ok(r) => {
                let byte = r.position().map_or(0, |p| record_start(text, p.byte()));
                let line = lines.line(byte as u64);
                // A quote that is never closed swallows the rest of the file into one field:
                // say so, instead of reporting a board with too many cells.
                if last && unclosed_quote(text.get(byte..).unwrap_or("")) {
                    let end = lines.line(text.len().saturating_sub(1) as u64);
                    (
                        line,
                        Err(format!(
                            "a quoted field opened on this line is never closed, so lines {line}–{end} \
                             were read as one row; add the closing `\"`"
                        )),
                    )
                } else {
                    (line, Ok(r))
                }
            }
            Err(e) => {
                let line = e
                    .position()
                    .map_or(0, |p| lines.line(record_start(text, p.byte()) as u64));
                (line, Err(e.to_string()))
            }
        };
        rows.push((line, result));
    }
    rows
}

/// Turns one dataset's rows into cases.
struct CaseMaker<'a> {
    /// The dataset's name in messages.
    label: &'a str,
    /// The same, shared by its cases.
    source: Arc<str>,
    cols: Columns,
    opts: &'a InputOptions,
    default_goal: Option<Board>,
}

impl CaseMaker<'_> {
    /// The case of one row: its problem, or why the row is invalid.
    fn case(&self, (line, result): RawRow, rule: &mut ShapeRule) -> Case {
        match result {
            Ok(r) => self.case_of((line, Ok(&r)), rule),
            Err(msg) => self.case_of((line, Err(msg)), rule),
        }
    }

    /// [`CaseMaker::case`] of a borrowed record.
    fn case_of(
        &self,
        (line, result): (u64, Result<&csv::StringRecord, String>),
        rule: &mut ShapeRule,
    ) -> Case {
        match result {
            Ok(r) => row_to_case(
                &self.source,
                line,
                r,
                &self.cols,
                self.opts,
                self.default_goal,
                rule,
            ),
            Err(msg) => Case {
                source: self.source.clone(),
                line,
                id: String::new(),
                start_text: String::new(),
                goal_text: String::new(),
                expected_steps: None,
                problem: Err(format!("{}:{line}: {msg}", self.label)),
            },
        }
    }

    /// Every row's case, in order: rows one by one until the file's shape is fixed (by the
    /// first board read, when the file has no `size` column), then the rest in parallel.
    fn cases(&self, rows: Vec<RawRow>, mut file_shape: ShapeRule) -> Vec<Case> {
        use rayon::prelude::*;
        let mut cases = Vec::with_capacity(rows.len());
        let mut rows = rows.into_iter();
        while matches!(file_shape, ShapeRule::FromFirstBoard(None)) {
            match rows.next() {
                Some(row) => cases.push(self.case(row, &mut file_shape)),
                None => break,
            }
        }
        let rule = file_shape;
        // Consumed, so each record is freed by the thread that read it.
        let rest: Vec<_> = rows.collect();
        cases.par_extend(
            rest.into_par_iter()
                .with_min_len(1024)
                .map(|row| self.case(row, &mut rule.clone())),
        );
        cases
    }
}

/// Files with more row bytes than this, and no quotes, are read in parallel pieces.
const PARALLEL_READ_BYTES: usize = 1 << 20;

/// The CSV reader every dataset is read with.
fn csv_reader(bytes: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(bytes)
}

/// Lines of spaces only are blank lines too (the reader sees them as one empty field).
fn blank(r: &csv::StringRecord) -> bool {
    r.len() == 1 && r[0].is_empty()
}

/// Cuts `bytes[from..]` at line ends into about `8 × threads` pieces: the pieces' bounds.
fn cut_at_line_ends(bytes: &[u8], from: usize) -> Vec<usize> {
    let pieces = 8 * rayon::current_num_threads();
    let step = (bytes.len() - from).div_ceil(pieces).max(1);
    let mut cuts = vec![from];
    while let Some(&last) = cuts.last() {
        if last >= bytes.len() {
            break;
        }
        let target = (last + step).min(bytes.len());
        let end = bytes[target..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| target + i + 1);
        cuts.push(end);
    }
    cuts
}

impl CaseMaker<'_> {
    /// The cases of the rows in `text[from..to]` (whole lines), read by one reader that
    /// reuses one record; `each` says whether to go on after a case (false: stop there) and
    /// the byte after the last row read is returned with the cases.
    fn piece(
        &self,
        text: &str,
        (from, to): (usize, usize),
        lines: &LineIndex,
        rule: &mut ShapeRule,
        each: impl Fn(&ShapeRule) -> bool,
    ) -> (Vec<Case>, usize) {
        let mut reader = csv_reader(&text.as_bytes()[from..to]);
        let mut rec = csv::StringRecord::new();
        let mut cases = Vec::new();
        let at = |p: Option<&csv::Position>| {
            lines.line(record_start(text, from as u64 + p.map_or(0, csv::Position::byte)) as u64)
        };
        loop {
            let row = match reader.read_record(&mut rec) {
                Ok(false) => break,
                Ok(true) if blank(&rec) => continue,
                Ok(true) => (at(rec.position()), Ok(&rec)),
                Err(e) => (at(e.position()), Err(e.to_string())),
            };
            cases.push(self.case_of(row, rule));
            if !each(rule) {
                break;
            }
        }
        (cases, from + reader.position().byte() as usize)
    }

    /// Every row's case for a file without quotes (one record a line): rows one by one until
    /// the file's shape is fixed (by the first board read, when the file has no `size`
    /// column), then the rest cut into pieces at line ends, each read by its own reader in
    /// parallel, in file order.
    fn cases_in_pieces(
        &self,
        text: &str,
        body: usize,
        lines: &LineIndex,
        mut rule: ShapeRule,
    ) -> Vec<Case> {
        use rayon::prelude::*;
        let unfixed = |r: &ShapeRule| matches!(r, ShapeRule::FromFirstBoard(None));
        let (mut cases, from) = if unfixed(&rule) {
            self.piece(text, (body, text.len()), lines, &mut rule, unfixed)
        } else {
            (Vec::new(), body)
        };
        let cuts = cut_at_line_ends(text.as_bytes(), from);
        let parts: Vec<Vec<Case>> = cuts
            .par_windows(2)
            .map(|w| {
                self.piece(text, (w[0], w[1]), lines, &mut rule.clone(), |_| true)
                    .0
            })
            .collect();
        cases.reserve(parts.iter().map(Vec::len).sum());
        for part in parts {
            cases.extend(part);
        }
        cases
    }
}

/// Whether boards of several sizes may share the file.
#[derive(Clone, Copy)]
enum ShapeRule {
    /// A `size` column or --size says each row's shape.
    PerRow,
    /// The first board read fixes the shape (and its line); `None` until then.
    FromFirstBoard(Option<(Shape, u64)>),
}

impl ShapeRule {
    /// The rule for a file. Without a `size` column or --size, the first board fixes the
    /// file's shape: a board of another size is most likely a typo (a missing or extra tile),
    /// and it would otherwise silently change which strategies run on the whole file.
    fn for_file(cols: &Columns, opts: &InputOptions) -> ShapeRule {
        if cols.size.is_none() && opts.size.is_none() {
            ShapeRule::FromFirstBoard(None)
        } else {
            ShapeRule::PerRow
        }
    }
}

/// Line numbers of byte offsets. A line ends at `\n`, `\r\n` or a lone `\r`, as the CSV
/// reader reads them (the reader's own line count is off on `\r\n` files).
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &[u8]) -> LineIndex {
        let mut starts = vec![0];
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }

    /// The 1-based line holding `byte`.
    fn line(&self, byte: u64) -> u64 {
        let byte = usize::try_from(byte).unwrap_or(usize::MAX);
        self.starts.partition_point(|&s| s <= byte).max(1) as u64
    }
}

/// Where a record really starts. The reader reports where it began reading it: just after
/// the previous record, before the line ends, blank lines and comment lines it skipped.
fn record_start(text: &str, byte: u64) -> usize {
    let b = text.as_bytes();
    let mut i = usize::try_from(byte).unwrap_or(b.len()).min(b.len());
    loop {
        while i < b.len() && (b[i] == b'\r' || b[i] == b'\n') {
            i += 1;
        }
        if i < b.len() && b[i] == b'#' {
            while i < b.len() && b[i] != b'\r' && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        return i;
    }
}

/// Whether the record at the start of `rest` opens a quoted field that the file never
/// closes. A quote opens a field only as its first character (elsewhere it is a plain
/// character, as the reader reads it); `""` inside a quoted field is an escaped quote.
fn unclosed_quote(rest: &str) -> bool {
    let b = rest.as_bytes();
    let mut i = 0;
    loop {
        if b.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match b[i..].iter().position(|&c| c == b'"') {
                    None => return true,
                    Some(k) if b.get(i + k + 1) == Some(&b'"') => i += k + 2,
                    Some(k) => {
                        i += k + 1;
                        break;
                    }
                }
            }
        }
        while i < b.len() && !matches!(b[i], b',' | b'\n' | b'\r') {
            i += 1;
        }
        if b.get(i) != Some(&b',') {
            return false;
        }
        i += 1;
    }
}

/// Warnings about ids used by more than one row of a file (`compare` matches such rows by
/// their order of appearance), one per repeat, naming both lines.
pub fn duplicate_ids(cases: &[Case]) -> Vec<String> {
    let mut first: rustc_hash::FxHashMap<(&str, &str), u64> = Default::default();
    first.reserve(cases.len());
    let mut out = Vec::new();
    for c in cases.iter().filter(|c| !c.id.is_empty()) {
        match first.get(&(&*c.source, c.id.as_str())) {
            Some(&line) => out.push(format!(
                "{}:{}: id `{}` is also used on line {line}; `compare` will match these rows by \
                 their order in the file: give each row its own id",
                c.source,
                c.line,
                clip(&c.id, 40)
            )),
            None => {
                first.insert((&*c.source, c.id.as_str()), c.line);
            }
        }
    }
    out
}

fn row_to_case(
    source: &Arc<str>,
    line: u64,
    r: &csv::StringRecord,
    cols: &Columns,
    opts: &InputOptions,
    default_goal: Option<Board>,
    file_shape: &mut ShapeRule,
) -> Case {
    let field = |i: Option<usize>| i.and_then(|i| r.get(i)).unwrap_or("").trim();
    let start_field = field(Some(cols.start));
    let goal_field = field(cols.goal);
    // The texts as written are kept only for invalid rows (valid rows are written back from
    // the parsed boards), so a valid row allocates only its id.
    let mut case = Case {
        source: source.clone(),
        line,
        id: field(cols.id).to_string(),
        start_text: String::new(),
        goal_text: String::new(),
        expected_steps: None,
        problem: Err(String::new()),
    };
    let at = At(source, line);
    let problem = (|| {
        if r.get(cols.start).is_none() {
            return Err(format!(
                "{at}: the row has {} fields and no `start` value (column {})",
                r.len(),
                cols.start + 1
            ));
        }
        let size = match field(cols.size) {
            "" => opts.size,
            s => Some(s.parse::<Shape>().map_err(|e| format!("{at}: size: {e}"))?),
        };
        let expected = field(cols.expected);
        if !expected.is_empty() {
            let e: i64 = expected.parse().map_err(|_| {
                let digits = expected.strip_prefix(['-', '+']).unwrap_or(expected);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    format!(
                        "{at}: expected_steps {} is out of range: give the number of moves, or −1 for unsolvable",
                        clip(expected, 24)
                    )
                } else {
                    format!(
                        "{at}: expected_steps `{}` is not a whole number (−1 = unsolvable)",
                        clip(expected, 24)
                    )
                }
            })?;
            if e < -1 {
                return Err(format!(
                    "{at}: expected_steps {e} is negative; use −1 for unsolvable pairs"
                ));
            }
            case.expected_steps = Some(e);
        }
        let start = Board::parse(start_field, size).map_err(|e| format!("{at}: start: {e}"))?;
        if let ShapeRule::FromFirstBoard(fixed) = file_shape {
            match *fixed {
                None => *fixed = Some((start.shape(), line)),
                Some((shape, first)) if shape != start.shape() => {
                    return Err(format!(
                        "{at}: start: {} cells, but this file's boards have {} ({shape}, as on line {first}); \
                         put boards of another size in their own file, or give every row a `size` column",
                        start.shape().cells(),
                        shape.cells(),
                    ))
                }
                Some(_) => {}
            }
        }
        let goal = if !goal_field.is_empty() {
            // Read the goal on its own first, so a goal of another size is named as such.
            match Board::parse(goal_field, size) {
                Ok(g) => g,
                Err(crate::puzzle::BoardError::CellCount { .. }) => {
                    Board::parse(goal_field, Some(start.shape())).map_err(|e| {
                        format!("{at}: goal: {e} (start and goal must be the same size)")
                    })?
                }
                Err(e) => return Err(format!("{at}: goal: {e}")),
            }
        } else {
            match default_goal {
                Some(g) if g.shape() == start.shape() => g,
                Some(g) => {
                    return Err(format!(
                        "{at}: start is a {} board but --goal is a {} board",
                        start.shape(),
                        g.shape()
                    ))
                }
                None => Board::standard_goal(start.shape()),
            }
        };
        Problem::new(start, goal).map_err(|e| format!("{at}: {e}"))
    })();
    if problem.is_err() {
        case.start_text = start_field.to_string();
        case.goal_text = goal_field.to_string();
    }
    case.problem = problem;
    case
}

/// `file:line`, formatted only when a message needs it.
pub(crate) struct At<'a>(pub &'a str, pub u64);

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.0, self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unclosed_quotes() {
        assert!(unclosed_quote("a,\"1 2 3\nb,4\n"));
        assert!(unclosed_quote("\"x\"\""));
        assert!(!unclosed_quote("a,\"1 2\",3\nb"));
        assert!(!unclosed_quote("a\"b,1 2 3\n"));
        assert!(!unclosed_quote("\"say \"\"hi\"\"\",1\n"));
        assert!(!unclosed_quote(""));
    }

    #[test]
    fn bad_utf8_is_placed_on_its_line_whatever_the_line_ends() {
        for end in ["\n", "\r\n", "\r"] {
            let mut bytes = format!("id,start{end}a,1 2 3 x 4 6 7 5 8{end}").into_bytes();
            bytes.push(0xe9); // Latin-1 `é`
            let e = parse_dataset("f.csv", &bytes, &InputOptions::default()).unwrap_err();
            assert!(e.0.starts_with("f.csv:3: not valid UTF-8"), "{end:?}: {e}");
        }
    }

    #[test]
    fn line_index_counts_every_kind_of_line_end() {
        let l = LineIndex::new(b"a\r\nb\nc\rd");
        assert_eq!([0, 3, 5, 7].map(|b| l.line(b)), [1, 2, 3, 4]);
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn a_large_file_read_in_parallel_pieces_reads_as_one_reader_reads_it() {
        // Over PARALLEL_READ_BYTES of rows with every kind of line: comments, blank and
        // whitespace-only lines, CRLF ends, bad boards, a board of another size, extra
        // fields. A quote in a comment at the end makes the same rows go through one reader.
        let mut text = String::from("# head\r\nid,start,expected_steps\n");
        let mut i = 0;
        while text.len() < 3 * PARALLEL_READ_BYTES {
            text.push_str(&match i % 13 {
                0 => "# a comment\n".to_string(),
                1 => "\n   \n".to_string(),
                2 => format!("{i},1 2 3 4 5 6 7 7 x,\r\n"),
                3 => format!("{i},1 2 3 4 5 6 7 8 9 10 11 x 12 13 14 15,\n"),
                4 => format!("{i},1 2 3 4 5 6 7 x 8,1,extra\n"),
                5 => format!("{i},1 2 3 4 5 6 7 x 8,oops\n"),
                _ => format!("{i},2 3 4 1 5 x 7 6 8,19\r\n"),
            });
            i += 1;
        }
        let read = |t: &str| parse_dataset("p.csv", t.as_bytes(), &InputOptions::default());
        let (_, pieces) = read(&text).unwrap();
        let (_, one) = read(&(text.clone() + "# \"quoted\"\n")).unwrap();
        assert_eq!(pieces.len(), one.len());
        assert!(pieces.iter().any(|c| c.problem.is_err()));
        for (a, b) in pieces.iter().zip(&one) {
            assert_eq!(
                (a.line, &a.id, a.expected_steps, format!("{:?}", a.problem)),
                (b.line, &b.id, b.expected_steps, format!("{:?}", b.problem))
            );
        }
    }

    #[test]
    fn rows_keep_their_line_numbers_in_a_large_file() {
        // Many rows, with bad rows, blank lines and comments scattered.
        let mut text = String::from("# a comment\nid,start\n");
        let mut bad_lines = Vec::new();
        let mut line = 3u64;
        for i in 0..40_000 {
            if i % 9_999 == 5 {
                text.push_str("# comment inside\n\n");
                line += 2;
            }
            if i % 7_919 == 3 {
                text.push_str(&format!("{i},1 2 3 4 5 6 7 7 x\n"));
                bad_lines.push(line);
            } else {
                text.push_str(&format!("{i},1 2 3 4 5 6 7 x 8\n"));
            }
            line += 1;
        }
        let (file, cases) =
            parse_dataset("t.csv", text.as_bytes(), &InputOptions::default()).unwrap();
        assert_eq!(file.rows, 40_000);
        assert_eq!(cases.len(), 40_000);
        let got: Vec<u64> = cases
            .iter()
            .filter(|c| c.problem.is_err())
            .map(|c| c.line)
            .collect();
        assert_eq!(got, bad_lines);
        for c in cases.iter().filter(|c| c.problem.is_err()) {
            let msg = c.problem.as_ref().unwrap_err();
            assert!(msg.starts_with(&format!("t.csv:{}:", c.line)), "{msg}");
        }
        // Ids are in file order: nothing lost or reordered.
        assert!(cases.iter().enumerate().all(|(i, c)| c.id == i.to_string()));
    }
}

/// The board shapes of the valid cases, each once, in order.
pub fn shapes_of(cases: &[Case]) -> Vec<crate::puzzle::Shape> {
    let mut shapes: Vec<_> = cases
        .iter()
        .filter_map(|c| c.problem.as_ref().ok().map(|p| p.start.shape()))
        .collect();
    shapes.sort();
    shapes.dedup();
    shapes
}
