//! `tilebench table`: the tables papers print, from one or more finished runs.
//!
//! [`load`] reads runs (results directories or their cases.csv) into [`Data`]: the solvers
//! (labelled `run/solver` where two runs hold the same name), the tasks (one per dataset row,
//! matched across runs), and each solver's outcome on each task. [`build`] turns the data and
//! a [`Spec`] into typed [`Table`]s: coverage per group with a sum row, an attribute's
//! aggregate per group (geometric means over the tasks every solver answered right, Lab's
//! rule), a per-task table, or the ranking of a class. [`render`](fn@render) writes tables in one of the
//! `render::FORMATS` (Markdown, LaTeX, CSV, HTML); a new format is one file and one line.
//!
//! ```no_run
//! use tilebench::table::{self, Spec};
//! let data = table::load(&["results/manhattan".into(), "results/linear-conflict".into()])?;
//! let tables = table::build(&data, &Spec::default());
//! print!("{}", table::render(&tables, table::render::format("md")?));
//! # Ok::<(), tilebench::table::TableError>(())
//! ```

pub(crate) mod attribute;
pub(crate) mod build;
pub(crate) mod load;
pub(crate) mod rank;
pub mod render;

pub use attribute::{Aggregate, Attribute, GroupBy, Measure};
pub use build::{build, Spec};
pub use load::{load, Data, Outcome, Solver, Task, Timing};

use std::path::PathBuf;

/// Why tables could not be made: each message names the file or the option, what is wrong,
/// and what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// No run was given.
    #[error("no runs given: name one or more results directories written by `tilebench run` (or their cases.csv)")]
    NoRuns,
    /// No file or directory at the path given for a run.
    #[error("{}: no such results directory or file; check the path (runs are written to results/run-<timestamp> unless their plan's `out` says otherwise)", .path.display())]
    NoSuchRun {
        /// The path given.
        path: PathBuf,
    },
    /// A run cannot be read (not a results directory, a damaged cases.csv); the message
    /// names the file and line.
    #[error("{0}")]
    Read(String),
    /// A run's cases.csv has a header and no rows.
    #[error("{}: has no rows; the run wrote no cases: run `tilebench run` on a dataset with rows, or leave this run out", .0.display())]
    Empty(PathBuf),
    /// An attribute name that is not one of `Attribute::ALL`.
    #[error("unknown attribute `{0}`; choose one of {choices}", choices = attribute::Attribute::choices())]
    UnknownAttribute(String),
    /// An aggregate name that is not one of [`Aggregate`]'s.
    #[error("unknown aggregate `{aggregate}` in `{given}`; choose one of {choices} (e.g. `expanded:gmean`)", choices = attribute::Aggregate::CHOICES)]
    UnknownAggregate {
        /// The `ATTRIBUTE:AGGREGATE` as given.
        given: String,
        /// The part after the colon.
        aggregate: String,
    },
    /// `coverage` with an aggregate other than `sum`.
    #[error("`{0}`: coverage is a count of tasks per row and takes no other aggregate than `sum`; write `coverage`")]
    CoverageAggregate(String),
    /// A format name that is not one of `render::FORMATS`.
    #[error("unknown table format `{0}`; choose one of {choices}", choices = render::names().join(", "))]
    UnknownFormat(String),
}

/// Renders `tables` in `format`: the whole text of the file (or of stdout).
pub fn render(tables: &[Table], format: &render::Format) -> String {
    format.export.render(tables)
}

/// A value in a table cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Not measured (or nothing to aggregate): empty in CSV, `—` elsewhere; never 0.
    Missing,
    /// Text (a group's or solver's name, how a solver was timed).
    Text(String),
    /// A count.
    Int(i64),
    /// A measured or aggregated number, shown with this many decimals (CSV writes it whole).
    Real(f64, usize),
}

impl Value {
    /// The value as a number (for picking the best of a row), if it is one.
    pub(crate) fn number(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            // As shown: values that print alike tie.
            Value::Real(x, d) => format!("{x:.*}", *d).parse().ok(),
            _ => None,
        }
    }

    /// The value as shown in a table, `—` when missing.
    pub(crate) fn shown(&self) -> String {
        match self {
            Value::Missing => "—".into(),
            Value::Text(t) => t.clone(),
            Value::Int(i) => i.to_string(),
            Value::Real(x, d) => format!("{x:.*}", *d),
        }
    }

    /// The value for CSV: empty when missing, numbers in full.
    pub(crate) fn csv(&self) -> String {
        match self {
            Value::Missing => String::new(),
            Value::Text(t) => t.clone(),
            Value::Int(i) => i.to_string(),
            Value::Real(x, _) => x.to_string(),
        }
    }
}

/// One row of a [`Table`].
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// One value per header column.
    pub cells: Vec<Value>,
    /// Per column: whether the cell holds the row's best value (shown in bold).
    pub best: Vec<bool>,
    /// A summary row (the sum of coverage, the aggregate over all groups), set apart by a
    /// rule.
    pub total: bool,
}

/// A typed table: what every format renders.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// What the table shows, e.g. `coverage` or `expanded:gmean` (the CSV's `table` column).
    pub name: String,
    /// A title for people, e.g. `Coverage by input`.
    pub title: String,
    /// Column names: the row label's, then the others.
    pub header: Vec<String>,
    /// Columns before this one are labels (left-aligned); the rest are numbers (right).
    pub first_value: usize,
    /// The rows, in order.
    pub rows: Vec<Row>,
    /// Sentences printed under the table: what the values are, over which tasks, what is
    /// marked.
    pub notes: Vec<String>,
}

/// The coverage table (by input) and the ranking of the runs at `paths`, as an HTML fragment
/// (two `<section>`s, no `<html>` or styles of its own: classes `tb-table`, `best`, `total`)
/// for `tilebench report`'s page. See `html_fragment` for data already loaded.
///
/// # Errors
/// As [`load`].
pub fn report_fragment(paths: &[PathBuf]) -> Result<String, TableError> {
    Ok(html_fragment(&load(paths)?))
}

/// The coverage table (by input) and the ranking of `data`, as an HTML fragment: see
/// [`report_fragment`].
pub(crate) fn html_fragment(data: &Data) -> String {
    let coverage = build(
        data,
        &Spec {
            measures: vec![Measure::coverage()],
            ..Spec::default()
        },
    );
    let ranking = vec![rank::ranking(data)];
    format!(
        "<section class=\"tb-coverage\">\n{}</section>\n<section class=\"tb-ranking\">\n{}</section>\n",
        render::html::tables(&coverage),
        render::html::tables(&ranking)
    )
}

#[cfg(test)]
mod tests;
