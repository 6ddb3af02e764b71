//! The per-solver figures as github-action-benchmark's `customSmallerIsBetter` input:
//! `[{"name", "unit", "value", "range"}]` (`--export github-benchmark=FILE`).

use super::{Format, StrategySummary, SummaryExport};
use serde_json::{json, Value};

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "github-benchmark",
    describe: "github-action-benchmark customSmallerIsBetter (JSON): p50 latency and mean expanded",
    export: &GithubActionBenchmark,
};

/// github-action-benchmark's custom format (smaller is better for every entry).
pub struct GithubActionBenchmark;

impl SummaryExport for GithubActionBenchmark {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let mut entries = Vec::new();
        for s in summaries {
            // Left out when not measured (a batch-mode program, no answer right).
            if let (Some(p50), Some(p99)) = (s.latency_p50_us, s.latency_p99_us) {
                entries.push(json!({
                    "name": format!("{} p50 latency", s.strategy),
                    "unit": "us",
                    "value": p50,
                    "range": format!("p99 {p99:.3}"),
                }));
            }
            if let Some(mean) = s.expanded_mean {
                entries.push(json!({
                    "name": format!("{} mean expanded", s.strategy),
                    "unit": "nodes",
                    "value": mean,
                }));
            }
        }
        serde_json::to_string_pretty(&Value::Array(entries)).expect("JSON") + "\n"
    }
}
