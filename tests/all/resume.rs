//! Interrupted runs (`kill -9`, Ctrl-C) finished with `--resume`, and `--shard` + `merge`,
//! compared with uninterrupted, unsplit runs.
#![cfg(unix)]

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// The first 300 rows of random-1k: a few seconds of bfs-set on one thread.
fn dataset() -> &'static Path {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let dir = temp_dir("resume-data");
        let text = std::fs::read_to_string("inputs/random-1k.csv").unwrap();
        let head: Vec<&str> = text.lines().take(301).collect();
        let p = dir.join("random-300.csv");
        std::fs::write(&p, head.join("\n") + "\n").unwrap();
        p
    })
}

/// `run DATA -s STRATEGIES --threads 1 -q --out OUT`.
fn run_args(data: &Path, strategies: &str, out: &Path) -> Vec<String> {
    [
        "run",
        data.to_str().unwrap(),
        "-s",
        strategies,
        "--threads",
        "1",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

fn args(out: &Path) -> Vec<String> {
    run_args(dataset(), "bfs-set,astar", out)
}

/// The same run, uninterrupted (two threads: the thread count changes no result).
fn reference() -> &'static Path {
    static R: OnceLock<PathBuf> = OnceLock::new();
    R.get_or_init(|| {
        let out = temp_dir("resume-reference");
        let mut a = args(&out);
        a[5] = "2".into();
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run_ok(&a);
        out
    })
}

fn spawn(out: &Path) -> Child {
    bin()
        .args(args(out))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The records the journal of the run in `out` holds whole (what `--resume` takes as done).
fn journal_lines(out: &Path) -> usize {
    tilebench::harness::journal::count_done(out).unwrap_or(0)
}

/// Waits until the run has journaled some results (it flushes at least every second).
fn wait_for_progress(out: &Path) {
    for _ in 0..100 {
        if journal_lines(out) > 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("no journal lines after 10 s in {}", out.display());
}

/// Resumes the run in `out` and checks it against the uninterrupted one; returns stderr.
fn resume_and_compare(out: &Path) -> String {
    let mut a = args(out);
    a.push("--resume".into());
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = run_ok(&a);
    assert!(stderr(&o).contains("tilebench: resuming"), "{}", stderr(&o));
    for f in [
        "journal-slots.bin",
        "journal-texts.bin",
        "journal-passes.csv",
        "manifest.json",
    ] {
        assert!(!out.join(f).exists(), "{f} left behind");
    }
    assert_eq!(
        without(&out.join("cases.csv"), &TIMING),
        without(&reference().join("cases.csv"), &TIMING)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert!(json["sessions"].as_u64().unwrap() >= 2, "{json}");
    // The histograms hold every case's latency, whichever session measured it.
    let hist = |dir: &Path| {
        tilebench::results::hgrm::read_interval_log(&dir.join("latency.hlog"))
            .unwrap()
            .into_iter()
            .map(|(t, h)| (t, h.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(hist(out), hist(reference()));
    stderr(&o)
}

/// `tilebench: resuming DIR: N of M …`: N, the jobs the resumed run found done.
fn resumed_with(stderr: &str) -> Option<usize> {
    let (_, rest) = stderr.split_once("tilebench: resuming ")?;
    let (_, rest) = rest.split_once(": ")?;
    rest.split(' ').next()?.parse().ok()
}

/// The jobs (case × strategy) of a finished run: its cases.csv's rows.
fn jobs(dir: &Path) -> usize {
    read_csv(&dir.join("cases.csv")).1.len()
}

#[test]
fn a_killed_run_resumes_to_the_same_results() {
    let out = temp_dir("resume-kill");
    let mut child = spawn(&out);
    // Killed as soon as the journal shows progress: the 600 jobs take seconds more.
    wait_for_progress(&out);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    assert!(
        !out.join("cases.csv").exists(),
        "the run finished before the kill"
    );
    let done = journal_lines(&out);
    assert!(done > 0 && done < 600, "{done} jobs journaled");

    // Without --resume the unfinished run is not overwritten.
    let a = args(&out);
    let o = bin().args(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("add --resume to finish it"),
        "{}",
        stderr(&o)
    );
    // With other options it is not resumed.
    let mut other = a.clone();
    other[3] = "bfs-set".into();
    other.push("--resume".into());
    let o = bin().args(&other).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("strategies: `bfs-set` now, `bfs-set,astar` when started"),
        "{e}"
    );

    let e = resume_and_compare(&out);
    // The resumed run took exactly the journal's jobs as done, and solved the rest.
    assert_eq!(resumed_with(&e), Some(done), "{e}");
    assert!(
        e.contains(&format!("{} to go", jobs(reference()) - done)),
        "{e}"
    );
}

#[test]
fn ctrl_c_stops_cleanly_and_says_how_to_resume() {
    let out = temp_dir("resume-sigint");
    let child = spawn(&out);
    wait_for_progress(&out);
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{e}");
    assert!(e.contains("interrupted"), "{e}");
    let expected = format!(
        "{} {} --resume",
        env!("CARGO_BIN_EXE_tilebench"),
        args(&out).join(" ")
    );
    assert!(e.contains(&expected), "no `{expected}` in:\n{e}");
    assert!(!out.join("cases.csv").exists());
    let done = journal_lines(&out);
    assert!(done > 0);
    let e = resume_and_compare(&out);
    assert_eq!(resumed_with(&e), Some(done), "{e}");
}

/// The small run the kill-point test interrupts: 40 cases, astar then idastar, one thread.
fn small_args(out: &Path) -> Vec<String> {
    static D: OnceLock<PathBuf> = OnceLock::new();
    let data = D.get_or_init(|| {
        let text = std::fs::read_to_string(dataset()).unwrap();
        let head: Vec<&str> = text.lines().take(41).collect();
        let p = temp_dir("resume-small-data").join("random-40.csv");
        std::fs::write(&p, head.join("\n") + "\n").unwrap();
        p
    });
    run_args(data, "astar,idastar", out)
}

/// The files in `dir` a finished run must not have: journal files and temporaries.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("journal") || n == "manifest.json" || n.contains(".tmp-"))
        .collect()
}

/// `kill -9` at every moment a run has (the `TILEBENCH_CRASH_AT` points), then `--resume`:
/// every time, the cases.csv, summary counters and histograms of an uninterrupted run.
#[test]
fn a_kill_at_any_moment_then_resume_gives_the_uninterrupted_results() {
    use std::os::unix::process::ExitStatusExt;
    let reference = temp_dir("resume-points-reference");
    let a = small_args(&reference);
    run_ok(&a);
    let total = jobs(&reference);
    let points = [
        "solving",
        "solved:1",
        "solved:50",
        "stored:1",
        "stored:2",
        "journal-synced:1",
        "pass-ended:1",
        "pass-ended:2",
        "write:cases.csv",
        "write:summary.csv",
        "write:latency-astar.hgrm",
        "write:latency-idastar.hgrm",
        "write:latency.hlog",
        "write:run.json",
        "finished",
        "removing",
    ];
    for point in points {
        let out = temp_dir(&format!("resume-point-{}", point.replace([':', '.'], "-")));
        let o = bin()
            .args(small_args(&out))
            .env("TILEBENCH_CRASH_AT", point)
            .output()
            .unwrap();
        assert_eq!(o.status.signal(), Some(9), "{point}: {}", stderr(&o));
        let done = journal_lines(&out);
        let mut resume = small_args(&out);
        resume.push("--resume".into());
        let o = bin().args(&resume).output().unwrap();
        let e = stderr(&o);
        if point == "removing" {
            // The run had finished: nothing to resume, and the stray journal is cleaned up.
            assert_eq!(o.status.code(), Some(2), "{point}: {e}");
            assert!(e.contains("nothing to resume"), "{point}: {e}");
        } else {
            assert_eq!(o.status.code(), Some(0), "{point}: {e}");
            // Every job the journal held was taken as done; the rest were solved.
            let expected = (done > 0).then_some(done);
            assert_eq!(resumed_with(&e), expected, "{point}: {e}");
            if done > 0 {
                assert!(
                    e.contains(&format!("{} to go", total - done)),
                    "{point}: {e}"
                );
            }
        }
        assert_eq!(leftovers(&out), Vec::<String>::new(), "{point}");
        assert_eq!(
            without(&out.join("cases.csv"), &TIMING),
            without(&reference.join("cases.csv"), &TIMING),
            "{point}"
        );
        let counters = |dir: &Path| {
            let (h, rows) = read_csv(&dir.join("summary.csv"));
            let keep = [
                "strategy",
                "cases",
                "solved",
                "expanded_total",
                "generated_total",
            ];
            rows.iter()
                .map(|r| keep.map(|c| h.iter().position(|x| x == c).map(|i| r[i].clone())))
                .collect::<Vec<_>>()
        };
        assert_eq!(counters(&out), counters(&reference), "{point}");
        let hist = |dir: &Path| {
            tilebench::results::hgrm::read_interval_log(&dir.join("latency.hlog"))
                .unwrap()
                .into_iter()
                .map(|(t, h)| (t, h.len()))
                .collect::<Vec<_>>()
        };
        assert_eq!(hist(&out), hist(&reference), "{point}");
    }
}

/// Another run's journal put in a run's directory (here shard 1's, copied into shard 2's, of
/// the same size) holds no record of it: `--resume` solves every case again, says so, and
/// gives the uninterrupted shard's results.
#[test]
fn another_runs_journal_is_not_taken_for_this_ones() {
    use std::os::unix::process::ExitStatusExt;
    let dir = temp_dir("resume-foreign");
    let sharded = |out: &Path, shard: &str| {
        let mut a = run_args(dataset(), "astar", out);
        a.extend(["--shard".to_string(), shard.to_string()]);
        a
    };
    let (one, two, reference) = (dir.join("one"), dir.join("two"), dir.join("reference"));
    for (out, point) in [(&one, "finished"), (&two, "stored:1")] {
        let shard = if out == &one { "1/2" } else { "2/2" };
        let o = bin()
            .args(sharded(out, shard))
            .env("TILEBENCH_CRASH_AT", point)
            .output()
            .unwrap();
        assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    }
    run_ok(&sharded(&reference, "2/2"));
    assert_eq!(journal_lines(&one), 150);
    for f in ["journal-slots.bin", "journal-texts.bin"] {
        std::fs::copy(one.join(f), two.join(f)).unwrap();
    }
    assert_eq!(
        journal_lines(&two),
        0,
        "shard 1's records are not shard 2's"
    );
    let mut resume = sharded(&two, "2/2");
    resume.push("--resume".into());
    let o = run_ok(&resume);
    let e = stderr(&o);
    assert!(
        e.contains("150 records in") && e.contains("not this run's"),
        "{e}"
    );
    assert_eq!(resumed_with(&e), None, "{e}");
    assert_eq!(
        without(&two.join("cases.csv"), &TIMING),
        without(&reference.join("cases.csv"), &TIMING)
    );
}

/// A directory an older tilebench left unfinished (its results in a text `journal.csv`) is
/// refused, not silently solved again, and `--force` starts it over.
#[test]
fn an_older_versions_unfinished_run_is_refused() {
    use std::os::unix::process::ExitStatusExt;
    let out = temp_dir("resume-legacy");
    let a = run_args(dataset(), "astar", &out);
    let o = bin()
        .args(&a)
        .env("TILEBENCH_CRASH_AT", "stored:1")
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    std::fs::write(
        out.join("journal.csv"),
        "case,strategy,status\n0,astar,solved\n",
    )
    .unwrap();
    let mut resume = a.clone();
    resume.push("--resume".into());
    let o = bin().args(&resume).output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("an older tilebench started") && e.contains("--force"),
        "{e}"
    );
    let mut force = a.clone();
    force.push("--force".into());
    run_ok(&force);
    assert!(!out.join("journal.csv").exists());
}

#[test]
fn resume_of_a_finished_run_is_refused() {
    let a = args(reference());
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    a.push("--resume");
    let o = bin().args(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing to resume"), "{}", stderr(&o));
}

fn run_dir(name: &str, extra: &[&str]) -> PathBuf {
    let out = temp_dir(name);
    let mut a = vec![
        "run",
        "inputs/per-depth.csv",
        "inputs/malformed.csv",
        "-s",
        "astar,bfs-hash,idastar",
        "--paths",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ];
    a.extend_from_slice(extra);
    // malformed.csv's invalid rows make every run exit 2, after writing everything.
    let o = bin().args(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    out
}

/// Merges the shard directories `shards` into `dir/merged`, which must succeed and give the
/// cases.csv of the unsharded run `whole` (timings aside); returns the merged directory.
fn merged_as_whole(dir: &Path, shards: &[PathBuf], whole: &Path) -> PathBuf {
    let merged = dir.join("merged");
    let refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let o = merge(&refs, &merged);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        without(&merged.join("cases.csv"), &TIMING),
        without(&whole.join("cases.csv"), &TIMING)
    );
    merged
}

fn merge(dirs: &[&Path], out: &Path) -> std::process::Output {
    bin()
        .arg("merge")
        .args(dirs)
        .arg("--out")
        .arg(out)
        .arg("-q")
        .output()
        .unwrap()
}

#[test]
fn three_shards_merge_into_the_single_run() {
    let whole = run_dir("shard-whole", &[]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|i| run_dir(&format!("shard-{i}"), &["--shard", &format!("{i}/3")]))
        .collect();
    // Each shard holds a third of the cases: case i in shard i mod 3 + 1.
    let (_, all) = read_csv(&whole.join("cases.csv"));
    let (_, first) = read_csv(&shards[0].join("cases.csv"));
    assert_eq!(first.len(), all.len().div_ceil(9) * 3);

    let merged = temp_dir("shard-merged");
    let o = merge(&[&shards[2], &shards[0], &shards[1]], &merged);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        without(&merged.join("cases.csv"), &TIMING),
        without(&whole.join("cases.csv"), &TIMING)
    );
    let latency_and_wall = [
        "latency_mean_us",
        "latency_p50_us",
        "latency_p90_us",
        "latency_p99_us",
        "latency_p999_us",
        "latency_max_us",
        "wall_s",
        "cases_per_s",
        // The peak heap depends on what ran before on the same thread.
        "peak_heap_bytes_mean",
        "peak_heap_bytes_max",
    ];
    assert_eq!(
        without(&merged.join("summary.csv"), &latency_and_wall),
        without(&whole.join("summary.csv"), &latency_and_wall)
    );
    // The merged histograms are the shards' added exactly: same counts as the whole run's,
    // and as the sum of the shards' own.
    let hist = |dir: &Path| {
        tilebench::results::hgrm::read_interval_log(&dir.join("latency.hlog")).unwrap()
    };
    let (m, w) = (hist(&merged), hist(&whole));
    assert_eq!(m.len(), 3);
    for ((mt, mh), (wt, wh)) in m.iter().zip(&w) {
        assert_eq!(mt, wt);
        assert_eq!(mh.len(), wh.len(), "{mt}");
        let mut sum = hdrhistogram::Histogram::<u64>::new_from(mh);
        for s in &shards {
            for (t, h) in hist(s) {
                if t == *mt {
                    sum.add(&h).unwrap();
                }
            }
        }
        assert_eq!(&sum, mh, "{mt}");
        assert!(
            std::fs::read_to_string(merged.join(format!("latency-{mt}.hgrm")))
                .unwrap()
                .contains(&format!("Total count    = {:12}", wh.len()))
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(merged.join("run.json")).unwrap()).unwrap();
    assert!(json.get("shard").is_none());
    assert_eq!(json["merged_from"].as_array().unwrap().len(), 3);
    // Each run.json holds its cases.csv's checksum (merge checks the shards' against theirs).
    for d in shards.iter().chain([&merged, &whole]) {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
        let bytes = std::fs::read(d.join("cases.csv")).unwrap();
        assert_eq!(
            json["cases_xxh3_64"].as_str(),
            Some(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes)).as_str()),
            "{}",
            d.display()
        );
    }
    // verify accepts the merged run.
    let o = bin().arg("verify").arg(&merged).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // Shards made on 2026-12-04 or 12-05 before XXH3 recorded FNV-1a (`cases_fnv1a64`):
    // they still merge, and a row edited after their run is still refused.
    let older: Vec<PathBuf> = shards
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let o = temp_dir(&format!("shard-older-{i}"));
            for f in std::fs::read_dir(d).unwrap() {
                let f = f.unwrap().path();
                std::fs::copy(&f, o.join(f.file_name().unwrap())).unwrap();
            }
            let mut json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(o.join("run.json")).unwrap())
                    .unwrap();
            let fields = json.as_object_mut().unwrap();
            fields.remove("cases_xxh3_64").unwrap();
            let bytes = std::fs::read(o.join("cases.csv")).unwrap();
            fields.insert("cases_fnv1a64".into(), fnv1a64(&bytes).into());
            std::fs::write(o.join("run.json"), json.to_string()).unwrap();
            o
        })
        .collect();
    let refs: Vec<&Path> = older.iter().map(PathBuf::as_path).collect();
    let out = temp_dir("shard-older-merged");
    let o = merge(&refs, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(out.join("cases.csv")).unwrap(),
        std::fs::read(merged.join("cases.csv")).unwrap()
    );
    let csv = std::fs::read_to_string(older[1].join("cases.csv")).unwrap();
    let edited = csv.replacen(",solved,", ",wrong,", 1);
    assert_ne!(edited, csv);
    std::fs::write(older[1].join("cases.csv"), edited).unwrap();
    let o = merge(&refs, &temp_dir("shard-older-edited"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the rows are not those the run wrote"),
        "{}",
        stderr(&o)
    );

    // Refusals: a missing shard, a shard twice, a shard of another split or other options.
    let refused = |dirs: &[&Path], what: &str| {
        let o = merge(dirs, &temp_dir("shard-refused"));
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(what), "{}", stderr(&o));
    };
    refused(&[&shards[0], &shards[1]], "shard(s) 3/3 missing");
    refused(
        &[&shards[0], &shards[1], &shards[1], &shards[2]],
        "are both shard 2/3",
    );
    let other_split = run_dir("shard-other-split", &["--shard", "2/2"]);
    refused(
        &[&shards[0], &other_split, &shards[2]],
        "shards of one split have the same N",
    );
    let other_options = run_dir("shard-other-options", &["--shard", "2/3", "--exhaustive"]);
    refused(
        &[&shards[0], &other_options, &shards[2]],
        "--exhaustive: `true`",
    );
}

/// A dataset of every kind of line, with bad rows in every shard's share: a byte-order mark
/// on the header and on later lines, `\r\n` and lone `\r` ends, comments (one holding a
/// quote), blank and space-only lines, quoted fields holding a line end, boards that do not
/// parse, of another size, repeated tiles, a bad `expected_steps`, and a quote never closed
/// at the end. The first row does not parse, so the second (in shard 2/4's share) fixes the
/// file's board shape: the other shards must read it to judge their own 2x4 rows.
fn mixed_dataset(dir: &Path) -> PathBuf {
    let boards = [
        "1 2 3 4 5 6 7 x 8",
        "2 1 3 4 5 6 7 8 x",
        "8 7 6 5 4 3 2 1 x",
        "x 1 2 3 4 5 6 7 8",
        "4 1 2 7 5 3 x 8 6",
    ];
    let mut text = String::from("\u{feff}id,start,expected_steps\r\n1,1 2 3 x x,\r\n");
    for i in 2..240 {
        let row = match i % 13 {
            0 => format!("# row {i} \"quoted\r\n{i},1 2 3 4 5 6 7 x 8,1\r\n"),
            1 => format!("\r\n  \r\n{i},1 2 3 4 5 6 7 x,\r\n"),
            2 => format!("\"{i}\nsecond line\",\"8 7 6 5 4 3 2 1 x\",\r\n"),
            3 => format!("{i},1 2 3 4 5 6 7 7 x,\r"),
            4 => format!("\u{feff}{i},{},oops\n", boards[i % 5]),
            5 => format!("{i},1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x,\n"),
            _ => format!("{i},{},\r\n", boards[i % 5]),
        };
        text.push_str(&row);
    }
    text.push_str("240,\"1 2 3 4 5 6 7 x 8\n");
    let path = dir.join("mixed.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `-s table,astar` on `data` into `out` with `extra` options; bad rows make it exit 2
/// after writing everything.
fn run_mixed(data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut a = run_args(data, "table,astar", out);
    a.extend(extra.iter().map(|s| s.to_string()));
    bin().args(&a).output().unwrap()
}

/// Four shards of a dataset of every kind of line and bad row (one shard killed mid-run
/// with `kill -9` and resumed) merge into the single run: its cases.csv, every bad row
/// `invalid` with its own message whichever shard's share it is in, and its inputs' facts
/// in run.json (each shard counts its own invalid rows; the merge counts them all).
#[test]
fn shards_of_every_kind_of_line_and_bad_row_merge_into_the_single_run() {
    use std::os::unix::process::ExitStatusExt;
    let dir = temp_dir("shard-mixed");
    let data = mixed_dataset(&dir);
    let whole = dir.join("whole");
    let o = run_mixed(&data, &whole, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let shards: Vec<PathBuf> = (1..=4).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        let shard = format!("{}/4", i + 1);
        if i == 1 {
            let mut a = run_args(&data, "table,astar", s);
            a.extend(["--shard".into(), shard.clone()]);
            let o = bin()
                .args(&a)
                .env("TILEBENCH_CRASH_AT", "stored:1")
                .output()
                .unwrap();
            assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
            let o = run_mixed(&data, s, &["--shard", &shard, "--resume"]);
            assert!(stderr(&o).contains("tilebench: resuming"), "{}", stderr(&o));
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        } else {
            let o = run_mixed(&data, s, &["--shard", &shard]);
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        }
    }
    let merged = merged_as_whole(&dir, &shards, &whole);
    let (h, rows) = without(&merged.join("cases.csv"), &TIMING);
    // Bad rows of every kind, in every shard's share, each on its line.
    let (status, line, error) = (col(&h, "status"), col(&h, "line"), col(&h, "message"));
    let invalid: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r[status] == "invalid")
        .map(|r| (r[line].as_str(), r[error].as_str()))
        .collect();
    for what in [
        "start:",
        "this file's boards have 9",
        "expected_steps `oops`",
        "never closed",
    ] {
        assert!(
            invalid.iter().any(|(_, e)| e.contains(what)),
            "{what}: {invalid:?}"
        );
    }
    let inputs = |d: &Path| -> serde_json::Value {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
        json["inputs"].clone()
    };
    assert_eq!(inputs(&merged), inputs(&whole));
    let whole_invalid = inputs(&whole)[0]["invalid_rows"].as_u64().unwrap();
    assert_eq!(whole_invalid as usize * 2, invalid.len());
    let own: u64 = shards
        .iter()
        .map(|s| inputs(s)[0]["invalid_rows"].as_u64().unwrap())
        .sum();
    assert_eq!(own, whole_invalid);
    for s in &shards {
        assert_eq!(inputs(s)[0]["rows"], inputs(&whole)[0]["rows"]);
    }
}

/// A bad row is read, judged and reported by the shard that owns it (row *i* is shard
/// *i* mod N + 1's), and by no other: the other shards do not read its fields, so they finish
/// with exit 0 and neither say nor write anything of it. Two bad rows, in two shards' shares
/// (a repeated tile, which only a reading of the board finds, and an `expected_steps` that is
/// not a number): over the four shards each is reported exactly once, on stderr, in
/// cases.csv and in run.json's `invalid_rows`, and the merge is the unsharded run.
#[test]
fn a_bad_row_is_reported_once_by_the_shard_that_owns_it() {
    let dir = temp_dir("shard-one-owner");
    let data = dir.join("two-bad.csv");
    let boards = [
        "1 2 3 4 5 6 7 x 8",
        "x 1 2 3 4 5 6 7 8",
        "4 1 2 7 5 3 x 8 6",
    ];
    // Data rows 6 (shard 3/4's) and 9 (shard 2/4's) are bad; row i is on line i + 2.
    let bad = [
        (6usize, "start: cell 8: tile 7"),
        (9, "expected_steps `oops`"),
    ];
    let mut text = String::from("id,start,expected_steps\n");
    for i in 0..14 {
        text.push_str(&match i {
            6 => format!("{i},1 2 3 4 5 6 7 7 x,\n"),
            9 => format!("{i},{},oops\n", boards[0]),
            _ => format!("{i},{},\n", boards[i % 3]),
        });
    }
    std::fs::write(&data, text).unwrap();
    let whole = dir.join("whole");
    let o = run_mixed(&data, &whole, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let name = data.display().to_string();
    // The bad lines a run's stderr and cases.csv report, each (line, message) in order.
    let reported = |o: &std::process::Output, out: &Path| {
        let said: Vec<String> = stderr(o)
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("invalid: {name}:")))
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect();
        let (h, rows) = read_csv(&out.join("cases.csv"));
        let (status, line) = (col(&h, "status"), col(&h, "line"));
        let written: Vec<String> = rows
            .iter()
            .filter(|r| r[status] == "invalid")
            .map(|r| r[line].clone())
            .collect();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
        let counted = json["inputs"][0]["invalid_rows"].as_u64().unwrap() as usize;
        (said, written, counted)
    };
    let (said, written, counted) = reported(&o, &whole);
    assert_eq!((said.len(), counted), (2, 2), "{}", stderr(&o));
    // Two strategies: each bad case has two rows in cases.csv.
    assert_eq!(written.len(), 4);
    let mut everywhere: Vec<String> = Vec::new();
    let shards: Vec<PathBuf> = (1..=4).map(|i| dir.join(format!("s{i}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let o = run_mixed(&data, s, &["--shard", &format!("{}/4", k + 1)]);
        let own: Vec<String> = bad
            .iter()
            .filter(|(row, _)| row % 4 == k)
            .map(|(row, _)| (row + 2).to_string())
            .collect();
        let code = if own.is_empty() { 0 } else { 2 };
        assert_eq!(
            o.status.code(),
            Some(code),
            "shard {}: {}",
            k + 1,
            stderr(&o)
        );
        let (said, written, counted) = reported(&o, s);
        assert_eq!(said, own, "shard {}: {}", k + 1, stderr(&o));
        assert_eq!(counted, own.len(), "shard {}", k + 1);
        let twice: Vec<String> = own.iter().flat_map(|l| [l.clone(), l.clone()]).collect();
        assert_eq!(written, twice, "shard {}", k + 1);
        for (row, what) in bad.iter().filter(|(row, _)| row % 4 == k) {
            assert!(
                stderr(&o).contains(&format!("{name}:{}: {what}", row + 2)),
                "shard {}: {}",
                k + 1,
                stderr(&o)
            );
        }
        everywhere.extend(said);
    }
    everywhere.sort();
    assert_eq!(everywhere, ["11", "8"]);
    let merged = merged_as_whole(&dir, &shards, &whole);
    let inputs = |d: &Path| -> serde_json::Value {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
        json["inputs"].clone()
    };
    assert_eq!(inputs(&merged), inputs(&whole));
}

/// With no `-s`, the strategies are those that fit every valid board of the inputs: each
/// shard reads the other rows' boards for their shapes, so shards with and without the one
/// 4x4 row run the same strategies as the whole run, and merge into it.
#[test]
fn shards_with_the_default_strategies_run_those_of_the_whole_file() {
    let dir = temp_dir("shard-defaults");
    let data = dir.join("sizes.csv");
    let mut text = String::from("id,size,start\n");
    for i in 0..12 {
        let row = match i {
            5 => format!("{i},4x4,1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n"),
            7 => format!("{i},4x4,1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15\n"),
            _ => format!(
                "{i},3x3,{}\n",
                ["1 2 3 4 5 6 7 x 8", "x 1 2 3 4 5 6 7 8"][i % 2]
            ),
        };
        text.push_str(&row);
    }
    std::fs::write(&data, text).unwrap();
    // Exit 2 for the runs that hold the invalid row (row 7: shard 4/4's), after writing all.
    let run = |out: &Path, extra: &[&str], code: i32| {
        let mut a = vec![
            "run",
            data.to_str().unwrap(),
            "--threads",
            "1",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        let o = bin().args(&a).output().unwrap();
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
    };
    let whole = dir.join("whole");
    run(&whole, &[], 2);
    let strategies = |d: &Path| -> serde_json::Value {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
        json["strategies"].clone()
    };
    let shards: Vec<PathBuf> = (1..=4).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        run(
            s,
            &["--shard", &format!("{}/4", i + 1)],
            if i == 3 { 2 } else { 0 },
        );
        assert_eq!(strategies(s), strategies(&whole), "shard {}", i + 1);
    }
    merged_as_whole(&dir, &shards, &whole);
}

/// A byte that is not UTF-8 in one row refuses the whole file, in every shard (whichever
/// share the row is in), naming its line, before anything is written.
#[test]
fn a_byte_that_is_not_utf8_refuses_the_file_in_every_shard() {
    let dir = temp_dir("shard-latin1");
    let mut bytes = b"id,start\n".to_vec();
    for i in 0..20 {
        bytes.extend(format!("{i},1 2 3 4 5 6 7 x 8\n").bytes());
    }
    bytes.extend(b"20,1 2 3 4 5 6 7 x 8 \xe9\n");
    let data = dir.join("latin1.csv");
    std::fs::write(&data, bytes).unwrap();
    for i in 1..=4 {
        let out = dir.join(format!("s{i}"));
        let o = run_mixed(&data, &out, &["--shard", &format!("{i}/4")]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("latin1.csv:22: not valid UTF-8"),
            "{}",
            stderr(&o)
        );
        assert!(!out.exists());
    }
}

/// Past 65,536 cases the strategies take turns (`--order blocked`) a block at a time, each
/// block's pass synced as it ends: killed at the end of the third pass (table's second block,
/// after table's and idastar's first), the journal holds exactly those three passes' records,
/// and `--resume` finishes with the uninterrupted run's results.
#[test]
fn strategies_take_turns_a_block_at_a_time_and_a_kill_between_blocks_resumes() {
    use std::os::unix::process::ExitStatusExt;
    let dir = temp_dir("resume-blocks");
    let data = dir.join("70k.csv");
    let g = bin()
        .args(["gen", "-n", "70000", "--walk", "12", "--seed", "7", "-o"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(g.status.success(), "{}", stderr(&g));
    let args = |out: &Path| {
        let mut a = run_args(&data, "table,idastar", out);
        a[5] = "2".into();
        a.extend(["--order".into(), "blocked".into()]);
        a
    };
    let reference = dir.join("reference");
    run_ok(&args(&reference));
    let out = dir.join("killed");
    let o = bin()
        .args(args(&out))
        .env("TILEBENCH_CRASH_AT", "pass-ended:3")
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    let passes = std::fs::read_to_string(out.join("journal-passes.csv")).unwrap();
    let finished: Vec<&str> = passes
        .lines()
        .filter(|l| l.ends_with(",true"))
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(finished, ["table", "idastar", "table"], "{passes}");
    assert_eq!(journal_lines(&out), 2 * 65_536 + (70_000 - 65_536));
    let mut resume = args(&out);
    resume.push("--resume".into());
    let o = run_ok(&resume);
    assert_eq!(resumed_with(&stderr(&o)), Some(2 * 65_536 + 4_464));
    assert_eq!(
        without(&out.join("cases.csv"), &TIMING),
        without(&reference.join("cases.csv"), &TIMING)
    );
    // Both strategies' wall times add up over their blocks and the two sessions.
    let (h, rows) = read_csv(&out.join("summary.csv"));
    let wall = col(&h, "wall_s");
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert!(r[wall].parse::<f64>().unwrap() > 0.0, "{r:?}");
    }
}

/// A run of `bfs-hash` on the first case of korf100 (57 moves: breadth-first search runs on
/// for minutes toward gigabytes), started in `out`, with stderr read line by line as it comes,
/// each line with the time it came. Returns once the run has created its directory (it is
/// then solving).
fn long_bfs_run(
    out: &Path,
) -> (
    Child,
    std::sync::mpsc::Receiver<(std::time::Instant, String)>,
) {
    use std::io::BufRead;
    let data = out.with_extension("csv");
    let text = std::fs::read_to_string("inputs/korf100.csv").unwrap();
    std::fs::write(
        &data,
        text.lines().take(2).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let mut child = bin()
        .args([
            "run",
            data.to_str().unwrap(),
            "-s",
            "bfs-hash",
            "-q",
            "--out",
        ])
        .arg(out)
        .args(["--max-states", "30000000"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(err).lines() {
            let Ok(line) = line else { return };
            if tx.send((std::time::Instant::now(), line)).is_err() {
                return;
            }
        }
    });
    for _ in 0..200 {
        if out.join("manifest.json").exists() {
            std::thread::sleep(Duration::from_millis(300));
            return (child, rx);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the run did not start in 10 s");
}

/// Waits up to `within` for the child to exit; kills it if it does not.
fn exits_within(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let t = std::time::Instant::now();
    while t.elapsed() < within {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Ctrl-C during a long in-process case is answered at once: one line within 0.5 s saying
/// what is finishing, that a second Ctrl-C stops now, and the resume command; the search stops
/// at its next budget check and the run exits 130 within 2 s, the case left for --resume
/// (not recorded as a `limit`).
#[test]
fn ctrl_c_during_a_long_case_is_answered_at_once() {
    let out = temp_dir("ctrl-c-long").join("run");
    let (mut child, lines) = long_bfs_run(&out);
    let sent = std::time::Instant::now();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let (at, first) = lines
        .recv_timeout(Duration::from_secs(2))
        .map_err(|_| exits_within(&mut child, Duration::ZERO))
        .expect("no line after the first Ctrl-C");
    let first = if first.is_empty() {
        lines.recv_timeout(Duration::from_secs(2)).unwrap().1
    } else {
        first
    };
    assert!(at - sent < Duration::from_millis(500), "{:?}", at - sent);
    assert!(first.contains("stopping"), "{first}");
    assert!(
        first.contains("press Ctrl-C again to stop at once"),
        "{first}"
    );
    let status = exits_within(&mut child, Duration::from_secs(2));
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{first}");
    let rest: Vec<String> = lines.try_iter().map(|(_, l)| l).collect();
    let resume = format!("--out {} --max-states 30000000 --resume", out.display());
    let said = rest.join("\n");
    assert!(said.contains(&resume), "{first}\n{said}");
    // The case cut short is not recorded: the journal holds nothing.
    assert_eq!(journal_lines(&out), 0);
}

/// A second Ctrl-C stops at once, and prints the resume command (written by the handler).
#[test]
fn a_second_ctrl_c_stops_at_once_and_says_how_to_resume() {
    let out = temp_dir("ctrl-c-twice").join("run");
    let (mut child, lines) = long_bfs_run(&out);
    let pid = child.id() as i32;
    unsafe { libc::kill(pid, libc::SIGINT) };
    // The second once the first is answered (two signals sent together are one).
    let mut said = Vec::new();
    while !said.iter().any(|l: &String| l.contains("stopping")) {
        said.push(lines.recv_timeout(Duration::from_secs(2)).unwrap().1);
    }
    // Frozen at once (the run would otherwise end in a few tens of ms), the second Ctrl-C is
    // pending when it goes on, and comes before it can finish.
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    unsafe { libc::kill(pid, libc::SIGINT) };
    unsafe { libc::kill(pid, libc::SIGCONT) };
    let status = exits_within(&mut child, Duration::from_secs(2));
    assert_eq!(status.and_then(|s| s.code()), Some(130));
    std::thread::sleep(Duration::from_millis(100));
    said.extend(lines.try_iter().map(|(_, l)| l));
    let said = said.join("\n");
    assert!(said.contains("stopped at once"), "{said}");
    assert!(
        said.contains(&format!(
            "--out {} --max-states 30000000 --resume",
            out.display()
        )),
        "{said}"
    );
}
