//! A run whose memory is capped well below what holding its rows or records needs, finishing
//! with correct results: the rows are read as a stream and spooled, the records stream to
//! disk and back (issue 19).
//!
//! The cap is on the address space (`setrlimit(RLIMIT_AS)` before the binary starts), with
//! glibc held to one malloc arena, so that what is capped is memory the run allocates rather
//! than the 64 MB each thread's arena reserves. Measured with `ulimit -v` for this run: the
//! code that held every record needed 300 to 350 MB of address space; the code that held
//! every row (records streamed) 160 MB; with both streamed, 50 to 60 MB (debug and release
//! builds alike), and 60 MB for 1,000,000 rows.

use crate::common::{bin, col, stderr, temp_dir};
use std::os::unix::process::CommandExt;

/// Rows of the generated dataset.
const ROWS: usize = 300_000;
/// The cap on the run's address space.
const CAP_MB: u64 = 100;

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
        .arg(&data);
    cap_address_space(&mut run, CAP_MB);
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

    // `plot` of the run under the same cap: its per-case charts draw a sample (the old
    // reader held every row, and drew 600,000 points into one coverage chart).
    let charts = dir.join("charts");
    let mut plot = bin();
    plot.args(["plot", "-o"]).arg(&charts).arg(&out);
    cap_address_space(&mut plot, CAP_MB);
    let res = plot.output().unwrap();
    assert!(res.status.success(), "plot under the cap: {}", stderr(&res));
    let coverage = std::fs::read_to_string(charts.join("coverage-time.svg")).unwrap();
    assert!(
        coverage.contains("a sample: 1 case in 8, chosen by case"),
        "300,000 rows thin to 1 in 8 (≤ 50,000 points)"
    );
    assert!(coverage.len() < 8 << 20, "{} bytes", coverage.len());
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

/// Rows of each run `compare` reads under a cap.
const COMPARE_ROWS: usize = 100_000;
/// The cap on `compare`'s address space.
const COMPARE_CAP_MB: u64 = 64;

/// Caps the address space of the process `cmd` starts at `mb` MB (glibc held to one arena).
fn cap_address_space(cmd: &mut std::process::Command, mb: u64) {
    cmd.env("MALLOC_ARENA_MAX", "1");
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let cap = mb << 20;
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
}

/// `compare` of two runs of 100,000 rows under a 64 MB address-space cap: it reads the runs
/// side by side and keeps a latency a case, so it finishes, matches every row and finds the
/// wrong answer planted near the end of one. The code that loaded both runs whole needed 175
/// to 200 MB of address space for them (measured with `ulimit -v`) and was killed by the cap;
/// streamed, compare needs less than 25 MB.
#[test]
fn compare_finishes_in_capped_memory_and_finds_a_planted_regression() {
    let dir = temp_dir("memory-compare");
    let data = dir.join("rows.csv");
    let gen = bin()
        .args(["gen", "-n", &COMPARE_ROWS.to_string(), "--seed", "23", "-o"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(gen.status.success(), "{}", stderr(&gen));
    let run = |name: &str| {
        let out = dir.join(name);
        let res = bin()
            .args(["run", "-s", "table", "-j", "2", "-q", "-o"])
            .arg(&out)
            .arg(&data)
            .output()
            .unwrap();
        assert!(res.status.success(), "{}", stderr(&res));
        out
    };
    let (a, b) = (run("a"), run("b"));
    // A wrong step count near the end of the current run: found by streaming to the end.
    let cases = b.join("cases.csv");
    let text = std::fs::read_to_string(&cases).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<String> = lines[0].split(',').map(String::from).collect();
    let (id_col, steps_col) = (col(&header, "id"), col(&header, "steps"));
    let line_col = col(&header, "line");
    let planted = lines.len() - 10;
    let mut cells: Vec<String> = lines[planted].split(',').map(String::from).collect();
    let steps: i64 = cells[steps_col].parse().unwrap();
    cells[steps_col] = (steps + 2).to_string();
    let (planted_id, planted_line) = (cells[id_col].clone(), cells[line_col].clone());
    lines[planted] = cells.join(",");
    std::fs::write(&cases, lines.join("\n") + "\n").unwrap();

    let mut cmp = bin();
    cmp.arg("compare").arg(&a).arg(&b);
    cap_address_space(&mut cmp, COMPARE_CAP_MB);
    let res = cmp.output().unwrap();
    let out = String::from_utf8_lossy(&res.stdout);
    assert_eq!(
        res.status.code(),
        Some(1),
        "compare under a {COMPARE_CAP_MB} MB address-space cap ({:?}): {out}{}",
        res.status,
        stderr(&res)
    );
    assert!(
        out.contains("REGRESSION: 1 wrong answer(s), 0 case(s) with more work, 0 missing"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{}:{planted_line} {planted_id} table: baseline solved in {steps}, current solved in {}",
            data.display(),
            steps + 2
        )),
        "{out}"
    );
    // Every case is in the latency figures.
    assert!(out.contains("latency per case"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
