//! Partitions: which tiles share a table.

use super::index::placements;
use crate::puzzle::Shape;

/// The largest group the builder takes: 16!/8! placements (8 tiles on 4x4, 1.3 GB while
/// building, 260 MB after).
pub(crate) const MAX_PLACEMENTS: u64 = 518_918_400;

/// A partition of the non-blank cells into groups, by sizes, e.g. `6-6-3`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    /// The number of tiles in each group, in order; they add up to the board's tiles.
    pub sizes: Vec<usize>,
}

impl Partition {
    /// The default partition for a shape: 7-8 on 4x4 (Korf and Felner's strongest), else
    /// groups of at most 6 tiles.
    pub fn default_for(shape: Shape) -> Partition {
        if shape == Shape::S4X4 {
            return Partition { sizes: vec![7, 8] };
        }
        let mut left = shape.cells() - 1;
        let mut sizes = Vec::new();
        while left > 0 {
            let s = left.min(6);
            sizes.push(s);
            left -= s;
        }
        Partition { sizes }
    }

    /// Reads a partition: group sizes separated by `-`, e.g. `6-6-3` (`--pdb-partition`, a
    /// configuration's `partition`).
    ///
    /// # Errors
    /// A [`PartitionError`]: text that is not sizes separated by `-`, a size out of range, a
    /// group of 0, sizes that do not add up to the shape's tiles (cells − 1), or a group with
    /// more than `MAX_PLACEMENTS` placements.
    pub fn parse(s: &str, shape: Shape) -> Result<Partition, PartitionError> {
        let tiles = shape.cells() - 1;
        let error = |kind| PartitionError {
            text: s.to_string(),
            shape,
            kind,
        };
        let sizes: Vec<usize> = s
            .split('-')
            .map(|p| {
                let p = p.trim();
                p.parse::<usize>().map_err(|e| {
                    error(match e.kind() {
                        std::num::IntErrorKind::PosOverflow => PartitionErrorKind::OutOfRange {
                            group: p.to_string(),
                        },
                        _ => PartitionErrorKind::NotSizes,
                    })
                })
            })
            .collect::<Result<_, _>>()?;
        if sizes.contains(&0) {
            return Err(error(PartitionErrorKind::EmptyGroup));
        }
        let total: usize = sizes.iter().sum();
        if total != tiles {
            return Err(error(PartitionErrorKind::WrongTotal { total }));
        }
        if let Some(&size) = sizes
            .iter()
            .find(|&&g| placements(shape.cells(), g) > MAX_PLACEMENTS)
        {
            return Err(error(PartitionErrorKind::TooManyPlacements {
                size,
                placements: placements(shape.cells(), size),
            }));
        }
        Ok(Partition { sizes })
    }

    /// The sizes as `--pdb-partition` writes them: `6-6-3`.
    pub fn name(&self) -> String {
        self.sizes
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// The goal cells of each group, for a goal with its blank at `blank`.
    ///
    /// On 4x4 with the blank in a corner, 7-8, 6-6-3 and 5-5-5 use compact groups (for the
    /// blank at the top left, Korf and Felner's goal: 7-8 is the top two rows and the
    /// bottom two; 6-6-3 is {1,4,5,8,9,12} {2,3,6,7,10,11} {13,14,15}; 5-5-5 is
    /// {1,2,4,5,8} {3,6,7,10,11} {9,12,13,14,15} — the layouts below, written for the blank
    /// bottom right),
    /// mirrored to the goal's corner; with the blank elsewhere, the layout of the nearest
    /// corner with that corner's cell in the group of the blank's cell (on Korf's starts
    /// with the blank's goal cell second in the top row, 6-6-3 generated 1.3M nodes an
    /// instance instead of 3.0M with runs in reading order; see docs/strategies.md).
    /// Otherwise (other shapes and partitions) the goal's cells in reading order (skipping
    /// the blank) are cut into consecutive runs.
    ///
    /// On 5x5 with the blank in a corner, 6-6-6-6 is Korf and Felner's partition (for the
    /// blank top left: {1,2,5,6,7,12} {3,4,8,9,13,14} {10,11,15,16,20,21}
    /// {17,18,19,22,23,24}: the three blocks of 2x3 map onto each other by symmetries, so
    /// one table serves them, see `pdb::shared_tables`), mirrored to the goal's corner.
    pub(crate) fn group_cells(&self, shape: Shape, blank: usize) -> Vec<Vec<u8>> {
        if let Some(cells) = self.layout_4x4(shape, blank) {
            return cells;
        }
        if let Some(cells) = self.layout_5x5(shape, blank) {
            return cells;
        }
        let mut cells = (0..shape.cells() as u8).filter(|&c| c as usize != blank);
        self.sizes
            .iter()
            .map(|&s| cells.by_ref().take(s).collect())
            .collect()
    }

    /// Goal cells of each group for the known 4x4 layouts: mirrored so the blank corner fits,
    /// or, for a blank elsewhere, those of the nearest corner with that corner's cell in
    /// the group of the blank's cell, in its slot.
    fn layout_4x4(&self, shape: Shape, blank: usize) -> Option<Vec<Vec<u8>>> {
        if shape != Shape::S4X4 {
            return None;
        }
        let corner = nearest_corner(blank as u8);
        let mut groups = self.corner_layout_4x4(corner as usize)?;
        for cell in groups.iter_mut().flatten() {
            if *cell == blank as u8 {
                *cell = corner;
            }
        }
        Some(groups)
    }

    /// Korf and Felner's 6-6-6-6 on 5x5 for a goal blank in a corner, mirrored to it.
    fn layout_5x5(&self, shape: Shape, blank: usize) -> Option<Vec<Vec<u8>>> {
        if shape != Shape::S5X5 || self.sizes != [6, 6, 6, 6] {
            return None;
        }
        let (flip_rows, flip_cols) = match blank {
            0 => (false, false),
            4 => (false, true),
            20 => (true, false),
            24 => (true, true),
            _ => return None,
        };
        let mirror = |p: u8| -> u8 {
            let (r, c) = (p / 5, p % 5);
            let r = if flip_rows { 4 - r } else { r };
            let c = if flip_cols { 4 - c } else { c };
            r * 5 + c
        };
        let layout: [[u8; 6]; 4] = [
            [1, 2, 5, 6, 7, 12],
            [3, 4, 8, 9, 13, 14],
            [10, 11, 15, 16, 20, 21],
            [17, 18, 19, 22, 23, 24],
        ];
        Some(
            layout
                .iter()
                .map(|g| g.iter().map(|&p| mirror(p)).collect())
                .collect(),
        )
    }

    /// Goal cells of each group for the known 4x4 layouts, mirrored so the blank corner fits.
    fn corner_layout_4x4(&self, blank: usize) -> Option<Vec<Vec<u8>>> {
        // For the blank at cell 15.
        let layout: Vec<Vec<u8>> = match self.sizes.as_slice() {
            [7, 8] => vec![(8..15).collect(), (0..8).collect()],
            [8, 7] => vec![(0..8).collect(), (8..15).collect()],
            // Mirrored to the blank top left: {1,4,5,8,9,12} {2,3,6,7,10,11} {13,14,15}.
            // Of five 6-6-3 layouts tried on Korf's 100 (with reflection) this one generated
            // the fewest nodes, 406k an instance; the two 2x3 blocks under the top row
            // generated 1.2M (tiles 1 and 4 in one group wall the blank's goal cell off,
            // which the tables then count; see build.rs).
            [6, 6, 3] => vec![
                vec![3, 6, 7, 10, 11, 14],
                vec![4, 5, 8, 9, 12, 13],
                vec![0, 1, 2],
            ],
            [5, 5, 5] => vec![
                vec![0, 1, 2, 3, 6],
                vec![4, 5, 8, 9, 12],
                vec![7, 10, 11, 13, 14],
            ],
            _ => return None,
        };
        let mirror = |p: u8| -> u8 {
            let (r, c) = (p / 4, p % 4);
            match blank {
                15 => p,
                0 => 15 - p,
                3 => (3 - r) * 4 + c,
                _ => r * 4 + (3 - c),
            }
        };
        Some(
            layout
                .iter()
                .map(|g| g.iter().map(|&p| mirror(p)).collect())
                .collect(),
        )
    }
}

/// A partition that does not read, or does not fit the board ([`Partition::parse`],
/// [`super::PdbOptions::partition_for`]): the text given, the board's shape and what is
/// wrong. The message says what would fit, with an example.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", message(.text, *.shape, .kind, false))]
#[non_exhaustive]
pub struct PartitionError {
    text: String,
    shape: Shape,
    kind: PartitionErrorKind,
}

impl PartitionError {
    /// The error for boards too large for pattern databases, whatever the partition.
    pub(crate) fn board_too_large(text: &str, shape: Shape) -> PartitionError {
        PartitionError {
            text: text.to_string(),
            shape,
            kind: PartitionErrorKind::BoardTooLarge,
        }
    }

    /// The partition as given (`6-6`; `default` when none was).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The message as a command line says it (`--heuristic` where it names the heuristic).
    pub fn message_with_flags(&self) -> String {
        message(&self.text, self.shape, &self.kind, true)
    }

    /// The shape of the boards it was read for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// What is wrong.
    pub fn kind(&self) -> &PartitionErrorKind {
        &self.kind
    }
}

/// What is wrong with a partition ([`PartitionError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PartitionErrorKind {
    /// Not group sizes separated by `-` (`six-two`).
    NotSizes,
    /// A group size too large to be read (`99999999999999999999`).
    OutOfRange {
        /// The size as given.
        group: String,
    },
    /// A group of 0 tiles.
    EmptyGroup,
    /// The sizes do not add up to the board's tiles (cells − 1).
    WrongTotal {
        /// What they add up to.
        total: usize,
    },
    /// A group with more placements than the builder takes (`MAX_PLACEMENTS`).
    TooManyPlacements {
        /// The group's size.
        size: usize,
        /// Its placements on the board.
        placements: u64,
    },
    /// A board with more cells than pattern databases take (25).
    BoardTooLarge,
}

/// The message of a [`PartitionError`], in the library's words or with the command line's
/// flags (`flags`).
fn message(s: &str, shape: Shape, kind: &PartitionErrorKind, flags: bool) -> String {
    let (tiles, example) = (shape.cells() - 1, Partition::default_for(shape).name());
    match kind {
        PartitionErrorKind::NotSizes => format!(
            "`{s}` is not a partition: write the group sizes of a {shape} board separated by \
             `-`, adding up to its {tiles} tiles, e.g. {example}"
        ),
        PartitionErrorKind::OutOfRange { group } => format!(
            "partition {s}: a group of {group} tiles is out of range: a {shape} board has \
             {tiles} tiles (the blank is in no group); give group sizes that add up to {tiles}, \
             e.g. {example}"
        ),
        PartitionErrorKind::EmptyGroup => format!(
            "partition {s} has a group of 0 tiles: the sizes say how many tiles each group \
             holds (not a range of tiles), at least 1, adding up to the {tiles} tiles of a \
             {shape} board (the blank is in no group), e.g. {example}"
        ),
        PartitionErrorKind::WrongTotal { total } => format!(
            "partition {s} covers {total} tiles, but a {shape} board has {tiles} (the blank is \
             in no group): give group sizes that add up to {tiles}, e.g. {example}"
        ),
        PartitionErrorKind::TooManyPlacements { size, placements } => format!(
            "a group of {size} tiles on a {shape} board has {placements} placements; tilebench \
             builds groups of up to {MAX_PLACEMENTS} (8 tiles on 4x4): use smaller groups, e.g. \
             {example}"
        ),
        PartitionErrorKind::BoardTooLarge => format!(
            "pattern databases are built for boards of at most {} cells (5x5), and a {shape} \
             board has {}; for larger boards use {}",
            super::MAX_CELLS,
            shape.cells(),
            if flags {
                "--heuristic manhattan or linear-conflict"
            } else {
                "the manhattan or linear-conflict heuristic"
            }
        ),
    }
}

/// The message both ways ([`Wording`](crate::observe::Wording)), for a
/// [`SolveError`](crate::search::SolveError).
impl From<PartitionError> for crate::observe::Wording {
    fn from(e: PartitionError) -> crate::observe::Wording {
        crate::observe::Wording::new(e.to_string(), e.message_with_flags())
    }
}

// The message, for callers that still build a sentence of their own (`?` into a `String`,
// `SolveError::new`).
impl From<PartitionError> for String {
    fn from(e: PartitionError) -> String {
        e.to_string()
    }
}

/// The corner of the 4x4 board nearest `cell` (fewest moves; ties go to the corner first in
/// 15, 0, 3, 12, the bottom right first as in the standard goal).
fn nearest_corner(cell: u8) -> u8 {
    let (r, c) = (cell / 4, cell % 4);
    [15u8, 0, 3, 12]
        .into_iter()
        .min_by_key(|&k| (k / 4).abs_diff(r) + (k % 4).abs_diff(c))
        .expect("four corners")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of bad partition: its fields, and its message word for word (users read
    /// these through `--pdb-partition` and `:partition=`).
    #[test]
    fn bad_partitions_say_what_is_wrong() {
        let s3 = Shape::S3X3;
        let cases: [(&str, PartitionErrorKind, &str); 5] = [
            (
                "0-8",
                PartitionErrorKind::EmptyGroup,
                "partition 0-8 has a group of 0 tiles: the sizes say how many tiles each group \
                 holds (not a range of tiles), at least 1, adding up to the 8 tiles of a 3x3 \
                 board (the blank is in no group), e.g. 6-2",
            ),
            (
                "4-5",
                PartitionErrorKind::WrongTotal { total: 9 },
                "partition 4-5 covers 9 tiles, but a 3x3 board has 8 (the blank is in no \
                 group): give group sizes that add up to 8, e.g. 6-2",
            ),
            (
                "six-two",
                PartitionErrorKind::NotSizes,
                "`six-two` is not a partition: write the group sizes of a 3x3 board separated \
                 by `-`, adding up to its 8 tiles, e.g. 6-2",
            ),
            (
                "4- 99999999999999999999",
                PartitionErrorKind::OutOfRange {
                    group: "99999999999999999999".into(),
                },
                "partition 4- 99999999999999999999: a group of 99999999999999999999 tiles is \
                 out of range: a 3x3 board has 8 tiles (the blank is in no group); give group \
                 sizes that add up to 8, e.g. 6-2",
            ),
            (
                "-8",
                PartitionErrorKind::NotSizes,
                "`-8` is not a partition: write the group sizes of a 3x3 board separated by \
                 `-`, adding up to its 8 tiles, e.g. 6-2",
            ),
        ];
        for (text, kind, message) in cases {
            let e = Partition::parse(text, s3).unwrap_err();
            assert_eq!((e.text(), e.shape(), e.kind()), (text, s3, &kind), "{text}");
            assert_eq!(e.to_string(), message, "{text}");
            assert_eq!(String::from(e), message, "{text}");
        }
        // 9 tiles of 5x5: 25!/16! placements, beyond what the builder takes.
        let e = Partition::parse("9-5-5-5", Shape::S5X5).unwrap_err();
        let placements = (17..=25u64).product::<u64>();
        assert!(placements > MAX_PLACEMENTS);
        assert_eq!(
            e.kind(),
            &PartitionErrorKind::TooManyPlacements {
                size: 9,
                placements
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "a group of 9 tiles on a 5x5 board has {placements} placements; tilebench \
                 builds groups of up to 518918400 (8 tiles on 4x4): use smaller groups, e.g. \
                 6-6-6-6"
            )
        );
        let e = PartitionError::board_too_large("default", "6x6".parse().unwrap());
        assert_eq!(e.kind(), &PartitionErrorKind::BoardTooLarge);
        assert_eq!(
            e.to_string(),
            "pattern databases are built for boards of at most 25 cells (5x5), and a 6x6 board \
             has 36; for larger boards use the manhattan or linear-conflict heuristic"
        );
        assert_eq!(
            e.message_with_flags(),
            "pattern databases are built for boards of at most 25 cells (5x5), and a 6x6 board \
             has 36; for larger boards use --heuristic manhattan or linear-conflict"
        );
        assert_eq!(Partition::parse("4-4", s3).unwrap().sizes, [4, 4]);
    }

    #[test]
    fn every_4x4_blank_gets_the_nearest_corners_layout_with_the_corner_swapped_in() {
        for name in ["7-8", "8-7", "6-6-3", "5-5-5"] {
            let p = Partition::parse(name, Shape::S4X4).unwrap();
            for blank in 0..16u8 {
                let groups = p.group_cells(Shape::S4X4, blank as usize);
                let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
                assert_eq!(sizes, p.sizes, "{name} blank {blank}");
                let mut cells: Vec<u8> = groups.concat();
                cells.sort();
                let want: Vec<u8> = (0..16).filter(|&c| c != blank).collect();
                assert_eq!(cells, want, "{name} blank {blank}: {groups:?}");
                let corner = nearest_corner(blank);
                let at_corner = p.corner_layout_4x4(corner as usize).unwrap();
                if blank == corner {
                    assert_eq!(groups, at_corner, "{name} blank {blank}");
                    continue;
                }
                // The corner's layout, cell for cell, but the blank's cell is the corner's.
                for (g, c) in groups.iter().zip(&at_corner) {
                    for (&x, &y) in g.iter().zip(c) {
                        assert_eq!(
                            x,
                            if y == blank { corner } else { y },
                            "{name} blank {blank}"
                        );
                    }
                }
            }
        }
        // The blank in the second cell of the top row: the top-left corner's layout.
        let p = Partition::parse("6-6-3", Shape::S4X4).unwrap();
        assert_eq!(
            p.group_cells(Shape::S4X4, 1),
            [
                vec![12, 9, 8, 5, 4, 0],
                vec![11, 10, 7, 6, 3, 2],
                vec![15, 14, 13]
            ]
        );
    }
}
