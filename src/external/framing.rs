//! How a pair is put to a `moves` program, which only knows its own goal.
//!
//! The `moves` protocol writes the start board alone: the program solves towards its built-in
//! goal, which tilebench assumes is the standard one, `1 2 … n-1 x` (tiles in order, blank
//! last). A row with that goal is sent as it is. A row with another goal is turned into the
//! same puzzle with the standard goal when its goal has the blank in a corner:
//!
//! 1. mirror both boards left-right and/or top-bottom so that the goal's blank lands in the
//!    bottom-right corner;
//! 2. rename the tiles so that the mirrored goal reads `1 2 … n-1 x`, and send the start
//!    renamed the same way.
//!
//! Renaming changes no move and mirroring swaps `l`/`r` and/or `u`/`d`, so the program's path
//! is mapped back move by move ([`Framing::to_original`]) and has the same length; parity, and
//! so solvability, is unchanged. A goal whose blank is not in a corner cannot be reached this
//! way (no mirror of the grid takes an edge or middle cell to a corner), and the row is an
//! `error` for that program.

use super::naming::worded;
use crate::observe::Wording;
use crate::puzzle::{Board, Move};
use crate::search::Problem;

/// The pair as the program sees it, and how to map its moves back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Framing {
    /// The start board sent to the program.
    pub start: Board,
    /// The goal the program solves towards.
    pub goal: Board,
    /// Left and right are mirrored.
    flip_h: bool,
    /// Up and down are mirrored.
    flip_v: bool,
}

impl Framing {
    /// The pair as it is (the `steps` protocol sends both boards).
    pub(crate) fn identity(p: &Problem) -> Framing {
        Framing {
            start: p.start,
            goal: p.goal,
            flip_h: false,
            flip_v: false,
        }
    }

    /// The same puzzle with the standard goal, or why there is none.
    ///
    /// # Errors
    /// When the goal is not the standard one and its blank is not in a corner: no mirroring
    /// brings it to the standard goal, so a `moves` program cannot be asked.
    pub(crate) fn standard_goal(p: &Problem) -> Result<Framing, Wording> {
        let shape = p.goal.shape();
        let standard = Board::standard_goal(shape);
        if p.goal == standard {
            return Ok(Framing::identity(p));
        }
        let (w, h) = (shape.width(), shape.height());
        let (r, c) = shape.row_col(p.goal.blank());
        let corner = (r == 0 || r + 1 == h) && (c == 0 || c + 1 == w);
        if !corner {
            return Err(worded(|n| {
                format!(
                    "the goal `{}` has its blank in row {}, column {}, not in a corner: a \
                     `moves` program solves towards `{standard}`, and only goals with the blank \
                     in a corner can be turned into that one (by mirroring and renaming tiles); \
                     use {}, or a dataset whose goals have the blank in a corner",
                    p.goal,
                    r + 1,
                    c + 1,
                    n.steps
                )
            }));
        }
        let (flip_h, flip_v) = (c == 0, r == 0);
        let mirror = |b: &Board| -> Vec<u8> {
            let mut tiles = vec![0u8; shape.cells()];
            for (pos, t) in b.tiles().into_iter().enumerate() {
                let (r, c) = shape.row_col(pos);
                let r = if flip_v { h - 1 - r } else { r };
                let c = if flip_h { w - 1 - c } else { c };
                tiles[r * w + c] = t;
            }
            tiles
        };
        let goal = mirror(&p.goal);
        // rename[t] = the tile the standard goal has where the mirrored goal has t.
        let mut rename = vec![0u8; shape.cells()];
        for (pos, &t) in goal.iter().enumerate() {
            rename[t as usize] = standard.tile(pos);
        }
        let start: Vec<u8> = mirror(&p.start)
            .into_iter()
            .map(|t| rename[t as usize])
            .collect();
        Ok(Framing {
            start: Board::from_tiles(shape, &start),
            goal: standard,
            flip_h,
            flip_v,
        })
    }

    /// The program's moves, on the row's own boards.
    pub(crate) fn to_original(self, path: &[Move]) -> Vec<Move> {
        path.iter()
            .map(|&m| match m {
                Move::Left | Move::Right if self.flip_h => m.inverse(),
                Move::Up | Move::Down if self.flip_v => m.inverse(),
                _ => m,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::is_solvable;
    use crate::search::{registry, Config, Limits};

    fn problem(start: &str, goal: &str) -> Problem {
        Problem::new(start.parse().unwrap(), goal.parse().unwrap()).unwrap()
    }

    #[test]
    fn the_standard_goal_is_sent_as_it_is() {
        let p = problem("2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x");
        let f = Framing::standard_goal(&p).unwrap();
        assert_eq!(f, Framing::identity(&p));
    }

    #[test]
    fn corner_goals_become_the_standard_goal_with_the_same_answers() {
        let astar = registry::find("astar").unwrap();
        let solve = |p: &Problem| {
            astar
                .solve_once(&Config::default(), p, &Limits::default())
                .unwrap()
        };
        // Goals with the blank in each corner, and one with it bottom-right but renamed.
        for goal in [
            "x 3 5 8 6 4 7 2 1",
            "4 3 x 5 7 1 8 2 6",
            "8 1 5 7 3 6 x 4 2",
            "8 1 5 7 3 6 4 2 x",
        ] {
            for start in [
                "2 6 4 1 3 7 0 5 8",
                "3 1 5 4 x 8 6 7 2",
                "1 2 3 4 5 6 8 7 x",
            ] {
                let p = problem(start, goal);
                let f = Framing::standard_goal(&p).unwrap();
                assert_eq!(f.goal.to_string(), "1 2 3 4 5 6 7 8 x");
                assert_eq!(
                    is_solvable(&f.start, &f.goal),
                    is_solvable(&p.start, &p.goal),
                    "{start} -> {goal}"
                );
                let framed = Problem::new(f.start, f.goal).unwrap();
                let there = solve(&framed);
                let here = solve(&p);
                assert_eq!(there.steps(), here.steps(), "{start} -> {goal}");
                if let Some(path) = there.path {
                    let back = f.to_original(&path);
                    assert_eq!(p.start.replay(&back).unwrap(), p.goal, "{start} -> {goal}");
                }
            }
        }
    }

    #[test]
    fn other_goals_are_refused_with_the_reason() {
        let p = problem("1 2 3 4 5 6 7 8 x", "1 2 3 4 x 5 6 7 8");
        let e = Framing::standard_goal(&p).unwrap_err();
        let said = |steps: &str| {
            format!(
                "the goal `1 2 3 4 x 5 6 7 8` has its blank in row 2, column 2, not in a \
                 corner: a `moves` program solves towards `1 2 3 4 5 6 7 8 x`, and only goals \
                 with the blank in a corner can be turned into that one (by mirroring and \
                 renaming tiles); use {steps}, or a dataset whose goals have the blank in a \
                 corner"
            )
        };
        assert_eq!(e.with_flags(), said("--solver-protocol steps"));
        assert_eq!(e.words(), said("the protocol steps"));
    }
}
