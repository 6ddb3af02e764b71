//! `run --rows SPEC`: the chosen data rows, and only they, against the whole run's rows;
//! specs and rows that name nothing refused with a sentence; `--rows` with `--shard` and
//! `merge`, with `--resume`, and with `verify`.
#![cfg(unix)]

use crate::common::*;
use std::path::{Path, PathBuf};

/// Two inputs: per-depth.csv's 96 3x3 rows, then 4x4-shallow.csv's 100 (rows 97–196 of the
/// run).
const INPUTS: [&str; 2] = ["inputs/per-depth.csv", "inputs/4x4-shallow.csv"];

/// Columns that differ between two runs of the same cases.
const VARYING: [&str; 5] = [
    "latency_ns",
    "latency_min_ns",
    "peak_heap_bytes",
    "cpu_us",
    "max_rss_kb",
];

/// `run INPUTS -s astar,idastar --paths -q --out OUT EXTRA…`, which must succeed.
fn run_dir(name: &str, extra: &[&str]) -> PathBuf {
    let out = temp_dir(name);
    let mut a = vec![
        "run",
        INPUTS[0],
        INPUTS[1],
        "-s",
        "astar,idastar",
        "--paths",
        "-q",
    ];
    a.extend(["--out", out.to_str().unwrap()]);
    a.extend_from_slice(extra);
    run_ok(&a);
    out
}

/// cases.csv without the varying columns.
fn cases(dir: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    without(&dir.join("cases.csv"), &VARYING)
}

/// The whole run of the inputs, once.
fn whole() -> &'static Path {
    static W: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    W.get_or_init(|| run_dir("rows-whole", &[]))
}

/// The whole run's cases.csv rows of the 1-based data rows `rows` (over both inputs, in
/// order), found by each row's input and line (the line of a data row is its number + 1:
/// the inputs have no blank or comment lines).
fn whole_rows(rows: &[usize]) -> Vec<Vec<String>> {
    let (h, all) = cases(whole());
    let (input, line) = (col(&h, "input"), col(&h, "line"));
    let first_rows = [
        std::fs::read_to_string(INPUTS[0]).unwrap().lines().count() - 1,
        0,
    ];
    let number = |r: &Vec<String>| {
        let l: usize = r[line].parse().unwrap();
        let before = if r[input] == INPUTS[1] {
            first_rows[0]
        } else {
            first_rows[1]
        };
        before + l - 1
    };
    all.into_iter()
        .filter(|r| rows.contains(&number(r)))
        .collect()
}

fn run_json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

#[test]
fn a_list_and_ranges_run_those_rows_of_every_input_and_no_other() {
    // Out of order, repeated and overlapping, across the two files (row 97 is 4x4-shallow's
    // first).
    let spec = "140,3,1-2,2,95-98,146";
    let want_rows = [1, 2, 3, 95, 96, 97, 98, 140, 146];
    let dir = run_dir("rows-list", &["--rows", spec]);
    let (h, got) = cases(&dir);
    assert_eq!(h, cases(whole()).0);
    let want = whole_rows(&want_rows);
    assert_eq!(want.len(), want_rows.len() * 2, "two strategies a row");
    assert_eq!(got, want);
    // run.json records the selection as a canonical spec; the inputs' facts are the files'.
    let info = run_json(&dir);
    assert_eq!(info["rows"], "1-3,95-98,140,146");
    assert_eq!(info["inputs"][0]["rows"], 96);
    assert_eq!(info["inputs"][1]["rows"], 100);
    // compare names the selection as a changed setting.
    let o = bin()
        .arg("compare")
        .arg(whole())
        .arg(&dir)
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        said.contains("setting changed: --rows: none → 1-3,95-98,140,146"),
        "{said}"
    );
    // verify holds the run to run.json: the chosen rows × the strategies.
    let o = bin().args(["verify"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // summary.csv counts the chosen rows only.
    let (sh, summary) = read_csv(&dir.join("summary.csv"));
    let (name, solved) = (col(&sh, "strategy"), col(&sh, "solved"));
    let (status, strategy) = (col(&h, "status"), col(&h, "strategy"));
    for r in &summary {
        let n = want
            .iter()
            .filter(|w| w[strategy] == r[name] && w[status] == "solved");
        assert_eq!(r[solved], n.count().to_string(), "{summary:?}");
    }
}

#[test]
fn rows_that_do_not_exist_and_specs_that_name_nothing_are_refused() {
    let out = temp_dir("rows-refused");
    let dir = out.join("run");
    let run = |spec: &str| {
        bin()
            .args([
                "run", INPUTS[0], INPUTS[1], "-s", "astar", "-q", "--rows", spec,
            ])
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap()
    };
    let o = run("5,190-200,300");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("inputs/per-depth.csv, inputs/4x4-shallow.csv")
            && e.contains("197-200,300")
            && e.contains("196 data rows")
            && e.contains("from 1 to 196"),
        "{e}"
    );
    assert!(!dir.join("cases.csv").exists(), "nothing is solved");
    for (spec, says) in [
        ("", "names no row"),
        (" , ", "names no row"),
        ("0", "counted from 1"),
        ("9-3", "write the smaller row first (3-9)"),
        ("korf-38", "`korf` is not a row number"),
        ("a1", "not ids"),
        ("1-", "`1-` is not a range of rows"),
        ("-3", "`-3` is not a range of rows"),
        ("1-2-3", "`1-2-3` is not a range of rows"),
    ] {
        let o = run(spec);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{spec}: {e}");
        assert!(e.contains("--rows") && e.contains(says), "{spec}: {e}");
        assert!(!dir.exists(), "{spec}");
    }
}

#[test]
fn shards_of_a_selection_merge_into_the_selections_run() {
    let spec = "10-30,90-110";
    let selection = run_dir("rows-selection", &["--rows", spec]);
    let want: Vec<usize> = (10..=30).chain(90..=110).collect();
    assert_eq!(cases(&selection).1, whole_rows(&want));
    let shards: Vec<PathBuf> = (1..=3)
        .map(|i| {
            let shard = format!("{i}/3");
            run_dir(
                &format!("rows-shard-{i}"),
                &["--rows", spec, "--shard", &shard],
            )
        })
        .collect();
    // Shard i holds the selection's cases i-1, i+2, …: rows of the selection, not of the file.
    let (_, second) = cases(&shards[1]);
    let picked: Vec<usize> = want.iter().copied().skip(1).step_by(3).collect();
    assert_eq!(second, whole_rows(&picked));
    let merged = temp_dir("rows-merged");
    let o = bin()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .arg("-q")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(cases(&merged), cases(&selection));
    assert_eq!(run_json(&merged)["rows"], spec);
    let o = bin().args(["verify"]).arg(&merged).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));

    // A shard of another selection is not a shard of this split.
    let other = run_dir("rows-other", &["--rows", "10-31,90-110", "--shard", "2/3"]);
    let o = bin()
        .arg("merge")
        .args([&shards[0], &other, &shards[2]])
        .arg("--out")
        .arg(temp_dir("rows-mixed"))
        .output()
        .unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("not shards of one run") && e.contains("--rows"),
        "{e}"
    );
}

#[test]
fn a_resumed_run_keeps_its_rows_and_refuses_others() {
    use std::os::unix::process::ExitStatusExt;
    let spec = "40-60,120-146";
    let reference = run_dir("rows-reference", &["--rows", spec]);
    let out = temp_dir("rows-resumed");
    let args = |rows: &str| {
        let mut a = vec![
            "run",
            INPUTS[0],
            INPUTS[1],
            "-s",
            "astar,idastar",
            "--paths",
        ];
        a.extend([
            "-q",
            "--threads",
            "1",
            "--rows",
            rows,
            "--out",
            out.to_str().unwrap(),
        ]);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let o = bin()
        .args(args(spec))
        .env("TILEBENCH_CRASH_AT", "stored:3")
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    // Other rows: refused, naming both selections; the journal is left as it was.
    let mut other = args("40-61,120-146");
    other.push("--resume".into());
    let o = bin().args(&other).output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("--rows: `40-61,120-146` now, `40-60,120-146` when started"),
        "{e}"
    );
    let mut same = args(spec);
    same.push("--resume".into());
    run_ok(&same);
    assert_eq!(cases(&out), cases(&reference));
    assert_eq!(run_json(&out)["sessions"], 2);
}

/// A selection that looks written in ids (a chosen row whose id is another number) is run as
/// rows, with a warning naming the row, its line and its id; ids that are the row numbers, or
/// names, bring none.
#[test]
fn rows_whose_ids_are_other_numbers_bring_a_warning() {
    let dir = temp_dir("rows-ids");
    let boards = [
        "1 2 3 4 5 6 7 8 x",
        "1 2 3 4 5 6 7 x 8",
        "1 2 3 4 5 x 7 8 6",
    ];
    let file = |name: &str, ids: [&str; 3]| {
        let p = dir.join(name);
        let rows: Vec<String> = ids
            .iter()
            .zip(boards)
            .map(|(i, b)| format!("{i},{b}"))
            .collect();
        std::fs::write(&p, format!("id,start\n# a comment\n{}\n", rows.join("\n"))).unwrap();
        p
    };
    let run = |data: &Path| {
        let out = dir.join("out");
        let o = run_ok(&[
            "run",
            data.to_str().unwrap(),
            "--rows",
            "2-3",
            "-s",
            "astar",
            "--force",
            "--out",
            out.to_str().unwrap(),
        ]);
        let (h, rows) = read_csv(&out.join("cases.csv"));
        let ids: Vec<String> = rows.iter().map(|r| r[col(&h, "id")].clone()).collect();
        (stderr(&o), ids)
    };
    let shifted = file("shifted.csv", ["10", "20", "30"]);
    let (e, ids) = run(&shifted);
    assert_eq!(ids, ["20", "30"]);
    let want = format!(
        "warning: --rows counts data rows, not ids: row 2 ({}:4) has id 20; make sure these \
         are the rows you mean\n",
        shifted.display()
    );
    assert!(e.contains(&want), "{e}");
    // A library user reads it in the plan's words.
    let plan = tilebench::prelude::RunPlan::new(vec![shifted.display().to_string()])
        .with_strategies("astar")
        .unwrap()
        .with_rows("2-3".parse().unwrap())
        .with_out(dir.join("lib"));
    let seen = tilebench::observe::Collect::default();
    tilebench::prelude::execute_with(plan, &seen, &std::sync::atomic::AtomicBool::new(false))
        .unwrap();
    let words = format!(
        "warning: the plan's rows count data rows, not ids: row 2 ({}:4) has id 20; make sure \
         these are the rows you mean",
        shifted.display()
    );
    assert!(seen.notices().contains(&words), "{:#?}", seen.notices());
    for (name, ids) in [
        ("numbered.csv", ["1", "2", "3"]),
        ("named.csv", ["a", "b", "c"]),
    ] {
        let (e, _) = run(&file(name, ids));
        assert!(!e.contains("warning"), "{name}: {e}");
    }
}
