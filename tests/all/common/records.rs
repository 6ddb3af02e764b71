//! Arbitrary records for the property tests of every format a record is written in: the
//! journal's store (`harness::store`'s unit tests, which can reach the crate-private store)
//! and cases.csv (`tests/all/formats.rs`). Both include this one file (`#[path]`), each from
//! its side of the crate boundary: the module that includes it imports `Counters`,
//! `LimitReason`, `Record` and `RowStatus`.

use super::{Counters, LimitReason, Record, RowStatus};
use proptest::prelude::*;

fn status() -> impl Strategy<Value = RowStatus> {
    prop_oneof![
        Just(RowStatus::Solved),
        Just(RowStatus::Unsolvable),
        Just(RowStatus::Limit),
        Just(RowStatus::Invalid),
        Just(RowStatus::Error),
        Just(RowStatus::Wrong),
    ]
}

/// Text with what breaks naive CSV and line-based formats: commas, quotes, line ends,
/// backslashes, leading and trailing spaces, non-ASCII.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just(",".to_string()),
            Just("\"".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\\".to_string()),
            Just("\\n".to_string()),
            Just(" ".to_string()),
            Just("é…".to_string()),
            "[a-z0-9:`]{1,6}",
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

pub(super) fn record(journal: bool) -> impl Strategy<Value = Record> {
    (
        (0usize..5000, "[a-z][a-z0-9._-]{0,12}", status()),
        (
            proptest::option::of(-1i64..200),
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
        ),
        proptest::array::uniform4(proptest::option::of(0u64..u64::MAX)),
        // u64::MAX is the store's "none" (no latency runs for 584 years).
        proptest::array::uniform4(proptest::option::of(0u64..u64::MAX)),
        proptest::option::of("[udlr]{0,40}"),
        text(),
    )
        .prop_map(
            move |((case, strategy, status), (steps, m, o), c, t, path, message)| {
                let measured = journal || status.searched();
                Record {
                    case,
                    strategy: strategy.as_str().into(),
                    status,
                    steps,
                    matches_expected: m,
                    optimal: o,
                    optimum_steps: steps.map(|s: i64| s.unsigned_abs()),
                    counters: if measured {
                        Counters {
                            expanded: c[0],
                            generated: c[1],
                            stored: c[2],
                            peak_frontier: c[3],
                        }
                    } else {
                        Counters::default()
                    },
                    latency_ns: t[0].filter(|_| measured),
                    latency_min_ns: t[1].filter(|_| measured),
                    cpu_us: t[2].filter(|_| measured),
                    max_rss_kb: t[3].filter(|_| measured),
                    peak_heap_bytes: t[0].map(|v| v / 3).filter(|_| measured),
                    // cases.csv writes no path and the empty path (start = goal) alike; `steps`
                    // tells them apart. The journal keeps both.
                    path: path.filter(|p| journal || !p.is_empty()),
                    message,
                    limit_reason: LimitReason::ALL.get(case % 5).copied(),
                }
            },
        )
}
