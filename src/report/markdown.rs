//! The summary table as Markdown, for pull-request comments (`--export-markdown`).

use super::table::rows;
use super::{Format, StrategySummary, SummaryExport};

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "markdown",
    describe: "the summary table in Markdown, for pull-request comments",
    export: &Markdown,
};

/// Renders any header and rows as a Markdown table (numbers right-aligned).
pub fn markdown_table(header: &[&str], body: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    let rule: Vec<&str> = (0..header.len())
        .map(|i| if i == 0 { ":---" } else { "---:" })
        .collect();
    out += &format!("| {} |\n", rule.join(" | "));
    for r in body {
        out += &format!("| {} |\n", r.join(" | "));
    }
    out
}

/// The summary table as Markdown.
pub struct Markdown;

impl SummaryExport for Markdown {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let (header, body) = rows(summaries);
        markdown_table(&header, &body)
    }
}
