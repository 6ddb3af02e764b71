use super::{Board, Shape};

/// `n!` for `n ≤ 20`.
pub(crate) const fn factorial(n: usize) -> u64 {
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

    #[cfg(test)]
    /// The rank of a board.
    pub(crate) fn rank_board(&self, b: &Board) -> u64 {
        self.rank(b.packed())
    }

    /// The rank of `b` with its Lehmer digits kept, for following it move by move at the
    /// cost of the digits a move changes ([`Lehmer::slide`]) instead of a whole rank.
    pub(crate) fn lehmer(&self, b: &Board) -> Lehmer {
        let cells = b.packed();
        let mut digits = [0u8; 16];
        let mut used: u32 = 0;
        let mut rank = 0u64;
        for (i, d) in digits.iter_mut().enumerate().take(self.n) {
            let v = ((cells >> (4 * i)) & 0xF) as u32;
            // Of the values below v, those not used before cell i come after it.
            *d = (v - (used & ((1u32 << v) - 1)).count_ones()) as u8;
            rank += u64::from(*d) * self.weights[i];
            used |= 1 << v;
        }
        Lehmer {
            board: *b,
            digits,
            rank,
        }
    }
}

/// A board with its rank and the Lehmer digits the rank is made of: `digits[i]` is how many
/// of the cells after `i` hold a smaller value, and the rank is the sum of `digits[i]` ×
/// `(n - 1 - i)!`.
///
/// A move swaps the blank (value 0) with the tile `t` at cell `to`; only the digits of the
/// cells from the blank to `to` change. Moving the blank forward (from `p` to `q > p`), each
/// cell between gains the tile after it in place of the blank: its digit grows by one if its
/// value is below `t`; `t` lands in `p` with every smaller value after it (its old digit, the
/// blank now at `q`, and those between below it); `q` gets 0. Backward (to `q < p`) the other
/// way round. A horizontal move has no cell between.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lehmer {
    board: Board,
    digits: [u8; 16],
    rank: u64,
}

impl Lehmer {
    /// The board.
    #[inline(always)]
    pub(crate) fn board(&self) -> Board {
        self.board
    }
    /// Its rank, as [`Ranker::rank`] gives it.
    #[inline(always)]
    pub(crate) fn rank(&self) -> u64 {
        self.rank
    }
    /// Moves the blank to cell `to` (a neighbour of it, as [`Board::slide_blank_to`]),
    /// updating the rank by the digits that change; `ranker` is the one that made `self`.
    #[inline]
    pub(crate) fn slide(&mut self, ranker: &Ranker, to: usize) {
        let p = self.board.blank();
        let t = self.board.tile(to);
        let w = &ranker.weights;
        let d = &mut self.digits;
        // The cells strictly between, and how many hold a value below t.
        let mut below = 0u8;
        let mut rank = self.rank - u64::from(d[to]) * w[to];
        if to > p {
            for i in p + 1..to {
                if self.board.tile(i) < t {
                    d[i] += 1;
                    below += 1;
                    rank += w[i];
                }
            }
            d[p] = d[to] + 1 + below;
        } else {
            for i in to + 1..p {
                if self.board.tile(i) < t {
                    d[i] -= 1;
                    below += 1;
                    rank -= w[i];
                }
            }
            d[p] = d[to] - 1 - below;
        }
        d[to] = 0;
        self.rank = rank + u64::from(d[p]) * w[p];
        self.board = self.board.slide_blank_to(to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows random walks on every shape from 2x2 to 4x4, and after every
    /// move holds the incremental rank and digits to those of a whole new rank.
    #[test]
    fn lehmer_slide_keeps_the_rank_of_the_board_it_reaches() {
        use crate::puzzle::Neighbors;
        let mut rng = crate::util::Rng::new(17);
        let mut moves = 0;
        for (w, h) in crate::puzzle::TEST_SHAPES {
            let shape = Shape::new(w, h).unwrap();
            let r = Ranker::new(shape);
            let nb = Neighbors::of(shape);
            for start in 0..20 {
                // A scrambled start, the blank anywhere.
                let b = nb.random_walk(Board::standard_goal(shape), start * 7, &mut rng);
                let mut l = r.lehmer(&b);
                assert_eq!(l.rank(), r.rank_board(&b));
                for _ in 0..200 {
                    let want = nb.random_walk(l.board(), 1, &mut rng);
                    l.slide(&r, want.blank());
                    assert_eq!(l.board(), want);
                    let fresh = r.lehmer(&want);
                    assert_eq!(l.rank(), r.rank_board(&want), "{shape} {want}");
                    assert_eq!(l.digits, fresh.digits, "{shape} {want}");
                    moves += 1;
                }
            }
        }
        assert_eq!(moves, 10 * 20 * 200);
    }

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
