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
    pub fn unrank(&self, mut r: u64) -> u64 {
        let mut free: u32 = (1u32 << self.n) - 1;
        let mut cells = 0u64;
        for i in 0..self.n {
            let w = self.weights[i];
            let k = (r / w) as u32;
            r %= w;
            // the k-th (0-based) set bit of `free`
            let mut f = free;
            for _ in 0..k {
                f &= f - 1;
            }
            let v = f.trailing_zeros();
            free &= !(1 << v);
            cells |= (v as u64) << (4 * i);
        }
        cells
    }

    /// The rank of a board.
    pub fn rank_board(&self, b: &Board) -> u64 {
        self.rank(b.packed())
    }
}
