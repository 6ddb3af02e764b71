//! Per-case latency of tilebench's strategies beside the `pathfinding` crate, measured side
//! by side in one run (each case is solved by every method in turn, so machine noise hits
//! them alike). Prints median and p99 per method and the ratios of the pairs the README's
//! performance targets name. Used by `scripts/bench.sh`.
//!
//! cargo run --release --example peers -- [CASES] [BFS_CASES] [SEED] [ONLY]
//! (defaults: 2000 random solvable 3x3 starts to `1 2 3 4 5 6 7 8 x`; BFS methods on the
//! first 300 of them, since each takes milliseconds; 0 leaves them out). ONLY, a
//! comma-separated list of method names as the table prints them (`tilebench astar`,
//! `pathfinding::astar`), runs those alone: a profile of one method, e.g. under cachegrind.
//!
//! With `TILEBENCH_ARTICLE_PEER=path/to/article_bfs` (`g++ -O2 -o article_bfs
//! scripts/c/article_bfs.cpp`), the first seed article's three BFS programs (`std::set`,
//! hash buckets, Cantor rank) solve the BFS cases too, in turn with the others: one process
//! each, fed a board a line, each case timed by the program itself.
#![warn(clippy::too_many_lines)]

#[path = "../benches/common/cases.rs"]
mod cases;
#[path = "../benches/common/peer.rs"]
mod peer;
// The library's SplitMix64 (crate-private there), included so the seeds give the boards they
// always gave.
#[allow(dead_code)]
#[path = "../src/util/rng.rs"]
mod rng;

use std::collections::BTreeMap;
use std::time::Instant;
use tilebench::observe::Silent;
use tilebench::puzzle::{Board, Shape};
use tilebench::search::{registry, Config, Limits, Prepare, Problem, Solver};

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<u64> = words
        .iter()
        .take(3)
        .map(|a| a.parse().expect("CASES, BFS_CASES and SEED are numbers"))
        .collect();
    let only: Option<Vec<&str>> = words.get(3).map(|w| w.split(',').map(str::trim).collect());
    let runs = |name: &str| only.as_ref().is_none_or(|o| o.contains(&name));
    let n = *args.first().unwrap_or(&2000) as usize;
    let bfs_n = (*args.get(1).unwrap_or(&300) as usize).min(n);
    let seed = *args.get(2).unwrap_or(&7);
    let starts = cases::random_solvable(n, seed);
    let goal = Board::standard_goal(Shape::S3X3);
    let goal_cells = peer::cells(&goal);
    let limits = Limits::default();
    let (solvers, table_build) = prepared(goal);

    let peers: [(&str, peer::Solver, bool); 4] = [
        ("pathfinding::bfs", peer::pf_bfs, true),
        (
            "pathfinding::bfs_bidirectional",
            peer::pf_bfs_bidirectional,
            true,
        ),
        ("pathfinding::astar", peer::pf_astar, false),
        ("pathfinding::idastar", peer::pf_idastar, false),
    ];
    let bfs_like = |s: &str| s.starts_with("bfs") || s == "bibfs";
    let mut articles: Vec<ArticlePeer> = std::env::var_os("TILEBENCH_ARTICLE_PEER")
        .map(|path| {
            ARTICLES
                .iter()
                .map(|&(mode, name, _)| ArticlePeer::start(&path, mode, name))
                .collect()
        })
        .unwrap_or_default();
    let mut lat: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (i, start) in starts.iter().enumerate() {
        let p = Problem::new(*start, goal).unwrap();
        let mut lengths = Vec::new();
        for s in &solvers {
            if bfs_like(s.name()) && i >= bfs_n || !runs(&format!("tilebench {}", s.name())) {
                continue;
            }
            let t = Instant::now();
            let out = s.solve(&p, &limits).unwrap();
            lat.entry(format!("tilebench {}", s.name()))
                .or_default()
                .push(t.elapsed().as_nanos() as u64);
            lengths.push(out.steps().unwrap());
        }
        let c = peer::cells(start);
        for (name, f, is_bfs) in peers {
            if is_bfs && i >= bfs_n || !runs(name) {
                continue;
            }
            let t = Instant::now();
            let len = f(&c, &goal_cells).unwrap();
            lat.entry(name.to_string())
                .or_default()
                .push(t.elapsed().as_nanos() as u64);
            lengths.push(len);
        }
        for peer in articles.iter_mut().filter(|p| i < bfs_n && runs(p.name)) {
            let (len, ns) = peer.solve(start);
            lat.entry(peer.name.to_string()).or_default().push(ns);
            lengths.push(len);
        }
        assert!(
            lengths.iter().all(|&l| l == lengths[0]),
            "case {i} ({start}): methods disagree on the length: {lengths:?}"
        );
    }
    println!("{n} random solvable 3x3 starts (seed {seed}), BFS methods on the first {bfs_n}; one thread; all lengths agree");
    report(lat, table_build);
}

/// The first seed article's programs in `scripts/c/article_bfs.cpp`: its mode, the latency
/// table's name, and the strategy that finds repeated states the same way.
const ARTICLES: [(&str, &str, &str); 3] = [
    ("set", "article std::set (g++ -O2)", "bfs-set"),
    ("hash", "article hash (g++ -O2)", "bfs-hash"),
    ("rank", "article rank (g++ -O2)", "bfs-rank"),
];

/// One of the seed article's BFS programs, one process for all cases.
struct ArticlePeer {
    name: &'static str,
    child: std::process::Child,
    out: std::io::BufReader<std::process::ChildStdout>,
}

impl ArticlePeer {
    fn start(path: &std::ffi::OsStr, mode: &str, name: &'static str) -> ArticlePeer {
        let mut child = std::process::Command::new(path)
            .arg(mode)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("TILEBENCH_ARTICLE_PEER={path:?} does not start: {e}"));
        let out = std::io::BufReader::new(child.stdout.take().expect("piped"));
        ArticlePeer { name, child, out }
    }

    /// The program's length for `start` and the nanoseconds it measured.
    fn solve(&mut self, start: &Board) -> (usize, u64) {
        use std::io::{BufRead, Write};
        let stdin = self.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "{start}")
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("{} does not read its input: {e}", self.name));
        let mut line = String::new();
        self.out
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("{} does not answer: {e}", self.name));
        let mut it = line.split_whitespace().map(|w| w.parse::<u64>().ok());
        match (it.next().flatten(), it.next().flatten()) {
            (Some(len), Some(ns)) => (len as usize, ns),
            _ => panic!("{} answered `{}` for {start}", self.name, line.trim()),
        }
    }
}

/// Every optimal built-in strategy (the lengths are compared), prepared for `goal`, and how
/// long `table`'s build took.
fn prepared(goal: Board) -> (Vec<Box<dyn Solver>>, std::time::Duration) {
    let ctx = Prepare {
        threads: 1,
        problems: &[],
        observer: &Silent,
    };
    let mut solvers: Vec<Box<dyn Solver>> = registry::all()
        .iter()
        .filter(|b| b.optimal())
        .map(|b| b.build(&Config::default()))
        .collect();
    let mut table_build = std::time::Duration::ZERO;
    for s in &mut solvers {
        let t0 = Instant::now();
        s.prepare(&[goal], &ctx).unwrap();
        if s.name() == "table" {
            table_build = t0.elapsed();
        }
    }
    (solvers, table_build)
}

/// Prints each method's median and p99, and the ratios the README's targets name.
fn report(mut lat: BTreeMap<String, Vec<u64>>, table_build: std::time::Duration) {
    let pct = |v: &mut Vec<u64>, q: f64| {
        v.sort_unstable();
        v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1] as f64 / 1000.0
    };
    let mut stats: BTreeMap<String, (usize, f64, f64)> = BTreeMap::new();
    println!(
        "table build (9 tables, parallel): {:.1} ms",
        table_build.as_secs_f64() * 1e3
    );
    println!(
        "{:<34} {:>6} {:>12} {:>12} {:>12}",
        "method", "cases", "median µs", "p99 µs", "mean µs"
    );
    for (name, v) in lat.iter_mut() {
        let (m, p99) = (pct(v, 0.5), pct(v, 0.99));
        let mean = v.iter().sum::<u64>() as f64 / v.len() as f64 / 1000.0;
        println!(
            "{name:<34} {:>6} {m:>12.2} {p99:>12.2} {mean:>12.2}",
            v.len()
        );
        stats.insert(name.clone(), (v.len(), m, p99));
    }
    println!("\nratios (peer ÷ tilebench; > 1 means tilebench is faster), median / p99:");
    let ratio = |ours: &str, theirs: &str| {
        // With BFS_CASES 0 (a quick A* run) the BFS methods have no cases.
        let (Some(o), Some(t)) = (stats.get(ours), stats.get(theirs)) else {
            println!("  {ours:<24} vs {theirs:<31} (no cases)");
            return;
        };
        println!(
            "  {ours:<24} vs {theirs:<31} {:>7.1}× / {:>7.1}×",
            t.1 / o.1,
            t.2 / o.2
        );
    };
    ratio("tilebench astar", "pathfinding::astar");
    ratio("tilebench idastar", "pathfinding::idastar");
    for s in ["bfs-rank", "bfs-hash", "bfs-hashset", "bfs-set", "bibfs"] {
        ratio(&format!("tilebench {s}"), "pathfinding::bfs");
    }
    ratio("tilebench bibfs", "pathfinding::bfs_bidirectional");
    for (_, name, strategy) in ARTICLES {
        if stats.contains_key(name) {
            ratio(&format!("tilebench {strategy}"), name);
        }
    }
    ratio("tilebench table", "pathfinding::astar");
}
