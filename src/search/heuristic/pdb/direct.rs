//! A table of a board of more than 16 cells laid out for direct access, as Korf and Felner
//! lay out theirs: the entry of the placement (c₀, …, c₋₁) at Σ cₛ·n^(k−1−s), one slot for
//! every k-tuple of cells, repeated cells included (and never read).
//!
//! A table on disk holds only the placements (n!/(n−k)! entries, ranked as a partial Lehmer
//! code): half the size, but a rank is a chain of k dependent steps (a popcount of the cells
//! before each). In the direct layout a move of one tile changes the index by the difference
//! of its two cells times one power of n, so IDA\* (`search::wide_pdb`) makes a child's index
//! with one subtraction and one addition. The expansion is made in memory from the mapped
//! table when a search first needs it: for 6 tiles on 5x5, 25⁶ entries of 4 bits, 122 MB a
//! table, in about a second.

use rayon::prelude::*;

/// The largest direct table made (bytes); a larger group keeps its ranked lookups.
pub(crate) const MAX_DIRECT_BYTES: u64 = 256 << 20;

/// One table's entries in the direct layout, 4 bits each (entry `i` in byte `i / 2`, the low
/// half for even `i`), in anonymous memory advised into huge pages.
pub(crate) struct DirectTable {
    map: memmap2::MmapMut,
    powers: [u32; 16],
}

impl DirectTable {
    /// The direct layout of `packed`, the ranked entries of `k` tiles' placements on `n`
    /// cells; `None` when it would take more than [`MAX_DIRECT_BYTES`] or the memory cannot
    /// be had (the search then ranks, as without it).
    pub(crate) fn expand(packed: &[u8], n: usize, k: usize) -> Option<DirectTable> {
        if k == 0 || k > 16 || n > 32 || k > n {
            return None;
        }
        let slots = (n as u64).checked_pow(k as u32)?;
        let bytes = slots.div_ceil(2);
        if bytes > MAX_DIRECT_BYTES {
            return None;
        }
        let mut map = memmap2::MmapMut::map_anon(bytes as usize).ok()?;
        #[cfg(target_os = "linux")]
        {
            // Only a hint: the entries are read at random, so 2 MiB pages spare the TLB.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        let mut powers = [0u32; 16];
        for (s, p) in powers.iter_mut().enumerate().take(k) {
            *p = (n as u32).pow((k - 1 - s) as u32);
        }
        // The placements with the first tile on cell c₀ are a run of the ranked entries
        // (`per_first` of them, from c₀·per_first) and fill the direct slots from
        // c₀·n^(k−1). Two first cells at a time make a whole number of bytes, so each
        // pair fills its own bytes on its own thread.
        let per_first = super::placements(n - 1, k - 1);
        let span = powers[0] as usize; // n^(k−1) slots per first cell
        map.par_chunks_mut(span)
            .enumerate()
            .for_each(|(pair, dst)| {
                for c0 in [2 * pair, 2 * pair + 1].into_iter().filter(|&c| c < n) {
                    let mut walk = Walk {
                        src: packed,
                        dst,
                        base: (2 * pair * span) as u64,
                        n,
                        k,
                        powers: &powers,
                        rank: c0 as u64 * per_first,
                    };
                    walk.fill(1, 1 << c0, c0 as u64 * powers[0] as u64);
                }
            });
        Some(DirectTable { map, powers })
    }

    /// The entries, 4 bits each.
    pub(crate) fn entries(&self) -> &[u8] {
        &self.map
    }

    /// The weight of slot `s` in an index: n^(k−1−s).
    pub(crate) fn power(&self, s: usize) -> u32 {
        self.powers[s]
    }
}

/// The placements in rank order (the lexicographic order of their cells), copying each
/// nonzero entry to its direct slot.
struct Walk<'a> {
    src: &'a [u8],
    dst: &'a mut [u8],
    /// The direct slot of `dst`'s first byte's low half.
    base: u64,
    n: usize,
    k: usize,
    powers: &'a [u32; 16],
    /// The rank of the next placement.
    rank: u64,
}

impl Walk<'_> {
    fn fill(&mut self, slot: usize, used: u32, index: u64) {
        let cells = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        let mut free = cells & !used;
        if slot == self.k {
            // Only with one tile: the first cell is the whole placement.
            self.copy(index);
            return;
        }
        if slot + 1 == self.k {
            // The last slot, in a loop: the ranked entries are read in order.
            while free != 0 {
                let c = free.trailing_zeros() as u64;
                free &= free - 1;
                self.copy(index + c);
            }
            return;
        }
        let w = self.powers[slot] as u64;
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            self.fill(slot + 1, used | 1 << c, index + c as u64 * w);
        }
    }

    /// Copies the next ranked entry to direct slot `index`.
    #[inline(always)]
    fn copy(&mut self, index: u64) {
        let r = self.rank;
        self.rank += 1;
        let v = (self.src[(r / 2) as usize] >> ((r % 2) * 4)) & 15;
        let d = index - self.base;
        self.dst[(d / 2) as usize] |= v << ((d % 2) * 4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank of a placement as the tables rank it, written out from its definition.
    fn rank(cells: &[usize], n: usize) -> u64 {
        let k = cells.len();
        let mut r = 0u64;
        for (s, &c) in cells.iter().enumerate() {
            let below = cells[..s].iter().filter(|&&e| e < c).count();
            r += (c - below) as u64 * super::super::placements(n - 1 - s, k - 1 - s);
        }
        r
    }

    #[test]
    fn every_placement_reads_its_ranked_entry_at_its_direct_index() {
        for (n, k) in [(5, 3), (7, 1), (6, 4), (9, 2), (4, 4)] {
            let count = super::super::placements(n, k);
            // Entries from a scrambled pattern, zeros included.
            let packed: Vec<u8> = (0..count.div_ceil(2))
                .map(|i| (i.wrapping_mul(0x9E37_79B9) >> 7) as u8)
                .collect();
            let t = DirectTable::expand(&packed, n, k).expect("small tables expand");
            let mut seen = 0;
            let mut cells = vec![0usize; k];
            for code in 0..(n as u64).pow(k as u32) {
                let mut x = code;
                for c in cells.iter_mut().rev() {
                    *c = (x % n as u64) as usize;
                    x /= n as u64;
                }
                let d = (0..k)
                    .map(|s| cells[s] as u64 * t.power(s) as u64)
                    .sum::<u64>();
                assert_eq!(d, code, "the index is the cells' base-n number");
                let direct = (t.entries()[(d / 2) as usize] >> ((d % 2) * 4)) & 15;
                let distinct = (0..k).all(|i| (0..i).all(|j| cells[i] != cells[j]));
                if distinct {
                    let r = rank(&cells, n);
                    let ranked = (packed[(r / 2) as usize] >> ((r % 2) * 4)) & 15;
                    assert_eq!(direct, ranked, "{n} cells, {k} tiles, cells {cells:?}");
                    seen += 1;
                } else {
                    assert_eq!(direct, 0, "a slot with a repeated cell stays empty");
                }
            }
            assert_eq!(seen, count);
        }
    }

    #[test]
    fn too_large_a_table_is_not_expanded() {
        // 36 cells, 6 tiles: 36⁶ slots, over 1 GB.
        assert!(DirectTable::expand(&[], 36, 6).is_none());
        assert!(DirectTable::expand(&[], 33, 2).is_none());
    }
}
