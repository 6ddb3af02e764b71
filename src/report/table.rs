//! The aligned summary table printed on stdout after a run.

use super::{StrategySummary, SummaryExport};

/// What a table shows for a figure that was not measured (never 0).
pub(crate) const MISSING: &str = "—";

/// A figure with `decimals` decimals, or `MISSING`.
pub fn figure(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| MISSING.to_string(), |v| format!("{v:.decimals$}"))
}

/// The table's header and cells, shared by the terminal and Markdown renderings.
pub(crate) fn rows(summaries: &[StrategySummary]) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let header = vec![
        "strategy",
        "solved",
        "unsolvable",
        "limit",
        "invalid",
        "errors",
        "mismatches",
        "wrong",
        "non-optimal",
        "mean expanded",
        "p50 µs",
        "p99 µs",
        "cases/s",
    ];
    let body = summaries
        .iter()
        .map(|s| {
            vec![
                s.strategy.clone(),
                s.solved.to_string(),
                s.unsolvable.to_string(),
                s.limit.to_string(),
                s.invalid.to_string(),
                s.errors.to_string(),
                s.mismatches.to_string(),
                s.wrong.to_string(),
                s.non_optimal.to_string(),
                figure(s.expanded_mean, 1),
                figure(s.latency_p50_us, 1),
                figure(s.latency_p99_us, 1),
                figure(s.cases_per_s, 0),
            ]
        })
        .collect();
    (header, body)
}

/// Renders any header and rows as an aligned table: first column left, the rest right.
pub(crate) fn align(header: &[&str], body: &[Vec<String>]) -> String {
    let width = |i: usize| {
        body.iter()
            .map(|r| r[i].chars().count())
            .chain(std::iter::once(header[i].chars().count()))
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i == 0 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = line(header.to_vec()) + "\n";
    for r in body {
        out += &line(r.iter().map(String::as_str).collect());
        out.push('\n');
    }
    out
}

/// The terminal table.
pub struct Table;

/// The registry entry.
pub(crate) const FORMAT: super::Format = super::Format {
    name: "text",
    describe: "the aligned table `run` prints",
    export: &Table,
};

impl SummaryExport for Table {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let (header, body) = rows(summaries);
        align(&header, &body)
    }
}
