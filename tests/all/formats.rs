//! Every format a record is written in reads back to the same record: cases.csv (through the
//! typed row `compare`, `verify`, `merge` and `plot` read), which is derived from one column
//! list that its typed row must follow. The journal's round trip is a unit test beside the
//! store (`harness::store`'s tests), which is crate-private.

use proptest::prelude::*;
use tilebench::dataset::{Case, Source};
use tilebench::results::cases_csv::{self, columns, CaseRow};
use tilebench::results::record::{Column, Counters, Record, RowStatus};
use tilebench::search::Problem;

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

fn record(journal: bool) -> impl Strategy<Value = Record> {
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
                    limit_reason: tilebench::search::LimitReason::ALL.get(case % 5).copied(),
                }
            },
        )
}

proptest! {
    #[test]
    fn cases_csv_reads_back_every_record(rec in record(false)) {
        let start = "2 3 4 1 5 x 7 6 8".parse().unwrap();
        let goal = "1 2 3 4 5 6 7 8 x".parse().unwrap();
        let case = Case {
            source: Source::new("in, put.csv"),
            line: 7,
            id: "a \"b\"".into(),
            start_text: "2 3 4 1 5 x 7 6 8".into(),
            goal_text: String::new(),
            expected_steps: Some(19),
            problem: Ok(Problem { start, goal }),
        };
        let mut cases = vec![case.clone(); rec.case + 1];
        cases[rec.case] = case;
        let mut bytes = Vec::new();
        cases_csv::write(&mut bytes, &cases, std::slice::from_ref(&rec)).unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let rows: Vec<CaseRow> = r.deserialize().map(|x| x.unwrap()).collect();
        prop_assert_eq!(rows.len(), 1);
        prop_assert_eq!(rows[0].to_record(rec.case), rec);
    }
}

#[test]
fn the_typed_row_has_the_columns_of_the_list_in_order() {
    let names: Vec<&str> = Column::CASES_CSV.iter().map(|c| c.name()).collect();
    assert_eq!(names, cases_csv::FIXED_COLUMNS);
    // The header: those, then one column per option of the built-in strategies.
    let options = &tilebench::search::configuration::columns()[1..];
    assert_eq!(columns(), [&names[..], options].concat());
    // A row serialized with headers: serde's field names are the column list.
    let mut w = csv::Writer::from_writer(Vec::new());
    let rec = Record::empty(0, "astar");
    let case = Case {
        source: Source::new("x.csv"),
        line: 2,
        id: Default::default(),
        start_text: "bad".into(),
        goal_text: String::new(),
        expected_steps: None,
        problem: Err("x.csv:2: bad".into()),
    };
    w.serialize(CaseRow::new(&case, &rec)).unwrap();
    let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        cases_csv::FIXED_COLUMNS.join(",")
    );
}
