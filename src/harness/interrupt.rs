//! Ctrl-C (SIGINT) and SIGTERM during a run: the first is answered at once with one line on
//! stderr (what is finishing, that a second Ctrl-C stops now, and the `--resume` command) and
//! asks the run to stop: no case is started, the searches in flight stop at their next budget
//! check and external programs' exchanges are stopped (those cases are solved again on
//! resume), the journal is flushed, the run prints how to resume and exits 130 (143 for
//! SIGTERM). A second one ends the process at once (the journal keeps what it had flushed),
//! after writing the resume command again. The lines are formatted before any signal comes
//! ([`arm`]): a handler may only call `write(2)` and `_exit(2)`.
//! While the solvers are prepared (tables loaded or built, before any case of the session is
//! solved: nothing is in flight and nothing unsaved), the first signal ends the process at
//! once: a pattern-database build can take minutes, and waiting for it would leave Ctrl-C
//! unanswered all that time.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};

/// Raised by the first signal; the runner stops starting cases.
pub static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that raised [`STOP`] (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Raised while the run prepares its solvers (see [`Preparing`]).
static PREPARING: AtomicBool = AtomicBool::new(false);

/// Marks the time the run prepares its solvers, until dropped: a signal then ends the
/// process at once (nothing is solved yet, so nothing is lost), instead of after the
/// preparation, which may build pattern databases for minutes.
pub(crate) struct Preparing(());

impl Preparing {
    /// Marks the preparation as begun.
    pub(crate) fn begin() -> Preparing {
        PREPARING.store(true, Ordering::SeqCst);
        Preparing(())
    }
}

impl Drop for Preparing {
    fn drop(&mut self) {
        PREPARING.store(false, Ordering::SeqCst);
    }
}

/// The exit code for a run stopped by a signal: 128 + the signal number.
pub fn exit_code() -> i32 {
    128 + SIGNAL.load(Ordering::SeqCst).max(2)
}

/// Whether a signal asked the run to stop.
pub fn requested() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// The lines the handler writes, formatted by [`arm`]: (first signal, second signal). Leaked
/// on purpose (a handler cannot free, and a run arms once).
static LINES: AtomicPtr<(Vec<u8>, Vec<u8>)> = AtomicPtr::new(std::ptr::null_mut());

/// The first signal's line before a run has a directory to resume.
const FIRST_UNARMED: &[u8] = b"\ntilebench: stopping: no new case is started and the cases in \
    flight stop at their next check; press Ctrl-C again to stop at once\n";

/// The lines a signal prints for a run that `resume` (a shell command) finishes.
fn lines(resume: &str) -> (Vec<u8>, Vec<u8>) {
    (
        format!(
            "\ntilebench: stopping: no new case is started, the cases in flight stop at their \
             next check (they are solved again on resume) and what is solved is being saved; \
             press Ctrl-C again to stop at once. To finish the run later:\n  {resume}\n"
        )
        .into_bytes(),
        format!(
            "\ntilebench: stopped at once; what the journal had saved is kept. To finish the \
             run:\n  {resume}\n"
        )
        .into_bytes(),
    )
}

/// Formats the lines a signal prints from now on, with `resume`, the shell command that
/// finishes the run.
pub(crate) fn arm(resume: &str) {
    let new = Box::into_raw(Box::new(lines(resume)));
    // The old lines stay allocated: a handler may be writing them.
    LINES.store(new, Ordering::SeqCst);
}

/// Writes `bytes` to stderr with write(2) alone (async-signal-safe).
fn write_stderr(bytes: &[u8]) {
    let _ = rustix::io::write(rustix::stdio::stderr(), bytes);
}

/// What a signal does; runs in the signal handler, so it only loads and stores atomics and
/// calls write(2) and _exit(2).
fn on_signal(sig: i32) {
    let armed = LINES.load(Ordering::SeqCst);
    // SAFETY: null, or set by `arm` from a leaked Box that is never freed.
    let armed = unsafe { armed.as_ref() };
    if PREPARING.load(Ordering::SeqCst) {
        // A table being written is a temporary file the next build removes; the build lock
        // goes with the process.
        write_stderr(
            b"\ntilebench: interrupted while the solvers were prepared (tables loaded or \
              built), before any case of this session was solved: nothing is lost (what an \
              earlier session saved stays saved); run the same command again\n",
        );
        signal_hook::low_level::exit(128 + sig);
    }
    if STOP.swap(true, Ordering::SeqCst) && SIGNAL.load(Ordering::SeqCst) != 0 {
        // The second signal: stop now. _exit(2) runs no destructor and no atexit handler
        // that could take a lock.
        if let Some((_, second)) = armed {
            write_stderr(second);
        }
        signal_hook::low_level::exit(128 + sig);
    }
    SIGNAL.store(sig, Ordering::SeqCst);
    write_stderr(armed.map_or(FIRST_UNARMED, |(first, _)| first));
}

/// Installs the handlers for SIGINT and SIGTERM (once: later calls do nothing).
pub fn install() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // SAFETY: the action runs inside the signal handler; `on_signal` only loads and
            // stores atomics, reads the leaked lines and calls write(2) and _exit(2), all
            // async-signal-safe. Registering fails only for the signals that cannot be
            // caught, which these are not.
            let _ = unsafe { signal_hook::low_level::register(sig, move || on_signal(sig)) };
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Set in the environment of the child process [`signals_in_a_child`] starts.
    const CHILD: &str = "TILEBENCH_INTERRUPT_CHILD";

    /// Sends `sig` to this process.
    fn raise(sig: rustix::process::Signal) {
        rustix::process::kill_process(rustix::process::getpid(), sig).unwrap();
    }

    /// The child's part (does nothing in a normal test run): handlers installed twice (as a
    /// library user may), a first SIGINT that asks the run to stop and leaves the process
    /// running, then a second that ends it at once.
    #[test]
    fn signals_child() {
        if std::env::var_os(CHILD).is_none() {
            return;
        }
        install();
        install();
        arm("tilebench run data.csv --out RUN --resume");
        raise(rustix::process::Signal::INT);
        let until = Instant::now() + Duration::from_secs(10);
        while !requested() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(requested() && STOP.load(Ordering::SeqCst));
        assert_eq!(exit_code(), 130);
        println!("first signal handled, still running");
        raise(rustix::process::Signal::INT);
        std::thread::sleep(Duration::from_secs(10));
        println!("still running after the second signal");
    }

    #[test]
    fn a_first_signal_asks_to_stop_and_a_second_ends_the_process_at_once() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "harness::interrupt::tests::signals_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        let said = format!("stdout:\n{stdout}\nstderr:\n{stderr}");
        assert_eq!(out.status.code(), Some(130), "{said}");
        assert!(stdout.contains("first signal handled"), "{said}");
        assert!(!stdout.contains("after the second"), "{said}");
        assert!(
            stderr.contains("press Ctrl-C again to stop at once"),
            "{said}"
        );
        assert!(stderr.contains("stopped at once"), "{said}");
        assert_eq!(
            stderr
                .matches("tilebench run data.csv --out RUN --resume")
                .count(),
            2,
            "{said}"
        );
    }
}
