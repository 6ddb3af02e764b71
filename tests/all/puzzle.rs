//! Boards: parsing (good and bad), formatting, moves, parity, ranks.

use proptest::prelude::*;
use tilebench::puzzle::{is_solvable, Board, BoardError, Move, Ranker, Shape};
use tilebench::search::Problem;

fn err(text: &str) -> String {
    Board::parse(text, None).unwrap_err().to_string()
}

#[test]
fn parses_every_written_form_to_the_same_board() {
    let forms = [
        "1 2 3 x 4 6 7 5 8",
        "1,2,3,0,4,6,7,5,8",
        "1 2 3 _ 4 6 7 5 8",
        "123x46758",
        "123046758",
        "  1\t2 3\nX 4 6 7 5 8 ",
        "1, 2, 3, 0, 4, 6, 7, 5, 8",
    ];
    let want = Board::from_tiles(Shape::S3X3, &[1, 2, 3, 0, 4, 6, 7, 5, 8]);
    for f in forms {
        assert_eq!(Board::parse(f, None).unwrap(), want, "{f}");
    }
    assert_eq!(want.to_string(), "1 2 3 x 4 6 7 5 8");
    assert_eq!(want.format_with("0"), "1 2 3 0 4 6 7 5 8");
}

#[test]
fn bad_boards_name_the_offending_token() {
    assert!(err("1 2 3 4 5 6 7 8").contains("8 cells"));
    assert!(err("1 2 3 4 5 6 7 8 x 9").contains("10 cells"));
    let e = err("1 2 3 4 5 6 7 7 x");
    assert!(
        e.contains("cell 8") && e.contains("tile 7") && e.contains("tile 8 is missing"),
        "{e}"
    );
    let e = err("1 2 3 4 5 6 7 8 y");
    assert!(e.contains("`y`") && e.contains("cell 9"), "{e}");
    let e = err("1 2 3 4 5 6 7 9 x");
    assert!(e.contains("tile 9") && e.contains("out of range"), "{e}");
    let e = err("1 2 3 4 5 6 7 -8 x");
    assert!(e.contains("-8"), "{e}");
    let e = err("x 2 3 4 5 6 7 8 0");
    assert!(e.contains("the blank appears more than once"), "{e}");
    assert_eq!(Board::parse("", None), Err(BoardError::Empty));
    let shape: Shape = "3x4".parse().unwrap();
    let e = Board::parse("1 2 3 x 4 6 7 5 8", Some(shape))
        .unwrap_err()
        .to_string();
    assert!(e.contains("9 cells, but a 3x4 board has 12"), "{e}");
}

#[test]
fn shapes() {
    assert_eq!("3x4".parse::<Shape>().unwrap().cells(), 12);
    assert!("1x9".parse::<Shape>().is_err());
    assert_eq!("5x4".parse::<Shape>().unwrap().cells(), 20);
    assert!("8x7"
        .parse::<Shape>()
        .unwrap_err()
        .to_string()
        .contains("56 cells"));
    assert!("3by3".parse::<Shape>().is_err());
    assert_eq!(Shape::from_cells(16), Some(Shape::S4X4));
    assert_eq!(Shape::from_cells(12), None);
    assert_eq!(Shape::from_cells(25), Some(Shape::S5X5));
    assert_eq!(Shape::from_cells(49), Some("7x7".parse().unwrap()));
}

#[test]
fn moves_name_where_the_blank_goes() {
    let b: Board = "1 2 3 4 x 5 6 7 8".parse().unwrap();
    assert_eq!(b.apply(Move::Up).unwrap().to_string(), "1 x 3 4 2 5 6 7 8");
    assert_eq!(
        b.apply(Move::Down).unwrap().to_string(),
        "1 2 3 4 7 5 6 x 8"
    );
    assert_eq!(
        b.apply(Move::Left).unwrap().to_string(),
        "1 2 3 x 4 5 6 7 8"
    );
    assert_eq!(
        b.apply(Move::Right).unwrap().to_string(),
        "1 2 3 4 5 x 6 7 8"
    );
    let corner: Board = "x 1 2 3 4 5 6 7 8".parse().unwrap();
    assert!(corner.apply(Move::Up).is_none());
    assert!(corner.apply(Move::Left).is_none());
    assert_eq!(Move::parse_path("ulrd").unwrap().len(), 4);
    let e = Move::parse_path(" ulxd").unwrap_err();
    assert_eq!((e.position, e.found), (3, 'x'));
    assert_eq!(
        e.to_string(),
        "`x` at position 3 is not a move (u, d, l or r)"
    );
    let e = Move::parse_path("u\u{7}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "`\\u{7}` at position 2 is not a move (u, d, l or r)"
    );
    let e = corner.replay(&Move::parse_path("ru").unwrap()).unwrap_err();
    assert_eq!((e.step, e.mv, e.cell), (2, Move::Up, 1));
    assert_eq!(
        e.to_string(),
        "move 2 (`u`) takes the blank off the board at cell 1"
    );
    let e = Problem::new(corner, Board::standard_goal(Shape::S4X4)).unwrap_err();
    assert_eq!((e.start, e.goal), (Shape::S3X3, Shape::S4X4));
    assert_eq!(
        e.to_string(),
        "start is a 3x3 board but goal is a 4x4 board"
    );
}

#[test]
fn parity_on_odd_and_even_widths() {
    let g3 = Board::standard_goal(Shape::S3X3);
    assert!(is_solvable(&"2 3 4 1 5 x 7 6 8".parse().unwrap(), &g3));
    assert!(!is_solvable(&"2 1 3 4 5 6 7 8 x".parse().unwrap(), &g3));
    let g4 = Board::standard_goal(Shape::S4X4);
    // Sam Loyd's 14-15 puzzle is unsolvable.
    let loyd: Board = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 x".parse().unwrap();
    assert!(!is_solvable(&loyd, &g4));
    // On an even width, moving the blank up a row with one tile swap is solvable.
    let up = g4.apply(Move::Up).unwrap();
    assert!(is_solvable(&up, &g4));
    // Korf's instance 1 with Korf's goal (blank first).
    let korf1: Board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
    let korf_goal: Board = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap();
    assert!(is_solvable(&korf1, &korf_goal));
}

proptest! {
    #[test]
    fn format_parse_round_trip(tiles in Just((0u8..12).collect::<Vec<u8>>()).prop_shuffle()) {
        let shape: Shape = "4x3".parse().unwrap();
        let b = Board::from_tiles(shape, &tiles);
        prop_assert_eq!(Board::parse(&b.to_string(), Some(shape)).unwrap(), b);
        prop_assert_eq!(Board::parse(&b.format_with("0"), Some(shape)).unwrap(), b);
        prop_assert_eq!(Board::from_packed(shape, b.packed()), b);
    }

    #[test]
    fn rank_is_a_bijection(tiles in Just((0u8..9).collect::<Vec<u8>>()).prop_shuffle()) {
        let b = Board::from_tiles(Shape::S3X3, &tiles);
        let r = Ranker::new(Shape::S3X3);
        let k = r.rank(b.packed());
        prop_assert!(k < 362_880);
        prop_assert_eq!(r.unrank(k), b.packed());
    }

    #[test]
    fn a_move_and_its_inverse_cancel(tiles in Just((0u8..16).collect::<Vec<u8>>()).prop_shuffle(), m in 0u8..4) {
        let b = Board::from_tiles(Shape::S4X4, &tiles);
        let mv = Move::from_index(m);
        if let Some(after) = b.apply(mv) {
            prop_assert_eq!(after.apply(mv.inverse()), Some(b));
            prop_assert_eq!(is_solvable(&b, &after), true);
        }
    }
}

/// The parity test against the truth: every 2x3 and 3x3 board is solvable to the standard goal
/// exactly when a breadth-first search from the goal reaches it (half of them).
#[test]
fn is_solvable_agrees_with_reachability_on_every_2x3_and_3x3_board() {
    for shape in [Shape::new(3, 2).unwrap(), Shape::S3X3] {
        let goal = Board::standard_goal(shape);
        let ranker = Ranker::new(shape);
        let mut reached = vec![false; ranker.size() as usize];
        reached[ranker.rank(goal.packed()) as usize] = true;
        let mut queue = vec![goal];
        while let Some(b) = queue.pop() {
            for m in 0..4 {
                if let Some(next) = b.apply(Move::from_index(m)) {
                    let r = ranker.rank(next.packed()) as usize;
                    if !reached[r] {
                        reached[r] = true;
                        queue.push(next);
                    }
                }
            }
        }
        assert_eq!(
            reached.iter().filter(|&&r| r).count() as u64,
            ranker.size() / 2
        );
        for (r, &was_reached) in reached.iter().enumerate() {
            let b = Board::from_packed(shape, ranker.unrank(r as u64));
            assert_eq!(is_solvable(&b, &goal), was_reached, "{b}");
            // And between two boards, neither the goal.
            let other = Board::from_packed(shape, ranker.unrank((r as u64 * 7919) % ranker.size()));
            let other_reached = reached[ranker.rank(other.packed()) as usize];
            assert_eq!(
                is_solvable(&b, &other),
                was_reached == other_reached,
                "{b} to {other}"
            );
        }
    }
}
