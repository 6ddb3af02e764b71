use super::Board;

/// The parity (0 even, 1 odd) of the permutation that takes `a`'s cells to `b`'s, blank included.
///
/// Counted as inversions, without branches: the harness tests every pair's parity, and the
/// cycle walk this replaced took 4% of a million-row `-s table` run in its unpredictable loop.
pub(crate) fn permutation_parity(a: &Board, b: &Board) -> u32 {
    if !a.is_packed() {
        return wide_parity(a, b);
    }
    let n = a.shape().cells();
    // where_in_b[t] = the cell of tile t in b; a's tile at p must go to where_in_b[tile].
    let mut where_in_b = [0u8; 16];
    for p in 0..n {
        where_in_b[b.tile(p) as usize & 15] = p as u8;
    }
    inversions((0..n).map(|p| where_in_b[a.tile(p) as usize & 15])) & 1
}

/// [`permutation_parity`] of boards of more than 16 cells: the same count on a 64-bit set.
fn wide_parity(a: &Board, b: &Board) -> u32 {
    let n = a.shape().cells();
    let mut where_in_b = [0u8; crate::puzzle::MAX_CELLS];
    for p in 0..n {
        where_in_b[b.tile(p) as usize] = p as u8;
    }
    let (mut seen, mut count) = (0u64, 0u32);
    for p in 0..n {
        let v = where_in_b[a.tile(p) as usize];
        count += (seen >> v).count_ones();
        seen |= 1 << v;
    }
    count & 1
}

/// How many pairs of `order` are out of order (a value after a larger one); the values are
/// distinct and below 16. Counted on a bit set of the values seen, without branches.
#[inline]
pub(crate) fn inversions(order: impl IntoIterator<Item = u8>) -> u32 {
    let (mut seen, mut count) = (0u32, 0u32);
    for v in order {
        count += (seen >> (v & 15)).count_ones(); // earlier values above this one
        seen |= 1 << (v & 15);
    }
    count
}

/// Whether `goal` can be reached from `start` (same shape).
///
/// Every move swaps the blank with a neighbour: one transposition, and the blank's row plus
/// column changes by one. So the permutation parity from start to goal (blank included) must
/// equal the parity of the blank's taxicab distance. This one rule is right for odd and even
/// widths alike (it is the "inversions + blank row" rule of even widths, stated for any goal).
///
/// ```
/// use tilebench::puzzle::{is_solvable, Board};
/// let goal = Board::standard_goal("3x3".parse().unwrap());
/// assert!(is_solvable(&"2 3 4 1 5 x 7 6 8".parse().unwrap(), &goal));
/// assert!(!is_solvable(&"2 1 3 4 5 6 7 8 x".parse().unwrap(), &goal));
/// ```
pub fn is_solvable(start: &Board, goal: &Board) -> bool {
    let shape = start.shape();
    let (r1, c1) = shape.row_col(start.blank());
    let (r2, c2) = shape.row_col(goal.blank());
    let dist = (r1.abs_diff(r2) + c1.abs_diff(c2)) as u32;
    permutation_parity(start, goal) == dist & 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Shape, MOVE_ORDER};

    /// The parity of a permutation by its cycles (even-length cycles flip it): another way
    /// to count than the inversions `permutation_parity` uses.
    fn parity_by_cycles(a: &Board, b: &Board) -> u32 {
        let n = a.shape().cells();
        let mut where_in_b = vec![0usize; n];
        for p in 0..n {
            where_in_b[b.tile(p) as usize] = p;
        }
        let perm: Vec<usize> = (0..n).map(|p| where_in_b[a.tile(p) as usize]).collect();
        let mut seen = vec![false; n];
        let mut flips = 0;
        for s in 0..n {
            let mut len = 0;
            let mut p = s;
            while !seen[p] {
                seen[p] = true;
                p = perm[p];
                len += 1;
            }
            if len > 0 && len % 2 == 0 {
                flips += 1;
            }
        }
        flips & 1
    }

    /// On every shape from 2x2 to 7x7 (odd and even widths, oblong ones too): the parity
    /// agrees with the cycles' count, boards a random walk reaches are solvable and their
    /// parity-flipped twins are not.
    #[test]
    fn parity_holds_on_boards_of_every_size() {
        let mut rng = crate::util::Rng::new(11);
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 3),
            (5, 5),
            (6, 5),
            (6, 6),
            (7, 7),
            (2, 24),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let goal = Board::standard_goal(shape);
            for _ in 0..50 {
                let mut b = goal;
                for _ in 0..rng.index(300) {
                    if let Some(next) = b.apply(MOVE_ORDER[rng.index(4) as usize]) {
                        b = next;
                    }
                }
                assert_eq!(permutation_parity(&b, &goal), parity_by_cycles(&b, &goal));
                assert!(is_solvable(&b, &goal), "{shape}: {b}");
                let flipped = b.with_parity_flipped();
                assert!(!is_solvable(&flipped, &goal), "{shape}: {flipped}");
                assert_eq!(
                    permutation_parity(&flipped, &goal),
                    parity_by_cycles(&flipped, &goal)
                );
            }
        }
    }
}
