//! `compare --export-json FILE`: the comparison for dashboards, every interval's bounds
//! included. The layout is documented in docs/compare.md ("JSON export").

use super::{pct, Findings, LatencyFigure, COUNTERS};
use crate::cli::CompareArgs;
use serde_json::{json, Value};
use std::path::Path;

/// One latency figure: the values (µs for p50 and p99; 1 and the ratio per case), the ratio
/// current/baseline with its 95% interval, the verdict.
fn figure(f: &LatencyFigure) -> Value {
    let mut v = json!({
        "ratio": f.interval.estimate,
        "ratio_low": f.interval.low,
        "ratio_high": f.interval.high,
        "verdict": f.verdict,
    });
    if f.name != "per case" {
        // To the nanosecond: the values are nanosecond counts.
        let us = |x: f64| (x * 1000.0).round() / 1000.0;
        v["baseline_us"] = json!(us(f.baseline));
        v["current_us"] = json!(us(f.current));
    }
    v
}

/// The whole comparison as one JSON object.
pub(super) fn comparison(
    title: &str,
    verdict: &str,
    regressed: bool,
    notes: &[String],
    found: &Findings,
    latencies: &[(String, Vec<LatencyFigure>)],
    args: &CompareArgs,
) -> Value {
    let strategies: Vec<Value> = found
        .strategies
        .iter()
        .filter_map(|s| {
            let t = found.totals.get(s)?;
            let mut work = serde_json::Map::new();
            for ((column, _), total) in COUNTERS.iter().zip(&t.work) {
                if total.rows > 0 {
                    let change = pct(total.base as f64, total.cur as f64);
                    work.insert(
                        (*column).into(),
                        json!({
                            "baseline": total.base,
                            "current": total.cur,
                            "rows": total.rows,
                            // +∞ (from 0) has no JSON number: null.
                            "change_pct": change.is_finite().then_some(change),
                        }),
                    );
                }
            }
            let latency = latencies
                .iter()
                .find(|(name, _)| name == s)
                .filter(|(_, f)| !f.is_empty())
                .map(|(_, figures)| {
                    let mut l = serde_json::Map::new();
                    l.insert("cases".into(), json!(t.lat_cases));
                    for f in figures {
                        l.insert(f.name.replace(' ', "_"), figure(f));
                    }
                    Value::Object(l)
                });
            Some(json!({
                "strategy": s,
                "wrong_answers": t.wrong,
                // Two strategies of one run differ in work by design.
                "cases_with_more_work": (!found.within).then_some(t.work_regressed),
                "rows_missing_a_counter": t.counter_gaps,
                "work": work,
                "latency": latency,
            }))
        })
        .collect();
    json!({
        "tilebench_compare": 1,
        "title": title,
        "regressed": regressed,
        "verdict": verdict.replace("\ncompare: ", "; "),
        "notes": notes,
        "runs": {"baseline": found.runs.0, "current": found.runs.1},
        "thresholds": {
            "max_work_increase_pct": args.max_work_increase,
            "max_latency_increase_pct": args.max_latency_increase,
            "noise_threshold_pct": args.noise_threshold,
        },
        "missing_rows": found.missing_rows(),
        "new_rows": found.new_rows(),
        "strategies": strategies,
    })
}

/// Writes `value` to `p`, pretty-printed, with a final newline.
pub(super) fn write(p: &Path, value: &Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).expect("JSON values print") + "\n";
    std::fs::write(p, text).map_err(|e| {
        format!(
            "cannot write {}: {}",
            p.display(),
            tilebench::util::io_reason(&e)
        )
    })
}
