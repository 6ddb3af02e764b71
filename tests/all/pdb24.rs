//! Pattern databases on 5x5 run end to end, with small partitions so that the tests build
//! their tables in moments (the 6-6-6-6 tables are built by `scripts/bench.sh --korf24`,
//! never here). The searches themselves (admissible estimates along optimal paths, the
//! reflected and dual sums, paths as short as IDA* with Manhattan distance) are unit tests
//! of `search::wide_pdb` (src/search/wide_pdb/tests.rs).

use crate::common::{run_ok, temp_dir};
use tilebench::puzzle::Shape;
use tilebench::search::pdb;

fn pdb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb24-tests")
}

/// `run` on 5x5 with `idastar:heuristic=pdb` and a small partition, under `--check`: every
/// row verified against gen's exact answers; `lookup=walked` is refused with a sentence.
#[test]
fn a_5x5_run_with_pattern_databases_checks() {
    let dir = temp_dir("pdb24-run");
    let data = dir.join("w.csv");
    run_ok(&[
        "gen",
        "--size",
        "5x5",
        "--walk",
        "40",
        "-n",
        "8",
        "--seed",
        "5",
        "-o",
        data.to_str().unwrap(),
    ]);
    let pdb_dir = pdb_dir();
    let out = run_ok(&[
        "run",
        data.to_str().unwrap(),
        "-s",
        "idastar:heuristic=pdb:partition=3-3-3-3-3-3-3-3",
        "-s",
        "idastar-tt:heuristic=pdb:partition=4-4-4-4-4-4:lookup=regular",
        "--pdb-dir",
        pdb_dir.to_str().unwrap(),
        "--check",
        "-o",
        dir.join("r").to_str().unwrap(),
    ]);
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("check: passed: all 16 answered rows verified"),
        "{text}"
    );
    let cfg = tilebench::search::Config::default()
        .with(&tilebench::search::heuristic::HEURISTIC, "pdb")
        .and_then(|c| c.with(&pdb::LOOKUP, "walked"))
        .unwrap();
    let e = tilebench::search::registry::find("idastar")
        .unwrap()
        .build(&cfg)
        .supports(Shape::S5X5)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("lookup=walked") && e.contains("no walked dual lookups"),
        "{e}"
    );
}
