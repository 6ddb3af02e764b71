//! `tilebench compare BASELINE CURRENT`: did answers or work regress?
//!
//! Rows are matched by (input, id — or line when a row has no id —, strategy); an input
//! whose path differs between the runs is matched by its checksum (from each run's run.json).
//! Exit codes: 0 no regression, 1 regression, 2 usage or unreadable input. It fails closed:
//! what it cannot check is a failure, never a pass.
//!
//! - correctness: a different status or step count is always a regression;
//! - work: expanded and generated, per case and per strategy total, may not grow by more
//!   than `--max-work-increase` percent (default 0); a counter that one run has and the other
//!   lacks (an empty cell) on a row of both is a regression, never a 0;
//! - latency: p50 and p99 per strategy, gated only with `--max-latency-increase`;
//! - a case in the baseline but not in the current run is a regression (results were lost);
//!   a new case is reported only;
//! - unusable input (exit 2): a missing, empty, headerless or header-only cases.csv, one
//!   without a column of cases.csv, a threshold that is not a finite percentage ≥ 0, two runs
//!   of different input files.

use super::{CmdResult, FAILED, OK};
use crate::cli::CompareArgs;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tilebench::harness::input::InputFile;
use tilebench::harness::rundir::RunDir;
use tilebench::harness::rundir::BASELINES_DIR;
use tilebench::report::cases_csv::{self, CaseRow};
use tilebench::report::markdown::markdown_table;
use tilebench::report::table::align;
use tilebench::stats;

type Key = (String, String, String);

/// Rows keyed for matching; a key seen twice (duplicate ids) gets `#2`, `#3`… appended. Rows
/// of inputs in `skip` (read by one run only) are left out.
fn keyed<'a>(rows: &'a [CaseRow], skip: &[(String, usize)]) -> Vec<(Key, &'a CaseRow)> {
    let mut seen: HashMap<Key, usize> = HashMap::new();
    rows.iter()
        .filter(|r| !skip.iter().any(|(input, _)| *input == r.input))
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

/// A row's latency in ns when it counts: an answered row (searched, not out of budget), the
/// rows summary.csv's percentiles are made of.
fn latency(r: &CaseRow) -> Option<f64> {
    let answered = r.status.searched() && r.status != tilebench::harness::record::RowStatus::Limit;
    Some(r.latency_ns.filter(|&ns| answered && ns > 0)? as f64)
}

/// The work counters compared: the column's name, its value in a row.
type Counter = (&'static str, fn(&CaseRow) -> Option<u64>);
const COUNTERS: [Counter; 2] = [("expanded", |r| r.expanded), ("generated", |r| r.generated)];

/// One work counter of one strategy, summed over the matched rows that have it in both runs.
#[derive(Default)]
struct CounterTotal {
    base: u64,
    cur: u64,
    /// Rows that have the counter in both runs.
    rows: usize,
}

#[derive(Default)]
struct StrategyTotals {
    /// In [`COUNTERS`] order.
    work: [CounterTotal; 2],
    /// Latencies (ns) of the matched cases both runs answered with a search, pair by pair.
    base_lat: Vec<f64>,
    cur_lat: Vec<f64>,
    wrong: usize,
    work_regressed: usize,
    /// Matched rows with a counter in one run only.
    counter_gaps: usize,
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

/// One run as given to compare: its cases.csv's rows, and its inputs' checksums when a
/// run.json lies beside the cases.csv.
struct Side {
    /// The cases.csv read.
    path: PathBuf,
    rows: Vec<CaseRow>,
    /// run.json's inputs, when there is a readable one.
    inputs: Option<Vec<InputFile>>,
}

impl Side {
    /// The checksum run.json gives for `input`.
    fn checksum(&self, input: &str) -> Option<&str> {
        let files = self.inputs.as_ref()?;
        files
            .iter()
            .find(|f| f.path == input)
            .map(|f| f.fnv1a64.as_str())
    }

    /// The distinct inputs of the rows, in order, with their row counts.
    fn input_rows(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for r in &self.rows {
            match out.iter_mut().find(|(i, _)| *i == r.input) {
                Some((_, n)) => *n += 1,
                None => out.push((r.input.clone(), 1)),
            }
        }
        out
    }
}

fn load(p: &Path, which: &str) -> Result<Side, String> {
    let path = RunDir::cases_csv(p);
    if !path.exists() {
        return Err(format!(
            "{}: no such results; give a run's directory (with cases.csv) or its cases.csv",
            path.display()
        ));
    }
    let rows = cases_csv::read(&path)?;
    if rows.is_empty() {
        return Err(format!(
            "{}: no rows, only the header: the {which} run recorded no cases, so there is \
             nothing to compare; give the results of a run that solved its dataset",
            path.display()
        ));
    }
    /// The part of run.json compare reads.
    #[derive(serde::Deserialize)]
    struct Inputs {
        inputs: Vec<InputFile>,
    }
    let json = path.with_file_name("run.json");
    let inputs = std::fs::read_to_string(json)
        .ok()
        .and_then(|t| serde_json::from_str::<Inputs>(&t).ok())
        .map(|i| i.inputs);
    Ok(Side { path, rows, inputs })
}

/// How the two runs' inputs were paired.
#[derive(Default)]
struct InputMatch {
    /// What the reader should know: inputs matched by checksum, inputs that changed.
    notes: Vec<String>,
    /// Inputs only the baseline read, with their row counts (their rows are missing).
    only_base: Vec<(String, usize)>,
    /// Inputs only the current run read, with their row counts (their rows are new).
    only_cur: Vec<(String, usize)>,
}

/// Pairs the inputs of the runs: by path, else by checksum (the current run's rows are then
/// renamed to the baseline's path). Two runs without a common input cannot be compared.
fn match_inputs(base: &Side, cur: &mut Side) -> Result<InputMatch, String> {
    let base_inputs = base.input_rows();
    let mut cur_inputs = cur.input_rows();
    let mut found = InputMatch::default();
    let mut rename: HashMap<String, String> = HashMap::new();
    for (b, rows) in &base_inputs {
        if let Some(i) = cur_inputs.iter().position(|(c, _)| c == b) {
            cur_inputs.remove(i);
            if let (Some(x), Some(y)) = (base.checksum(b), cur.checksum(b)) {
                if x != y {
                    found.notes.push(format!(
                        "`{b}` changed between the runs (fnv1a64 {x} in the baseline, {y} now): \
                         its rows are matched by id (or line), but they may be other cases"
                    ));
                }
            }
            continue;
        }
        let same = base.checksum(b).and_then(|sum| {
            cur_inputs.iter().position(|(c, _)| {
                !base_inputs.iter().any(|(x, _)| x == c) && cur.checksum(c) == Some(sum)
            })
        });
        match same {
            Some(i) => {
                let (c, _) = cur_inputs.remove(i);
                found.notes.push(format!(
                    "the current run read `{c}` where the baseline read `{b}`: the same file \
                     (fnv1a64 {}), so their rows are matched",
                    base.checksum(b).unwrap_or_default()
                ));
                rename.insert(c, b.clone());
            }
            None => found.only_base.push((b.clone(), *rows)),
        }
    }
    found.only_cur = cur_inputs;
    if found.only_base.len() == base_inputs.len() {
        return Err(different_inputs(base, cur, &found));
    }
    if !found.only_base.is_empty()
        && !found.only_cur.is_empty()
        && (base.inputs.is_none() || cur.inputs.is_none())
    {
        found.notes.push(no_checksums(base, cur));
    }
    for r in &mut cur.rows {
        if let Some(b) = rename.get(&r.input) {
            r.input.clone_from(b);
        }
    }
    Ok(found)
}

/// The run.json files that are missing or unreadable, so that checksums cannot pair inputs.
fn lacking_checksums(base: &Side, cur: &Side) -> String {
    [base, cur]
        .iter()
        .filter(|s| s.inputs.is_none())
        .map(|s| s.path.with_file_name("run.json").display().to_string())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Why checksums could not pair inputs whose paths differ.
fn no_checksums(base: &Side, cur: &Side) -> String {
    format!(
        "inputs whose paths differ could not be matched by checksum: there is no readable {} \
         (it holds each input's checksum); give the results directories",
        lacking_checksums(base, cur)
    )
}

/// The error for two runs that share no input.
fn different_inputs(base: &Side, cur: &Side, found: &InputMatch) -> String {
    let names = |side: &Side, list: &[(String, usize)]| {
        list.iter()
            .map(|(i, n)| match side.checksum(i) {
                Some(c) => format!("`{i}` (fnv1a64 {c}, {n} rows)"),
                None => format!("`{i}` ({n} rows)"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let read = format!(
        "the baseline {} read {}, the current run {} read {}",
        base.path.display(),
        names(base, &found.only_base),
        cur.path.display(),
        names(cur, &found.only_cur)
    );
    if base.inputs.is_some() && cur.inputs.is_some() {
        format!(
            "the two runs used different input files: {read}; compare two runs of the same \
             datasets"
        )
    } else {
        format!(
            "the two runs' inputs have different paths: {read}; without {} their checksums \
             cannot tell whether they are the same files: give the results directories (each \
             run.json holds its inputs' checksums)",
            lacking_checksums(base, cur)
        )
    }
}

/// The per-strategy table's columns.
const HEADER: [&str; 6] = [
    "strategy", "metric", "baseline", "current", "change", "verdict",
];

/// Refuses a threshold that is not a finite percentage ≥ 0 (NaN would turn the gate off).
fn check_threshold(option: &str, value: f64) -> Result<(), String> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(format!(
            "{option} {value}: give the allowed increase in percent, a finite number ≥ 0 \
             (e.g. 5 for 5%)"
        ))
    }
}

pub fn run(args: CompareArgs) -> CmdResult {
    check_threshold("--max-work-increase", args.max_work_increase)?;
    if let Some(max) = args.max_latency_increase {
        check_threshold("--max-latency-increase", max)?;
    }
    check_threshold("--noise-threshold", args.noise_threshold)?;
    let (base_path, cur_path) = resolve(&args)?;
    let base_side = load(&base_path, "baseline")?;
    let mut cur_side = load(&cur_path, "current")?;
    let inputs = match_inputs(&base_side, &mut cur_side)?;
    let base = keyed(&base_side.rows, &inputs.only_base);
    let cur = keyed(&cur_side.rows, &inputs.only_cur);
    let mut found = match_rows(&base, &cur, args.max_work_increase);
    found.inputs = inputs;
    let (body, latency_regressed) = strategy_table(&mut found, &args);
    let lists = found.lists(&args);

    let regressed = !found.wrong.is_empty()
        || !found.work_worse.is_empty()
        || found.missing_rows() > 0
        || !found.gaps.is_empty()
        || latency_regressed
        || body.iter().any(|r| r[5] == "regressed");
    let verdict = found.verdict(regressed, latency_regressed, base.len());
    let mut report = String::new();
    report += &format!(
        "compare: baseline {} vs current {}\n",
        base_path.display(),
        cur_path.display()
    );
    for n in &found.inputs.notes {
        report += &format!("compare: note: {n}\n");
    }
    report += "\n";
    report += &align(&HEADER, &body);
    report += &lists;
    report += &format!("\ncompare: {verdict}\n");
    print!("{report}");

    if let Some(p) = &args.export_markdown {
        export_markdown(p, &verdict, &found.inputs.notes, &body, &lists)?;
    }
    Ok(if regressed { FAILED } else { OK })
}

/// A counter that one run has and the other lacks, on a row of both.
struct Gap<'a> {
    column: &'static str,
    /// Whether the current run lacks it (else the baseline does).
    in_current: bool,
    key: &'a Key,
}

/// What matching the baseline's rows with the current run's found.
#[derive(Default)]
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
    /// Counters present in one run only.
    gaps: Vec<Gap<'a>>,
    /// Keys in the baseline but not in the current run.
    missing: Vec<&'a Key>,
    /// Keys in the current run but not in the baseline.
    added: Vec<&'a Key>,
    /// How the inputs were paired (whole inputs one run lacks are listed there).
    inputs: InputMatch,
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
        added: cur
            .iter()
            .filter(|(k, _)| !base_index.contains_key(k))
            .map(|(k, _)| k)
            .collect(),
        ..Findings::default()
    };
    for (k, _) in base.iter().chain(cur.iter()) {
        if !found.strategies.contains(&k.2) {
            found.strategies.push(k.2.clone());
        }
    }
    for (k, b) in base {
        let t = found.totals.entry(k.2.clone()).or_default();
        let Some(c) = cur_index.get(k) else {
            found.missing.push(k);
            continue;
        };
        if let (Some(bl), Some(cl)) = (latency(b), latency(c)) {
            t.base_lat.push(bl);
            t.cur_lat.push(cl);
        }
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
        match compare_work(t, k, b, c, max_work_increase, &mut found.gaps) {
            WorkChange::Worse(w) => found.work_worse.push(w),
            WorkChange::Better => found.work_better += 1,
            WorkChange::Same => {}
        }
    }
    found
}

/// Adds a matched case's counters (those both rows have) to its strategy's totals, notes a
/// counter that only one row has in `gaps`, and says how its work changed.
fn compare_work<'a>(
    t: &mut StrategyTotals,
    k: &'a Key,
    b: &CaseRow,
    c: &CaseRow,
    max_work_increase: f64,
    gaps: &mut Vec<Gap<'a>>,
) -> WorkChange {
    let mut changes = Vec::new();
    let (mut worse, mut better) = (false, false);
    let mut gap = false;
    for (i, (column, value)) in COUNTERS.into_iter().enumerate() {
        let (bv, cv) = match (value(b), value(c)) {
            (Some(bv), Some(cv)) => (bv, cv),
            (None, None) => continue,
            (bv, _) => {
                gaps.push(Gap {
                    column,
                    in_current: bv.is_some(),
                    key: k,
                });
                gap = true;
                continue;
            }
        };
        let total = &mut t.work[i];
        total.base += bv;
        total.cur += cv;
        total.rows += 1;
        let p = pct(bv as f64, cv as f64);
        worse |= p > max_work_increase;
        better |= cv < bv;
        changes.push(format!("{column} {bv} → {cv} ({})", fmt_pct(p)));
    }
    t.counter_gaps += gap as usize;
    if worse {
        t.work_regressed += 1;
        WorkChange::Worse(format!("{}: {}", describe(k), changes.join(", ")))
    } else if better {
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
        latency_regressed |= latency_rows(&mut body, s, t, args);
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

/// A table row of a count of bad rows: regressed when there are any.
fn count_row(s: &str, metric: &str, n: usize) -> Vec<String> {
    vec![
        s.to_string(),
        metric.into(),
        "".into(),
        n.to_string(),
        "".into(),
        if n > 0 { "regressed" } else { "unchanged" }.into(),
    ]
}

/// Adds a strategy's rows on answers and work: wrong answers, total expanded and generated
/// (over the rows that have them in both runs; "not compared" when none has), and the cases
/// with more work or a missing counter if any.
fn work_rows(body: &mut Vec<Vec<String>>, s: &str, t: &StrategyTotals, max_work_increase: f64) {
    body.push(count_row(s, "wrong answers", t.wrong));
    for ((column, _), total) in COUNTERS.iter().zip(&t.work) {
        let metric = format!("{column} (total)");
        if total.rows == 0 {
            body.push(vec![
                s.to_string(),
                metric,
                "".into(),
                "".into(),
                "".into(),
                "not compared".into(),
            ]);
            continue;
        }
        let p = pct(total.base as f64, total.cur as f64);
        body.push(vec![
            s.to_string(),
            metric,
            total.base.to_string(),
            total.cur.to_string(),
            fmt_pct(p),
            work_verdict(p, max_work_increase).into(),
        ]);
    }
    if t.work_regressed > 0 {
        body.push(count_row(s, "cases with more work", t.work_regressed));
    }
    if t.counter_gaps > 0 {
        body.push(count_row(s, "rows missing a counter", t.counter_gaps));
    }
}

/// Adds a strategy's paired latency rows (per case, p50, p99: the ratio current/baseline
/// with its 95% interval); true when one regressed past `max_latency_increase` (the whole
/// interval above it and above the noise threshold).
fn latency_rows(
    body: &mut Vec<Vec<String>>,
    s: &str,
    t: &mut StrategyTotals,
    args: &CompareArgs,
) -> bool {
    let Ok(paired) = stats::Paired::new(&t.base_lat, &t.cur_lat) else {
        return false;
    };
    let c = paired.compare(stats::RESAMPLES, 1);
    let noise = args.noise_threshold / 100.0;
    let gate = args.max_latency_increase.map(|m| m / 100.0);
    let mut regressed = false;
    let us = |v: &[f64], q: f64| stats::quantile(&mut v.to_vec(), q) / 1000.0;
    for (name, i) in c.figures() {
        let (metric, b, cur) = match name {
            "p50" => ("p50 latency µs", us(&t.base_lat, 0.5), us(&t.cur_lat, 0.5)),
            "p99" => (
                "p99 latency µs",
                us(&t.base_lat, 0.99),
                us(&t.cur_lat, 0.99),
            ),
            _ => ("latency per case (geo. mean ratio)", 1.0, c.mean.estimate),
        };
        let v = stats::Verdict::of(i, noise, gate.unwrap_or(noise));
        let word = match (v, gate) {
            (stats::Verdict::Regressed, Some(_)) => {
                regressed = true;
                "regressed"
            }
            (stats::Verdict::Regressed, None) => "slower (not gated)",
            (v, _) => v.word(),
        };
        let change = format!(
            "{} (95% CI {} to {})",
            fmt_pct((i.estimate - 1.0) * 100.0),
            fmt_pct((i.low - 1.0) * 100.0),
            fmt_pct((i.high - 1.0) * 100.0)
        );
        let fmt = |x: f64| {
            if name == "per case" {
                format!("{x:.3}×")
            } else {
                format!("{x:.1}")
            }
        };
        body.push(vec![
            s.to_string(),
            metric.into(),
            fmt(b),
            fmt(cur),
            change,
            word.into(),
        ]);
    }
    regressed
}

/// Adds a titled list of at most `show` items (and how many more) to `lists`; `count` is the
/// number in the title; nothing when `items` is empty.
fn push_list(lists: &mut String, title: &str, count: usize, items: &[String], show: usize) {
    if items.is_empty() {
        return;
    }
    *lists += &format!("\n{title} ({count}):\n");
    for i in items.iter().take(show) {
        *lists += &format!("  {i}\n");
    }
    if items.len() > show {
        *lists += &format!("  … and {} more\n", items.len() - show);
    }
}

/// Rows named as examples in a line about many rows.
const EXAMPLES: usize = 5;

impl Findings<'_> {
    /// Rows of the baseline the current run lacks: single rows and whole inputs.
    fn missing_rows(&self) -> usize {
        self.missing.len() + self.inputs.only_base.iter().map(|(_, n)| n).sum::<usize>()
    }

    /// Matched rows with a counter in one run only.
    fn gap_rows(&self) -> usize {
        self.totals.values().map(|t| t.counter_gaps).sum()
    }

    /// One line per (run, column) with a missing counter: how many rows, and the first few.
    fn gap_lines(&self) -> Vec<String> {
        let mut groups: Vec<(&str, bool, Vec<&Key>)> = Vec::new();
        for g in &self.gaps {
            match groups
                .iter_mut()
                .find(|(c, cur, _)| *c == g.column && *cur == g.in_current)
            {
                Some((_, _, keys)) => keys.push(g.key),
                None => groups.push((g.column, g.in_current, vec![g.key])),
            }
        }
        groups
            .into_iter()
            .map(|(column, in_current, keys)| {
                let (lacks, has) = if in_current {
                    ("the current run", "the baseline")
                } else {
                    ("the baseline", "the current run")
                };
                let shown: Vec<String> = keys.iter().take(EXAMPLES).map(|k| describe(k)).collect();
                format!(
                    "`{column}` is empty in {lacks} on {} row(s) where {has} has a value: {}{}",
                    keys.len(),
                    shown.join("; "),
                    if keys.len() > EXAMPLES {
                        format!("; … and {} more", keys.len() - EXAMPLES)
                    } else {
                        String::new()
                    }
                )
            })
            .collect()
    }

    /// The lists of cases under the table: wrong answers, more work, missing counters,
    /// missing, new.
    fn lists(&self, args: &CompareArgs) -> String {
        let mut lists = String::new();
        push_list(
            &mut lists,
            "Correctness regressions: status or steps changed",
            self.wrong.len(),
            &self.wrong,
            args.show,
        );
        push_list(
            &mut lists,
            &format!(
                "Work regressions: expanded or generated grew by more than {}%",
                args.max_work_increase
            ),
            self.work_worse.len(),
            &self.work_worse,
            args.show,
        );
        push_list(
            &mut lists,
            "Missing counters: a counter one run has and the other lacks (regression)",
            self.gap_rows(),
            &self.gap_lines(),
            args.show,
        );
        let whole = |list: &[(String, usize)], why: &str| -> Vec<String> {
            list.iter()
                .map(|(input, n)| format!("{input}: all {n} rows ({why})"))
                .collect()
        };
        let mut missing_s = whole(
            &self.inputs.only_base,
            "the current run did not read this input",
        );
        missing_s.extend(self.missing.iter().map(|k| describe(k)));
        push_list(
            &mut lists,
            "Missing from the current run (regression)",
            self.missing_rows(),
            &missing_s,
            args.show,
        );
        let mut added_s = whole(
            &self.inputs.only_cur,
            "the baseline did not read this input",
        );
        added_s.extend(self.added.iter().map(|k| describe(k)));
        push_list(
            &mut lists,
            "New in the current run (not in the baseline)",
            self.added.len() + self.inputs.only_cur.iter().map(|(_, n)| n).sum::<usize>(),
            &added_s,
            args.show,
        );
        lists
    }

    /// The one-line verdict: what regressed, or how many rows matched.
    fn verdict(&self, regressed: bool, latency_regressed: bool, base_rows: usize) -> String {
        if regressed {
            format!(
                "REGRESSION: {} wrong answer(s), {} case(s) with more work, {} missing case(s), \
                 {} row(s) missing a counter{}",
                self.wrong.len(),
                self.work_worse.len(),
                self.missing_rows(),
                self.gap_rows(),
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

/// Writes the verdict, the notes, the table and the lists as Markdown to `p`
/// (--export-markdown).
fn export_markdown(
    p: &Path,
    verdict: &str,
    notes: &[String],
    body: &[Vec<String>],
    lists: &str,
) -> Result<(), String> {
    let notes: String = notes.iter().map(|n| format!("Note: {n}\n\n")).collect();
    let md = format!(
        "**tilebench compare**: {verdict}\n\n{notes}{}{}",
        markdown_table(&HEADER, body),
        if lists.is_empty() {
            String::new()
        } else {
            format!("\n```\n{}\n```\n", lists.trim())
        }
    );
    std::fs::write(p, md).map_err(|e| format!("cannot write {}: {e}", p.display()))
}
