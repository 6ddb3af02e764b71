//! `compare`, `verify`, `--repeat`, baselines, and `merge`'s messages about damaged shards.

use crate::common::*;
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

/// How compare names the row of `id` in inputs/per-depth.csv for `strategy`:
/// `file:line id strategy`, the line found here by reading the file.
fn named(id: &str, strategy: &str) -> String {
    let text = std::fs::read_to_string("inputs/per-depth.csv").unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.split(',').next() == Some(id))
        .unwrap();
    format!("inputs/per-depth.csv:{line} {id} {strategy}")
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
        text.contains(&format!("{}: baseline solved in", named("41", "astar"))),
        "{text}"
    );
    assert!(text.contains("REGRESSION: 1 wrong answer(s)"), "{text}");
}

/// A dataset with one id on two rows (as a user's hand-edited file has): a wrong answer in
/// the second row is named by its line, not only by the id both rows share.
#[test]
fn a_wrong_answer_on_a_repeated_id_is_named_by_its_line() {
    let dir = temp_dir("cmp-dup-id");
    let data = dir.join("dup.csv");
    std::fs::write(
        &data,
        "id,start,goal\ndup,1 2 3 4 5 6 7 x 8,1 2 3 4 5 6 7 8 x\nother,1 2 3 4 5 6 x 7 8,1 2 3 4 5 6 7 8 x\ndup,1 2 3 4 5 x 7 8 6,1 2 3 4 5 6 7 8 x\n",
    )
    .unwrap();
    let run = |name: &str| {
        let out = dir.join(name);
        let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
        run_ok(&["run", d, "-q", "-s", "astar", "--out", o]);
        out
    };
    let (a, b) = (run("a"), run("b"));
    edit(&b, "astar", 2, "steps", |s| {
        (s.parse::<i64>().unwrap() + 2).to_string()
    });
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    let want = format!("{}:4 dup astar: baseline solved in 1", data.display());
    assert!(text.contains(&want), "{want} in {text}");
    assert!(
        !text.contains(&format!("{}:2 dup", data.display())),
        "{text}"
    );
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
        text.contains(&format!("{}: expanded", named("61", "bfs-hash"))),
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

/// Rewrites every row of cases.csv with `f`, given the header.
fn edit_all(dir: &Path, f: impl Fn(&[String], &mut Vec<String>)) {
    let path = dir.join("cases.csv");
    let (h, mut rows) = read_csv(&path);
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&h).unwrap();
    for r in &mut rows {
        f(&h, r);
        w.write_record(&*r).unwrap();
    }
    w.flush().unwrap();
}

#[test]
fn empty_counters_fail_naming_the_column_and_the_rows() {
    let a = fresh_run("cmp-gap-a", &[]);
    let b = fresh_run("cmp-gap-b", &[]);
    // The current run lost its expanded and generated cells on every row.
    edit_all(&b, |h, r| {
        r[col(h, "expanded")].clear();
        r[col(h, "generated")].clear();
    });
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(!text.contains("no regression"), "{text}");
    assert!(
        text.contains(&format!("`expanded` is empty in the current run on 192 row(s) where the baseline has a value: {}; {};", named("1", "astar"), named("1", "bfs-hash"))),
        "{text}"
    );
    assert!(text.contains("… and 187 more"), "{text}");
    assert!(text.contains("192 row(s) missing a counter"), "{text}");
    // No total is shown as 0: nothing could be compared.
    assert!(text.contains("not compared"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.contains("expanded (total)") && l.contains(" 0 ")),
        "{text}"
    );
    // The other way round: the baseline lacks them.
    let (code, text) = compare(&b, &a, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("`generated` is empty in the baseline on 192 row(s)"),
        "{text}"
    );
    // One empty cell is enough.
    let c = fresh_run("cmp-gap-c", &[]);
    edit(&c, "bfs-hash", 7, "expanded", |_| String::new());
    let (code, text) = compare(&a, &c, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(&format!(
            "`expanded` is empty in the current run on 1 row(s) where the baseline has a value: {}",
            named("8", "bfs-hash")
        )),
        "{text}"
    );
}

#[test]
fn a_missing_column_is_unreadable_input() {
    let a = fresh_run("cmp-col-a", &[]);
    let b = fresh_run("cmp-col-b", &[]);
    let path = b.join("cases.csv");
    let (h, rows) = read_csv(&path);
    let e = col(&h, "expanded");
    let mut w = csv::Writer::from_path(&path).unwrap();
    let drop = |r: &[String]| -> Vec<String> {
        r.iter()
            .enumerate()
            .filter(|(i, _)| *i != e)
            .map(|(_, v)| v.clone())
            .collect()
    };
    w.write_record(drop(&h)).unwrap();
    for r in &rows {
        w.write_record(drop(r)).unwrap();
    }
    w.flush().unwrap();
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains(&format!(
            "{}:1: the header has no `expanded` column",
            path.display()
        )),
        "{text}"
    );
}

#[test]
fn thresholds_must_be_finite_percentages() {
    let a = fresh_run("cmp-nan", &[]);
    for option in ["--max-work-increase", "--max-latency-increase"] {
        for bad in ["NaN", "inf", "-inf", "-1"] {
            let (code, text) = compare(&a, &a, &[&format!("{option}={bad}")]);
            assert_eq!(code, 2, "{option} {bad}: {text}");
            assert!(text.contains(&format!("'{option} <PERCENT>'")), "{text}");
            assert!(
                text.contains("give a percentage from 0 to 1000000"),
                "{text}"
            );
        }
    }
    let (code, text) = compare(
        &a,
        &a,
        &["--max-work-increase=0", "--max-latency-increase=10"],
    );
    assert_eq!(code, 0, "{text}");
}

#[test]
fn an_empty_headerless_or_header_only_cases_csv_is_unreadable() {
    let a = fresh_run("cmp-empty-a", &[]);
    let b = temp_dir("cmp-empty-b");
    let path = b.join("cases.csv");
    let text = std::fs::read_to_string(a.join("cases.csv")).unwrap();
    let (header, body) = text.split_once('\n').unwrap();
    for (content, want) in [
        (
            String::new(),
            "is empty (0 bytes, no header line)".to_string(),
        ),
        (
            body.to_string(),
            format!("{}:1: no header line", path.display()),
        ),
        (
            format!("{header}\n"),
            format!("{}: no rows, only the header", path.display()),
        ),
    ] {
        std::fs::write(&path, &content).unwrap();
        for (x, y) in [(&a, &b), (&b, &a)] {
            let (code, out) = compare(x, y, &[]);
            assert_eq!(code, 2, "{out}");
            assert!(out.contains(&want), "{out}");
            assert!(!out.contains("missing case"), "{out}");
        }
    }
}

#[test]
fn the_same_input_under_another_path_is_matched_by_checksum() {
    let a = fresh_run("cmp-path-a", &[]);
    let out = temp_dir("cmp-path-b");
    run_ok(&[
        "run",
        "./inputs/per-depth.csv",
        "-q",
        "--paths",
        "-s",
        "astar,bfs-hash",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (code, text) = compare(&a, &out, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("the current run read `./inputs/per-depth.csv` where the baseline read `inputs/per-depth.csv`: the same file"),
        "{text}"
    );
    assert!(text.contains("no regression (192 rows matched"), "{text}");
    assert!(!text.contains("Missing from"), "{text}");

    // Another file under another path: the runs cannot be compared, and compare says so.
    let dir = temp_dir("cmp-path-other");
    let other = dir.join("other.csv");
    let data = std::fs::read_to_string("inputs/per-depth.csv").unwrap();
    std::fs::write(&other, format!("# another file\n{data}")).unwrap();
    let c = temp_dir("cmp-path-c");
    run_ok(&[
        "run",
        other.to_str().unwrap(),
        "-q",
        "-s",
        "astar,bfs-hash",
        "--out",
        c.to_str().unwrap(),
    ]);
    let (code, text) = compare(&a, &c, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("the two runs used different input files"),
        "{text}"
    );
    assert!(text.contains("`inputs/per-depth.csv` (fnv1a64 "), "{text}");
    assert!(!text.contains("missing case"), "{text}");

    // Without run.json there are no checksums: compare says why it cannot tell.
    let d = temp_dir("cmp-path-d");
    std::fs::copy(out.join("cases.csv"), d.join("cases.csv")).unwrap();
    let (code, text) = compare(&a, &d, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("the two runs' inputs have different paths"),
        "{text}"
    );
    assert!(
        text.contains(&format!("without {}", d.join("run.json").display())),
        "{text}"
    );
}

#[test]
fn an_input_the_current_run_did_not_read_is_one_line_not_every_row() {
    let a = temp_dir("cmp-two-inputs");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "inputs/seeds.csv",
        "-q",
        "-s",
        "astar",
        "--out",
        a.to_str().unwrap(),
    ]);
    let b = temp_dir("cmp-one-input");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-q",
        "-s",
        "astar",
        "--out",
        b.to_str().unwrap(),
    ]);
    let seeds =
        tilebench::dataset::read_inputs(&["inputs/seeds.csv".to_string()], &Default::default())
            .unwrap()
            .1
            .len();
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(&format!(
            "inputs/seeds.csv: all {seeds} rows (the current run did not read this input)"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Missing from the current run (regression) ({seeds})"
        )),
        "{text}"
    );
    assert!(!text.contains("inputs/seeds.csv line"), "{text}");
}

#[test]
fn verify_names_cells_as_the_csv_shows_them() {
    let a = fresh_run("verify-cells", &[]);
    // Row 5 of astar matches its expected_steps: say it does not.
    edit(&a, "astar", 4, "matches_expected", |_| "false".into());
    // Row 8: a limit row has no answer to compare.
    edit(&a, "bfs-hash", 7, "status", |_| "limit".into());
    let bad = bin().arg("verify").arg(&a).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let err = stderr(&bad);
    let (h, rows) = read_csv(&a.join("cases.csv"));
    let astar: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r[col(&h, "strategy")] == "astar")
        .collect();
    let steps = &astar[4][col(&h, "steps")];
    assert!(
        err.contains(&format!(
            "matches_expected is `false`, but steps `{steps}` and expected_steps `{steps}` make it `true`"
        )),
        "{err}"
    );
    assert!(
        err.contains("matches_expected is `true`, but it should be empty: a `limit` row has no answer to compare with expected_steps"),
        "{err}"
    );
    for rust in ["Some(", "None"] {
        assert!(!err.contains(rust), "{err}");
    }
}

#[test]
fn verify_fails_on_answers_that_contradict_expected_steps() {
    // A dataset whose expected_steps is wrong on one row: the run (without --check) records
    // it; verify must not call that run ok.
    let dir = temp_dir("verify-expected");
    let data = dir.join("data.csv");
    let (h, mut rows) = read_csv(Path::new("inputs/per-depth.csv"));
    let (id, e) = (col(&h, "id"), col(&h, "expected_steps"));
    let wrong = rows.iter().position(|r| r[e] == "12").unwrap();
    rows[wrong][e] = "14".into();
    let mut w = csv::Writer::from_path(&data).unwrap();
    w.write_record(&h).unwrap();
    for r in &rows {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
    let out = dir.join("run");
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-q",
        "--paths",
        "-s",
        "astar",
        "--out",
        out.to_str().unwrap(),
    ]);
    let v = bin().arg("verify").arg(&out).output().unwrap();
    let err = stderr(&v);
    assert_eq!(v.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{}:{} (id {}): astar: answered 12 steps, expected 14 steps",
            data.display(),
            wrong + 2,
            rows[wrong][id]
        )),
        "{err}"
    );
    assert!(!err.contains("verify: ok"), "{err}");
}

#[test]
fn verify_refuses_a_cases_csv_with_nothing_to_verify() {
    let a = fresh_run("verify-empty-src", &[]);
    let dir = temp_dir("verify-empty");
    let path = dir.join("cases.csv");
    let text = std::fs::read_to_string(a.join("cases.csv")).unwrap();
    let header = text.split_once('\n').unwrap().0;
    for (content, want) in [
        (
            String::new(),
            "is empty (0 bytes, no header line)".to_string(),
        ),
        (
            format!("{header}\n"),
            format!("{}: no rows, only the header", path.display()),
        ),
    ] {
        std::fs::write(&path, content).unwrap();
        let v = bin().arg("verify").arg(&dir).output().unwrap();
        let err = stderr(&v);
        assert_eq!(v.status.code(), Some(2), "{err}");
        assert!(err.contains(&want), "{err}");
        assert!(!err.contains("verify: ok"), "{err}");
    }
}

/// `merge`'s messages about a damaged shard name the file and say what is wrong in words.
#[test]
fn merge_names_damaged_shard_files_in_sentences() {
    let dir = temp_dir("merge-damaged");
    let shard = |i: u32| {
        let out = dir.join(format!("s{i}"));
        run_ok(&[
            "run",
            "inputs/per-depth.csv",
            "-q",
            "-s",
            "astar",
            "--shard",
            &format!("{i}/2"),
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (s1, s2) = (shard(1), shard(2));
    let hlog = s1.join("latency.hlog");
    let cases = s1.join("cases.csv");
    let (good_hlog, good_cases) = (
        std::fs::read(&hlog).unwrap(),
        std::fs::read(&cases).unwrap(),
    );
    let lines = good_hlog.iter().filter(|&&b| b == b'\n').count();
    let mut garbage = good_hlog.clone();
    garbage.extend_from_slice(b"not an interval\n");
    for (file, content, want) in [
        (
            &hlog,
            garbage,
            format!(
                "{}: line {} is not an interval log line",
                hlog.display(),
                lines + 1
            ),
        ),
        (
            &hlog,
            Vec::new(),
            format!("{}: the file is empty (0 bytes)", hlog.display()),
        ),
        (
            &cases,
            Vec::new(),
            format!("{} is empty (no header line)", cases.display()),
        ),
    ] {
        std::fs::write(&hlog, &good_hlog).unwrap();
        std::fs::write(&cases, &good_cases).unwrap();
        std::fs::write(file, content).unwrap();
        let o = bin()
            .arg("merge")
            .args([&s1, &s2])
            .arg("--out")
            .arg(dir.join("merged"))
            .arg("--force")
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&want), "{err}");
        assert!(err.contains("rerun"), "{err}");
        for rust in ["ParseError", "Some(", "None", "{ ", "os error"] {
            assert!(!err.contains(rust), "{err}");
        }
    }
}

/// A small dataset for timing external programs: the cases of `inputs/per-depth.csv` of 4 to
/// 12 moves (a few ms of Python A* each), written to `dir/cases.csv`.
fn timing_cases(dir: &Path) -> PathBuf {
    let data = dir.join("cases.csv");
    let text = std::fs::read_to_string("inputs/per-depth.csv").unwrap();
    let rows: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| {
            *i == 0
                || l.rsplit(',')
                    .next()
                    .and_then(|s| s.parse::<i32>().ok())
                    .is_some_and(|d| (4..=12).contains(&d))
        })
        .map(|(_, l)| l)
        .collect();
    std::fs::write(&data, rows.join("\n") + "\n").unwrap();
    data
}

/// Runs `data` on one thread with the toy solver under each `NAME=DELAY_MS`, into `out`.
fn run_toys(data: &Path, out: &Path, toys: &[(&str, &str)]) {
    let mut cmd = bin();
    cmd.args([
        "run",
        data.to_str().unwrap(),
        "-q",
        "-s",
        "none",
        "--threads",
        "1",
    ]);
    for (name, delay) in toys {
        cmd.arg("--solver").arg(format!(
            "{name}=env -u PYTHONUNBUFFERED python3 tests/solvers/toy_solver.py --delay {delay}"
        ));
    }
    let o = cmd.arg("--out").arg(out).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A/B with the paired latency comparison: one program under one name, answering 80 ms
/// later per case in the current run than in the baseline (3 times as long), is a regression
/// past a 50% gate; the same program against itself (A/A) is not.
#[test]
fn a_genuinely_slower_build_regresses_and_the_same_build_does_not() {
    let dir = temp_dir("cmp-ab");
    let data = timing_cases(&dir);
    let run_with = |name: &str, delay: &str| {
        let out = dir.join(name);
        run_toys(&data, &out, &[("prog", delay)]);
        out
    };
    // Sleeps dominate the latency (40 ms, against a few ms of Python A*), so load on the
    // machine moves it little: A/A fails only if a run is slowed by 20 ms a case, which a
    // 10 ms sleep and a 20% gate met at a load of 6; the slower build adds 80 ms.
    let (a, a2, b) = (
        run_with("a", "40"),
        run_with("a2", "40"),
        run_with("b", "120"),
    );
    let gate = ["--max-latency-increase", "50"];
    let (code, text) = compare(&a, &b, &gate);
    assert_eq!(code, 1, "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("prog") && l.contains("latency per case"))
        .unwrap_or_else(|| panic!("{text}"));
    // One run a side: a regression, worded as the indication it is.
    // (The two builds are one program with another delay argument: the changed command is
    // named beside the regression as what can explain it.)
    assert!(
        line.ends_with("regressed (1 run a side: an indication) (solver prog changed)"),
        "{line}"
    );
    let (code, text) = compare(&a, &a2, &gate);
    assert_eq!(code, 0, "{text}");
    // An A/A pair of single runs: every latency verdict is qualified, whatever the noise did.
    for l in text.lines().filter(|l| l.contains("latency")) {
        for plain in ["improved", "slower", "faster", "regressed"] {
            if l.contains(plain) {
                assert!(l.contains("1 run a side"), "unqualified `{plain}`: {l}");
            }
        }
    }
    assert!(
        text.contains("one run a side"),
        "the gate's limit is said: {text}"
    );

    // Replicates: a directory of runs a side. The slow-down is still found, the note says
    // how many runs each side has, and the JSON export holds the same figures with bounds.
    // Three runs a side: with two, Student's t has one or two degrees of freedom (12.7 or
    // 4.3), and one run slowed by the machine's load widens the interval past any verdict.
    for (side, delay) in [("base", "40"), ("cur", "120")] {
        for r in ["1", "2", "3"] {
            run_toys(&data, &dir.join(side).join(r), &[("prog", delay)]);
        }
    }
    let json = dir.join("cmp.json");
    let mut args = gate.to_vec();
    args.extend(["--export-json", json.to_str().unwrap()]);
    let (code, text) = compare(&dir.join("base"), &dir.join("cur"), &args);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("latency over 3 baseline and 3 current run(s)"),
        "{text}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["regressed"], true);
    assert_eq!(v["tilebench_compare"], 2);
    assert_eq!(v["pairs"][0]["runs"]["baseline"], 3);
    let per_case = &v["pairs"][0]["strategies"][0]["latency"]["per_case"];
    let f = |k: &str| per_case[k].as_f64().unwrap_or_else(|| panic!("{k}: {v}"));
    assert!(
        f("ratio_low") <= f("ratio") && f("ratio") <= f("ratio_high"),
        "{per_case}"
    );
    // Sleeping 120 ms instead of 40 (plus a few ms of search each): about 3 times as long,
    // noise on top.
    assert!(f("ratio_low") > 1.5 && f("ratio_high") < 4.0, "{per_case}");
    assert_eq!(per_case["verdict"], "regressed");
    let shown = format!("{:+.2}%", (f("ratio") - 1.0) * 100.0);
    assert!(
        text.contains(&shown),
        "the JSON's ratio {shown} is the table's: {text}"
    );
}

/// `compare RUN --strategies A,B`: two solvers of one run, case by case, said as a sentence.
#[test]
fn two_strategies_of_one_run_are_compared_case_by_case() {
    let dir = temp_dir("cmp-within");
    let data = timing_cases(&dir);
    let out = dir.join("run");
    run_toys(&data, &out, &[("quick", "5"), ("slow", "25")]);
    let o = bin()
        .arg("compare")
        .arg(&out)
        .args(["--strategies", "slow,quick"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    let line = text
        .lines()
        .find(|l| l.contains("slow is") && l.contains("per case"))
        .unwrap_or_else(|| panic!("{text}"));
    // "slow is 2.71× slower than quick per case (95% CI 2.60–2.83×)"
    let times: f64 = line
        .split("slow is ")
        .nth(1)
        .and_then(|s| s.split('×').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(line.contains("slower than quick"), "{line}");
    // (25 + s) / (5 + s) ms, s the few ms of search: at most 5 in theory, noise on top.
    assert!((1.8..6.5).contains(&times), "{line}");
    // The same answers (one program), so nothing differs; the value columns are named.
    assert!(text.contains("answers that differ"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("quick") && l.contains("slow") && l.contains("metric")),
        "{text}"
    );

    for (args, needle) in [
        (
            vec!["--strategies", "slow,astar"],
            "its strategies are quick, slow",
        ),
        (
            vec!["--strategies", "slow"],
            "give two or more different strategies",
        ),
        (
            vec!["--strategies", "slow,slow"],
            "give two or more different strategies",
        ),
    ] {
        let o = bin().arg("compare").arg(&out).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    let o = bin()
        .arg("compare")
        .arg(&out)
        .arg(&out)
        .args(["--strategies", "slow,quick"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("give one RESULTS"), "{}", stderr(&o));
}

/// Rows in another order (shards merged by hand, a file sorted by strategy) are still matched
/// one to one: compare reads the runs as streams, and rows out of step wait for their partner.
#[test]
fn rows_in_another_order_are_matched_all_the_same() {
    let a = fresh_run("cmp-order-a", &[]);
    let b = fresh_run("cmp-order-b", &[]);
    edit(&b, "astar", 40, "steps", |s| {
        (s.parse::<i64>().unwrap() + 2).to_string()
    });
    // The current run's rows backwards: its first row is the baseline's last.
    let path = b.join("cases.csv");
    let (h, mut rows) = read_csv(&path);
    rows.reverse();
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&h).unwrap();
    for r in &rows {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
    let (code, text) = compare(&a, &b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("REGRESSION: 1 wrong answer(s), 0 case(s) with more work, 0 missing case(s), 0 row(s) missing a counter"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: baseline solved in", named("41", "astar"))),
        "{text}"
    );
    assert!(!text.contains("New in the current run"), "{text}");
    let (code, text) = compare(&b, &a, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("REGRESSION: 1 wrong answer(s)"), "{text}");
}

/// `compare A B C`: C is compared too (against A), the exit code says any pair regressed,
/// the exports hold every pair, and a third run is never dropped silently.
#[test]
fn a_third_run_is_compared_against_the_reference() {
    let a = fresh_run("cmp-three-a", &[]);
    let b = fresh_run("cmp-three-b", &[]);
    let c = fresh_run("cmp-three-c", &[]);
    edit(&c, "astar", 40, "steps", |s| {
        format!("{}", s.parse::<u32>().unwrap() + 2)
    });
    let md = c.join("cmp.md");
    let xml = c.join("cmp.json");
    let o = bin()
        .arg("compare")
        .args([&a, &b, &c])
        .args(["--export", &format!("markdown={}", md.display())])
        .args(["--export", &format!("json={}", xml.display())])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "compare: baseline {} vs current {}",
            a.display(),
            c.display()
        )),
        "{text}"
    );
    assert!(text.contains("add --all-pairs"), "{text}");
    assert!(text.contains("REGRESSION in 1 of 2 comparisons"), "{text}");
    assert!(
        text.contains(&format!("{}: baseline solved in", named("41", "astar"))),
        "{text}"
    );
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.starts_with("❌"), "{md}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&xml).unwrap()).unwrap();
    assert_eq!(v["pairs"][1]["regressed"], true);
    assert_eq!(v["pairs"][0]["regressed"], false);

    // --reference by directory name, and every pair.
    let name = c.file_name().unwrap().to_str().unwrap();
    let o = bin()
        .arg("compare")
        .args([&a, &b, &c])
        .args(["--reference", name])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("REGRESSION in 2 of 2 comparisons"), "{text}");
    let o = bin()
        .arg("compare")
        .args([&a, &b, &c])
        .arg("--all-pairs")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.contains("REGRESSION in 2 of 3 comparisons"), "{text}");
    assert!(!text.contains("add --all-pairs"), "{text}");
}

/// A baseline made with `--heuristic linear-conflict` against a run with `manhattan`: the
/// changed setting is listed before the verdict and named beside astar's regression (not
/// bfs-hash's, which does not read it); the JUnit export has a test case per solver and
/// check, astar's `work` failed, and the exports carry the setting too.
#[test]
fn a_changed_heuristic_is_named_beside_the_regression_it_explains() {
    let a = fresh_run("cmp-heur-a", &["--heuristic", "linear-conflict"]);
    let b = fresh_run("cmp-heur-b", &["--heuristic", "manhattan"]);
    let xml = b.join("cmp.xml");
    let json = b.join("cmp.json");
    let (code, text) = compare(
        &a,
        &b,
        &[
            "--export",
            &format!("junit={}", xml.display()),
            "--export",
            &format!("json={}", json.display()),
        ],
    );
    assert_eq!(code, 1, "{text}");
    let setting = text
        .lines()
        .find(|l| l.starts_with("compare: setting changed: heuristic: linear-conflict → manhattan"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(setting.contains("astar"), "{setting}");
    let astar = text
        .lines()
        .find(|l| l.starts_with("astar") && l.contains("expanded (total)"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(astar.ends_with("regressed (heuristic changed)"), "{astar}");
    let hash = text
        .lines()
        .find(|l| l.starts_with("bfs-hash") && l.contains("expanded (total)"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(hash.ends_with("unchanged"), "{hash}");

    let xml = std::fs::read_to_string(&xml).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<(String, String, bool)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| {
            (
                n.attribute("classname").unwrap().to_string(),
                n.attribute("name").unwrap().to_string(),
                n.children().any(|c| c.has_tag_name("failure")),
            )
        })
        .collect();
    for solver in ["astar", "bfs-hash"] {
        for check in ["answers", "work", "counters", "latency"] {
            assert!(
                cases.iter().any(|(c, n, _)| c == solver && n == check),
                "{solver} {check} in {xml}"
            );
        }
    }
    let failed: Vec<_> = cases.iter().filter(|c| c.2).collect();
    assert_eq!(failed.len(), 1, "{xml}");
    assert_eq!(
        (failed[0].0.as_str(), failed[0].1.as_str()),
        ("astar", "work")
    );
    assert!(xml.contains("(heuristic changed)"), "{xml}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["pairs"][0]["settings"][0]["setting"], "heuristic");

    // The same settings: nothing listed.
    let (code, text) = compare(&a, &a, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("setting changed"), "{text}");
}
