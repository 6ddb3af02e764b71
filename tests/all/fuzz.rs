//! Fuzz tests that run in CI: property tests (proptest) that throw arbitrary and half-valid
//! input at the board parser and the dataset parser. Nothing may panic, accepted boards must
//! print back to themselves, and every invalid row must carry a `file:line:` message.
//!
//! The in-CI run is brief (2,000 cases per property). For a longer hunt:
//!
//! ```sh
//! TILEBENCH_FUZZ_CASES=1000000 cargo test --release --test fuzz
//! ```
//!
//! Coverage-guided fuzzing with libFuzzer lives in `fuzz/` (`cargo +nightly fuzz run
//! board_parse`, `… parse_dataset`); see the README.

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use tilebench::dataset::{parse_dataset, InputOptions};
use tilebench::puzzle::{Board, Shape};

fn config() -> Config {
    let cases = std::env::var("TILEBENCH_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// Pieces boards are made of, and pieces that break them.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u32..17).prop_map(|n| n.to_string()),
        2 => prop_oneof![Just("x"), Just("X"), Just("0"), Just("_")].prop_map(String::from),
        3 => prop_oneof![Just(" "), Just(","), Just(";"), Just("\t"), Just("\n"), Just("  ")]
            .prop_map(String::from),
        1 => "[0-9]{10,30}",
        1 => "-[0-9]{1,4}",
        1 => "\\+[0-9]{1,2}",
        1 => prop_oneof![Just("×"), Just("é"), Just("\u{feff}"), Just("\u{0}"), Just("🧩"), Just("٣")]
            .prop_map(String::from),
        1 => any::<char>().prop_map(|c| c.to_string()),
        1 => "[0-9x_]{2,17}",
    ]
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(token(), 0..40).prop_map(|t| t.concat())
}

/// A number as a dataset might hold one: small, negative, far too large, or not a number.
fn number_like() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (-5i64..40).prop_map(|n| n.to_string()),
        1 => "[0-9]{15,25}",
        1 => "-[0-9]{1,25}",
        1 => soup(),
        1 => Just(String::new()),
    ]
}

/// A `size` value: `WxH` with sides small, huge (around usize::MAX) or negative.
fn size_like() -> impl Strategy<Value = String> {
    let side = prop_oneof![
        3 => (0usize..6).prop_map(|n| n.to_string()),
        2 => "[0-9]{17,21}",
        1 => "-[0-9]{1,3}",
        1 => Just(String::new()),
    ];
    let sep = prop_oneof![Just("x"), Just("X"), Just("×"), Just(" x "), Just("")];
    prop_oneof![
        4 => (side.clone(), sep, side).prop_map(|(w, s, h)| format!("{w}{s}{h}")),
        1 => soup(),
        1 => Just(String::new()),
    ]
}

/// A row of id, start, goal, expected_steps, size: each field plausible or broken, some
/// quoted, sometimes with fields missing or extra.
fn row() -> impl Strategy<Value = String> {
    let board = prop_oneof![
        2 => Just("2 3 4 1 5 x 7 6 8".to_string()),
        1 => Just("1 2 3 x".to_string()),
        1 => Just("1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15".to_string()),
        4 => soup(),
    ];
    (
        soup(),
        board.clone(),
        prop_oneof![Just(String::new()), board],
        number_like(),
        size_like(),
        any::<[bool; 5]>(),
        0usize..7,
    )
        .prop_map(|(id, start, goal, expected, size, quote, keep)| {
            let fields: Vec<String> = [id, start, goal, expected, size]
                .into_iter()
                .zip(quote)
                .map(|(f, q)| {
                    if q {
                        format!("\"{}\"", f.replace('"', "\"\""))
                    } else {
                        f
                    }
                })
                .collect();
            let mut fields: Vec<String> = fields.into_iter().take(keep.max(1)).collect();
            if keep == 6 {
                fields.push("extra".into());
            }
            fields.join(",")
        })
}

fn shapes() -> [Option<Shape>; 5] {
    [
        None,
        Some(Shape::new(2, 2).unwrap()),
        Some(Shape::new(3, 3).unwrap()),
        Some(Shape::new(2, 3).unwrap()),
        Some(Shape::new(4, 4).unwrap()),
    ]
}

/// Parses with every shape: no panic, accepted boards round-trip, errors are short.
fn check_board(text: &str) -> Result<(), TestCaseError> {
    for shape in shapes() {
        match Board::parse(text, shape) {
            Ok(b) => {
                prop_assert_eq!(Board::parse(&b.to_string(), Some(b.shape())), Ok(b));
                if let Some(s) = shape {
                    prop_assert_eq!(b.shape(), s);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty());
                prop_assert!(
                    msg.chars().count() < 300,
                    "{} characters: {}",
                    msg.len(),
                    msg
                );
            }
        }
    }
    let _ = text.parse::<Shape>().map_err(|e| e.to_string());
    Ok(())
}

/// Sizes: no panic (a size's cell count may overflow), and an accepted size is a real board.
fn check_size(text: &str) -> Result<(), TestCaseError> {
    if let Ok(s) = text.parse::<Shape>() {
        prop_assert!(
            s.width() >= 2 && s.height() >= 2 && s.cells() <= tilebench::puzzle::MAX_CELLS,
            "{}",
            text
        );
        prop_assert_eq!(s.cells(), s.width() * s.height());
    }
    Ok(())
}

/// The line count of `bytes`, as an upper bound (every `\r` and `\n` counted).
fn max_line(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64 + 1
}

/// Parses a dataset with and without options: no panic, every case on a line of the file,
/// every invalid row's message `fuzz.csv:LINE: …`.
fn check_dataset(bytes: &[u8]) -> Result<(), TestCaseError> {
    let with_options = InputOptions {
        size: Some(Shape::new(3, 3).unwrap()),
        goal: Some("1 2 3 4 5 6 7 8 x".into()),
    };
    for opts in [InputOptions::default(), with_options] {
        match parse_dataset("fuzz.csv", bytes, &opts) {
            Ok((file, cases)) => {
                prop_assert_eq!(file.rows, cases.len());
                prop_assert_eq!(file.bytes, bytes.len());
                for c in &cases {
                    prop_assert!(c.line >= 1 && c.line <= max_line(bytes), "line {}", c.line);
                    if let Err(msg) = &c.problem {
                        let at = format!("fuzz.csv:{}: ", c.line);
                        prop_assert!(msg.starts_with(&at), "{:?} vs {:?}", msg, at);
                        prop_assert!(msg.chars().count() < 600, "{} characters", msg.len());
                    }
                }
            }
            Err(e) => prop_assert!(e.to_string().starts_with("fuzz.csv")),
        }
    }
    Ok(())
}

/// A valid dataset to mutate: a header with every known column, then rows.
const VALID: &str = "# a comment\nid,start,goal,expected_steps,size\n\
    a,2 3 4 1 5 x 7 6 8,,19,\n\
    b,\"1,2,3,x,4,6,7,5,8\",1 2 3 4 5 6 7 8 x,3,3x3\n\
    c,2 1 3 4 5 6 7 8 x,,-1,\n\
    \n\
    d,1 2 3 x,,,2x2\n\
    e,123x46758,12345678x,3,\n";

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Replace(usize, u8),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop_oneof![
        Just(b",".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"#".to_vec()),
        Just(b"\xef\xbb\xbf".to_vec()),
        Just(b"\xff".to_vec()),
        Just(b"99999999999999999999".to_vec()),
        Just(b"-3".to_vec()),
        Just(b"start".to_vec()),
        Just(b"size".to_vec()),
        Just(b"x".to_vec()),
        Just(b"16x16".to_vec()),
        Just("×".as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 1..6),
    ];
    prop_oneof![
        (any::<usize>(), piece).prop_map(|(at, p)| Edit::Insert(at, p)),
        (any::<usize>(), 1usize..8).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), 1usize..40).prop_map(|(at, n)| Edit::Duplicate(at, n)),
    ]
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let len = bytes.len();
        let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
        match e {
            Edit::Insert(i, p) => {
                let i = at(*i);
                bytes.splice(i..i, p.iter().copied());
            }
            Edit::Delete(i, n) => {
                let i = at(*i);
                let j = (i + n).min(len);
                bytes.drain(i..j);
            }
            Edit::Replace(i, b) => {
                if len > 0 {
                    bytes[i % len] = *b;
                }
            }
            Edit::Duplicate(i, n) => {
                let i = at(*i);
                let j = (i + n).min(len);
                let copy = bytes[i..j].to_vec();
                bytes.splice(j..j, copy);
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn board_parse_never_panics_on_any_string(text in any::<String>()) {
        check_board(&text)?;
    }

    #[test]
    fn board_parse_never_panics_on_token_soup(text in soup()) {
        check_board(&text)?;
    }

    #[test]
    fn size_parse_never_panics_and_accepts_only_real_boards(text in size_like()) {
        check_size(&text)?;
    }

    #[test]
    fn parse_dataset_never_panics_on_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_dataset(&bytes)?;
    }

    #[test]
    fn parse_dataset_never_panics_on_rows_of_plausible_and_broken_fields(
        rows in prop::collection::vec(row(), 0..8),
        with_size in any::<bool>(),
    ) {
        let header = if with_size { "id,start,goal,expected_steps,size" } else { "id,start,goal,expected_steps" };
        let text = format!("{header}\n{}", rows.join("\n"));
        check_dataset(text.as_bytes())?;
    }

    #[test]
    fn parse_dataset_never_panics_on_mutated_valid_csv(edits in prop::collection::vec(edit(), 1..6)) {
        let bytes = apply(VALID.as_bytes().to_vec(), &edits);
        check_dataset(&bytes)?;
    }
}

/// The unmutated dataset is valid: mutations start from a file that parses cleanly.
#[test]
fn the_dataset_to_mutate_is_valid() {
    let (_, cases) =
        parse_dataset("fuzz.csv", VALID.as_bytes(), &InputOptions::default()).expect("parses");
    assert_eq!(cases.len(), 5);
    for c in &cases {
        assert!(c.problem.is_ok(), "{:?}", c.problem);
    }
    assert_eq!(
        cases.iter().map(|c| c.line).collect::<Vec<_>>(),
        [3, 4, 5, 7, 8]
    );
}
