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

/// A piece of a notice ([`Observer::notice_parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Part<'a> {
    /// Text, the same for every reader.
    Text(&'a str),
    /// Text that names options: in the library's words (`partition`, `the table
    /// directory`), and as a command line names them (`--pdb-partition`, `--pdb-dir`).
    Naming {
        /// In the library's words.
        words: &'a str,
        /// With the command line's flags.
        flags: &'a str,
    },
}

impl Part<'_> {
    /// The notice in the library's words.
    pub fn in_words(parts: &[Part<'_>]) -> String {
        parts
            .iter()
            .map(|p| match p {
                Part::Text(t) | Part::Naming { words: t, .. } => *t,
            })
            .collect()
    }

    /// The notice with the command line's flags.
    pub fn in_flags(parts: &[Part<'_>]) -> String {
        parts
            .iter()
            .map(|p| match p {
                Part::Text(t) | Part::Naming { flags: t, .. } => *t,
            })
            .collect()
    }
}

/// A sentence that names options, kept both ways: in the library's words (its `Display`,
/// [`Wording::words`]) and as a command line says it ([`Wording::with_flags`]), as a
/// [`Part::Naming`] is. Text with no option in it reads the same both ways (`From<String>`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wording {
    /// In the library's words.
    words: String,
    /// With the command line's flags, where that differs.
    flags: Option<String>,
}

impl Wording {
    /// A sentence in the library's `words`, said with `flags` on a command line.
    pub fn new(words: impl Into<String>, flags: impl Into<String>) -> Wording {
        let (words, flags) = (words.into(), flags.into());
        let flags = (flags != words).then_some(flags);
        Wording { words, flags }
    }

    /// The sentence of `parts` ([`Part::in_words`], [`Part::in_flags`]).
    pub fn of(parts: &[Part<'_>]) -> Wording {
        Wording::new(Part::in_words(parts), Part::in_flags(parts))
    }

    /// In the library's words.
    pub fn words(&self) -> &str {
        &self.words
    }

    /// As a command line says it: its flags for the options.
    pub fn with_flags(&self) -> &str {
        self.flags.as_deref().unwrap_or(&self.words)
    }

    /// The same sentence, each way changed by `f` (a prefix, a suffix of plain text).
    #[must_use]
    pub fn map(self, f: impl Fn(&str) -> String) -> Wording {
        Wording {
            flags: self.flags.as_deref().map(&f),
            words: f(&self.words),
        }
    }

    /// Told to `observer`: in [`Part`]s, so that a command line names its flags.
    pub fn tell(&self, observer: &(impl Observer + ?Sized)) {
        observer.notice_parts(&[Part::Naming {
            words: self.words(),
            flags: self.with_flags(),
        }]);
    }
}

impl From<String> for Wording {
    fn from(words: String) -> Wording {
        Wording { words, flags: None }
    }
}

impl From<&str> for Wording {
    fn from(words: &str) -> Wording {
        Wording::from(words.to_string())
    }
}

impl std::fmt::Display for Wording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words)
    }
}

/// Where a run's notices and progress go.
pub trait Observer: Sync {
    /// A line for the user: a table loaded or built, a warning, a hint.
    fn notice(&self, _text: &str) {}
    /// A notice that names options, in [`Part`]s: by default [`Observer::notice`] of it in
    /// the library's words ([`Part::in_words`]); a command line names its flags instead
    /// ([`Part::in_flags`]).
    fn notice_parts(&self, parts: &[Part<'_>]) {
        self.notice(&Part::in_words(parts));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_in_parts_reads_in_the_librarys_words_or_with_flags() {
        let parts = [
            Part::Text("cached; "),
            Part::Naming {
                words: "partition",
                flags: "--pdb-partition",
            },
            Part::Text(" 6-6-3 builds in seconds"),
        ];
        assert_eq!(
            Part::in_words(&parts),
            "cached; partition 6-6-3 builds in seconds"
        );
        assert_eq!(
            Part::in_flags(&parts),
            "cached; --pdb-partition 6-6-3 builds in seconds"
        );
        let seen = Collect::default();
        seen.notice_parts(&parts);
        assert_eq!(
            seen.notices(),
            ["cached; partition 6-6-3 builds in seconds"]
        );
    }
}
