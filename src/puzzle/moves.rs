use super::Shape;
use std::fmt;
use std::sync::OnceLock;

/// Where the blank goes: `Up` swaps the blank with the tile above it, and so on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Move {
    /// The blank moves up a row (`u`).
    Up = 0,
    /// The blank moves left a column (`l`).
    Left = 1,
    /// The blank moves right a column (`r`).
    Right = 2,
    /// The blank moves down a row (`d`).
    Down = 3,
}

/// The order in which every strategy generates moves: up, left, right, down (Korf's order).
pub const MOVE_ORDER: [Move; 4] = [Move::Up, Move::Left, Move::Right, Move::Down];

impl Move {
    /// The move that undoes this one. With the order above, `inverse` is `3 - index`.
    #[inline]
    pub fn inverse(self) -> Move {
        MOVE_ORDER[3 - self as usize]
    }
    /// The move at index `i` of [`MOVE_ORDER`] (its discriminant; only the low two bits
    /// are read), as searches store moves in a byte.
    #[inline]
    pub fn from_index(i: u8) -> Move {
        MOVE_ORDER[i as usize & 3]
    }
    /// The move's letter in move strings: `u`, `l`, `r` or `d`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'u',
            Move::Left => 'l',
            Move::Right => 'r',
            Move::Down => 'd',
        }
    }
    /// The move a letter names, in either case; `None` for any other character.
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_lowercase() {
            'u' => Some(Move::Up),
            'l' => Some(Move::Left),
            'r' => Some(Move::Right),
            'd' => Some(Move::Down),
            _ => None,
        }
    }
    /// Writes a path as the seed articles do: `ullddrurdllurdruldr`.
    pub fn path_string(path: &[Move]) -> String {
        path.iter().map(|m| m.letter()).collect()
    }
    /// Reads a move string; an unknown letter is reported with its position.
    ///
    /// # Errors
    /// A character (after trimming) that is not `u`, `d`, `l` or `r` in either case
    /// ([`PathError`]: the character and its 1-based position).
    pub fn parse_path(s: &str) -> Result<Vec<Move>, PathError> {
        s.trim()
            .chars()
            .enumerate()
            .map(|(i, c)| {
                Move::from_letter(c).ok_or(PathError {
                    position: i + 1,
                    found: c,
                })
            })
            .collect()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// For each blank position of a shape, the legal moves and the cell the blank moves to,
/// in [`MOVE_ORDER`]. Built once per search; lookups are two array reads.
#[derive(Clone, Debug)]
pub(crate) struct Neighbors {
    /// `targets[pos][m]` is the cell the blank reaches from `pos` by move `m`, or `NONE`.
    targets: [[u8; 4]; 16],
    /// `children[pos][last]`: the legal moves from `pos` but the inverse of `last` (4 = none).
    children: [[Children; 5]; 16],
    /// `at[pos][last][m]`: where move `m` comes in `children[pos][last]` (4 = not there).
    at: [[[u8; 4]; 5]; 16],
}

/// The successors [`Neighbors::children`] lists: at most four (move index, blank cell) pairs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Children {
    list: [(u8, u8); 4],
    len: u8,
}

impl Children {
    /// The (move index, blank cell) pairs, in [`MOVE_ORDER`].
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[(u8, u8)] {
        &self.list[..self.len as usize]
    }
}

impl Neighbors {
    /// What [`Neighbors::target`] returns for a move that would leave the board.
    pub(crate) const NONE: u8 = u8::MAX;

    /// The tables of `shape`, built on first use and shared: a search starts without
    /// rebuilding them (that was a fifth of a `table` solve).
    ///
    /// # Panics
    /// A shape of more than 16 cells (the tables are for packed boards; larger boards move
    /// with [`crate::puzzle::Board::apply`]).
    pub(crate) fn of(shape: Shape) -> &'static Neighbors {
        assert!(
            shape.is_packed(),
            "neighbour tables are for boards of at most 16 cells, not {shape}"
        );
        const SIDES: usize = crate::puzzle::shape::PACKED_CELLS + 1;
        static CACHE: [OnceLock<Neighbors>; SIDES * SIDES] =
            [const { OnceLock::new() }; SIDES * SIDES];
        CACHE[shape.width() * SIDES + shape.height()].get_or_init(|| Neighbors::new(shape))
    }

    /// Builds the tables of `shape` afresh; [`Neighbors::of`] shares one copy per shape.
    pub(crate) fn new(shape: Shape) -> Neighbors {
        let mut targets = [[Self::NONE; 4]; 16];
        let (w, h) = (shape.width(), shape.height());
        for (pos, t) in targets.iter_mut().enumerate().take(shape.cells()) {
            let (r, c) = shape.row_col(pos);
            if r > 0 {
                t[Move::Up as usize] = (pos - w) as u8;
            }
            if c > 0 {
                t[Move::Left as usize] = (pos - 1) as u8;
            }
            if c + 1 < w {
                t[Move::Right as usize] = (pos + 1) as u8;
            }
            if r + 1 < h {
                t[Move::Down as usize] = (pos + w) as u8;
            }
        }
        let mut children = [[Children::default(); 5]; 16];
        for (pos, row) in children.iter_mut().enumerate() {
            for (last, c) in row.iter_mut().enumerate() {
                for m in 0..4u8 {
                    let to = targets[pos][m as usize];
                    if to != Self::NONE && (last == 4 || last as u8 != 3 - m) {
                        c.list[c.len as usize] = (m, to);
                        c.len += 1;
                    }
                }
            }
        }
        let mut at = [[[4u8; 4]; 5]; 16];
        for (pos, row) in children.iter().enumerate() {
            for (last, c) in row.iter().enumerate() {
                for (i, &(m, _)) in c.as_slice().iter().enumerate() {
                    at[pos][last][m as usize] = i as u8;
                }
            }
        }
        Neighbors {
            targets,
            children,
            at,
        }
    }

    /// The cell the blank at `pos` reaches with `m`, if the move is legal.
    #[inline(always)]
    pub(crate) fn target(&self, pos: usize, m: usize) -> u8 {
        self.targets[pos][m]
    }

    /// The successors of a state whose blank is at `pos`: (move index, cell the blank
    /// reaches) for each legal move in [`MOVE_ORDER`], except the move that undoes `last`
    /// (the index of the move that made the state; any value ≥ 4 when there is none). This
    /// is the one place every search skips the move straight back to the parent; the lists
    /// are built with the table, so a search reads them instead of testing each move.
    #[inline(always)]
    pub(crate) fn children(&self, pos: usize, last: u8) -> Children {
        self.children[pos][last.min(4) as usize]
    }

    /// Where move `m` comes in [`Neighbors::children`]`(pos, last)`, or `None` when it is not
    /// there (illegal, or the move back).
    #[inline(always)]
    pub(crate) fn index_of(&self, pos: usize, last: u8, m: u8) -> Option<usize> {
        let i = self.at[pos][last.min(4) as usize][m as usize & 3];
        (i < 4).then_some(i as usize)
    }
}

/// A character of a move string that is not a move ([`Move::parse_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
// A control character is shown escaped (`\u{0}`), never written raw.
#[error("`{}` at position {position} is not a move (u, d, l or r)", shown(*.found))]
#[non_exhaustive]
pub struct PathError {
    /// Its position in the string (after trimming), from 1.
    pub position: usize,
    /// The character.
    pub found: char,
}

fn shown(c: char) -> String {
    if c.is_control() {
        c.escape_default().collect()
    } else {
        c.to_string()
    }
}

/// Scrambling boards for tests.
#[cfg(test)]
impl Neighbors {
    /// `n` random moves of the blank from `b` (any legal move, the move back included).
    pub(crate) fn random_walk(
        &self,
        mut b: super::Board,
        n: u64,
        rng: &mut crate::util::Rng,
    ) -> super::Board {
        for _ in 0..n {
            let kids = self.children(b.blank(), 4);
            let kids = kids.as_slice();
            let (_, to) = kids[rng.index(kids.len() as u64) as usize];
            b = b.slide_blank_to(to as usize);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `index_of` says where each move comes in `children`, on every shape, blank cell and
    /// last move (the table walk counts the children it tries by it).
    #[test]
    fn index_of_is_the_place_in_children() {
        let mut found = 0;
        for (w, h) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 3),
            (3, 4),
            (4, 4),
            (5, 2),
            (8, 2),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let n = Neighbors::new(shape);
            for pos in 0..shape.cells() {
                for last in 0..=4u8 {
                    let kids = n.children(pos, last);
                    for m in 0..4u8 {
                        let want = kids.as_slice().iter().position(|&(k, _)| k == m);
                        assert_eq!(n.index_of(pos, last, m), want, "{shape} {pos} {last} {m}");
                        found += usize::from(want.is_some_and(|i| i > 0));
                    }
                }
            }
        }
        assert!(found > 100, "{found}");
    }
}
