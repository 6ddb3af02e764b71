//! Partitions: which tiles share a table.

use super::index::placements;
use crate::puzzle::Shape;

/// The largest group the builder takes: 16!/8! placements (8 tiles on 4x4, 1.8 GB while
/// building, 260 MB after).
pub const MAX_PLACEMENTS: u64 = 518_918_400;

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

    /// Reads `--pdb-partition`: group sizes separated by `-`, e.g. `6-6-3`.
    ///
    /// # Errors
    /// Text that is not sizes separated by `-`, a group of 0, sizes that do not add up to the
    /// shape's tiles (cells − 1), or a group with more than [`MAX_PLACEMENTS`] placements.
    pub fn parse(s: &str, shape: Shape) -> Result<Partition, String> {
        let sizes: Vec<usize> = s
            .split('-')
            .map(|p| p.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("`{s}` is not a partition; write group sizes like 6-6-3"))?;
        let (tiles, example) = (shape.cells() - 1, Partition::default_for(shape).name());
        if sizes.contains(&0) {
            return Err(format!(
                "partition {s} has a group of 0 tiles: the sizes say how many tiles each group \
                 holds (not a range of tiles), at least 1, adding up to the {tiles} tiles of a \
                 {shape} board (the blank is in no group), e.g. {example}"
            ));
        }
        let total: usize = sizes.iter().sum();
        if total != tiles {
            return Err(format!(
                "partition {s} covers {total} tiles, but a {shape} board has {tiles} (the blank \
                 is in no group): give group sizes that add up to {tiles}, e.g. {example}"
            ));
        }
        if let Some(&big) = sizes
            .iter()
            .find(|&&g| placements(shape.cells(), g) > MAX_PLACEMENTS)
        {
            return Err(format!(
                "a group of {big} tiles on a {shape} board has {} placements; tilebench builds \
                 groups of up to {MAX_PLACEMENTS} (8 tiles on 4x4): use smaller groups, e.g. 7-8",
                placements(shape.cells(), big),
            ));
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
    /// mirrored to the goal's corner. Otherwise the goal's cells in reading order (skipping the blank) are cut into
    /// consecutive runs.
    pub fn group_cells(&self, shape: Shape, blank: usize) -> Vec<Vec<u8>> {
        if let Some(cells) = self.layout_4x4(shape, blank) {
            return cells;
        }
        let mut cells = (0..shape.cells() as u8).filter(|&c| c as usize != blank);
        self.sizes
            .iter()
            .map(|&s| cells.by_ref().take(s).collect())
            .collect()
    }

    /// Goal cells of each group for the known 4x4 layouts, mirrored so the blank corner fits.
    fn layout_4x4(&self, shape: Shape, blank: usize) -> Option<Vec<Vec<u8>>> {
        if shape != Shape::S4X4 || ![0, 3, 12, 15].contains(&blank) {
            return None;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_partitions_say_what_is_wrong() {
        let e = Partition::parse("0-8", Shape::S3X3).unwrap_err();
        assert!(e.contains("has a group of 0 tiles"), "{e}");
        let e = Partition::parse("4-5", Shape::S3X3).unwrap_err();
        assert!(
            e.contains(
                "covers 9 tiles, but a 3x3 board has 8 (the blank is in no group): give group \
                 sizes that add up to 8"
            ),
            "{e}"
        );
        assert_eq!(Partition::parse("4-4", Shape::S3X3).unwrap().sizes, [4, 4]);
    }
}
