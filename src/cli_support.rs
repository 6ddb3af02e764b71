//! What only the `tilebench` binary needs from the library: the command line's own plumbing,
//! kept apart from the library's API. A program using tilebench as a library does not need
//! these; they are public because the binary is a separate crate that uses the library as any
//! user would, and they may change with the command line.
//!
//! - [`interrupt`]: Ctrl-C and SIGTERM during `tilebench run` (the handler, the exit code);
//! - [`PerSolver`] (and its [`PerSolverError`]): options given per solver in the `[SOLVER=]VALUE` form;
//! - [`resume_command`] and [`BASELINES_DIR`]: the `--resume` line and where `--baseline`
//!   saves;
//! - [`atomic_write`] (its error is [`crate::util::WriteError`]): an output file written whole
//!   or not at all;
//! - [`escape_controls`] and [`shell_command`]: text for the terminal;
//! - [`io_reason`]: a system error as the end of a sentence, as the library's messages say
//!   it (for the command line's own wording of an error's fields).
//!
//! Nothing in the library imports this module (`tests/all/layers.rs`).

pub use crate::harness::per_solver::{PerSolver, PerSolverError};
pub use crate::harness::rundir::{resume_command, BASELINES_DIR};
pub use crate::util::files::atomic_write;
pub use crate::util::text::{escape_controls, shell_command};

/// A system error as the end of a sentence for a user, as the library's messages end with
/// it: what went wrong, without the bare `(os error N)` of `io::Error`'s text.
pub fn io_reason(e: &std::io::Error) -> String {
    crate::util::io_reason(e)
}

/// Ctrl-C (SIGINT) and SIGTERM during a run: [`install`](interrupt::install) the handler
/// once, and read whether a signal stopped the run ([`requested`](interrupt::requested))
/// and its exit code ([`exit_code`](interrupt::exit_code)). The handler raises
/// [`STOP`](interrupt::STOP), the stop flag the binary gives `execute_with`.
pub mod interrupt {
    pub use crate::harness::interrupt::{exit_code, install, requested, STOP};
}
