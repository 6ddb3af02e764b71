//! Indexing placements of a group's tiles, and the few bit tricks the builder needs.

use crate::puzzle::Shape;

/// `n! / (n - k)!`: ordered placements of `k` items in `n` cells (`u64::MAX` where that
/// overflows: more than 16 cells make factorials too large for a `u64`).
pub(crate) fn placements(n: usize, k: usize) -> u64 {
    (n - k + 1..=n).fold(1u64, |p, x| p.saturating_mul(x as u64))
}

/// Ranks ordered placements of `k` distinct cells out of `n` (a partial Lehmer code): slot
/// `i`'s digit is its cell minus the cells of earlier slots below it, weighted by the
/// placements of the slots after it. A bijection onto `0..n!/(n-k)!`.
#[derive(Clone, Debug)]
pub(super) struct PartialRanker {
    k: usize,
    weights: [u64; 16],
    /// Whether every rank fits in 32 bits (then unranking finds each digit from the rank
    /// alone, by multiplications, see [`PartialRanker::unrank`]).
    small: bool,
    /// [`Reciprocal`]s of each slot's weight and of its digit's range (`n − i`).
    by_weight: [Reciprocal; 16],
    by_range: [Reciprocal; 16],
}

/// Division of a 32-bit number by a fixed divisor `d` by a multiplication: the high half of
/// its product with `⌈2^64 / d⌉` is the quotient, exactly, for every 32-bit numerator and
/// divisor (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019). The
/// divisor 1, whose multiplier does not fit in 64 bits, is kept as a multiplier of 0.
#[derive(Clone, Copy, Debug, Default)]
struct Reciprocal {
    d: u32,
    m: u64,
}

impl Reciprocal {
    fn new(d: u64) -> Reciprocal {
        assert!((1..=u32::MAX as u64).contains(&d), "a 32-bit divisor");
        Reciprocal {
            d: d as u32,
            m: if d == 1 { 0 } else { u64::MAX / d + 1 },
        }
    }

    #[inline]
    fn div(self, x: u32) -> u32 {
        if self.m == 0 {
            x
        } else {
            ((x as u128 * self.m as u128) >> 64) as u32
        }
    }

    #[inline]
    fn rem(self, x: u32) -> u32 {
        x - self.div(x) * self.d
    }
}

impl PartialRanker {
    pub(super) fn new(n: usize, k: usize) -> PartialRanker {
        let mut weights = [0u64; 16];
        for (i, w) in weights.iter_mut().enumerate().take(k) {
            *w = placements(n - 1 - i, k - 1 - i);
        }
        let small = placements(n, k) <= u32::MAX as u64;
        let (mut by_weight, mut by_range) =
            ([Reciprocal::default(); 16], [Reciprocal::default(); 16]);
        if small {
            for i in 0..k {
                by_weight[i] = Reciprocal::new(weights[i]);
                by_range[i] = Reciprocal::new((n - i) as u64);
            }
        }
        PartialRanker {
            k,
            weights,
            small,
            by_weight,
            by_range,
        }
    }

    /// Slot `i`'s weight in the rank.
    #[inline]
    pub(super) fn weight(&self, i: usize) -> u64 {
        self.weights[i & 15]
    }

    #[inline]
    pub(super) fn rank(&self, cells: &[u8]) -> u64 {
        let mut used = 0u32;
        let mut r = 0u64;
        for (i, &c) in cells.iter().enumerate().take(self.k) {
            let below = (used & ((1u32 << c) - 1)).count_ones();
            r += (c as u32 - below) as u64 * self.weights[i];
            used |= 1 << c;
        }
        r
    }

    /// The cells of the placement of rank `r`.
    ///
    /// Where ranks fit in 32 bits, each digit is found from the rank alone, not from the
    /// remainder of the digit before: slot `i`'s digit is `⌊r / w_i⌋ mod (n − i)`, as each
    /// weight is the next one times `n − i` (`w_{i−1} = (n − i) w_i`). The divisions, by
    /// multiplication, are then independent of each other and overlap, where a chain of
    /// divisions waited for each one (the builders unrank each frontier placement).
    pub(super) fn unrank(&self, mut r: u64, out: &mut [u8]) {
        let mut free: u32 = u32::MAX;
        if self.small {
            let mut digits = [0u32; 16];
            for (i, d) in digits.iter_mut().enumerate().take(self.k) {
                let q = self.by_weight[i].div(r as u32);
                *d = self.by_range[i].rem(q);
            }
            for (slot, &d) in out.iter_mut().zip(&digits).take(self.k) {
                let c = select(free, d);
                free &= !(1 << c);
                *slot = c as u8;
            }
            return;
        }
        for (i, slot) in out.iter_mut().enumerate().take(self.k) {
            let w = self.weights[i];
            let d = (r / w) as u32;
            r %= w;
            let c = select(free, d);
            free &= !(1 << c);
            *slot = c as u8;
        }
    }
}

/// The index of the `d`-th (from 0) set bit of `mask`.
#[inline]
pub(super) fn select(mask: u32, d: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target feature is enabled at compile time.
        unsafe { std::arch::x86_64::_pdep_u32(1 << d, mask).trailing_zeros() }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut m = mask;
        for _ in 0..d {
            m &= m - 1;
        }
        m.trailing_zeros()
    }
}

/// The bits of `x` at the set positions of `mask`, packed to the low end.
#[inline]
pub(super) fn compress(x: u32, mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target feature is enabled at compile time.
        unsafe { std::arch::x86_64::_pext_u32(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0u32, 0u32, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// `dist[slot][cell]`: the Manhattan distance of the slot's tile at `cell` from its home
/// cell `home[slot]`, for boards of at most `C` cells (16, or 32 for boards of more than 16).
pub(super) fn home_distances<const C: usize>(shape: Shape, home: &[u8]) -> [[u8; C]; 16] {
    debug_assert!(shape.cells() <= C);
    let mut dist = [[0u8; C]; 16];
    for (j, &h) in home.iter().enumerate() {
        let (hr, hc) = shape.row_col(h as usize);
        for (c, d) in dist[j].iter_mut().enumerate().take(shape.cells()) {
            let (r, col) = shape.row_col(c);
            *d = (hr.abs_diff(r) + hc.abs_diff(col)) as u8;
        }
    }
    dist
}

/// Cell masks of a board shape (of at most 32 cells): which cells touch which, and flood fill.
#[derive(Clone, Debug)]
pub(super) struct Grid {
    width: u32,
    pub full: u32,
    not_first_col: u32,
    not_last_col: u32,
    /// `adjacent[c]`: the cells one move from `c`.
    pub adjacent: [u32; 32],
}

impl Grid {
    pub(super) fn new(shape: Shape) -> Grid {
        let (w, n) = (shape.width(), shape.cells());
        assert!(n <= 32, "cell masks hold at most 32 cells");
        let full = ((1u64 << n) - 1) as u32;
        let first: u32 = (0..n).filter(|c| c % w == 0).map(|c| 1 << c).sum();
        let last: u32 = (0..n).filter(|c| c % w == w - 1).map(|c| 1 << c).sum();
        let mut g = Grid {
            width: w as u32,
            full,
            not_first_col: full & !first,
            not_last_col: full & !last,
            adjacent: [0; 32],
        };
        for c in 0..n {
            g.adjacent[c] = g.spread(1 << c) & !(1 << c);
        }
        g
    }

    /// `cells` and every cell next to one of them.
    #[inline]
    pub(super) fn spread(&self, cells: u32) -> u32 {
        (cells
            | ((cells << 1) & self.not_first_col)
            | ((cells >> 1) & self.not_last_col)
            | (cells << self.width)
            | (cells >> self.width))
            & self.full
    }

    /// The cells of `free` connected to `start` (a subset of `free`) through `free`.
    #[inline]
    pub(super) fn region(&self, start: u32, free: u32) -> u32 {
        let mut r = start;
        loop {
            let next = self.spread(r) & free;
            if next == r {
                return r;
            }
            r = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_and_unrank_its_inverse() {
        let r = PartialRanker::new(6, 3);
        let mut seen = vec![false; placements(6, 3) as usize];
        let mut out = [0u8; 3];
        for a in 0..6u8 {
            for b in (0..6u8).filter(|&b| b != a) {
                for c in (0..6u8).filter(|&c| c != a && c != b) {
                    let i = r.rank(&[a, b, c]) as usize;
                    assert!(!seen[i]);
                    seen[i] = true;
                    r.unrank(i as u64, &mut out);
                    assert_eq!(out, [a, b, c]);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// Unranking by digits found each from the rank (32-bit ranks) gives what a chain of
    /// divisions gives, for groups of 1 to 15 tiles on 16 cells and 1 to 8 on 9 (ranks of at
    /// most 32 bits: 8 tiles on 16 cells have 518,918,400 placements), at the first and last
    /// ranks and pseudo-random ones.
    #[test]
    fn unranking_by_independent_digits_equals_the_chain_of_divisions() {
        let mut checked = 0;
        for (n, k) in (1..=15).map(|k| (16, k)).chain((1..=8).map(|k| (9, k))) {
            let ranker = PartialRanker::new(n, k);
            let total = placements(n, k);
            if total > u32::MAX as u64 {
                continue;
            }
            let (mut x, mut got) = (0x9E37_79B9_7F4A_7C15u64, [0u8; 16]);
            for i in 0..3000u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let r = match i {
                    0..=9 => i.min(total - 1),
                    10..=19 => total - 1 - (i - 10).min(total - 1),
                    _ => x % total,
                };
                ranker.unrank(r, &mut got);
                let (mut want, mut free, mut rest) = ([0u8; 16], u32::MAX, r);
                for (i, cell) in want.iter_mut().enumerate().take(k) {
                    let w = placements(n - 1 - i, k - 1 - i);
                    let c = select(free, (rest / w) as u32);
                    rest %= w;
                    free &= !(1 << c);
                    *cell = c as u8;
                }
                assert_eq!(got[..k], want[..k], "{k} of {n} cells, rank {r}");
                assert_eq!(ranker.rank(&got[..k]), r);
                checked += 1;
            }
        }
        assert_eq!(checked, 3000 * 17, "9 groups on 16 cells, 8 on 9");
    }

    /// Rank order is the lexicographic order of the cells (the builder's mirror compares
    /// placements by their cells as 4-bit digits, see `build::Order`).
    #[test]
    fn ranks_are_in_the_lexicographic_order_of_the_cells() {
        let r = PartialRanker::new(16, 5);
        let (mut x, mut pairs) = (0x2545_F491_4F6C_DD1Du64, Vec::new());
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut cells = [0u8; 16];
            r.unrank(x % placements(16, 5), &mut cells);
            let packed = (0..5).fold(0u64, |p, i| p | (cells[i] as u64) << (60 - 4 * i));
            assert_eq!(r.rank(&cells[..5]), x % placements(16, 5));
            pairs.push((packed, x % placements(16, 5)));
        }
        pairs.sort_unstable();
        assert!(pairs.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    #[test]
    fn select_compress_and_regions() {
        assert_eq!(select(0b1011_0100, 0), 2);
        assert_eq!(select(0b1011_0100, 2), 5);
        assert_eq!(compress(0b1010_0100, 0b1011_0100), 0b1101);
        let g = Grid::new(Shape::S4X4);
        // Cells 3 and 4 are not neighbours (different rows).
        assert_eq!(g.adjacent[3], (1 << 2) | (1 << 7));
        let free = (1 << 3) | (1 << 4) | (1 << 7);
        assert_eq!(g.region(1 << 3, free), (1 << 3) | (1 << 7));
        assert_eq!(g.region(1 << 4, free), 1 << 4);
    }
}
