//! Dataset parsing on arbitrary bytes: no panic; every case has a line inside the file, and
//! every invalid row's message starts with `file:line:`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilebench::dataset::{parse_dataset, InputOptions};

fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64 + 1;
    for opts in [
        InputOptions::default(),
        InputOptions {
            size: Some("3x3".parse().unwrap()),
            goal: Some("1 2 3 4 5 6 7 8 x".into()),
        },
    ] {
        let Ok((file, cases)) = parse_dataset("fuzz.csv", data, &opts) else {
            continue;
        };
        assert_eq!(file.rows, cases.len());
        for c in &cases {
            assert!(c.line >= 1 && c.line <= lines, "line {} of {lines}", c.line);
            if let Err(msg) = &c.problem {
                let at = format!("fuzz.csv:{}: ", c.line);
                assert!(msg.starts_with(&at), "{msg:?} does not start with {at:?}");
            }
        }
    }
});
