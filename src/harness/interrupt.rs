//! Ctrl-C (SIGINT) and SIGTERM during a run: the first asks the run to stop (cases in flight
//! finish, the journal is flushed, the run prints how to resume and exits 130, or 143 for
//! SIGTERM); a second one ends the process at once (the journal keeps what it had flushed).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Raised by the first signal; the runner stops starting cases.
pub static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that raised [`STOP`] (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

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
