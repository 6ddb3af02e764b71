use super::{Board, Shape, ShapeError, MAX_CELLS};
use crate::util::clip;
use std::fmt;
use std::str::FromStr;

/// Why a board's text was refused. Every message names the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The text holds no token at all.
    Empty,
    /// A token that is neither a number nor a blank (`x`, `0`, `_`).
    UnknownToken {
        /// The token as written.
        token: String,
        /// Its cell, 1-based.
        position: usize,
    },
    /// A number that is not a tile of the board: below 0, or ≥ the number of cells.
    TileOutOfRange {
        /// The number as written (it may not fit any integer type).
        tile: String,
        /// Its cell, 1-based.
        position: usize,
        /// The board's number of cells (its tiles are `1..cells`).
        cells: usize,
    },
    /// A tile or the blank written twice (the first repeat is reported).
    Repeated {
        /// What is repeated: `tile 5` or `the blank`.
        token: String,
        /// The cell of its second occurrence, 1-based.
        position: usize,
        /// The tiles (and blank) that therefore do not appear, named as `token` is.
        missing: Vec<String>,
    },
    /// The number of cells does not fit the shape, or, without a shape, is not 4, 9 or 16.
    CellCount {
        /// How many cells the text has.
        found: usize,
        /// The shape that was asked for, if any.
        shape: Option<Shape>,
    },
    /// A shape that tilebench cannot handle (see [`Shape::new`]).
    Shape(ShapeError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => write!(f, "no board (the field is empty)"),
            BoardError::UnknownToken { token, position } => write!(
                f,
                "cell {position}: `{}` is not a tile (use numbers, and `x`, `0` or `_` for the blank)",
                clip(token, 24)
            ),
            BoardError::TileOutOfRange { tile, position, cells } => write!(
                f,
                "cell {position}: tile {} is out of range: a {cells}-cell board has tiles 1..{} and a blank",
                clip(tile, 24),
                cells.saturating_sub(1)
            ),
            BoardError::Repeated {
                token,
                position,
                missing,
            } => write!(
                f,
                "cell {position}: {token} appears more than once ({} {} missing)",
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" }
            ),
            BoardError::CellCount { found, shape: Some(s) } => write!(
                f,
                "{found} cells, but a {s} board has {}",
                s.cells()
            ),
            BoardError::CellCount { found, shape: None } => write!(
                f,
                "{found} cells is not a square board (4, 9 or 16 cells); give the shape with a `size` column or --size WxH"
            ),
            BoardError::Shape(e) => write!(f, "{e}"),
        }
    }
}
impl std::error::Error for BoardError {}

/// An optional sign and ASCII digits.
fn is_integer(tok: &str) -> bool {
    let digits = tok.strip_prefix(['-', '+']).unwrap_or(tok);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_blank(tok: &str) -> bool {
    matches!(tok, "x" | "X" | "_" | "0")
}

impl Board {
    /// Parses a board written row by row: `1 2 3 x 4 6 7 5 8`, `1,2,3,0,4,6,7,5,8`, or for
    /// boards of up to 9 cells the compact `12345678x`. The blank is `x`, `0` or `_`.
    ///
    /// The shape is `shape` when given, otherwise the square with that many cells.
    ///
    /// # Errors
    /// A [`BoardError`]: no tokens, a token that is not a tile or blank, a tile out of
    /// range, a repeated tile, or a number of cells that does not fit the shape (or, without
    /// one, is not 4, 9 or 16).
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<Board, BoardError> {
        // Up to 16 tokens on the stack; past that only the count matters (for the message).
        let mut tokens: [&str; MAX_CELLS] = [""; MAX_CELLS];
        let mut n = 0usize;
        for t in text
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|t| !t.is_empty())
        {
            if n < MAX_CELLS {
                tokens[n] = t;
            }
            n += 1;
        }
        if n == 0 {
            return Err(BoardError::Empty);
        }
        // The compact form: one token of single characters, one per cell.
        if n == 1 && tokens[0].chars().count() > 1 {
            let t = tokens[0];
            let len = t.chars().count();
            let fits = match shape {
                Some(s) => s.cells() == len && len <= 10,
                None => len == 9 || len == 4,
            };
            if fits
                && t.chars()
                    .all(|c| c.is_ascii_digit() || is_blank(&c.to_string()))
            {
                // All ASCII: one byte per cell.
                for (i, tok) in tokens.iter_mut().enumerate().take(len) {
                    *tok = &t[i..i + 1];
                }
                n = len;
            }
        }
        let shape = match shape {
            Some(s) if s.cells() != n => {
                return Err(BoardError::CellCount {
                    found: n,
                    shape: Some(s),
                })
            }
            Some(s) => s,
            None => Shape::from_cells(n).ok_or(BoardError::CellCount {
                found: n,
                shape: None,
            })?,
        };
        let tokens = &tokens[..n];
        let name = |t: usize| {
            if t == 0 {
                "the blank".to_string()
            } else {
                format!("tile {t}")
            }
        };
        let mut seen = [false; MAX_CELLS];
        let mut repeat = None;
        let mut tiles = [0u8; MAX_CELLS];
        for (i, tok) in tokens.iter().enumerate() {
            let position = i + 1;
            let out_of_range = || BoardError::TileOutOfRange {
                tile: (*tok).to_string(),
                position,
                cells: n,
            };
            let tile: i64 = if is_blank(tok) {
                0
            } else {
                match tok.parse::<i64>() {
                    Ok(t) => t,
                    // A number too large for any tile is out of range, not "not a number".
                    Err(_) if is_integer(tok) => return Err(out_of_range()),
                    Err(_) => {
                        return Err(BoardError::UnknownToken {
                            token: (*tok).to_string(),
                            position,
                        })
                    }
                }
            };
            if tile < 0 || tile >= n as i64 {
                return Err(out_of_range());
            }
            if seen[tile as usize] && repeat.is_none() {
                repeat = Some((tile as usize, position));
            }
            seen[tile as usize] = true;
            tiles[i] = tile as u8;
        }
        if let Some((tile, position)) = repeat {
            return Err(BoardError::Repeated {
                token: name(tile),
                position,
                missing: (0..n).filter(|&t| !seen[t]).map(name).collect(),
            });
        }
        Ok(Board::from_tiles(shape, &tiles[..n]))
    }
}

impl FromStr for Board {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<Board, BoardError> {
        Board::parse(s, None)
    }
}
