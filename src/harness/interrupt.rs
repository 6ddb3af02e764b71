//! Ctrl-C (SIGINT) and SIGTERM during a run: the first asks the run to stop (cases in flight
//! finish, the journal is flushed, the run prints how to resume and exits 130, or 143 for
//! SIGTERM); a second one ends the process at once (the journal keeps what it had flushed).
//! While the solvers are prepared (tables loaded or built, before any case of the session is
//! solved: nothing is in flight and nothing unsaved), the first signal ends the process at
//! once: a pattern-database build can take minutes, and waiting for it would leave Ctrl-C
//! unanswered all that time.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Raised by the first signal; the runner stops starting cases.
pub static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that raised [`STOP`] (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Raised while the run prepares its solvers (see [`Preparing`]).
static PREPARING: AtomicBool = AtomicBool::new(false);

/// Marks the time the run prepares its solvers, until dropped: a signal then ends the
/// process at once (nothing is solved yet, so nothing is lost), instead of after the
/// preparation, which may build pattern databases for minutes.
pub struct Preparing(());

impl Preparing {
    /// Marks the preparation as begun.
    pub fn begin() -> Preparing {
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

#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    if PREPARING.load(Ordering::SeqCst) {
        const SAID: &[u8] = b"\ntilebench: interrupted while the solvers were prepared (tables \
            loaded or built), before any case of this session was solved: nothing is lost \
            (what an earlier session saved stays saved); run the same command again\n";
        // Only async-signal-safe calls: write(2) and _exit(2). A table being written is a
        // temporary file the next build removes; the build lock goes with the process.
        unsafe {
            libc::write(2, SAID.as_ptr().cast(), SAID.len());
            libc::_exit(128 + sig);
        }
    }
    if STOP.swap(true, Ordering::SeqCst) && SIGNAL.load(Ordering::SeqCst) != 0 {
        // The second signal: stop now (only async-signal-safe calls here).
        unsafe { libc::_exit(128 + sig) };
    }
    SIGNAL.store(sig, Ordering::SeqCst);
}

/// Installs the handlers for SIGINT and SIGTERM.
pub fn install() {
    #[cfg(unix)]
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        for sig in [libc::SIGINT, libc::SIGTERM] {
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}
