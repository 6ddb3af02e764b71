//! `compare`, `verify`, `--repeat` and baselines.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// A run of `inputs/per-depth.csv` with astar and bfs-hash, paths stored.
fn fresh_run(name: &str, extra: &[&str]) -> PathBuf {
    let out = temp_dir(name);
    let mut args = vec![
        "run",
        "inputs/per-depth.csv",
        "-q",
        "--paths",
        "-s",
        "astar,bfs-hash",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_ok(&args);
    out
}

/// Rewrites one cell of cases.csv: the `column` of the `nth` row of `strategy`.
fn edit(dir: &Path, strategy: &str, nth: usize, column: &str, f: impl Fn(&str) -> String) {
    let path = dir.join("cases.csv");
    let (h, mut rows) = read_csv(&path);
    let (s, c) = (col(&h, "strategy"), col(&h, column));
    let row = rows
        .iter_mut()
        .filter(|r| r[s] == strategy)
        .nth(nth)
        .unwrap();
    row[c] = f(&row[c]);
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&h).unwrap();
    for r in rows {
        w.write_record(&r).unwrap();
    }
    w.flush().unwrap();
}

fn compare(base: &Path, cur: &Path, extra: &[&str]) -> (i32, String) {
    let out = bin()
        .arg("compare")
        .arg(base)
        .arg(cur)
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out),
    )
}

#[test]
fn identical_runs_pass() {
    let a = fresh_run("cmp-a", &[]);
    let b = fresh_run("cmp-b", &[]);
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("no regression"), "{text}");
    // A cases.csv path works as well as a directory.
    let (code, _) = compare(&a.join("cases.csv"), &b, &[]);
    assert_eq!(code, 0);
}

#[test]
fn a_wrong_step_count_fails_naming_the_case() {
    let a = fresh_run("cmp-wrong-a", &[]);
    let b = fresh_run("cmp-wrong-b", &[]);
    edit(&b, "astar", 40, "steps", |s| {
        (s.parse::<i64>().unwrap() + 2).to_string()
    });
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("inputs/per-depth.csv 41 astar: baseline solved in"),
        "{text}"
    );
    assert!(text.contains("REGRESSION: 1 wrong answer(s)"), "{text}");
}

#[test]
fn more_expansions_fail_beyond_the_threshold_only() {
    let a = fresh_run("cmp-work-a", &[]);
    let b = fresh_run("cmp-work-b", &[]);
    // +10% expanded on one case.
    edit(&b, "bfs-hash", 60, "expanded", |s| {
        let v: u64 = s.parse().unwrap();
        (v + v / 10).to_string()
    });
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("Work regressions"), "{text}");
    assert!(
        text.contains("inputs/per-depth.csv 61 bfs-hash: expanded"),
        "{text}"
    );
    let (code, text) = compare(&a, &b, &["--max-work-increase", "15"]);
    assert_eq!(code, 0, "{text}");
    // Less work is an improvement, not a failure.
    let (code, text) = compare(&b, &a, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("improved"), "{text}");
}

#[test]
fn missing_cases_are_reported() {
    let a = fresh_run("cmp-miss-a", &[]);
    let b = temp_dir("cmp-miss-b");
    let (h, rows) = read_csv(&a.join("cases.csv"));
    let mut w = csv::Writer::from_path(b.join("cases.csv")).unwrap();
    w.write_record(&h).unwrap();
    for r in rows.iter().skip(2) {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("Missing from the current run (regression) (2)"),
        "{text}"
    );
    // The other way round, they are new cases: reported, not a regression.
    let (code, text) = compare(&b, &a, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("New in the current run"), "{text}");
}

#[test]
fn unreadable_input_exits_2() {
    let (code, text) = compare(Path::new("no/such/dir"), Path::new("inputs"), &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no/such/dir: no such results"), "{text}");
}

#[test]
fn latency_is_gated_only_when_asked() {
    let a = fresh_run("cmp-lat-a", &[]);
    let b = fresh_run("cmp-lat-b", &[]);
    // 100× slower on 60 of astar's 96 rows: p50 and p99 both grow.
    for i in 0..60 {
        edit(&b, "astar", i, "latency_ns", |s| {
            (s.parse::<u64>().unwrap() * 100).to_string()
        });
    }
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("not gated"), "{text}");
    let (code, text) = compare(&a, &b, &["--max-latency-increase", "50"]);
    assert_eq!(code, 1, "{text}");
}

#[test]
fn verify_accepts_a_good_run_and_catches_a_corrupted_path() {
    let a = fresh_run("verify", &[]);
    let ok = bin().arg("verify").arg(&a).output().unwrap();
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stderr(&ok).contains("192 of 192 solved paths replayed"),
        "{}",
        stderr(&ok)
    );
    // Flip one move of a long path: it no longer reaches the goal (or leaves the board).
    edit(&a, "astar", 90, "path", |p| {
        let mut c: Vec<char> = p.chars().collect();
        c[5] = if c[5] == 'u' { 'd' } else { 'u' };
        c.into_iter().collect()
    });
    let bad = bin().arg("verify").arg(&a).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("inputs/per-depth.csv:"),
        "{}",
        stderr(&bad)
    );
    assert!(stderr(&bad).contains("astar: path"), "{}", stderr(&bad));
}

#[test]
fn verify_catches_disagreement_and_insane_counters() {
    let a = fresh_run("verify-2", &[]);
    edit(&a, "bfs-hash", 10, "generated", |_| "0".into());
    edit(&a, "astar", 30, "steps", |s| {
        (s.parse::<i64>().unwrap() + 2).to_string()
    });
    let bad = bin().arg("verify").arg(&a).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let err = stderr(&bad);
    assert!(err.contains("> generated 0 + 1"), "{err}");
    assert!(err.contains("optimal strategies disagree"), "{err}");
    assert!(err.contains("matches_expected"), "{err}");
}

#[test]
fn repeat_keeps_counters_and_records_min_and_median() {
    let a = fresh_run("repeat", &["--repeat", "3"]);
    let b = fresh_run("repeat-1", &[]);
    let (h, rows) = read_csv(&a.join("cases.csv"));
    let (lat, min) = (col(&h, "latency_ns"), col(&h, "latency_min_ns"));
    for r in &rows {
        if !r[lat].is_empty() {
            assert!(r[min].parse::<u64>().unwrap() <= r[lat].parse::<u64>().unwrap());
        }
    }
    let (code, text) = compare(&b, &a, &[]);
    assert_eq!(code, 0, "{text}");
    let json = std::fs::read_to_string(a.join("run.json")).unwrap();
    assert!(json.contains("\"repeat\": 3"));
}

#[test]
fn named_baselines_are_saved_and_compared() {
    let cwd = temp_dir("baseline-cwd");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs/per-depth.csv");
    let run = |out: &str, extra: &[&str]| {
        let o = bin()
            .current_dir(&cwd)
            .arg("run")
            .arg(&data)
            .args(["-q", "-s", "astar", "--out", out])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    run("first", &["--save-baseline", "main"]);
    assert!(cwd.join("results/baselines/main/cases.csv").is_file());
    run("second", &[]);
    let o = bin()
        .current_dir(&cwd)
        .args(["compare", "--baseline", "main", "second"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = bin()
        .current_dir(&cwd)
        .args(["compare", "--baseline", "nope", "second"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("results/baselines/nope"),
        "{}",
        stderr(&o)
    );
}
