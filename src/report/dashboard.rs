//! A run's per-strategy figures in the JSON formats CI dashboards read.
//!
//! - [`Bencher`]: Bencher Metric Format (BMF): `{"<benchmark>": {"<measure>": {"value": …,
//!   "lower_value": …, "upper_value": …}}}`, one benchmark per strategy.
//! - [`GithubActionBenchmark`]: github-action-benchmark's `customSmallerIsBetter` input:
//!   `[{"name", "unit", "value", "range"}]`.

use super::{StrategySummary, SummaryExport};
use serde_json::{json, Map, Value};

/// Bencher Metric Format.
pub struct Bencher;

impl SummaryExport for Bencher {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let mut root = Map::new();
        for s in summaries {
            let mut measures = json!({
                "latency": {
                    "value": s.latency_p50_us * 1000.0,
                    "lower_value": s.latency_p50_us * 1000.0,
                    "upper_value": s.latency_p99_us * 1000.0,
                },
                "throughput": { "value": s.cases_per_s },
            });
            // Counters are left out for external programs that do not report them.
            for (measure, value) in [
                ("expanded", s.expanded_mean),
                ("generated", s.generated_mean),
            ] {
                if let Some(v) = value {
                    measures[measure] = json!({ "value": v });
                }
            }
            root.insert(format!("tilebench/{}", s.strategy), measures);
        }
        serde_json::to_string_pretty(&Value::Object(root)).expect("JSON") + "\n"
    }
}

/// github-action-benchmark's custom format (smaller is better for every entry).
pub struct GithubActionBenchmark;

impl SummaryExport for GithubActionBenchmark {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let mut entries = Vec::new();
        for s in summaries {
            entries.push(json!({
                "name": format!("{} p50 latency", s.strategy),
                "unit": "us",
                "value": s.latency_p50_us,
                "range": format!("p99 {:.3}", s.latency_p99_us),
            }));
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
