//! A run whose memory is capped well below what holding its records needs, finishing with
//! correct results: the records stream to disk and back (issue 19).
//!
//! The cap is on the address space (`setrlimit(RLIMIT_AS)` before the binary starts), with
//! glibc held to one malloc arena, so that what is capped is memory the run allocates rather
//! than the 64 MB each thread's arena reserves. The code that held every record in memory
//! needs 300 to 350 MB of address space for this run (measured with `ulimit -v`) and is
//! killed by the cap; with the records streamed, the run needs 140 to 160 MB.

mod common;
use common::{bin, col, stderr, temp_dir};
use std::os::unix::process::CommandExt;

/// Rows of the generated dataset.
const ROWS: usize = 300_000;
/// The cap on the run's address space.
const CAP_MB: u64 = 200;

#[test]
fn a_run_finishes_in_capped_memory_with_every_row_in_order() {
    let dir = temp_dir("memory");
    let data = dir.join("rows.csv");
    let out = dir.join("run");
    let gen = bin()
        .args(["gen", "-n", &ROWS.to_string(), "--seed", "19", "-o"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(gen.status.success(), "{}", stderr(&gen));

    let mut run = bin();
    run.args(["run", "-s", "table", "-j", "2", "-q", "-o"])
        .arg(&out)
        .arg(&data)
        .env("MALLOC_ARENA_MAX", "1");
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        run.pre_exec(|| {
            let cap = CAP_MB << 20;
            let lim = libc::rlimit {
                rlim_cur: cap,
                rlim_max: cap,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let res = run.output().unwrap();
    assert!(
        res.status.success(),
        "the run failed under a {CAP_MB} MB address-space cap ({:?}): {}",
        res.status,
        stderr(&res)
    );

    // Every row, in input order then strategy order, with the dataset's answer.
    let mut r = csv::Reader::from_path(out.join("cases.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let (line, strategy, status, matches) = (
        col(&header, "line"),
        col(&header, "strategy"),
        col(&header, "status"),
        col(&header, "matches_expected"),
    );
    let mut n = 0;
    for row in r.records() {
        let row = row.unwrap();
        assert_eq!(row[line].parse::<usize>().unwrap(), n + 2, "{row:?}");
        assert_eq!(&row[strategy], "table", "{row:?}");
        assert_eq!(&row[status], "solved", "{row:?}");
        assert_eq!(&row[matches], "true", "{row:?}");
        n += 1;
    }
    assert_eq!(n, ROWS);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(
        summary
            .lines()
            .filter(|l| l.contains(&format!(",{ROWS},{ROWS},")))
            .count(),
        1,
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
