//! tilebench's strategies beside the `pathfinding` crate, on the same 3x3 cases.
//!
//! Groups by case set: `easy` (≤ 10 moves), `median` (21–23 moves), `hard` (28–31 moves),
//! and `unsolvable` (searched to exhaustion: `--exhaustive`). Each group holds every
//! tilebench strategy and pathfinding's `bfs`, `bfs_bidirectional`, `astar`, `idastar`
//! (the last two with the same Manhattan heuristic). One iteration solves the whole set;
//! criterion's throughput line gives cases per second.
//!
//! `cargo bench --bench peers` (all), `cargo bench --bench peers -- median` (one group).

#[path = "common/cases.rs"]
mod cases;
#[path = "common/peer.rs"]
mod peer;
// The library's SplitMix64 (crate-private there), included so the seeds give the boards they
// always gave.
#[allow(dead_code)]
#[path = "../src/util/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use tilebench::observe::Silent;
use tilebench::puzzle::{Board, Shape};
use tilebench::search::{registry, Config, Limits, Prepare, Problem};

fn group(c: &mut Criterion, name: &str, starts: &[Board], exhaustive: bool) {
    let goal = Board::standard_goal(Shape::S3X3);
    let problems: Vec<Problem> = starts
        .iter()
        .map(|&s| Problem::new(s, goal).unwrap())
        .collect();
    let config = Config {
        exhaustive,
        ..Config::default()
    };
    let limits = Limits::default();
    let ctx = Prepare {
        threads: 1,
        problems: &[],
        observer: &Silent,
    };
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(problems.len() as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_millis(500));
    for b in registry::all() {
        if exhaustive && b.name == "idastar" {
            continue; // a tree search cannot exhaust a graph; it would measure the bound cap
        }
        let mut s = b.build(&config);
        s.prepare(&[goal], &ctx).unwrap();
        g.bench_function(BenchmarkId::new("tilebench", b.name), |bench| {
            bench.iter(|| {
                for p in &problems {
                    black_box(s.solve(black_box(p), &limits).unwrap());
                }
            })
        });
    }
    let peers: [(&str, peer::Solver); 4] = [
        ("bfs", peer::pf_bfs),
        ("bfs_bidirectional", peer::pf_bfs_bidirectional),
        ("astar", peer::pf_astar),
        ("idastar", peer::pf_idastar),
    ];
    let goal_cells = peer::cells(&goal);
    let cells: Vec<peer::Cells> = starts.iter().map(peer::cells).collect();
    for (pname, f) in peers {
        if exhaustive && pname == "idastar" {
            continue; // never terminates on an unsolvable pair
        }
        g.bench_function(BenchmarkId::new("pathfinding", pname), |b| {
            b.iter(|| {
                for c in &cells {
                    black_box(f(black_box(c), &goal_cells));
                }
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    group(c, "easy", &cases::at_depths(20, 1..=10, 1), false);
    group(c, "median", &cases::at_depths(20, 21..=23, 2), false);
    group(c, "hard", &cases::at_depths(6, 28..=31, 3), false);
    group(c, "unsolvable", &cases::random_unsolvable(3, 4), true);
}

criterion_group!(peers, benches);
criterion_main!(peers);
