//! One table for the groups that a symmetry of the board maps onto each other (boards of
//! more than 16 cells).
//!
//! A group's table depends only on its home cells and on the free region the blank's goal
//! cell lies in when the group is at home (the builder's first state). A symmetry `ψ` of
//! the board that maps group `g`'s homes onto those of a group `g'` built before, and
//! `g`'s region of the blank onto `g'`'s, maps `g`'s abstract space onto `g'`'s: so `g`'s
//! value at cells `x_j` (slot `j`) is `g'`'s value with slot `σ(j)`'s tile on `ψ(x_j)`, where
//! `σ(j)` is the slot of `g'` whose home is `ψ` of `j`'s home. On 5x5 with Korf and Felner's
//! 6-6-6-6, the three blocks of 2x3 are one table (the half turn and a quarter turn map
//! them onto each other), and the group around the blank is the other: two tables of
//! 127,512,000 entries, 127.5 MB at 4 bits each, where four would take 255 MB.

use super::index::Grid;
use super::lookup::symmetry_maps;
use crate::puzzle::Shape;

/// Where one group's values are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The table (an index into [`super::PdbSet::tables`]).
    pub table: usize,
    /// `cell[c]`: where the table reads a tile that is on cell `c` (a symmetry of the board).
    pub cell: Vec<u8>,
    /// `slot[j]`: the table's slot of the group's slot `j`.
    pub slot: Vec<u8>,
}

/// The cells of `home`'s free region that holds `blank` when the group is at home.
fn blank_region(grid: &Grid, blank: usize, home: &[u8]) -> u32 {
    let free = grid.full & !home.iter().fold(0u32, |m, &c| m | 1 << c);
    if free & (1 << blank) == 0 {
        return 0;
    }
    grid.region(1 << blank, free)
}

/// `map` applied to the cells of `mask`.
fn image(map: &[u8], mask: u32) -> u32 {
    (0..map.len())
        .filter(|&c| mask >> c & 1 != 0)
        .fold(0, |m, c| m | 1 << map[c])
}

/// Each group's source: a table of its own (the groups built, in order, get tables 0, 1, …)
/// or an earlier group's table through a symmetry. Returns the sources and the groups whose
/// tables are built, in table order.
pub(super) fn sources(shape: Shape, blank: usize, homes: &[Vec<u8>]) -> (Vec<Source>, Vec<usize>) {
    let grid = Grid::new(shape);
    let maps = symmetry_maps(shape);
    let mask = |home: &[u8]| home.iter().fold(0u32, |m, &c| m | 1 << c);
    let (mut out, mut built): (Vec<Source>, Vec<usize>) = (Vec::new(), Vec::new());
    for home in homes {
        let region = blank_region(&grid, blank, home);
        let shared = built.iter().enumerate().find_map(|(t, &g)| {
            let other = &homes[g];
            if other.len() != home.len() {
                return None;
            }
            let other_region = blank_region(&grid, blank, other);
            maps.iter().find_map(|map| {
                if image(map, mask(home)) != mask(other) || image(map, region) != other_region {
                    return None;
                }
                let slot = home
                    .iter()
                    .map(|&h| {
                        other
                            .iter()
                            .position(|&o| o == map[h as usize])
                            .map(|s| s as u8)
                    })
                    .collect::<Option<Vec<u8>>>()?;
                Some(Source {
                    table: t,
                    cell: map.clone(),
                    slot,
                })
            })
        });
        out.push(shared.unwrap_or_else(|| {
            built.push(out.len());
            Source {
                table: built.len() - 1,
                cell: (0..shape.cells() as u8).collect(),
                slot: (0..home.len() as u8).collect(),
            }
        }));
    }
    (out, built)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pdb::Partition;

    /// Korf and Felner's 6-6-6-6: the three blocks share the first block's table, the group
    /// around the blank has its own; each shared group's homes go to the table's homes, slot
    /// for slot.
    #[test]
    fn korfs_blocks_share_one_table_and_the_blank_group_has_its_own() {
        let shape = Shape::S5X5;
        for blank in [0, 4, 20, 24] {
            let homes = Partition::parse("6-6-6-6", shape)
                .unwrap()
                .group_cells(shape, blank);
            let (src, built) = sources(shape, blank, &homes);
            assert_eq!(built, [0, 1], "blank {blank}");
            assert_eq!(
                src.iter().map(|s| s.table).collect::<Vec<_>>(),
                [0, 1, 1, 1]
            );
            for (g, s) in src.iter().enumerate() {
                let table_home = &homes[built[s.table]];
                for (j, &h) in homes[g].iter().enumerate() {
                    assert_eq!(s.cell[h as usize], table_home[s.slot[j] as usize]);
                }
            }
        }
        // The blank in the middle, groups in reading order: the half turn keeps the blank
        // and maps the first two groups onto the last two.
        let p = Partition::parse("6-6-6-6", shape).unwrap();
        assert_eq!(sources(shape, 12, &p.group_cells(shape, 12)).1, [0, 1]);
        // Blank on cell 1, reading order: no symmetry keeps the blank's region; four tables.
        assert_eq!(sources(shape, 1, &p.group_cells(shape, 1)).1, [0, 1, 2, 3]);
    }

    /// Two groups a symmetry maps onto each other, each built: the second's every entry
    /// is the first's read through its [`Source`] (cells mapped, slots reordered).
    #[test]
    fn a_shared_table_read_through_its_source_equals_the_groups_own_table() {
        use crate::search::pdb::build::build;
        use crate::search::pdb::placements;
        let shape = Shape::S5X5;
        for (blank, homes) in [
            // The transpose keeps the blank's corner; the half turn maps the block of the
            // top right onto the bottom left's with every free cell one region.
            (0, vec![vec![3u8, 4, 9], vec![15, 20, 21]]),
            (0, vec![vec![3u8, 4, 8, 9], vec![20, 21, 15, 16]]),
            // The blank's goal walled off by 1 and 5 (their own region): the transpose.
            (0, vec![vec![1u8, 5, 7], vec![5, 1, 11]]),
        ] {
            let (src, built) = sources(shape, blank, &homes);
            assert_eq!((built.as_slice(), src[1].table), (&[0][..], 0), "{homes:?}");
            let first = build(shape, blank, &homes[0], &|_, _| {});
            let second = build(shape, blank, &homes[1], &|_, _| {});
            let k = homes[1].len();
            let ranker = crate::search::pdb::index::PartialRanker::new(25, k);
            let value = |packed: &[u8], q: u64| (packed[q as usize / 2] >> (q % 2 * 4)) & 15;
            let mut cells = [0u8; 16];
            for q in 0..placements(25, k) {
                ranker.unrank(q, &mut cells);
                let mut mapped = [0u8; 16];
                for j in 0..k {
                    mapped[src[1].slot[j] as usize] = src[1].cell[cells[j] as usize];
                }
                let there = ranker.rank(&mapped[..k]);
                assert_eq!(
                    value(&second.packed, q),
                    value(&first.packed, there),
                    "{homes:?} at {:?}",
                    &cells[..k]
                );
            }
        }
    }
}
