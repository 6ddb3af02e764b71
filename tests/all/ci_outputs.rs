//! What CI reads from a run: the JUnit export of `--check`, the settings read back from
//! run.json and their differences, and dashboard names that do not collide.

use crate::common::{bin, col, read_csv, run_ok, stderr, temp_dir};
use std::path::Path;
use tilebench::report::settings::{diff, Counter, Setting, Settings};

/// A small dataset of 3x3 boards with exact answers (the first rows of inputs/ci.csv).
fn small_dataset(dir: &Path, name: &str) -> String {
    let text = std::fs::read_to_string("inputs/ci.csv").unwrap();
    let rows: Vec<&str> = text.lines().take(41).collect();
    let path = dir.join(name);
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

fn attr<'a>(n: roxmltree::Node<'a, '_>, a: &str) -> &'a str {
    n.attribute(a)
        .unwrap_or_else(|| panic!("<{}> has no {a}", n.tag_name().name()))
}

#[test]
fn junit_has_a_test_case_per_solver_and_check_and_a_failure_per_failing_check() {
    let dir = temp_dir("junit");
    // Standard goals, which a `moves` program solves towards.
    let text = std::fs::read_to_string("inputs/per-depth.csv").unwrap();
    let rows: Vec<&str> = text.lines().take(41).collect();
    let data = dir.join("small.csv");
    std::fs::write(&data, rows.join("\n") + "\n").unwrap();
    let data = data.to_str().unwrap().to_string();
    let xml_path = dir.join("check.xml");
    let lazy = "lazy=python3 tests/solvers/toy_solver.py --fault suboptimal";
    let out = bin()
        .args([
            "run",
            &data,
            "-s",
            "astar,wastar",
            "--weight",
            "3",
            "--solver",
            lazy,
            "--check",
            "-q",
        ])
        .args(["--out", dir.join("run").to_str().unwrap()])
        .args(["--export", &format!("junit={}", xml_path.display())])
        .output()
        .unwrap();
    // lazy's paths are two moves too long, and it claims shortest paths: --check fails, and
    // the export is written anyway. wastar's paths, within its weight, pass.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let xml = std::fs::read_to_string(&xml_path).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));

    // Independent truth: cases.csv's optimal column.
    let (h, rows) = read_csv(&dir.join("run/cases.csv"));
    let (strategy, optimal) = (col(&h, "strategy"), col(&h, "optimal"));
    let not_optimal = |s: &str| {
        rows.iter()
            .filter(|r| r[strategy] == s && r[optimal] == "false")
            .count()
    };
    assert_eq!(not_optimal("astar"), 0);
    let wastar_wrong = not_optimal("lazy");
    assert!(wastar_wrong > 0, "the test needs a non-optimal path");

    let checks = [
        "replay",
        "expected_steps",
        "parity",
        "agreement",
        "optimal",
        "limit",
        "error",
    ];
    for solver in ["astar", "wastar", "lazy"] {
        let suite = doc
            .descendants()
            .find(|n| n.has_tag_name("testsuite") && n.attribute("name") == Some(solver))
            .unwrap_or_else(|| panic!("no suite for {solver}\n{xml}"));
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let names: Vec<&str> = cases.iter().map(|c| attr(*c, "name")).collect();
        assert_eq!(names, checks, "{solver}");
        assert!(cases.iter().all(|c| attr(*c, "classname") == solver));
        assert_eq!(attr(suite, "tests"), checks.len().to_string());
        let failures: Vec<_> = suite
            .descendants()
            .filter(|n| n.has_tag_name("failure"))
            .collect();
        assert_eq!(attr(suite, "failures"), failures.len().to_string());
        if solver != "lazy" {
            assert!(failures.is_empty(), "{xml}");
            continue;
        }
        assert_eq!(failures.len(), 1, "{xml}");
        let case = failures[0].parent().unwrap();
        assert_eq!(attr(case, "name"), "optimal");
        let message = attr(failures[0], "message");
        assert!(
            message.contains(&format!("{wastar_wrong} wrong (not optimal)")),
            "{message}"
        );
        // The body names the rows, as the check's lines do.
        let body = failures[0].text().unwrap();
        assert!(
            body.contains("small.csv:") && body.contains("not optimal"),
            "{body}"
        );
    }
    let root = doc.root_element();
    assert_eq!(attr(root, "failures"), "1");
}

#[test]
fn junit_limit_rows_fail_unless_allowed() {
    let dir = temp_dir("junit-limit");
    let data = small_dataset(&dir, "small.csv");
    let limit_case = |allow: &[&str]| {
        let xml = dir.join("limit.xml");
        let out = bin()
            .args([
                "run",
                &data,
                "-s",
                "bfs-rank",
                "--max-nodes",
                "5",
                "--check",
                "-q",
            ])
            .args(["--force", "--out", dir.join("run").to_str().unwrap()])
            .args(["--export", &format!("junit={}", xml.display())])
            .args(allow)
            .output()
            .unwrap();
        let text = std::fs::read_to_string(xml).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let case = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("limit"))
            .unwrap();
        let failed = case.children().any(|n| n.has_tag_name("failure"));
        (out.status.code(), failed)
    };
    assert_eq!(limit_case(&[]), (Some(1), true));
    let (code, failed) = limit_case(&["--allow-limit", "bfs-rank=all"]);
    assert!(!failed);
    // The exit code and the JUnit agree.
    assert_eq!(code, Some(0));
}

#[test]
fn settings_of_real_runs_differ_by_the_heuristic_only() {
    let dir = temp_dir("settings");
    let data = small_dataset(&dir, "small.csv");
    let run = |name: &str, heuristic: &str| {
        let out = dir.join(name);
        run_ok(&[
            "run",
            &data,
            "-s",
            "astar,bfs-rank",
            "-j",
            "1",
            "-q",
            "--heuristic",
            heuristic,
            "--out",
            out.to_str().unwrap(),
        ]);
        Settings::load(&out).unwrap()
    };
    let base = run("base", "linear-conflict");
    let cur = run("cur", "manhattan");
    assert_eq!(base.get(&Setting::Threads), Some("1"));
    assert_eq!(base.get(&Setting::Heuristic), Some("linear-conflict"));
    assert_eq!(
        base.strategies.as_deref(),
        Some(&["astar".to_string(), "bfs-rank".to_string()][..])
    );
    let changes = diff(&base, &cur);
    let names: Vec<String> = changes.iter().map(|c| c.setting.name()).collect();
    assert_eq!(names, ["heuristic"], "{changes:?}");
    assert!(changes[0].affects("astar", Counter::Expanded));
    assert!(!changes[0].affects("bfs-rank", Counter::Expanded));
    assert_eq!(diff(&cur, &cur), vec![]);
    // The committed baseline, written before run.json had a weight: no false change.
    let old = Settings::load(Path::new("results/baselines/ci")).unwrap();
    let against_old = diff(&old, &cur);
    assert!(
        against_old.iter().all(|c| c.setting != Setting::Weight),
        "{against_old:?}"
    );
    assert!(against_old.iter().any(|c| c.setting == Setting::Inputs));
}

#[test]
fn a_missing_run_json_is_named() {
    let dir = temp_dir("settings-missing");
    let e = Settings::load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("run.json") && e.contains("no such file") && !e.contains("os error"),
        "{e}"
    );
}

/// The benchmark names of a run's `bmf` and `github-benchmark` exports.
fn export_names(dir: &Path, name: &str, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let (bmf, gab) = (
        dir.join(format!("{name}.bmf")),
        dir.join(format!("{name}.gab")),
    );
    let mut all = vec!["run", "-q", "--out"];
    let out = dir.join(name);
    all.push(out.to_str().unwrap());
    let exports = [
        format!("bmf={}", bmf.display()),
        format!("github-benchmark={}", gab.display()),
    ];
    for e in &exports {
        all.extend(["--export", e]);
    }
    all.extend(args);
    run_ok(&all);
    let json = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let bmf = json(&bmf).as_object().unwrap().keys().cloned().collect();
    let gab = json(&gab)
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    (bmf, gab)
}

#[test]
fn export_names_differ_by_dataset_and_by_the_settings_a_solver_reads() {
    let dir = temp_dir("export-names");
    let a = small_dataset(&dir, "random-a.csv");
    let b = small_dataset(&dir, "random-b.csv");
    let s = ["-s", "astar,wastar,bfs-rank"];
    let (on_a, gab_a) = export_names(&dir, "a", &[&a, s[0], s[1]]);
    let mut sorted = on_a.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "tilebench/random-a/astar",
            "tilebench/random-a/bfs-rank",
            "tilebench/random-a/wastar"
        ]
    );
    assert!(gab_a.contains(&"tilebench/random-a/astar p50 latency".to_string()));
    assert!(gab_a.contains(&"tilebench/random-a/bfs-rank mean expanded".to_string()));
    let (on_b, _) = export_names(&dir, "b", &[&b, s[0], s[1]]);
    assert!(on_b.iter().all(|n| !on_a.contains(n)), "{on_a:?} {on_b:?}");
    let (both, _) = export_names(&dir, "ab", &[&a, &b, s[0], s[1]]);
    assert!(both.contains(&"tilebench/random-a+random-b/astar".to_string()));
    let (lc, gab_lc) = export_names(
        &dir,
        "lc",
        &[
            &a,
            s[0],
            s[1],
            "--heuristic",
            "linear-conflict",
            "--weight",
            "2",
        ],
    );
    let mut lc_sorted = lc.clone();
    lc_sorted.sort();
    assert_eq!(
        lc_sorted,
        [
            "tilebench/random-a/astar[heuristic=linear-conflict]",
            // bfs-rank reads neither: its series goes on under the same name.
            "tilebench/random-a/bfs-rank",
            "tilebench/random-a/wastar[heuristic=linear-conflict,weight=2]",
        ]
    );
    assert!(gab_lc.contains(
        &"tilebench/random-a/wastar[heuristic=linear-conflict,weight=2] p50 latency".into()
    ));
}

#[test]
fn junit_of_a_run_with_nothing_to_check_fails_and_skips_rather_than_passes() {
    let dir = temp_dir("junit-nothing");
    let data = dir.join("bad.csv");
    std::fs::write(&data, "id,start\r\n1,1 2 3 4 5 6 7 8 8\r\n").unwrap();
    let xml = dir.join("check.xml");
    let out = bin()
        .args([
            "run",
            data.to_str().unwrap(),
            "-s",
            "astar",
            "--check",
            "-q",
        ])
        .args(["--out", dir.join("run").to_str().unwrap()])
        .args(["--export", &format!("junit={}", xml.display())])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = std::fs::read_to_string(xml).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let case = |suite: &str, name: &str| {
        doc.descendants()
            .find(|n| {
                n.has_tag_name("testcase")
                    && n.attribute("classname") == Some(suite)
                    && n.attribute("name") == Some(name)
            })
            .unwrap_or_else(|| panic!("no {suite}/{name}\n{text}"))
    };
    let has = |n: roxmltree::Node, tag: &str| n.children().any(|c| c.has_tag_name(tag));
    assert!(has(case("dataset", "invalid rows"), "failure"));
    assert!(has(case("dataset", "rows checked"), "failure"));
    for check in ["replay", "expected_steps", "limit"] {
        assert!(has(case("astar", check), "skipped"), "{check}\n{text}");
    }
    let failure = case("dataset", "invalid rows")
        .children()
        .find(|c| c.has_tag_name("failure"))
        .unwrap();
    assert!(failure.text().unwrap().contains("bad.csv:2: "), "{text}");
}
