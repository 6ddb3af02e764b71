use super::{Board, Shape};

/// `n!` for `n ≤ 20`.
pub const fn factorial(n: usize) -> u64 {
    let mut f = 1u64;
    let mut i = 2;
    while i <= n {
        f *= i as u64;
        i += 1;
    }
    f
}

/// A perfect, minimal rank of boards: a bijection between the `n!` arrangements of a shape and
/// `0..n!` (the Lehmer code, computed in O(n) with a bit mask and popcount).
#[derive(Clone, Debug)]
pub struct Ranker {
    n: usize,
    /// `weights[i] = (n - 1 - i)!`.
    weights: [u64; 16],
}

impl Ranker {
    /// The ranker of boards of `shape` (ranks `0..n!` for `n` cells).
    pub fn new(shape: Shape) -> Ranker {
        let n = shape.cells();
        let mut weights = [0u64; 16];
        for (i, w) in weights.iter_mut().enumerate().take(n) {
            *w = factorial(n - 1 - i);
        }
        Ranker { n, weights }
    }

    /// How many ranks there are: `n!`.
    pub fn size(&self) -> u64 {
        factorial(self.n)
    }

    /// The rank of packed cells, in `0..n!`.
    #[inline]
    pub fn rank(&self, cells: u64) -> u64 {
        let mut used: u32 = 0;
        let mut r = 0u64;
        for i in 0..self.n {
            let v = ((cells >> (4 * i)) & 0xF) as u32;
            let smaller_used = (used & ((1u32 << v) - 1)).count_ones();
            r += (v - smaller_used) as u64 * self.weights[i];
            used |= 1 << v;
        }
        r
    }

    /// The packed cells with rank `r` (the inverse of [`Ranker::rank`]).
    #[inline]
    pub fn unrank(&self, r: u64) -> u64 {
        // The digits of `r` in the factorial base, lowest first: by the constants 2..=16,
        // which the compiler turns into multiplications (the digits beyond n come out 0).
        let mut digits = [0u8; 16];
        let mut q = r;
        for (k, d) in (1..=16u64).zip(digits.iter_mut().rev()) {
            *d = (q % k) as u8;
            q /= k;
        }
        // Cell i takes the digits[16 - n + i]-th smallest value not yet used: the values left
        // are kept in order, 4 bits each, and the chosen one cut out.
        let mut left: u64 = 0xFEDC_BA98_7654_3210;
        let mut cells = 0u64;
        for (i, &k) in digits[16 - self.n..].iter().enumerate() {
            let at = 4 * k as u32;
            cells |= ((left >> at) & 0xF) << (4 * i);
            let below = left & ((1u64 << at) - 1);
            left = below | (left >> at >> 4) << at;
        }
        cells
    }

    /// The rank of a board.
    pub fn rank_board(&self, b: &Board) -> u64 {
        self.rank(b.packed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrank_inverts_rank_on_every_2x4_board_and_across_the_4x4_ranks() {
        let r = Ranker::new("2x4".parse().unwrap());
        let mut seen = std::collections::HashSet::new();
        for k in 0..r.size() {
            let cells = r.unrank(k);
            assert_eq!(r.rank(cells), k, "2x4 rank {k}: cells {cells:x}");
            assert!(seen.insert(cells));
        }
        let r = Ranker::new(Shape::S4X4);
        // Ranks spread over 0..16! (a stride prime to every factorial digit's base), and
        // the last one.
        for k in (0..r.size()).step_by(1_000_000_007).chain([r.size() - 1]) {
            assert_eq!(r.rank(r.unrank(k)), k, "4x4 rank {k}");
        }
    }
}
