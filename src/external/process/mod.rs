//! Running external programs: `sh -c COMMAND` with piped stdin, stdout and stderr.
//!
//! Each program runs in its own process group, so a timeout stops the shell and everything
//! it started. Reading uses poll(2) on stdout and stderr together: stderr is read while the
//! answer is awaited (a chatty program never blocks on a full pipe), and a stderr line written
//! before the answer line is always seen before the answer is taken, whatever the scheduling.
//!
//! Which stderr lines belong to a case:
//! - persistent mode: the lines written after the case's input was sent and before its answer
//!   line (lines left over from earlier are dropped when the next case is sent);
//! - per-case mode: every line the process writes.

use super::protocol::parse_counters;
use crate::harness::record::Counters;
use crate::util::clip;
use std::time::Duration;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{run_once, Session};

/// Stderr lines kept for messages.
const TAIL_LINES: usize = 5;
const TAIL_CHARS: usize = 300;

/// What a program printed on stderr for one case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stderr {
    /// From the last line that had counters.
    pub counters: Counters,
    /// The last lines without counters, for messages.
    pub tail: Vec<String>,
}

impl Stderr {
    fn push(&mut self, line: String) {
        if let Some(c) = parse_counters(&line) {
            self.counters = c;
            return;
        }
        if line.trim().is_empty() {
            return;
        }
        if self.tail.len() == TAIL_LINES {
            self.tail.remove(0);
        }
        self.tail.push(clip(&line, TAIL_CHARS));
    }

    /// `; stderr: …` for messages, or nothing.
    pub fn describe(&self) -> String {
        if self.tail.is_empty() {
            String::new()
        } else {
            format!("; its stderr ended with: {}", self.tail.join(" | "))
        }
    }
}

/// How one exchange with a program ended.
#[derive(Debug)]
pub enum Exchange {
    /// An answer line (not yet judged). `elapsed` is the round trip in persistent mode and
    /// the process's wall time in per-case mode.
    Answer {
        line: String,
        stderr: Stderr,
        elapsed: Duration,
    },
    /// No answer (per-case: no exit) within the timeout; the program was killed.
    Timeout { stderr: Stderr, elapsed: Duration },
    /// The program closed its output (exited, crashed) without answering.
    Died { how: String, stderr: Stderr },
    /// The program could not be started or written to, or wrote an endless line.
    Failed(String),
}

/// What `Session::ask` returns: an exchange; or, before the case was sent, word that the
/// program had already exited (it is then restarted and asked again) or that it had printed
/// more after its previous answer (its later answers would be out of step: it is restarted).
pub enum Asked {
    Done(Exchange),
    Gone,
    Extra(String),
}

#[cfg(not(unix))]
mod unsupported {
    //! External programs need a Unix shell (`sh -c`) and poll(2); elsewhere every case is an
    //! `error` row saying so.
    use super::{Asked, Exchange};
    use std::time::Duration;

    const UNSUPPORTED: &str = "external solvers need a Unix system (sh -c and poll)";

    pub struct Session;

    impl Session {
        pub fn start(_command: &str) -> Result<Session, String> {
            Err(UNSUPPORTED.into())
        }
        pub fn ask(&mut self, _input: &str, _timeout: Option<Duration>) -> Asked {
            Asked::Done(Exchange::Failed(UNSUPPORTED.into()))
        }
    }

    pub fn run_once(_command: &str, _input: &str, _timeout: Option<Duration>) -> Exchange {
        Exchange::Failed(UNSUPPORTED.into())
    }
}
#[cfg(not(unix))]
pub use unsupported::{run_once, Session};
