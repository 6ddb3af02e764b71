//! The `pathfinding` crate solving the 8-puzzle the way a user of it would: a `[u8; 9]`
//! board (0 = blank), successors built by swapping the blank, and the same Manhattan
//! heuristic (tiles only) as tilebench's. Shared by `benches/peers.rs` and
//! `examples/peers.rs`, so both measure exactly the same peer code.
#![allow(dead_code)]

use pathfinding::prelude::{astar, bfs, bfs_bidirectional, idastar};
use tilebench::puzzle::Board;

pub type Cells = [u8; 9];

/// A peer solver: start, goal → number of moves (None = no path).
pub type Solver = fn(&Cells, &Cells) -> Option<usize>;

pub fn cells(b: &Board) -> Cells {
    let mut c = [0u8; 9];
    for (p, v) in c.iter_mut().enumerate() {
        *v = b.tile(p);
    }
    c
}

pub fn neighbours(c: &Cells) -> Vec<Cells> {
    let z = c.iter().position(|&t| t == 0).unwrap();
    let (r, col) = (z / 3, z % 3);
    let mut out = Vec::with_capacity(4);
    let mut push = |to: usize| {
        let mut n = *c;
        n.swap(z, to);
        out.push(n);
    };
    if r > 0 {
        push(z - 3);
    }
    if col > 0 {
        push(z - 1);
    }
    if col < 2 {
        push(z + 1);
    }
    if r < 2 {
        push(z + 3);
    }
    out
}

/// Manhattan distance of the tiles to `goal`.
pub fn manhattan(c: &Cells, goal_pos: &[usize; 9]) -> u32 {
    let mut h = 0;
    for (p, &t) in c.iter().enumerate() {
        if t != 0 {
            let g = goal_pos[t as usize];
            h += ((p / 3).abs_diff(g / 3) + (p % 3).abs_diff(g % 3)) as u32;
        }
    }
    h
}

pub fn goal_positions(goal: &Cells) -> [usize; 9] {
    let mut pos = [0usize; 9];
    for (p, &t) in goal.iter().enumerate() {
        pos[t as usize] = p;
    }
    pos
}

/// Number of moves found by each peer (None = no path).
pub fn pf_astar(start: &Cells, goal: &Cells) -> Option<usize> {
    let gp = goal_positions(goal);
    astar(
        start,
        |c| neighbours(c).into_iter().map(|n| (n, 1u32)),
        |c| manhattan(c, &gp),
        |c| c == goal,
    )
    .map(|(_, cost)| cost as usize)
}

pub fn pf_idastar(start: &Cells, goal: &Cells) -> Option<usize> {
    let gp = goal_positions(goal);
    idastar(
        start,
        |c| neighbours(c).into_iter().map(|n| (n, 1u32)),
        |c| manhattan(c, &gp),
        |c| c == goal,
    )
    .map(|(_, cost)| cost as usize)
}

pub fn pf_bfs(start: &Cells, goal: &Cells) -> Option<usize> {
    bfs(start, neighbours, |c| c == goal).map(|p| p.len() - 1)
}

pub fn pf_bfs_bidirectional(start: &Cells, goal: &Cells) -> Option<usize> {
    // Moves are reversible: predecessors are successors.
    bfs_bidirectional(start, goal, neighbours, neighbours).map(|p| p.len() - 1)
}
