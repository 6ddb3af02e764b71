//! `compare --export json=FILE`: the comparison for dashboards, every interval's bounds
//! included. The layout is documented in docs/compare.md ("JSON export").

use super::{ComparisonExport, Format};
use crate::compare::model::{
    Comparison, LatencyFigure, LatencyVerdict, ListKind, PairComparison, PairKind,
};
use serde_json::{json, Value};

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "json",
    describe: "the comparison for dashboards: every pair, solver and figure, intervals included",
    export: &Json,
};

/// The layout's version.
pub(crate) const VERSION: u32 = 2;

/// JSON for dashboards.
pub(crate) struct Json;

impl ComparisonExport for Json {
    fn render(&self, c: &Comparison) -> String {
        let t = &c.thresholds;
        let value = json!({
            "tilebench_compare": VERSION,
            "title": c.title(),
            "verdict": c.verdict(),
            "regressed": c.regressed(),
            "left_out": c.left_out,
            "thresholds": {
                "max_work_increase_pct": t.max_work_increase_pct,
                "max_latency_increase_pct": t.max_latency_increase_pct,
                "noise_threshold_pct": t.noise_threshold_pct,
            },
            "pairs": c.pairs.iter().map(pair).collect::<Vec<_>>(),
        });
        serde_json::to_string_pretty(&value).expect("JSON values print") + "\n"
    }
}

/// One latency figure: the values (µs for p50 and p99; 1 and the ratio per case), the ratio
/// current/baseline with its 95% interval, the verdict.
fn figure(f: &LatencyFigure) -> Value {
    let verdict = match f.verdict {
        LatencyVerdict::TooFewCases => "too few cases",
        LatencyVerdict::Judged { verdict, .. } => verdict.word(),
    };
    let mut v = json!({
        "ratio": f.interval.estimate,
        "ratio_low": f.interval.low,
        "ratio_high": f.interval.high,
        "verdict": verdict,
        "gated": matches!(f.verdict, LatencyVerdict::Judged { gated: true, .. }),
        "indication_only": !f.replicated,
        "words": f.word(),
    });
    if f.figure.quantile().is_some() {
        // To the nanosecond: the values are nanosecond counts.
        let us = |x: f64| (x * 1000.0).round() / 1000.0;
        v["baseline_us"] = json!(us(f.baseline));
        v["current_us"] = json!(us(f.current));
    }
    v
}

/// One changed setting: its name, both values, the counters it can move and for which
/// solvers (null: all).
fn setting(c: &crate::report::settings::SettingChange) -> Value {
    use crate::report::settings::Scope;
    json!({
        "setting": c.setting.name(),
        "baseline": c.base,
        "current": c.current,
        "can_change": c.counters.iter().map(|k| k.column()).collect::<Vec<_>>(),
        "solvers": match &c.scope {
            Scope::All => None,
            Scope::Solvers(names) => Some(names.clone()),
        },
    })
}

/// One pair as an object.
fn pair(p: &PairComparison) -> Value {
    let solvers: Vec<Value> = p
        .solvers
        .iter()
        .map(|s| {
            let mut work = serde_json::Map::new();
            for (counter, total) in &s.work {
                if let Some(change) = total.change_pct() {
                    work.insert(
                        counter.column().into(),
                        json!({
                            "baseline": total.baseline,
                            "current": total.current,
                            "rows": total.rows,
                            // +∞ (from 0) has no JSON number: null.
                            "change_pct": change.is_finite().then_some(change),
                        }),
                    );
                }
            }
            let latency = (!s.latency.is_empty()).then(|| {
                let mut l = serde_json::Map::new();
                l.insert("cases".into(), json!(s.latency_cases));
                for f in &s.latency {
                    l.insert(f.figure.key().into(), figure(f));
                }
                Value::Object(l)
            });
            json!({
                "strategy": s.solver,
                "wrong_answers": s.wrong,
                // Two solvers of one run differ in work by design.
                "cases_with_more_work":
                    (p.kind == PairKind::Runs).then_some(s.cases_with_more_work),
                "rows_missing_a_counter": s.rows_missing_a_counter,
                "work": work,
                "latency": latency,
            })
        })
        .collect();
    json!({
        "kind": match p.kind { PairKind::Runs => "runs", PairKind::Solvers => "solvers" },
        "baseline": p.baseline,
        "current": p.current,
        "title": p.title(),
        "regressed": p.regressed,
        "verdict": p.verdict(),
        "notes": p.notes,
        "settings": p.settings.iter().map(setting).collect::<Vec<_>>(),
        "runs": {"baseline": p.runs.0, "current": p.runs.1},
        "missing_rows": p.count(ListKind::Missing),
        "new_rows": p.count(ListKind::New),
        "strategies": solvers,
    })
}
