use super::{Move, Shape, MAX_CELLS};
use std::fmt;

/// A board: a shape and its cells (blank = 0).
///
/// A board of at most 16 cells ([`Shape::is_packed`]) is packed four bits a cell into a
/// `u64` ([`Board::packed`]); the searches tuned for the 8- and 15-puzzles work on that
/// word. A larger board (up to 7x7) holds a byte a cell instead, and its packed word is 0.
///
/// ```
/// use tilebench::puzzle::{Board, Move};
/// let b: Board = "1 2 3 x 4 6 7 5 8".parse().unwrap();
/// let after = b.apply(Move::Right).unwrap();
/// assert_eq!(after.to_string(), "1 2 3 4 x 6 7 5 8");
/// let big: Board = (1..25).map(|t| t.to_string()).chain(["x".into()]).collect::<Vec<_>>().join(" ").parse().unwrap();
/// assert_eq!(big.apply(Move::Up).unwrap().tile(24), 20);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Board {
    cells: u64,
    shape: Shape,
    blank: u8,
    /// The cells of a board of more than 16 cells, a byte each; all 0 for a packed board.
    wide: [u8; MAX_CELLS],
}

// Equality and hashing read `wide` only on a board that uses it: a packed board's is all 0
// (the harness compares every answer's last board with its goal, and cases.csv's goal with
// the row before's).
impl PartialEq for Board {
    #[inline]
    fn eq(&self, other: &Board) -> bool {
        self.cells == other.cells
            && self.shape == other.shape
            && self.blank == other.blank
            && (self.is_packed() || self.wide == other.wide)
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
        self.shape.hash(state);
        self.blank.hash(state);
        if !self.is_packed() {
            self.wide.hash(state);
        }
    }
}

/// Packed cells after the tile at `to` slides into the blank's cell `blank`.
#[inline(always)]
fn slid(cells: u64, blank: usize, to: usize) -> u64 {
    let t = (cells >> (4 * to)) & 0xF;
    cells - (t << (4 * to)) + (t << (4 * blank))
}

impl Board {
    /// Builds a board from its tiles in row-major order (0 = blank). The caller guarantees a
    /// permutation of `0..shape.cells()`; [`Board::parse`](crate::puzzle::Board::parse) checks it.
    pub fn from_tiles(shape: Shape, tiles: &[u8]) -> Board {
        debug_assert_eq!(tiles.len(), shape.cells());
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        if !shape.is_packed() {
            let mut wide = [0u8; MAX_CELLS];
            wide[..tiles.len()].copy_from_slice(tiles);
            return Board {
                cells: 0,
                shape,
                blank,
                wide,
            };
        }
        let mut cells = 0u64;
        for (p, &t) in tiles.iter().enumerate() {
            cells |= (t as u64) << (4 * p);
        }
        Board::from_parts(shape, cells, blank)
    }

    /// Rebuilds a packed board (at most 16 cells) from its packed cells (as returned by
    /// [`Board::packed`]).
    pub fn from_packed(shape: Shape, cells: u64) -> Board {
        let blank = (0..shape.cells())
            .find(|&p| (cells >> (4 * p)) & 0xF == 0)
            .unwrap_or(0) as u8;
        Board::from_parts(shape, cells, blank)
    }

    /// Builds a packed board (at most 16 cells) from its packed cells and known blank position.
    #[inline(always)]
    pub fn from_parts(shape: Shape, cells: u64, blank: u8) -> Board {
        debug_assert!(shape.is_packed(), "a {shape} board is not packed");
        Board {
            cells,
            shape,
            blank,
            wide: [0; MAX_CELLS],
        }
    }

    /// The goal tilebench uses when none is given: tiles in reading order, blank last.
    pub fn standard_goal(shape: Shape) -> Board {
        let n = shape.cells();
        let tiles: Vec<u8> = (1..n as u8).chain(std::iter::once(0)).collect();
        Board::from_tiles(shape, &tiles)
    }

    /// The board's width and height.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// Whether the board is packed four bits a cell in a `u64` (at most 16 cells).
    #[inline(always)]
    pub fn is_packed(&self) -> bool {
        self.shape.is_packed()
    }
    /// The packed cells of a board of at most 16 cells: a key for hash tables and ordered
    /// sets. 0 for a larger board (whose strategies read [`Board::tile`]).
    #[inline(always)]
    pub fn packed(&self) -> u64 {
        self.cells
    }
    /// The blank's cell.
    #[inline(always)]
    pub fn blank(&self) -> usize {
        self.blank as usize
    }
    /// The tile at cell `pos` (0 = blank).
    #[inline(always)]
    pub fn tile(&self, pos: usize) -> u8 {
        if self.is_packed() {
            self.nibble(pos)
        } else {
            self.wide[pos]
        }
    }
    /// The tile at cell `pos` of a packed board (at most 16 cells), without asking the
    /// shape: for the searches that only ever see packed boards.
    #[inline(always)]
    pub fn nibble(&self, pos: usize) -> u8 {
        ((self.cells >> (4 * pos)) & 0xF) as u8
    }
    /// The tiles in row-major order.
    pub fn tiles(&self) -> Vec<u8> {
        (0..self.shape.cells()).map(|p| self.tile(p)).collect()
    }

    /// The board with its first two tiles (not the blank) swapped: the other parity, so a
    /// pair that was solvable is not and the other way round; a bijection between the halves.
    pub fn with_parity_flipped(&self) -> Board {
        let mut tiles = self.tiles();
        let cells: Vec<usize> = (0..tiles.len())
            .filter(|&p| tiles[p] != 0)
            .take(2)
            .collect();
        tiles.swap(cells[0], cells[1]);
        Board::from_tiles(self.shape, &tiles)
    }

    /// Moves the blank to cell `to` (which must neighbour it), sliding that tile into the old blank cell.
    #[inline(always)]
    pub fn slide_blank_to(&self, to: usize) -> Board {
        if !self.is_packed() {
            let mut b = *self;
            b.wide.swap(to, self.blank as usize);
            b.blank = to as u8;
            return b;
        }
        Board::from_parts(self.shape, slid(self.cells, self.blank(), to), to as u8)
    }

    /// The board after moving the blank, or `None` if the move leaves the board.
    pub fn apply(&self, m: Move) -> Option<Board> {
        let (r, c) = self.shape.row_col(self.blank());
        let w = self.shape.width();
        let to = match m {
            Move::Up if r > 0 => self.blank() - w,
            Move::Down if r + 1 < self.shape.height() => self.blank() + w,
            Move::Left if c > 0 => self.blank() - 1,
            Move::Right if c + 1 < w => self.blank() + 1,
            _ => return None,
        };
        Some(self.slide_blank_to(to))
    }

    /// Replays a path. On an illegal move, says which one (1-based) and why.
    ///
    /// # Errors
    /// A move that takes the blank off the board ([`ReplayError`]: its 1-based position,
    /// the move and the blank's cell).
    pub fn replay(&self, path: &[Move]) -> Result<Board, ReplayError> {
        if !self.is_packed() {
            return self.replay_wide(path);
        }
        // The moves' cells from the shape's table (the harness replays every answer: a
        // division per move to find the blank's row and column was 8% of a `-s table` pass).
        // The cells and the blank are moved as two integers, the board made once at the end
        // (a board is 64 bytes: making one a move was a quarter of the replay's time).
        let neighbors = super::Neighbors::of(self.shape);
        let (mut cells, mut blank) = (self.cells, self.blank as usize);
        for (i, &m) in path.iter().enumerate() {
            let to = neighbors.target(blank, m as usize);
            if to == super::Neighbors::NONE {
                return Err(ReplayError {
                    step: i + 1,
                    mv: m,
                    cell: blank,
                });
            }
            cells = slid(cells, blank, to as usize);
            blank = to as usize;
        }
        Ok(Board::from_parts(self.shape, cells, blank as u8))
    }

    /// [`Board::replay`] of a board larger than the neighbour tables (more than 16 cells).
    fn replay_wide(&self, path: &[Move]) -> Result<Board, ReplayError> {
        let mut b = *self;
        for (i, &m) in path.iter().enumerate() {
            b = b.apply(m).ok_or(ReplayError {
                step: i + 1,
                mv: m,
                cell: b.blank(),
            })?;
        }
        Ok(b)
    }

    /// Formats with a chosen blank token (`x`, `0` or `_`), cells separated by spaces.
    pub fn format_with(&self, blank: &str) -> String {
        let mut s = String::with_capacity(self.shape.cells() * 3);
        let _ = self.write_to(&mut s, blank);
        s
    }

    /// Writes the board as [`Board::format_with`] does, without allocating (cases.csv
    /// writes two boards a row, a million rows a second).
    ///
    /// # Errors
    /// Only those of `out` (a `String` never fails).
    pub fn write_to<W: fmt::Write>(&self, out: &mut W, blank: &str) -> fmt::Result {
        // The tiles' text, the blank as a NUL, handed over in at most three pieces: before
        // the blank, the blank, after it.
        let mut buf = [0u8; Board::TEXT_ROOM];
        let n = self.write_ascii(&mut buf, 0);
        // Only ASCII digits and spaces are written.
        fn text(b: &[u8]) -> &str {
            std::str::from_utf8(b).unwrap_or_default()
        }
        match buf[..n].iter().position(|&b| b == 0) {
            Some(at) => {
                out.write_str(text(&buf[..at]))?;
                out.write_str(blank)?;
                out.write_str(text(&buf[at + 1..n]))
            }
            None => out.write_str(text(&buf[..n])),
        }
    }

    /// The most bytes [`Board::write_ascii`] writes: two digits and a space a cell.
    pub(crate) const TEXT_ROOM: usize = 3 * crate::puzzle::shape::MAX_CELLS;

    /// Writes the board's text into the start of `out` (at least [`Board::TEXT_ROOM`] bytes)
    /// as [`Board::write_to`] does, with the byte `blank` for the blank; returns how many
    /// bytes it wrote. cases.csv's rows write their boards this way, in place.
    #[inline]
    pub(crate) fn write_ascii(&self, out: &mut [u8], blank: u8) -> usize {
        let out = &mut out[..Board::TEXT_ROOM];
        let mut n = 0;
        for p in 0..self.shape.cells() {
            if p > 0 {
                out[n] = b' ';
                n += 1;
            }
            match self.tile(p) {
                0 => {
                    out[n] = blank;
                    n += 1;
                }
                t @ 1..=9 => {
                    out[n] = b'0' + t;
                    n += 1;
                }
                t => {
                    out[n] = b'0' + t / 10;
                    out[n + 1] = b'0' + t % 10;
                    n += 2;
                }
            }
        }
        n
    }
}

impl fmt::Display for Board {
    /// Row by row, blank as `x`: `1 2 3 x 4 6 7 5 8`. [`Board::parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f, "x")
    }
}

/// A move of a path that takes the blank off the board ([`Board::replay`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {step} (`{}`) takes the blank off the board at cell {cell}", .mv.letter())]
#[non_exhaustive]
pub struct ReplayError {
    /// The move's position in the path, from 1.
    pub step: usize,
    /// The move.
    pub mv: Move,
    /// The blank's cell before it (row-major, from 0).
    pub cell: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::MOVE_ORDER;

    /// Two boards are equal, and hash alike, exactly when their shapes and tiles are: on
    /// packed boards (whose byte cells are not read) and on larger ones (whose packed word is
    /// not used), down to the last cell.
    #[test]
    fn boards_are_equal_when_their_tiles_are() {
        use std::hash::BuildHasher;
        let state = std::collections::hash_map::RandomState::new();
        let h = |b: &Board| state.hash_one(b);
        let mut rng = crate::util::Rng::new(9);
        for (w, h_) in crate::puzzle::TEST_SHAPES
            .iter()
            .copied()
            .chain([(5, 5), (7, 7)])
        {
            let shape = Shape::new(w, h_).unwrap();
            let n = shape.cells();
            let mut tiles: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                tiles.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let a = Board::from_tiles(shape, &tiles);
            assert_eq!(a, Board::from_tiles(shape, &tiles.clone()));
            assert_eq!(h(&a), h(&Board::from_tiles(shape, &tiles)));
            // The last two cells swapped: another board.
            let mut other = tiles.clone();
            other.swap(n - 2, n - 1);
            let b = Board::from_tiles(shape, &other);
            assert_ne!(a, b, "{shape}");
            assert_eq!(a.tiles() == b.tiles(), a == b);
            // The same tiles moved and moved back.
            let m = MOVE_ORDER
                .into_iter()
                .find(|&m| a.apply(m).is_some())
                .unwrap();
            let back = a.apply(m).unwrap().apply(m.inverse()).unwrap();
            assert_eq!(back, a);
            assert_eq!(h(&back), h(&a));
        }
    }

    /// `replay` reads the moves' cells from the shape's table; it answers as applying the
    /// moves one by one does, the error of the first illegal move included.
    #[test]
    fn replay_is_applying_the_moves_in_turn() {
        let mut rng = crate::util::Rng::new(5);
        let mut illegal = 0;
        for (w, h) in crate::puzzle::TEST_SHAPES {
            let shape = Shape::new(w, h).unwrap();
            let nb = crate::puzzle::Neighbors::of(shape);
            for _ in 0..200 {
                let start = nb.random_walk(Board::standard_goal(shape), 40, &mut rng);
                let path: Vec<Move> = (0..rng.index(30))
                    .map(|_| MOVE_ORDER[rng.index(4) as usize])
                    .collect();
                let mut want = Ok(start);
                for (i, &m) in path.iter().enumerate() {
                    let b = want.clone().unwrap();
                    want = b.apply(m).ok_or_else(|| {
                        format!(
                            "move {} (`{}`) takes the blank off the board at cell {}",
                            i + 1,
                            m.letter(),
                            b.blank()
                        )
                    });
                    if want.is_err() {
                        illegal += 1;
                        break;
                    }
                }
                assert_eq!(
                    start.replay(&path).map_err(|e| e.to_string()),
                    want,
                    "{start} {path:?}"
                );
            }
        }
        assert!(illegal > 100);
    }

    /// A random walk of `n` moves by `apply` (any size).
    fn walk(mut b: Board, n: usize, rng: &mut crate::util::Rng) -> Board {
        for _ in 0..n {
            if let Some(next) = b.apply(MOVE_ORDER[rng.index(4) as usize]) {
                b = next;
            }
        }
        b
    }

    /// `write_to` gathers the tiles' text on the stack: the same text as writing tile by
    /// tile, for shapes up to 49 cells and blank tokens of any length.
    #[test]
    fn write_to_is_the_tiles_in_order() {
        let mut rng = crate::util::Rng::new(6);
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 3),
            (4, 4),
            (5, 3),
            (8, 2),
            (5, 5),
            (6, 6),
            (7, 7),
            (2, 24),
        ] {
            let shape = Shape::new(w, h).unwrap();
            for blank in ["x", "0", "_", "", "blank"] {
                let b = walk(Board::standard_goal(shape), 100, &mut rng);
                let want: Vec<String> = (0..shape.cells())
                    .map(|p| match b.tile(p) {
                        0 => blank.to_string(),
                        t => t.to_string(),
                    })
                    .collect();
                assert_eq!(b.format_with(blank), want.join(" "));
            }
        }
    }
}
