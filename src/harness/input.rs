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
    /// The start and goal as written, kept only for invalid rows (valid rows are written
    /// back from the parsed boards).
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

    let builder = || {
        let mut b = csv::ReaderBuilder::new();
        b.has_headers(false)
            .flexible(true)
            .comment(Some(b'#'))
            .trim(csv::Trim::All);
        b
    };
    let mut reader = builder().from_reader(text.as_bytes());
    // The header is the first record that is not blank or a comment.
    let mut header = csv::StringRecord::new();
    match reader.read_record(&mut header) {
        Ok(true) => {}
        Ok(false) => {
            return Err(InputError(format!(
                "{label}: the file is empty; a dataset needs a header row with a `start` column, then one row per case"
            )))
        }
        Err(e) => return Err(InputError(format!("{label}: cannot read the header: {e}"))),
    }
    let header_line = header.position().map_or(1, |p| p.line());
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

    // The rows after the header, cut into pieces at line ends and read in parallel. A
    // quoted field may hold a line end, so a file with quotes is read as one piece.
    let after_header = reader.position().clone();
    let body = &text[after_header.byte() as usize..];
    let pieces: Vec<(u64, &str)> = if body.contains('"') {
        vec![(after_header.line(), body)]
    } else {
        split_lines(body, 1 << 18, after_header.line())
    };
    let read_piece = |&(first_line, piece): &(u64, &str)| -> Vec<Case> {
        let mut cases = Vec::new();
        for rec in builder().from_reader(piece.as_bytes()).records() {
            let (line, result) = match rec {
                Ok(r) => (r.position().map_or(0, |p| p.line()), Ok(r)),
                Err(e) => (e.position().map_or(0, |p| p.line()), Err(e.to_string())),
            };
            let line = first_line + line.saturating_sub(1);
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
        cases
    };
    let cases: Vec<Case> = {
        use rayon::prelude::*;
        let parts: Vec<Vec<Case>> = pieces.par_iter().map(read_piece).collect();
        parts.into_iter().flatten().collect()
    };
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
    let start_field = field(Some(cols.start));
    let goal_field = field(cols.goal);
    let mut expected_steps = None;
    // `file:line`, built only when a message needs it.
    let at = || format!("{source}:{line}");
    let problem = (|| {
        if r.get(cols.start).is_none() {
            return Err(format!(
                "{}: the row has {} fields and no `start` value (column {})",
                at(),
                r.len(),
                cols.start + 1
            ));
        }
        let size = match field(cols.size) {
            "" => opts.size,
            s => Some(
                s.parse::<Shape>()
                    .map_err(|e| format!("{}: size: {e}", at()))?,
            ),
        };
        let expected = field(cols.expected);
        if !expected.is_empty() {
            let e: i64 = expected.parse().map_err(|_| {
                format!(
                    "{}: expected_steps `{expected}` is not a whole number (−1 = unsolvable)",
                    at()
                )
            })?;
            if e < -1 {
                return Err(format!(
                    "{}: expected_steps {e} is negative; use −1 for unsolvable pairs",
                    at()
                ));
            }
            expected_steps = Some(e);
        }
        let start = Board::parse(start_field, size).map_err(|e| format!("{}: start: {e}", at()))?;
        let goal = if !goal_field.is_empty() {
            // Read the goal on its own first, so a goal of another size is named as such.
            match Board::parse(goal_field, size) {
                Ok(g) => g,
                Err(crate::puzzle::BoardError::CellCount { .. }) => {
                    Board::parse(goal_field, Some(start.shape())).map_err(|e| {
                        format!("{}: goal: {e} (start and goal must be the same size)", at())
                    })?
                }
                Err(e) => return Err(format!("{}: goal: {e}", at())),
            }
        } else {
            match default_goal {
                Some(g) if g.shape() == start.shape() => g,
                Some(g) => {
                    return Err(format!(
                        "{}: start is a {} board but --goal is a {} board",
                        at(),
                        start.shape(),
                        g.shape()
                    ))
                }
                None => Board::standard_goal(start.shape()),
            }
        };
        Problem::new(start, goal).map_err(|e| format!("{}: {e}", at()))
    })();
    // The texts as written are kept only where the boards could not be read.
    let (start_text, goal_text) = match &problem {
        Ok(_) => (String::new(), String::new()),
        Err(_) => (start_field.to_string(), goal_field.to_string()),
    };
    Case {
        source: source.clone(),
        line,
        id: field(cols.id).to_string(),
        start_text,
        goal_text,
        expected_steps,
        problem,
    }
}

/// Cuts `text` into pieces of about `size` bytes, each ending at a line end, with the line
/// number each piece starts on.
fn split_lines(text: &str, size: usize, first_line: u64) -> Vec<(u64, &str)> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut line = first_line;
    while start < text.len() {
        let mut end = (start + size).min(text.len());
        if end < text.len() {
            end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        }
        let piece = &text[start..end];
        pieces.push((line, piece));
        line += piece.bytes().filter(|&b| b == b'\n').count() as u64;
        start = end;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_line_numbers_across_pieces() {
        // Enough rows for many 256 KB pieces, with bad rows and comments scattered.
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
            assert!(c
                .problem
                .as_ref()
                .unwrap_err()
                .starts_with(&format!("t.csv:{}:", c.line)));
        }
        // Ids are in file order: nothing lost or reordered.
        assert!(cases.iter().enumerate().all(|(i, c)| c.id == i.to_string()));
    }
}
