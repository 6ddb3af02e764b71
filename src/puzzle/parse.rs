use super::{Board, Shape, ShapeError, MAX_CELLS};
use crate::util::clip;
use std::str::FromStr;

/// Why a board's text was refused. Every message names the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// The text holds no token at all.
    #[error("no board (the field is empty)")]
    Empty,
    /// A token that is neither a number nor a blank (`x`, `0`, `_`).
    #[error("cell {position}: `{}` is not a tile (use numbers, and `x`, `0` or `_` for the blank)", clip(.token, 24))]
    UnknownToken {
        /// The token as written.
        token: String,
        /// Its cell, 1-based.
        position: usize,
    },
    /// A number that is not a tile of the board: below 0, or ≥ the number of cells.
    #[error("cell {position}: tile {} is out of range: a {cells}-cell board has tiles 1..{} and a blank", clip(.tile, 24), .cells.saturating_sub(1))]
    TileOutOfRange {
        /// The number as written (it may not fit any integer type).
        tile: String,
        /// Its cell, 1-based.
        position: usize,
        /// The board's number of cells (its tiles are `1..cells`).
        cells: usize,
    },
    /// A tile or the blank written twice (the first repeat is reported).
    #[error("cell {position}: {token} appears more than once ({} {} missing)", .missing.join(", "), if .missing.len() == 1 { "is" } else { "are" })]
    Repeated {
        /// What is repeated: `tile 5` or `the blank`.
        token: String,
        /// The cell of its second occurrence, 1-based.
        position: usize,
        /// The tiles (and blank) that therefore do not appear, named as `token` is.
        missing: Vec<String>,
    },
    /// The number of cells does not fit the shape, or, without a shape, is not 4, 9, 16, 25, 36 or 49.
    #[error("{}", cell_count(*.found, *.shape, SIZE_OPTION))]
    CellCount {
        /// How many cells the text has.
        found: usize,
        /// The shape that was asked for, if any.
        shape: Option<Shape>,
    },
    /// A shape that tilebench cannot handle (see [`Shape::new`]).
    #[error("{0}")]
    Shape(ShapeError),
}

/// How a command line gives the shape of boards without a `size` column.
const SIZE_FLAG: &str = "--size WxH";
/// The same, in the library's words ([`crate::dataset::InputOptions::size`]).
const SIZE_OPTION: &str = "the input options' `size` (a shape, WxH)";

/// [`BoardError::CellCount`]'s sentence, naming the shape's option as `size` says.
fn cell_count(found: usize, shape: Option<Shape>, size: &str) -> String {
    match shape {
        Some(s) => format!("{found} cells, but a {s} board has {}", s.cells()),
        None => format!(
            "{found} cells is not a square board (4, 9, 16, 25, 36 or 49 cells); give the shape \
             with a `size` column or {size}"
        ),
    }
}

impl BoardError {
    /// The message as a command line says it: the shape of boards without a `size` column
    /// is given with `--size WxH`.
    pub fn message_with_flags(&self) -> String {
        match self {
            BoardError::CellCount { found, shape } => cell_count(*found, *shape, SIZE_FLAG),
            e => e.to_string(),
        }
    }
}

/// An optional sign and ASCII digits.
fn is_integer(tok: &str) -> bool {
    let digits = tok.strip_prefix(['-', '+']).unwrap_or(tok);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The ASCII bytes that separate a board's tokens: what `char::is_whitespace`, `,` and `;`
/// are among ASCII (the general path splits on those).
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b',' | b';')
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
    /// one, is not 4, 9, 16, 25, 36 or 49).
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<Board, BoardError> {
        if let Some(b) = Self::parse_plain(text.as_bytes(), shape) {
            return Ok(b);
        }
        Self::parse_any(text, shape)
    }

    /// The common case, fast: ASCII numbers of one or two digits and `x`/`X`/`_` blanks
    /// between separators, forming a valid board. Anything else (`None`) is left to
    /// [`Board::parse_any`], which also words every error.
    fn parse_plain(text: &[u8], shape: Option<Shape>) -> Option<Board> {
        let mut tiles = [0u8; MAX_CELLS];
        let (mut n, mut at) = (0usize, 0usize);
        // A board of at most 16 cells is packed as it is read (its cells and blank), not
        // made from `tiles` after.
        let (mut packed, mut blank) = (0u64, 0u8);
        while at < text.len() {
            let b = text[at];
            if is_separator(b) {
                at += 1;
                continue;
            }
            if n == MAX_CELLS {
                return None;
            }
            let tile = match (b, text.get(at + 1).copied()) {
                (b'x' | b'X' | b'_', _) => {
                    at += 1;
                    0
                }
                (d @ b'0'..=b'9', Some(e @ b'0'..=b'9')) => {
                    at += 2;
                    (d - b'0') * 10 + (e - b'0')
                }
                (d @ b'0'..=b'9', _) => {
                    at += 1;
                    d - b'0'
                }
                _ => return None,
            };
            // The token must end here.
            if text.get(at).is_some_and(|&c| !is_separator(c)) {
                return None;
            }
            tiles[n] = tile;
            if n < super::shape::PACKED_CELLS {
                packed |= u64::from(tile) << (4 * n);
            }
            if tile == 0 {
                blank = n as u8;
            }
            n += 1;
        }
        // One token is the compact form, or an error: the general path.
        if n < 2 {
            return None;
        }
        let shape = match shape {
            Some(s) if s.cells() == n => s,
            Some(_) => return None,
            None => Shape::from_cells(n)?,
        };
        let mut seen = 0u64;
        for &t in &tiles[..n] {
            if usize::from(t) >= n || seen & (1 << t) != 0 {
                return None;
            }
            seen |= 1 << t;
        }
        if shape.is_packed() {
            return Some(Board::from_parts(shape, packed, blank));
        }
        Some(Board::from_tiles(shape, &tiles[..n]))
    }

    /// [`Board::parse`] of any text, every error worded.
    fn parse_any(text: &str, shape: Option<Shape>) -> Result<Board, BoardError> {
        // Up to 49 tokens on the stack; past that only the count matters (for the message).
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A board whose cells make no square, with no shape given, is told to give one with a
    /// `size` column or, on a command line, `--size WxH`; every other refusal reads the same
    /// both ways.
    #[test]
    fn a_board_of_no_square_names_the_size_flag_on_the_command_line() {
        let e = Board::parse("1 2 3 4 x", None).unwrap_err();
        assert_eq!(
            e.message_with_flags(),
            "5 cells is not a square board (4, 9, 16, 25, 36 or 49 cells); give the shape with \
             a `size` column or --size WxH"
        );
        assert_eq!(
            e.to_string(),
            "5 cells is not a square board (4, 9, 16, 25, 36 or 49 cells); give the shape with \
             a `size` column or the input options' `size` (a shape, WxH)"
        );
        let shape = "2x3".parse().ok();
        for text in ["1 2 3 4 x", "1 1 2 3 4 x", "1 2 3 4 5 9"] {
            let e = Board::parse(text, shape).unwrap_err();
            assert_eq!(e.message_with_flags(), e.to_string(), "{text}");
            assert!(!e.to_string().contains("--"), "{e}");
        }
    }

    /// Texts made of the pieces boards are written with, and of what goes wrong in them.
    fn texts() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
            "16", "24", "25", "48", "07", "123", "x", "X", "_", "xx", "-1", "+2", "a", "é", " ",
            "  ", ",", ";", "\t", "\u{b}", "\u{a0}", "\r\n",
        ]);
        prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
    }

    /// Permutations of 4 to 49 cells written with random separators and blanks,
    /// sometimes with one token spoiled.
    fn boards() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec![4usize, 9, 12, 16, 25, 36, 49]),
            any::<u64>(),
            0usize..40,
        )
            .prop_map(|(n, seed, spoil)| {
                let mut tiles: Vec<usize> = (0..n).collect();
                let mut x = seed | 1;
                let mut next = || {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                };
                for i in (1..n).rev() {
                    tiles.swap(i, (next() % (i as u64 + 1)) as usize);
                }
                let seps = [" ", ",", ";", "\t", "  ", ", "];
                let mut out = String::new();
                for (i, t) in tiles.iter().enumerate() {
                    if i > 0 {
                        out.push_str(seps[(next() % 6) as usize]);
                    }
                    match (*t, next() % 3) {
                        (0, 0) => out.push('x'),
                        (0, 1) => out.push('_'),
                        (t, _) if i == spoil => out.push_str(&format!("{}", t + n)),
                        (t, _) => out.push_str(&t.to_string()),
                    }
                }
                out
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// The fast path takes valid boards and gives what the general one gives.
        #[test]
        fn written_boards_read_alike_on_both_paths(text in boards()) {
            let general = Board::parse_any(&text, None);
            prop_assert_eq!(Board::parse(&text, None), general.clone());
            if general.is_ok() && text.split([' ', ',', ';', '\t']).filter(|t| !t.is_empty()).count() != 12 {
                prop_assert!(Board::parse_plain(text.as_bytes(), None).is_some(), "{}", text);
            }
        }

        /// The fast path gives what the general one gives, on any text and shape.
        #[test]
        fn the_plain_path_reads_as_the_general_one(text in texts(), shape in 0usize..5) {
            let shape = [None, Some(Shape::new(3, 3).unwrap()), Some(Shape::new(4, 3).unwrap()),
                Some(Shape::new(2, 2).unwrap()), Some(Shape::new(5, 5).unwrap())][shape];
            let general = Board::parse_any(&text, shape);
            if let Some(b) = Board::parse_plain(text.as_bytes(), shape) {
                prop_assert_eq!(Ok(b), general.clone());
            }
            prop_assert_eq!(Board::parse(&text, shape), general);
        }
    }

    #[test]
    fn plain_boards_take_the_fast_path() {
        for t in [
            "1 2 3 4 5 6 7 8 x",
            "1,2,3,4,5,6,7,8,0",
            "15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 _",
        ] {
            assert!(Board::parse_plain(t.as_bytes(), None).is_some(), "{t}");
        }
    }
}
