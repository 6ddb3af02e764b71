//! External programs as students and researchers write them, run with nothing but
//! `--solver NAME=COMMAND` (plus the protocol and blank flags their I/O needs): C that
//! never flushes, a program that solves one board per run, C++ fast I/O, Python `print` in a
//! `for line in sys.stdin` loop, Python that reads all of stdin first, and an HDU-style
//! `steps` program reading numbers with 0 as the blank. Each must give every row `solved`
//! or `unsolvable` with the right verdict, and `--check` must pass. The sources are in
//! `tests/students/`; the C and C++ ones are compiled here (gcc, g++), and a test whose
//! compiler is missing says so and checks the others.
//!
//! Two have bugs the harness must judge per row, not per program: a Python program whose
//! first answer after each start is wrong (one row `wrong`, 199 right, one notice), and a C
//! program that crashes on the three deepest boards of a file sorted hardest first (those
//! three rows `error` with the signal, the other 57 answered).
//!
//! Also: a single SIGTERM ends a run whose program hangs within 2 s and leaves none of the
//! solvers' processes behind (background children included); `--check` fails when nothing
//! was answered.

use crate::common::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/students");

/// Compiles `file` with `compiler` into the test's temporary directory; `None`, with a
/// message, when the compiler is missing.
/// Tests that compile the same file at once each write their own file and rename it into
/// place, so that no test runs a binary another is still writing.
fn compile(compiler: &str, file: &str) -> Option<PathBuf> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join(format!("student-{file}.bin"));
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let part = dir.join(format!("student-{file}.{}-{n}.part", std::process::id()));
    match Command::new(compiler)
        .args(["-O2", "-o"])
        .arg(&part)
        .arg(Path::new(SRC).join(file))
        .output()
    {
        Ok(o) if o.status.success() => {
            std::fs::rename(&part, &out).unwrap();
            Some(out)
        }
        Ok(o) => panic!(
            "{compiler} {file} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(_) => {
            eprintln!("skipping {file}: {compiler} is not installed");
            None
        }
    }
}

/// 100 pairs to the standard goal, 10 of them unsolvable, with exact expected_steps.
fn dataset(dir: &Path) -> PathBuf {
    let path = dir.join("cases.csv");
    let out = run_ok(&[
        "gen",
        "--count",
        "100",
        "--seed",
        "5",
        "--unsolvable",
        "0.1",
    ]);
    std::fs::write(&path, out.stdout).unwrap();
    path
}

/// `tilebench run` with `args`, killed (and the test failed) if it takes over five minutes:
/// a hang is a failure, not a stuck CI job. (100 Python processes started per case take about
/// a minute at a load of 2 on two cores and over two at a load of 7: the bound is for hangs,
/// not for speed.)
fn run_bounded(args: &[&str]) -> Output {
    let mut child = bin()
        .arg("run")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!("tilebench run {args:?} hung for five minutes");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `tilebench run DATA -s none -q --out OUT --solver SOLVER EXTRA…`, bounded as
/// [`run_bounded`].
fn run_solver(data: &Path, out: &Path, solver: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        data.to_str().unwrap(),
        "-s",
        "none",
        "-q",
        "--out",
        out.to_str().unwrap(),
        "--solver",
        solver,
    ];
    args.extend_from_slice(extra);
    run_bounded(&args)
}

fn rows(out: &Path) -> Vec<HashMap<String, String>> {
    let (h, rows) = read_csv(&out.join("cases.csv"));
    rows.into_iter()
        .map(|r| h.iter().cloned().zip(r).collect())
        .collect()
}

/// Runs one program over the dataset and checks every verdict against expected_steps.
/// Returns its stderr.
fn check_program(name: &str, command: &str, extra: &[&str], notice: Option<&str>) -> String {
    let dir = temp_dir(&format!("student-{name}"));
    let data = dataset(&dir);
    let out = dir.join("out");
    let solver = format!("{name}={command}");
    let res = run_solver(&data, &out, &solver, &[&["--check"], extra].concat());
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(0), "{name}: {err}");
    if let Some(n) = notice {
        assert!(err.contains(n), "{name}: no notice `{n}` in: {err}");
    }
    let tally = err
        .lines()
        .find_map(|l| l.strip_prefix(&format!("check: {name}: ")))
        .unwrap_or_else(|| panic!("no check line for {name}: {err}"));
    assert!(
        tally.starts_with("100 verified (") && tally.ends_with("0 wrong, 0 unverified"),
        "{err}"
    );
    let rows = rows(&out);
    assert_eq!(rows.len(), 100);
    for r in &rows {
        let want = if r["expected_steps"] == "-1" {
            "unsolvable"
        } else {
            "solved"
        };
        assert_eq!(r["status"], want, "{name}: {r:?}");
        assert_eq!(r["matches_expected"], "true", "{name}: {r:?}");
    }
    err
}

#[test]
fn c_reading_boards_in_a_scanf_loop_with_printf_and_no_fflush() {
    if let Some(exe) = compile("gcc", "scanf_loop.c") {
        let cmd = exe.display().to_string();
        check_program("scanf", &cmd, &[], Some("pseudo-terminal as stdout"));
    }
}

#[test]
fn c_solving_one_board_per_run() {
    if let Some(exe) = compile("gcc", "one_board.c") {
        let cmd = exe.display().to_string();
        check_program(
            "oneshot",
            &cmd,
            &[],
            Some("--solver-spawn per-case from now on"),
        );
        // Per-case processes report their CPU time and peak memory.
        let dir = temp_dir("student-usage");
        let data = dataset(&dir);
        let out = dir.join("out");
        let solver = format!("oneshot={cmd}");
        let res = run_solver(&data, &out, &solver, &["--solver-spawn", "per-case"]);
        assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
        for r in rows(&out) {
            let rss: u64 = r["max_rss_kb"].parse().unwrap_or(0);
            assert!(
                rss > 100,
                "a process's peak memory is at least its code: {r:?}"
            );
            assert!(r["cpu_us"].parse::<u64>().is_ok(), "{r:?}");
        }
    }
}

#[test]
fn cpp_with_fast_io_and_newlines_never_flushed() {
    if let Some(exe) = compile("g++", "fast_io.cpp") {
        let cmd = exe.display().to_string();
        check_program(
            "fastio",
            &cmd,
            &[],
            Some("--solver-spawn batch from now on"),
        );
    }
}

#[test]
fn python_print_in_a_for_line_loop_without_unbuffered_output() {
    check_program(
        "pyloop",
        &format!("env -u PYTHONUNBUFFERED python3 {SRC}/print_loop.py"),
        &[],
        None,
    );
}

#[test]
fn python_reading_all_of_stdin_first() {
    check_program(
        "pyall",
        &format!("python3 {SRC}/read_all.py"),
        &[],
        Some("--solver-spawn batch from now on"),
    );
    // Switched to batch on the way, run.json says what latency_ns measured in the end.
    let dir = temp_dir("student-switched");
    let data = dataset(&dir);
    let out = dir.join("out");
    let res = run_solver(
        &data,
        &out,
        &format!("pyall=python3 {SRC}/read_all.py"),
        &[],
    );
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let asked = json["external_solvers"][0]["latency"].as_str().unwrap();
    assert!(asked.starts_with("round trip"), "{asked}");
    let ran = json["solver_facts"]["pyall"]["latency"].as_str().unwrap();
    assert!(ran.starts_with("not measured per case"), "{ran}");
    // Asked for by name, batch mode leaves per-case latency empty.
    let dir = temp_dir("student-batch");
    let data = dataset(&dir);
    let out = dir.join("out");
    let solver = format!("pyall=python3 {SRC}/read_all.py");
    let res = run_solver(&data, &out, &solver, &["--solver-spawn", "batch"]);
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    for r in rows(&out) {
        assert_eq!(r["latency_ns"], "", "not measured per case: {r:?}");
        // Nor counted per case: one process answered all (unknown is empty, never 0).
        for c in ["expanded", "generated", "stored", "peak_frontier"] {
            assert_eq!(r[c], "", "{c}: {r:?}");
        }
        assert!(
            matches!(r["status"].as_str(), "solved" | "unsolvable"),
            "{r:?}"
        );
    }
}

#[test]
fn python_printing_an_empty_line_after_each_answer() {
    // Empty lines are separators, never the next case's answer (so nothing is one case
    // late), and the program is told once.
    check_program(
        "blank",
        &format!("python3 {SRC}/blank_after.py"),
        &[],
        Some("prints empty lines besides its answers"),
    );
}

#[test]
fn a_steps_program_reading_numbers_with_0_as_the_blank() {
    let Some(exe) = compile("gcc", "steps_zero.c") else {
        return;
    };
    let cmd = exe.display().to_string();
    check_program(
        "steps0",
        &cmd,
        &["--solver-protocol", "steps", "--solver-blank", "0"],
        None,
    );
    // Sent `x`, it reads its case and stops at the first token: each row is that case's
    // error and names the flag (a program that read its case is started again for the next
    // one; only a program that ends before reading is given up on), and --check fails.
    let dir = temp_dir("student-steps-x");
    let data = dataset(&dir);
    let out = dir.join("out");
    let solver = format!("steps0={cmd}");
    let res = run_solver(
        &data,
        &out,
        &solver,
        &["--check", "--solver-protocol", "steps"],
    );
    assert_ne!(res.status.code(), Some(0));
    let rows = rows(&out);
    for r in &rows {
        assert_eq!(r["status"], "error", "{r:?}");
        assert!(r["message"].contains("pass --solver-blank 0"), "{r:?}");
        assert!(!r["message"].contains("not started again"), "{r:?}");
    }
    assert!(
        stderr(&res).contains("check: steps0: 0 verified"),
        "{}",
        stderr(&res)
    );
}

/// The pids of processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(marker) && !text.contains("cargo") {
            found.push(format!("{}: {text}", e.file_name().to_string_lossy()));
        }
    }
    found
}

#[test]
fn one_sigterm_ends_a_hung_run_within_2_s_and_leaves_no_process() {
    let dir = temp_dir("student-sigterm");
    let data = dataset(&dir);
    let out = dir.join("out");
    let marker = format!("hung-{}", std::process::id());
    // Reads its case, then sleeps (not in a read, so nothing tells it from a slow solver),
    // with a background child of its own.
    let solver = format!(
        "hang=sleep 300 & python3 -c 'import sys,time; sys.stdin.readline(); time.sleep(1000)' {marker}"
    );
    let mut child = bin()
        .args(["run", data.to_str().unwrap(), "-s", "none", "-q", "--out"])
        .arg(&out)
        .args(["--solver", &solver])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !processes_with(&marker).is_empty(),
        "the program is running"
    );
    // SAFETY: plain syscall on our child's pid.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(2),
            "still running 2 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(143), "128 + SIGTERM");
    let err = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    assert!(
        err.contains("--resume"),
        "the resume command is printed: {err}"
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        processes_with(&marker),
        Vec::<String>::new(),
        "left running"
    );
}

#[test]
fn a_background_child_of_a_program_does_not_outlive_a_normal_run() {
    let Some(exe) = compile("gcc", "scanf_loop.c") else {
        return;
    };
    let dir = temp_dir("student-bg");
    let data = dataset(&dir);
    let out = dir.join("out");
    let marker = format!("30{}", std::process::id() % 100_000);
    let solver = format!("bg=sleep {marker} & exec {}", exe.display());
    let res = run_solver(&data, &out, &solver, &[]);
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        processes_with(&format!("sleep {marker}")),
        Vec::<String>::new()
    );
}

#[test]
fn check_fails_when_a_program_answers_nothing() {
    let dir = temp_dir("student-silent");
    let data = dir.join("three.csv");
    std::fs::write(
        &data,
        "start,expected_steps\n1 2 3 x 4 6 7 5 8,3\n2 3 4 1 5 x 7 6 8,19\n1 2 3 4 5 6 7 8 x,0\n",
    )
    .unwrap();
    let out = dir.join("out");
    let res = run_solver(
        &data,
        &out,
        "silent=python3 -c 'import sys,time; sys.stdin.readline(); time.sleep(60)'",
        &["--check", "--timeout", "0.3"],
    );
    assert_eq!(res.status.code(), Some(1), "{}", stderr(&res));
    let err = stderr(&res);
    assert!(
        err.contains("check: silent: 0 verified, 0 wrong, 3 unverified (3 limit)"),
        "{err}"
    );
    assert!(rows(&out).iter().all(|r| r["status"] == "limit"));
    // The closing lines name it, with its first row's message.
    assert!(
        err.lines().any(|l| l.starts_with(
            "tilebench: silent answered none of its 3 row(s) (0 error, 3 limit); the first: "
        ) && l.contains("no answer within --timeout 0.300 s")),
        "{err}"
    );
    // A limit row is not a solve's latency: summary.csv counts it apart.
    let (h, s) = read_csv(&out.join("summary.csv"));
    assert_eq!(s[0][col(&h, "limit")], "3");
}

/// Counts of the rows by status.
fn tally(rows: &[HashMap<String, String>]) -> HashMap<String, usize> {
    let mut t = HashMap::new();
    for r in rows {
        *t.entry(r["status"].clone()).or_insert(0) += 1;
    }
    t
}

#[test]
fn python_whose_first_answer_after_each_start_is_wrong() {
    // Run by hand over these 200 boards, it gets 199 right: only the row of its first
    // answer may be wrong, and the pattern is said once, not once per case or per process.
    let dir = temp_dir("student-first-wrong");
    let data = dir.join("cases.csv");
    let gen = run_ok(&["gen", "--count", "200", "--seed", "11"]);
    std::fs::write(&data, gen.stdout).unwrap();
    let out = dir.join("out");
    let solver = format!("firstwrong=python3 {SRC}/first_wrong.py");
    let res = run_solver(&data, &out, &solver, &[]);
    let err = stderr(&res);
    let rows = rows(&out);
    assert_eq!(rows.len(), 200, "{err}");
    let t = tally(&rows);
    assert!(t.get("solved").copied().unwrap_or(0) >= 199, "{t:?}\n{err}");
    assert_eq!(t.get("wrong"), Some(&1), "{t:?}\n{err}");
    assert_eq!(t.len(), 2, "only solved and wrong rows: {t:?}\n{err}");
    // The wrong row is judged on the answer the program gave its board: one move short.
    let wrong = rows.iter().find(|r| r["status"] == "wrong").unwrap();
    assert!(wrong["message"].contains("not at the goal"), "{wrong:?}");
    let notices = err
        .lines()
        .filter(|l| l.contains("its first answer after starting"))
        .count();
    assert_eq!(notices, 1, "{err}");
}

#[test]
fn c_crashing_on_the_three_deepest_boards_of_a_sorted_file() {
    let Some(exe) = compile("gcc", "crash_deep.c") else {
        return;
    };
    // A file sorted hardest first: three boards 30 moves deep (it crashes on those), then 57
    // it answers. With one worker the crashes come before any answer, as on a one-core
    // machine: they must cost their own rows only.
    let dir = temp_dir("student-crash");
    let deep = run_ok(&["gen", "--count", "3", "--depth", "30", "--seed", "7"]);
    let easy = run_ok(&["gen", "--count", "80", "--seed", "8"]);
    let mut csv = String::from_utf8(deep.stdout).unwrap();
    let mut n = 3;
    for line in String::from_utf8(easy.stdout).unwrap().lines().skip(1) {
        let (_, rest) = line.split_once(',').unwrap();
        let steps: i64 = rest.rsplit(',').next().unwrap().parse().unwrap();
        if steps < 29 && n < 60 {
            n += 1;
            csv.push_str(&format!("{n},{rest}\n"));
        }
    }
    assert_eq!(n, 60, "57 boards under 29 moves: {csv}");
    let data = dir.join("sorted.csv");
    std::fs::write(&data, csv).unwrap();
    let out = dir.join("out");
    let solver = format!("deep={}", exe.display());
    let res = run_solver(&data, &out, &solver, &["-j", "1"]);
    let err = stderr(&res);
    let rows = rows(&out);
    assert_eq!(rows.len(), 60, "{err}");
    for r in &rows[..3] {
        assert_eq!(r["status"], "error", "{r:?}");
        let m = &r["message"];
        // `sh -c` may run the program as its child: then its status is 139, said as the
        // signal it stands for.
        assert!(m.contains("killed by signal 11 (SIGSEGV)"), "{m}");
        assert!(m.contains("without answering"), "{m}");
        assert!(!m.contains("not started again"), "{m}");
    }
    for r in &rows[3..] {
        assert_eq!(r["status"], "solved", "{r:?}");
        assert_eq!(r["matches_expected"], "true", "{r:?}");
    }
}

#[test]
fn a_class_run_names_the_program_that_answered_nothing() {
    // Two students in one run: one answers every board; the other parses the blank `x` as a
    // number and dies on every board. The run's closing lines give the second a line of its
    // own, with its first message, and none to the first.
    let dir = temp_dir("student-class");
    let data = dir.join("three.csv");
    std::fs::write(
        &data,
        "start\n1 2 3 x 4 6 7 5 8\n2 3 4 1 5 x 7 6 8\n8 1 3 7 x 6 4 2 5\n",
    )
    .unwrap();
    let out = dir.join("out");
    let good = format!("good=python3 {SRC}/print_loop.py");
    let res = run_solver(
        &data,
        &out,
        &good,
        &[
            "--solver",
            "ints=python3 -c 'import sys; print(sum(int(t) for t in sys.stdin.readline().split()))'",
        ],
    );
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(2), "{err}");
    let named: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("answered none of its"))
        .collect();
    assert_eq!(named.len(), 1, "{err}");
    assert!(
        named[0].starts_with(
            "tilebench: ints answered none of its 3 row(s) (3 error, 0 limit); the first: "
        ),
        "{err}"
    );
    assert!(named[0].contains("ValueError"), "{err}");
}

/// The lines of `err` that hold `text`, but the closing counts (`NAME: in all, …`).
fn lines_with<'a>(err: &'a str, text: &str) -> Vec<&'a str> {
    err.lines()
        .filter(|l| l.contains(text) && !l.contains(": in all, "))
        .collect()
}

#[test]
fn python_printing_a_debug_line_before_each_answer() {
    // Every row is judged on its answer (check_program: 100 verified), and the debug line is
    // quoted in one notice, not one per row.
    let cmd = format!("python3 {SRC}/debug_line.py");
    let err = check_program("debug", &cmd, &[], Some("such as `Solving "));
    assert_eq!(
        lines_with(&err, "lines that are not answers").len(),
        1,
        "{err}"
    );
    // Graded as a judge would, each row is an error that quotes the line.
    let dir = temp_dir("student-debug-strict");
    let data = dataset(&dir);
    let out = dir.join("out");
    let res = run_solver(&data, &out, &format!("debug={cmd}"), &["--solver-strict"]);
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    for r in rows(&out) {
        assert_eq!(r["status"], "error", "{r:?}");
        assert!(r["message"].contains("printed `Solving "), "{r:?}");
        assert!(r["message"].contains("--solver-strict"), "{r:?}");
    }
}

#[test]
fn python_printing_case_n_before_each_answer() {
    let cmd = format!("python3 {SRC}/case_prefix.py");
    let err = check_program("prefix", &cmd, &[], Some("the answer after `Case "));
    assert_eq!(lines_with(&err, "come after a label").len(), 1, "{err}");
    assert!(!err.contains("first answer after starting"), "{err}");
    let dir = temp_dir("student-prefix-strict");
    let data = dataset(&dir);
    let out = dir.join("out");
    let res = run_solver(&data, &out, &format!("prefix={cmd}"), &["--solver-strict"]);
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    for r in rows(&out) {
        assert_eq!(r["status"], "error", "{r:?}");
        assert!(r["message"].contains("after the label `Case "), "{r:?}");
    }
}

#[test]
fn python_writing_answers_without_a_line_end() {
    // It flushes: nothing is held in a buffer, so it is told about the missing line end
    // (quoted), not about flushing, and stays in persistent mode.
    let err = check_program(
        "nonl",
        &format!("python3 {SRC}/no_newline.py"),
        &[],
        Some("prints no line end after its answer (`"),
    );
    assert!(!err.contains("does not flush"), "{err}");
    assert!(!err.contains("batch"), "{err}");
}

#[test]
fn python_printing_each_answer_twice() {
    // No row is judged on another board's answer: check_program finds every row verified.
    let err = check_program(
        "twice",
        &format!("python3 {SRC}/twice.py"),
        &[],
        Some("prints an answer again after it was read"),
    );
    assert_eq!(lines_with(&err, "prints an answer again").len(), 1, "{err}");
}

#[test]
fn c_writing_a_nul_after_its_answer() {
    let Some(exe) = compile("gcc", "nul_end.c") else {
        return;
    };
    let dir = temp_dir("student-nul");
    let data = dataset(&dir);
    let out = dir.join("out");
    let res = run_solver(&data, &out, &format!("nul={}", exe.display()), &[]);
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    // Not one raw control byte in cases.csv or on stderr; the NUL is shown escaped.
    let csv = std::fs::read(out.join("cases.csv")).unwrap();
    let raw = |b: &[u8]| b.iter().any(|&c| c < 0x20 && c != b'\n' && c != b'\r');
    assert!(!raw(&csv), "a raw control byte in cases.csv");
    assert!(!raw(&res.stderr), "a raw control byte on stderr");
    for r in rows(&out) {
        if r["expected_steps"] == "-1" {
            assert_eq!(r["status"], "unsolvable", "{r:?}");
        } else {
            assert_eq!(r["status"], "error", "{r:?}");
            assert!(r["message"].contains(r"`\u{0}` at position"), "{r:?}");
        }
    }
}

#[test]
fn cpp_reading_the_board_as_ints_without_the_blank_flag() {
    let Some(exe) = compile("g++", "ints_moves.cpp") else {
        return;
    };
    let cmd = exe.display().to_string();
    check_program("ints", &cmd, &["--solver-blank", "0"], None);
    let dir = temp_dir("student-ints");
    let data = dir.join("cases.csv");
    std::fs::write(
        &data,
        run_ok(&["gen", "--count", "25", "--seed", "5"]).stdout,
    )
    .unwrap();
    let out = dir.join("out");
    let res = run_solver(&data, &out, &format!("ints={cmd}"), &[]);
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    for r in rows(&out) {
        assert_eq!(r["status"], "error", "{r:?}");
        assert!(r["message"].contains("pass --solver-blank 0"), "{r:?}");
    }
    // One explanation on stderr, the other rows counted.
    let err = stderr(&res);
    let explained = lines_with(&err, "pass --solver-blank 0");
    assert_eq!(
        explained
            .iter()
            .filter(|l| l.starts_with("error: "))
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains("error: … and 19 more with the same message but for their case"),
        "{err}"
    );
    assert!(
        err.contains("error: … and 5 more (see the message column"),
        "{err}"
    );
}

/// The median latency_ns of the answered rows of `out`.
fn median_latency(out: &Path) -> u64 {
    let mut l: Vec<u64> = rows(out)
        .iter()
        .filter(|r| matches!(r["status"].as_str(), "solved" | "unsolvable"))
        .map(|r| r["latency_ns"].parse().unwrap())
        .collect();
    l.sort_unstable();
    l[l.len() / 2]
}

/// Runs bg_helper.c over 20 boards (one process per case), starting its helper with
/// `helper` (`sleep` or `setsid sleep`, marked `marker`), and checks every row answered and
/// nothing left running. Returns the median per-case latency.
fn run_with_helper(exe: &Path, helper: &str, marker: &str, extra: &[&str]) -> u64 {
    let dir = temp_dir(&format!("student-helper-{marker}"));
    let data = dir.join("cases.csv");
    std::fs::write(
        &data,
        run_ok(&["gen", "--count", "20", "--seed", "9"]).stdout,
    )
    .unwrap();
    let out = dir.join("out");
    let solver = format!("helper={} {marker} '{helper}'", exe.display());
    let res = run_solver(&data, &out, &solver, extra);
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(0), "{err}");
    for r in rows(&out) {
        assert!(
            matches!(r["status"].as_str(), "solved" | "unsolvable"),
            "{r:?}\n{err}"
        );
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        processes_with(&format!("sleep {marker}")),
        Vec::<String>::new(),
        "left running"
    );
    median_latency(&out)
}

#[test]
fn a_program_starting_a_background_helper_that_holds_its_output() {
    let Some(exe) = compile("gcc", "bg_helper.c") else {
        return;
    };
    let id = std::process::id() % 100_000;
    // Persistent by default: it answers once and exits, so it is run per case; no case
    // waits for the helper to close the pipe (it never does).
    run_with_helper(&exe, "", &format!("41{id}.5"), &[]);
    // Per case, side by side with the same program whose helper exits at once: the process's
    // wall time ends when `sh -c` exits, not when the helper lets go of the pipe (the helper
    // used to add the 0.5 s grace to every case).
    let per_case = ["--solver-spawn", "per-case", "-j", "1"];
    let lingering = run_with_helper(&exe, "", &format!("42{id}.5"), &per_case);
    let quick = run_with_helper(&exe, "true ||", &format!("43{id}.5"), &per_case);
    assert!(
        lingering < quick + 100_000_000,
        "median {lingering} ns with a lingering helper against {quick} ns without"
    );
}

#[test]
fn a_program_starting_a_setsid_helper() {
    let Some(exe) = compile("gcc", "bg_helper.c") else {
        return;
    };
    let id = std::process::id() % 100_000;
    // The helper leaves the program's process group and session: it is found by the mark
    // in its environment and killed with the program.
    run_with_helper(&exe, "setsid", &format!("44{id}.5"), &[]);
    run_with_helper(
        &exe,
        "setsid",
        &format!("45{id}.5"),
        &["--solver-spawn", "per-case"],
    );
}

#[test]
fn a_slow_program_is_told_it_is_computing_once() {
    let dir = temp_dir("student-slow");
    let data = dir.join("two.csv");
    std::fs::write(&data, "start\n1 2 3 x 4 6 7 5 8\n2 3 4 1 5 x 7 6 8\n").unwrap();
    let out = dir.join("out");
    let spin = "python3 -u -c 'import sys\nfor l in sys.stdin:\n    x = 0\n    for i in range(10**9): x += i\n'";
    let res = run_solver(
        &data,
        &out,
        &format!("slow={spin}"),
        &["-j", "1", "--timeout", "5.6"],
    );
    let err = stderr(&res);
    let told = lines_with(&err, "still computing");
    assert_eq!(told.len(), 1, "{err}");
    assert!(told[0].contains("(using CPU)"), "{err}");
    assert!(told[0].contains("timeout of 5.6 s"), "{err}");
    assert!(!err.contains("flush"), "{err}");
    assert!(err.contains("in all, 2 cases still computing"), "{err}");
}

#[test]
fn python_writing_each_answer_in_two_parts_from_a_thread() {
    // The main thread is back to reading while a worker still writes the rest of the line:
    // the answer is the whole line (it was cut after its first part).
    let err = check_program(
        "twowrites",
        &format!("python3 {SRC}/two_writes.py"),
        &[],
        None,
    );
    assert!(!err.contains("no line end"), "{err}");
}

#[test]
fn python_prompting_for_each_board_with_input() {
    // `Enter board: ` before each read: the answer after the prompt is judged, and the
    // prompt left waiting at the end of the output is never taken for an answer.
    for spawn in ["persistent", "per-case"] {
        let err = check_program(
            "prompt",
            &format!("python3 {SRC}/prompt.py"),
            &["--solver-spawn", spawn],
            Some("the answer after `Enter board:`"),
        );
        assert!(!err.contains("no line end"), "{err}");
    }
}

#[test]
fn python_reading_all_first_and_printing_each_answer_twice_in_batch_mode() {
    // The batch's lines are matched to the cases as they come: no repeat shifts an answer
    // onto another board (12 of 20 rows were judged on other boards' answers).
    check_program(
        "batchtwice",
        &format!("python3 {SRC}/read_all_twice.py"),
        &["--solver-spawn", "batch"],
        Some("prints an answer again"),
    );
}

#[test]
fn python_printing_a_stray_move_string_after_each_answer() {
    // `dull` reads as moves: it is a second answer line, skipped before the next case is
    // sent, with one notice (it cost nearly every row: restarts that found it again).
    let err = check_program(
        "dull",
        &format!("python3 {SRC}/extra_moves.py"),
        &[],
        Some("second answer line after the one taken for a case (`dull`)"),
    );
    assert_eq!(lines_with(&err, "second answer line").len(), 1, "{err}");
}

/// A stray line printed a moment after each answer (after a sleep, flushed on its own)
/// arrives after the answer: the next case is sent only once the program is back to reading,
/// so the stray line is the previous case's and no case is judged on it. Without that wait
/// the first case's repeat, and later every case, would take `dull` for its answer.
#[test]
fn python_printing_a_stray_line_a_moment_after_each_answer() {
    let dir = temp_dir("student-late");
    let data = dir.join("cases.csv");
    let out = run_ok(&["gen", "--count", "20", "--seed", "9", "--unsolvable", "0.1"]);
    std::fs::write(&data, out.stdout).unwrap();
    let res = run_solver(
        &data,
        &dir.join("out"),
        &format!("late=python3 {SRC}/late_stray.py"),
        &["--check"],
    );
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(0), "{err}");
    assert!(
        err.contains("check: passed: all 20 answered rows verified"),
        "{err}"
    );
    assert!(
        err.contains("second answer line after the one taken for a case (`dull`)"),
        "{err}"
    );
    assert!(
        !err.contains("differs from its answer when the same case was sent again"),
        "{err}"
    );
}

#[test]
fn a_banner_is_skipped_and_strict_grading_sees_it() {
    let cmd = format!("python3 {SRC}/banner.py");
    check_program("banner", &cmd, &[], Some("such as `8-puzzle solver ready`"));
    // Graded as a judge would, the banner is an error for the row it came before, in every
    // mode (a fresh process's first answer was not looked at).
    for spawn in ["persistent", "per-case"] {
        let dir = temp_dir(&format!("student-banner-{spawn}"));
        let data = dir.join("cases.csv");
        std::fs::write(
            &data,
            run_ok(&["gen", "--count", "8", "--seed", "4"]).stdout,
        )
        .unwrap();
        let out = dir.join("out");
        let res = run_solver(
            &data,
            &out,
            &format!("banner={cmd}"),
            &["--solver-strict", "--solver-spawn", spawn, "-j", "1"],
        );
        assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
        let rows = rows(&out);
        let errors: Vec<_> = rows.iter().filter(|r| r["status"] == "error").collect();
        assert!(!errors.is_empty(), "{spawn}");
        for r in &errors {
            assert!(r["message"].contains("`8-puzzle solver ready`"), "{r:?}");
        }
        if spawn == "per-case" {
            assert_eq!(errors.len(), rows.len(), "every process greets");
        }
    }
}
