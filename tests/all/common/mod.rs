//! Helpers for tests that run the `tilebench` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tilebench"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// A fresh, empty directory under the target dir (removed and recreated each call).
pub fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn run_ok<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> Output {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "tilebench {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

/// Reads a CSV file into a header and rows of strings.
pub fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(path)
        .unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Columns of cases.csv that are timings, different on every run (and the peak heap, which
/// depends on what ran before on the same thread).
pub const TIMING: [&str; 3] = ["latency_ns", "latency_min_ns", "peak_heap_bytes"];

/// A CSV file's header and rows with the named columns blanked (to compare two runs'
/// `cases.csv` outside their [`TIMING`]).
pub fn without(path: &Path, columns: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let (h, mut rows) = read_csv(path);
    let idx: Vec<usize> = columns.iter().map(|c| col(&h, c)).collect();
    for r in &mut rows {
        for &i in &idx {
            r[i].clear();
        }
    }
    (h, rows)
}

pub fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs tilebench with `input` on its stdin and waits for it.
pub fn with_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A program may end without reading its input (a refusal before reading): a closed
    // pipe is then no error of the test's.
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// What [`run_bounded`] saw: the exit status, the first bytes of stdout, all of stderr.
pub struct Bounded {
    pub status: std::process::ExitStatus,
    /// Whether it ran past the time limit (and was killed).
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs tilebench, reads at most `max_stdout` bytes of its stdout and then closes the pipe
/// (as `| head -c` would), and waits for it to end; kills it if it runs past `timeout`.
pub fn run_bounded(args: &[&str], max_stdout: usize, timeout: std::time::Duration) -> Bounded {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let out = child.stdout.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out.take(max_stdout as u64).read_to_end(&mut bytes);
        // The pipe closes here: a program still writing gets EPIPE.
        bytes
    });
    let t0 = std::time::Instant::now();
    let (status, timed_out) = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break (s, false);
        }
        if t0.elapsed() > timeout {
            let _ = child.kill();
            break (child.wait().unwrap(), true);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Bounded {
        status,
        timed_out,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The exact distance from `start` to `goal`, by breadth-first search (`bfs-hashset`): the
/// truth heuristics are checked against.
pub fn bfs_distance(start: tilebench::puzzle::Board, goal: tilebench::puzzle::Board) -> u32 {
    use tilebench::search::{registry, Config, Limits, Problem};
    registry::find("bfs-hashset")
        .unwrap()
        .solve_once(
            &Config::default(),
            &Problem::new(start, goal).unwrap(),
            &Limits::default(),
        )
        .unwrap()
        .steps()
        .unwrap() as u32
}

/// The board the moves `moves` (move indices; impossible ones skipped) make from `goal`: a
/// shallow instance BFS can solve.
pub fn walk(goal: tilebench::puzzle::Board, moves: &[u8]) -> tilebench::puzzle::Board {
    let mut b = goal;
    for &m in moves {
        if let Some(next) = b.apply(tilebench::puzzle::Move::from_index(m)) {
            b = next;
        }
    }
    b
}

/// The FNV-1a 64-bit hash of `bytes` as 16 hex digits: the checksum run.json and gen's
/// sidecar give a file, computed here apart from the library's own.
pub fn fnv1a64(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

pub(crate) use crate::rng::Rng;
