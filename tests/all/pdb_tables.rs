//! The large pattern-database tables, checked where an exhaustive comparison would be too
//! slow: sampled entries of 7- and 8-tile tables against an exact search in the abstract
//! space written here, and the bundled 3x4 and 4x4 datasets solved optimally (`--check`)
//! with every partition that builds in CI time. The 7-8 tables of the 4x4 default take
//! minutes and 1.9 GB to build, so CI checks 7 and 8 tiles on 3x4, where the builder runs
//! the same code (`scripts/bench.sh` runs Korf's 100 on the 4x4 7-8 tables).

use std::collections::{HashMap, VecDeque};
use tilebench::observe::Silent;
use tilebench::puzzle::Shape;
use tilebench::search::pdb::{load_or_build, Partition};

/// The tables' cache, shared with tests/pdb.rs and tests/answers.rs: each is built once.
fn pdb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-tests")
}

/// The cells next to `cell`.
fn neighbours(shape: Shape, cell: u8) -> Vec<u8> {
    let (w, h) = (shape.width() as i32, (shape.cells() / shape.width()) as i32);
    let (r, c) = (cell as i32 / w, cell as i32 % w);
    [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        .into_iter()
        .filter(|&(r, c)| (0..h).contains(&r) && (0..w).contains(&c))
        .map(|(r, c)| (r * w + c) as u8)
        .collect()
}

/// (placement, blank) packed: 4 bits a cell, the blank last.
fn key(cells: &[u8], blank: u8) -> u64 {
    cells
        .iter()
        .chain([&blank])
        .fold(0u64, |k, &c| k << 4 | c as u64)
}

/// The fewest moves of the group's tiles from `cells` (the blank anywhere it is free) to
/// `home` with the blank at `goal_blank`, by 0-1 BFS over (placement, blank cell): blank
/// moves through free cells cost 0, a group tile's move 1. `None` when the search passes
/// `budget` states first. Gives up past `bound`, returning `bound + 1`.
fn exact(
    shape: Shape,
    cells: &[u8],
    home: &[u8],
    goal_blank: u8,
    bound: u32,
    budget: usize,
) -> Option<u32> {
    let target = key(home, goal_blank);
    let mut dist: HashMap<u64, u32> = HashMap::new();
    let mut queue = VecDeque::new();
    for b in 0..shape.cells() as u8 {
        if !cells.contains(&b) {
            dist.insert(key(cells, b), 0);
            queue.push_back((cells.to_vec(), b, 0u32));
        }
    }
    while let Some((cells, b, d)) = queue.pop_front() {
        if dist[&key(&cells, b)] < d {
            continue;
        }
        if d > bound {
            return Some(bound + 1);
        }
        if key(&cells, b) == target {
            return Some(d);
        }
        if dist.len() > budget {
            return None;
        }
        for to in neighbours(shape, b) {
            let mut moved = cells.clone();
            let cost = match moved.iter().position(|&x| x == to) {
                Some(j) => {
                    moved[j] = b;
                    1
                }
                None => 0,
            };
            let k = key(&moved, to);
            if dist.get(&k).is_none_or(|&old| old > d + cost) {
                dist.insert(k, d + cost);
                if cost == 0 {
                    queue.push_front((moved, to, d));
                } else {
                    queue.push_back((moved, to, d + 1));
                }
            }
        }
    }
    Some(bound + 1)
}

#[test]
fn sampled_entries_of_7_and_8_tile_tables_equal_an_exact_search() {
    let shape: Shape = "3x4".parse().unwrap();
    let goal_blank = 11u8;
    let mut rng = crate::common::Rng::new(7);
    for partition in ["8-3", "7-4"] {
        let p = Partition::parse(partition, shape).unwrap();
        let set = load_or_build(shape, goal_blank as usize, &p, &pdb_dir(), &Silent);
        let (home, table) = (&set.homes[0], &set.tables[0]);
        assert!(home.len() >= 7, "{partition}: {home:?}");
        let (mut checked, mut largest) = (0, 0);
        for _ in 0..200 {
            // A random walk of the blank from the goal: where the group's tiles end up.
            let (mut cells, mut blank) = (home.clone(), goal_blank);
            for _ in 0..rng.below(50) {
                let next = neighbours(shape, blank);
                let to = next[rng.below(next.len() as u64) as usize];
                if let Some(j) = cells.iter().position(|&c| c == to) {
                    cells[j] = blank;
                }
                blank = to;
            }
            let v = table.value(&cells);
            if let Some(d) = exact(shape, &cells, home, goal_blank, v, 200_000) {
                assert_eq!(v, d, "{partition}: table {v}, exact {d} at {cells:?}");
                checked += 1;
                largest = largest.max(v);
            }
        }
        // Enough placements, and far enough from home, were settled to mean something.
        assert!(checked >= 100, "{partition}: only {checked} settled");
        assert!(
            largest >= 10,
            "{partition}: largest settled value {largest}"
        );
    }
}
