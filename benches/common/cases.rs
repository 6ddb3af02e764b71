//! Case sets for the peer benchmarks: uniform random 3x3 starts at chosen optimal lengths
//! from the standard goal (exact, from the distance table), deterministic per seed.
#![allow(dead_code)]

use crate::rng::Rng;

use tilebench::puzzle::{is_solvable, Board, Shape};
use tilebench::space::DistanceTable;

/// `n` starts whose optimal lengths lie in `depths`, uniform among such states.
pub fn at_depths(n: usize, depths: std::ops::RangeInclusive<u8>, seed: u64) -> Vec<Board> {
    let goal = Board::standard_goal(Shape::S3X3);
    let table = DistanceTable::build(goal).unwrap();
    let by = table.ranks_by_distance();
    let pool: Vec<u64> = depths
        .flat_map(|d| by.get(d as usize).cloned().unwrap_or_default())
        .collect();
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| table.unrank(pool[rng.below(pool.len() as u64) as usize]))
        .collect()
}

/// `n` uniformly random starts that are solvable (or, with `solvable` false, unsolvable).
fn random_starts(n: usize, seed: u64, solvable: bool) -> Vec<Board> {
    let goal = Board::standard_goal(Shape::S3X3);
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut tiles: Vec<u8> = (0..9).collect();
        rng.shuffle(&mut tiles);
        let b = Board::from_tiles(Shape::S3X3, &tiles);
        if is_solvable(&b, &goal) == solvable {
            out.push(b);
        }
    }
    out
}

/// `n` uniformly random solvable starts.
pub fn random_solvable(n: usize, seed: u64) -> Vec<Board> {
    random_starts(n, seed, true)
}

/// `n` uniformly random unsolvable starts.
pub fn random_unsolvable(n: usize, seed: u64) -> Vec<Board> {
    random_starts(n, seed, false)
}
