//! How a program's notices and errors name its options: in the library's words (the
//! [`ExternalSolver`](super::ExternalSolver)'s fields `spawn`, `strict`, `protocol`, `blank`,
//! `stdout`, and the limits' timeout) or with the command line's flags (`--solver-spawn`,
//! …, `--timeout`). A sentence is written once, over a [`Naming`], and made both ways
//! ([`worded`]).

use crate::observe::Wording;

/// The phrases that name a program's options, one way ([`WORDS`] or [`FLAGS`]).
pub(crate) struct Naming {
    /// The option that sets how it runs, before the mode: `running it with spawn batch`.
    pub(crate) spawn: &'static str,
    /// What to do to start in a mode, before the mode: `set its spawn to batch`.
    pub(crate) set_spawn: &'static str,
    /// The option that grades every stdout line, as a subject: `strict (the option) takes`.
    pub(crate) strict: &'static str,
    /// What to do to grade every stdout line: `set its strict option to grade it`.
    pub(crate) set_strict: &'static str,
    /// The protocol that sends the start and the goal and reads a number of moves.
    pub(crate) steps: &'static str,
    /// What to do to send the blank as `0`.
    pub(crate) set_blank_zero: &'static str,
    /// What to do to start it with a pseudo-terminal as stdout.
    pub(crate) set_pty: &'static str,
    /// The per-case timeout, made longer: `(a longer timeout gives longer)`.
    pub(crate) longer_timeout: &'static str,
}

/// In the library's words: the fields of the program and of the limits.
pub(crate) const WORDS: Naming = Naming {
    spawn: "spawn",
    set_spawn: "set its spawn to",
    strict: "strict (the option)",
    set_strict: "set its strict option",
    steps: "the protocol steps",
    set_blank_zero: "set its blank to 0",
    set_pty: "set its stdout to pty",
    longer_timeout: "a longer timeout",
};

/// With the command line's flags.
pub(crate) const FLAGS: Naming = Naming {
    spawn: "--solver-spawn",
    set_spawn: "pass --solver-spawn",
    strict: "--solver-strict",
    set_strict: "pass --solver-strict",
    steps: "--solver-protocol steps",
    set_blank_zero: "pass --solver-blank 0",
    set_pty: "pass --solver-stdout pty",
    longer_timeout: "--timeout",
};

/// The sentence `say` writes over a [`Naming`]: in the library's words ([`WORDS`]), and as a
/// command line says it ([`FLAGS`]).
pub(crate) fn worded(say: impl Fn(&Naming) -> String) -> Wording {
    Wording::new(say(&WORDS), say(&FLAGS))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every phrase of the library's words is free of flags, and every phrase of the command
    /// line's names one.
    #[test]
    fn the_librarys_phrases_name_no_flag_and_the_command_lines_each_name_one() {
        let all = |n: &Naming| {
            [
                n.spawn,
                n.set_spawn,
                n.strict,
                n.set_strict,
                n.steps,
                n.set_blank_zero,
                n.set_pty,
                n.longer_timeout,
            ]
        };
        for (words, flags) in all(&WORDS).into_iter().zip(all(&FLAGS)) {
            assert!(!words.contains("--"), "{words}");
            assert!(flags.contains("--"), "{flags}");
        }
        let w = worded(|n| format!("x: {} makes it so", n.strict));
        assert_eq!(w.words(), "x: strict (the option) makes it so");
        assert_eq!(w.with_flags(), "x: --solver-strict makes it so");
    }
}
