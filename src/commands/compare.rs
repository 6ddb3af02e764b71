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

mod json;

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
    /// Latencies (ns) of the matched cases every run answered with a search, pair by pair:
    /// `[run][case]`, one run a side unless replicates were given.
    base_lat: Vec<Vec<f64>>,
    cur_lat: Vec<Vec<f64>>,
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

/// One side of a comparison: a run, or replicate runs of one build (a directory whose
/// subdirectories are runs). The first run is checked for answers and work; latency is
/// compared over all of them.
struct Set {
    runs: Vec<Side>,
}

/// Loads `p`: a run (its directory or cases.csv), or a directory of replicate runs.
fn load_set(p: &Path, which: &str) -> Result<Set, String> {
    if p.is_dir() && !p.join("cases.csv").exists() {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| {
                format!(
                    "cannot read {}: {}",
                    p.display(),
                    tilebench::util::io_reason(&e)
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|d| d.join("cases.csv").is_file())
            .collect();
        if !dirs.is_empty() {
            dirs.sort();
            let runs = dirs
                .iter()
                .map(|d| load(d, which))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Set { runs });
        }
    }
    Ok(Set {
        runs: vec![load(p, which)?],
    })
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
    let (mut base_set, mut cur_set, title) = match &args.strategies {
        Some(pair) => {
            let (a, b) = strategy_pair(pair)?;
            let p = match (&args.baseline_name, args.runs.as_slice()) {
                (None, [p]) => p,
                _ => {
                    return Err(
                        "with --strategies A,B, give one RESULTS (a run, or a directory \
                                of replicate runs), whose strategies A and B are compared"
                            .into(),
                    )
                }
            };
            let (base, cur) = within(load_set(p, "given")?, &a, &b)?;
            (base, cur, format!("{a} against {b} in {}", p.display()))
        }
        None => {
            let (base_path, cur_path) = resolve(&args)?;
            let base = load_set(&base_path, "baseline")?;
            let cur = load_set(&cur_path, "current")?;
            let title = format!(
                "baseline {} vs current {}",
                base_path.display(),
                cur_path.display()
            );
            (base, cur, title)
        }
    };
    let within = args.strategies.is_some();
    let (base_side, base_more) = base_set.runs.split_first_mut().expect("a run");
    let (cur_side, cur_more) = cur_set.runs.split_first_mut().expect("a run");
    let inputs = match_inputs(base_side, cur_side)?;
    // Replicates are paired with the first baseline run as the current run is.
    for more in base_more.iter_mut().chain(cur_more.iter_mut()) {
        match_inputs(base_side, more)?;
    }
    let base = keyed(&base_side.rows, &inputs.only_base);
    let cur = keyed(&cur_side.rows, &inputs.only_cur);
    let replicates = Replicates {
        base: latency_index(base_more, &inputs.only_base),
        cur: latency_index(cur_more, &inputs.only_cur),
    };
    let mut found = match_rows(&base, &cur, &replicates, args.max_work_increase);
    found.inputs = inputs;
    found.runs = (1 + base_more.len(), 1 + cur_more.len());
    found.within = within;
    let (body, latencies, latency_regressed) = strategy_table(&found, &args);
    let lists = found.lists(&args);

    // Two strategies of one run differ by design: only a gated latency fails.
    let regressed = latency_regressed
        || !within
            && (!found.wrong.is_empty()
                || !found.work_worse.is_empty()
                || found.missing_rows() > 0
                || !found.gaps.is_empty()
                || body.iter().any(|r| r[5] == "regressed"));
    let verdict = if within {
        found.headline(&latencies, regressed)
    } else {
        found.verdict(regressed, latency_regressed, base.len())
    };
    let notes = found.notes(&args, &latencies);
    // With --strategies, the value columns are the two strategies.
    let names = args
        .strategies
        .as_deref()
        .and_then(|p| strategy_pair(p).ok());
    let mut header = HEADER;
    if let Some((a, b)) = &names {
        header[2] = b;
        header[3] = a;
    }
    let mut report = format!("compare: {title}\n");
    for n in &notes {
        report += &format!("compare: note: {n}\n");
    }
    report += "\n";
    report += &align(&header, &body);
    report += &lists;
    report += &format!("\ncompare: {verdict}\n");
    print!("{report}");

    if let Some(p) = &args.export_markdown {
        export_markdown(p, &[&title, &verdict], &notes, (&header, &body), &lists)?;
    }
    if let Some(p) = &args.export_json {
        let json = json::comparison(
            &title, &verdict, regressed, &notes, &found, &latencies, &args,
        );
        json::write(p, &json)?;
    }
    Ok(if regressed { FAILED } else { OK })
}

/// The latencies of replicate runs by key (rows of inputs in `skip` left out).
fn latency_index(runs: &[Side], skip: &[(String, usize)]) -> Vec<HashMap<Key, Option<f64>>> {
    runs.iter()
        .map(|side| {
            keyed(&side.rows, skip)
                .into_iter()
                .map(|(k, r)| (k, latency(r)))
                .collect()
        })
        .collect()
}

/// `--strategies A,B`: the two names.
fn strategy_pair(pair: &str) -> Result<(String, String), String> {
    match pair
        .split(',')
        .map(str::trim)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [a, b] if !a.is_empty() && !b.is_empty() && a != b => Ok((a.to_string(), b.to_string())),
        _ => Err(format!(
            "--strategies {pair}: give two different strategies of the run, A,B (e.g. \
             astar,bfs-rank): A is compared against B"
        )),
    }
}

/// Two strategies of one set of runs as two sides: B's rows the baseline, A's the current,
/// both under the label `A vs B` so that they pair case by case.
fn within(set: Set, a: &str, b: &str) -> Result<(Set, Set), String> {
    let label = format!("{a} vs {b}");
    let first = &set.runs[0];
    let present: Vec<&str> = {
        let mut v: Vec<&str> = Vec::new();
        for r in &first.rows {
            if !v.contains(&r.strategy.as_str()) {
                v.push(&r.strategy);
            }
        }
        v
    };
    for name in [a, b] {
        if !present.contains(&name) {
            return Err(format!(
                "{}: no rows of strategy `{name}`; its strategies are {}: give two of them \
                 to --strategies",
                first.path.display(),
                present.join(", ")
            ));
        }
    }
    let pick = |side: &Side, name: &str| Side {
        path: side.path.clone(),
        rows: side
            .rows
            .iter()
            .filter(|r| r.strategy == name)
            .map(|r| CaseRow {
                strategy: label.clone(),
                ..r.clone()
            })
            .collect(),
        inputs: side.inputs.clone(),
    };
    let base = set.runs.iter().map(|s| pick(s, b)).collect();
    let cur = set.runs.iter().map(|s| pick(s, a)).collect();
    Ok((Set { runs: base }, Set { runs: cur }))
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
    /// Runs a side: (baseline, current).
    runs: (usize, usize),
    /// Latency pairs left out because a replicate run lacks the case's latency.
    unreplicated: usize,
    /// Two strategies of one run (`--strategies`), not two runs.
    within: bool,
}

/// The latencies of the replicate runs beyond the first, by key: `None` where the row is
/// there without a latency that counts.
struct Replicates {
    base: Vec<HashMap<Key, Option<f64>>>,
    cur: Vec<HashMap<Key, Option<f64>>>,
}

impl Replicates {
    /// The case's latency in every run of both sides, `[first, replicates…]`; `None` when
    /// one lacks it.
    fn latencies(&self, k: &Key, b: f64, c: f64) -> Option<(Vec<f64>, Vec<f64>)> {
        let side = |first: f64, more: &[HashMap<Key, Option<f64>>]| {
            std::iter::once(Some(first))
                .chain(more.iter().map(|m| m.get(k).copied().flatten()))
                .collect::<Option<Vec<f64>>>()
        };
        Some((side(b, &self.base)?, side(c, &self.cur)?))
    }
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
    replicates: &Replicates,
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
            match replicates.latencies(k, bl, cl) {
                Some((bs, cs)) => {
                    t.base_lat.resize(bs.len(), Vec::new());
                    t.cur_lat.resize(cs.len(), Vec::new());
                    t.base_lat
                        .iter_mut()
                        .zip(bs)
                        .for_each(|(run, x)| run.push(x));
                    t.cur_lat
                        .iter_mut()
                        .zip(cs)
                        .for_each(|(run, x)| run.push(x));
                }
                None => found.unreplicated += 1,
            }
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

/// The per-strategy table's rows, each strategy's latency figures, and whether a gated
/// latency regressed.
fn strategy_table(found: &Findings, args: &CompareArgs) -> (Vec<Vec<String>>, Latencies, bool) {
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut latencies = Vec::new();
    let mut latency_regressed = false;
    for s in &found.strategies {
        let Some(t) = found.totals.get(s) else {
            continue;
        };
        work_rows(&mut body, s, t, args.max_work_increase, found.within);
        let (figures, regressed) = latency_figures(t, args);
        latency_rows(&mut body, s, &figures);
        latency_regressed |= regressed;
        latencies.push((s.clone(), figures));
    }
    (body, latencies, latency_regressed)
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
fn work_rows(
    body: &mut Vec<Vec<String>>,
    s: &str,
    t: &StrategyTotals,
    max_work_increase: f64,
    within: bool,
) {
    if within {
        // Two strategies: more or less work is what tells them apart, never a regression.
        body.push(vec![
            s.to_string(),
            "answers that differ".into(),
            "".into(),
            t.wrong.to_string(),
            "".into(),
            if t.wrong > 0 { "differ" } else { "same" }.into(),
        ]);
        for ((column, _), total) in COUNTERS.iter().zip(&t.work) {
            if total.rows > 0 {
                let p = pct(total.base as f64, total.cur as f64);
                let word = match p.partial_cmp(&0.0) {
                    Some(std::cmp::Ordering::Greater) => "more",
                    Some(std::cmp::Ordering::Less) => "less",
                    _ => "same",
                };
                body.push(vec![
                    s.to_string(),
                    format!("{column} (total)"),
                    total.base.to_string(),
                    total.cur.to_string(),
                    fmt_pct(p),
                    word.into(),
                ]);
            }
        }
        return;
    }
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

/// One figure of a strategy's paired latency comparison: per case (geometric mean of the
/// ratios), p50 or p99, with its interval and verdict.
struct LatencyFigure {
    /// `per case`, `p50` or `p99`.
    name: &'static str,
    /// The baseline's and the current value: 1 and the ratio per case, else µs.
    baseline: f64,
    current: f64,
    interval: stats::Interval,
    verdict: &'static str,
}

impl LatencyFigure {
    /// The table's metric column.
    fn metric(&self) -> &'static str {
        match self.name {
            "p50" => "p50 latency µs",
            "p99" => "p99 latency µs",
            _ => "latency per case (geo. mean ratio)",
        }
    }
}

/// Each strategy's latency figures (empty when no case has a latency in every run).
type Latencies = Vec<(String, Vec<LatencyFigure>)>;

/// Each case's geometric mean over the runs of a side (`[run][case]`).
fn case_means(runs: &[Vec<f64>]) -> Vec<f64> {
    (0..runs[0].len())
        .map(|i| (runs.iter().map(|r| r[i].ln()).sum::<f64>() / runs.len() as f64).exp())
        .collect()
}

/// A strategy's paired latency figures (per case, p50, p99: the ratio current/baseline with
/// its 95% interval), and whether one regressed past `max_latency_increase` (the whole
/// interval above it and above the noise threshold). Empty when no case has a latency in
/// every run.
fn latency_figures(t: &StrategyTotals, args: &CompareArgs) -> (Vec<LatencyFigure>, bool) {
    let Ok(paired) = stats::Paired::replicated(&t.base_lat, &t.cur_lat) else {
        return (Vec::new(), false);
    };
    let c = paired.compare(stats::RESAMPLES, 1);
    let noise = args.noise_threshold / 100.0;
    let gate = args.max_latency_increase.map(|m| m / 100.0);
    let (base, cur) = (case_means(&t.base_lat), case_means(&t.cur_lat));
    let us = |v: &[f64], q: f64| stats::quantile(&mut v.to_vec(), q) / 1000.0;
    let mut regressed = false;
    let figures = c
        .figures()
        .into_iter()
        .map(|(name, i)| {
            let (baseline, current) = match name {
                "p50" => (us(&base, 0.5), us(&cur, 0.5)),
                "p99" => (us(&base, 0.99), us(&cur, 0.99)),
                _ => (1.0, c.mean.estimate),
            };
            let verdict = match (stats::Verdict::of(i, noise, gate.unwrap_or(noise)), gate) {
                _ if !c.judgeable(name) => "too few cases",
                (stats::Verdict::Regressed, Some(_)) => {
                    regressed = true;
                    "regressed"
                }
                (stats::Verdict::Regressed, None) => "slower (not gated)",
                (v, _) => v.word(),
            };
            LatencyFigure {
                name,
                baseline,
                current,
                interval: *i,
                verdict,
            }
        })
        .collect();
    (figures, regressed)
}

/// The table rows of a strategy's latency figures.
fn latency_rows(body: &mut Vec<Vec<String>>, s: &str, figures: &[LatencyFigure]) {
    for f in figures {
        let i = &f.interval;
        let change = format!(
            "{} (95% CI {} to {})",
            fmt_pct((i.estimate - 1.0) * 100.0),
            fmt_pct((i.low - 1.0) * 100.0),
            fmt_pct((i.high - 1.0) * 100.0)
        );
        let fmt = |x: f64| {
            if f.name == "per case" {
                format!("{x:.3}×")
            } else {
                format!("{x:.1}")
            }
        };
        body.push(vec![
            s.to_string(),
            f.metric().into(),
            fmt(f.baseline),
            fmt(f.current),
            change,
            f.verdict.into(),
        ]);
    }
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
        if self.within {
            // Two strategies: different answers are worth listing (one may not be optimal);
            // different work is what strategies are for.
            push_list(
                &mut lists,
                "Answers that differ: status or steps",
                self.wrong.len(),
                &self.wrong,
                args.show,
            );
            return lists;
        }
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

    /// The notes printed above the table: how inputs were paired, and what the latency
    /// intervals can and cannot see.
    fn notes(&self, args: &CompareArgs, latencies: &[(String, Vec<LatencyFigure>)]) -> Vec<String> {
        let mut notes = self.inputs.notes.clone();
        let timed = latencies.iter().any(|(_, f)| !f.is_empty());
        match self.runs {
            (1, 1) if timed && args.max_latency_increase.is_some() && !self.within => notes.push(
                "one run a side: the latency intervals hold the noise between cases, not the \
                 noise between runs (two runs of one build differ as wholes, by several percent \
                 on a shared machine); for a latency gate that holds, give replicate runs: a \
                 directory of runs per side"
                    .into(),
            ),
            (1, 1) => {}
            (b, c) => notes.push(format!(
                "latency over {b} baseline and {c} current run(s): each case's value is its \
                 geometric mean over a side's runs, and the intervals resample runs, then cases"
            )),
        }
        if self.unreplicated > 0 {
            notes.push(format!(
                "{} case(s) left out of the latency figures: a replicate run lacks their latency",
                self.unreplicated
            ));
        }
        notes
    }

    /// `--strategies A,B`: the figures as sentences ("astar is 3.10× faster than bfs-rank per
    /// case (95% CI …)").
    fn headline(&self, latencies: &[(String, Vec<LatencyFigure>)], regressed: bool) -> String {
        let mut out = Vec::new();
        for (label, figures) in latencies {
            let (a, b) = label.split_once(" vs ").unwrap_or((label, ""));
            for f in figures {
                let what = match f.name {
                    "per case" => "per case".to_string(),
                    q => format!("at {q}"),
                };
                out.push(stats::faster_or_slower(a, b, &what, &f.interval));
            }
        }
        if out.is_empty() {
            out.push("no case has a latency for both strategies".into());
        }
        if regressed {
            out.push("REGRESSION: latency over threshold".into());
        }
        out.join("\ncompare: ")
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
    [title, verdict]: &[&str; 2],
    notes: &[String],
    (header, body): (&[&str], &[Vec<String>]),
    lists: &str,
) -> Result<(), String> {
    let notes: String = notes.iter().map(|n| format!("Note: {n}\n\n")).collect();
    let md = format!(
        "**tilebench compare** {title}: {}\n\n{notes}{}{}",
        verdict.replace("\ncompare: ", "; "),
        markdown_table(header, body),
        if lists.is_empty() {
            String::new()
        } else {
            format!("\n```\n{}\n```\n", lists.trim())
        }
    );
    std::fs::write(p, md).map_err(|e| {
        format!(
            "cannot write {}: {}",
            p.display(),
            tilebench::util::io_reason(&e)
        )
    })
}
