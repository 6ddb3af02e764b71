//! Reading datasets: CSV rows → cases.
//!
//! A dataset is CSV with a header row. `start` is required; `id`, `goal`, `expected_steps`
//! (−1 = unsolvable) and `size` (`3x4`) are optional; other columns are ignored. Blank lines
//! and lines starting with `#` are skipped. Lines may end in `\n`, `\r\n` or a lone `\r`,
//! mixed in one file; a UTF-8 byte-order mark is skipped, at the start of the file or of any
//! line. A row that cannot be read becomes a case with an error (status `invalid` in the
//! results): one bad row never costs the others their results.
//! A file that cannot be read at all is an [`InputError`], reported before any solving.
//!
//! A file is read as a stream (`read_dataset`, [`read_all`]): in pieces that end where a
//! record ends (quoted fields may hold line ends), a few parsed in parallel while the next
//! are read, so that what is held is the pieces in flight, never the whole file.

mod pieces;
pub mod rows;
pub mod shard;

use crate::puzzle::{Board, BoardError, Shape};
use crate::search::Problem;
use crate::util::clip;
use pieces::{lines_in, row_lines, rows_in, Pieces, Records};
use shard::Shard;
use std::fmt;
use std::io::Read;

/// The small dataset `tilebench run` uses when no file is given.
pub(crate) const BUILTIN_NAME: &str = "<builtin>/seeds.csv";
/// The text of that dataset (`inputs/seeds.csv`, compiled in), named [`BUILTIN_NAME`] in the
/// outputs.
pub(crate) const BUILTIN: &str = include_str!("../../inputs/seeds.csv");

/// One input row: a start, a goal, an optional known answer, and where it came from.
#[derive(Clone, Debug)]
pub struct Case {
    /// The input file, as named on the command line (`-` for stdin).
    pub source: Source,
    /// The 1-based line of the row in its file.
    pub line: u64,
    /// The `id` column, or empty.
    pub id: Id,
    /// The start as written.
    pub start_text: String,
    /// The goal as written (the default goal when the row has none).
    pub goal_text: String,
    /// The known optimal number of moves; −1 means unsolvable.
    pub expected_steps: Option<i64>,
    /// The problem, or why the row is invalid (the message names file, line and problem).
    /// Text by design: it is the row's cases.csv message, spooled with the case and written
    /// as it is.
    pub problem: Result<Problem, String>,
}

/// The name of the input file a case came from: interned, so that a case's copy of it is
/// a pointer. (A shared `Arc<str>` cost an atomic increment and decrement on one counter for
/// every case each time cases were made, read back and dropped, by both threads at once:
/// about a tenth of a 1M-row run's time reading the spool back.) Each distinct name is
/// kept once for the life of the process. Reads as a `&str`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Source(&'static str);

impl Source {
    /// The interned `name`.
    pub fn new(name: &str) -> Source {
        static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
        let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = names.iter().find(|&&n| n == name) {
            return Source(n);
        }
        let n: &'static str = Box::leak(name.into());
        names.push(n);
        Source(n)
    }

    /// The name.
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl std::ops::Deref for Source {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

/// A row's id: text kept in place when it is short (most ids are numbers or short names),
/// so that the million cases of a run, read and read back from the spool, do not each
/// allocate one; longer ids are allocated. Reads as a `&str`. A record's solver name is one
/// too ([`crate::results::record::Name`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Id(IdText);

#[derive(Clone, PartialEq, Eq, Hash)]
enum IdText {
    /// The first `len` bytes.
    Short {
        len: u8,
        bytes: [u8; Id::SHORT],
    },
    Long(Box<str>),
}

impl Id {
    /// The longest id kept in place, in bytes.
    pub const SHORT: usize = 22;

    /// The id as text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: the first `len` bytes are a whole `&str` copied in by `From<&str>`
            // (the only maker of a short id), so they are UTF-8.
            IdText::Short { len, bytes } => unsafe {
                std::str::from_utf8_unchecked(&bytes[..usize::from(*len)])
            },
            IdText::Long(s) => s,
        }
    }
}

impl Default for Id {
    fn default() -> Id {
        Id::from("")
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Id {
        Id(match u8::try_from(s.len()) {
            Ok(len) if s.len() <= Id::SHORT => {
                let mut bytes = [0u8; Id::SHORT];
                bytes[..s.len()].copy_from_slice(s.as_bytes());
                IdText::Short { len, bytes }
            }
            _ => IdText::Long(s.into()),
        })
    }
}

impl std::ops::Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Id> for String {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Id> for str {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Id {
    fn as_ref(&self) -> &[u8] {
        self.as_str().as_bytes()
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// A dataset file's facts for run.json.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct InputFile {
    /// The file as named on the command line (`-` for stdin, `BUILTIN_NAME` for the
    /// built-in dataset).
    pub path: String,
    /// Rows read as cases (the header, blank lines and `#` comments not counted).
    pub rows: usize,
    /// Of those, the rows that could not be read as a problem (status `invalid`); in a
    /// shard's run, of the shard's own rows (the others' are not read as problems).
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

/// A dataset that cannot be used at all: which file, where in it (when a line is to blame),
/// and what is wrong ([`InputErrorKind`]). Its text is a sentence for the user that names
/// the file and line and says what to do.
///
/// ```
/// use tilebench::dataset::{parse_dataset, InputErrorKind, InputOptions};
/// let e = parse_dataset("d.csv", b"id,board\n", &InputOptions::default()).unwrap_err();
/// assert_eq!((e.path(), e.line()), ("d.csv", Some(1)));
/// assert!(matches!(e.kind(), InputErrorKind::NoStartColumn { .. }));
/// assert!(e.to_string().starts_with("d.csv:1: no `start` column in the header (id,board)"));
/// ```
#[derive(Debug)]
pub struct InputError(Box<InputErrorInner>);

#[derive(Debug)]
struct InputErrorInner {
    path: String,
    line: Option<u64>,
    kind: InputErrorKind,
}

/// What is wrong with a dataset that cannot be used at all.
#[derive(Debug)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// No file at the path.
    NotFound,
    /// The path is a directory.
    Directory,
    /// The file is given twice: as files `first` and `second` (counted from 1) of the
    /// inputs, under another path (`other`) the first time when the two paths differ.
    GivenTwice {
        /// The first time, and its path when it differs.
        first: usize,
        /// The second time.
        second: usize,
        /// The path it was given as the first time, when not the same text.
        other: Option<String>,
    },
    /// The file cannot be read.
    Unreadable(std::io::Error),
    /// The file holds nothing but blank and comment lines.
    Empty,
    /// A byte that is not UTF-8.
    NotUtf8 {
        /// The byte.
        byte: u8,
    },
    /// The header names a known column more than once.
    RepeatedColumn {
        /// The column's name.
        name: &'static str,
        /// Where (counted from 1).
        columns: Vec<usize>,
    },
    /// The header has no `start` column.
    NoStartColumn {
        /// The header, as read (clipped).
        header: String,
    },
    /// The goal given for rows without one is not a board.
    BadGoal {
        /// The goal's text.
        goal: String,
        /// Why it is not a board.
        error: BoardError,
    },
    /// The files have a header and no rows.
    NoRows,
    /// The plan's rows (`--rows`) name rows the files do not have.
    NoSuchRows {
        /// The rows past the last, as they are written (`51-52,60`).
        missing: String,
        /// How many rows the files have.
        total: usize,
    },
    /// The scratch file that holds the cases while a run runs cannot be created (`created`
    /// false) or written, in the directory that is the error's path.
    Scratch {
        /// Whether the file was created (and a write to it failed).
        created: bool,
        /// Why.
        error: std::io::Error,
    },
}

impl InputError {
    /// An error about `path` (at `line`, when a line is to blame).
    pub fn new(path: impl Into<String>, line: Option<u64>, kind: InputErrorKind) -> InputError {
        InputError(Box::new(InputErrorInner {
            path: path.into(),
            line,
            kind,
        }))
    }
    /// The file (`-` for standard input; for [`InputErrorKind::NoRows`], the files' names
    /// joined by `, `; for [`InputErrorKind::Scratch`], the directory; for
    /// [`InputErrorKind::BadGoal`], `goal`, the option).
    pub fn path(&self) -> &str {
        &self.0.path
    }
    /// The line to blame, counted from 1, when there is one.
    pub fn line(&self) -> Option<u64> {
        self.0.line
    }
    /// What is wrong.
    pub fn kind(&self) -> &InputErrorKind {
        &self.0.kind
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InputErrorKind as K;
        let p = &self.0.path;
        let at = match self.0.line {
            Some(line) => format!("{p}:{line}"),
            None => p.clone(),
        };
        match &self.0.kind {
            K::NotFound => write!(
                f,
                "{at}: no such file; check the path (datasets ship in inputs/)"
            ),
            K::Directory => write!(
                f,
                "{at}: a directory, not a dataset; give a CSV file (datasets ship in inputs/)"
            ),
            K::GivenTwice {
                first: i,
                second: j,
                other,
            } => match other {
                _ if p == "-" => write!(
                    f,
                    "`-` (standard input) is given twice, as files {i} and {j}; standard input \
                     can be read only once: give `-` once, and put the other rows in a file"
                ),
                None => write!(
                    f,
                    "{p} is given twice, as files {i} and {j}; its rows would be solved twice: \
                     give each file once"
                ),
                Some(q) => write!(
                    f,
                    "{q} and {p} (files {i} and {j}) are the same file; its rows would be solved \
                     twice, under two names: give each file once"
                ),
            },
            K::Unreadable(e) => write!(f, "{at}: cannot read: {}", crate::util::io_reason(e)),
            K::Empty => write!(
                f,
                "{at}: the file is empty; a dataset needs a header row with a `start` column, \
                 then one row per case"
            ),
            K::NotUtf8 { byte } => write!(
                f,
                "{at}: not valid UTF-8 (byte 0x{byte:02x}); tilebench reads UTF-8 CSV: re-save \
                 the file as UTF-8"
            ),
            K::RepeatedColumn { name, columns } => {
                let (last, first) = columns.split_last().unwrap_or((&0, &[]));
                let first: Vec<String> = first.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "{at}: the header names `{name}` more than once (columns {} and {last}), so \
                     it is not clear which to read: rename or remove all but one",
                    first.join(", ")
                )
            }
            K::NoStartColumn { header } => write!(
                f,
                "{at}: no `start` column in the header ({header}); the header must name at \
                 least `start` (optional: id, goal, expected_steps, size){}",
                semicolons(header)
            ),
            K::BadGoal { goal, error } => write!(f, "goal `{goal}`: {error}"),
            K::NoRows => write!(
                f,
                "{at}: no rows to solve (only a header?); add one row per case under the header"
            ),
            K::NoSuchRows { missing, total } => write!(
                f,
                "{at}: the plan's rows name row(s) {missing}, but there are {total} data \
                 rows (numbered from 1 under the header, blank and comment lines not counted: \
                 rows are counted, not ids); name rows from 1 to {total}"
            ),
            K::Scratch {
                created: false,
                error,
            } => write!(
                f,
                "cannot create a scratch file for the cases in {p}: {}; give the run a \
                 results directory you can write",
                crate::util::io_reason(error)
            ),
            K::Scratch {
                created: true,
                error,
            } => write!(
                f,
                "cannot write the cases being read to a scratch file in {p}: {}; free some \
                 space there, or give the run a results directory on another disk",
                crate::util::io_reason(error)
            ),
        }
    }
}

/// A hint for a header whose columns are separated by `;`, as Excel saves CSV where the
/// decimal mark is a comma; empty for any other.
fn semicolons(header: &str) -> &'static str {
    if header
        .split(';')
        .any(|c| c.trim().eq_ignore_ascii_case("start"))
    {
        ". Its columns are separated by `;` (as Excel saves CSV where the decimal mark is a \
         comma): save the file as CSV with commas"
    } else {
        ""
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            InputErrorKind::Unreadable(e) | InputErrorKind::Scratch { error: e, .. } => Some(e),
            InputErrorKind::BadGoal { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads every dataset in `paths` (`-` = stdin) and returns the files' facts and all cases,
/// in file order then row order. An empty `paths` reads the built-in dataset.
///
/// # Errors
/// As [`read_all`].
pub fn read_inputs(
    paths: &[String],
    opts: &InputOptions,
) -> Result<(Vec<InputFile>, Vec<Case>), InputError> {
    let mut cases = Vec::new();
    let files = read_all(paths, opts, |_, c| c, |_, c| cases.extend(c))?;
    Ok((files, cases))
}

/// Reads every dataset in `paths` (`-` = stdin; none: the built-in dataset) as a stream, one
/// file after another, as `read_dataset` reads one: `map` gets each piece's cases with
/// the file's index in `paths`, on the worker threads, and `each` what it made of them, in
/// file order then row order. Returns the files' facts.
///
/// # Errors
/// A file named twice; a file (or stdin) that cannot be opened or read, or that
/// `read_dataset` rejects: the first such file ends the reading.
pub fn read_all<T: Send>(
    paths: &[String],
    opts: &InputOptions,
    map: impl Fn(usize, Vec<Case>) -> T + Sync,
    each: impl FnMut(usize, T),
) -> Result<Vec<InputFile>, InputError> {
    read_share(paths, opts, Share::ALL, |k, p| map(k, p.cases), each)
}

/// Which of the inputs' rows a reading makes cases of.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Share<'a> {
    /// The shard whose rows become cases: case *i* (0-based, over all the inputs' rows in
    /// order, or over the chosen `rows`) when *i* mod N = I − 1; [`Shard::ALL`] for every row.
    pub shard: Shard,
    /// `--rows`: only these rows are cases (the others are only counted); `None` for all.
    pub rows: Option<&'a rows::Rows>,
    /// Whether the other rows are read as boards too, for the shapes of the valid ones
    /// ([`Portion::shapes`]). Otherwise they are only counted: found by the CSV grammar and
    /// told from blank and comment lines, their fields never read (apart from the rows read
    /// until the file's board shape is known, when it has no `size` column and no `--size`
    /// is given: the first board read fixes it).
    pub shapes: bool,
}

impl Share<'_> {
    /// Every row.
    pub(crate) const ALL: Share<'static> = Share {
        shard: Shard::ALL,
        rows: None,
        shapes: false,
    };

    /// Whether row `row` (0-based, over all the inputs' rows in order) is a case of the share.
    pub(crate) fn owns(&self, row: usize) -> bool {
        match self.rows {
            None => self.shard.contains(row),
            Some(rows) => rows.case_of(row).is_some_and(|c| self.shard.contains(c)),
        }
    }

    /// Whether some rows are not the share's (a shard's or a selection's reading).
    fn partial(&self) -> bool {
        self.shard.count > 1 || self.rows.is_some()
    }
}

/// What a reading hands on for one piece of a file.
pub(crate) struct Portion {
    /// The cases of the share's rows, in order.
    pub cases: Vec<Case>,
    /// With [`Share::shapes`]: the board shapes of the piece's other valid rows, each once.
    pub shapes: Vec<Shape>,
}

/// [`read_all`] for a share of the rows: `map` gets the cases of the share's rows (and, as
/// `share` asks, the shapes of the others'). The files' facts count every row (`rows`, the
/// size and checksum are the whole file's, so that every shard's agree), but `invalid_rows`
/// counts the share's own invalid rows: the others' are not read.
///
/// # Errors
/// As [`read_all`]: each is about the whole file (its bytes, its header), so every share
/// of a file meets it.
pub(crate) fn read_share<T: Send>(
    paths: &[String],
    opts: &InputOptions,
    share: Share<'_>,
    map: impl Fn(usize, Portion) -> T + Sync,
    mut each: impl FnMut(usize, T),
) -> Result<Vec<InputFile>, InputError> {
    each_once(paths)?;
    if paths.is_empty() {
        let f = read_in_pieces(
            BUILTIN_NAME,
            BUILTIN.as_bytes(),
            opts,
            (PIECE, share, 0),
            &|c| map(0, c),
            |t| each(0, t),
        )?;
        return Ok(vec![f]);
    }
    let mut files: Vec<InputFile> = Vec::new();
    for (k, p) in paths.iter().enumerate() {
        let (map, each) = (|c| map(k, c), |t| each(k, t));
        // The file's first row is this case of the run.
        let first = files.iter().map(|f| f.rows).sum();
        let how = (PIECE, share, first);
        let f = if p == "-" {
            read_in_pieces(p, std::io::stdin(), opts, how, &map, each)?
        } else {
            let file = std::fs::File::open(p).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => InputError::new(p, None, InputErrorKind::NotFound),
                _ => cannot_read(p, e),
            })?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(InputError::new(p, None, InputErrorKind::Directory));
            }
            read_in_pieces(p, file, opts, how, &map, each)?
        };
        files.push(f);
    }
    Ok(files)
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
        let other = (p != q).then(|| q.to_string());
        let (first, second) = (i + 1, j + 1);
        let kind = InputErrorKind::GivenTwice {
            first,
            second,
            other,
        };
        return Err(InputError::new(p.as_str(), None, kind));
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
    fn find(label: &str, header: &[String], header_line: u64) -> Result<Columns, InputError> {
        let find = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        for name in ["start", "id", "goal", "expected_steps", "size"] {
            let columns: Vec<usize> = (0..header.len())
                .filter(|&i| header[i].trim().eq_ignore_ascii_case(name))
                .map(|i| i + 1)
                .collect();
            if columns.len() > 1 {
                let kind = InputErrorKind::RepeatedColumn { name, columns };
                return Err(InputError::new(label, Some(header_line), kind));
            }
        }
        Ok(Columns {
            start: find("start").ok_or_else(|| {
                let cells: Vec<&str> = header.iter().map(|h| h.trim()).collect();
                let header = clip(&cells.join(","), 80);
                let kind = InputErrorKind::NoStartColumn { header };
                InputError::new(label, Some(header_line), kind)
            })?,
            id: find("id"),
            goal: find("goal"),
            expected: find("expected_steps"),
            size: find("size"),
        })
    }
}

/// Parses one dataset's bytes. `label` names it in messages.
///
/// # Errors
/// As `read_dataset`.
pub fn parse_dataset(
    label: &str,
    bytes: &[u8],
    opts: &InputOptions,
) -> Result<(InputFile, Vec<Case>), InputError> {
    let mut cases = Vec::new();
    let file = read_dataset(label, bytes, opts, |c| c, |c| cases.extend(c))?;
    Ok((file, cases))
}

/// Bytes in a piece of a dataset (about): the pieces are read in parallel, a few at a time.
const PIECE: usize = 1 << 20;

/// Reads one dataset from `input` (named `label` in messages) as a stream: its pieces are
/// turned into cases on the worker threads a few at a time, `map` turns each piece's cases
/// into what `each` receives, in file order. What is held is the pieces in flight, never the
/// whole file; the file's facts (rows, invalid rows, size, checksum) are returned at the end.
///
/// # Errors
/// When the input cannot be read, when its bytes are not UTF-8, when `opts.goal` is not a
/// board, when the file is empty or its header cannot be read, or when the header has no
/// `start` column. Bad rows are not errors: they become cases whose `problem` is an `Err`.
pub(crate) fn read_dataset<T: Send>(
    label: &str,
    input: impl Read + Send,
    opts: &InputOptions,
    map: impl Fn(Vec<Case>) -> T + Sync,
    each: impl FnMut(T),
) -> Result<InputFile, InputError> {
    let map = |p: Portion| map(p.cases);
    read_in_pieces(label, input, opts, (PIECE, Share::ALL, 0), &map, each)
}

/// A piece of a file as the reader hands it on: its text, its first line, whether it is
/// the file's last, and (when the reader counts them) its rows.
struct Text {
    bytes: Vec<u8>,
    line: u64,
    last: bool,
    rows: usize,
}

/// A dataset's header and the piece it is in.
struct Head {
    /// The piece, as text.
    text: String,
    /// The header's cells, and its line.
    record: Vec<String>,
    line: u64,
    /// Where the rows after it start in `text`, and that byte's line.
    body: (usize, u64),
    /// Whether the piece is the file's last.
    last: bool,
}

/// The reading side of [`read_in_pieces`]: the stream, and the line the next piece starts on.
struct Reader<'a, R> {
    label: &'a str,
    pieces: Pieces<R>,
    line: u64,
    /// The piece read ahead (to know which piece is the last).
    ahead: Option<Vec<u8>>,
    size: usize,
    /// Whether to count each piece's rows as it is read (a share's reading: the pieces'
    /// rows are then known before they are parsed, so each piece's first case is too).
    count: bool,
}

impl<'a, R: Read> Reader<'a, R> {
    fn new(
        label: &'a str,
        input: R,
        size: usize,
        count: bool,
    ) -> Result<Reader<'a, R>, InputError> {
        let mut pieces = Pieces::new(input);
        let ahead = pieces.next(size).map_err(|e| cannot_read(label, e))?;
        Ok(Reader {
            label,
            pieces,
            line: 1,
            ahead,
            size,
            count,
        })
    }

    /// The header, the first record that is not blank or a comment, and the piece it is in.
    fn header(&mut self) -> Result<Head, InputError> {
        let label = self.label;
        loop {
            let Some(t) = self.next()? else {
                return Err(InputError::new(label, None, InputErrorKind::Empty));
            };
            let text = decode(label, t.bytes, t.line)?;
            if let Some((record, line, body)) = header_in(&text, t.line) {
                return Ok(Head {
                    text,
                    record,
                    line,
                    body,
                    last: t.last,
                });
            }
        }
    }

    fn next(&mut self) -> Result<Option<Text>, InputError> {
        let Some(bytes) = self.ahead.take() else {
            return Ok(None);
        };
        let label = self.label;
        self.ahead = self
            .pieces
            .next(self.size)
            .map_err(|e| cannot_read(label, e))?;
        let line = self.line;
        self.line += lines_in(&bytes);
        let rows = if self.count { rows_in(&bytes) } else { 0 };
        Ok(Some(Text {
            bytes,
            line,
            last: self.ahead.is_none(),
            rows,
        }))
    }

    /// Up to `n` pieces.
    fn group(&mut self, n: usize) -> Result<Vec<Text>, InputError> {
        let mut out = Vec::new();
        while out.len() < n {
            match self.next()? {
                Some(t) => out.push(t),
                None => break,
            }
        }
        Ok(out)
    }
}

/// Reads a file in pieces of about `size` bytes, making cases of the rows of `share`, the
/// file's first row being case `first` of the run (see [`read_dataset`] and [`read_share`]).
fn read_in_pieces<T: Send>(
    label: &str,
    input: impl Read + Send,
    opts: &InputOptions,
    (size, share, first): (usize, Share<'_>, usize),
    map: &(impl Fn(Portion) -> T + Sync),
    mut each: impl FnMut(T),
) -> Result<InputFile, InputError> {
    use rayon::prelude::*;
    let default_goal = default_goal(opts)?;
    // A share's reader counts each piece's rows before it is parsed, so that each piece is
    // parsed knowing its first case (whole runs count the rows as they parse them).
    let counted = share.partial();
    let mut reader = Reader::new(label, input, size, counted)?;
    let Head {
        text,
        record: header,
        line: header_line,
        body,
        last,
    } = reader.header()?;
    let cols = Columns::find(label, &header, header_line)?;
    let maker = CaseMaker {
        label,
        source: Source::new(label),
        cols,
        opts,
        default_goal,
    };
    let unclosed = |r: &Reader<_>| r.pieces.unclosed();
    // A piece's rows, the share's invalid rows among them, and what `map` made of its share.
    let mapped = |(portion, n): (Portion, usize)| {
        let bad = portion.cases.iter().filter(|c| c.problem.is_err()).count();
        (n, bad, map(portion))
    };
    // The rows so far, and the share's invalid rows.
    let mut seen = (0, 0);
    let mut emit = |seen: &mut (usize, usize), (n, bad, out): (usize, usize, T)| {
        seen.0 += n;
        seen.1 += bad;
        each(out);
    };
    // Piece after piece until the file's shape is fixed (by the first board read, when the
    // file has no `size` column): every row is read as a board until then.
    let mut rule = ShapeRule::for_file(&maker.cols, opts);
    let mut piece = (text, body, last);
    loop {
        let (text, from, last) = &piece;
        let unclosed = *last && unclosed(&reader);
        let place = (first + seen.0, share, unclosed);
        emit(&mut seen, mapped(maker.walk(text, *from, &mut rule, place)));
        if !rule.unfixed() {
            break;
        }
        let Some(t) = reader.next()? else { break };
        let text = decode(label, t.bytes, t.line)?;
        piece = (text, (0, t.line), t.last);
    }
    // The rest: a group of pieces read in parallel while the next group is read.
    let n = 2 * rayon::current_num_threads().max(1);
    let mut group = reader.group(n)?;
    while !group.is_empty() {
        let ended = group.last().is_some_and(|t| t.last) && unclosed(&reader);
        let placed = placed(group, first + seen.0);
        let work = |(t, case): (Text, usize)| -> Result<(usize, usize, T), InputError> {
            let text = decode(label, t.bytes, t.line)?;
            let mut rule = rule;
            let place = (case, share, t.last && ended);
            let walked = maker.walk(&text, (0, t.line), &mut rule, place);
            // The count that placed the piece and the parse must agree, or the shards
            // would not cover every row once.
            assert!(
                !counted || walked.1 == t.rows,
                "{label}:{}: a piece of {} rows was counted as {} (a bug in tilebench)",
                t.line,
                walked.1,
                t.rows
            );
            Ok(mapped(walked))
        };
        let (cases, next) = rayon::join(
            || placed.into_par_iter().map(work).collect::<Vec<_>>(),
            || reader.group(n),
        );
        for c in cases {
            emit(&mut seen, c?);
        }
        group = next?;
    }
    let (bytes, fnv1a64) = reader.pieces.checksum();
    Ok(InputFile {
        path: label.to_string(),
        rows: seen.0,
        invalid_rows: seen.1,
        bytes,
        fnv1a64,
    })
}

/// The pieces of a group, each with its first case, the first's being `case` (right when
/// the reader counted the pieces' rows).
fn placed(group: Vec<Text>, mut case: usize) -> Vec<(Text, usize)> {
    group
        .into_iter()
        .map(|t| {
            let at = case;
            case += t.rows;
            (t, at)
        })
        .collect()
}

/// `label: cannot read: why`.
fn cannot_read(label: &str, e: std::io::Error) -> InputError {
    InputError::new(label, None, InputErrorKind::Unreadable(e))
}

/// A piece's bytes, whose first line is line `line` of the file, as UTF-8 text.
fn decode(label: &str, bytes: Vec<u8>, line: u64) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = line + lines_in(&bytes[..at]);
        InputError::new(
            label,
            Some(line),
            InputErrorKind::NotUtf8 { byte: bytes[at] },
        )
    })
}

/// The header in `text` (whose first line is line `first` of its file), the first record
/// that is not blank or a comment: its cells, its line, and where the rows after it start
/// in `text` (a byte and its line); `None` when `text` holds no record.
fn header_in(text: &str, first: u64) -> Option<(Vec<String>, u64, (usize, u64))> {
    let mut records = Records::new(text, 0, first);
    while let Some(line) = records.next_record() {
        if !blank(&records) {
            let cells = (0..records.len()).filter_map(|i| records.field(i));
            let body = (records.position(), records.line());
            return Some((cells.map(str::to_string).collect(), line, body));
        }
    }
    None
}

/// The --goal board, for rows without a goal.
fn default_goal(opts: &InputOptions) -> Result<Option<Board>, InputError> {
    match &opts.goal {
        Some(g) => Ok(Some(Board::parse(g, opts.size).map_err(|error| {
            let goal = g.clone();
            InputError::new("goal", None, InputErrorKind::BadGoal { goal, error })
        })?)),
        None => Ok(None),
    }
}

/// Turns one dataset's rows into cases.
struct CaseMaker<'a> {
    /// The dataset's name in messages.
    label: &'a str,
    /// The same, shared by its cases.
    source: Source,
    cols: Columns,
    opts: &'a InputOptions,
    default_goal: Option<Board>,
}

impl CaseMaker<'_> {
    /// [`CaseMaker::case`] of a borrowed record.
    fn case_of<R: Fields + ?Sized>(
        &self,
        (line, result): (u64, Result<&R, String>),
        rule: &mut ShapeRule,
        goals: &mut LastGoal,
    ) -> Case {
        match result {
            Ok(r) => row_to_case(
                self.source,
                line,
                r,
                &self.cols,
                self.opts,
                self.default_goal,
                (rule, goals),
            ),
            Err(msg) => Case {
                source: self.source,
                line,
                id: Id::default(),
                start_text: String::new(),
                goal_text: String::new(),
                expected_steps: None,
                problem: Err(format!("{}:{line}: {msg}", self.label)),
            },
        }
    }
}

/// Lines of spaces only are blank lines too (the reader sees them as one field of spaces).
fn blank<R: Fields + ?Sized>(r: &R) -> bool {
    r.len() == 1 && r.field(0).is_some_and(|f| f.trim_ascii().is_empty())
}

/// A row's fields: a record the grammar read, or a row made up for a message.
trait Fields {
    fn field(&self, i: usize) -> Option<&str>;
    fn len(&self) -> usize;
}

impl Fields for Records<'_> {
    fn field(&self, i: usize) -> Option<&str> {
        Records::field(self, i)
    }
    fn len(&self) -> usize {
        Records::len(self)
    }
}

impl Fields for [&str] {
    fn field(&self, i: usize) -> Option<&str> {
        self.get(i).copied()
    }
    fn len(&self) -> usize {
        <[&str]>::len(self)
    }
}

impl CaseMaker<'_> {
    /// The share's cases among the rows of `text[from..]` (where `text[from]` is on line
    /// `line`), the first row being case `first` of the run, and how many rows there are.
    /// The other rows are read as boards only while the file's shape is not fixed, or for
    /// their shapes (`share.shapes`); otherwise a piece without a quote is walked line by
    /// line and only the share's rows are read. With `unclosed`, the last row is the file's
    /// last, whose quoted field is never closed.
    fn walk(
        &self,
        text: &str,
        (from, line): (usize, u64),
        rule: &mut ShapeRule,
        (first, share, unclosed): (usize, Share<'_>, bool),
    ) -> (Portion, usize) {
        let mut records = Records::new(text, from, line);
        let mut goals = LastGoal::default();
        // Sized once, for a row per line end (more than there are rows only by the blank
        // lines, comments and a header) in the shard's share: a piece's cases grown by
        // doubling were copied about twice over. A `--rows` selection may own none.
        let mine = match share.rows {
            None => {
                // At most a row per 8 bytes (a piece of blank lines or comments reserves no
                // more than that).
                let rest = &text.as_bytes()[from..];
                let most = (memchr::memchr_iter(b'\n', rest).count() + 1).min(rest.len() / 8 + 1);
                most / share.shard.count as usize + 1
            }
            Some(_) => 0,
        };
        let (mut own, mut others) = (Vec::with_capacity(mine), Vec::new());
        let mut rows = 0;
        let lines = share.partial() && !share.shapes && !rule.unfixed();
        if lines && memchr::memchr(b'"', &text.as_bytes()[from..]).is_none() {
            for (at, ahead) in row_lines(text.as_bytes(), from) {
                if share.owns(first + rows) {
                    records.seek(at, line + ahead);
                    if let Some(line) = records.next_record() {
                        own.push(self.case_of((line, Ok(&records)), rule, &mut goals));
                    }
                }
                rows += 1;
            }
            let cases = Portion {
                cases: own,
                shapes: Vec::new(),
            };
            return (cases, rows);
        }
        let mut last_own = false;
        while let Some(line) = records.next_record() {
            if blank(&records) {
                continue;
            }
            last_own = share.owns(first + rows);
            rows += 1;
            if last_own || share.shapes || rule.unfixed() {
                let case = self.case_of((line, Ok(&records)), rule, &mut goals);
                if last_own {
                    own.push(case);
                } else if share.shapes {
                    others.push(case);
                }
            }
        }
        if unclosed {
            let last = if last_own { &mut own } else { &mut others };
            self.close_unclosed(last, text, (from, line), rule);
        }
        let cases = Portion {
            shapes: shapes_of(&others),
            cases: own,
        };
        (cases, rows)
    }

    /// Makes the last of `cases`, the file's last record, say that its quoted field is never
    /// closed (it swallowed the rest of the file), instead of reporting a board with too
    /// many cells.
    fn close_unclosed(
        &self,
        cases: &mut [Case],
        text: &str,
        (from, line): (usize, u64),
        rule: &mut ShapeRule,
    ) {
        let Some(last) = cases.last_mut() else {
            return;
        };
        let end = line + lines_in(&text.as_bytes()[from..text.len().saturating_sub(1).max(from)]);
        let line = last.line;
        let why = format!(
            "a quoted field opened on this line is never closed, so lines {line}–{end} were \
             read as one row; add the closing `\"`"
        );
        *last = self.case_of::<[&str]>((line, Err(why)), rule, &mut LastGoal::default());
    }
}

/// The goals a piece's rows named, by text and size: the rows of a dataset mostly share one
/// goal, or a few thousand, each then parsed once a piece instead of once a row. The last
/// one is tested first (one comparison of texts, no hashing, for a dataset of one goal).
#[derive(Default)]
struct LastGoal {
    /// The last goal's text, size and board (`None` before the first).
    last: Option<(Option<Shape>, Board)>,
    text: String,
    /// Every goal parsed so far (up to [`LastGoal::KEPT`]).
    seen: rustc_hash::FxHashMap<Box<str>, (Option<Shape>, Board)>,
}

impl LastGoal {
    /// How many distinct goals a piece keeps; beyond, the others are parsed each time.
    const KEPT: usize = 1 << 14;

    /// `Board::parse(text, size)`, from a goal of the same text and size met before.
    fn parse(&mut self, text: &str, size: Option<Shape>) -> Result<Board, BoardError> {
        if let Some((s, b)) = self.last {
            if s == size && self.text == text {
                return Ok(b);
            }
        }
        let b = match self.seen.get(text) {
            Some(&(s, b)) if s == size => b,
            _ => {
                let b = Board::parse(text, size)?;
                if self.seen.len() < Self::KEPT {
                    self.seen.insert(text.into(), (size, b));
                }
                b
            }
        };
        self.text.clear();
        self.text.push_str(text);
        self.last = Some((size, b));
        Ok(b)
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
    /// Whether the rule waits for the first board to fix the shape.
    fn unfixed(&self) -> bool {
        matches!(self, ShapeRule::FromFirstBoard(None))
    }

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

/// Warnings about ids used by more than one row of a file (`compare` matches such rows by
/// their order of appearance), one per repeat, naming both lines.
pub(crate) fn duplicate_ids(cases: &[Case]) -> Vec<String> {
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

fn row_to_case<R: Fields + ?Sized>(
    source: Source,
    line: u64,
    r: &R,
    cols: &Columns,
    opts: &InputOptions,
    default_goal: Option<Board>,
    (file_shape, goals): (&mut ShapeRule, &mut LastGoal),
) -> Case {
    let field = |i: Option<usize>| trim(i.and_then(|i| r.field(i)).unwrap_or(""));
    let start_field = field(Some(cols.start));
    let goal_field = field(cols.goal);
    // The texts as written are kept only for invalid rows (valid rows are written back from
    // the parsed boards), so a valid row allocates only its id.
    let mut case = Case {
        source,
        line,
        id: Id::from(field(cols.id)),
        start_text: String::new(),
        goal_text: String::new(),
        expected_steps: None,
        problem: Err(String::new()),
    };
    let at = At(source.as_str(), line);
    let problem = (|| {
        if r.field(cols.start).is_none() {
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
        let start = Board::parse(start_field, size)
            .map_err(|e| format!("{at}: start: {}", e.message_with_flags()))?;
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
            match goals.parse(goal_field, size) {
                Ok(g) => g,
                Err(crate::puzzle::BoardError::CellCount { .. }) => {
                    Board::parse(goal_field, Some(start.shape())).map_err(|e| {
                        format!(
                            "{at}: goal: {} (start and goal must be the same size)",
                            e.message_with_flags()
                        )
                    })?
                }
                Err(e) => return Err(format!("{at}: goal: {}", e.message_with_flags())),
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

/// `s.trim()`, without looking at its characters when it starts and ends with a printable
/// ASCII byte (as nearly every field does).
fn trim(s: &str) -> &str {
    match s.as_bytes() {
        [a, .., z] if a.is_ascii_graphic() && z.is_ascii_graphic() => s,
        [a] if a.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// `file:line`, formatted only when a message needs it.
pub(crate) struct At<'a>(pub &'a str, pub u64);

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.0, self.1)
    }
}

/// The cases of `text` read in pieces of about `size` bytes, and the file's facts.
#[cfg(test)]
fn in_pieces(label: &str, text: &str, size: usize) -> (InputFile, Vec<Case>) {
    let (file, cases, _) = in_share(label, text, size, Share::ALL);
    (file, cases)
}

/// The cases of `share` in `text` read in pieces of about `size` bytes, the file's facts,
/// and the shapes of the other rows' boards (each piece's).
#[cfg(test)]
fn in_share(
    label: &str,
    text: &str,
    size: usize,
    share: Share,
) -> (InputFile, Vec<Case>, Vec<Shape>) {
    let (mut cases, mut shapes) = (Vec::new(), Vec::new());
    let opts = InputOptions::default();
    let how = (size, share, 0);
    let file = read_in_pieces(label, text.as_bytes(), &opts, how, &|p| p, |p| {
        cases.extend(p.cases);
        shapes.extend(p.shapes);
    })
    .unwrap();
    (file, cases, shapes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Goals met in any order (repeated, alternating, thousands of them, the same text with
    /// and without a size, malformed ones) parse through the cache as `Board::parse` parses
    /// them, past the number it keeps too.
    #[test]
    fn goals_parsed_through_the_cache_are_the_goals_parsed_each_time() {
        let mut rng = crate::util::Rng::new(5);
        let goals: Vec<String> = (0..LastGoal::KEPT + 3000)
            .map(|k| match k % 97 {
                0 => "1 2 3 4 5 6 7 8 8".to_string(),
                1 => "1 2 3 x 4 5 6 7 8 9 10 11 12 13 14 15".to_string(),
                // A random arrangement: any is a goal.
                _ => {
                    let mut tiles: Vec<usize> = (0..9).collect();
                    for i in (1..9).rev() {
                        tiles.swap(i, rng.index(i as u64 + 1) as usize);
                    }
                    let words: Vec<String> = tiles
                        .iter()
                        .map(|&t| if t == 0 { "x".into() } else { t.to_string() })
                        .collect();
                    words.join(" ")
                }
            })
            .collect();
        let distinct: std::collections::HashSet<&String> = goals.iter().collect();
        assert!(distinct.len() > LastGoal::KEPT);
        let mut cache = LastGoal::default();
        let sizes = [None, Some(Shape::S3X3), Some(Shape::S4X4)];
        for i in 0..4 * goals.len() {
            let text = &goals[if i % 3 == 0 {
                i / 4
            } else {
                rng.index(goals.len() as u64) as usize
            }];
            let size = sizes[rng.index(3) as usize];
            let got = cache.parse(text, size);
            let want = Board::parse(text, size);
            assert_eq!(
                got.map_err(|e| e.to_string()),
                want.map_err(|e| e.to_string()),
                "{text} {size:?}"
            );
        }
        assert_eq!(cache.seen.len(), LastGoal::KEPT);
    }

    #[test]
    fn bad_utf8_is_placed_on_its_line_whatever_the_line_ends() {
        for end in ["\n", "\r\n", "\r"] {
            let mut bytes = format!("id,start{end}a,1 2 3 x 4 6 7 5 8{end}").into_bytes();
            bytes.push(0xe9); // Latin-1 `é`
            let e = parse_dataset("f.csv", &bytes, &InputOptions::default()).unwrap_err();
            assert!(
                e.to_string().starts_with("f.csv:3: not valid UTF-8"),
                "{end:?}: {e}"
            );
            assert_eq!(e.line(), Some(3));
        }
    }

    /// An id reads back as the text it was made from, kept in place or allocated, whatever
    /// its length (around the limit) and characters; it prints and compares as that text.
    #[test]
    fn an_id_is_its_text_short_or_long() {
        let texts = (0..=Id::SHORT + 2)
            .map(|n| "7".repeat(n))
            .chain((0..=Id::SHORT / 2 + 1).map(|n| "é".repeat(n)))
            .chain(["a,\"b\"".to_string(), "line\nbreak".to_string()]);
        for text in texts {
            let id = Id::from(text.as_str());
            assert_eq!(id.as_str(), text);
            assert_eq!(&*id, text.as_str());
            assert!(id == text);
            assert_eq!(id.to_string(), text);
            assert_eq!(format!("{id:?}"), format!("{text:?}"));
            assert_eq!(id, Id::from(text.as_str()));
            assert_eq!(
                matches!(id.0, IdText::Short { .. }),
                text.len() <= Id::SHORT,
                "{text}"
            );
        }
        assert_eq!(Id::default().as_str(), "");
    }

    /// A piece parses a goal once while its rows repeat it: every row still gets the goal
    /// its own text and size say, when goals change from row to row, when the same text is
    /// read at another size, and when a goal is invalid.
    #[test]
    fn each_row_gets_its_own_goal_when_goals_repeat_or_change() {
        let rows = [
            ("3x3", "1 2 3 4 5 6 7 8 x"),
            ("3x3", "1 2 3 4 5 6 7 8 x"),
            ("3x3", "x 1 2 3 4 5 6 7 8"),
            ("3x3", "1 2 3 4 5 6 7 8 x"),
            ("4x2", "1 2 3 4 5 6 7 x"),
            ("2x4", "1 2 3 4 5 6 7 x"),
            ("2x4", "1 2 3 4 5 6 7 7"),
            ("2x4", "1 2 3 4 5 6 7 7"),
            ("2x4", "1 2 3 4 5 6 7 x"),
        ];
        let mut text = String::from("id,size,start,goal\n");
        for (i, (size, goal)) in rows.iter().enumerate() {
            let start = if size.ends_with('3') {
                "1 2 3 4 5 6 7 x 8"
            } else {
                "1 2 3 4 5 6 x 7"
            };
            text.push_str(&format!("{i},{size},{start},{goal}\n"));
        }
        let (_, cases) = parse_dataset("g.csv", text.as_bytes(), &InputOptions::default()).unwrap();
        assert_eq!(cases.len(), rows.len());
        for (c, (size, goal)) in cases.iter().zip(rows) {
            let want = Board::parse(goal, Some(size.parse().unwrap()));
            match (&c.problem, want) {
                (Ok(p), Ok(g)) => assert_eq!(p.goal, g, "{size} {goal}"),
                (Err(e), Err(_)) => assert!(e.contains("goal"), "{e}"),
                (got, want) => panic!("{size} {goal}: {got:?} against {want:?}"),
            }
        }
    }

    /// A byte-order mark at the start of a line (a file's own, or one from each file of a
    /// `cat`) is not read, in pieces with and without quotes, on the header's line, on a
    /// comment, a blank line or a row, and on a last line without a line end; one elsewhere
    /// is a character of its field.
    #[test]
    fn a_byte_order_mark_that_starts_a_line_is_not_read() {
        let bom = '\u{feff}';
        for quote in ["", "\"7\""] {
            let body = format!(
                "id,start\n1,1 2 3 4 5 6 7 x 8\n# note\n\n{quote}2,1 2 3 4 5 6 x 7 8\n3,1 2 3 4 x 5 6 7 8"
            );
            let marked: String = body
                .split_inclusive('\n')
                .map(|l| format!("{bom}{l}"))
                .collect();
            for size in [16, 64, 1 << 20] {
                let read = |text: &str| format!("{:?}", in_pieces("b.csv", text, size).1);
                assert_eq!(read(&marked), read(&body), "{quote:?} {size}");
            }
        }
        let (_, cases) = parse_dataset(
            "m.csv",
            "id,start\na\u{feff},1 2 3 4 5 6 7 x 8\n".as_bytes(),
            &InputOptions::default(),
        )
        .unwrap();
        assert_eq!(cases[0].id.as_str(), "a\u{feff}");
    }

    #[test]
    fn a_field_is_trimmed_as_str_trim_trims_it() {
        for f in [
            "", " ", "a", " a", "a ", "a b", "\u{a0}a", "a\u{a0}", "\ta\t", "é", " é ", "x",
        ] {
            assert_eq!(trim(f), f.trim(), "{f:?}");
        }
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn a_file_read_in_pieces_of_any_size_gives_every_row_its_line_and_fields() {
        // Every kind of line, each with the line, id and validity it must have: comments
        // (with a quote), blank and whitespace-only lines, CRLF and lone-CR ends, quoted
        // fields holding a line end or `""`, a quote inside an unquoted field, bad boards, a
        // board of another size; after a byte-order mark.
        let mut text = String::from("\u{feff}# head \"\r\nid,start,expected_steps\n");
        let mut want: Vec<(u64, String, bool)> = Vec::new();
        let mut line = 3;
        for i in 0..400 {
            let (row, lines, id, ok) = match i % 10 {
                0 => ("# a \"comment\n".to_string(), 1, None, true),
                1 => ("\n   \n".to_string(), 2, None, true),
                2 => (
                    format!("{i},2 3 4 1 5 x 7 6 8,19\r\n"),
                    1,
                    Some(i.to_string()),
                    true,
                ),
                3 => (
                    format!("{i},1 2 3 4 5 6 7 x 8,1\r"),
                    1,
                    Some(i.to_string()),
                    true,
                ),
                4 => (
                    format!("\"{i}\nsecond\",1 2 3 4 5 6 7 x 8,\n"),
                    2,
                    Some(format!("{i}\nsecond")),
                    true,
                ),
                5 => (
                    format!("\"{i}\"\"q\",\"1 2 3 4 5 6 7 x 8\",\n"),
                    1,
                    Some(format!("{i}\"q")),
                    true,
                ),
                6 => (
                    format!("{i},1 2 3 4 5 6 7 7 x,\r\n"),
                    1,
                    Some(i.to_string()),
                    false,
                ),
                7 => (
                    format!("{i},1 2 3 4 5 6 7 8 9 10 11 x 12 13 14 15,\n"),
                    1,
                    Some(i.to_string()),
                    false,
                ),
                8 => (
                    format!("{i},1 2 3 4 5 6 7 x 8,oops\n"),
                    1,
                    Some(i.to_string()),
                    false,
                ),
                _ => (
                    format!("{i},1 2 3 4 5 6 7 x 8,1,a\"b\n"),
                    1,
                    Some(i.to_string()),
                    true,
                ),
            };
            if let Some(id) = id {
                want.push((line, id, ok));
            }
            text.push_str(&row);
            line += lines;
        }
        let read = |size: usize| {
            let (file, cases) = in_pieces("p.csv", &text, size);
            assert_eq!(file.rows, want.len());
            assert_eq!(file.fnv1a64, crate::util::fnv1a64(text.as_bytes()));
            cases
        };
        let whole = read(usize::MAX);
        for size in [1, 7, 100, 4096, usize::MAX] {
            let cases = read(size);
            let got: Vec<(u64, String, bool)> = cases
                .iter()
                .map(|c| (c.line, c.id.to_string(), c.problem.is_ok()))
                .collect();
            assert_eq!(got, want, "pieces of {size} bytes");
            for (a, b) in cases.iter().zip(&whole) {
                assert_eq!(format!("{:?}", a.problem), format!("{:?}", b.problem));
                assert!(
                    a.problem
                        .as_ref()
                        .err()
                        .is_none_or(|m| m.starts_with(&format!("p.csv:{}:", a.line))),
                    "{:?}",
                    a.problem
                );
            }
        }
    }

    /// The three ways the readers of a file once disagreed, each read in pieces of every
    /// size: a byte-order mark before a comment holding `,"` (the comment opened a quote
    /// for the piece cutter, and the last row became "never closed"); before a quoted field
    /// with a line end (one row or two, by where a piece ended); a header cell with a line
    /// end (the first row was swallowed).
    #[test]
    fn one_grammar_cuts_and_reads_every_file_alike() {
        let ok = "1 2 3 4 5 6 7 x 8";
        let files = [
            (
                format!("id,start\na,{ok}\n\u{feff}# note,\"q\nb,{ok}\n"),
                vec![(2, "a"), (4, "b")],
            ),
            (
                format!("id,start\n\u{feff}\"a\nb\",{ok}\nc,{ok}\n"),
                vec![(2, "a\nb"), (4, "c")],
            ),
            (format!("id,\"start\n\"\nr1,{ok},a\n"), vec![(3, "r1")]),
        ];
        for (text, want) in files {
            for size in (1..=text.len() + 1).chain([1 << 20]) {
                let (file, cases) = in_pieces("g.csv", &text, size);
                let got: Vec<(u64, &str)> = cases.iter().map(|c| (c.line, c.id.as_str())).collect();
                assert_eq!(got, want, "{text:?} in pieces of {size}");
                assert!(
                    cases.iter().all(|c| c.problem.is_ok()),
                    "{text:?} {size}: {cases:?}"
                );
                assert_eq!(file.invalid_rows, 0);
            }
        }
    }

    /// Random files of every kind of line (quoted fields with line ends and `""`, comments
    /// with quotes, blank lines, byte-order marks at line starts, `\n`, `\r\n` and lone `\r`
    /// ends), read in pieces of random sizes, give the rows the csv crate reads from the whole
    /// file (an independent reader of the same grammar), in order.
    #[test]
    fn files_read_in_pieces_give_the_csv_crates_rows() {
        let parts = [
            "a",
            "1 2 3 4 5 6 7 x 8",
            "\"q\"\"x\"",
            "\"two\nlines\"",
            "\"1 2 3 4 5 6 7 x 8\"",
            "b\"c",
            "",
            " ",
            "\"\"",
        ];
        let ends = ["\n", "\r\n", "\r"];
        let mut rng = crate::util::Rng::new(11);
        for round in 0..400 {
            let mut text = String::from("id,start\n");
            for _ in 0..rng.below(25) {
                let end = ends[rng.index(3) as usize];
                if rng.below(6) == 0 {
                    text.push('\u{feff}');
                }
                match rng.below(8) {
                    0 => text.push_str(end),
                    1 => text.push_str(&format!("# say,\"hi {round}{end}")),
                    _ => {
                        let fields: Vec<&str> = (0..1 + rng.below(3))
                            .map(|_| parts[rng.index(parts.len() as u64) as usize])
                            .collect();
                        text.push_str(&fields.join(","));
                        text.push_str(end);
                    }
                }
            }
            // The reference: the whole text, lone `\r`s made `\n` and line-start marks
            // dropped, as the file is read.
            let plain = text
                .replace("\r\n", "\u{1}")
                .replace('\r', "\n")
                .replace('\u{1}', "\r\n");
            let plain: String = plain
                .split_inclusive('\n')
                .map(|l| l.strip_prefix('\u{feff}').unwrap_or(l))
                .collect();
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .comment(Some(b'#'))
                .from_reader(plain.as_bytes());
            let want: Vec<String> = reader
                .records()
                .map(|r| r.unwrap())
                .filter(|r| !(r.len() == 1 && r[0].trim().is_empty()))
                .skip(1)
                .map(|r| r[0].trim().to_string())
                .collect();
            let size = 1 + rng.below(64) as usize;
            let (_, cases) = in_pieces("r.csv", &text, size);
            let got: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(got, want, "{text:?} in pieces of {size}");
        }
    }

    /// A random dataset of every kind of line: a `size` column or none, boards of two
    /// sizes, bad rows, quoted fields (with line ends) in some files, comments, blank and
    /// space-only lines, byte-order marks, `\n`, `\r\n` and lone `\r` ends, and sometimes
    /// a quote never closed at the end.
    fn random_dataset(rng: &mut crate::util::Rng) -> String {
        let sized = rng.below(2) == 0;
        let quotes = rng.below(2) == 0;
        let boards = [
            ("3x3", "1 2 3 4 5 6 7 x 8"),
            ("3x3", "2 1 3 4 5 6 7 8 x"),
            ("2x4", "1 2 3 4 5 6 x 7"),
            ("3x3", "1 2 3 4 5 6 7 7 x"),
            ("", "1 2 3 4 5 6 7 x 8"),
            ("", "1 2 3 4 5 x 6 7"),
        ];
        let ends = ["\n", "\r\n", "\r"];
        let mut text = String::from(if sized {
            "id,size,start\n"
        } else {
            "id,start\n"
        });
        for i in 0..rng.below(120) {
            let end = ends[rng.index(3) as usize];
            if rng.below(8) == 0 {
                text.push('\u{feff}');
            }
            let row = match rng.below(10) {
                0 => String::new(),
                1 => "# a comment, with a comma".to_string(),
                2 => " \t ".to_string(),
                3 => " , ".to_string(),
                4 if quotes => format!("\"{i}\nsecond\",1 2 3 4 5 6 7 x 8"),
                _ => {
                    let (size, board) = boards[rng.index(boards.len() as u64) as usize];
                    match (sized, quotes) {
                        (true, true) => format!("{i},{size},\"{board}\""),
                        (true, false) => format!("{i},{size},{board}"),
                        (false, _) => format!("{i},{board}"),
                    }
                }
            };
            text.push_str(&row);
            text.push_str(end);
        }
        if quotes && rng.below(4) == 0 {
            text.push_str("z,\"1 2 3\n4 5 6\n");
        }
        text
    }

    /// Every shard's reading of random datasets, in pieces of random sizes, gives the whole
    /// reading's cases at the shard's indices and no other (each case once over the split),
    /// the whole file's rows, size and checksum, the shard's own invalid rows, and (asked
    /// for) the shapes of the other rows' valid boards; with `--rows` (every other round),
    /// the shard's share of the chosen rows.
    #[test]
    fn a_shard_reads_the_whole_readings_cases_at_its_own_indices() {
        let mut rng = crate::util::Rng::new(43);
        for round in 0..300 {
            let text = random_dataset(&mut rng);
            let (whole, all) = in_pieces("s.csv", &text, 1 << 20);
            let size = 1 + rng.below(200) as usize;
            // Some rows by a spec of one to three items, some past the last row.
            let chosen: Option<super::rows::Rows> = (round % 2 == 1).then(|| {
                let mut n = || 1 + rng.below(all.len() as u64 + 2);
                let items: Vec<String> = (0..1 + n() % 3)
                    .map(|_| match n() % 2 {
                        0 => n().to_string(),
                        _ => {
                            let (a, b) = (n(), n());
                            format!("{}-{}", a.min(b), a.max(b))
                        }
                    })
                    .collect();
                items.join(",").parse().unwrap()
            });
            let picked: Vec<usize> = (0..all.len())
                .filter(|&i| chosen.as_ref().is_none_or(|r| r.case_of(i).is_some()))
                .collect();
            for count in 1..=4 {
                for index in 1..=count {
                    let shard = Shard { index, count };
                    let shapes = rng.below(2) == 0;
                    let share = Share {
                        shard,
                        rows: chosen.as_ref(),
                        shapes,
                    };
                    let (file, own, others) = in_share("s.csv", &text, size, share);
                    let want: Vec<String> = shard
                        .cases(picked.len())
                        .map(|i| format!("{:?}", all[picked[i]]))
                        .collect();
                    let got: Vec<String> = own.iter().map(|c| format!("{c:?}")).collect();
                    assert_eq!(got, want, "round {round}, {shard}, {size}: {text:?}");
                    assert_eq!(
                        (file.rows, file.bytes, &file.fnv1a64),
                        (whole.rows, whole.bytes, &whole.fnv1a64)
                    );
                    let bad = own.iter().filter(|c| c.problem.is_err()).count();
                    assert_eq!(file.invalid_rows, bad);
                    if shapes {
                        let mut seen = shapes_of(&own);
                        seen.extend(others);
                        seen.sort();
                        seen.dedup();
                        assert_eq!(seen, shapes_of(&all), "round {round}: {text:?}");
                    } else {
                        assert!(others.is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn a_quote_never_closed_is_named_on_the_row_that_opens_it() {
        let text = "id,start\na,1 2 3 4 5 6 7 x 8\nb,\"1 2 3\nc,4 5\n";
        for size in [1, 1 << 20] {
            let (_, cases) = in_pieces("q.csv", text, size);
            assert_eq!(cases.len(), 2);
            assert!(cases[0].problem.is_ok());
            let msg = cases[1].problem.as_ref().unwrap_err();
            assert!(
                msg.starts_with(
                    "q.csv:3: a quoted field opened on this line is never closed, so lines 3–4"
                ),
                "{msg}"
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
pub(crate) fn shapes_of(cases: &[Case]) -> Vec<crate::puzzle::Shape> {
    let mut shapes: Vec<_> = cases
        .iter()
        .filter_map(|c| c.problem.as_ref().ok().map(|p| p.start.shape()))
        .collect();
    shapes.sort();
    shapes.dedup();
    shapes
}
