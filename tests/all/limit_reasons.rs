//! Every `limit` row says which budget ran out (cases.csv's `limit_reason`), and summary.csv
//! counts them by reason.

use crate::common::{col, read_csv, run_ok, temp_dir};

/// A limit row: strategy, limit_reason, expanded, stored.
type LimitRow = (String, String, u64, u64);
/// A strategy's summary figures: limit, limit_time, limit_nodes, limit_states, limit_memory.
type Figures = (String, [u64; 5]);

/// Runs `strategies` on `data` with `budget`, and returns each limit row's (strategy,
/// limit_reason, expanded, stored), and each strategy's summary figures (limit and the four
/// limit_* counts).
fn limit_rows(
    name: &str,
    data: &str,
    strategies: &str,
    budget: &[&str],
) -> (Vec<LimitRow>, Vec<Figures>) {
    let out = temp_dir(name);
    let o = out.to_str().unwrap();
    run_ok(&[&["run", data, "-s", strategies, "-q", "--out", o], budget].concat());
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let c = |n: &str| col(&h, n);
    let limits = rows
        .iter()
        .filter(|r| r[c("status")] == "limit")
        .map(|r| {
            (
                r[c("strategy")].clone(),
                r[c("limit_reason")].clone(),
                r[c("expanded")].parse().unwrap(),
                r[c("stored")].parse().unwrap(),
            )
        })
        .collect();
    // The reasons are empty on every other row.
    assert!(rows
        .iter()
        .filter(|r| r[c("status")] != "limit")
        .all(|r| r[c("limit_reason")].is_empty()));
    let (h, summary) = read_csv(&out.join("summary.csv"));
    let figures = summary
        .iter()
        .map(|s| {
            let f = |n: &str| s[col(&h, n)].parse::<u64>().unwrap();
            let counts = [
                "limit",
                "limit_time",
                "limit_nodes",
                "limit_states",
                "limit_memory",
            ];
            (s[0].clone(), counts.map(f))
        })
        .collect();
    (limits, figures)
}

/// Each strategy's count of limit rows per reason, from cases.csv (independent of the
/// summary): [all, time, nodes, states, memory].
fn counted(rows: &[LimitRow], strategy: &str) -> [u64; 5] {
    let mine: Vec<&String> = rows
        .iter()
        .filter(|r| r.0 == strategy)
        .map(|r| &r.1)
        .collect();
    let n = |why: &str| mine.iter().filter(|r| **r == why).count() as u64;
    [
        mine.len() as u64,
        n("time"),
        n("nodes"),
        n("states"),
        n("memory"),
    ]
}

#[test]
fn max_nodes_rows_say_nodes() {
    let strategies = "bfs-rank,bibfs,astar,idastar";
    let (rows, summary) = limit_rows(
        "why-nodes",
        "inputs/per-depth.csv",
        strategies,
        &["--max-nodes", "5"],
    );
    assert!(rows.len() > 100, "{}", rows.len());
    for (s, why, expanded, _) in &rows {
        assert_eq!(why, "nodes", "{s}");
        assert!(*expanded >= 5, "{s}: {expanded}");
    }
    for (s, figures) in summary {
        assert_eq!(figures, counted(&rows, &s), "{s}");
        assert_eq!(figures[0], figures[2], "{s}");
    }
}

#[test]
fn max_states_rows_say_states() {
    let strategies = "bfs-set,bfs-hash,bfs-rank,bibfs,astar";
    let (rows, summary) = limit_rows(
        "why-states",
        "inputs/per-depth.csv",
        strategies,
        &["--max-states", "40"],
    );
    for s in strategies.split(',') {
        assert!(counted(&rows, s)[0] > 10, "{s}: {:?}", counted(&rows, s));
    }
    for (s, why, _, _) in &rows {
        assert_eq!(why, "states", "{s}");
    }
    for (s, figures) in summary {
        assert_eq!(figures, counted(&rows, &s), "{s}");
        assert_eq!(figures[0], figures[3], "{s}");
    }
}

/// A timeout of a microsecond stops the searches of 4x4 boards (start = goal is answered
/// without a search); both budgets given, each row names the one it ran out of.
#[test]
fn timeout_rows_say_time() {
    let budget = ["--timeout", "0.000001", "--max-nodes", "1000000000"];
    let (rows, summary) = limit_rows(
        "why-time",
        "inputs/4x4-shallow.csv",
        "astar,idastar,bibfs",
        &budget,
    );
    for s in ["astar", "idastar", "bibfs"] {
        assert!(counted(&rows, s)[0] > 10, "{s}: {:?}", counted(&rows, s));
    }
    for (s, why, expanded, _) in &rows {
        assert_eq!(why, "time", "{s}");
        assert!(*expanded < 1_000_000_000);
    }
    for (s, figures) in summary {
        assert_eq!(figures, counted(&rows, &s), "{s}");
        assert_eq!(figures[0], figures[1], "{s}");
    }
}

/// `--max-memory` (a heap budget in bytes) on searches whose memory grows: every row stops
/// on it, and says `memory`.
#[test]
fn max_memory_rows_say_memory() {
    let strategies = "bfs-hashset,bfs-hash,bibfs,astar";
    let (rows, summary) = limit_rows(
        "why-memory",
        "inputs/4x4-shallow.csv",
        strategies,
        &["--max-memory", "256K"],
    );
    for s in strategies.split(',') {
        assert!(counted(&rows, s)[0] > 10, "{s}: {:?}", counted(&rows, s));
    }
    for (s, why, _, _) in &rows {
        assert_eq!(why, "memory", "{s}");
    }
    for (s, figures) in summary {
        assert_eq!(figures, counted(&rows, &s), "{s}");
        assert_eq!(figures[0], figures[4], "{s}");
    }
}
