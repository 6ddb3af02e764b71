//! The per-solver figures as github-action-benchmark's `customSmallerIsBetter` input:
//! `[{"name", "unit", "value", "range"}]` (`--export github-benchmark=FILE`), named
//! `tilebench/<dataset>/<solver>[<settings>] p50 latency` and `… mean expanded` (see
//! [`super::names`]).

use super::{names, Format, RunExport, StrategySummary, SummaryExport};
use serde_json::{json, Value};

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "github-benchmark",
    describe: "github-action-benchmark customSmallerIsBetter (JSON): p50 latency and mean expanded",
    export: &GithubActionBenchmark,
};

/// github-action-benchmark's custom format (smaller is better for every entry).
pub(crate) struct GithubActionBenchmark;

impl SummaryExport for GithubActionBenchmark {
    /// Without the run's dataset and settings: entries named `<solver> p50 latency`.
    fn render(&self, summaries: &[StrategySummary]) -> String {
        entries(summaries, |s| s.to_string())
    }

    fn render_run(&self, run: &RunExport<'_>) -> String {
        entries(run.summaries, |s| names::benchmark_name(run.info, s))
    }
}

/// The entries, each solver's named by `name`.
fn entries(summaries: &[StrategySummary], name: impl Fn(&str) -> String) -> String {
    let mut entries = Vec::new();
    for s in summaries {
        let name = name(&s.strategy);
        // Left out when not measured (a batch-mode program, no answer right).
        if let (Some(p50), Some(p99)) = (s.latency_p50_us, s.latency_p99_us) {
            entries.push(json!({
                "name": format!("{name} p50 latency"),
                "unit": "us",
                "value": p50,
                "range": format!("p99 {p99:.3}"),
            }));
        }
        if let Some(mean) = s.expanded_mean {
            entries.push(json!({
                "name": format!("{name} mean expanded"),
                "unit": "nodes",
                "value": mean,
            }));
        }
    }
    serde_json::to_string_pretty(&Value::Array(entries)).expect("JSON") + "\n"
}
