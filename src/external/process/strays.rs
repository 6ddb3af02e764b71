//! Processes a program started outside its process group (`setsid`, a daemon that forks
//! twice): found by a mark in their environment and killed with the program.
//!
//! Every program is started with `TILEBENCH_PROGRAM=<mark>` in its environment, a mark of
//! its own. Children inherit it, whatever session or process group they move to and
//! whoever their parent becomes, so when the program ends, every process still carrying its
//! mark is one it started. This finds more than a child subreaper (`PR_SET_CHILD_SUBREAPER`)
//! would: an orphan reparented to tilebench does not say which of several programs running
//! at once started it, and a `setsid` child whose parent is still alive is no orphan at all.
//! A process that empties its environment (`env -i`) escapes the mark.
//!
//! Read from `/proc`; where there is none, nothing is found.

use rustix::process::{Pid, Signal};
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that carries the mark.
pub const VAR: &str = "TILEBENCH_PROGRAM";

/// A new mark: this process's id and a counter, unique among the programs of this run.
pub fn new_mark() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The last process id the kernel handed out, where `/proc` says it.
fn last_pid() -> Option<i64> {
    std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Kills (SIGKILL) every process that carries `mark`, but `leader` (reaped by its owner).
/// Unless `all`, only the ids handed out since the leader's are looked at (above it, or,
/// once ids wrapped around, below the last one handed out), so a short-lived program costs a
/// listing of `/proc` and one small read per process started since; `all` (a program that
/// lived long enough for ids to come round again) reads every process's environment.
/// Returns how many were killed.
pub fn kill_marked(mark: &str, leader: libc::pid_t, all: bool) -> usize {
    let Some(pids) = super::unix::proc_pids() else {
        return 0;
    };
    let leader = i64::from(leader);
    // Ids wrapped around since the leader started: then lower ids are newer too.
    let last = last_pid();
    let wrapped = last.is_some_and(|last| last < leader);
    let needle = format!("{VAR}={mark}");
    let mut killed = 0;
    for pid in pids {
        let pid = i64::from(pid);
        let newer = if wrapped {
            pid > leader || last.is_some_and(|last| pid <= last)
        } else {
            pid > leader
        };
        if pid == leader || !(all || newer) {
            continue;
        }
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
            // The process carries this program's mark. One that ended meanwhile is counted
            // all the same: it is gone, as asked.
            if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                let _ = rustix::process::kill_process(pid, Signal::KILL);
            }
            killed += 1;
        }
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn a_process_that_left_the_group_is_found_by_its_mark() {
        if !std::path::Path::new("/proc/self/environ").exists() {
            return;
        }
        let mark = new_mark();
        // A child in a session of its own, as `setsid` makes it.
        let mut child = Command::new("setsid")
            .args(["sleep", "1000"])
            .env(VAR, &mark)
            .spawn()
            .unwrap();
        // Until the child has exec'd, its environment is tilebench's own.
        let t0 = std::time::Instant::now();
        let mut n = 0;
        while n == 0 && t0.elapsed() < std::time::Duration::from_secs(5) {
            std::thread::sleep(std::time::Duration::from_millis(10));
            n = kill_marked(&mark, 1, true);
        }
        assert_eq!(n, 1);
        let _ = child.wait();
        // Another mark finds nothing.
        assert_eq!(kill_marked(&new_mark(), 1, true), 0);
    }
}
