//! Every format a record is written in reads back to the same record: cases.csv (through the
//! typed row `compare`, `verify`, `merge` and `plot` read), which is derived from one column
//! list that its typed row must follow. The journal's round trip is a unit test beside the
//! store (`harness::store`'s tests), which is crate-private.

use proptest::prelude::*;
use tilebench::dataset::{Case, Source};
use tilebench::results::cases_csv::{self, columns, CaseRow};
use tilebench::results::record::{Column, Counters, Record, RowStatus};
use tilebench::search::{LimitReason, Problem};

#[path = "common/records.rs"]
mod records;
use records::record;

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
