//! `tilebench merge DIR… --out DIR`: the outputs of `run --shard I/N` runs, put back together
//! into the run they split.
//!
//! The shards must be finished runs of one split: the same tilebench version, inputs (path
//! and checksum), strategies and options, the same N, every index from 1 to N exactly once.
//! cases.csv is the shards' rows interleaved back into input order (case i is in shard
//! i mod N + 1), copied field for field; the latency histograms are the shards' exact
//! histograms (read back from latency.hlog) added together; summary.csv is computed again
//! from those, with `wall_s` the sum of the shards' pass times (so `cases_per_s` is the rate
//! of one machine like theirs).

use super::{CmdResult, OK};
use crate::cli::MergeArgs;
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tilebench::harness::journal;
use tilebench::harness::shard::Shard;
use tilebench::report::cases_csv::{CaseRow, COLUMNS};
use tilebench::report::run_json::RunInfo;
use tilebench::report::summary::{read_summary_csv, StrategySummary, SummaryTally};
use tilebench::report::table::Table;
use tilebench::report::{hgrm, new_histogram, RunReport, SummaryExport};
use tilebench::util::atomic_write;

/// One shard's output directory.
struct Part {
    dir: PathBuf,
    info: RunInfo,
    shard: Shard,
}

pub fn run(args: MergeArgs) -> CmdResult {
    let started = SystemTime::now();
    let mut parts = Vec::new();
    for dir in &args.shards {
        parts.push(read_part(dir)?);
    }
    check_one_run(&parts)?;
    let n = check_every_shard(&mut parts)?;

    let info = parts[0].info.clone();
    let names = info.strategies.clone();
    let k = names.len();
    let total: usize = info.inputs.iter().map(|f| f.rows).sum();

    // Every shard's rows, checked against the grid they should fill (a pass that keeps
    // nothing), before anything is written.
    for p in &parts {
        check_rows(p, &names, total)?;
    }
    // Held (locked) until the merge is written.
    let out = tilebench::harness::rundir::RunDir::make(Some(&args.out), args.force, started)?;
    let out_dir = out.path().to_path_buf();
    let grid = Grid { total, n, k };
    let tallies = write_cases(&out_dir, &parts, grid)?;

    let Measures {
        histograms,
        wall,
        prepare,
    } = add_measures(&parts, &names, &info.prepare_s)?;
    let summaries: Vec<StrategySummary> = names
        .iter()
        .zip(&histograms)
        .zip(&tallies)
        .zip(&wall)
        .map(|(((s, h), t), &w)| t.summary(s, h, w))
        .collect();
    let report = RunReport {
        strategies: names.clone(),
        histograms,
        summaries,
    };
    let merged = RunInfo {
        command: std::env::args().collect(),
        wall_s: parts.iter().map(|p| p.info.wall_s).sum(),
        prepare_s: prepare,
        shard: None,
        sessions: None,
        merged_from: parts.iter().map(|p| p.dir.display().to_string()).collect(),
        solver_facts: Default::default(),
        ..info
    };
    tilebench::report::write_run_files(&out_dir, &report, &wall, started, &merged)?;

    if !args.quiet {
        print!("{}", Table.render(&report.summaries));
    }
    eprintln!(
        "tilebench: merged {n} shards: {total} cases × {k} strategies; results in {}",
        out_dir.display()
    );
    let _ = std::io::stdout().flush();
    Ok(OK)
}

/// Checks that the parts are shards of one run: the same identity and the same N.
fn check_one_run(parts: &[Part]) -> Result<(), String> {
    let first = &parts[0];
    for p in &parts[1..] {
        let diffs = p.info.differences(
            &first.info,
            (
                &format!("in {}", p.dir.display()),
                &format!("in {}", first.dir.display()),
            ),
        );
        if !diffs.is_empty() {
            return Err(format!(
                "{} and {} are not shards of one run:\n  {}\nmerge only the shards of one \
                 `run --shard I/N` split (same tilebench, inputs, strategies and options)",
                p.dir.display(),
                first.dir.display(),
                diffs.join("\n  ")
            ));
        }
        if p.shard.count != first.shard.count {
            return Err(format!(
                "{} is shard {} but {} is shard {}: shards of one split have the same N",
                p.dir.display(),
                p.shard,
                first.dir.display(),
                first.shard
            ));
        }
    }
    Ok(())
}

/// Sorts the parts by shard index and checks that each index from 1 to N is there once;
/// returns N.
fn check_every_shard(parts: &mut [Part]) -> Result<u32, String> {
    let n = parts[0].shard.count;
    parts.sort_by_key(|p| p.shard.index);
    for w in parts.windows(2) {
        if w[0].shard == w[1].shard {
            return Err(format!(
                "{} and {} are both shard {}: pass each shard once",
                w[0].dir.display(),
                w[1].dir.display(),
                w[0].shard
            ));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|i| !parts.iter().any(|p| p.shard.index == *i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard(s) {} missing: pass the output directory of every shard of the split \
             (run them with `tilebench run … --shard I/{n}`)",
            missing.join(", ")
        ));
    }
    Ok(n)
}

/// How the split's rows are laid out: `total` cases over `n` shards, `k` rows (strategies)
/// a case.
#[derive(Clone, Copy)]
struct Grid {
    total: usize,
    n: u32,
    k: usize,
}

/// Writes the merged cases.csv: the shards' rows, field for field, interleaved back into
/// input order as they are read (case i is the next row group of shard i mod N), each
/// shard read once, in order, side by side with the others; returns each strategy's summary
/// figures, added up on the way.
fn write_cases(out_dir: &Path, parts: &[Part], grid: Grid) -> Result<Vec<SummaryTally>, String> {
    let Grid { total, n, k } = grid;
    let path = |p: &Part| p.dir.join("cases.csv");
    let mut readers = parts
        .iter()
        .map(|p| csv::Reader::from_path(path(p)).map_err(|e| format!("{}: {e}", path(p).display())))
        .collect::<Result<Vec<_>, String>>()?;
    let header = csv::ByteRecord::from(COLUMNS.to_vec());
    let mut tallies: Vec<SummaryTally> = (0..k).map(|_| SummaryTally::default()).collect();
    let mut row = csv::ByteRecord::new();
    atomic_write(&out_dir.join("cases.csv"), |w| {
        let mut out = csv::Writer::from_writer(w);
        out.write_byte_record(&header)?;
        for i in 0..total {
            let part = i % n as usize;
            for tally in &mut tallies {
                let bad = |e: String| {
                    std::io::Error::other(format!("{}: {e}", path(&parts[part]).display()))
                };
                if !readers[part]
                    .read_byte_record(&mut row)
                    .map_err(|e| bad(e.to_string()))?
                {
                    return Err(bad("it ended early: it changed during the merge".into()));
                }
                out.write_byte_record(&row)?;
                let r: CaseRow = row
                    .deserialize(Some(&header))
                    .map_err(|e| bad(e.to_string()))?;
                tally.add(&r.to_record(i));
            }
        }
        out.flush()
    })?;
    Ok(tallies)
}

/// The shards' measures added up, per strategy.
struct Measures {
    /// The exact latency histograms, added.
    histograms: Vec<Histogram<u64>>,
    /// The pass times, summed.
    wall: Vec<Duration>,
    /// The prepare times, summed.
    prepare: BTreeMap<String, f64>,
}

/// Adds up the shards' latency histograms, pass times and prepare times (`prepare_s` gives
/// the strategies that prepared).
fn add_measures(
    parts: &[Part],
    names: &[String],
    prepare_s: &BTreeMap<String, f64>,
) -> Result<Measures, String> {
    let mut histograms: Vec<Histogram<u64>> = names.iter().map(|_| new_histogram()).collect();
    let mut wall = vec![Duration::ZERO; names.len()];
    let mut prepare = prepare_s.clone();
    prepare.values_mut().for_each(|v| *v = 0.0);
    for p in parts {
        add_histograms(p, names, &mut histograms)?;
        add_wall(p, names, &mut wall)?;
        for (name, s) in &p.info.prepare_s {
            *prepare.entry(name.clone()).or_default() += s;
        }
    }
    Ok(Measures {
        histograms,
        wall,
        prepare,
    })
}

/// Adds a shard's exact latency histograms (its latency.hlog) to `histograms`.
fn add_histograms(
    p: &Part,
    names: &[String],
    histograms: &mut [Histogram<u64>],
) -> Result<(), String> {
    let path = p.dir.join("latency.hlog");
    let logged = hgrm::read_interval_log(&path)?;
    for (j, name) in names.iter().enumerate() {
        let h = logged.get(name).ok_or_else(|| {
            format!(
                "{}: no histogram tagged `{name}` (it has {}): the shard's latency log is \
                 incomplete; rerun that shard",
                path.display(),
                if logged.is_empty() {
                    "none".to_string()
                } else {
                    logged
                        .keys()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )
        })?;
        histograms[j].add(h).map_err(|e| {
            format!(
                "{}: the `{name}` histogram cannot be added to the other shards' ({e})",
                path.display()
            )
        })?;
    }
    Ok(())
}

/// Adds a shard's pass times (its summary.csv `wall_s`) to `wall`.
fn add_wall(p: &Part, names: &[String], wall: &mut [Duration]) -> Result<(), String> {
    let spath = p.dir.join("summary.csv");
    let summaries = read_summary_csv(&spath)?;
    for (j, name) in names.iter().enumerate() {
        let s = summaries
            .iter()
            .find(|s| s.strategy == *name)
            .ok_or_else(|| format!("{}: no row for `{name}`", spath.display()))?;
        wall[j] += Duration::from_secs_f64(s.wall_s.max(0.0));
    }
    Ok(())
}

/// A finished shard's run.json.
fn read_part(dir: &Path) -> Result<Part, String> {
    if dir.join(journal::MANIFEST).exists() {
        return Err(format!(
            "{} is an unfinished run ({}); finish it first with the same `tilebench run …` \
             command and --resume",
            dir.display(),
            journal::JOURNAL
        ));
    }
    let path = dir.join("run.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read {}: {}; merge takes the output directories of finished \
             `tilebench run --shard I/N` runs",
            path.display(),
            tilebench::util::io_reason(&e)
        )
    })?;
    let info: RunInfo = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a tilebench run.json: {e}", path.display()))?;
    Ok(Part {
        dir: dir.to_path_buf(),
        shard: info.shard.unwrap_or(Shard::ALL),
        info,
    })
}

/// Checks a shard's cases.csv, reading it once and keeping nothing: the columns, one row per
/// case of the shard × strategy, the strategies in order.
fn check_rows(p: &Part, names: &[String], total: usize) -> Result<(), String> {
    let path = p.dir.join("cases.csv");
    let mut r = csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = r
        .byte_headers()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if header.is_empty() {
        return Err(format!(
            "{} is empty (no header line): the shard did not finish writing it; rerun that \
             shard",
            path.display()
        ));
    }
    if header.iter().ne(COLUMNS.iter().map(|c| c.as_bytes())) {
        return Err(format!(
            "{}:1: the columns are not those of this tilebench's cases.csv (`{},…`): the file \
             was edited, or written by another version; rerun that shard",
            path.display(),
            COLUMNS[..4].join(",")
        ));
    }
    let strategy = COLUMNS
        .iter()
        .position(|&c| c == "strategy")
        .expect("column");
    let mut rows = 0;
    for (n, row) in r.byte_records().enumerate() {
        let row = row.map_err(|e| format!("{}: {e}", path.display()))?;
        let want = &names[n % names.len()];
        if row.get(strategy) != Some(want.as_bytes()) {
            return Err(format!(
                "{}:{}: strategy `{}` where `{want}` belongs; the file was changed after the run",
                path.display(),
                n + 2,
                String::from_utf8_lossy(row.get(strategy).unwrap_or_default())
            ));
        }
        rows += 1;
    }
    let want = p.shard.len(total) * names.len();
    if rows != want {
        return Err(format!(
            "{}: {rows} rows, but shard {} of {total} cases × {} strategies has {want}",
            path.display(),
            p.shard,
            names.len()
        ));
    }
    Ok(())
}
