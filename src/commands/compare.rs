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
use tilebench::report::cases_csv::{Rows, Tally};
use tilebench::report::markdown::markdown_table;
use tilebench::report::table::align;
use tilebench::stats;

mod join;
mod json;
use join::Val;

type Key = (String, String, String);

/// A row as `file:line id strategy` ("inputs/x.csv:19 17 astar"; "inputs/x.csv:19 astar"
/// for a row without an id), the line in the run the row `v` is from: rows with a repeated
/// id are told apart by their lines.
fn describe(k: &Key, v: &Val) -> String {
    if k.1
        .strip_prefix("line ")
        .and_then(|l| l.parse::<u64>().ok())
        == Some(v.line)
    {
        format!("{}:{} {}", k.0, v.line, k.2)
    } else {
        format!("{}:{} {} {}", k.0, v.line, k.1, k.2)
    }
}

fn answer(r: &Val) -> String {
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
fn latency(r: &Val) -> Option<f64> {
    let answered = r.status.searched() && r.status != tilebench::harness::record::RowStatus::Limit;
    Some(r.latency_ns.filter(|&ns| answered && ns > 0)? as f64)
}

/// The work counters compared: the column's name, its value in a row.
type Counter = (&'static str, fn(&Val) -> Option<u64>);
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
    /// The natural logarithms of the latencies (ns) of the matched cases every run answered
    /// with a search, pair by pair: `[run][case]`, one run a side unless replicates were
    /// given; 4 bytes a case a run, what the bootstrap needs.
    base_lat: Vec<Vec<f32>>,
    cur_lat: Vec<Vec<f32>>,
    /// The cases in them.
    lat_cases: usize,
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

/// One run as given to compare: its cases.csv (read as a stream when rows are matched), how
/// many rows of each input and strategy it has, and its inputs' checksums when a run.json
/// lies beside the cases.csv.
#[derive(Clone)]
struct Side {
    /// The cases.csv read.
    path: PathBuf,
    /// Rows by input and strategy, in order of first appearance.
    tally: Vec<Tally>,
    /// run.json's inputs, when there is a readable one.
    inputs: Option<Vec<InputFile>>,
    /// `--strategies`: only this strategy's rows, under this label.
    pick: Option<(String, String)>,
    /// Inputs read under another path than the baseline's, renamed to the baseline's path.
    rename: HashMap<String, String>,
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

    /// The rows compared (those of the picked strategy, if one is), by input and strategy.
    fn tallies(&self) -> impl Iterator<Item = &Tally> {
        self.tally
            .iter()
            .filter(|t| self.pick.as_ref().is_none_or(|(s, _)| *s == t.strategy))
    }

    /// The distinct inputs of the rows, in order, with their row counts.
    fn input_rows(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for t in self.tallies() {
            match out.iter_mut().find(|(i, _)| *i == t.input) {
                Some((_, n)) => *n += t.rows,
                None => out.push((t.input.clone(), t.rows)),
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
    // One pass over two columns; the rows themselves are read when they are matched.
    let tally = Rows::open(&path)?.tally()?;
    if tally.is_empty() {
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
    Ok(Side {
        path,
        tally,
        inputs,
        pick: None,
        rename: HashMap::new(),
    })
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
    cur.rename = rename;
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

/// The two sides and the title: two runs (or sets of replicates), or two strategies of one.
fn sides(args: &CompareArgs) -> Result<(Set, Set, String), String> {
    let Some(pair) = &args.strategies else {
        let (base_path, cur_path) = resolve(args)?;
        let base = load_set(&base_path, "baseline")?;
        let cur = load_set(&cur_path, "current")?;
        let title = format!(
            "baseline {} vs current {}",
            base_path.display(),
            cur_path.display()
        );
        return Ok((base, cur, title));
    };
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
    Ok((base, cur, format!("{a} against {b} in {}", p.display())))
}

pub fn run(args: CompareArgs) -> CmdResult {
    check_threshold("--max-work-increase", args.max_work_increase)?;
    if let Some(max) = args.max_latency_increase {
        check_threshold("--max-latency-increase", max)?;
    }
    check_threshold("--noise-threshold", args.noise_threshold)?;
    let (base_set, cur_set, title) = sides(&args)?;
    let within = args.strategies.is_some();
    let mut found = find(base_set, cur_set, &args)?;
    let (body, latencies, latency_regressed) = strategy_table(&mut found, &args);
    let lists = found.lists(&args);

    // Two strategies of one run differ by design: only a gated latency fails.
    let regressed = latency_regressed
        || !within
            && (found.wrong.count > 0
                || found.work_worse.count > 0
                || found.missing_rows() > 0
                || found.gap_rows() > 0
                || body.iter().any(|r| r[5] == "regressed"));
    let verdict = if within {
        found.headline(&latencies, regressed)
    } else {
        found.verdict(regressed, latency_regressed)
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

/// Pairs the sides' inputs, then reads every run side by side ([`join`]) and matches their
/// rows: answers, work and latencies. What is kept is per strategy (totals, and one latency
/// logarithm a case a run) and the lists' first `--show` rows.
fn find(mut base_set: Set, mut cur_set: Set, args: &CompareArgs) -> Result<Findings, String> {
    let (base_side, base_more) = base_set.runs.split_first_mut().expect("a run");
    let (cur_side, cur_more) = cur_set.runs.split_first_mut().expect("a run");
    let inputs = match_inputs(base_side, cur_side)?;
    // Replicates are paired with the first baseline run as the current run is.
    for more in base_more.iter_mut().chain(cur_more.iter_mut()) {
        match_inputs(base_side, more)?;
    }
    // The inputs compared, in the baseline's order: those both runs read.
    let ranks: HashMap<String, usize> = base_side
        .input_rows()
        .into_iter()
        .map(|(input, _)| input)
        .filter(|input| !inputs.only_base.iter().any(|(b, _)| b == input))
        .enumerate()
        .map(|(rank, input)| (input, rank))
        .collect();
    let mut found = Findings {
        strategies: strategies(&[base_side, cur_side], &ranks),
        runs: (1 + base_more.len(), 1 + cur_more.len()),
        within: args.strategies.is_some(),
        inputs,
        ..Findings::new(args.show)
    };
    // The streams: the first baseline run, the first current run, then the replicates.
    let streams = [&*base_side, &*cur_side]
        .into_iter()
        .chain(base_more.iter())
        .chain(cur_more.iter())
        .map(|side| join::Stream::open(side, &ranks))
        .collect::<Result<Vec<_>, _>>()?;
    let base_runs = found.runs.0;
    join::Join::new(streams).run(|k, vals| {
        found.add(k, vals, base_runs, args.max_work_increase);
    })?;
    found.finish();
    Ok(found)
}

/// The strategies compared, in order of appearance, the baseline's first.
fn strategies(sides: &[&Side], ranks: &HashMap<String, usize>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for side in sides {
        for t in side.tallies() {
            let input = side.rename.get(&t.input).unwrap_or(&t.input);
            let name = side.pick.as_ref().map_or(&t.strategy, |(_, label)| label);
            if ranks.contains_key(input) && !out.contains(name) {
                out.push(name.clone());
            }
        }
    }
    out
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
    let mut present: Vec<&str> = Vec::new();
    for t in &first.tally {
        if !present.contains(&t.strategy.as_str()) {
            present.push(&t.strategy);
        }
    }
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
    let pick = |name: &str| Set {
        runs: set
            .runs
            .iter()
            .map(|side| Side {
                pick: Some((name.to_string(), label.clone())),
                ..side.clone()
            })
            .collect(),
    };
    Ok((pick(b), pick(a)))
}

/// A list of rows, as many as are shown: the first `cap` in their run's order, and how many
/// there are in all.
struct Listed {
    count: usize,
    cap: usize,
    /// (the row's place in its run, the line shown); sorted and cut to `cap` when it holds
    /// twice that.
    items: Vec<(u64, String)>,
    /// Once cut: the last place kept (later rows cannot be among the first `cap`).
    bar: Option<u64>,
}

impl Listed {
    fn new(cap: usize) -> Listed {
        Listed {
            count: 0,
            cap,
            items: Vec::new(),
            bar: None,
        }
    }

    /// Counts a row, and keeps its line (made only if it may be shown).
    fn push(&mut self, seq: u64, line: impl FnOnce() -> String) {
        self.count += 1;
        if self.cap == 0 || self.bar.is_some_and(|bar| seq > bar) {
            return;
        }
        self.items.push((seq, line()));
        if self.items.len() >= 2 * self.cap {
            self.cut();
        }
    }

    /// Sorts the lines kept into their run's order and keeps the first `cap`.
    fn cut(&mut self) {
        self.items.sort_by_key(|(seq, _)| *seq);
        self.items.truncate(self.cap);
        self.bar = self.items.last().map(|(seq, _)| *seq);
    }

    /// The lines kept, in order (after [`Listed::cut`]).
    fn lines(&self) -> Vec<String> {
        self.items.iter().map(|(_, l)| l.clone()).collect()
    }
}

/// The rows where one run lacks a counter the other has, for one (column, run).
struct GapGroup {
    column: &'static str,
    /// Whether the current run lacks it (else the baseline does).
    in_current: bool,
    /// The first such row's place in the baseline (groups are listed in this order).
    first: u64,
    rows: Listed,
}

/// What matching the baseline's rows with the current run's found.
struct Findings {
    /// Strategies in order of appearance, baseline first.
    strategies: Vec<String>,
    totals: HashMap<String, StrategyTotals>,
    /// Cases whose status or steps changed, described.
    wrong: Listed,
    /// Cases whose work grew past the threshold, described.
    work_worse: Listed,
    /// How many cases did less work.
    work_better: usize,
    /// Counters present in one run only.
    gaps: Vec<GapGroup>,
    /// Rows of the baseline compared (of inputs both runs read).
    base_rows: usize,
    /// Keys in the baseline but not in the current run.
    missing: Listed,
    /// Keys in the current run but not in the baseline.
    added: Listed,
    /// How the inputs were paired (whole inputs one run lacks are listed there).
    inputs: InputMatch,
    /// Runs a side: (baseline, current).
    runs: (usize, usize),
    /// Latency pairs left out because a replicate run lacks the case's latency.
    unreplicated: usize,
    /// Two strategies of one run (`--strategies`), not two runs.
    within: bool,
}

/// How one matched case's work changed.
enum WorkChange {
    /// More than the threshold allows.
    Worse,
    Better,
    Same,
}

impl Findings {
    /// Nothing found yet; lists keep their first `show` rows.
    fn new(show: usize) -> Findings {
        Findings {
            strategies: Vec::new(),
            totals: HashMap::new(),
            wrong: Listed::new(show),
            work_worse: Listed::new(show),
            work_better: 0,
            gaps: Vec::new(),
            base_rows: 0,
            missing: Listed::new(show),
            added: Listed::new(show),
            inputs: InputMatch::default(),
            runs: (1, 1),
            unreplicated: 0,
            within: false,
        }
    }

    /// One key's rows from each run (the first baseline run, the first current run, then
    /// `base_runs - 1` baseline replicates and the current ones; `None` where a run lacks
    /// it): answers, work and latencies.
    fn add(&mut self, k: &Key, vals: &[Option<Val>], base_runs: usize, max_work_increase: f64) {
        let Some(b) = &vals[0] else {
            if let Some(c) = &vals[1] {
                self.added.push(c.seq, || describe(k, c));
            }
            return;
        };
        self.base_rows += 1;
        if !self.totals.contains_key(&k.2) {
            self.totals.insert(k.2.clone(), StrategyTotals::default());
        }
        let t = self.totals.get_mut(&k.2).expect("inserted");
        let Some(c) = &vals[1] else {
            self.missing.push(b.seq, || describe(k, b));
            return;
        };
        if let (Some(bl), Some(cl)) = (latency(b), latency(c)) {
            let (more_b, more_c) = vals[2..].split_at(base_runs - 1);
            let side = |first: f64, more: &[Option<Val>]| {
                std::iter::once(Some(first))
                    .chain(more.iter().map(|v| v.as_ref().and_then(latency)))
                    .map(|x| Some(x?.ln() as f32))
                    .collect::<Option<Vec<f32>>>()
            };
            match (side(bl, more_b), side(cl, more_c)) {
                (Some(bs), Some(cs)) => {
                    t.base_lat.resize(bs.len(), Vec::new());
                    t.cur_lat.resize(cs.len(), Vec::new());
                    t.base_lat.iter_mut().zip(bs).for_each(|(r, x)| r.push(x));
                    t.cur_lat.iter_mut().zip(cs).for_each(|(r, x)| r.push(x));
                    t.lat_cases += 1;
                }
                _ => self.unreplicated += 1,
            }
        }
        if b.status != c.status || b.steps != c.steps {
            t.wrong += 1;
            self.wrong.push(b.seq, || {
                format!(
                    "{}: baseline {}, current {}",
                    describe(k, b),
                    answer(b),
                    answer(c)
                )
            });
            return;
        }
        match compare_work(t, k, b, c, max_work_increase, &mut self.gaps) {
            WorkChange::Worse => self.work_worse.push(b.seq, || work_text(k, b, c)),
            WorkChange::Better => self.work_better += 1,
            WorkChange::Same => {}
        }
    }

    /// Puts the lists in their runs' order, cut to what is shown.
    fn finish(&mut self) {
        for list in [
            &mut self.wrong,
            &mut self.work_worse,
            &mut self.missing,
            &mut self.added,
        ] {
            list.cut();
        }
        for g in &mut self.gaps {
            g.rows.cut();
        }
        self.gaps.sort_by_key(|g| g.first);
    }
}

/// A case whose work grew: "inputs/x.csv 61 bfs-hash: expanded 100 → 110 (+10.00%), …".
fn work_text(k: &Key, b: &Val, c: &Val) -> String {
    let changes: Vec<String> = COUNTERS
        .iter()
        .filter_map(|(column, value)| {
            let (bv, cv) = (value(b)?, value(c)?);
            Some(format!(
                "{column} {bv} → {cv} ({})",
                fmt_pct(pct(bv as f64, cv as f64))
            ))
        })
        .collect();
    format!("{}: {}", describe(k, b), changes.join(", "))
}

/// Adds a matched case's counters (those both rows have) to its strategy's totals, notes a
/// counter that only one row has in `gaps`, and says how its work changed.
fn compare_work(
    t: &mut StrategyTotals,
    k: &Key,
    b: &Val,
    c: &Val,
    max_work_increase: f64,
    gaps: &mut Vec<GapGroup>,
) -> WorkChange {
    let (mut worse, mut better) = (false, false);
    let mut gap = false;
    for (i, (column, value)) in COUNTERS.into_iter().enumerate() {
        let (bv, cv) = match (value(b), value(c)) {
            (Some(bv), Some(cv)) => (bv, cv),
            (None, None) => continue,
            (bv, _) => {
                let in_current = bv.is_some();
                let group = match gaps
                    .iter()
                    .position(|g| g.column == column && g.in_current == in_current)
                {
                    Some(g) => &mut gaps[g],
                    None => {
                        gaps.push(GapGroup {
                            column,
                            in_current,
                            first: b.seq,
                            rows: Listed::new(EXAMPLES),
                        });
                        gaps.last_mut().expect("pushed")
                    }
                };
                group.first = group.first.min(b.seq);
                group.rows.push(b.seq, || describe(k, b));
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
    }
    t.counter_gaps += gap as usize;
    if worse {
        t.work_regressed += 1;
        WorkChange::Worse
    } else if better {
        WorkChange::Better
    } else {
        WorkChange::Same
    }
}

/// The per-strategy table's rows, each strategy's latency figures, and whether a gated
/// latency regressed. The latencies are handed to the statistics (not copied).
fn strategy_table(found: &mut Findings, args: &CompareArgs) -> (Vec<Vec<String>>, Latencies, bool) {
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut latencies = Vec::new();
    let mut latency_regressed = false;
    for s in &found.strategies {
        let Some(t) = found.totals.get_mut(s) else {
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

/// A strategy's paired latency figures (per case, p50, p99: the ratio current/baseline with
/// its 95% interval), and whether one regressed past `max_latency_increase` (the whole
/// interval above it and above the noise threshold). Empty when no case has a latency in
/// every run.
fn latency_figures(t: &mut StrategyTotals, args: &CompareArgs) -> (Vec<LatencyFigure>, bool) {
    let logs = (
        std::mem::take(&mut t.base_lat),
        std::mem::take(&mut t.cur_lat),
    );
    let Ok(paired) = stats::Paired::from_logs(logs.0, logs.1) else {
        return (Vec::new(), false);
    };
    let c = paired.compare(stats::RESAMPLES, 1);
    let noise = args.noise_threshold / 100.0;
    let gate = args.max_latency_increase.map(|m| m / 100.0);
    let us = |q: f64| {
        let (b, c) = paired.side_quantiles(q);
        (b / 1000.0, c / 1000.0)
    };
    let mut regressed = false;
    let figures = c
        .figures()
        .into_iter()
        .map(|(name, i)| {
            let (baseline, current) = match name {
                "p50" => us(0.5),
                "p99" => us(0.99),
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

/// Adds a titled list of at most `show` items (and how many more of `all` items) to `lists`;
/// `count` is the number in the title; nothing when there are no items.
fn push_list(
    lists: &mut String,
    title: &str,
    count: usize,
    (items, all): (&[String], usize),
    show: usize,
) {
    if all == 0 {
        return;
    }
    *lists += &format!("\n{title} ({count}):\n");
    for i in items.iter().take(show) {
        *lists += &format!("  {i}\n");
    }
    if all > show {
        *lists += &format!("  … and {} more\n", all - show);
    }
}

/// Rows named as examples in a line about many rows.
const EXAMPLES: usize = 5;

impl Findings {
    /// Rows of the baseline the current run lacks: single rows and whole inputs.
    fn missing_rows(&self) -> usize {
        self.missing.count + self.inputs.only_base.iter().map(|(_, n)| n).sum::<usize>()
    }

    /// Rows of the current run the baseline lacks: single rows and whole inputs.
    fn new_rows(&self) -> usize {
        self.added.count + self.inputs.only_cur.iter().map(|(_, n)| n).sum::<usize>()
    }

    /// Matched rows with a counter in one run only.
    fn gap_rows(&self) -> usize {
        self.totals.values().map(|t| t.counter_gaps).sum()
    }

    /// One line per (run, column) with a missing counter: how many rows, and the first few.
    fn gap_lines(&self) -> Vec<String> {
        self.gaps
            .iter()
            .map(|g| {
                let (lacks, has) = if g.in_current {
                    ("the current run", "the baseline")
                } else {
                    ("the baseline", "the current run")
                };
                let n = g.rows.count;
                format!(
                    "`{}` is empty in {lacks} on {n} row(s) where {has} has a value: {}{}",
                    g.column,
                    g.rows.lines().join("; "),
                    if n > EXAMPLES {
                        format!("; … and {} more", n - EXAMPLES)
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
                self.wrong.count,
                (&self.wrong.lines(), self.wrong.count),
                args.show,
            );
            return lists;
        }
        push_list(
            &mut lists,
            "Correctness regressions: status or steps changed",
            self.wrong.count,
            (&self.wrong.lines(), self.wrong.count),
            args.show,
        );
        push_list(
            &mut lists,
            &format!(
                "Work regressions: expanded or generated grew by more than {}%",
                args.max_work_increase
            ),
            self.work_worse.count,
            (&self.work_worse.lines(), self.work_worse.count),
            args.show,
        );
        push_list(
            &mut lists,
            "Missing counters: a counter one run has and the other lacks (regression)",
            self.gap_rows(),
            (&self.gap_lines(), self.gaps.len()),
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
        missing_s.extend(self.missing.lines());
        push_list(
            &mut lists,
            "Missing from the current run (regression)",
            self.missing_rows(),
            (&missing_s, self.inputs.only_base.len() + self.missing.count),
            args.show,
        );
        let mut added_s = whole(
            &self.inputs.only_cur,
            "the baseline did not read this input",
        );
        added_s.extend(self.added.lines());
        push_list(
            &mut lists,
            "New in the current run (not in the baseline)",
            self.new_rows(),
            (&added_s, self.inputs.only_cur.len() + self.added.count),
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
    fn verdict(&self, regressed: bool, latency_regressed: bool) -> String {
        if regressed {
            format!(
                "REGRESSION: {} wrong answer(s), {} case(s) with more work, {} missing case(s), \
                 {} row(s) missing a counter{}",
                self.wrong.count,
                self.work_worse.count,
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
                self.base_rows - self.missing.count,
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
