//! `space`'s census (states at each distance from a goal) against the published counts in
//! the OEIS: Reinefeld's and Karlemo–Östergård's complete searches, an independent truth for
//! the distance tables that `gen` answers from. The 3x4 census (A090166, 239,500,800 states)
//! takes tens of seconds and is checked by `scripts/bench.sh`.

use crate::common::*;

/// The `states` column of `tilebench space`, by distance.
fn census(size: &str, goal: &str) -> Vec<u64> {
    let o = run_ok(&["space", "--size", size, "--goal", goal, "--farthest", "0"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("distance,states,cumulative_states"));
    lines
        .enumerate()
        .map(|(d, l)| {
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells[0], d.to_string(), "{size}: {l}");
            cells[1].parse().unwrap()
        })
        .collect()
}

#[test]
fn the_8_puzzle_census_from_each_kind_of_blank_cell_is_the_oeis_one() {
    // A089473: the blank in a corner.
    let corner = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    // A089474: the blank in the centre.
    let centre = [
        1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736, 11132,
        12208, 18612, 18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148,
    ];
    // A089483: the blank at mid-side.
    let side = [
        1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193, 7322, 8596,
        13930, 14713, 21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081, 878, 126, 2,
    ];
    assert_eq!(census("3x3", "1 2 3 4 5 6 7 8 x"), corner);
    assert_eq!(census("3x3", "x 1 2 3 4 5 6 7 8"), corner);
    assert_eq!(census("3x3", "1 2 3 4 x 5 6 7 8"), centre);
    assert_eq!(census("3x3", "1 x 2 3 4 5 6 7 8"), side);
    assert_eq!(census("3x3", "1 2 3 x 4 5 6 7 8"), side);
}

#[test]
fn the_2_row_censuses_are_the_oeis_ones() {
    // A090034 (3 X 2), A090035 (4 X 2), A090036 (5 X 2): the blank in a corner.
    let cases: [(&str, &str, &[u64]); 3] = [
        (
            "2x3",
            "1 2 3 4 5 x",
            &[
                1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1,
            ],
        ),
        (
            "2x4",
            "x 1 2 3 4 5 6 7",
            &[
                1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788,
                985, 1194, 1414, 1664, 1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39,
                19, 7, 1,
            ],
        ),
        (
            "2x5",
            "1 2 3 4 5 6 7 8 9 x",
            &[
                1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530,
                3567, 4996, 6838, 9279, 12463, 16597, 21848, 28227, 35682, 44464, 54597, 65966,
                78433, 91725, 104896, 116966, 126335, 131998, 133107, 128720, 119332, 106335,
                91545, 75742, 60119, 45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224, 528, 225,
                75, 20, 2,
            ],
        ),
    ];
    for (size, goal, want) in cases {
        assert_eq!(census(size, goal), want, "{size}");
        // The transposed board (5 X 2 for 2 X 5) has the same census.
        let (r, c) = size.split_once('x').unwrap();
        assert_eq!(census(&format!("{c}x{r}"), goal), want, "{c}x{r}");
    }
}

#[test]
fn the_parallel_census_equals_the_distance_table_counts_and_farthest_states() {
    use tilebench::puzzle::Board;
    use tilebench::space::{census, DistanceTable};
    for (size, goal) in [
        ("3x3", "1 2 3 4 x 5 6 7 8"),
        ("2x4", "x 1 2 3 4 5 6 7"),
        ("2x5", "1 2 3 4 5 6 7 8 9 x"),
    ] {
        let goal = Board::parse(goal, Some(size.parse().unwrap())).unwrap();
        let table = DistanceTable::build(goal).unwrap();
        let far = table.states_at(table.max_distance() as u8);
        for keep in [0, 1, far.len(), far.len() + 5] {
            let c = census(goal, keep).unwrap();
            assert_eq!(c.counts, table.counts(), "{size}");
            assert_eq!(
                c.farthest,
                far[..keep.min(far.len())],
                "{size}, keep {keep}"
            );
        }
    }
}

/// A board of more than 12 cells is refused before any memory is taken, with its shape.
#[test]
fn a_board_too_large_to_tabulate_is_refused_with_its_shape() {
    use tilebench::puzzle::{Board, Shape};
    use tilebench::space::{census, DistanceTable};
    let goal = Board::standard_goal(Shape::S4X4);
    let e = census(goal, 1).err().unwrap();
    assert_eq!(e.shape, Shape::S4X4);
    assert_eq!(
        e.to_string(),
        "the state space of a 4x4 board (16!/2 states) is too large to tabulate; tilebench \
         tabulates boards of at most 12 cells"
    );
    assert_eq!(DistanceTable::build(goal).err(), Some(e));
}
