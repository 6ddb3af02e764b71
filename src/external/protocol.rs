//! What tilebench writes to an external program and what it reads back.
//!
//! Boards are written as one line of tokens separated by single spaces, row by row, the blank
//! as `x` (or `0` with `--solver-blank 0`): `2 3 4 1 5 x 7 6 8`. Every line ends with `\n`.
//!
//! - `moves`: tilebench writes the start board (see `super::framing` for rows whose goal is
//!   not the standard one) and reads one line: the blank's moves (`u`, `d`, `l`, `r`, as in
//!   `dlurullddrurdllurdr`; an empty line when start = goal) or `unsolvable`.
//! - `steps`: tilebench writes the start line, then the goal line, and reads one line: the
//!   number of moves of a shortest path, or `-1` when the goal cannot be reached.
//!
//! Answers are trimmed of surrounding white space; `unsolvable` and the move letters are read
//! in any case. On stderr a program may print counters before its answer, as `key=value` words
//! on one line: `expanded=N generated=N` and optionally `stored=N` and `peak_frontier=N`.

use super::framing::Framing;
use crate::puzzle::Move;
use crate::search::Counters;
use crate::search::Problem;
use std::fmt;
use std::str::FromStr;

/// What is written and read per case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Start line in; a move string or `unsolvable` out.
    Moves,
    /// Start line and goal line in; a number of moves or `-1` out.
    Steps,
}

/// How the blank is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blank {
    /// The letter `x` (the default).
    X,
    /// The digit `0`.
    Zero,
}

/// How programs are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spawn {
    /// One process per worker thread reads case after case.
    Persistent,
    /// One process per case: it reads one case, answers, and exits.
    PerCase,
    /// One process for every case: the whole input, stdin closed, one answer per case (how
    /// online judges run multi-case programs).
    Batch,
}

/// What a persistent program's stdout is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdout {
    /// A pipe; a program found asleep reading with a case pending (its answer stuck in a
    /// buffer) is restarted with a pseudo-terminal, where stdio line-buffers.
    Auto,
    /// Always a pipe.
    Pipe,
    /// Always a pseudo-terminal.
    Pty,
}

macro_rules! named {
    ($t:ty, $what:literal, $($v:path => $name:literal),+) => {
        impl $t {
            /// The value as written on the command line and in run.json; [`FromStr`] reads
            /// it back.
            pub fn name(self) -> &'static str {
                match self { $($v => $name),+ }
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<$t, String> {
                match s.trim() {
                    $($name => Ok($v),)+
                    other => Err(format!(
                        "`{other}` is not a {}; choose {}",
                        $what,
                        [$($name),+].join(" or ")
                    )),
                }
            }
        }
    };
}

named!(Protocol, "protocol", Protocol::Moves => "moves", Protocol::Steps => "steps");
named!(Blank, "blank token", Blank::X => "x", Blank::Zero => "0");
named!(Stdout, "stdout", Stdout::Auto => "auto", Stdout::Pipe => "pipe", Stdout::Pty => "pty");
named!(Spawn, "spawn mode", Spawn::Persistent => "persistent", Spawn::PerCase => "per-case", Spawn::Batch => "batch");

/// The text written for one case, and the boards the program sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Request {
    /// The lines written to the program's stdin, each ending with `\n`.
    pub text: String,
    /// The boards the program is asked about, and how to map its moves back.
    pub framing: Framing,
}

impl Request {
    /// What to write for a problem, or why the protocol cannot say it.
    ///
    /// # Errors
    /// With the `moves` protocol, when the goal is not the standard one and cannot be turned
    /// into it ([`Framing::standard_goal`]). The `steps` protocol never fails.
    pub(crate) fn new(
        protocol: Protocol,
        blank: Blank,
        problem: &Problem,
    ) -> Result<Request, crate::observe::Wording> {
        let b = blank.name();
        match protocol {
            Protocol::Moves => {
                let framing = Framing::standard_goal(problem)?;
                Ok(Request {
                    text: format!("{}\n", framing.start.format_with(b)),
                    framing,
                })
            }
            Protocol::Steps => Ok(Request {
                text: format!(
                    "{}\n{}\n",
                    problem.start.format_with(b),
                    problem.goal.format_with(b)
                ),
                framing: Framing::identity(problem),
            }),
        }
    }

    /// The request on one line, for messages (`start / goal` for `steps`).
    pub(crate) fn shown(&self) -> String {
        self.text.trim_end().replace('\n', " / ")
    }
}

/// A program's answer, read but not yet judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The blank's moves, as the program wrote them (on the boards it was sent).
    Moves(Vec<Move>),
    /// A number of moves (`steps` protocol).
    Steps(u64),
    /// `unsolvable` (`moves`) or `-1` (`steps`).
    Unsolvable,
}

/// Reads one answer line, or says why it is not one.
///
/// # Errors
/// With `moves`, when the line is neither `unsolvable` nor a string of `u`, `d`, `l`, `r`;
/// with `steps`, when it is not a number ≥ 0 nor `-1`.
pub(crate) fn parse_answer(protocol: Protocol, line: &str) -> Result<Answer, String> {
    let t = line.trim();
    match protocol {
        Protocol::Moves => {
            if t.eq_ignore_ascii_case("unsolvable") {
                return Ok(Answer::Unsolvable);
            }
            Move::parse_path(t)
                .map(Answer::Moves)
                .map_err(|e| format!("neither `unsolvable` nor a move string: {e}"))
        }
        Protocol::Steps => match t.parse::<i64>() {
            Ok(-1) => Ok(Answer::Unsolvable),
            Ok(n) if n >= 0 => Ok(Answer::Steps(n as u64)),
            _ => Err("not a number of moves nor -1".into()),
        },
    }
}

/// What one line of a program's stdout is, under its protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// An answer, alone on its line.
    Answer(Answer),
    /// An answer after a label such as `Case 1:` or `Answer:` (the label, with its colon).
    Prefixed {
        /// The label before the answer, as printed (`Case 1:`).
        prefix: String,
        /// The answer after it.
        answer: Answer,
    },
    /// An empty line (or white space only).
    Blank,
    /// Anything else: a debug line, words, a board.
    NotAnswer,
}

/// Words a label before an answer may hold (besides numbers and `#`), in lower case: case
/// labels (`Case 1:`, `Answer:`) and prompts (`Enter board:`, `Input the puzzle:`).
const LABEL_WORDS: [&str; 19] = [
    "case", "answer", "solution", "output", "result", "moves", "path", "steps", "test", "enter",
    "input", "board", "puzzle", "state", "start", "the", "your", "a", "please",
];

/// Reads one line of a program's stdout: an answer, an answer after a label, an empty line,
/// or something that is not an answer.
pub(crate) fn read_line(protocol: Protocol, line: &str) -> Reading {
    let t = line.trim();
    if t.is_empty() {
        return Reading::Blank;
    }
    if let Ok(a) = parse_answer(protocol, t) {
        return Reading::Answer(a);
    }
    match t.rsplit_once(':') {
        Some((label, rest)) if is_label(label) && !rest.trim().is_empty() => {
            match parse_answer(protocol, rest) {
                Ok(answer) => Reading::Prefixed {
                    prefix: format!("{}:", label.trim()),
                    answer,
                },
                Err(_) => Reading::NotAnswer,
            }
        }
        _ => Reading::NotAnswer,
    }
}

/// Whether `label` (the text before a colon) reads as a case's label or a prompt: at most
/// four words, each a number (`1`, `#1`) or one of [`LABEL_WORDS`].
fn is_label(label: &str) -> bool {
    let words: Vec<&str> = label.split_whitespace().collect();
    !words.is_empty()
        && words.len() <= 4
        && words.iter().all(|w| {
            let w = w.trim_start_matches('#').to_ascii_lowercase();
            (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
                || LABEL_WORDS.contains(&w.as_str())
        })
}

/// Reads counters from a stderr line: `expanded=N generated=N stored=N peak_frontier=N`, in any
/// order, among other words. `None` when the line has none of them.
pub(crate) fn parse_counters(line: &str) -> Option<Counters> {
    let mut c = Counters::default();
    let mut any = false;
    for word in line.split(|ch: char| ch.is_whitespace() || ch == ',' || ch == ';') {
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        let Ok(v) = value.parse::<u64>() else {
            continue;
        };
        let slot = match key {
            "expanded" => &mut c.expanded,
            "generated" => &mut c.generated,
            "stored" => &mut c.stored,
            "peak_frontier" => &mut c.peak_frontier,
            _ => continue,
        };
        *slot = Some(v);
        any = true;
    }
    any.then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(start: &str, goal: &str) -> Problem {
        Problem::new(start.parse().unwrap(), goal.parse().unwrap()).unwrap()
    }

    #[test]
    fn requests() {
        let p = problem("2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2");
        let steps = Request::new(Protocol::Steps, Blank::Zero, &p).unwrap();
        assert_eq!(steps.text, "2 6 4 1 3 7 0 5 8\n8 1 5 7 3 6 4 0 2\n");
        assert_eq!(steps.shown(), "2 6 4 1 3 7 0 5 8 / 8 1 5 7 3 6 4 0 2");
        let p = problem("2 3 4 1 5 0 7 6 8", "1 2 3 4 5 6 7 8 x");
        let moves = Request::new(Protocol::Moves, Blank::X, &p).unwrap();
        assert_eq!(moves.text, "2 3 4 1 5 x 7 6 8\n");
    }

    #[test]
    fn answers() {
        use Answer::*;
        let moves = |l| parse_answer(Protocol::Moves, l);
        assert_eq!(
            moves(" udLR\r"),
            Ok(Moves(Move::parse_path("udlr").unwrap()))
        );
        assert_eq!(moves(""), Ok(Moves(vec![])));
        assert_eq!(moves("Unsolvable"), Ok(Unsolvable));
        assert!(moves("hello").unwrap_err().contains("`h` at position 1"));
        let steps = |l| parse_answer(Protocol::Steps, l);
        assert_eq!(steps("31\n"), Ok(Steps(31)));
        assert_eq!(steps("-1"), Ok(Unsolvable));
        assert!(steps("-2").is_err());
        assert!(steps("udlr").is_err());
    }

    #[test]
    fn lines() {
        use Reading::*;
        let moves = |l| read_line(Protocol::Moves, l);
        assert_eq!(
            moves("udlr"),
            Answer(super::Answer::Moves(Move::parse_path("udlr").unwrap()))
        );
        assert_eq!(moves("  \r"), Blank);
        assert_eq!(moves("Solving 6 3 x 4 5 1 2 8 7"), NotAnswer);
        assert_eq!(
            moves("Case #3: ud"),
            Prefixed {
                prefix: "Case #3:".into(),
                answer: super::Answer::Moves(Move::parse_path("ud").unwrap())
            }
        );
        assert_eq!(
            moves("Answer: unsolvable"),
            Prefixed {
                prefix: "Answer:".into(),
                answer: super::Answer::Unsolvable
            }
        );
        // A label is a case's label, not any text before a colon.
        assert_eq!(moves("board: 1 2 3"), NotAnswer);
        assert!(matches!(moves("Enter board: ud"), Prefixed { .. }));
        assert_eq!(moves("Case 1:"), NotAnswer);
        let steps = |l| read_line(Protocol::Steps, l);
        assert_eq!(steps("12"), Answer(super::Answer::Steps(12)));
        assert_eq!(steps("Solving 8 1 3 7 0 6 4 2 5"), NotAnswer);
        assert_eq!(steps("expanded: 1234"), NotAnswer);
        assert_eq!(
            steps("Case 2: 31"),
            Prefixed {
                prefix: "Case 2:".into(),
                answer: super::Answer::Steps(31)
            }
        );
    }

    #[test]
    fn counters() {
        let c = parse_counters("case 3: expanded=12 generated=30, stored=20").unwrap();
        assert_eq!(
            (c.expanded, c.generated, c.stored, c.peak_frontier),
            (Some(12), Some(30), Some(20), None)
        );
        assert_eq!(parse_counters("searching…"), None);
        assert_eq!(parse_counters("expanded=lots"), None);
    }

    #[test]
    fn option_values() {
        assert_eq!("per-case".parse::<Spawn>(), Ok(Spawn::PerCase));
        assert_eq!("0".parse::<Blank>(), Ok(Blank::Zero));
        let e = "path".parse::<Protocol>().unwrap_err();
        assert_eq!(e, "`path` is not a protocol; choose moves or steps");
    }
}
