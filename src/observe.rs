//! Notices and progress, sent to an observer: the library never prints.
//!
//! The `tilebench` binary renders them on stderr (progress bars with indicatif, on a terminal
//! only); a library user passes [`Silent`], or an observer of their own.

/// Progress of one task (a pass over the cases, a table being built).
pub trait Progress: Send + Sync {
    /// `n` more units are done.
    fn inc(&self, n: u64);
    /// `done` units are done in all.
    fn set(&self, done: u64);
    /// The task's label changed (the solver of the pass, say).
    fn label(&self, _label: &str) {}
    /// The task is over; its bar, if any, goes away.
    fn finish(&self) {}
}

/// Where a run's notices and progress go.
pub trait Observer: Sync {
    /// A line for the user: a table loaded or built, a warning, a hint.
    fn notice(&self, _text: &str) {}
    /// A task of `total` units starts; `label` says what it is.
    fn progress(&self, _label: &str, _total: u64) -> Box<dyn Progress> {
        Box::new(NoProgress)
    }
}

/// Progress that goes nowhere.
pub struct NoProgress;

impl Progress for NoProgress {
    fn inc(&self, _n: u64) {}
    fn set(&self, _done: u64) {}
}

/// An observer that drops everything.
pub struct Silent;

impl Observer for Silent {}

/// An observer that keeps the notices (for tests, and for library users who show them their
/// own way) and drops the progress.
#[derive(Default)]
pub struct Collect(std::sync::Mutex<Vec<String>>);

impl Collect {
    /// The notices so far, in order.
    pub fn notices(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Observer for Collect {
    fn notice(&self, text: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text.to_string());
    }
}
