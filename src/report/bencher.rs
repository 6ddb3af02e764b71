//! The per-solver figures in Bencher Metric Format (BMF), the JSON the Bencher dashboard
//! reads: `{"<benchmark>": {"<measure>": {"value": …, "lower_value": …, "upper_value": …}}}`,
//! one benchmark per solver (`--export bmf=FILE`), named `tilebench/<dataset>/<solver>[<settings>]`
//! (see [`super::names`]).

use super::{names, Format, RunExport, StrategySummary, SummaryExport};
use serde_json::{json, Map, Value};

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "bmf",
    describe: "Bencher Metric Format (JSON): latency, throughput and counters per solver",
    export: &Bencher,
};

/// Bencher Metric Format.
pub(crate) struct Bencher;

impl SummaryExport for Bencher {
    /// Without the run's dataset and settings: benchmarks named `tilebench/<solver>`.
    fn render(&self, summaries: &[StrategySummary]) -> String {
        bmf(summaries, |s| format!("tilebench/{s}"))
    }

    fn render_run(&self, run: &RunExport<'_>) -> String {
        bmf(run.summaries, |s| names::benchmark_name(run.info, s))
    }
}

/// The BMF document, each solver's benchmark named by `name`.
fn bmf(summaries: &[StrategySummary], name: impl Fn(&str) -> String) -> String {
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
        // A solver with nothing measured has no benchmark: Bencher refuses an empty one.
        if measures.as_object().is_some_and(|m| !m.is_empty()) {
            root.insert(name(&s.strategy), measures);
        }
    }
    serde_json::to_string_pretty(&Value::Object(root)).expect("JSON") + "\n"
}
