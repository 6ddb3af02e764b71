//! `gen` and `space`: datasets with exact answers, deterministic per seed.

mod common;
use common::*;

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
        .filter(|l| !l.starts_with('#'))
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
