//! One writer per results directory: two runs into one `--out` never both write it, two runs
//! with the default `--out` never share a directory, and a journal without its manifest is
//! refused rather than silently discarded.

use crate::common::*;
use std::path::Path;
use std::process::{Child, Stdio};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/inputs/seeds.csv");

fn start(out: Option<&Path>, cwd: &Path) -> Child {
    let mut c = bin();
    c.current_dir(cwd)
        .args(["run", DATA, "-s", "astar,idastar", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(o) = out {
        c.arg("--out").arg(o);
    }
    c.spawn().unwrap()
}

#[test]
fn two_runs_into_one_out_directory_one_runs_and_one_refuses_20_of_20() {
    let dir = temp_dir("rundir-two");
    for i in 0..20 {
        let out = dir.join(format!("out{i}"));
        let (a, b) = (start(Some(&out), &dir), start(Some(&out), &dir));
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let codes = [a.status.code(), b.status.code()];
        assert!(
            codes == [Some(0), Some(2)] || codes == [Some(2), Some(0)],
            "try {i}: {codes:?}\n{}\n{}",
            stderr(&a),
            stderr(&b)
        );
        let refused = if codes[0] == Some(2) { &a } else { &b };
        let why = stderr(refused);
        assert!(
            why.contains("in use by another tilebench (process ")
                || why.contains("already holds a run"),
            "try {i}: {why}"
        );
        let (_, rows) = read_csv(&out.join("cases.csv"));
        assert_eq!(rows.len(), 12, "try {i}: one run's rows, whole");
    }
}

#[test]
fn two_runs_with_the_default_out_never_share_a_directory() {
    let dir = temp_dir("rundir-default");
    for _ in 0..5 {
        let (a, b) = (start(None, &dir), start(None, &dir));
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
        assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    }
    let runs: Vec<_> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 10, "{runs:?}");
    for r in runs {
        let (_, rows) = read_csv(&r.join("cases.csv"));
        assert_eq!(rows.len(), 12, "{}", r.display());
    }
}

#[test]
fn a_journal_without_its_manifest_is_refused_not_discarded() {
    let dir = temp_dir("rundir-nomanifest");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let journal = [1u8; 104];
    std::fs::write(out.join("journal-slots.bin"), journal).unwrap();
    for extra in [&[][..], &["--resume"][..]] {
        let res = bin()
            .args(["run", DATA, "-s", "astar", "-q", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(2), "{extra:?}: {}", stderr(&res));
        let why = stderr(&res);
        assert!(
            why.contains("without its manifest (manifest.json)"),
            "{why}"
        );
        assert!(why.contains("--force"), "{why}");
        assert_eq!(
            std::fs::read(out.join("journal-slots.bin")).unwrap(),
            journal,
            "the journal is kept"
        );
    }
}

#[test]
fn force_removes_every_file_of_the_previous_run_and_keeps_the_users() {
    let dir = temp_dir("rundir-force");
    let out = dir.join("out");
    let run = |strategies: &str, extra: &[&str]| {
        let o = bin()
            .args(["run", DATA, "-s", strategies, "-q", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };
    run("astar,idastar", &[]);
    assert!(out.join("latency-idastar.hgrm").is_file());
    // A killed writer's temporary, a stray journal, and a file of the user's own.
    std::fs::write(out.join(".cases.csv.tmp-999999"), "half a file").unwrap();
    std::fs::write(out.join("journal-passes.csv"), "stray").unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    run("astar", &["--force"]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".tilebench.lock")
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cases.csv",
            "latency-astar.hgrm",
            "latency.hlog",
            "notes.txt",
            "run.json",
            "summary.csv"
        ]
    );
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let s = col(&h, "strategy");
    assert!(
        rows.iter().all(|r| r[s] == "astar"),
        "only the new run's rows"
    );
}
