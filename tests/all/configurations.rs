//! A configuration is a solver: `-s NAME:KEY=VALUE` (with a label, `-s LABEL=NAME:…`) and
//! `--sweep KEY=V1,V2` give several configurations of one strategy in one run, each named by
//! its label, each with the counters a run of today's flags gives it.

use crate::common::{bin, col, read_csv, run_ok, stderr, temp_dir, without, TIMING};
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
    settings_are_in_the_data(&swept, &heuristics);
    table_reads_the_configurations(&swept, &all);
}

/// Every row of the six configurations says, in columns of its own, its strategy and
/// heuristic (weight and hash_buckets empty: neither strategy reads them), as summary.csv
/// does for each label.
fn settings_are_in_the_data(dir: &Path, heuristics: &[&str]) {
    let want = |label: &str| -> [String; 4] {
        let (s, h) = label
            .split_once(":heuristic=")
            .unwrap_or((label, "manhattan"));
        assert!(heuristics.contains(&h), "{label}");
        [s.into(), h.into(), String::new(), String::new()]
    };
    for file in ["cases.csv", "summary.csv"] {
        let (h, rows) = read_csv(&dir.join(file));
        let c = |n: &str| col(&h, n);
        assert!(!rows.is_empty());
        for r in &rows {
            let got = ["algorithm", "heuristic", "weight", "hash_buckets"].map(|n| r[c(n)].clone());
            assert_eq!(got, want(&r[c("strategy")]), "{file}");
        }
    }
}

/// `tilebench table` over the run: per input and label, the coverage and the geometric mean
/// of expanded, each equal to the figure made from cases.csv's rows here.
fn table_reads_the_configurations(
    dir: &Path,
    rows: &BTreeMap<(String, String, String), [String; 5]>,
) {
    let table = bin()
        .args(["table", "-f", "csv", "-a", "coverage,expanded:gmean"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(table.status.success(), "{}", stderr(&table));
    let text = String::from_utf8_lossy(&table.stdout).to_string();
    let cell = |table: &str, row: &str, column: &str| -> String {
        text.lines()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|f| f[0] == table && f[1] == row && f[2] == column)
            .unwrap_or_else(|| panic!("no {table} {row} {column} in\n{text}"))[3]
            .to_string()
    };
    let mut cells = 0;
    for input in ["inputs/3x4-random.csv", "inputs/4x4-shallow.csv"] {
        let labels: std::collections::BTreeSet<&String> = rows.keys().map(|k| &k.0).collect();
        assert_eq!(labels.len(), 6);
        for label in labels {
            let mine: Vec<&[String; 5]> = rows
                .iter()
                .filter(|(k, _)| k.0 == *label && k.1 == input)
                .map(|(_, v)| v)
                .collect();
            let right = mine
                .iter()
                .filter(|v| v[0] == "solved" || v[0] == "unsolvable")
                .count();
            assert_eq!(right, mine.len(), "{label} {input}: every case is answered");
            assert_eq!(cell("coverage", input, label), right.to_string());
            // Every configuration answered every case: the mean is over all of them that
            // have a count (a 0, a pair answered by parity, counts as 1).
            let counts: Vec<f64> = mine.iter().filter_map(|v| v[2].parse().ok()).collect();
            assert!(counts.len() + 5 > mine.len(), "{label} {input}");
            let logs: f64 = counts.iter().map(|x: &f64| x.max(1.0).ln()).sum();
            let gmean = (logs / counts.len() as f64).exp();
            let shown: f64 = cell("expanded:gmean", input, label).parse().unwrap();
            assert!(
                (shown - gmean).abs() < 0.01,
                "{label} {input}: {shown} vs {gmean}"
            );
            cells += 1;
        }
    }
    assert_eq!(cells, 12);
}

/// `compare` matches configurations by label, and says when one label holds different
/// options in the two runs (the run's --heuristic behind `astar`, `weight=` behind `fast`);
/// a label configured alike gets no note.
#[test]
fn compare_says_when_a_label_holds_other_options() {
    let dir = temp_dir("configs-compare");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["run", "inputs/seeds.csv", "-s", "astar", "-s", "bfs-rank"];
        args.extend(extra);
        args.extend(["-q", "--out", out.to_str().unwrap()]);
        run_ok(&args);
        out
    };
    let a = run("a", &["-s", "fast=wastar:weight=3"]);
    let b = run(
        "b",
        &[
            "-s",
            "fast=wastar:weight=5",
            "--heuristic",
            "linear-conflict",
        ],
    );
    let o = bin().arg("compare").arg(&a).arg(&b).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    let notes: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("is not the same configuration"))
        .collect();
    assert_eq!(notes.len(), 2, "{text}");
    assert!(
        notes[0].contains("`astar`") && notes[0].contains("heuristic manhattan → linear-conflict")
    );
    assert!(
        notes[1].contains("`fast`") && notes[1].contains("weight 3 → 5"),
        "{text}"
    );
    assert!(!text.contains("`bfs-rank` is not"), "{text}");
    // The label's own change is named as a run-wide flag's is, beside its regressions.
    assert!(
        text.contains("setting changed: weight: 3 → 5 (can change steps, expanded, generated, stored, latency_ns of fast)"),
        "{text}"
    );
    // Two runs configured alike: no note.
    let o = bin().arg("compare").arg(&a).arg(&a).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(!text.contains("is not the same configuration"), "{text}");
}

/// A run of configurations and a sweep, killed mid-way (`kill -9` after some solves), then
/// `--resume`d, ends with the rows of the same run uninterrupted; with `--order blocked` too.
#[test]
fn a_killed_run_of_configurations_resumes_to_the_same_rows() {
    use std::os::unix::process::ExitStatusExt;
    let dir = temp_dir("configs-resume");
    let args = |out: &Path, order: &str| -> Vec<String> {
        [
            "run",
            "inputs/3x4-random.csv",
            "-s",
            "astar",
            "-s",
            "fast=wastar:weight=2",
            "--sweep",
            "heuristic=manhattan,linear-conflict",
            "--order",
            order,
            "-j",
            "2",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let reference = dir.join("reference");
    run_ok(&args(&reference, "shuffled"));
    for order in ["shuffled", "blocked"] {
        let out = dir.join(order);
        let o = bin()
            .args(args(&out, order))
            .env("TILEBENCH_CRASH_AT", "solved:90")
            .output()
            .unwrap();
        assert_eq!(o.status.signal(), Some(9), "{order}: {}", stderr(&o));
        assert!(!out.join("cases.csv").exists());
        let mut again = args(&out, order);
        again.push("--resume".into());
        let o = run_ok(&again);
        assert!(stderr(&o).contains("resuming"), "{order}: {}", stderr(&o));
        assert_eq!(
            without(&out.join("cases.csv"), &TIMING),
            without(&reference.join("cases.csv"), &TIMING),
            "{order}"
        );
        let (h, rows) = read_csv(&out.join("summary.csv"));
        let labels: Vec<&str> = rows
            .iter()
            .map(|r| r[col(&h, "strategy")].as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "astar",
                "astar:heuristic=linear-conflict",
                "fast-manhattan",
                "fast-linear-conflict"
            ]
        );
    }
    let json = std::fs::read_to_string(reference.join("run.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (json["order"].as_str(), json["seed"].as_u64()),
        (Some("shuffled"), Some(1))
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

/// `--resume` and `merge` hold a label to what it ran: a run killed part way is not finished
/// by a command whose label now runs another strategy or option, nor are two shards merged
/// whose label ran different things; the same command resumes.
#[test]
fn a_label_that_runs_something_else_is_neither_resumed_nor_merged() {
    let dir = temp_dir("configs-identity");
    let out = dir.join("run");
    let out = out.to_str().unwrap();
    let base = ["run", "inputs/per-depth.csv", "-j", "1", "-q", "--out", out];
    let killed = bin()
        .args(base)
        .args(["-s", "small=bfs-hash:hash-buckets=1009"])
        .env("TILEBENCH_CRASH_AT", "solved:20")
        .output()
        .unwrap();
    assert!(!killed.status.success(), "{}", stderr(&killed));
    for other in ["small=bfs-set", "small=bfs-hash:hash-buckets=2003"] {
        let o = bin()
            .args(base)
            .args(["-s", other, "--resume"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{other}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("configurations:")
                && e.contains("small: algorithm bfs-hash, hash_buckets 1009"),
            "{other}: {e}"
        );
    }
    let mut again = base.to_vec();
    again.extend(["-s", "small=bfs-hash:hash-buckets=1009", "--resume"]);
    run_ok(&again);
    let shard = |n: &str, s: &str| {
        let d = dir.join(n);
        run_ok(&[
            "run",
            "inputs/seeds.csv",
            "-s",
            s,
            "-q",
            "--shard",
            if n == "a" { "1/2" } else { "2/2" },
            "--out",
            d.to_str().unwrap(),
        ]);
        d
    };
    let (a, b) = (shard("a", "x=astar"), shard("b", "x=bfs-set"));
    let merged = dir.join("merged");
    let o = bin()
        .args(["merge", a.to_str().unwrap(), b.to_str().unwrap(), "-o"])
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("configurations:"), "{}", stderr(&o));
    assert!(!merged.join("cases.csv").exists());
}

/// Plain names and configurations side by side keep the order given, in summary.csv and in
/// run.json (and a comma list may hold a configuration).
#[test]
fn solvers_keep_the_order_given() {
    let dir = temp_dir("configs-order");
    let out = dir.join("run");
    run_ok(&[
        "run",
        "inputs/seeds.csv",
        "-s",
        "greedy",
        "-s",
        "w=wastar:weight=5,astar",
        "-s",
        "idastar:heuristic=linear-conflict",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("summary.csv"));
    let order: Vec<&str> = rows
        .iter()
        .map(|r| r[col(&h, "strategy")].as_str())
        .collect();
    assert_eq!(
        order,
        ["greedy", "w", "astar", "idastar:heuristic=linear-conflict"]
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["strategies"], serde_json::json!(order));
}

/// The pattern databases' partition and lookups are options of a configuration with
/// `heuristic=pdb`: two partitions in one run, each in its own column, each optimal
/// (`--check` against the dataset's answers) and each with its own tables; given without
/// `heuristic=pdb` they are refused with what to add.
#[test]
fn a_partition_is_an_option_of_a_configuration() {
    let dir = temp_dir("configs-partition");
    let out = dir.join("run");
    let tables = dir.join("tables");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-s",
        "astar:heuristic=pdb:partition=4-4",
        "-s",
        "small=astar:heuristic=pdb:partition=2-2-2-2:lookup=regular",
        "--pdb-dir",
        tables.to_str().unwrap(),
        "--check",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let cell = |r: &Vec<String>, n: &str| r[col(&h, n)].clone();
    let mut seen = BTreeMap::new();
    for r in &rows {
        let key = cell(r, "strategy");
        let cells = ["algorithm", "heuristic", "partition", "lookup", "weight"].map(|n| cell(r, n));
        seen.entry(key).or_insert(cells);
        assert_eq!(cell(r, "status"), "solved", "{r:?}");
    }
    assert_eq!(
        seen["astar:heuristic=pdb:partition=4-4"],
        ["astar", "pdb", "4-4", "max", ""]
    );
    assert_eq!(seen["small"], ["astar", "pdb", "2-2-2-2", "regular", ""]);
    // Each partition has its own tables (two groups of 4 tiles, four of 2).
    let files: Vec<String> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdb"))
        .collect();
    assert_eq!(files.len(), 6, "{files:?}");
    // Without heuristic=pdb: refused, saying what to add.
    let res = bin()
        .args([
            "run",
            "inputs/seeds.csv",
            "-s",
            "astar:partition=4-4",
            "-q",
            "--out",
        ])
        .arg(dir.join("refused"))
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(2));
    assert!(
        stderr(&res).contains("add `:heuristic=pdb`"),
        "{}",
        stderr(&res)
    );
}

/// A suboptimal solver's path lengths follow its options: runs whose `fast` (wastar) has
/// weight 1 and 3 differ in path length by design, which `compare` lists apart and does not
/// count as wrong answers; the same change of a path between two runs of one configuration
/// is a wrong answer.
#[test]
fn path_lengths_that_follow_changed_options_are_not_wrong_answers() {
    let dir = temp_dir("configs-reconfigured");
    let run = |name: &str, weight: &str| {
        let out = dir.join(name);
        let fast = format!("fast=wastar:weight={weight}");
        run_ok(&[
            "run",
            "inputs/3x4-random.csv",
            "-s",
            &fast,
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (a, b) = (run("a", "1"), run("b", "3"));
    let o = bin().arg("compare").arg(&a).arg(&b).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    let changed = text
        .lines()
        .find(|l| l.starts_with("Path lengths that changed with the solver's options"))
        .unwrap_or_else(|| panic!("{text}"));
    let n: usize = changed
        .rsplit_once('(')
        .and_then(|(_, n)| n.trim_end_matches([')', ':']).parse().ok())
        .unwrap_or_else(|| panic!("{changed}"));
    assert!(n > 0, "{text}");
    assert!(!text.contains("Correctness regressions"), "{text}");
    // One configuration, a path changed by hand: a wrong answer.
    let tampered = dir.join("tampered");
    std::fs::create_dir_all(&tampered).unwrap();
    for f in ["run.json", "summary.csv"] {
        std::fs::copy(a.join(f), tampered.join(f)).unwrap();
    }
    let (h, rows) = read_csv(&a.join("cases.csv"));
    let steps = col(&h, "steps");
    let mut w = csv::Writer::from_path(tampered.join("cases.csv")).unwrap();
    w.write_record(&h).unwrap();
    let mut done = false;
    for r in &rows {
        let mut r = r.clone();
        if !done && r[col(&h, "status")] == "solved" {
            let s: i64 = r[steps].parse().unwrap();
            r[steps] = (s + 2).to_string();
            done = true;
        }
        w.write_record(&r).unwrap();
    }
    w.flush().unwrap();
    let o = bin()
        .arg("compare")
        .arg(&a)
        .arg(&tampered)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(text.contains("Correctness regressions"), "{text}");
    assert_eq!(o.status.code(), Some(1), "{text}");
}

/// One configuration has one label however it is typed (options in the strategy's order,
/// each written back canonically, defaults left out); a sweep of an option read only with
/// `heuristic=pdb` leaves the other configurations alone; labels that would mislead or share
/// a file, and run-wide flags every configuration overrides, are refused.
#[test]
fn labels_are_canonical_and_misleading_ones_are_refused() {
    let dir = temp_dir("configs-canonical");
    let tables = dir.join("tables");
    let tables = tables.to_str().unwrap();
    let run = |name: &str, args: &[&str]| {
        bin()
            .args(["run", "inputs/per-depth.csv", "-q", "--force"])
            .arg("--out")
            .arg(dir.join(name))
            .args(args)
            .output()
            .unwrap()
    };
    let labels = |name: &str| -> Vec<String> {
        let (h, rows) = read_csv(&dir.join(name).join("summary.csv"));
        rows.iter()
            .map(|r| r[col(&h, "strategy")].clone())
            .collect()
    };
    // Typed in two orders, with a default and a zero-padded size: one label.
    let res = run(
        "a",
        &[
            "-s",
            "astar:lookup=regular:heuristic=pdb:partition=04-4",
            "--pdb-dir",
            tables,
        ],
    );
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    assert_eq!(
        labels("a"),
        ["astar:heuristic=pdb:partition=4-4:lookup=regular"]
    );
    let res = run(
        "b",
        &["-s", "astar:heuristic=pdb:partition=4-4:lookup=default"],
    );
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    assert_eq!(labels("b"), ["astar:heuristic=pdb:partition=4-4"]);
    // The same configuration twice, typed apart: refused.
    let res = run(
        "c",
        &[
            "-s",
            "astar:lookup=regular:heuristic=pdb",
            "-s",
            "astar:heuristic=pdb:lookup=regular",
            "--pdb-dir",
            tables,
        ],
    );
    assert_eq!(res.status.code(), Some(2));
    assert!(
        stderr(&res).contains("two configurations are labelled"),
        "{}",
        stderr(&res)
    );
    // A sweep of the partition takes the pdb configurations and leaves plain astar alone.
    let res = run(
        "d",
        &[
            "-s",
            "astar",
            "-s",
            "astar:heuristic=pdb",
            "--sweep",
            "partition=4-4,2-6",
        ],
    );
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    assert_eq!(
        labels("d"),
        [
            "astar",
            "astar:heuristic=pdb:partition=4-4",
            "astar:heuristic=pdb:partition=2-6"
        ]
    );
    for (args, says) in [
        (
            &["-s", "astar=greedy"][..],
            "is the name of another built-in strategy",
        ),
        (
            &[
                "-s",
                "astar:heuristic=linear-conflict",
                "-s",
                "astar_heuristic_linear-conflict=idastar",
            ],
            "would share the file",
        ),
        (
            &["-s", "wastar:weight=3", "--weight", "2"],
            "every configuration of this run that reads `weight` sets its own",
        ),
        (
            &["-s", "astar", "--pdb-partition", "4-4"],
            "add --heuristic pdb",
        ),
    ] {
        let res = run("e", args);
        assert_eq!(res.status.code(), Some(2), "{args:?}: {}", stderr(&res));
        assert!(stderr(&res).contains(says), "{args:?}: {}", stderr(&res));
    }
    // --allow-limit names an unlabelled configuration, whose label holds `=`.
    let res = run(
        "f",
        &[
            "-s",
            "astar:heuristic=linear-conflict",
            "--max-nodes",
            "5",
            "--check",
            "--allow-limit",
            "astar:heuristic=linear-conflict=all",
        ],
    );
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
}

/// A baseline written before the `partition` and `lookup` columns: a column it lacks is
/// unknown, not a difference, so a changed path of one configuration is still a wrong answer.
#[test]
fn a_column_an_older_file_lacks_is_no_difference() {
    let dir = temp_dir("configs-older");
    let run = |name: &str| {
        let out = dir.join(name);
        run_ok(&[
            "run",
            "inputs/3x4-random.csv",
            "-s",
            "fast=wastar:weight=2",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (a, b) = (run("a"), run("b"));
    // a's cases.csv without partition and lookup, and one path two steps longer.
    let (h, rows) = read_csv(&a.join("cases.csv"));
    let keep: Vec<usize> = (0..h.len())
        .filter(|&i| h[i] != "partition" && h[i] != "lookup")
        .collect();
    let mut w = csv::Writer::from_path(a.join("cases.csv")).unwrap();
    w.write_record(keep.iter().map(|&i| &h[i])).unwrap();
    let mut done = false;
    for r in &rows {
        let mut r = r.clone();
        if !done && r[col(&h, "status")] == "solved" {
            let s: i64 = r[col(&h, "steps")].parse().unwrap();
            r[col(&h, "steps")] = (s + 2).to_string();
            done = true;
        }
        w.write_record(keep.iter().map(|&i| &r[i])).unwrap();
    }
    w.flush().unwrap();
    let o = bin().arg("compare").arg(&a).arg(&b).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(!text.contains("is not the same configuration"), "{text}");
    assert!(text.contains("Correctness regressions"), "{text}");
    assert_eq!(o.status.code(), Some(1), "{text}");
}

/// `prune` (idastar's and dida's): `-s idastar --sweep prune=fsm,parent` on 3x3, 4x4 and
/// 5x5 boards gives the same lengths with either (checked against expected_steps and each
/// other), names the value in cases.csv's `prune` column (empty for a strategy that does not
/// read it), and leaving out duplicate sequences generates fewer nodes in all on each shape.
#[test]
fn prune_gives_the_same_answers_and_fsm_fewer_nodes() {
    let dir = temp_dir("configs-prune");
    let (small, wide) = (dir.join("3x3.csv"), dir.join("5x5.csv"));
    run_ok(&[
        "gen",
        "-n",
        "60",
        "--seed",
        "5",
        "-o",
        small.to_str().unwrap(),
    ]);
    run_ok(&[
        "gen",
        "--size",
        "5x5",
        "--walk",
        "40",
        "-n",
        "12",
        "--seed",
        "5",
        "-o",
        wide.to_str().unwrap(),
    ]);
    let out = dir.join("run");
    run_ok(&[
        "run",
        small.to_str().unwrap(),
        "inputs/4x4-shallow.csv",
        wide.to_str().unwrap(),
        "-s",
        "idastar",
        "-s",
        "astar",
        "--sweep",
        "prune=fsm,parent",
        "--check",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let c = |n: &str| col(&h, n);
    // input → prune value → (steps by line, generated in all)
    let mut by: BTreeMap<(String, String), (BTreeMap<String, String>, u64)> = BTreeMap::new();
    for r in &rows {
        let (strategy, prune) = (&r[c("strategy")], &r[c("prune")]);
        if r[c("algorithm")] == "astar" {
            assert_eq!(prune, "", "astar reads no prune: {r:?}");
            continue;
        }
        assert!(strategy.starts_with("idastar"), "{r:?}");
        assert!(
            ["solved", "unsolvable"].contains(&r[c("status")].as_str()),
            "{r:?}"
        );
        let e = by
            .entry((r[c("input")].clone(), prune.clone()))
            .or_default();
        e.0.insert(r[c("line")].clone(), r[c("steps")].clone());
        e.1 += r[c("generated")].parse::<u64>().unwrap();
    }
    let inputs: Vec<&String> = by.keys().map(|k| &k.0).collect();
    assert_eq!(inputs.len(), 6, "three inputs, two values: {inputs:?}");
    for input in [
        small.to_str().unwrap(),
        "inputs/4x4-shallow.csv",
        wide.to_str().unwrap(),
    ] {
        let fsm = &by[&(input.to_string(), "fsm".to_string())];
        let parent = &by[&(input.to_string(), "parent".to_string())];
        assert_eq!(fsm.0, parent.0, "{input}: the lengths differ");
        assert!(
            fsm.1 < parent.1,
            "{input}: fsm {} nodes, parent {}",
            fsm.1,
            parent.1
        );
    }
}
