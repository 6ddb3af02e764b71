//! The domain: board shapes, packed boards, moves, parsing, parity and ranks.
//!
//! A [`Board`] is a `w×h` grid of at most 49 cells. Boards of at most 16 cells (the 8- and
//! 15-puzzles, every shape up to 4x4) are packed into one `u64`, four bits a cell: cell `p`
//! (row-major, 0 = top-left) holds its tile in bits `4p..4p+4`, and the blank is tile 0.
//! Larger boards (5x5, 6x6, 7x7 and oblong shapes up to 49 cells) hold a byte a cell; only
//! the searches that need no table take them ([`Shape::is_packed`]). Moves name where the **blank** goes (`u`, `d`, `l`, `r`), as in the
//! seed articles.

mod board;
mod moves;
mod parity;
mod parse;
mod rank;
mod shape;

pub use board::{Board, ReplayError};
pub use moves::MOVE_ORDER;
pub(crate) use moves::{Children, Neighbors};
pub use moves::{Move, PathError};
pub(crate) use parity::inversions;
pub use parity::is_solvable;
pub use parse::BoardError;
pub(crate) use rank::factorial;
pub use rank::Ranker;
pub use shape::Shape;
pub(crate) use shape::PACKED_CELLS;
#[cfg(test)]
pub(crate) use shape::TEST_SHAPES;
pub use shape::{ShapeError, MAX_CELLS};
