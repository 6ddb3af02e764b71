//! `tilebench compare BASELINE CURRENT`: did answers or work regress?
//!
//! Rows are matched by (input, id — or line when a row has no id —, strategy). Exit codes:
//! 0 no regression, 1 regression, 2 usage or unreadable input.
//!
//! - correctness: a different status or step count is always a regression;
//! - work: expanded and generated, per case and per strategy total, may not grow by more
//!   than `--max-work-increase` percent (default 0);
//! - latency: p50 and p99 per strategy, gated only with `--max-latency-increase`;
//! - a case in the baseline but not in the current run is a regression (results were lost);
//!   a new case is reported only.

use super::{CmdResult, FAILED, OK};
use crate::cli::CompareArgs;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tilebench::harness::rundir::RunDir;
use tilebench::harness::rundir::BASELINES_DIR;
use tilebench::report::cases_csv::{self, CaseRow};
use tilebench::report::markdown::markdown_table;
use tilebench::report::table::align;

type Key = (String, String, String);

/// Rows keyed for matching; a key seen twice (duplicate ids) gets `#2`, `#3`… appended.
fn keyed(rows: &[CaseRow]) -> Vec<(Key, &CaseRow)> {
    let mut seen: HashMap<Key, usize> = HashMap::new();
    rows.iter()
        .map(|r| {
            let mut k = r.key();
            let n = seen.entry(k.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                k.1 = format!("{}#{}", k.1, n);
            }
            (k, r)
        })
        .collect()
}

fn describe(k: &Key) -> String {
    format!("{} {} {}", k.0, k.1, k.2)
}

fn answer(r: &CaseRow) -> String {
    match (r.status.as_str(), r.steps) {
        ("solved", Some(n)) => format!("solved in {n}"),
        (s, _) => s.to_string(),
    }
}

/// Percent change from `a` to `b` (0 → 0 is 0; 0 → more is +∞).
fn pct(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else if a == 0.0 {
        f64::INFINITY
    } else {
        (b - a) / a * 100.0
    }
}

fn fmt_pct(p: f64) -> String {
    if p.is_infinite() {
        "+∞%".into()
    } else {
        format!("{p:+.2}%")
    }
}

/// Nearest-rank percentile of latencies in ns, as µs.
fn percentile_us(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64 / 1000.0
}

#[derive(Default)]
struct StrategyTotals {
    base_expanded: u64,
    cur_expanded: u64,
    base_generated: u64,
    cur_generated: u64,
    base_lat: Vec<u64>,
    cur_lat: Vec<u64>,
    wrong: usize,
    work_regressed: usize,
}

fn resolve(args: &CompareArgs) -> Result<(PathBuf, PathBuf), String> {
    match (&args.baseline_name, args.runs.as_slice()) {
        (Some(name), [current]) => Ok((Path::new(BASELINES_DIR).join(name), current.clone())),
        (Some(_), _) => Err("with --baseline NAME, give only the CURRENT results".into()),
        (None, [base, current]) => Ok((base.clone(), current.clone())),
        (None, _) => Err(
            "give BASELINE and CURRENT results (directories or cases.csv), or --baseline NAME and CURRENT"
                .into(),
        ),
    }
}

fn load(p: &Path) -> Result<Vec<CaseRow>, String> {
    let path = RunDir::cases_csv(p);
    if !path.exists() {
        return Err(format!(
            "{}: no such results; give a run's directory (with cases.csv) or its cases.csv",
            path.display()
        ));
    }
    cases_csv::read(&path)
}

pub fn run(args: CompareArgs) -> CmdResult {
    if args.max_work_increase < 0.0 || args.max_latency_increase.is_some_and(|x| x < 0.0) {
        return Err("thresholds are percentages ≥ 0".into());
    }
    let (base_path, cur_path) = resolve(&args)?;
    let base_rows = load(&base_path)?;
    let cur_rows = load(&cur_path)?;
    let base = keyed(&base_rows);
    let cur = keyed(&cur_rows);
    let cur_index: HashMap<&Key, &CaseRow> = cur.iter().map(|(k, r)| (k, *r)).collect();
    let base_index: HashMap<&Key, &CaseRow> = base.iter().map(|(k, r)| (k, *r)).collect();

    let mut strategies: Vec<String> = Vec::new();
    let mut totals: HashMap<String, StrategyTotals> = HashMap::new();
    let mut wrong = Vec::new();
    let mut work_worse = Vec::new();
    let mut work_better = 0usize;
    let mut missing = Vec::new();
    let added: Vec<&Key> = cur
        .iter()
        .filter(|(k, _)| !base_index.contains_key(k))
        .map(|(k, _)| k)
        .collect();

    let searched = |r: &CaseRow| {
        matches!(
            r.status.as_str(),
            "solved" | "unsolvable" | "limit" | "wrong"
        )
    };
    for (k, _) in base.iter().chain(cur.iter()) {
        if !strategies.contains(&k.2) {
            strategies.push(k.2.clone());
        }
    }
    for (k, r) in &cur {
        if let (true, Some(l)) = (searched(r), r.latency_ns) {
            totals.entry(k.2.clone()).or_default().cur_lat.push(l);
        }
    }
    for (k, b) in &base {
        let t = totals.entry(k.2.clone()).or_default();
        if let (true, Some(l)) = (searched(b), b.latency_ns) {
            t.base_lat.push(l);
        }
        let Some(c) = cur_index.get(k) else {
            missing.push(k);
            continue;
        };
        if b.status != c.status || b.steps != c.steps {
            t.wrong += 1;
            wrong.push(format!(
                "{}: baseline {}, current {}",
                describe(k),
                answer(b),
                answer(c)
            ));
            continue;
        }
        if let (Some(be), Some(bg), Some(ce), Some(cg)) =
            (b.expanded, b.generated, c.expanded, c.generated)
        {
            t.base_expanded += be;
            t.cur_expanded += ce;
            t.base_generated += bg;
            t.cur_generated += cg;
            let (pe, pg) = (pct(be as f64, ce as f64), pct(bg as f64, cg as f64));
            if pe > args.max_work_increase || pg > args.max_work_increase {
                t.work_regressed += 1;
                work_worse.push(format!(
                    "{}: expanded {be} → {ce} ({}), generated {bg} → {cg} ({})",
                    describe(k),
                    fmt_pct(pe),
                    fmt_pct(pg)
                ));
            } else if ce < be || cg < bg {
                work_better += 1;
            }
        }
    }

    // The per-strategy table.
    let header = [
        "strategy", "metric", "baseline", "current", "change", "verdict",
    ];
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut latency_regressed = false;
    let work_verdict = |p: f64| -> &'static str {
        if p > args.max_work_increase {
            "regressed"
        } else if p < 0.0 {
            "improved"
        } else if p == 0.0 {
            "unchanged"
        } else {
            "within threshold"
        }
    };
    for s in &strategies {
        let Some(t) = totals.get_mut(s) else { continue };
        body.push(vec![
            s.clone(),
            "wrong answers".into(),
            "".into(),
            t.wrong.to_string(),
            "".into(),
            if t.wrong > 0 {
                "regressed"
            } else {
                "unchanged"
            }
            .into(),
        ]);
        for (metric, b, c) in [
            ("expanded (total)", t.base_expanded, t.cur_expanded),
            ("generated (total)", t.base_generated, t.cur_generated),
        ] {
            let p = pct(b as f64, c as f64);
            body.push(vec![
                s.clone(),
                metric.into(),
                b.to_string(),
                c.to_string(),
                fmt_pct(p),
                work_verdict(p).into(),
            ]);
        }
        if t.work_regressed > 0 {
            body.push(vec![
                s.clone(),
                "cases with more work".into(),
                "".into(),
                t.work_regressed.to_string(),
                "".into(),
                "regressed".into(),
            ]);
        }
        t.base_lat.sort_unstable();
        t.cur_lat.sort_unstable();
        for (metric, q) in [("p50 latency µs", 0.5), ("p99 latency µs", 0.99)] {
            let (b, c) = (percentile_us(&t.base_lat, q), percentile_us(&t.cur_lat, q));
            let p = pct(b, c);
            let verdict = match args.max_latency_increase {
                None => "not gated",
                Some(max) if p > max => {
                    latency_regressed = true;
                    "regressed"
                }
                Some(_) if p < 0.0 => "improved",
                Some(_) => "within threshold",
            };
            body.push(vec![
                s.clone(),
                metric.into(),
                format!("{b:.1}"),
                format!("{c:.1}"),
                fmt_pct(p),
                verdict.into(),
            ]);
        }
    }

    let mut report = String::new();
    let mut lists = String::new();
    let mut list = |title: &str, items: &[String]| {
        if items.is_empty() {
            return;
        }
        lists += &format!("\n{title} ({}):\n", items.len());
        for i in items.iter().take(args.show) {
            lists += &format!("  {i}\n");
        }
        if items.len() > args.show {
            lists += &format!("  … and {} more\n", items.len() - args.show);
        }
    };
    list("Correctness regressions: status or steps changed", &wrong);
    list(
        &format!(
            "Work regressions: expanded or generated grew by more than {}%",
            args.max_work_increase
        ),
        &work_worse,
    );
    let missing_s: Vec<String> = missing.iter().map(|k| describe(k)).collect();
    list("Missing from the current run (regression)", &missing_s);
    let added_s: Vec<String> = added.iter().map(|k| describe(k)).collect();
    list("New in the current run (not in the baseline)", &added_s);

    let regressed = !wrong.is_empty()
        || !work_worse.is_empty()
        || !missing.is_empty()
        || latency_regressed
        || body.iter().any(|r| r[5] == "regressed");
    let verdict = if regressed {
        format!(
            "REGRESSION: {} wrong answer(s), {} case(s) with more work, {} missing case(s){}",
            wrong.len(),
            work_worse.len(),
            missing.len(),
            if latency_regressed {
                ", latency over threshold"
            } else {
                ""
            }
        )
    } else {
        format!(
            "no regression ({} rows matched, {} with less work)",
            base.len() - missing.len(),
            work_better
        )
    };
    report += &format!(
        "compare: baseline {} vs current {}\n\n",
        base_path.display(),
        cur_path.display()
    );
    report += &align(&header, &body);
    report += &lists;
    report += &format!("\ncompare: {verdict}\n");
    print!("{report}");

    if let Some(p) = &args.export_markdown {
        let md = format!(
            "**tilebench compare**: {verdict}\n\n{}{}",
            markdown_table(&header, &body),
            if lists.is_empty() {
                String::new()
            } else {
                format!("\n```\n{}\n```\n", lists.trim())
            }
        );
        std::fs::write(p, md).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(if regressed { FAILED } else { OK })
}
