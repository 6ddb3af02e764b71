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

/// Whether a row's latency counts: an answered row (searched, not out of budget), the rows
/// summary.csv's percentiles are made of.
fn answered(r: &CaseRow) -> bool {
    r.status.searched() && r.status != tilebench::harness::record::RowStatus::Limit
}

/// A percentile of latencies in ns, as µs: HdrHistogram's, as summary.csv's.
fn percentile_us(latencies: &[u64], q: f64) -> f64 {
    let mut h = tilebench::report::new_histogram();
    for &ns in latencies {
        h.saturating_record(ns.max(1));
    }
    tilebench::report::percentile_us(&h, q)
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

/// The per-strategy table's columns.
const HEADER: [&str; 6] = [
    "strategy", "metric", "baseline", "current", "change", "verdict",
];

pub fn run(args: CompareArgs) -> CmdResult {
    if args.max_work_increase < 0.0 || args.max_latency_increase.is_some_and(|x| x < 0.0) {
        return Err("thresholds are percentages ≥ 0".into());
    }
    let (base_path, cur_path) = resolve(&args)?;
    let base_rows = load(&base_path)?;
    let cur_rows = load(&cur_path)?;
    let base = keyed(&base_rows);
    let cur = keyed(&cur_rows);
    let mut found = match_rows(&base, &cur, args.max_work_increase);
    let (body, latency_regressed) = strategy_table(&mut found, &args);
    let lists = found.lists(&args);

    let regressed = !found.wrong.is_empty()
        || !found.work_worse.is_empty()
        || !found.missing.is_empty()
        || latency_regressed
        || body.iter().any(|r| r[5] == "regressed");
    let verdict = found.verdict(regressed, latency_regressed, base.len());
    let mut report = String::new();
    report += &format!(
        "compare: baseline {} vs current {}\n\n",
        base_path.display(),
        cur_path.display()
    );
    report += &align(&HEADER, &body);
    report += &lists;
    report += &format!("\ncompare: {verdict}\n");
    print!("{report}");

    if let Some(p) = &args.export_markdown {
        export_markdown(p, &verdict, &body, &lists)?;
    }
    Ok(if regressed { FAILED } else { OK })
}

/// What matching the baseline's rows with the current run's found.
struct Findings<'a> {
    /// Strategies in order of appearance, baseline first.
    strategies: Vec<String>,
    totals: HashMap<String, StrategyTotals>,
    /// Cases whose status or steps changed, described.
    wrong: Vec<String>,
    /// Cases whose work grew past the threshold, described.
    work_worse: Vec<String>,
    /// How many cases did less work.
    work_better: usize,
    /// Keys in the baseline but not in the current run.
    missing: Vec<&'a Key>,
    /// Keys in the current run but not in the baseline.
    added: Vec<&'a Key>,
}

/// How one matched case's work changed.
enum WorkChange {
    /// More than the threshold allows, described.
    Worse(String),
    Better,
    Same,
}

/// Matches the baseline's rows with the current run's: answers, work and latencies.
fn match_rows<'a>(
    base: &'a [(Key, &CaseRow)],
    cur: &'a [(Key, &CaseRow)],
    max_work_increase: f64,
) -> Findings<'a> {
    let cur_index: HashMap<&Key, &CaseRow> = cur.iter().map(|(k, r)| (k, *r)).collect();
    let base_index: HashMap<&Key, &CaseRow> = base.iter().map(|(k, r)| (k, *r)).collect();
    let mut found = Findings {
        strategies: Vec::new(),
        totals: HashMap::new(),
        wrong: Vec::new(),
        work_worse: Vec::new(),
        work_better: 0,
        missing: Vec::new(),
        added: cur
            .iter()
            .filter(|(k, _)| !base_index.contains_key(k))
            .map(|(k, _)| k)
            .collect(),
    };
    for (k, _) in base.iter().chain(cur.iter()) {
        if !found.strategies.contains(&k.2) {
            found.strategies.push(k.2.clone());
        }
    }
    for (k, r) in cur {
        if let (true, Some(l)) = (answered(r), r.latency_ns) {
            found.totals.entry(k.2.clone()).or_default().cur_lat.push(l);
        }
    }
    for (k, b) in base {
        let t = found.totals.entry(k.2.clone()).or_default();
        if let (true, Some(l)) = (answered(b), b.latency_ns) {
            t.base_lat.push(l);
        }
        let Some(c) = cur_index.get(k) else {
            found.missing.push(k);
            continue;
        };
        if b.status != c.status || b.steps != c.steps {
            t.wrong += 1;
            found.wrong.push(format!(
                "{}: baseline {}, current {}",
                describe(k),
                answer(b),
                answer(c)
            ));
            continue;
        }
        match compare_work(t, k, b, c, max_work_increase) {
            WorkChange::Worse(w) => found.work_worse.push(w),
            WorkChange::Better => found.work_better += 1,
            WorkChange::Same => {}
        }
    }
    found
}

/// Adds a matched case's counters (when both rows have them) to its strategy's totals, and
/// says how its work changed.
fn compare_work(
    t: &mut StrategyTotals,
    k: &Key,
    b: &CaseRow,
    c: &CaseRow,
    max_work_increase: f64,
) -> WorkChange {
    let (Some(be), Some(bg), Some(ce), Some(cg)) =
        (b.expanded, b.generated, c.expanded, c.generated)
    else {
        return WorkChange::Same;
    };
    t.base_expanded += be;
    t.cur_expanded += ce;
    t.base_generated += bg;
    t.cur_generated += cg;
    let (pe, pg) = (pct(be as f64, ce as f64), pct(bg as f64, cg as f64));
    if pe > max_work_increase || pg > max_work_increase {
        t.work_regressed += 1;
        WorkChange::Worse(format!(
            "{}: expanded {be} → {ce} ({}), generated {bg} → {cg} ({})",
            describe(k),
            fmt_pct(pe),
            fmt_pct(pg)
        ))
    } else if ce < be || cg < bg {
        WorkChange::Better
    } else {
        WorkChange::Same
    }
}

/// The per-strategy table's rows, and whether a gated latency regressed.
fn strategy_table(found: &mut Findings, args: &CompareArgs) -> (Vec<Vec<String>>, bool) {
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut latency_regressed = false;
    for s in &found.strategies {
        let Some(t) = found.totals.get_mut(s) else {
            continue;
        };
        work_rows(&mut body, s, t, args.max_work_increase);
        latency_regressed |= latency_rows(&mut body, s, t, args.max_latency_increase);
    }
    (body, latency_regressed)
}

/// The verdict on a change in work of `p` percent.
fn work_verdict(p: f64, max_work_increase: f64) -> &'static str {
    if p > max_work_increase {
        "regressed"
    } else if p < 0.0 {
        "improved"
    } else if p == 0.0 {
        "unchanged"
    } else {
        "within threshold"
    }
}

/// Adds a strategy's rows on answers and work: wrong answers, total expanded and generated,
/// and the cases with more work if any.
fn work_rows(body: &mut Vec<Vec<String>>, s: &str, t: &StrategyTotals, max_work_increase: f64) {
    body.push(vec![
        s.to_string(),
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
            s.to_string(),
            metric.into(),
            b.to_string(),
            c.to_string(),
            fmt_pct(p),
            work_verdict(p, max_work_increase).into(),
        ]);
    }
    if t.work_regressed > 0 {
        body.push(vec![
            s.to_string(),
            "cases with more work".into(),
            "".into(),
            t.work_regressed.to_string(),
            "".into(),
            "regressed".into(),
        ]);
    }
}

/// Adds a strategy's p50 and p99 latency rows; true when one regressed past
/// `max_latency_increase`.
fn latency_rows(
    body: &mut Vec<Vec<String>>,
    s: &str,
    t: &mut StrategyTotals,
    max_latency_increase: Option<f64>,
) -> bool {
    let mut regressed = false;
    for (metric, q) in [("p50 latency µs", 0.5), ("p99 latency µs", 0.99)] {
        let (b, c) = (percentile_us(&t.base_lat, q), percentile_us(&t.cur_lat, q));
        let p = pct(b, c);
        let verdict = match max_latency_increase {
            None => "not gated",
            Some(max) if p > max => {
                regressed = true;
                "regressed"
            }
            Some(_) if p < 0.0 => "improved",
            Some(_) => "within threshold",
        };
        body.push(vec![
            s.to_string(),
            metric.into(),
            format!("{b:.1}"),
            format!("{c:.1}"),
            fmt_pct(p),
            verdict.into(),
        ]);
    }
    regressed
}

/// Adds a titled list of at most `show` items (and how many more) to `lists`; nothing when
/// `items` is empty.
fn push_list(lists: &mut String, title: &str, items: &[String], show: usize) {
    if items.is_empty() {
        return;
    }
    *lists += &format!("\n{title} ({}):\n", items.len());
    for i in items.iter().take(show) {
        *lists += &format!("  {i}\n");
    }
    if items.len() > show {
        *lists += &format!("  … and {} more\n", items.len() - show);
    }
}

impl Findings<'_> {
    /// The lists of cases under the table: wrong answers, more work, missing, new.
    fn lists(&self, args: &CompareArgs) -> String {
        let mut lists = String::new();
        push_list(
            &mut lists,
            "Correctness regressions: status or steps changed",
            &self.wrong,
            args.show,
        );
        push_list(
            &mut lists,
            &format!(
                "Work regressions: expanded or generated grew by more than {}%",
                args.max_work_increase
            ),
            &self.work_worse,
            args.show,
        );
        let missing_s: Vec<String> = self.missing.iter().map(|k| describe(k)).collect();
        push_list(
            &mut lists,
            "Missing from the current run (regression)",
            &missing_s,
            args.show,
        );
        let added_s: Vec<String> = self.added.iter().map(|k| describe(k)).collect();
        push_list(
            &mut lists,
            "New in the current run (not in the baseline)",
            &added_s,
            args.show,
        );
        lists
    }

    /// The one-line verdict: what regressed, or how many rows matched.
    fn verdict(&self, regressed: bool, latency_regressed: bool, base_rows: usize) -> String {
        if regressed {
            format!(
                "REGRESSION: {} wrong answer(s), {} case(s) with more work, {} missing case(s){}",
                self.wrong.len(),
                self.work_worse.len(),
                self.missing.len(),
                if latency_regressed {
                    ", latency over threshold"
                } else {
                    ""
                }
            )
        } else {
            format!(
                "no regression ({} rows matched, {} with less work)",
                base_rows - self.missing.len(),
                self.work_better
            )
        }
    }
}

/// Writes the verdict, the table and the lists as Markdown to `p` (--export-markdown).
fn export_markdown(
    p: &Path,
    verdict: &str,
    body: &[Vec<String>],
    lists: &str,
) -> Result<(), String> {
    let md = format!(
        "**tilebench compare**: {verdict}\n\n{}{}",
        markdown_table(&HEADER, body),
        if lists.is_empty() {
            String::new()
        } else {
            format!("\n```\n{}\n```\n", lists.trim())
        }
    );
    std::fs::write(p, md).map_err(|e| format!("cannot write {}: {e}", p.display()))
}
