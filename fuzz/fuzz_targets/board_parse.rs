//! Board and size parsing on arbitrary text: no panic, and every board accepted is printed
//! back in a form that parses to the same board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilebench::puzzle::{Board, Shape};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let shapes = [None, Some((2, 2)), Some((3, 3)), Some((2, 3)), Some((4, 4))];
    for shape in shapes {
        let shape = shape.map(|(w, h)| Shape::new(w, h).unwrap());
        match Board::parse(text, shape) {
            Ok(b) => {
                let again = Board::parse(&b.to_string(), Some(b.shape()));
                assert_eq!(again, Ok(b), "{text:?} → {b}");
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    let _ = text.parse::<Shape>().map_err(|e| e.to_string());
});
