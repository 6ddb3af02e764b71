use std::fmt;
use std::str::FromStr;

/// The largest board tilebench handles: 49 cells, the 7x7 board (the 48-puzzle).
pub const MAX_CELLS: usize = 49;

/// The largest board kept packed, four bits a cell in a `u64`: 16 cells. Every strategy takes
/// these; larger boards ([`Shape::is_packed`] false) hold a byte a cell and only the strategies
/// that need no table take them.
pub(crate) const PACKED_CELLS: usize = 16;

/// The width and height of a board. Both are at least 2 and `width × height ≤ 49`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Shape {
    width: u8,
    height: u8,
}

/// Why a shape was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError(pub String);

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ShapeError {}

impl Shape {
    /// The 8-puzzle's shape.
    pub const S3X3: Shape = Shape {
        width: 3,
        height: 3,
    };
    /// The 15-puzzle's shape.
    pub const S4X4: Shape = Shape {
        width: 4,
        height: 4,
    };

    /// A `width × height` shape, refused unless both sides are ≥ 2 and it has at most
    /// [`MAX_CELLS`] cells.
    ///
    /// # Errors
    /// A side shorter than 2, or more than [`MAX_CELLS`] cells; the message gives the size.
    pub fn new(width: usize, height: usize) -> Result<Shape, ShapeError> {
        if width < 2 || height < 2 {
            return Err(ShapeError(format!(
                "a {width}x{height} board is too narrow: both sides must be at least 2"
            )));
        }
        // checked: a size read from a file may be any number (`99999999999999999999x2`)
        match width.checked_mul(height) {
            Some(cells) if cells <= MAX_CELLS => {}
            Some(cells) => {
                return Err(ShapeError(format!(
                    "a {width}x{height} board has {cells} cells; tilebench handles at most {MAX_CELLS}"
                )))
            }
            None => {
                return Err(ShapeError(format!(
                    "a {width}x{height} board is far too large; tilebench handles at most {MAX_CELLS} cells"
                )))
            }
        }
        Ok(Shape {
            width: width as u8,
            height: height as u8,
        })
    }

    /// The 24-puzzle's shape.
    pub const S5X5: Shape = Shape {
        width: 5,
        height: 5,
    };

    /// The square shape with `cells` cells (4, 9, 16, 25, 36 or 49); other counts are
    /// ambiguous or impossible.
    pub fn from_cells(cells: usize) -> Option<Shape> {
        let side = (2..=7).find(|s| s * s == cells)?;
        Some(Shape {
            width: side as u8,
            height: side as u8,
        })
    }

    /// Whether boards of this shape are packed four bits a cell (at most `PACKED_CELLS`
    /// cells): every strategy takes them. Larger ones hold a byte a cell.
    #[inline(always)]
    pub fn is_packed(self) -> bool {
        self.cells() <= PACKED_CELLS
    }

    /// The number of columns.
    pub fn width(self) -> usize {
        self.width as usize
    }
    /// The number of rows.
    pub fn height(self) -> usize {
        self.height as usize
    }
    /// The number of cells, `width × height` (the blank included).
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }
    /// Row and column of cell `pos`.
    pub fn row_col(self, pos: usize) -> (usize, usize) {
        (pos / self.width(), pos % self.width())
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;
    /// Parses `WxH` (`3x3`, `4X4`, `3×4`).
    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let t = s.trim();
        let bad = || {
            ShapeError(format!(
                "`{}` is not a board size; write it as WxH, e.g. 3x3 or 3x4",
                crate::util::clip(t, 24)
            ))
        };
        let (w, h) = t.split_once(['x', 'X', '×']).ok_or_else(bad)?;
        // Sides too large for any number are far too large, not "not a size".
        let side = |v: &str| {
            let v = v.trim();
            match v.parse::<usize>() {
                Ok(n) => Ok(n),
                Err(_) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => Ok(usize::MAX),
                Err(_) => Err(bad()),
            }
        };
        let (w, h) = (side(w)?, side(h)?);
        if w == usize::MAX || h == usize::MAX {
            return Err(ShapeError(format!(
                "a {} board is far too large; tilebench handles at most {MAX_CELLS} cells",
                crate::util::clip(t, 24)
            )));
        }
        Shape::new(w, h)
    }
}

/// The shapes unit tests walk over: square and oblong, 4 to 16 cells.
#[cfg(test)]
pub(crate) const TEST_SHAPES: [(usize, usize); 10] = [
    (2, 2),
    (3, 2),
    (2, 3),
    (4, 2),
    (2, 4),
    (3, 3),
    (4, 3),
    (3, 4),
    (5, 2),
    (4, 4),
];
