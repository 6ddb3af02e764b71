//! `tilebench table`: three runs (three heuristics) over three input files give a coverage
//! table with a sum row and a geometric-mean table whose numbers a Python script computes
//! independently from the cases.csv files; the LaTeX compiles (where pdflatex is installed);
//! the ranking of external programs; labels; bad input is named.

use crate::common::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Three small 3x3 datasets (a few unsolvable pairs each) and three runs of astar, one per
/// heuristic, under a node budget small enough that the heuristics' coverage differs. The
/// runs' directories are named after the heuristics (the first with LaTeX's special
/// characters in its name).
fn three_runs(name: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = temp_dir(name);
    let mut inputs = Vec::new();
    for seed in ["1", "2", "3"] {
        let f = dir.join(format!("set_{seed}.csv"));
        run_ok(&[
            "gen",
            "-n",
            "15",
            "--unsolvable",
            "0.2",
            "--seed",
            seed,
            "-o",
            f.to_str().unwrap(),
        ]);
        inputs.push(f.to_str().unwrap().to_string());
    }
    let mut runs = Vec::new();
    for (dirname, h) in [
        ("h_manhattan 100%&#", "manhattan"),
        ("linear-conflict", "linear-conflict"),
        ("walking-distance", "walking-distance"),
    ] {
        let out = dir.join(dirname);
        let mut args: Vec<&str> = vec!["run"];
        args.extend(inputs.iter().map(String::as_str));
        args.extend([
            "-s",
            "astar",
            "--heuristic",
            h,
            "--max-nodes",
            "300",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        run_ok(&args);
        runs.push(out);
    }
    (dir, runs)
}

fn table(args: &[&str], runs: &[PathBuf]) -> String {
    let mut all: Vec<&std::ffi::OsStr> = vec!["table".as_ref()];
    all.extend(runs.iter().map(|r| r.as_os_str()));
    all.extend(args.iter().map(std::ffi::OsStr::new));
    String::from_utf8(run_ok(&all).stdout).unwrap()
}

/// The same figures as `table -a coverage,expanded:gmean`, by input, computed from the
/// cases.csv files with Python's csv and statistics modules: one line per cell,
/// `table,row,column,value`.
const INDEPENDENT: &str = r#"
import csv, statistics, sys
runs = sys.argv[1:]
right = {}      # (run, task) -> expanded, for the tasks answered right
tasks = {}      # task -> input
for run in runs:
    with open(run + "/cases.csv", newline="") as f:
        for r in csv.DictReader(f):
            task = (r["input"], r["line"])
            tasks[task] = r["input"]
            ok = (r["status"] == "solved" and r["steps"] == r["expected_steps"]) or \
                 (r["status"] == "unsolvable" and r["expected_steps"] in ("-1", ""))
            if ok:
                right[(run, task)] = max(int(r["expanded"]), 1)
inputs = list(dict.fromkeys(tasks.values()))
label = lambda run: run.rstrip("/").split("/")[-1] + "/astar"
for group in inputs + ["all"]:
    ts = [t for t, i in tasks.items() if group in (i, "all")]
    common = [t for t in ts if all((run, t) in right for run in runs)]
    print("coverage", "sum" if group == "all" else group, "tasks", len(ts), sep="\t")
    print("expanded:gmean", group, "tasks", len(common), sep="\t")
    for run in runs:
        n = sum((run, t) in right for t in ts)
        print("coverage", "sum" if group == "all" else group, label(run), n, sep="\t")
        g = statistics.geometric_mean([right[(run, t)] for t in common]) if common else ""
        print("expanded:gmean", group, label(run), g, sep="\t")
"#;

fn python3() -> Option<()> {
    match Command::new("python3").arg("--version").output() {
        Ok(o) if o.status.success() => Some(()),
        _ => {
            println!("SKIPPED: python3 is not installed; the independent check needs it");
            None
        }
    }
}

#[test]
fn coverage_and_gmean_tables_equal_an_independent_computation_from_cases_csv() {
    let (_dir, runs) = three_runs("table-three");
    let md = table(&["-a", "coverage,expanded:gmean"], &runs);
    // The tables a paper prints: coverage with a sum row, the geometric means with theirs.
    assert!(md.contains("### Coverage by input"), "{md}");
    assert!(md.contains("| **sum** | 45 |"), "{md}");
    assert!(
        md.contains("### Geometric mean of expanded by input"),
        "{md}"
    );
    assert!(md.contains("every solver answered right"), "{md}");
    for label in [
        "h_manhattan 100%&#/astar",
        "linear-conflict/astar",
        "walking-distance/astar",
    ] {
        assert!(md.contains(label), "{label}: {md}");
    }
    let csv = table(&["-a", "coverage,expanded:gmean", "--format", "csv"], &runs);
    let mut ours: HashMap<(String, String, String), String> = HashMap::new();
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        ["table", "row", "column", "value", "best"]
    );
    for rec in r.records() {
        let rec = rec.unwrap();
        ours.insert((rec[0].into(), rec[1].into(), rec[2].into()), rec[3].into());
    }
    let Some(()) = python3() else { return };
    let out = Command::new("python3")
        .arg("-c")
        .arg(INDEPENDENT)
        .args(&runs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8(out.stdout).unwrap();
    let (mut checked, mut differ, mut coverage) = (0, 0, Vec::new());
    for line in theirs.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let key = (f[0].to_string(), f[1].to_string(), f[2].to_string());
        let got = ours
            .get(&key)
            .unwrap_or_else(|| panic!("no cell {key:?} in\n{csv}"));
        if f[3].is_empty() {
            assert_eq!(got, "", "{key:?}: nothing to aggregate is empty, never 0");
        } else {
            let (a, b): (f64, f64) = (got.parse().unwrap(), f[3].parse().unwrap());
            assert!((a - b).abs() <= 1e-9 * b.abs(), "{key:?}: {a} ≠ {b}");
        }
        if f[0] == "coverage" && f[2] != "tasks" {
            coverage.push(f[3].to_string());
        }
        checked += 1;
        differ += usize::from(f[0] == "expanded:gmean" && f[1] == "all" && f[3].is_empty());
    }
    assert_eq!(checked, ours.len(), "every cell checked:\n{theirs}\n{csv}");
    assert_eq!(differ, 0, "the gmean over all common tasks is a number");
    // The heuristics' coverages differ (the budget bites), so the check is not of equals.
    coverage.sort();
    coverage.dedup();
    assert!(coverage.len() > 2, "{coverage:?}");
}

#[test]
fn the_latex_compiles_in_a_plain_article_with_booktabs() {
    let (dir, runs) = three_runs("table-tex");
    let tex = table(
        &[
            "-a",
            "coverage,expanded:gmean,latency:p50",
            "--per-task",
            "steps",
            "--rank",
            "-f",
            "tex",
        ],
        &runs,
    );
    assert!(tex.contains("h\\_manhattan 100\\%\\&\\#/astar"), "{tex}");
    assert!(
        tex.contains("\\toprule") && tex.contains("\\textbf{"),
        "{tex}"
    );
    std::fs::write(dir.join("tables.tex"), &tex).unwrap();
    std::fs::write(
        dir.join("doc.tex"),
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\
         \\input{tables.tex}\n\\end{document}\n",
    )
    .unwrap();
    let Ok(out) = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "doc.tex"])
        .current_dir(&dir)
        .output()
    else {
        println!("SKIPPED: pdflatex is not installed; the LaTeX was not compiled");
        return;
    };
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "pdflatex failed:\n{log}\n{tex}");
    assert!(dir.join("doc.pdf").is_file());
    assert!(!log.contains("Missing character"), "{log}");
}

#[test]
fn the_ranking_names_how_each_solver_was_timed() {
    let dir = temp_dir("table-rank");
    let data = dir.join("class.csv");
    run_ok(&[
        "gen",
        "-n",
        "8",
        "--seed",
        "5",
        "-o",
        data.to_str().unwrap(),
    ]);
    let toy = format!(
        "python3 {}/tests/solvers/toy_solver.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let persistent = dir.join("persistent");
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "astar",
        "-q",
        "--out",
        persistent.to_str().unwrap(),
        "--solver",
        &format!("good={toy}"),
        "--solver",
        &format!("longer={toy} --fault suboptimal"),
        "--solver",
        &format!("liar={toy} --fault lie"),
        // Longer paths are right when the program claims no more than valid ones.
        "--solver-claim",
        "longer=valid",
    ]);
    let batch = dir.join("batch");
    let read_all = format!(
        "python3 {}/tests/students/read_all.py",
        env!("CARGO_MANIFEST_DIR")
    );
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "none",
        "-q",
        "--out",
        batch.to_str().unwrap(),
        "--solver",
        &format!("reads-all={read_all}"),
        "--solver-spawn",
        "batch",
    ]);
    let csv = table(
        &["--rank", "--format", "csv"],
        &[persistent.join("cases.csv"), batch.clone()],
    );
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let mut by: HashMap<(String, String), String> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        assert_eq!(&rec[0], "ranking");
        let solver = rec[1].to_string();
        if !order.contains(&solver) {
            order.push(solver.clone());
        }
        by.insert((solver, rec[2].to_string()), rec[3].to_string());
    }
    let get = |s: &str, c: &str| by[&(s.to_string(), c.to_string())].clone();
    assert_eq!(get("good", "timed"), "round trip");
    assert_eq!(get("astar", "timed"), "in process");
    assert_eq!(get("reads-all", "timed"), "batch mean");
    // A batch's time is its mean per case, from run.json.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(batch.join("run.json")).unwrap()).unwrap();
    let mean = json["solver_facts"]["reads-all"]["batch_mean_us"]
        .as_str()
        .unwrap();
    assert_eq!(
        get("reads-all", "median µs"),
        mean.parse::<f64>().unwrap().to_string()
    );
    for s in ["astar", "good", "reads-all", "longer"] {
        assert_eq!(get(s, "right"), "8", "{s}");
    }
    assert_eq!(get("longer", "optimal"), "0");
    assert_eq!(get("liar", "right"), "0");
    assert_eq!(get("liar", "wrong"), "8");
    // Right, then optimal, then median time: the liar last, the long paths before it.
    assert_eq!(&order[3..], ["longer", "liar"], "{csv}");
    assert_eq!(get(&order[0], "rank"), "1");
}

#[test]
fn bad_input_is_named_with_what_to_do() {
    let dir = temp_dir("table-bad");
    let err = |args: &[&str]| {
        let out = bin().arg("table").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        stderr(&out)
    };
    let missing = dir.join("nowhere");
    let e = err(&[missing.to_str().unwrap()]);
    assert!(e.contains("nowhere: no such results directory"), "{e}");
    let e = err(&[dir.to_str().unwrap()]);
    assert!(e.contains("no cases.csv in this directory"), "{e}");
    let empty = dir.join("cases.csv");
    std::fs::write(&empty, "").unwrap();
    let e = err(&[empty.to_str().unwrap()]);
    assert!(e.contains("cases.csv is empty"), "{e}");
    let run = dir.join("run");
    run_ok(&[
        "run",
        "inputs/ci.csv",
        "-s",
        "table",
        "-q",
        "--out",
        run.to_str().unwrap(),
    ]);
    let header_only = dir.join("header.csv");
    let text = std::fs::read_to_string(run.join("cases.csv")).unwrap();
    std::fs::write(&header_only, text.lines().next().unwrap()).unwrap();
    let e = err(&[header_only.to_str().unwrap()]);
    assert!(e.contains("header.csv: has no rows"), "{e}");
    let r = run.to_str().unwrap();
    let e = err(&[r, "-a", "expandd"]);
    assert!(
        e.contains("unknown attribute `expandd`; choose one of coverage, expanded"),
        "{e}"
    );
    let e = err(&[r, "-a", "latency:average"]);
    assert!(
        e.contains("unknown aggregate `average`") && e.contains("p50"),
        "{e}"
    );
    let e = err(&[r, "-a", "coverage:gmean"]);
    assert!(e.contains("write `coverage`"), "{e}");
    let e = err(&[r, "--per-task", "time"]);
    assert!(e.contains("--per-task: unknown attribute `time`"), "{e}");
}

#[test]
fn rows_by_depth_and_size_and_labels_without_clashes() {
    let dir = temp_dir("table-depth");
    let run = dir.join("one");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-s",
        "astar,idastar",
        "-q",
        "--out",
        run.to_str().unwrap(),
    ]);
    let md = table(
        &["--by", "depth", "-a", "coverage"],
        std::slice::from_ref(&run),
    );
    // One run: plain solver names; depths ascending.
    assert!(md.contains("| depth | tasks | astar | idastar |"), "{md}");
    let depths: Vec<i64> = md
        .lines()
        .filter_map(|l| l.strip_prefix("| ")?.split(' ').next()?.parse().ok())
        .collect();
    assert!(
        depths.len() > 5 && depths.windows(2).all(|w| w[0] < w[1]),
        "{depths:?}"
    );
    let md = table(
        &["--by", "size", "-a", "steps:max"],
        std::slice::from_ref(&run),
    );
    assert!(md.contains("| 3x3 |"), "{md}");
    let html = table(&["-f", "html"], &[run]);
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<strong class=\"best\">"));
    assert!(Path::new(&dir).is_dir());
}

/// The suboptimality table agrees with summary.csv's `suboptimality_mean` (both over the same
/// rows: a start that is its goal, answered in 0 moves, counts as 1, as cases.csv says).
#[test]
fn the_suboptimality_mean_is_summary_csvs() {
    let dir = temp_dir("table-subopt");
    let out = dir.join("greedy");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-s",
        "greedy",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("summary.csv"));
    let want: f64 = rows[0][col(&h, "suboptimality_mean")].parse().unwrap();
    let csv = table(
        &["-a", "suboptimality", "--format", "csv"],
        std::slice::from_ref(&out),
    );
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let got: f64 = r
        .records()
        .map(|rec| rec.unwrap())
        .find(|rec| rec[1].contains("per-depth") && rec[2].contains("greedy"))
        .unwrap_or_else(|| panic!("{csv}"))[3]
        .parse()
        .unwrap();
    assert!(
        (got - want).abs() < 0.0011,
        "table {got} ≠ summary.csv {want}\n{csv}"
    );
    // The dataset has starts that are their goal: the mean would differ without them.
    let (h, rows) = read_csv(&out.join("cases.csv"));
    assert!(rows.iter().any(|r| r[col(&h, "steps")] == "0"));
}
