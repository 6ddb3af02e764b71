//! The summary table as Markdown, for pull-request comments (`--export-markdown`).

use super::table::rows;
use super::{Format, RunExport, StrategySummary, SummaryExport};

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "markdown",
    describe: "the summary table in Markdown, for pull-request comments",
    export: &Markdown,
};

/// Renders any header and rows as a Markdown table (numbers right-aligned).
pub(crate) fn markdown_table(header: &[&str], body: &[Vec<String>]) -> String {
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
pub(crate) struct Markdown;

impl SummaryExport for Markdown {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let (header, body) = rows(summaries);
        markdown_table(&header, &body)
    }

    /// The table under a ✅/❌ line: the checks of `run --check` (those of
    /// `--export junit`) passed or failed, and which failed.
    fn render_run(&self, run: &RunExport<'_>) -> String {
        let checks = super::junit::of_run_check(run.summaries, run.digest, run.allow_limit);
        let failed: Vec<String> = checks
            .suites
            .iter()
            .flat_map(|s| {
                s.cases
                    .iter()
                    .filter(|c| matches!(c.outcome, super::junit::Outcome::Failed { .. }))
                    .map(move |c| format!("{} {}", s.name, c.name))
            })
            .collect();
        let line = if failed.is_empty() {
            format!(
                "✅ **tilebench run**: every check passed ({} solvers)",
                run.summaries.len()
            )
        } else {
            format!(
                "❌ **tilebench run**: {} check(s) failed: {}",
                failed.len(),
                failed.join(", ")
            )
        };
        format!("{line}\n\n{}", self.render(run.summaries))
    }
}
