//! One group's table and its lookup.

use super::build;
use super::index::{home_distances, placements, PartialRanker};
use crate::puzzle::Shape;

/// One group's table: for each placement of its tiles (in canonical tile order), the
/// fewest moves of those tiles that bring them home. Stored 4 bits an entry (see
/// [`build`](super::build)): a lookup adds the group's Manhattan distance back.
///
/// [`PatternTable::value`] and its kin read boards of at most 16 cells; on larger boards
/// (5x5) the entries are read by the 24-puzzle's own search (`search::pdb24`), which ranks
/// placements itself.
pub struct PatternTable {
    /// Canonical tile names of the group, in slot order.
    pub tiles: Vec<u8>,
    ranker: PartialRanker,
    /// `dist[slot][cell]`: Manhattan distance of the slot's tile at `cell` from its home.
    dist: [[u8; 16]; 16],
    entries: u64,
    packed: Entries,
}

/// A table's packed entries: built in memory, or a cache file mapped into memory (pages are
/// read from the disk, or the page cache, when a lookup first touches them).
pub(crate) enum Entries {
    /// Entries in memory (a table just built).
    Owned(Vec<u8>),
    /// `len` bytes at `offset` of a mapped cache file.
    Mapped {
        /// The whole file.
        map: memmap2::Mmap,
        /// Where the entries start (after the header).
        offset: usize,
        /// How many bytes they take.
        len: usize,
    },
}

impl std::ops::Deref for Entries {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Entries::Owned(v) => v,
            Entries::Mapped { map, offset, len } => &map[*offset..*offset + *len],
        }
    }
}

impl From<Vec<u8>> for Entries {
    fn from(v: Vec<u8>) -> Entries {
        Entries::Owned(v)
    }
}

impl PatternTable {
    /// A table from its packed entries (built, or mapped from a cache file).
    pub(crate) fn new(
        shape: Shape,
        home: &[u8],
        tiles: &[u8],
        packed: impl Into<Entries>,
    ) -> PatternTable {
        let n = shape.cells();
        let packed = packed.into();
        assert_eq!(packed.len() as u64, Self::packed_len(shape, tiles.len()));
        PatternTable {
            tiles: tiles.to_vec(),
            ranker: PartialRanker::new(n, tiles.len()),
            // Read by `locate`, on boards of at most 16 cells only.
            dist: if shape.is_packed() {
                home_distances::<16>(shape, home)
            } else {
                [[0; 16]; 16]
            },
            entries: placements(n, tiles.len()),
            packed,
        }
    }

    /// Bytes of the packed table of a `k`-tile group.
    pub(crate) fn packed_len(shape: Shape, k: usize) -> u64 {
        placements(shape.cells(), k).div_ceil(2)
    }

    /// The table's value for the group's cells, in slot order.
    #[inline]
    pub fn value(&self, cells: &[u8]) -> u32 {
        self.value_of(|j| cells[j])
    }

    /// The table's value where `cell(j)` is the cell of slot `j`'s tile: the rank and the
    /// group's Manhattan distance in one pass, no array of cells built.
    #[inline]
    pub(crate) fn value_of(&self, cell: impl Fn(usize) -> u8) -> u32 {
        let (i, md) = self.locate(cell);
        self.value_at(i, md)
    }

    /// The table's value at entry `i` ([`PatternTable::locate`]'s index), whose group's
    /// Manhattan distance is `md`.
    #[inline]
    pub(crate) fn value_at(&self, i: u64, md: u32) -> u32 {
        let packed: &[u8] = &self.packed;
        let delta = (packed[(i / 2) as usize] >> ((i % 2) * 4)) & 0xF;
        // An unreached placement (the other parity, with every tile in the group) never
        // occurs in a search of a solvable pair; it reads as Manhattan + 30.
        md + 2 * delta as u32
    }

    /// Asks the processor to fetch entry `i`.
    #[inline]
    pub(crate) fn prefetch_at(&self, i: u64) {
        if let Some(byte) = self.packed.get((i / 2) as usize) {
            crate::util::prefetch(byte);
        }
    }

    /// The entry's index (the placement's rank) and the group's Manhattan distance.
    #[inline]
    pub(crate) fn locate(&self, cell: impl Fn(usize) -> u8) -> (u64, u32) {
        let (mut used, mut i, mut md) = (0u32, 0u64, 0u32);
        for j in 0..self.tiles.len() {
            let c = cell(j);
            let below = (used & ((1u32 << c) - 1)).count_ones();
            i += (c as u32 - below) as u64 * self.ranker.weight(j);
            used |= 1 << c;
            md += self.dist[j][c as usize & 15] as u32;
        }
        (i, md)
    }

    /// Slot `j`'s weight in the entry's index ([`PatternTable::locate`]).
    #[inline]
    pub(crate) fn weight(&self, j: usize) -> u64 {
        self.ranker.weight(j)
    }

    /// The Manhattan distance of slot `j`'s tile on `cell` from its home.
    #[inline]
    pub(crate) fn distance(&self, j: usize, cell: usize) -> u8 {
        self.dist[j & 15][cell & 15]
    }

    /// Entries (placements of the group's tiles).
    pub fn len(&self) -> u64 {
        self.entries
    }
    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The packed entries, as written to a cache file.
    pub(crate) fn packed(&self) -> &[u8] {
        &self.packed
    }
}

/// Builds a table; see [`build::build`].
pub(super) fn build_table(
    shape: Shape,
    blank: usize,
    home: &[u8],
    tiles: &[u8],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (PatternTable, build::Built) {
    let mut built = build::build(shape, blank, home, progress);
    let packed = std::mem::take(&mut built.packed);
    (PatternTable::new(shape, home, tiles, packed), built)
}
