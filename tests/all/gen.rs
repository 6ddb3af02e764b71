//! `gen` and `space`: datasets with exact answers, deterministic per seed, as plain CSV (the
//! bundled datasets too), streamed.

use crate::common::*;
use std::path::Path;
use std::time::Duration;

#[test]
fn same_seed_same_dataset_other_seed_other_dataset() {
    let a = run_ok(&["gen", "--count", "50", "--seed", "9", "--goal", "random"]).stdout;
    let b = run_ok(&["gen", "--count", "50", "--seed", "9", "--goal", "random"]).stdout;
    let c = run_ok(&["gen", "--count", "50", "--seed", "10", "--goal", "random"]).stdout;
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn generated_answers_agree_with_every_strategy() {
    let dir = temp_dir("gen-check");
    let data = dir.join("d.csv");
    run_ok(&[
        "gen",
        "--count",
        "60",
        "--seed",
        "3",
        "--unsolvable",
        "0.25",
        "--goal",
        "random",
        "-o",
        data.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&data);
    let unsolvable = rows
        .iter()
        .filter(|r| r[col(&h, "expected_steps")] == "-1")
        .count();
    assert!(unsolvable > 5 && unsolvable < 30, "{unsolvable}");
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "--check",
        "-q",
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
}

#[test]
fn depth_gives_exactly_that_depth() {
    let dir = temp_dir("gen-depth");
    let data = dir.join("d.csv");
    run_ok(&[
        "gen",
        "--count",
        "20",
        "--depth",
        "24",
        "-o",
        data.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&data);
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|r| r[col(&h, "expected_steps")] == "24"));
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "astar,bfs-rank",
        "--check",
        "-q",
        "--out",
        dir.join("o").to_str().unwrap(),
    ]);
}

#[test]
fn per_depth_covers_every_depth_and_walks_are_checked() {
    let dir = temp_dir("gen-walk");
    let data = dir.join("w.csv");
    run_ok(&[
        "gen",
        "--count",
        "30",
        "--walk",
        "12",
        "--size",
        "2x3",
        "-o",
        data.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&data);
    assert!(rows.iter().all(|r| r[col(&h, "size")] == "2x3"));
    assert!(rows
        .iter()
        .all(|r| r[col(&h, "expected_steps")].parse::<i64>().unwrap() <= 12));
    run_ok(&[
        "run",
        data.to_str().unwrap(),
        "--check",
        "-q",
        "--out",
        dir.join("o").to_str().unwrap(),
    ]);

    let out = run_ok(&["gen", "--per-depth", "2", "--size", "2x2"]).stdout;
    let text = String::from_utf8(out).unwrap();
    // 2x2 from the standard goal: depths 0..=6, two pairs each.
    let depths: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(
        depths,
        ["0", "0", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6"]
    );
}

#[test]
fn space_census_of_3x3() {
    let out = run_ok(&["space"]);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let rows: Vec<Vec<u64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    // Known facts of the 8-puzzle: 9!/2 reachable states, diameter 31 with 2 states at 31.
    assert_eq!(rows.len(), 32);
    assert_eq!(rows.last().unwrap(), &vec![31, 2, 181_440]);
    assert_eq!(rows.iter().map(|r| r[1]).sum::<u64>(), 181_440);
    assert!(stderr(&out).contains("181440 reachable states"));
}

/// What Python's `csv` module, at its defaults, reads in each file: the first row (the
/// header), the number of rows after it, and the rows whose field count differs from the
/// header's (pandas, R and DuckDB refuse or misread those).
fn python_csv(files: &[&Path]) -> serde_json::Value {
    const SCRIPT: &str = r#"
import csv, json, sys
out = {}
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0] if rows else []
    ragged = [i + 1 for i, r in enumerate(rows) if len(r) != len(header)]
    out[path] = {"header": header, "rows": len(rows) - 1, "ragged": ragged}
print(json.dumps(out))
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Checks that `file` is plain CSV: its header on line 1 (no comment, no BOM), read by
/// Python's csv module with every row as wide as the header, as many rows as tilebench
/// reads.
fn assert_plain_csv(file: &Path, python: &serde_json::Value) {
    let text = std::fs::read_to_string(file).unwrap();
    let seen = &python[file.to_str().unwrap()];
    let header: Vec<&str> = seen["header"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let first_line = text.lines().next().unwrap_or("");
    assert_eq!(
        first_line,
        header.join(","),
        "{}: line 1 is not the header",
        file.display()
    );
    assert!(
        header.contains(&"id"),
        "{}: header {header:?}",
        file.display()
    );
    assert_eq!(seen["ragged"], serde_json::json!([]), "{}", file.display());
    assert!(
        !text.lines().any(|l| l.starts_with('#')),
        "{}: a comment line",
        file.display()
    );
    if header.contains(&"start") {
        let (info, _) =
            tilebench::dataset::parse_dataset("f", text.as_bytes(), &Default::default()).unwrap();
        assert_eq!(
            seen["rows"].as_u64(),
            Some(info.rows as u64),
            "{}",
            file.display()
        );
    }
}

/// The bundled datasets that are not plain CSV, on purpose (inputs/README.md says why).
const NOT_PLAIN: [&str; 1] = ["malformed.csv"];

#[test]
fn gen_output_and_every_bundled_dataset_are_plain_csv() {
    let dir = temp_dir("gen-plain");
    let square = dir.join("square.csv");
    let oblong = dir.join("oblong.csv");
    run_ok(&[
        "gen",
        "--count",
        "30",
        "--unsolvable",
        "0.2",
        "-o",
        square.to_str().unwrap(),
    ]);
    run_ok(&[
        "gen",
        "--size",
        "2x3",
        "--walk",
        "9",
        "--count",
        "30",
        "-o",
        oblong.to_str().unwrap(),
    ]);
    let stdout = dir.join("stdout.csv");
    std::fs::write(
        &stdout,
        run_ok(&["gen", "--count", "30", "--unsolvable", "0.2"]).stdout,
    )
    .unwrap();
    let mut files = vec![square.clone(), oblong, stdout.clone()];
    let readme = std::fs::read_to_string("inputs/README.md").unwrap();
    for e in std::fs::read_dir("inputs").unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".csv") {
            continue;
        }
        assert!(
            readme.contains(&format!("`{name}`")),
            "inputs/README.md does not list {name}"
        );
        if NOT_PLAIN.contains(&name.as_str()) {
            assert!(
                readme.contains(&format!("`{name}` is not plain CSV")),
                "inputs/README.md must say why {name} is not plain CSV"
            );
        } else {
            files.push(p);
        }
    }
    assert!(files.len() >= 3 + 8, "{files:?}");
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let python = python_csv(&paths);
    for f in &files {
        assert_plain_csv(f, &python);
    }
    // The same rows on stdout as in the file.
    assert_eq!(
        std::fs::read(&square).unwrap(),
        std::fs::read(&stdout).unwrap()
    );
}

#[test]
fn how_a_dataset_was_made_goes_to_stderr_or_a_sidecar() {
    let out = run_ok(&["gen", "--count", "5", "--seed", "8"]);
    let err = stderr(&out);
    assert!(
        err.contains("made by tilebench ")
            && err.contains("with `tilebench gen --count 5 --seed 8`")
            && err.contains("expected_steps is exact (full-space BFS distance table)"),
        "{err}"
    );
    let dir = temp_dir("gen-sidecar");
    let data = dir.join("d.csv");
    let res = run_ok(&[
        "gen",
        "--walk",
        "12",
        "--size",
        "4x4",
        "--count",
        "7",
        "--seed",
        "8",
        "--out",
        data.to_str().unwrap(),
    ]);
    let sidecar = dir.join("d.csv.json");
    assert!(stderr(&res).contains(&format!("how they were made is in {}", sidecar.display())));
    let bytes = std::fs::read(&data).unwrap();
    let made: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
    assert_eq!(
        made["command"],
        serde_json::json!([
            "tilebench",
            "gen",
            "--walk",
            "12",
            "--size",
            "4x4",
            "--count",
            "7",
            "--seed",
            "8"
        ])
    );
    assert_eq!(made["rows"], 7);
    assert_eq!(made["bytes"], bytes.len());
    assert_eq!(made["fnv1a64"], fnv1a64(&bytes));
    assert_eq!(
        made["columns"],
        serde_json::json!(["id", "start", "goal", "expected_steps"])
    );
    assert_eq!(made["expected_steps"]["exact"], true);
    assert_eq!(made["expected_steps"]["method"], "bidirectional BFS");
    assert_eq!(made["tilebench_version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_bundled_datasets_sidecars_match_and_their_commands_remake_them() {
    let mut sidecars = 0;
    for e in std::fs::read_dir("inputs").unwrap() {
        let p = e.unwrap().path();
        let Some(csv) = p.to_str().unwrap().strip_suffix(".json") else {
            continue;
        };
        sidecars += 1;
        let bytes = std::fs::read(csv).unwrap();
        let made: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        assert_eq!(made["fnv1a64"], fnv1a64(&bytes), "{csv}");
        assert_eq!(made["bytes"], bytes.len(), "{csv}");
        let rows = String::from_utf8(bytes.clone()).unwrap().lines().count() - 1;
        assert_eq!(made["rows"], rows, "{csv}");
        // The 3x3 ones take a fraction of a second to remake (3x4 takes minutes, 4x4 a minute).
        let command: Vec<&str> = made["command"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        if !command.contains(&"--size") {
            assert_eq!(
                run_ok(&command[1..]).stdout,
                bytes,
                "{csv}: `{command:?}` makes another file"
            );
        }
    }
    assert!(sidecars >= 5, "{sidecars} sidecars in inputs/");
}

#[test]
fn gen_streams_its_rows_and_a_closed_pipe_ends_quietly() {
    // A billion rows: held in memory, 48 GB; streamed, the first lines at once. The reader
    // closes the pipe after 3 lines' worth.
    let res = run_bounded(
        &["gen", "--count", "1000000000"],
        100,
        Duration::from_secs(60),
    );
    assert!(
        !res.timed_out && res.status.code() == Some(0),
        "{}",
        res.stderr
    );
    let text = String::from_utf8(res.stdout).unwrap();
    assert!(
        text.starts_with("id,start,goal,expected_steps\n1,"),
        "{text}"
    );
    assert!(
        !res.stderr.contains("panicked")
            && !res.stderr.contains("error")
            && !res.stderr.contains("pipe"),
        "{}",
        res.stderr
    );
}

#[test]
fn gen_refuses_what_it_cannot_do_with_a_reason() {
    for (args, needle) in [
        (
            &["--unsolvable", "1", "--depth", "5"][..],
            "--unsolvable 1 with --depth 5: pairs at a given depth are solvable",
        ),
        (
            &["--unsolvable", "0.5", "--per-depth", "2"][..],
            "--unsolvable 0.5 with --per-depth 2",
        ),
        (
            &["--out", "inputs"][..],
            "--out inputs is a directory; give a file name",
        ),
        (
            &["--out", "no/such/dir/d.csv"][..],
            "the directory no/such/dir does not exist",
        ),
    ] {
        let out = bin().arg("gen").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// gen checks everything before it writes a byte: a depth no state has is refused with
/// nothing on stdout (not a header-only file), and with -o, no file.
#[test]
fn gen_refuses_an_impossible_depth_before_writing_anything() {
    let o = bin()
        .args(["gen", "--size", "3x3", "--depth", "32", "-n", "3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let err = stderr(&o);
    assert!(
        err.contains("--depth 32: no 3x3 state is 32 moves from the goal; the deepest is 31 moves"),
        "{err}"
    );
    let file = temp_dir("gen-depth").join("x.csv");
    let o = bin()
        .args(["gen", "--size", "3x3", "--depth", "32", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!file.exists());
    // A depth that exists still works: the header, then the rows.
    let o = run_ok(&["gen", "--size", "3x3", "--depth", "31", "-n", "2"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("id,start,goal,expected_steps\n"), "{text}");
    assert_eq!(text.lines().count(), 3);
}
