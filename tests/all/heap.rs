//! Memory per case in bytes: cases.csv's `peak_heap_bytes` for the built-in solvers (the
//! binary's counting allocator) and `--max-memory`, which stops a built-in search before
//! its heap passes the budget by more than 10%, and limits an external program's address
//! space (its row `limit`, reason `memory`, while the other rows keep their results).

use crate::common::{bin, col, read_csv, run_ok, stderr, temp_dir};
use std::path::{Path, PathBuf};

const STUDENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/students");

/// The first board of Korf's 100 (57 moves): no breadth-first search finishes it.
fn deep_4x4(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string("inputs/korf100.csv").unwrap();
    let path = dir.join("korf1.csv");
    std::fs::write(
        &path,
        text.lines().take(2).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    path
}

/// Runs `tilebench ARGS` and returns its peak resident memory in bytes, from `wait4` on
/// that process alone (independent of what tilebench measures itself).
fn run_measured(args: &[&str]) -> u64 {
    let child = bin()
        .args(args)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain syscall; `status` and `ru` are valid for wait4 to write into.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(pid, &mut status, 0, &mut ru), pid);
        ru
    };
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "tilebench {args:?} failed: status {status}"
    );
    std::mem::forget(child); // reaped above
    ru.ru_maxrss as u64 * 1024
}

#[test]
fn max_memory_stops_a_4x4_breadth_first_search_within_ten_percent_of_the_budget() {
    const BUDGET: u64 = 48 << 20;
    let dir = temp_dir("heap-budget");
    let data = deep_4x4(&dir);
    let data = data.to_str().unwrap();
    // The process's memory without the search: the same run with a budget of 1 MB.
    let base_out = dir.join("base");
    let base = run_measured(&[
        "run",
        data,
        "-s",
        "bfs-hashset",
        "-j",
        "1",
        "-q",
        "--max-memory",
        "1M",
        "--out",
        base_out.to_str().unwrap(),
    ]);
    for strategy in ["bfs-hashset", "bfs-hash", "bfs-set", "bibfs", "astar"] {
        let out = dir.join(strategy);
        let rss = run_measured(&[
            "run",
            data,
            "-s",
            strategy,
            "-j",
            "1",
            "-q",
            "--max-memory",
            "48M",
            "--out",
            out.to_str().unwrap(),
        ]);
        let (h, rows) = read_csv(&out.join("cases.csv"));
        let row = &rows[0];
        assert_eq!(row[col(&h, "status")], "limit", "{strategy}: {row:?}");
        assert_eq!(
            row[col(&h, "limit_reason")],
            "memory",
            "{strategy}: {row:?}"
        );
        let peak: u64 = row[col(&h, "peak_heap_bytes")].parse().unwrap();
        let ratio = peak as f64 / BUDGET as f64;
        eprintln!("{strategy}: peak heap {peak} B = {ratio:.3} of the budget; RSS {rss} B");
        assert!(
            ratio <= 1.1,
            "{strategy}: peak heap {peak} B is {ratio:.3} × the budget"
        );
        // It used its budget: it was not stopped for nothing.
        assert!(
            ratio >= 0.5,
            "{strategy}: stopped at {ratio:.3} of the budget"
        );
        // The process's own peak, measured outside: at most the budget (and 10%) beyond the
        // run without the search.
        let grown = rss.saturating_sub(base) as f64 / BUDGET as f64;
        assert!(
            grown <= 1.1,
            "{strategy}: the process grew {grown:.3} × the budget ({rss} B against {base} B)"
        );
    }
}

#[test]
fn peak_heap_is_filled_for_built_in_solvers_and_follows_what_they_store() {
    let dir = temp_dir("heap-column");
    // 3x3 cases (a whole 3x3 space is 181,440 states) and a 4x4 one stopped at 2,000,000
    // expansions, which stores more states than any 3x3 search can.
    let small = dir.join("small");
    let big = dir.join("big");
    let data = deep_4x4(&dir);
    run_ok(&[
        "run",
        "inputs/ci.csv",
        "-s",
        "bfs-hashset,astar,idastar",
        "-q",
        "--out",
        small.to_str().unwrap(),
    ]);
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "bfs-hashset",
        "-q",
        "--max-nodes",
        "2000000",
        "--out",
        big.to_str().unwrap(),
    ]);
    let peaks = |out: &Path| {
        let (h, rows) = read_csv(&out.join("cases.csv"));
        let mut bfs = Vec::new();
        for r in &rows {
            let cell = &r[col(&h, "peak_heap_bytes")];
            if r[col(&h, "expanded")].is_empty() {
                assert!(cell.is_empty(), "{r:?}");
                continue;
            }
            let peak: u64 = cell
                .parse()
                .unwrap_or_else(|_| panic!("no peak heap: {r:?}"));
            let stored: u64 = r[col(&h, "stored")].parse().unwrap();
            if r[col(&h, "strategy")] == "bfs-hashset" {
                // Each stored state is a key of 8 bytes in the set and a node of 16 in the
                // queue; doublings at most triple that.
                assert!(peak >= stored * 24, "{peak} B for {stored} states: {r:?}");
                assert!(
                    peak <= stored * 100 + (1 << 16),
                    "{peak} B for {stored}: {r:?}"
                );
                bfs.push(peak);
            }
        }
        bfs
    };
    // summary.csv's largest peak is the rows' (its mean, within their range).
    let (h, summary) = read_csv(&small.join("summary.csv"));
    let bfs = summary.iter().find(|r| r[0] == "bfs-hashset").unwrap();
    let (max, mean): (u64, f64) = (
        bfs[col(&h, "peak_heap_bytes_max")].parse().unwrap(),
        bfs[col(&h, "peak_heap_bytes_mean")].parse().unwrap(),
    );
    let small = peaks(&small);
    let big = peaks(&big);
    assert!(small.len() > 10 && big.len() == 1);
    assert_eq!(Some(&max), small.iter().max());
    assert!(mean <= max as f64 && mean >= *small.iter().min().unwrap() as f64);
    assert!(
        small.iter().max() < big.iter().min(),
        "{small:?} against {big:?}"
    );
}

#[test]
fn an_external_program_out_of_memory_is_a_memory_limit_and_the_other_rows_keep_theirs() {
    let dir = temp_dir("heap-external");
    let data = dir.join("cases.csv");
    let gen = run_ok(&["gen", "--count", "12", "--seed", "7", "--unsolvable", "0.5"]);
    std::fs::write(&data, gen.stdout).unwrap();
    let out = dir.join("run");
    let hog = format!("hog=python3 {STUDENTS}/hog.py");
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "bfs-hashset",
        "--solver",
        &hog,
        "--solver-spawn",
        "per-case",
        "--max-memory",
        "100M",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let c = |r: &Vec<String>, n: &str| r[col(&h, n)].clone();
    let (mut memory, mut unsolvable) = (0, 0);
    for r in &rows {
        match (c(r, "strategy").as_str(), c(r, "expected_steps").as_str()) {
            // The built-in solver's rows are untouched by the budget.
            ("bfs-hashset", _) => {
                assert_eq!(c(r, "matches_expected"), "true", "{r:?}");
                assert!(!c(r, "peak_heap_bytes").is_empty(), "{r:?}");
            }
            // It answers unsolvable boards by parity, before it allocates.
            ("hog", "-1") => {
                assert_eq!(c(r, "status"), "unsolvable", "{r:?}");
                unsolvable += 1;
            }
            ("hog", _) => {
                assert_eq!(c(r, "status"), "limit", "{r:?}");
                assert_eq!(c(r, "limit_reason"), "memory", "{r:?}");
                assert!(c(r, "message").contains("--max-memory"), "{r:?}");
                // The address-space limit held: its peak resident memory stayed under it.
                let kb: u64 = c(r, "max_rss_kb").parse().unwrap();
                assert!(kb * 1024 <= 100 << 20, "{r:?}");
                assert!(c(r, "peak_heap_bytes").is_empty(), "{r:?}");
                memory += 1;
            }
            _ => panic!("{r:?}"),
        }
    }
    assert!(
        memory >= 3 && unsolvable >= 3,
        "{memory} memory, {unsolvable} unsolvable"
    );
}

#[test]
fn a_max_memory_that_is_not_a_byte_count_is_refused_with_the_form_to_use() {
    for bad in ["12Q", "1.5G", "0"] {
        let o = bin()
            .args([
                "run",
                "inputs/ci.csv",
                "-s",
                "bfs-hashset",
                "--max-memory",
                bad,
            ])
            .output()
            .unwrap();
        assert!(!o.status.success());
        let e = stderr(&o);
        assert!(
            e.contains(&format!("'{bad}' is not a number of bytes")),
            "{e}"
        );
        assert!(e.contains("512M or 2G"), "{e}");
    }
}

/// Boards of more than 16 cells are searched by `wide`'s own A*, whose records, index and
/// open list ask the budget before they grow: Korf's first 24-puzzle stops at `memory`
/// within 10% of a 16 MB budget, having used at least half of it.
#[test]
fn max_memory_stops_a_5x5_best_first_search_within_ten_percent_of_the_budget() {
    const BUDGET: u64 = 16 << 20;
    let dir = temp_dir("heap-budget-wide");
    let text = std::fs::read_to_string("inputs/korf50-24.csv").unwrap();
    let data = dir.join("korf24-1.csv");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(2)
        .collect();
    std::fs::write(&data, rows.join("\n") + "\n").unwrap();
    for strategy in ["astar", "wastar", "greedy"] {
        let out = dir.join(strategy);
        let args = [
            "run",
            data.to_str().unwrap(),
            "-s",
            strategy,
            "--heuristic",
            "manhattan",
            "-j",
            "1",
            "-q",
            "--max-memory",
            "16M",
            "--out",
            out.to_str().unwrap(),
        ];
        run_ok(&args);
        let (h, rows) = read_csv(&out.join("cases.csv"));
        let row = &rows[0];
        let status = &row[col(&h, "status")];
        if strategy != "astar" && status == "solved" {
            continue; // weighted and greedy search may finish within it
        }
        assert_eq!(status, "limit", "{strategy}: {row:?}");
        assert_eq!(
            row[col(&h, "limit_reason")],
            "memory",
            "{strategy}: {row:?}"
        );
        let peak: u64 = row[col(&h, "peak_heap_bytes")].parse().unwrap();
        let ratio = peak as f64 / BUDGET as f64;
        assert!(
            (0.5..=1.1).contains(&ratio),
            "{strategy}: peak heap {peak} B is {ratio:.3} × the budget"
        );
    }
}
