//! `tilebench run` end to end: files written, row counts, checks, bad input, determinism.

use crate::common::*;

const STRATEGIES: usize = 8;

#[test]
fn writes_every_file_with_one_row_per_case_and_strategy() {
    let out = temp_dir("run-files");
    let o = out.to_str().unwrap();
    let res = bin()
        .args(["run", "inputs/malformed.csv", "--out", o, "--paths"])
        .output()
        .unwrap();
    // Invalid rows make the run exit 2, after writing everything.
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    for f in [
        "cases.csv",
        "summary.csv",
        "run.json",
        "latency.hlog",
        "latency-astar.hgrm",
        "latency-bfs-rank.hgrm",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let data_rows = std::fs::read_to_string("inputs/malformed.csv")
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count()
        - 1;
    assert_eq!(rows.len(), data_rows * STRATEGIES);
    let status = col(&h, "status");
    let invalid = rows.iter().filter(|r| r[status] == "invalid").count();
    assert_eq!(invalid, 8 * STRATEGIES);
    // Invalid rows name file and line in their message; good rows are solved.
    let (line, msg) = (col(&h, "line"), col(&h, "message"));
    for r in &rows {
        if r[status] == "invalid" {
            let at = format!("inputs/malformed.csv:{}:", r[line]);
            assert!(r[msg].starts_with(&at), "{:?}", r);
        } else {
            assert_eq!(r[status], "solved");
        }
    }
    let (sh, srows) = read_csv(&out.join("summary.csv"));
    assert_eq!(srows.len(), STRATEGIES);
    for s in &srows {
        assert_eq!(s[col(&sh, "invalid")], "8");
        assert_eq!(s[col(&sh, "solved")], "2");
        // Numbers as a person would write them: no float artefacts like 0.0009559999999999999
        // (times are whole microseconds, the rest rounded to 3 decimals).
        for v in s {
            if let Some((_, decimals)) = v.split_once('.') {
                assert!(decimals.len() <= 6, "{v} in {s:?}");
            }
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["inputs"][0]["rows"], 10);
    assert_eq!(json["strategies"].as_array().unwrap().len(), STRATEGIES);
    let stderr = stderr(&res);
    assert!(stderr.contains("inputs/malformed.csv:7: start: cell 8: tile 7 appears more than once"));
}

#[test]
fn check_passes_on_a_dataset_with_known_answers() {
    let out = temp_dir("run-check-ok");
    let res = bin()
        .args(["run", "inputs/per-depth.csv", "--check", "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
}

#[test]
fn check_catches_a_wrong_expected_steps() {
    let dir = temp_dir("run-check-bad");
    let data = dir.join("wrong.csv");
    std::fs::write(
        &data,
        "id,start,expected_steps\nright,2 3 4 1 5 x 7 6 8,19\nwrong,1 2 3 x 4 6 7 5 8,5\n",
    )
    .unwrap();
    let res = bin()
        .args(["run", "-s", "astar,bfs-hash", "--check", "-q", "--out"])
        .arg(dir.join("out"))
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(1), "{}", stderr(&res));
    let err = stderr(&res);
    assert!(
        err.contains("wrong.csv:3 (id wrong): astar: answered 3 steps, expected 5 steps"),
        "{err}"
    );
    assert!(!err.contains("(id right)"), "{err}");
}

/// `run` with `args`, into `out` (overwritten).
fn run_into(out: &std::path::Path, args: &[&str]) -> std::process::Output {
    bin()
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--force")
        .output()
        .unwrap()
}

#[test]
fn check_fails_on_limit_rows_and_names_them() {
    let out = temp_dir("run-check-limit");
    let base = [
        "inputs/per-depth.csv",
        "-s",
        "astar",
        "--max-nodes",
        "5",
        "-q",
        "--check",
    ];
    let res = run_into(&out, &base);
    assert_eq!(res.status.code(), Some(1), "{}", stderr(&res));
    let err = stderr(&res);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let (status, line, id) = (col(&h, "status"), col(&h, "line"), col(&h, "id"));
    let limits: Vec<&Vec<String>> = rows.iter().filter(|r| r[status] == "limit").collect();
    let solved = rows.len() - limits.len();
    assert!(
        limits.len() > 50 && solved > 5,
        "{} limit rows",
        limits.len()
    );
    assert!(
        err.contains(&format!(
            "check: astar: {solved} verified ({solved} expected_steps), 0 wrong, {} unverified \
             ({} limit)",
            limits.len(),
            limits.len()
        )),
        "{err}"
    );
    // The first limit rows are named, with the budget that ran out; the rest counted.
    for r in &limits[..5] {
        let named = format!(
            "check failed: inputs/per-depth.csv:{} (id {}): astar: no answer within --max-nodes \
             5 (expanded: 5)",
            r[line], r[id]
        );
        assert!(err.contains(&named), "{named}: {err}");
    }
    assert!(
        !err.contains(&format!("(id {}): astar", limits[5][id])),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "astar: … and {} more limit rows",
            limits.len() - 5
        )),
        "{err}"
    );
    assert!(err.contains("check: failed: 0 wrong and"), "{err}");
    assert!(!err.contains("check: passed"), "{err}");

    // --allow-limit accepts the limit rows it names, and not one more.
    let n = limits.len().to_string();
    let fewer = (limits.len() - 1).to_string();
    for (allow, code) in [
        (&n[..], 0),
        ("all", 0),
        ("astar=all", 0),
        (&fewer[..], 1),
        ("idastar=all", 1),
    ] {
        let res = run_into(&out, &[&base[..], &["--allow-limit", allow]].concat());
        assert_eq!(res.status.code(), Some(code), "{allow}: {}", stderr(&res));
        let err = stderr(&res);
        if code == 0 {
            assert!(
                err.contains(&format!(
                    "check: passed: {solved} of {} rows verified ({solved} expected_steps); \
                     the other {n} are limit rows accepted by --allow-limit",
                    rows.len()
                )),
                "{allow}: {err}"
            );
        } else {
            assert!(err.contains("check failed: "), "{allow}: {err}");
        }
    }
    // Without --check, or naming no solver tilebench knows, it is a usage error.
    let res = run_into(&out, &["inputs/seeds.csv", "-q", "--allow-limit", "3"]);
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    assert!(stderr(&res).contains("--check"), "{}", stderr(&res));
    let res = run_into(&out, &[&base[..], &["--allow-limit", "nosuch=3"]].concat());
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    assert!(
        stderr(&res).contains("`nosuch` is neither a built-in strategy"),
        "{}",
        stderr(&res)
    );
}

#[test]
fn without_expected_steps_a_lone_strategy_is_unconfirmed_and_two_agree() {
    let dir = temp_dir("run-check-lone");
    let data = dir.join("bare.csv");
    std::fs::write(
        &data,
        "id,start\nb,2 3 4 1 5 x 7 6 8\nc,1 2 3 x 4 6 7 5 8\nu,2 1 3 4 5 6 7 8 x\n",
    )
    .unwrap();
    let data = data.to_str().unwrap();
    let out = dir.join("out");
    let res = run_into(&out, &[data, "-s", "astar", "-q", "--check"]);
    assert_eq!(res.status.code(), Some(1), "{}", stderr(&res));
    let err = stderr(&res);
    assert!(
        err.contains(
            "bare.csv:2 (id b): astar: 19 steps not confirmed: the row has no expected_steps, \
             and no other optimal strategy answered it"
        ),
        "{err}"
    );
    // The unsolvable pair is confirmed by the parity test, whoever answers it.
    assert!(
        err.contains("check: astar: 1 verified (1 parity), 0 wrong, 2 unverified (2 unconfirmed)"),
        "{err}"
    );
    let res = run_into(&out, &[data, "-s", "astar,bibfs", "-q", "--check"]);
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    assert!(
        stderr(&res)
            .contains("check: passed: all 6 answered rows verified (2 parity, 4 agreement)"),
        "{}",
        stderr(&res)
    );
}

/// `--check` over a dataset with an invalid row: the answered rows are verified, the last
/// line says the invalid row had no answer to check, and the run exits 2 (a bad row), not 0.
#[test]
fn check_says_which_rows_it_could_not_check() {
    let dir = temp_dir("run-check-invalid");
    let data = dir.join("data.csv");
    std::fs::write(
        &data,
        "id,start,goal,expected_steps\na,2 3 4 1 5 x 7 6 8,,19\nb,1 2 3 4 5 6 7 8 9,,\n",
    )
    .unwrap();
    let out = dir.join("out");
    let res = run_into(
        &out,
        &[data.to_str().unwrap(), "-s", "astar", "-q", "--check"],
    );
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "check: passed: all 1 answered rows verified (1 expected_steps); 1 invalid row(s) \
             of the dataset had no answer to check (named above)"
        ),
        "{err}"
    );
    assert!(err.contains("data.csv:3: start: cell 9"), "{err}");
}

#[test]
fn refuses_to_overwrite_a_run_without_force() {
    let out = temp_dir("run-force");
    let args = |force: bool| {
        let mut a = vec!["run", "-q", "-s", "astar", "--out", out.to_str().unwrap()];
        if force {
            a.push("--force");
        }
        bin().args(a).output().unwrap()
    };
    assert!(args(false).status.success());
    let again = args(false);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    assert!(args(true).status.success());
}

/// cases.csv's rows with the timing columns blanked.
fn without_timing(path: &std::path::Path) -> Vec<Vec<String>> {
    without(path, &TIMING).1
}

#[test]
fn thread_count_does_not_change_results_or_order() {
    let a = temp_dir("run-t1");
    let b = temp_dir("run-t2");
    for (dir, t) in [(&a, "1"), (&b, "2")] {
        run_ok(&[
            "run",
            "inputs/per-depth.csv",
            "-q",
            "--paths",
            "--threads",
            t,
            "--out",
            dir.to_str().unwrap(),
        ]);
    }
    let ra = without_timing(&a.join("cases.csv"));
    let rb = without_timing(&b.join("cases.csv"));
    assert_eq!(ra.len(), 96 * STRATEGIES);
    assert_eq!(ra, rb);
}

/// A run of more cases than the final pass reads and formats at once (several windows of
/// chunks), with three solvers (a number that does not divide a chunk's rows): every row is
/// in its place, input order then solver order, with its own solver's cells beside it, and
/// the three solvers agree with each other and with the dataset's `expected_steps` on every
/// case.
#[test]
fn a_long_run_with_three_solvers_writes_each_row_in_its_place() {
    let dir = temp_dir("run-long");
    let data = dir.join("long.csv");
    let n = 40_000;
    run_ok(&[
        "gen",
        "-n",
        &n.to_string(),
        "--walk",
        "6",
        "--seed",
        "3",
        "-o",
        data.to_str().unwrap(),
    ]);
    let out = dir.join("out");
    let solvers = ["table", "astar", "idastar"];
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        &solvers.join(","),
        "-q",
        "--check",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("cases.csv"));
    assert_eq!(rows.len(), n * solvers.len());
    let at = |name: &str| col(&h, name);
    let (line, strategy, algorithm, claim) =
        (at("line"), at("strategy"), at("algorithm"), at("claim"));
    let (steps, expected, status) = (at("steps"), at("expected_steps"), at("status"));
    let mut lines = Vec::new();
    for (case, group) in rows.chunks(solvers.len()).enumerate() {
        for (row, name) in group.iter().zip(solvers) {
            assert_eq!(row[strategy], name, "case {case}");
            assert_eq!(row[algorithm], name, "case {case}");
            assert_eq!(row[claim], "optimal", "case {case}");
            assert_eq!(row[line], group[0][line], "case {case}");
            assert_eq!(row[status], "solved", "case {case}: {row:?}");
            assert_eq!(row[steps], group[0][steps], "case {case}");
            assert_eq!(row[steps], row[expected], "case {case}");
        }
        lines.push(group[0][line].parse::<usize>().unwrap());
    }
    // Each case once, in input order.
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "rows out of order");
    let (sh, summary) = read_csv(&out.join("summary.csv"));
    for (r, name) in summary.iter().zip(solvers) {
        assert_eq!(r[col(&sh, "strategy")], name);
        assert_eq!(r[col(&sh, "solved")], n.to_string());
    }
}

#[test]
fn hgrm_percentiles_match_summary() {
    let out = temp_dir("run-hgrm");
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("summary.csv"));
    for r in rows {
        let strategy = &r[col(&h, "strategy")];
        let text = std::fs::read_to_string(out.join(format!("latency-{strategy}.hgrm"))).unwrap();
        // The value on the percentile line for q.
        let at = |q: f64| -> f64 {
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .skip(1)
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .find(|f| (f[1].parse::<f64>().unwrap() - q).abs() < 1e-9)
                .map(|f| f[0].parse().unwrap())
                .unwrap_or_else(|| panic!("no {q} line in {strategy}.hgrm"))
        };
        let p50: f64 = r[col(&h, "latency_p50_us")].parse().unwrap();
        let p90: f64 = r[col(&h, "latency_p90_us")].parse().unwrap();
        let max: f64 = r[col(&h, "latency_max_us")].parse().unwrap();
        assert!(
            (at(0.5) - p50).abs() < 0.0015,
            "{strategy} p50 {} vs {p50}",
            at(0.5)
        );
        assert!(
            (at(0.9) - p90).abs() < 0.0015,
            "{strategy} p90 {} vs {p90}",
            at(0.9)
        );
        assert!(
            (at(1.0) - max).abs() < 0.0015,
            "{strategy} max {} vs {max}",
            at(1.0)
        );
        let total: u64 = text
            .lines()
            .find(|l| l.contains("Total count"))
            .and_then(|l| l.split('=').nth(2))
            .map(|v| v.trim().trim_end_matches(']').trim().parse().unwrap())
            .unwrap();
        assert_eq!(total, 96);
    }
}

#[test]
fn unreadable_files_are_clear_errors_before_solving() {
    let dir = temp_dir("run-unreadable");
    let nostart = dir.join("nostart.csv");
    std::fs::write(&nostart, "id,board\n1,1 2 3 4 5 6 7 8 x\n").unwrap();
    let latin1 = dir.join("latin1.csv");
    std::fs::write(&latin1, b"id,start\n1,1 2 3 4 5 6 7 8 x\n2,caf\xe9\n").unwrap();
    // Excel's CSV where the decimal mark is a comma: `;` between the columns, CRLF, a BOM.
    let excel = dir.join("excel.csv");
    std::fs::write(
        &excel,
        "\u{feff}id;start;expected_steps\r\n1;1 2 3 4 5 6 7 8 x;1\r\n",
    )
    .unwrap();
    let cases: [(&std::path::Path, &str); 4] = [
        (&nostart, "no `start` column"),
        (&excel, "separated by `;`"),
        (&latin1, "latin1.csv:3: not valid UTF-8"),
        (
            std::path::Path::new("inputs/does-not-exist.csv"),
            "no such file",
        ),
    ];
    for (path, needle) in cases {
        let out = dir.join("out");
        let res = bin()
            .arg("run")
            .arg(path)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(2));
        assert!(stderr(&res).contains(needle), "{}", stderr(&res));
        assert!(!out.join("cases.csv").exists(), "nothing is solved");
    }
}

/// A pattern-database partition that cannot serve the file's boards is one error before
/// any solving, not an error row per case.
#[test]
fn a_partition_that_does_not_fit_is_refused_before_solving() {
    let dir = temp_dir("run-bad-partition");
    for (partition, needle) in [
        ("9-6", "a group of 9 tiles on a 4x4 board"),
        (
            "6-6",
            "partition 6-6 covers 12 tiles, but a 4x4 board has 15",
        ),
    ] {
        let out = dir.join(partition);
        let res = bin()
            .args([
                "run",
                "inputs/korf100.csv",
                "-s",
                "idastar",
                "--heuristic",
                "pdb",
            ])
            .args(["--pdb-partition", partition, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
        let err = stderr(&res);
        assert!(
            err.contains("--pdb-partition: ") && err.contains(needle),
            "{err}"
        );
        assert!(!out.join("cases.csv").exists(), "nothing is solved");
    }
}

#[test]
fn markdown_and_dashboard_exports() {
    let out = temp_dir("run-exports");
    let md = out.join("summary.md");
    let bmf = out.join("bmf.json");
    let gab = out.join("gab.json");
    run_ok(&[
        "run",
        "-q",
        "--out",
        out.join("run").to_str().unwrap(),
        "--export-markdown",
        md.to_str().unwrap(),
        "--export-bmf",
        bmf.to_str().unwrap(),
        "--export-github-benchmark",
        gab.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(md).unwrap();
    // A verdict line (every built-in is right on the samples), then the table.
    let (verdict, table) = md.split_once("\n\n").unwrap();
    assert!(
        verdict.starts_with("✅ **tilebench run**: every check passed"),
        "{verdict}"
    );
    assert!(table.starts_with("| strategy |"));
    assert_eq!(table.lines().count(), 2 + STRATEGIES);
    let bmf: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bmf).unwrap()).unwrap();
    // No input: the built-in samples, `seeds`.
    assert!(
        bmf["tilebench/seeds/astar"]["latency"]["value"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    let gab: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(gab).unwrap()).unwrap();
    let entries = gab.as_array().unwrap();
    assert_eq!(entries.len(), 2 * STRATEGIES);
    assert!(entries
        .iter()
        .all(|e| e["name"].is_string() && e["unit"].is_string() && e["value"].is_number()));
    assert_eq!(entries[0]["name"], "tilebench/seeds/bfs-set p50 latency");
}

#[test]
fn stdin_dataset_and_size_option() {
    let out = temp_dir("run-stdin");
    let res = with_stdin(
        &[
            "run",
            "-",
            "-q",
            "-s",
            "astar,bfs-rank",
            "--size",
            "2x3",
            "--check",
            "--out",
            out.to_str().unwrap(),
        ],
        "start,goal\n1 2 3 4 5 x,1 2 3 4 5 x\nx 1 2 3 4 5,1 2 3 4 5 x\n",
    );
    assert!(res.status.success(), "{}", stderr(&res));
    let (h, rows) = read_csv(&out.join("cases.csv"));
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r[col(&h, "input")] == "-"));
}

/// cases.csv's rows as column → value maps.
fn row_maps(out: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let (h, rows) = read_csv(&out.join("cases.csv"));
    rows.into_iter()
        .map(|r| h.iter().cloned().zip(r).collect())
        .collect()
}

fn count(r: &std::collections::HashMap<String, String>, c: &str) -> u64 {
    r[c].parse()
        .unwrap_or_else(|_| panic!("{c} is not a number: {r:?}"))
}

#[test]
fn budgets_make_limit_rows_with_the_counters_so_far() {
    let dir = temp_dir("run-budgets");
    let data = dir.join("deep.csv");
    std::fs::write(
        &data,
        "id,start,expected_steps\ndeep,8 6 7 2 5 4 3 x 1,31\n",
    )
    .unwrap();
    let data = data.to_str().unwrap();
    let out = dir.join("out");
    // (option, value, strategies it does not apply to: a lookup, a search that stores
    // only its path)
    let budgets = [
        ("--max-nodes", "100", &["table"][..]),
        ("--max-states", "500", &["table", "idastar"][..]),
    ];
    // The optimal strategies (`-s` by default); wastar and greedy are searches of astar's,
    // whose budgets tests/solvers.rs covers.
    let optimal: Vec<&str> = tilebench::search::registry::defaults()
        .iter()
        .map(|b| b.name)
        .collect();
    let optimal = optimal.join(",");
    for (option, value, exempt) in budgets {
        let res = run_into(
            &out,
            &[data, "-s", &optimal, "-q", "--check", option, value],
        );
        assert_eq!(res.status.code(), Some(1), "{option}: {}", stderr(&res));
        let err = stderr(&res);
        let rows = row_maps(&out);
        assert_eq!(rows.len(), STRATEGIES);
        for r in &rows {
            let s = r["strategy"].as_str();
            if exempt.contains(&s) {
                assert_eq!(
                    (r["status"].as_str(), r["steps"].as_str()),
                    ("solved", "31"),
                    "{r:?}"
                );
                continue;
            }
            assert_eq!(r["status"], "limit", "{option}: {r:?}");
            assert_eq!(r["steps"], "", "{r:?}");
            let (expanded, stored) = (count(r, "expanded"), count(r, "stored"));
            assert!(count(r, "generated") >= expanded && expanded > 0, "{r:?}");
            let named = if option == "--max-nodes" {
                assert_eq!(expanded, 100, "{r:?}");
                format!(
                    "deep.csv:2 (id deep): {s}: no answer within --max-nodes 100 (expanded: 100)"
                )
            } else {
                assert!((500..=504).contains(&stored), "{r:?}");
                format!("deep.csv:2 (id deep): {s}: no answer within --max-states 500 (stored: {stored}")
            };
            assert!(err.contains(&named), "{named}: {err}");
        }
    }
}

#[test]
fn a_timeout_makes_limit_rows_with_the_counters_so_far() {
    use tilebench::search::{registry, Config};
    let dir = temp_dir("run-timeout");
    // Pairs no strategy solves in 20 ms: Korf's instance 1 on 4x4, and a 34-move 3x4 pair
    // for the strategies that take at most 12 cells. `table` looks answers up: no budget.
    let files = [
        (
            "4x4",
            "id,start,goal\nkorf1,14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
        ),
        (
            "3x4",
            "id,size,start\nr8,3x4,6 8 11 4 3 x 1 7 9 2 5 10\n",
        ),
    ];
    // table has no budget; wastar and greedy, not bound to shortest paths, answer these pairs
    // well within the timeout (their node budgets are tested in tests/solvers.rs).
    let mut covered = vec!["table", "wastar", "greedy"];
    for (shape, text) in files {
        let s: tilebench::puzzle::Shape = shape.parse().unwrap();
        let names: Vec<&str> = registry::all()
            .iter()
            .filter(|b| !covered.contains(&b.name))
            .filter(|b| b.build(&Config::default()).supports(s).is_ok())
            .map(|b| b.name)
            .collect();
        covered.extend(&names);
        let data = dir.join(format!("{shape}.csv"));
        std::fs::write(&data, text).unwrap();
        let out = dir.join(shape);
        let list = names.join(",");
        // The state guard is there should the timeout be ignored.
        let res = run_into(
            &out,
            &[
                data.to_str().unwrap(),
                "-s",
                &list,
                "-q",
                "--timeout",
                "0.02",
                "--max-states",
                "3000000",
            ],
        );
        assert_eq!(res.status.code(), Some(0), "{shape}: {}", stderr(&res));
        for r in row_maps(&out) {
            assert_eq!(r["status"], "limit", "{r:?}");
            assert!(
                count(&r, "expanded") > 0 && count(&r, "generated") > 0,
                "{r:?}"
            );
            assert!(
                count(&r, "stored") < 3_000_000,
                "the state guard stopped it: {r:?}"
            );
            assert!(count(&r, "latency_ns") >= 20_000_000, "{r:?}");
        }
    }
    let mut all = registry::names();
    all.sort_unstable();
    covered.sort_unstable();
    assert_eq!(covered, all, "every strategy is covered");
}

/// A build whose `astar` does more work for the same answers: the Manhattan distance halved
/// (still admissible and consistent, so its paths stay shortest), as a broken incremental
/// update or a lost tie-break would. It is the registry's entry under the same name, so its
/// rows are `astar`'s rows to the regression check.
mod weaker {
    use tilebench::puzzle::Board;
    use tilebench::search::heuristic::{Heuristic, Manhattan};
    use tilebench::search::{registry, Builtin, Outcome, Problem, SolveOptions};

    struct Half(Manhattan);

    impl Heuristic for Half {
        type Memo = ();
        fn estimate(&self, b: &Board) -> u32 {
            self.0.estimate(b) / 2
        }
        fn update(&self, _: u32, after: &Board, _: u8, _: usize, _: usize) -> u32 {
            self.estimate(after)
        }
        fn start(&self, b: &Board) -> (u32, ()) {
            (self.estimate(b), ())
        }
        fn step(&self, _: u32, _: &(), after: &Board, _: u8, _: usize, _: usize) -> (u32, ()) {
            (self.estimate(after), ())
        }
    }

    fn search(p: &Problem, opts: &SolveOptions) -> Outcome {
        tilebench::search::astar::solve(p, opts, &Half(Manhattan::new(&p.goal)))
    }

    pub static ASTAR: Builtin = Builtin {
        name: "astar",
        describe: "astar with half the Manhattan distance (a test's deliberately worse build)",
        // It reads the heuristic as astar does (and halves it), so its rows say `manhattan`
        // as the baseline's do: the difference is the code's, not a setting's.
        options: &[&tilebench::search::heuristic::HEURISTIC],
        make: tilebench::search::registry::Make::Plain {
            search,
            supports: registry::packed_shape,
        },
    };
}

/// scripts/regression-check.sh's gate, end to end: `run inputs/ci.csv --paths --check`, then
/// `compare results/baselines/ci` on it. A build with a worse astar passes --check (its answers
/// are right) and fails the comparison, on astar alone.
#[test]
fn a_build_whose_astar_does_more_work_fails_the_regression_comparison() {
    use tilebench::prelude::*;
    use tilebench::search::registry;
    let dir = temp_dir("run-regression-gate");
    let baseline = "results/baselines/ci";
    let run_with = |name: &str, strategies: Vec<&'static tilebench::search::Builtin>| {
        let plan = strategies
            .into_iter()
            .fold(RunPlan::new(vec!["inputs/ci.csv".into()]), RunPlan::with)
            .with_paths(true)
            .with_out(dir.join(name))
            .with_mode(OutMode::Force);
        let run = run(plan).unwrap();
        let verdict = run.verdict(Some(&tilebench::check::AllowLimit::default()));
        assert!(
            !verdict.check_failed && !verdict.bad_rows,
            "{:?}",
            verdict.lines
        );
        run.dir.path().to_path_buf()
    };
    let compare = |current: &std::path::Path| {
        let o = bin()
            .args(["compare", baseline])
            .arg(current)
            .args(["--show", "10"])
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string() + &stderr(&o),
        )
    };
    // The control: this build's own astar, run the same way, matches the baseline's rows.
    let own = run_with("own-astar", vec![registry::find("astar").unwrap()]);
    let o = bin()
        .arg("compare")
        .arg(&own)
        .arg(baseline)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("no regression (300 rows matched"), "{text}");

    // The strategies the baseline has: the optimal ones (wastar and greedy are not in it).
    let all: Vec<_> = registry::defaults()
        .into_iter()
        .map(|b| if b.name == "astar" { &weaker::ASTAR } else { b })
        .collect();
    let worse = run_with("worse", all);
    let (code, text) = compare(&worse);
    assert_eq!(code, Some(1), "{text}");
    let regressed: Vec<&str> = text.lines().filter(|l| l.ends_with("regressed")).collect();
    assert!(
        regressed
            .iter()
            .any(|l| l.starts_with("astar") && l.contains("expanded (total)")),
        "{text}"
    );
    assert!(regressed.iter().all(|l| l.starts_with("astar")), "{text}");
    for b in registry::defaults().iter().filter(|b| b.name != "astar") {
        let line = text
            .lines()
            .find(|l| l.starts_with(b.name) && l.contains("expanded (total)"))
            .unwrap_or_else(|| panic!("no line for {}: {text}", b.name));
        assert!(line.ends_with("unchanged"), "{line}");
    }
}

#[test]
fn verify_replays_the_paths_of_boards_that_are_not_square() {
    // A 12-cell board may be 3x4 or 4x3: cases.csv's `size` says which, and verify replays
    // every path on it (it refused every row of a 3x4 run as "not a square board").
    let dir = temp_dir("run-verify-3x4");
    let out = dir.join("r");
    let res = bin()
        .args([
            "run",
            "inputs/3x4-random.csv",
            "-s",
            "astar,idastar",
            "--paths",
            "-q",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    let rows = tilebench::results::cases_csv::read(&out.join("cases.csv")).unwrap();
    assert!(rows.iter().all(|r| r.size == "3x4"), "every row says 3x4");
    let res = bin().arg("verify").arg(&out).output().unwrap();
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    assert!(stderr(&res).contains("100 rows"), "{}", stderr(&res));
}
