//! The per-solver figures in Bencher Metric Format (BMF), the JSON the Bencher dashboard
//! reads: `{"<benchmark>": {"<measure>": {"value": …, "lower_value": …, "upper_value": …}}}`,
//! one benchmark per solver (`--export bmf=FILE`).

use super::{Format, StrategySummary, SummaryExport};
use serde_json::{json, Map, Value};

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "bmf",
    describe: "Bencher Metric Format (JSON): latency, throughput and counters per solver",
    export: &Bencher,
};

/// Bencher Metric Format.
pub struct Bencher;

impl SummaryExport for Bencher {
    fn render(&self, summaries: &[StrategySummary]) -> String {
        let mut root = Map::new();
        for s in summaries {
            let mut measures = json!({});
            // Figures not measured (a batch-mode program, no answer right) are left out.
            if let (Some(p50), Some(p99)) = (s.latency_p50_us, s.latency_p99_us) {
                measures["latency"] = json!({
                    "value": p50 * 1000.0,
                    "lower_value": p50 * 1000.0,
                    "upper_value": p99 * 1000.0,
                });
            }
            if let Some(v) = s.cases_per_s {
                measures["throughput"] = json!({ "value": v });
            }
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
