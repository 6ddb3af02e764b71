//! How the binary shows a run's notices and progress: lines on stderr, and progress bars
//! (indicatif) only when stderr is a terminal. Lines are written with the bars out of the
//! way, so neither garbles the other.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use tilebench::observe::{Observer, Progress};

/// Renders on stderr. `quiet` hides the progress bars (notices are still written).
pub struct Terminal {
    bars: MultiProgress,
    quiet: bool,
}

impl Terminal {
    /// An observer for this process's stderr.
    pub fn new(quiet: bool) -> Terminal {
        let target = if std::io::stderr().is_terminal() && !quiet {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        Terminal {
            bars: MultiProgress::with_draw_target(target),
            quiet,
        }
    }
}

struct Bar(ProgressBar);

impl Progress for Bar {
    fn inc(&self, n: u64) {
        self.0.inc(n);
    }
    fn set(&self, done: u64) {
        self.0.set_position(done);
    }
    fn label(&self, label: &str) {
        self.0.set_message(label.to_string());
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Observer for Terminal {
    fn notice(&self, text: &str) {
        // Line ends are the notice's own; any other control character is escaped.
        let text: Vec<String> = text
            .split('\n')
            .map(|l| tilebench::cli_support::escape_controls(l.to_string()))
            .collect();
        let text = text.join("\n");
        self.bars.suspend(|| eprintln!("{text}"));
    }
    fn notice_parts(&self, parts: &[tilebench::observe::Part<'_>]) {
        // The command line names its flags.
        self.notice(&tilebench::observe::Part::in_flags(parts));
    }
    fn progress(&self, label: &str, total: u64) -> Box<dyn Progress> {
        if self.quiet || self.bars.is_hidden() {
            return Box::new(tilebench::observe::NoProgress);
        }
        let bar = self.bars.add(ProgressBar::new(total));
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg:22} [{bar:40}] {pos}/{len}  {per_sec}  ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_message(label.to_string());
        Box::new(Bar(bar))
    }
}
