//! CSV, tidy: one line per value cell, `table,row,column,value,best`, whatever the tables'
//! shapes (several tables fit one file; pandas, R and DuckDB load it as is, and a pivot on
//! `column` gives the printed table back). Missing values are empty; `best` is `true` for the
//! cells bold elsewhere, else `false`.

use super::{Format, Render};
use crate::table::Table;

/// `--format csv`.
pub(crate) const FORMAT: Format = Format {
    name: "csv",
    describe: "CSV, one line per cell: table,row,column,value,best (missing values empty)",
    export: &Csv,
};

/// The CSV renderer.
pub(crate) struct Csv;

impl Render for Csv {
    fn render(&self, tables: &[Table]) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(["table", "row", "column", "value", "best"]);
        for t in tables {
            for r in &t.rows {
                let label: Vec<String> = r.cells[..t.first_value].iter().map(|v| v.csv()).collect();
                let label = label.join(" ");
                for c in t.first_value..t.header.len() {
                    let _ = w.write_record([
                        t.name.as_str(),
                        &label,
                        &t.header[c],
                        &r.cells[c].csv(),
                        if r.best[c] { "true" } else { "false" },
                    ]);
                }
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}
