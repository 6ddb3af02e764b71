//! `merge`: the outputs of `run --shard I/N` runs, put back together into the run they split,
//! all or nothing.
//!
//! The shards must be finished runs of one split: the same tilebench version, inputs (path
//! and checksum), strategies and options, the same N, every index from 1 to N exactly once.
//! Every shard is read and checked before anything is written: its cases.csv row by row (the
//! columns, every value, one row per case × strategy, the strategies in order, the cases in
//! input order, and the whole file against the checksum its run.json holds), its summary.csv
//! and its latency.hlog. The merged files are then written into a hidden directory inside
//! `--out` and renamed into place once all are written; on any failure `--out` is left as it
//! was found (a directory the merge created is removed).
//!
//! cases.csv is the shards' rows interleaved back into input order (case i is in shard
//! i mod N + 1), copied field for field; the latency histograms are the shards' exact
//! histograms (read back from latency.hlog) added together; summary.csv is computed again
//! from those, with `wall_s` the sum of the shards' pass times (so `cases_per_s` is the rate
//! of one machine like theirs).

use super::journal;
use super::rundir::{RunDir, LOCK};
use crate::dataset::shard::Shard;
use crate::observe::Wording;
use crate::report::summary::{read_summary_csv, StrategySummary, SummaryTally};
use crate::report::{new_histogram, RunReport};
use crate::results::cases_csv::{
    self, columns, unreadable_row, CaseRow, OptionColumns, FIXED_COLUMNS,
};
use crate::results::hgrm;
use crate::results::run_json::RunInfo;
use crate::search::configuration::Setting;
use crate::util::{atomic_write, io_reason, Hashed};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What to do about a shard that is refused.
const RERUN: &str = "rerun that shard (`tilebench run … --shard I/N --force`) and merge again";

/// The command line's phrases of this module's messages, and each in the library's words
/// (a shard is a run whose plan has `shard` I/N): a [`MergeError`]'s message is made with
/// the first, and read in the second.
const PHRASES: [(&str, &str); 5] = [
    (
        RERUN,
        "rerun that shard (its plan's shard I/N, with the mode Force) and merge again",
    ),
    (
        "choose an --out you can write",
        "choose an output directory you can write",
    ),
    (
        "one `run --shard I/N` split",
        "one split (the runs of a plan's shard I/N for each I)",
    ),
    (
        "the same `tilebench run …` command and --resume",
        "the same plan and the mode Resume",
    ),
    (
        "finished `tilebench run --shard I/N` runs",
        "finished runs of a plan's shard I/N",
    ),
];

/// A message made with the command line's phrases ([`PHRASES`]): in the library's words,
/// and as it was made.
fn worded(flags: String) -> Wording {
    let words = PHRASES
        .iter()
        .fold(flags.clone(), |t, (flag, words)| t.replace(flag, words))
        // A listed difference names its option without the `--` (`max-nodes: …`).
        .replace("\n  --", "\n  ");
    Wording::new(words, flags)
}

/// A merge done: where, and what it holds.
#[derive(Debug)]
pub struct Merged {
    /// The merged run's directory (`--out`).
    pub dir: PathBuf,
    /// N, the number of shards.
    pub shards: u32,
    /// The cases of the whole run.
    pub cases: usize,
    /// The merged summaries, one per strategy.
    pub summaries: Vec<StrategySummary>,
}

/// Why shards were not merged ([`merge`]); nothing is left in the output directory then.
/// The message names the file (and the line where there is one) and says what to do.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct MergeError {
    kind: MergeErrorKind,
    path: Option<PathBuf>,
    line: Option<u64>,
    message: Wording,
}

/// What kind of failure a [`MergeError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeErrorKind {
    /// No shard was given.
    NoShard,
    /// A shard is refused: unfinished, unreadable, damaged, or its files disagree with its
    /// run.json.
    Shard,
    /// The shards are not one split: of different runs, of different N, one given twice, or
    /// some missing.
    Split,
    /// The output directory cannot be created or written.
    Output,
}

impl MergeError {
    fn shard(path: &Path, line: Option<u64>, message: String) -> MergeError {
        let path = Some(path.to_path_buf());
        MergeError {
            kind: MergeErrorKind::Shard,
            path,
            line,
            message: worded(message),
        }
    }

    fn split(dir: &Path, message: String) -> MergeError {
        MergeError {
            kind: MergeErrorKind::Split,
            path: Some(dir.to_path_buf()),
            line: None,
            message: worded(message),
        }
    }

    fn output(path: &Path, message: impl Into<Wording>) -> MergeError {
        let message = message.into();
        let message = if message.words() == message.with_flags() {
            worded(message.words().to_string())
        } else {
            message
        };
        MergeError {
            kind: MergeErrorKind::Output,
            path: Some(path.to_path_buf()),
            line: None,
            message,
        }
    }

    /// The message as a command line says it: the `tilebench run` flags of a shard
    /// (`--shard I/N`, `--force`, `--resume`) and the output directory as `--out`.
    pub fn message_with_flags(&self) -> &str {
        self.message.with_flags()
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> MergeErrorKind {
        self.kind
    }

    /// The file or directory at fault, where there is one: the shard's file, the second of
    /// two shards that disagree, the output directory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The line of [`MergeError::path`] at fault, where there is one (from 1).
    pub fn line(&self) -> Option<u64> {
        self.line
    }
}

/// One shard's output directory.
struct Part {
    dir: PathBuf,
    info: RunInfo,
    shard: Shard,
}

/// Merges the shards in the directories `shards` into `out` (`force`: over an earlier run
/// there); `command` is recorded in the merged run.json.
///
/// # Errors
/// [`MergeError`]: a shard is missing, repeated, of another run, unfinished or damaged
/// (each message names the file, and the line where there is one, and says what to do; so
/// do [`MergeError::path`] and [`MergeError::line`]), or `out` cannot be written. Nothing is
/// left in `out` then.
pub fn merge(
    shards: &[PathBuf],
    out: &Path,
    force: bool,
    command: Vec<String>,
) -> Result<Merged, MergeError> {
    let started = SystemTime::now();
    let mut parts = shards
        .iter()
        .map(|d| read_part(d))
        .collect::<Result<Vec<_>, _>>()?;
    if parts.is_empty() {
        return Err(MergeError {
            kind: MergeErrorKind::NoShard,
            path: None,
            line: None,
            message: "no shard given: pass the output directory of every shard".into(),
        });
    }
    check_one_run(&parts)?;
    let n = check_every_shard(&mut parts)?;

    let info = parts[0].info.clone();
    let names = info.strategies.clone();
    let total = info.cases();
    let grid = Grid {
        total,
        n,
        k: names.len(),
    };
    // Everything is read and checked before anything is written.
    for p in &parts {
        check_rows(p, &info, grid)?;
    }
    let measures = add_measures(&parts, &names, &info.prepare_s)?;

    let staged = Staged::open(out, force, started)?;
    let written = write(&staged.tmp, &parts, grid, measures, command, started);
    let summaries = match written {
        Ok(s) => s,
        Err(e) => {
            staged.abandon();
            return Err(e);
        }
    };
    staged.commit()?;
    Ok(Merged {
        dir: out.to_path_buf(),
        shards: n,
        cases: total,
        summaries,
    })
}

/// Writes the merged files into `dir`; returns the summaries.
fn write(
    dir: &Path,
    parts: &[Part],
    grid: Grid,
    measures: Measures,
    command: Vec<String>,
    started: SystemTime,
) -> Result<Vec<StrategySummary>, MergeError> {
    let info = &parts[0].info;
    let names = &info.strategies;
    let Written {
        tallies,
        settings,
        checksum,
        invalid,
    } = write_cases(dir, parts, grid)?;
    let Measures {
        histograms,
        wall,
        prepare,
    } = measures;
    let summaries: Vec<StrategySummary> = names
        .iter()
        .zip(&histograms)
        .zip(&tallies)
        .zip(&wall)
        .zip(&settings)
        .map(|((((s, h), t), &w), setting)| {
            let mut summary = t.summary(s, h, w);
            summary.set_setting(setting);
            summary
        })
        .collect();
    let report = RunReport {
        strategies: names.clone(),
        histograms,
        summaries,
    };
    let merged = RunInfo {
        command,
        wall_s: parts.iter().map(|p| p.info.wall_s).sum(),
        prepare_s: prepare,
        shard: None,
        sessions: None,
        merged_from: parts.iter().map(|p| p.dir.display().to_string()).collect(),
        solver_facts: Default::default(),
        cases_xxh3_64: Some(checksum),
        cases_fnv1a64: None,
        // A shard counts only its own invalid rows: the merged counts are the rows'.
        inputs: info
            .inputs
            .iter()
            .zip(invalid)
            .map(|(f, invalid_rows)| crate::dataset::InputFile {
                invalid_rows,
                ..f.clone()
            })
            .collect(),
        ..info.clone()
    };
    crate::report::write_run_files(dir, &report, &wall, started, &merged)
        .map_err(|e| MergeError::output(dir, e))?;
    Ok(report.summaries)
}

/// The output directory while the merge is written: the files go into a hidden directory
/// inside it (`tmp`), renamed into place by [`Staged::commit`]; [`Staged::abandon`] leaves the
/// directory as it was found.
struct Staged {
    out: RunDir,
    tmp: PathBuf,
    /// The merge created the directory.
    created: bool,
    /// The merge created its lock file.
    locked_new: bool,
}

impl Staged {
    fn open(out: &Path, force: bool, started: SystemTime) -> Result<Staged, MergeError> {
        let created = !out.exists();
        let locked_new = !out.join(LOCK).exists();
        let undo = || {
            if locked_new {
                let _ = std::fs::remove_file(out.join(LOCK));
            }
            if created {
                let _ = std::fs::remove_dir(out);
            }
        };
        let dir = RunDir::make(Some(out), force, started)
            .inspect_err(|_| undo())
            .map_err(|e| MergeError::output(out, e))?;
        let tmp = out.join(format!(".merge-{}", std::process::id()));
        let staged = Staged {
            out: dir,
            tmp,
            created,
            locked_new,
        };
        if let Err(e) = std::fs::create_dir_all(&staged.tmp) {
            let why = format!(
                "cannot create {}: {}; choose an --out you can write",
                staged.tmp.display(),
                io_reason(&e)
            );
            let e = MergeError::output(&staged.tmp, why);
            staged.abandon();
            return Err(e);
        }
        Ok(staged)
    }

    /// Moves the written files into place.
    fn commit(self) -> Result<(), MergeError> {
        let moved = (|| -> std::io::Result<()> {
            let mut names: Vec<_> = std::fs::read_dir(&self.tmp)?
                .map(|e| e.map(|e| e.file_name()))
                .collect::<std::io::Result<_>>()?;
            // run.json last: a directory with run.json holds the whole run.
            names.sort_by_key(|n| n == crate::results::RUN_JSON);
            for name in names {
                std::fs::rename(self.tmp.join(&name), self.out.join(&name.to_string_lossy()))?;
            }
            std::fs::remove_dir(&self.tmp)?;
            File::open(self.out.path())?.sync_all()
        })();
        moved.map_err(|e| {
            let why = format!(
                "cannot move the merged files into {}: {}",
                self.out.path().display(),
                io_reason(&e)
            );
            MergeError::output(self.out.path(), why)
        })
    }

    /// Removes what the merge wrote, and the directory if the merge created it.
    fn abandon(self) {
        let _ = std::fs::remove_dir_all(&self.tmp);
        let out = self.out.path().to_path_buf();
        if self.locked_new {
            let _ = std::fs::remove_file(out.join(LOCK));
        }
        drop(self.out);
        if self.created {
            let _ = std::fs::remove_dir(&out);
        }
    }
}

/// Checks that the parts are shards of one run: the same identity and the same N.
fn check_one_run(parts: &[Part]) -> Result<(), MergeError> {
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
            return Err(MergeError::split(
                &p.dir,
                format!(
                    "{} and {} are not shards of one run:\n  {}\nmerge only the shards of one \
                 `run --shard I/N` split (same tilebench, inputs, strategies and options)",
                    p.dir.display(),
                    first.dir.display(),
                    diffs.join("\n  ")
                ),
            ));
        }
        if p.shard.count != first.shard.count {
            return Err(MergeError::split(
                &p.dir,
                format!(
                    "{} is shard {} but {} is shard {}: shards of one split have the same N",
                    p.dir.display(),
                    p.shard,
                    first.dir.display(),
                    first.shard
                ),
            ));
        }
    }
    Ok(())
}

/// Sorts the parts by shard index and checks that each index from 1 to N is there once;
/// returns N.
fn check_every_shard(parts: &mut [Part]) -> Result<u32, MergeError> {
    let n = parts[0].shard.count;
    parts.sort_by_key(|p| p.shard.index);
    for w in parts.windows(2) {
        if w[0].shard == w[1].shard {
            return Err(MergeError::split(
                &w[1].dir,
                format!(
                    "{} and {} are both shard {}: pass each shard once",
                    w[0].dir.display(),
                    w[1].dir.display(),
                    w[0].shard
                ),
            ));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|i| !parts.iter().any(|p| p.shard.index == *i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError {
            kind: MergeErrorKind::Split,
            path: None,
            line: None,
            message: {
                let said = |how: &str| {
                    format!(
                        "shard(s) {} missing: pass the output directory of every shard of the \
                         split (run them with {how})",
                        missing.join(", ")
                    )
                };
                Wording::new(
                    said(&format!("the plan's shard I/{n}")),
                    said(&format!("`tilebench run … --shard I/{n}`")),
                )
            },
        });
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

/// A shard's cases.csv, read once from its start, its bytes hashed as they are read.
struct ShardRows {
    path: PathBuf,
    reader: csv::Reader<Hashed<File, crate::util::FileSum>>,
    /// The checksum its run.json recorded (empty: none), which the hash must end at.
    want: String,
    header: csv::StringRecord,
    record: csv::StringRecord,
    /// Where the option columns are ([`CaseRow::options`]).
    options: OptionColumns,
}

impl ShardRows {
    /// Opens `p`'s cases.csv and checks its header; its bytes are hashed with the sum its
    /// run.json recorded.
    fn open(p: &Part) -> Result<ShardRows, MergeError> {
        let path = p.dir.join(crate::results::CASES_CSV);
        let file = File::open(&path).map_err(|e| not_a_shard(&path, &e))?;
        let (want, hash) = recorded_sum(p).unwrap_or_default();
        let mut reader = csv::Reader::from_reader(Hashed { inner: file, hash });
        let header = reader
            .headers()
            .map_err(|e| {
                let why = format!("{}:1: {}; {RERUN}", path.display(), csv_reason(&e));
                MergeError::shard(&path, Some(1), why)
            })?
            .clone();
        if header.is_empty() {
            return Err(MergeError::shard(
                &path,
                None,
                format!(
                    "{} is empty (no header line): the shard did not finish writing it; {RERUN}",
                    path.display()
                ),
            ));
        }
        if header.iter().ne(columns().iter().copied()) {
            return Err(MergeError::shard(
                &path,
                Some(1),
                format!(
                    "{}:1: the columns are not those of this tilebench's cases.csv (`{},…`): the \
                 file was edited, or written by another version; {RERUN}",
                    path.display(),
                    FIXED_COLUMNS[..4].join(",")
                ),
            ));
        }
        Ok(ShardRows {
            path,
            reader,
            want,
            options: OptionColumns::locate(&header),
            header,
            record: csv::StringRecord::new(),
        })
    }

    /// The next row, or `None` at the end of the file.
    fn next(&mut self) -> Result<Option<CaseRow>, MergeError> {
        let more = self.reader.read_record(&mut self.record).map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            let why = format!(
                "{}:{line}: {}; the file is damaged: {RERUN}",
                self.path.display(),
                csv_reason(&e)
            );
            MergeError::shard(&self.path, Some(line), why)
        })?;
        if !more {
            return Ok(None);
        }
        let mut row: CaseRow = self.record.deserialize(Some(&self.header)).map_err(|e| {
            let why = unreadable_row(&self.path, &self.header, &self.record, &e, RERUN);
            MergeError::shard(&self.path, Some(self.line()), why)
        })?;
        row.options = cases_csv::some_cells(self.options.cells(&self.record));
        Ok(Some(row))
    }

    /// The line of the row last read.
    fn line(&self) -> u64 {
        self.record.position().map_or(0, |p| p.line())
    }

    /// Reads to the end and checks the file's bytes against `want` (run.json's checksum).
    fn check_sum(mut self, extra: &str) -> Result<(), MergeError> {
        if self.next()?.is_some() {
            let why = format!(
                "{}:{}: a row past the last case of the shard{extra}; {RERUN}",
                self.path.display(),
                self.line()
            );
            return Err(MergeError::shard(&self.path, Some(self.line()), why));
        }
        let (got, want) = (self.reader.get_ref().hash.hex(), &self.want);
        if got != *want {
            return Err(MergeError::shard(
                &self.path,
                None,
                format!(
                    "{}: the rows are not those the run wrote (its run.json records the checksum \
                 {want}, the file's is {got}): the file was edited or damaged after the \
                 run{extra}; {RERUN}",
                    self.path.display()
                ),
            ));
        }
        Ok(())
    }
}

/// The csv crate's error in words (without its debug-like positions).
fn csv_reason(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Io(e) => io_reason(e),
        csv::ErrorKind::Utf8 { .. } => "a field is not UTF-8 text".into(),
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("the row has {len} fields where the header has {expected_len}"),
        _ => e.to_string(),
    }
}

/// Where case `i` comes from: its input's position among the run's inputs.
fn input_of(info: &RunInfo, case: usize) -> usize {
    // With --rows, case `case` is the case-th chosen row.
    let mut i = info.rows.as_ref().map_or(case, |r| r.row_of(case));
    for (j, f) in info.inputs.iter().enumerate() {
        if i < f.rows {
            return j;
        }
        i -= f.rows;
    }
    info.inputs.len()
}

/// The checksum of cases.csv a shard's run.json recorded, and a fresh hash of its kind:
/// XXH3, or FNV-1a for a shard made on 2026-12-04 or 12-05 before XXH3 (the shards of one
/// run are of one binary, so of one kind).
fn recorded_sum(p: &Part) -> Option<(String, crate::util::FileSum)> {
    crate::util::FileSum::recorded(
        p.info.cases_xxh3_64.as_deref(),
        p.info.cases_fnv1a64.as_deref(),
    )
}

/// Checks a shard's cases.csv, reading it once and keeping nothing: the columns, every value,
/// one row per case of the shard × strategy, the strategies in order, the cases in input
/// order (each case in its input, the lines rising), and the file's checksum.
fn check_rows(p: &Part, info: &RunInfo, grid: Grid) -> Result<(), MergeError> {
    let names = &info.strategies;
    let want = p.shard.len(grid.total) * names.len();
    if recorded_sum(p).is_none() {
        let path = p.dir.join(crate::results::RUN_JSON);
        let why = format!(
            "{}: no checksum of cases.csv (`cases_xxh3_64`): the shard was run by an older \
             tilebench, so its rows cannot be checked; {RERUN}",
            path.display()
        );
        return Err(MergeError::shard(&path, None, why));
    }
    let mut rows = ShardRows::open(p)?;
    let mut last: Option<(usize, u64)> = None;
    for n in 0..want {
        let Some(row) = rows.next()? else {
            return Err(MergeError::shard(
                &rows.path,
                None,
                format!(
                    "{}: {n} rows, but shard {} of {} cases × {} strategies has {want}: rows were \
                 deleted; {RERUN}",
                    rows.path.display(),
                    p.shard,
                    grid.total,
                    names.len()
                ),
            ));
        };
        let at = format!("{}:{}", rows.path.display(), rows.line());
        let refused = |why: String| MergeError::shard(&rows.path, Some(rows.line()), why);
        let strategy = &names[n % names.len()];
        if row.strategy != *strategy {
            return Err(refused(format!(
                "{at}: strategy `{}` where `{strategy}` belongs (a case's rows list the \
                 strategies in run.json's order): the file was changed after the run; {RERUN}",
                row.strategy
            )));
        }
        let case = p.shard.case_at(n / names.len());
        let input = input_of(info, case);
        let named = info.inputs.get(input).map(|f| f.path.as_str());
        if named != Some(row.input.as_str()) {
            return Err(refused(format!(
                "{at}: input `{}` where a row of `{}` belongs: the rows are not in input order \
                 (the file was changed after the run); {RERUN}",
                row.input,
                named.unwrap_or("?")
            )));
        }
        let key = (input, row.line);
        let in_order = match last {
            None => true,
            Some(prev) if n % names.len() == 0 => prev < key,
            Some(prev) => prev == key,
        };
        if !in_order {
            return Err(refused(format!(
                "{at}: a row of line {} of `{}` out of place (after line {}): the rows are not \
                 in input order (rows were deleted, moved or reordered after the run); {RERUN}",
                row.line,
                row.input,
                last.map_or(0, |l| l.1)
            )));
        }
        last = Some(key);
    }
    rows.check_sum("")
}

/// What writing the merged cases.csv finds on the way.
struct Written {
    /// Each strategy's summary figures.
    tallies: Vec<SummaryTally>,
    /// Each strategy's configuration cells (those of its first row).
    settings: Vec<Setting>,
    /// The file's checksum.
    checksum: String,
    /// Each input's invalid rows.
    invalid: Vec<usize>,
}

/// Writes the merged cases.csv: the shards' rows, field for field, interleaved back into
/// input order as they are read (case i is the next row group of shard i mod N), each shard
/// read once, in order, side by side with the others, and checked again against its
/// checksum; returns what it added up on the way.
fn write_cases(out_dir: &Path, parts: &[Part], grid: Grid) -> Result<Written, MergeError> {
    let Grid { total, n, k } = grid;
    let mut readers = parts
        .iter()
        .map(ShardRows::open)
        .collect::<Result<Vec<_>, MergeError>>()?;
    let mut tallies: Vec<SummaryTally> = (0..k).map(|_| SummaryTally::default()).collect();
    let mut settings: Vec<Setting> = vec![crate::search::configuration::unset(); k];
    let mut failed = None;
    let mut hash = crate::util::Xxh3::default();
    let info = &parts[0].info;
    let mut invalid = vec![0; info.inputs.len()];
    let changed = " (it changed during the merge)";
    let cases_csv = out_dir.join(crate::results::CASES_CSV);
    atomic_write(&cases_csv, |w| {
        let mut out = csv::Writer::from_writer(Hashed::<_, crate::util::Xxh3>::new(w));
        out.write_record(columns())?;
        for i in 0..total {
            let part = &mut readers[i % n as usize];
            for (j, tally) in tallies.iter_mut().enumerate() {
                let row = match part.next() {
                    Ok(Some(row)) => row,
                    Ok(None) => {
                        let why =
                            format!("{}: it ended early{changed}; {RERUN}", part.path.display());
                        failed = Some(MergeError::shard(&part.path, None, why));
                        return Err(std::io::Error::other("shard changed"));
                    }
                    Err(e) => {
                        failed = Some(e);
                        return Err(std::io::Error::other("shard changed"));
                    }
                };
                out.write_record(&part.record)?;
                if j == 0 && row.status == crate::results::record::RowStatus::Invalid {
                    if let Some(n) = invalid.get_mut(input_of(info, i)) {
                        *n += 1;
                    }
                }
                tally.add(&row.to_record(i));
                if i == 0 {
                    settings[j] = row.setting();
                }
            }
        }
        out.flush()?;
        hash = out.get_ref().hash.clone();
        Ok(())
    })
    .map_err(|e| {
        failed
            .take()
            .unwrap_or_else(|| MergeError::output(&cases_csv, e.to_string()))
    })?;
    for r in readers {
        r.check_sum(changed)?;
    }
    Ok(Written {
        tallies,
        settings,
        checksum: hash.hex(),
        invalid,
    })
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
) -> Result<Measures, MergeError> {
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
) -> Result<(), MergeError> {
    let path = p.dir.join(crate::results::LATENCY_HLOG);
    let logged = hgrm::read_interval_log(&path)
        .map_err(|e| MergeError::shard(e.path(), e.line(), format!("{e}; {RERUN}")))?;
    let refused = |why: String| MergeError::shard(&path, None, why);
    for (j, name) in names.iter().enumerate() {
        let h = logged.get(name).ok_or_else(|| {
            refused(format!(
                "{}: no histogram tagged `{name}` (it has {}): the shard's latency log is \
                 incomplete; {RERUN}",
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
            ))
        })?;
        histograms[j].add(h).map_err(|e| {
            refused(format!(
                "{}: the `{name}` histogram cannot be added to the other shards' ({e}); {RERUN}",
                path.display()
            ))
        })?;
    }
    Ok(())
}

/// Adds a shard's pass times (its summary.csv `wall_s`) to `wall`.
fn add_wall(p: &Part, names: &[String], wall: &mut [Duration]) -> Result<(), MergeError> {
    let spath = p.dir.join(crate::results::SUMMARY_CSV);
    let refused = |why: String| MergeError::shard(&spath, None, why);
    let summaries = read_summary_csv(&spath)
        .map_err(|e| refused(format!("{}: {e}; {RERUN}", spath.display())))?;
    for (j, name) in names.iter().enumerate() {
        let s = summaries
            .iter()
            .find(|s| s.strategy == *name)
            .ok_or_else(|| refused(format!("{}: no row for `{name}`; {RERUN}", spath.display())))?;
        if !s.wall_s.is_finite() || s.wall_s < 0.0 {
            return Err(refused(format!(
                "{}: `{name}`'s wall_s is `{}`, not a time in seconds; {RERUN}",
                spath.display(),
                s.wall_s
            )));
        }
        wall[j] += Duration::from_secs_f64(s.wall_s);
    }
    Ok(())
}

/// A finished shard's run.json.
fn read_part(dir: &Path) -> Result<Part, MergeError> {
    if dir.join(journal::MANIFEST).exists() {
        return Err(MergeError::shard(
            dir,
            None,
            format!(
                "{} is an unfinished run ({}); finish it first with the same `tilebench run …` \
             command and --resume",
                dir.display(),
                journal::JOURNAL
            ),
        ));
    }
    let path = dir.join(crate::results::RUN_JSON);
    let text = std::fs::read_to_string(&path).map_err(|e| not_a_shard(&path, &e))?;
    let info: RunInfo = serde_json::from_str(&text).map_err(|e| {
        let why = format!(
            "{}:{}:{}: not a tilebench run.json ({}); {RERUN}",
            path.display(),
            e.line(),
            e.column(),
            json_reason(&e)
        );
        MergeError::shard(&path, Some(e.line() as u64), why)
    })?;
    Ok(Part {
        dir: dir.to_path_buf(),
        shard: info.shard.unwrap_or(Shard::ALL),
        info,
    })
}

/// serde_json's error without its "at line L column C" tail (the message names them first).
fn json_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The error for a shard's file that cannot be read.
fn not_a_shard(path: &Path, e: &std::io::Error) -> MergeError {
    let why = format!(
        "cannot read {}: {}; merge takes the output directories of finished \
         `tilebench run --shard I/N` runs",
        path.display(),
        io_reason(e)
    );
    MergeError::shard(path, None, why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_errors_name_their_kind_file_and_line() {
        let dir = std::env::temp_dir().join(format!("tilebench-merge-err-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("out");
        let e = merge(&[], &out, false, Vec::new()).unwrap_err();
        assert_eq!(
            (e.kind(), e.path(), e.line()),
            (MergeErrorKind::NoShard, None, None)
        );
        assert_eq!(
            e.to_string(),
            "no shard given: pass the output directory of every shard"
        );

        let missing = dir.join("missing");
        let e = merge(std::slice::from_ref(&missing), &out, false, Vec::new()).unwrap_err();
        let run_json = missing.join(crate::results::RUN_JSON);
        assert_eq!(e.kind(), MergeErrorKind::Shard);
        assert_eq!((e.path(), e.line()), (Some(run_json.as_path()), None));
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read {}: ", run_json.display())),
            "{e}"
        );

        let damaged = dir.join("damaged");
        std::fs::create_dir_all(&damaged).unwrap();
        std::fs::write(damaged.join(crate::results::RUN_JSON), "{\n\n  nope").unwrap();
        let e = merge(std::slice::from_ref(&damaged), &out, false, Vec::new()).unwrap_err();
        let run_json = damaged.join(crate::results::RUN_JSON);
        assert_eq!((e.kind(), e.line()), (MergeErrorKind::Shard, Some(3)));
        assert_eq!(e.path(), Some(run_json.as_path()));
        assert!(
            e.to_string().starts_with(&format!(
                "{}:3:3: not a tilebench run.json (",
                run_json.display()
            )),
            "{e}"
        );
        assert!(
            e.message_with_flags().ends_with(&format!("; {RERUN}")),
            "{e}"
        );
        assert!(
            e.to_string().ends_with(&format!("; {}", PHRASES[0].1)),
            "{e}"
        );
        assert!(!e.to_string().contains("--"), "{e}");
        assert!(!out.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
