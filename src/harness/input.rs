//! Reading datasets: CSV rows → cases.
//!
//! A dataset is CSV with a header row. `start` is required; `id`, `goal`, `expected_steps`
//! (−1 = unsolvable) and `size` (`3x4`) are optional; other columns are ignored. Blank lines
//! and lines starting with `#` are skipped. A row that cannot be read becomes a case with an
//! error (status `invalid` in the results): one bad row never costs the others their results.
//! A file that cannot be read at all is an [`InputError`], reported before any solving.

use crate::puzzle::{Board, Shape};
use crate::search::Problem;
use std::fmt;
use std::io::Read;
use std::sync::Arc;

/// The small dataset `tilebench run` uses when no file is given.
pub const BUILTIN_NAME: &str = "<builtin>/seeds.csv";
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
    /// The start and goal as written (the goal is the default goal when the row has none).
    pub start_text: String,
    pub goal_text: String,
    /// The known optimal number of moves; −1 means unsolvable.
    pub expected_steps: Option<i64>,
    /// The problem, or why the row is invalid (the message names file, line and problem).
    pub problem: Result<Problem, String>,
}

/// A dataset file's facts for run.json.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct InputFile {
    pub path: String,
    pub rows: usize,
    pub invalid_rows: usize,
    pub bytes: usize,
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
pub fn read_inputs(
    paths: &[String],
    opts: &InputOptions,
) -> Result<(Vec<InputFile>, Vec<Case>), InputError> {
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
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| InputError(format!("cannot read standard input: {e}")))?;
            buf
        } else {
            std::fs::read(p).map_err(|e| {
                InputError(match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        format!("{p}: no such file; check the path (datasets ship in inputs/)")
                    }
                    _ => format!("{p}: cannot read: {e}"),
                })
            })?
        };
        let (f, c) = parse_dataset(p, &bytes, opts)?;
        files.push(f);
        cases.extend(c);
    }
    Ok((files, cases))
}

/// Column positions of the known fields.
struct Columns {
    start: usize,
    id: Option<usize>,
    goal: Option<usize>,
    expected: Option<usize>,
    size: Option<usize>,
}

/// Parses one dataset's bytes. `label` names it in messages.
pub fn parse_dataset(
    label: &str,
    bytes: &[u8],
    opts: &InputOptions,
) -> Result<(InputFile, Vec<Case>), InputError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        InputError(format!(
            "{label}:{line}: not valid UTF-8 (byte 0x{:02x}); tilebench reads UTF-8 CSV: re-save the file as UTF-8",
            bytes[at]
        ))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source: Arc<str> = Arc::from(label);
    let default_goal = match &opts.goal {
        Some(g) => {
            Some(Board::parse(g, opts.size).map_err(|e| InputError(format!("--goal `{g}`: {e}")))?)
        }
        None => None,
    };

    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    // The header is the first record that is not blank or a comment.
    let (header, header_line) = match records.next() {
        Some(Ok(r)) => {
            let line = r.position().map_or(1, |p| p.line());
            (r, line)
        }
        Some(Err(e)) => return Err(InputError(format!("{label}: cannot read the header: {e}"))),
        None => {
            return Err(InputError(format!(
                "{label}: the file is empty; a dataset needs a header row with a `start` column, then one row per case"
            )))
        }
    };
    let find = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let cols = Columns {
        start: find("start").ok_or_else(|| {
            InputError(format!(
                "{label}:{header_line}: no `start` column in the header ({}); the header must name at least `start` \
                 (optional: id, goal, expected_steps, size)",
                header.iter().collect::<Vec<_>>().join(",")
            ))
        })?,
        id: find("id"),
        goal: find("goal"),
        expected: find("expected_steps"),
        size: find("size"),
    };

    let mut cases = Vec::new();
    for rec in records {
        let (line, result) = match rec {
            Ok(r) => {
                let line = r.position().map_or(0, |p| p.line());
                (line, Ok(r))
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                (line, Err(e.to_string()))
            }
        };
        cases.push(match result {
            Ok(r) => row_to_case(&source, line, &r, &cols, opts, default_goal),
            Err(msg) => Case {
                source: source.clone(),
                line,
                id: String::new(),
                start_text: String::new(),
                goal_text: String::new(),
                expected_steps: None,
                problem: Err(format!("{label}:{line}: {msg}")),
            },
        });
    }
    let file = InputFile {
        path: label.to_string(),
        rows: cases.len(),
        invalid_rows: cases.iter().filter(|c| c.problem.is_err()).count(),
        bytes: bytes.len(),
        fnv1a64: crate::util::fnv1a64(bytes),
    };
    Ok((file, cases))
}

fn row_to_case(
    source: &Arc<str>,
    line: u64,
    r: &csv::StringRecord,
    cols: &Columns,
    opts: &InputOptions,
    default_goal: Option<Board>,
) -> Case {
    let field = |i: Option<usize>| i.and_then(|i| r.get(i)).unwrap_or("").trim();
    let start_text = field(Some(cols.start)).to_string();
    let goal_field = field(cols.goal);
    let mut case = Case {
        source: source.clone(),
        line,
        id: field(cols.id).to_string(),
        start_text,
        goal_text: goal_field.to_string(),
        expected_steps: None,
        problem: Err(String::new()),
    };
    let at = format!("{source}:{line}");
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
                format!("{at}: expected_steps `{expected}` is not a whole number (−1 = unsolvable)")
            })?;
            if e < -1 {
                return Err(format!(
                    "{at}: expected_steps {e} is negative; use −1 for unsolvable pairs"
                ));
            }
            case.expected_steps = Some(e);
        }
        let start =
            Board::parse(&case.start_text, size).map_err(|e| format!("{at}: start: {e}"))?;
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
        if case.goal_text.is_empty() {
            case.goal_text = goal.to_string();
        }
        Problem::new(start, goal).map_err(|e| format!("{at}: {e}"))
    })();
    case.problem = problem;
    case
}
