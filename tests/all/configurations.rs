//! A configuration is a solver: `-s NAME:KEY=VALUE` (with a label, `-s LABEL=NAME:…`) and
//! `--sweep KEY=V1,V2` give several configurations of one strategy in one run, each named by
//! its label, each with the counters a run of today's flags gives it.

use crate::common::{bin, col, read_csv, run_ok, stderr, temp_dir};
use std::collections::BTreeMap;
use std::path::Path;

/// cases.csv's rows as (strategy, input, line) → (status, steps, expanded, generated, stored).
fn counters(dir: &Path) -> BTreeMap<(String, String, String), [String; 5]> {
    let (h, rows) = read_csv(&dir.join("cases.csv"));
    let c = |n: &str| col(&h, n);
    rows.iter()
        .map(|r| {
            (
                (
                    r[c("strategy")].clone(),
                    r[c("input")].clone(),
                    r[c("line")].clone(),
                ),
                ["status", "steps", "expanded", "generated", "stored"].map(|n| r[c(n)].clone()),
            )
        })
        .collect()
}

/// `-s astar -s idastar --sweep heuristic=manhattan,linear-conflict,walking-distance` over
/// two datasets is six configurations whose rows equal, row for row, those of six separate
/// runs with `--heuristic`; their labels name the heuristic.
#[test]
fn a_sweep_gives_the_counters_of_separate_runs() {
    let dir = temp_dir("configs-sweep");
    let data = ["inputs/3x4-random.csv", "inputs/4x4-shallow.csv"];
    let heuristics = ["manhattan", "linear-conflict", "walking-distance"];
    let swept = dir.join("swept");
    let sweep = format!("heuristic={}", heuristics.join(","));
    let mut args = vec!["run"];
    args.extend(data);
    args.extend(["-s", "astar", "-s", "idastar", "--sweep", &sweep]);
    args.extend(["-q", "--out", swept.to_str().unwrap()]);
    run_ok(&args);
    let all = counters(&swept);
    let mut labels: Vec<String> = all.keys().map(|k| k.0.clone()).collect();
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), 6, "{labels:?}");
    for s in ["astar", "idastar"] {
        for h in heuristics {
            let out = dir.join(format!("{s}-{h}"));
            let mut args = vec!["run"];
            args.extend(data);
            args.extend([
                "-s",
                s,
                "--heuristic",
                h,
                "-q",
                "--out",
                out.to_str().unwrap(),
            ]);
            run_ok(&args);
            let alone = counters(&out);
            // The run's default heuristic is manhattan: it is not in the label.
            let label = if h == "manhattan" {
                s.to_string()
            } else {
                format!("{s}:heuristic={h}")
            };
            let mine: BTreeMap<_, _> = all
                .iter()
                .filter(|(k, _)| k.0 == label)
                .map(|(k, v)| ((s.to_string(), k.1.clone(), k.2.clone()), v.clone()))
                .collect();
            assert_eq!(mine.len(), alone.len(), "{label}");
            assert_eq!(mine, alone, "{label}");
        }
    }
    // The table reads the configurations as solvers.
    let table = bin().arg("table").arg(&swept).output().unwrap();
    assert!(table.status.success(), "{}", stderr(&table));
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("idastar:heuristic=walking-distance"),
        "{text}"
    );
}

/// A label given names the configuration in every file; two configurations of one label,
/// an option the strategy does not take, and a sweep no strategy takes are refused.
#[test]
fn labels_name_configurations_and_bad_ones_are_refused() {
    let dir = temp_dir("configs-labels");
    let out = dir.join("run");
    let o = out.to_str().unwrap();
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-s",
        "fast=wastar:weight=3",
        "-s",
        "wastar",
        "--check",
        "-q",
        "--out",
        o,
    ]);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let (strategy, claim) = (col(&h, "strategy"), col(&h, "claim"));
    let fast: Vec<_> = rows.iter().filter(|r| r[strategy] == "fast").collect();
    assert_eq!(fast.len(), 96);
    assert!(fast.iter().all(|r| r[claim] == "within=3"));
    assert!(rows
        .iter()
        .filter(|r| r[strategy] == "wastar")
        .all(|r| r[claim] == "within=1.5"));
    assert!(out.join("latency-fast.hgrm").is_file());
    for (args, says) in [
        (
            &["-s", "a=astar:heuristic=pdb", "-s", "a=idastar"][..],
            "labelled `a`",
        ),
        (
            &["-s", "table:weight=3"],
            "table takes no option `weight`; it takes none",
        ),
        (
            &["-s", "astar:heuristic=fast"],
            "astar:heuristic=fast: heuristic:",
        ),
        (
            &["-s", "bfs-rank", "--sweep", "heuristic=manhattan"],
            "no strategy chosen with -s takes `heuristic`",
        ),
    ] {
        let res = bin()
            .args(["run", "inputs/per-depth.csv", "-q", "--force", "--out", o])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(2), "{args:?}: {}", stderr(&res));
        assert!(stderr(&res).contains(says), "{args:?}: {}", stderr(&res));
    }
}
