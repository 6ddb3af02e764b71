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
use crate::search::Counters;
use crate::util::clip;
use std::time::Duration;

#[cfg(target_os = "linux")]
mod strays;
mod unix;
pub use unix::{
    activity, peak_rss_kb, reset_peak_rss, reset_stop, run_once, stop_all, Activity, Launch,
    Session, UNTERMINATED_LOOK,
};

/// A finished process's resources, from `wait4`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// User plus system CPU time, in microseconds (the shell's and the children it waited for).
    pub cpu_us: u64,
    /// Peak resident memory of the largest process, in kilobytes.
    pub max_rss_kb: u64,
}

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

/// What to make of a line a program printed while its answer is awaited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// The answer: the exchange ends with it.
    Answer,
    /// Not the answer: noted, and the next line awaited.
    Skip(Skip),
}

/// Why a line was not taken as the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// An empty line (a `print()` too many), where the answer cannot be empty.
    Blank,
    /// A line that cannot be an answer under the protocol (a debug line, words).
    NotAnswer,
    /// The previous case's answer printed again.
    Repeat,
    /// Another answer line after the one taken for the previous case, found before this
    /// case was sent.
    Extra,
}

/// Lines skipped on the way to an answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Empty lines.
    pub blank: usize,
    /// Repeats of the previous answer.
    pub repeats: usize,
    /// Further answer lines after the previous case's answer, and the first of them.
    pub extra: usize,
    /// The first further answer line (clipped, escaped).
    pub extra_shown: Option<String>,
    /// Lines that are not answers: how many, and the first few (clipped, escaped).
    pub other: usize,
    /// The first [`Skipped::KEPT`] of them.
    pub shown: Vec<String>,
    /// The last of them, whole (up to 1 MiB): a program that goes back to reading, or ends,
    /// after it said this about its case.
    pub last: Option<String>,
    /// The last repeat of the previous answer, whole.
    pub last_repeat: Option<String>,
}

impl Skipped {
    /// Lines that are not answers kept for messages.
    pub const KEPT: usize = 3;

    /// Counts one skipped line.
    pub fn add(&mut self, why: Skip, line: &str) {
        match why {
            Skip::Blank => self.blank += 1,
            Skip::Repeat => {
                self.repeats += 1;
                self.last_repeat = Some(line.to_string());
            }
            Skip::Extra => {
                self.extra += 1;
                self.extra_shown.get_or_insert_with(|| clip(line, 120));
            }
            Skip::NotAnswer => {
                self.other += 1;
                if self.shown.len() < Self::KEPT {
                    self.shown.push(clip(line, 120));
                }
                self.last = Some(line.to_string());
            }
        }
    }

    /// For a program that went back to reading (or ended) without an answer line: the
    /// last line it printed that is not an answer, else the last repeat of the previous
    /// answer, no longer counted as skipped: it is taken as what the program answered.
    pub fn take_last(&mut self) -> Option<String> {
        if let Some(line) = self.last.take() {
            self.other -= 1;
            if self.shown.len() > self.other {
                self.shown.pop();
            }
            return Some(line);
        }
        let line = self.last_repeat.take()?;
        self.repeats -= 1;
        Some(line)
    }

    /// Whether nothing was skipped.
    pub fn is_empty(&self) -> bool {
        self.blank + self.repeats + self.other + self.extra == 0
    }

    /// Adds what `other` counted (the lines before a fresh process's first answer, to the
    /// exchange that is judged).
    pub fn absorb(&mut self, other: Skipped) {
        self.blank += other.blank;
        self.repeats += other.repeats;
        self.extra += other.extra;
        if self.extra_shown.is_none() {
            self.extra_shown = other.extra_shown;
        }
        self.other += other.other;
        let mut shown = other.shown;
        shown.append(&mut self.shown);
        shown.truncate(Self::KEPT);
        self.shown = shown;
    }
}

/// How one exchange with a program ended.
#[derive(Debug)]
pub enum Exchange {
    /// An answer line (not yet judged; in batch mode, every answer line, `\n`-separated).
    /// `elapsed` is the round trip in persistent mode and the process's wall time otherwise.
    Answer {
        /// What it printed.
        line: String,
        /// What it printed on stderr meanwhile.
        stderr: Stderr,
        /// The round trip, or the process's wall time.
        elapsed: Duration,
        /// A process run for this case alone: its CPU time and peak memory.
        usage: Option<Usage>,
        /// A process that answers case after case: its peak resident memory over this
        /// exchange, in kilobytes (`/proc/PID/status` VmHWM, reset before the case), where
        /// it could be read.
        peak_rss_kb: Option<u64>,
        /// Lines skipped before it.
        skipped: Skipped,
        /// It had no line end: taken when the program went back to reading its input (or
        /// ended) with it printed.
        unterminated: bool,
    },
    /// No answer (per-case: no exit) within the timeout; the program was killed.
    Timeout {
        /// What it printed on stderr meanwhile.
        stderr: Stderr,
        /// How long it had.
        elapsed: Duration,
        /// It had printed part of a line, with no line end.
        unterminated: bool,
    },
    /// The run was stopped (Ctrl-C, SIGTERM) while the case was in flight; the program was
    /// killed, and the case is left for `--resume`.
    Stopped,
    /// The program closed its output (exited, crashed) without answering.
    Died {
        /// How it ended, for messages: `exited with status 1`, `was killed by signal 11
        /// (SIGSEGV)`.
        how: String,
        /// What it printed on stderr before it ended.
        stderr: Stderr,
        /// It read (some of) the case before it ended: a crash on this case, not a failure
        /// to start (a command not found, a program that exits before reading).
        read: bool,
        /// A process run for this case alone: its peak resident memory, in kilobytes.
        max_rss_kb: Option<u64>,
    },
    /// The program could not be started or written to, or wrote an endless line.
    Failed(String),
}

/// What `Session::ask` returns: an exchange; or, before the case was sent, word that the
/// program had already exited (it is then restarted and asked again).
// One value per case, moved once: the size of an exchange is not worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Asked {
    /// The exchange ran.
    Done(Exchange),
    /// The program had exited before the case was sent.
    Gone,
    /// The case was sent, and the program sleeps reading more input without answering: it
    /// answers only when its input ends (buffered output it never flushes, or a program that
    /// reads all of its input first).
    Blocked,
}
