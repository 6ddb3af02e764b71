//! One pair of sides compared: the runs read side by side ([`super::join`]), their rows
//! matched, and what was found gathered into a [`PairComparison`].

use super::join::{self, Key, Val};
use super::model::{
    pct, Counter, CounterTotal, LatencyFigure, LatencyVerdict, List, ListKind, PairComparison,
    PairKind, SolverComparison, Thresholds,
};
use super::sides::{match_inputs, InputMatch, Set, Side};
use super::CompareError;
use crate::results::record::RowStatus;
use crate::stats;
use std::collections::HashMap;

/// Rows named as examples in a line about many rows.
const EXAMPLES: usize = 5;

/// A row as `file:line id solver` ("inputs/x.csv:19 17 astar"; "inputs/x.csv:19 astar"
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
    match (r.status, r.steps) {
        (RowStatus::Solved, Some(n)) => format!("solved in {n}"),
        (s, _) => s.as_str().to_string(),
    }
}

/// A percent change as shown: `+10.00%`, `+∞%`.
pub(crate) fn fmt_pct(p: f64) -> String {
    if p.is_infinite() {
        "+∞%".into()
    } else {
        format!("{p:+.2}%")
    }
}

/// A row's latency in ns when it counts: an answer judged right (solved or unsolvable), the
/// rows summary.csv's percentiles are made of; a wrong answer is no speed.
fn latency(r: &Val) -> Option<f64> {
    let answered = r.status.answered();
    Some(r.latency_ns.filter(|&ns| answered && ns > 0)? as f64)
}

fn counter(c: Counter, r: &Val) -> Option<u64> {
    match c {
        Counter::Expanded => r.expanded,
        Counter::Generated => r.generated,
    }
}

/// One solver's running totals.
#[derive(Default)]
struct Totals {
    work: [CounterTotal; 2],
    /// The natural logarithms of the latencies (ns) of the matched cases every run answered
    /// with a search: `[run][case]`, 4 bytes a case a run, what the bootstrap needs.
    base_lat: Vec<Vec<f32>>,
    cur_lat: Vec<Vec<f32>>,
    lat_cases: usize,
    wrong: usize,
    work_regressed: usize,
    counter_gaps: usize,
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

    fn lines(&self) -> Vec<String> {
        self.items.iter().map(|(_, l)| l.clone()).collect()
    }

    fn into_list(mut self, kind: ListKind) -> List {
        self.cut();
        List {
            kind,
            count: self.count,
            shown: self.lines(),
            items: self.count,
        }
    }
}

/// The rows where one run lacks a counter the other has, for one (column, run).
struct GapGroup {
    counter: Counter,
    /// Whether the current run lacks it (else the baseline does).
    in_current: bool,
    /// The first such row's place in the baseline (groups are listed in this order).
    first: u64,
    rows: Listed,
}

impl GapGroup {
    /// "`expanded` is empty in the current run on 192 row(s) where the baseline has a value:
    /// …".
    fn line(&self) -> String {
        let (lacks, has) = if self.in_current {
            ("the current run", "the baseline")
        } else {
            ("the baseline", "the current run")
        };
        let n = self.rows.count;
        format!(
            "`{}` is empty in {lacks} on {n} row(s) where {has} has a value: {}{}",
            self.counter.column(),
            self.rows.lines().join("; "),
            if n > EXAMPLES {
                format!("; … and {} more", n - EXAMPLES)
            } else {
                String::new()
            }
        )
    }
}

/// What matching the baseline's rows with the current run's found so far.
struct Findings {
    kind: PairKind,
    solvers: Vec<String>,
    totals: HashMap<String, Totals>,
    wrong: Listed,
    /// The labels whose path lengths follow options that differ between the runs
    /// ([`reconfigured`]), and their rows whose answer changed that way.
    explained: std::collections::HashSet<String>,
    reconfigured: Listed,
    work_worse: Listed,
    work_better: usize,
    gaps: Vec<GapGroup>,
    base_rows: usize,
    missing: Listed,
    added: Listed,
    inputs: InputMatch,
    runs: (usize, usize),
    unreplicated: usize,
    max_work_increase: f64,
}

impl Findings {
    /// One key's rows from each run (the first baseline run, the first current run, then
    /// `base_runs - 1` baseline replicates and the current ones; `None` where a run lacks
    /// it): answers, work and latencies.
    fn add(&mut self, k: &Key, vals: &[Option<Val>]) {
        let Some(b) = &vals[0] else {
            if let Some(c) = &vals[1] {
                self.added.push(c.seq, || describe(k, c));
            }
            return;
        };
        self.base_rows += 1;
        if !self.totals.contains_key(&k.2) {
            self.totals.insert(k.2.clone(), Totals::default());
        }
        let t = self.totals.get_mut(&k.2).expect("inserted");
        let Some(c) = &vals[1] else {
            self.missing.push(b.seq, || describe(k, b));
            return;
        };
        if let (Some(bl), Some(cl)) = (latency(b), latency(c)) {
            let (more_b, more_c) = vals[2..].split_at(self.runs.0 - 1);
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
        let solved = b.status == RowStatus::Solved && c.status == RowStatus::Solved;
        if b.steps != c.steps && solved && self.explained.contains(&k.2) {
            self.reconfigured.push(b.seq, || {
                format!(
                    "{}: baseline {}, current {}",
                    describe(k, b),
                    answer(b),
                    answer(c)
                )
            });
        } else if b.status != c.status || b.steps != c.steps {
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
        let (worse, better) = compare_work(t, k, (b, c), self.max_work_increase, &mut self.gaps);
        if worse {
            self.work_worse.push(b.seq, || work_text(k, b, c));
        } else if better {
            self.work_better += 1;
        }
    }

    /// The notes printed above the table: how inputs were paired, and what the latency
    /// intervals can and cannot see.
    fn notes(&self, timed: bool, gated: bool) -> Vec<String> {
        let mut notes = self.inputs.notes.clone();
        match self.runs {
            (1, 1) if timed => notes.push(format!(
                "one run a side: the latency figures are indications. Their intervals hold \
                 the noise between cases, not the noise between runs (two runs of one build \
                 differ as wholes, by several percent on a shared machine){}; for verdicts \
                 that hold, give replicate runs: a directory of runs per side",
                if gated {
                    ", so the latency gate may fail an unchanged build"
                } else {
                    ""
                }
            )),
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

    /// The lists, in the order they are shown.
    fn lists(self) -> Vec<List> {
        let show = self.wrong.cap;
        let whole = |list: &[(String, usize)], why: &str| -> Vec<String> {
            list.iter()
                .map(|(input, n)| format!("{input}: all {n} rows ({why})"))
                .collect()
        };
        let answers = if self.kind == PairKind::Solvers {
            ListKind::AnswersDiffer
        } else {
            ListKind::WrongAnswers
        };
        let mut lists = vec![
            self.wrong.into_list(answers),
            self.reconfigured.into_list(ListKind::Reconfigured),
            self.work_worse.into_list(ListKind::MoreWork),
        ];
        let mut gaps = self.gaps;
        for g in &mut gaps {
            g.rows.cut();
        }
        gaps.sort_by_key(|g| g.first);
        let gap_rows: usize = self.totals.values().map(|t| t.counter_gaps).sum();
        lists.push(List {
            kind: ListKind::MissingCounters,
            count: gap_rows,
            shown: gaps.iter().map(GapGroup::line).collect(),
            items: gaps.len(),
        });
        for (listed, kind, only, why) in [
            (
                self.missing,
                ListKind::Missing,
                &self.inputs.only_base,
                "the current run did not read this input",
            ),
            (
                self.added,
                ListKind::New,
                &self.inputs.only_cur,
                "the baseline did not read this input",
            ),
        ] {
            let mut list = listed.into_list(kind);
            let mut shown = whole(only, why);
            shown.append(&mut list.shown);
            shown.truncate(show);
            list.shown = shown;
            list.items += only.len();
            list.count += only.iter().map(|(_, n)| n).sum::<usize>();
            lists.push(list);
        }
        lists
    }
}

/// A case whose work grew: "inputs/x.csv 61 bfs-hash: expanded 100 → 110 (+10.00%), …".
fn work_text(k: &Key, b: &Val, c: &Val) -> String {
    let changes: Vec<String> = Counter::ALL
        .iter()
        .filter_map(|&col| {
            let (bv, cv) = (counter(col, b)?, counter(col, c)?);
            Some(format!(
                "{} {bv} → {cv} ({})",
                col.column(),
                fmt_pct(pct(bv as f64, cv as f64))
            ))
        })
        .collect();
    format!("{}: {}", describe(k, b), changes.join(", "))
}

/// Adds a matched case's counters (those both rows have) to its solver's totals, notes a
/// counter that only one row has in `gaps`, and says whether its work grew past the
/// threshold or shrank.
fn compare_work(
    t: &mut Totals,
    k: &Key,
    (b, c): (&Val, &Val),
    max_work_increase: f64,
    gaps: &mut Vec<GapGroup>,
) -> (bool, bool) {
    let (mut worse, mut better) = (false, false);
    let mut gap = false;
    for (i, col) in Counter::ALL.into_iter().enumerate() {
        let (bv, cv) = match (counter(col, b), counter(col, c)) {
            (Some(bv), Some(cv)) => (bv, cv),
            (None, None) => continue,
            (bv, _) => {
                let in_current = bv.is_some();
                let at = gaps
                    .iter()
                    .position(|g| g.counter == col && g.in_current == in_current)
                    .unwrap_or_else(|| {
                        gaps.push(GapGroup {
                            counter: col,
                            in_current,
                            first: b.seq,
                            rows: Listed::new(EXAMPLES),
                        });
                        gaps.len() - 1
                    });
                let group = &mut gaps[at];
                group.first = group.first.min(b.seq);
                group.rows.push(b.seq, || describe(k, b));
                gap = true;
                continue;
            }
        };
        let total = &mut t.work[i];
        total.baseline += bv;
        total.current += cv;
        total.rows += 1;
        worse |= pct(bv as f64, cv as f64) > max_work_increase;
        better |= cv < bv;
    }
    t.counter_gaps += usize::from(gap);
    t.work_regressed += usize::from(worse);
    (worse, better && !worse)
}

/// A solver's paired latency figures (per case, p50, p99: the ratio current/baseline with
/// its 95% interval and verdict). Empty when no case has a latency in every run.
fn latency_figures(t: &mut Totals, th: &Thresholds, replicated: bool) -> Vec<LatencyFigure> {
    let logs = (
        std::mem::take(&mut t.base_lat),
        std::mem::take(&mut t.cur_lat),
    );
    let Ok(paired) = stats::Paired::from_logs(logs.0, logs.1) else {
        return Vec::new();
    };
    let c = paired.compare(stats::RESAMPLES, 1);
    let noise = th.noise_threshold_pct / 100.0;
    let gate = th.max_latency_increase_pct.map(|m| m / 100.0);
    super::model::Figure::ALL
        .into_iter()
        .map(|figure| {
            let interval = *figure.of(&c);
            let (baseline, current) = match figure.quantile() {
                Some(q) => {
                    let (b, c) = paired.side_quantiles(q);
                    (b / 1000.0, c / 1000.0)
                }
                None => (1.0, c.mean.estimate),
            };
            let verdict = if c.judgeable(figure.name()) {
                LatencyVerdict::Judged {
                    verdict: stats::Verdict::of(&interval, noise, gate.unwrap_or(noise)),
                    gated: gate.is_some(),
                }
            } else {
                LatencyVerdict::TooFewCases
            };
            LatencyFigure {
                figure,
                baseline,
                current,
                interval,
                verdict,
                replicated,
            }
        })
        .collect()
}

/// The solvers compared, in order of appearance, the baseline's first.
fn solvers(sides: &[&Side], ranks: &HashMap<String, usize>) -> Vec<String> {
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

/// Compares `cur` against `base`: pairs their inputs, reads every run side by side and
/// matches their rows (answers, work, latencies).
///
/// # Errors
/// The runs share no input; a row cannot be read.
pub(crate) fn compare_pair(
    (base_set, cur_set): (Set, Set),
    kind: PairKind,
    labels: (String, String),
    th: &Thresholds,
    show: usize,
) -> Result<PairComparison, CompareError> {
    let (mut base_set, mut cur_set) = (base_set, cur_set);
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
    let settings = match kind {
        PairKind::Runs => settings_of(base_side, cur_side),
        PairKind::Solvers => (Vec::new(), None),
    };
    let labels_compared = solvers(&[base_side, cur_side], &ranks);
    let explained = match kind {
        PairKind::Runs => reconfigured(base_side, cur_side, &settings.0, &labels_compared),
        PairKind::Solvers => Default::default(),
    };
    let mut found = Findings {
        kind,
        solvers: labels_compared,
        totals: HashMap::new(),
        wrong: Listed::new(show),
        explained,
        reconfigured: Listed::new(show),
        work_worse: Listed::new(show),
        work_better: 0,
        gaps: Vec::new(),
        base_rows: 0,
        missing: Listed::new(show),
        added: Listed::new(show),
        inputs,
        runs: (1 + base_more.len(), 1 + cur_more.len()),
        unreplicated: 0,
        max_work_increase: th.max_work_increase_pct,
    };
    // The streams: the first baseline run, the first current run, then the replicates.
    let streams = [&*base_side, &*cur_side]
        .into_iter()
        .chain(base_more.iter())
        .chain(cur_more.iter())
        .map(|side| join::Stream::open(side, &ranks))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CompareError::Results)?;
    join::Join::new(streams)
        .run(|k, vals| found.add(k, vals))
        .map_err(CompareError::Results)?;
    let mut pair = finish(found, kind, labels, th);
    pair.settings = settings.0;
    pair.notes.extend(settings.1);
    if kind == PairKind::Runs {
        pair.notes.extend(configured_apart(base_side, cur_side));
        let own = label_changes(base_side, cur_side, &pair.settings);
        pair.settings.extend(own);
    }
    Ok(pair)
}

/// The labels of `labels` whose answers may differ between the runs by design: a suboptimal
/// strategy (its path lengths follow its options) whose options differ, in its own
/// configuration columns when both runs have them, else in a run-wide setting it reads.
fn reconfigured(
    base: &Side,
    cur: &Side,
    changes: &[crate::report::settings::SettingChange],
    labels: &[String],
) -> std::collections::HashSet<String> {
    let steps = crate::report::settings::Counter::Steps;
    labels
        .iter()
        .filter(|label| {
            let (b, c) = (base.setting(label), cur.setting(label));
            let algorithm = b
                .or(c)
                .and_then(|s| s.first())
                .and_then(Option::as_deref)
                .filter(|a| !a.is_empty())
                .unwrap_or(label.as_str());
            if crate::search::registry::find(algorithm).is_none_or(|s| s.optimal()) {
                return false;
            }
            match (b, c) {
                (Some(b), Some(c)) => !differing(b, c).is_empty(),
                _ => changes.iter().any(|ch| ch.affects(label, steps)),
            }
        })
        .cloned()
        .collect()
}

/// The configuration columns both runs' cases.csv have whose cells differ, with the two
/// cells: a column one file lacks (written before it) is unknown, never a difference.
fn differing<'a>(
    b: &'a [Option<String>],
    c: &'a [Option<String>],
) -> Vec<(&'static str, &'a str, &'a str)> {
    crate::search::configuration::columns()
        .iter()
        .zip(b.iter().zip(c))
        .filter_map(|(column, (b, c))| Some((*column, b.as_deref()?, c.as_deref()?)))
        .filter(|(_, b, c)| b != c)
        .collect()
}

/// The option changes of each label both runs have, from their configuration columns, that
/// no run-wide change already names for it (`-s fast=wastar:weight=3` against `weight=5`):
/// named beside the label's regressions as a changed flag is.
fn label_changes(
    base: &Side,
    cur: &Side,
    run_wide: &[crate::report::settings::SettingChange],
) -> Vec<crate::report::settings::SettingChange> {
    let mut out = Vec::new();
    for label in base.solvers() {
        let (Some(b), Some(c)) = (base.setting(label), cur.setting(label)) else {
            continue;
        };
        let algorithm = b.first().cloned().flatten().unwrap_or_default();
        for (column, was, now) in differing(b, c) {
            let Some(change) =
                crate::report::settings::for_label(label, &algorithm, column, (was, now))
            else {
                continue;
            };
            let named = run_wide
                .iter()
                .any(|r| r.setting == change.setting && r.scope.has(label));
            if !named {
                out.push(change);
            }
        }
    }
    out
}

/// A note for each solver label both runs have whose configuration differs (cases.csv's
/// `algorithm`, `heuristic`, `weight`, … columns): the label is matched, but the rows were
/// made by different configurations. Runs written before those columns say nothing.
fn configured_apart(base: &Side, cur: &Side) -> Vec<String> {
    let mut notes = Vec::new();
    for label in base.solvers() {
        let (Some(b), Some(c)) = (base.setting(label), cur.setting(label)) else {
            continue;
        };
        let differ: Vec<String> = differing(b, c)
            .into_iter()
            .map(|(column, b, c)| {
                let shown = |v: &str| {
                    if v.is_empty() {
                        "—".to_string()
                    } else {
                        v.to_string()
                    }
                };
                format!("{column} {} → {}", shown(b), shown(c))
            })
            .collect();
        if !differ.is_empty() {
            notes.push(format!(
                "`{label}` is not the same configuration in the two runs ({}, baseline → \
                 current): its rows are matched by label, and its differences may be the \
                 options', not the code's",
                differ.join(", ")
            ));
        }
    }
    notes
}

/// How the two runs' settings differ, from their run.json files (read when the sides were
/// loaded); a note instead when one cannot be read (the settings are then not compared, and
/// the note says so).
fn settings_of(
    base: &Side,
    cur: &Side,
) -> (Vec<crate::report::settings::SettingChange>, Option<String>) {
    match (&base.settings, &cur.settings) {
        (Ok(b), Ok(c)) => (crate::report::settings::diff(b, c), None),
        (Err(e), _) | (_, Err(e)) => (
            Vec::new(),
            Some(format!("the runs' settings were not compared: {e}")),
        ),
    }
}

/// The pair's result from what was found: per-solver figures, notes, lists, verdict.
fn finish(
    mut found: Findings,
    kind: PairKind,
    (baseline, current): (String, String),
    th: &Thresholds,
) -> PairComparison {
    let replicated = found.runs.0 > 1 && found.runs.1 > 1;
    let mut solvers = Vec::new();
    for s in &found.solvers {
        let Some(t) = found.totals.get_mut(s) else {
            continue;
        };
        let latency = latency_figures(t, th, replicated);
        solvers.push(SolverComparison {
            solver: s.clone(),
            wrong: t.wrong,
            work: [
                (Counter::Expanded, t.work[0]),
                (Counter::Generated, t.work[1]),
            ],
            cases_with_more_work: t.work_regressed,
            rows_missing_a_counter: t.counter_gaps,
            latency_cases: t.lat_cases,
            latency,
        });
    }
    let timed = solvers.iter().any(|s| !s.latency.is_empty());
    let notes = found.notes(timed, th.max_latency_increase_pct.is_some());
    let (matched, less_work, runs) = (
        found.base_rows - found.missing.count,
        found.work_better,
        found.runs,
    );
    let lists = found.lists();
    let mut pair = PairComparison {
        kind,
        baseline,
        current,
        runs,
        notes,
        settings: Vec::new(),
        solvers,
        lists,
        matched,
        less_work,
        regressed: false,
    };
    let totals_regressed = pair.solvers.iter().any(|s| {
        s.work
            .iter()
            .any(|(_, t)| t.exceeds(th.max_work_increase_pct))
    });
    pair.regressed = pair.latency_regressed()
        || kind == PairKind::Runs
            && (totals_regressed
                || [
                    ListKind::WrongAnswers,
                    ListKind::MoreWork,
                    ListKind::Missing,
                    ListKind::MissingCounters,
                ]
                .iter()
                .any(|&k| pair.count(k) > 0));
    pair
}
