//! `tilebench run`: input → solve → record → export.

use super::{parse_size, CmdResult, BAD_INPUT, FAILED, OK};
use crate::check;
use crate::cli::RunArgs;
use crate::external::protocol::{Blank, Protocol, Spawn};
use crate::external::ExternalSolver;
use crate::harness::input::{read_inputs, Case, InputOptions};
use crate::harness::interrupt;
use crate::harness::journal;
use crate::harness::runner::{self, Job, RunConfig};
use crate::harness::shard::Shard;
use crate::report::cases_csv::{self, CaseRow};
use crate::report::dashboard::{Bencher, GithubActionBenchmark};
use crate::report::markdown::Markdown;
use crate::report::run_json::RunInfo;
use crate::report::table::Table;
use crate::report::{RunReport, SummaryExport};
use crate::search::{parse_strategy_list, Limits, SolveOptions, Strategy};
use crate::util::atomic_write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where saved baselines live.
pub const BASELINES_DIR: &str = "results/baselines";

/// The files a run writes into its directory.
pub const RUN_FILES: [&str; 3] = ["cases.csv", "summary.csv", "run.json"];

/// The record's place in the shard's case × job grid (input order, then job order).
fn slot(
    dir: &Path,
    r: &crate::harness::record::Record,
    cases: &[Case],
    sh: Shard,
    names: &[String],
) -> Result<usize, String> {
    let j = names.iter().position(|n| *n == r.strategy);
    match j {
        Some(j) if r.case < cases.len() && sh.contains(r.case) => {
            Ok(sh.position(r.case) * names.len() + j)
        }
        _ => Err(format!(
            "{}: a result for case {} × `{}`, which this run does not have; the journal does \
             not belong to this run: start again with --force, or use another --out",
            dir.join(journal::JOURNAL).display(),
            r.case,
            r.strategy
        )),
    }
}

/// Starts the journal of a new run in `dir`: its manifest and empty journal files.
fn start_journal(dir: &Path, info: &RunInfo) -> Result<(), String> {
    journal::create(dir)
        .map_err(|e| format!("cannot start the journal in {}: {e}", dir.display()))?;
    let text = serde_json::to_string_pretty(info).expect("JSON") + "\n";
    atomic_write(&dir.join(journal::MANIFEST), |w| {
        std::io::Write::write_all(w, text.as_bytes())
    })
}

/// The directory `--resume` finishes: `--out DIR`, checked against this command's inputs
/// and options. A directory with no unfinished run is started afresh.
fn resume_dir(out: Option<&Path>, info: &mut RunInfo, quiet: bool) -> Result<PathBuf, String> {
    let Some(dir) = out else {
        let mut unfinished: Vec<String> = std::fs::read_dir("results")
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join(journal::MANIFEST).is_file())
            .map(|e| e.path().display().to_string())
            .collect();
        unfinished.sort();
        return Err(format!(
            "--resume needs the --out DIR of the run to finish (the command printed when it \
             stopped shows it){}",
            if unfinished.is_empty() {
                String::new()
            } else {
                format!(
                    "; unfinished runs under results/: {}",
                    unfinished.join(", ")
                )
            }
        ));
    };
    let manifest = dir.join(journal::MANIFEST);
    if !manifest.is_file() {
        if dir.join("run.json").is_file() {
            return Err(format!(
                "{} holds a finished run (run.json, no journal): nothing to resume; use it as \
                 it is, or pass --force instead of --resume to run it again",
                dir.display()
            ));
        }
        if !quiet {
            eprintln!(
                "tilebench: no unfinished run in {}; starting it",
                dir.display()
            );
        }
        let dir = prepare_out_dir(Some(dir), false, SystemTime::now())?;
        start_journal(&dir, info)?;
        return Ok(dir);
    }
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let was: RunInfo = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not a tilebench manifest ({e}); start the run again with --force",
            manifest.display()
        )
    })?;
    let mut diffs = info.differences(&was, ("now", "when started"));
    if was.shard != info.shard {
        let show = |s: &Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
        diffs.push(format!(
            "--shard: `{}` now, `{}` when started",
            show(&info.shard),
            show(&was.shard)
        ));
    }
    if !diffs.is_empty() {
        return Err(format!(
            "{} holds a run started with other inputs or options, so --resume cannot finish \
             it with this command:\n  {}\nresume it with the command it was started with \
             (`command` in {}), or start a new run with another --out (or --force)",
            dir.display(),
            diffs.join("\n  "),
            manifest.display()
        ));
    }
    info.started_at = was.started_at;
    info.command = was.command;
    Ok(dir.to_path_buf())
}

/// The command that resumes this run: this one, with its --out and --resume, without --force.
fn resume_command(out_dir: &Path, add_out: bool) -> String {
    let mut argv: Vec<String> = std::env::args().filter(|a| a != "--force").collect();
    if add_out {
        argv.push("--out".into());
        argv.push(out_dir.display().to_string());
    }
    if !argv.iter().any(|a| a == "--resume") {
        argv.push("--resume".into());
    }
    argv.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(args: RunArgs) -> CmdResult {
    let started = SystemTime::now();
    super::pdb::configure(&args.pdb);
    let input_opts = InputOptions {
        size: parse_size(&args.size)?,
        goal: args.goal.clone(),
    };
    let (files, cases) = read_inputs(&args.files, &input_opts).map_err(|e| e.to_string())?;
    if cases.is_empty() {
        return Err(format!(
            "{}: no rows to solve (only a header?); add one row per case under the header",
            files
                .iter()
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let duplicates = crate::harness::input::duplicate_ids(&cases);
    for w in duplicates.iter().take(20) {
        eprintln!("warning: {w}");
    }
    if duplicates.len() > 20 {
        eprintln!("warning: … and {} more repeated ids", duplicates.len() - 20);
    }
    let externals = external_solvers(&args)?;
    let mut jobs: Vec<Job> = choose_strategies(args.strategy.as_deref(), &cases)?
        .into_iter()
        .map(Job::Builtin)
        .collect();
    jobs.extend(externals.iter().cloned().map(Job::External));
    if jobs.is_empty() {
        return Err(
            "--strategy none leaves nothing to run; add --solver NAME=COMMAND or name a strategy"
                .into(),
        );
    }
    let names: Vec<String> = jobs.iter().map(|j| j.name().to_string()).collect();
    let threads = args.threads.unwrap_or(0);
    let solve = SolveOptions {
        exhaustive: args.exhaustive,
        limits: Limits {
            max_nodes: args.max_nodes,
            timeout: match args.timeout {
                Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
                Some(t) => return Err(format!("--timeout {t}: give a positive number of seconds")),
                None => None,
            },
            max_states: args.max_states,
        },
        hash_buckets: args.hash_buckets.max(1),
        heuristic: args
            .heuristic
            .parse()
            .map_err(|e| format!("--heuristic: {e}"))?,
    };
    // A partition that does not fit a shape would fail every case: say so once, up front.
    let informed = jobs
        .iter()
        .any(|j| matches!(j, Job::Builtin(Strategy::Astar | Strategy::Idastar)));
    if informed && solve.heuristic == crate::search::heuristic::HeuristicKind::Pdb {
        for shape in shapes_of(&cases) {
            crate::search::pdb::settings(shape)
                .map_err(|e| format!("--pdb-partition: {e} (for the {shape} boards)"))?;
        }
    }
    let shard: Option<Shard> = args
        .shard
        .as_deref()
        .map(|s| s.parse().map_err(|e| format!("--shard {e}")))
        .transpose()?;
    let mut info = RunInfo {
        tilebench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: crate::util::git_commit().map(str::to_string),
        command: std::env::args().collect(),
        threads: 0,
        cpu_model: crate::util::cpu_model(),
        started_at: crate::util::rfc3339(started),
        wall_s: 0.0,
        inputs: files,
        strategies: names.clone(),
        prepare_s: Default::default(),
        exhaustive: args.exhaustive,
        repeat: args.repeat,
        max_nodes: args.max_nodes,
        timeout_s: args.timeout,
        hash_buckets: solve.hash_buckets,
        heuristic: solve.heuristic.name().to_string(),
        pdb: (solve.heuristic == crate::search::heuristic::HeuristicKind::Pdb).then(|| {
            let c = crate::search::pdb::current();
            crate::report::run_json::PdbInfo {
                partition: c.partition.unwrap_or_else(|| "default".into()),
                reflection: !c.no_reflection,
                dir: c
                    .dir
                    .unwrap_or_else(crate::search::pdb::default_dir)
                    .display()
                    .to_string(),
            }
        }),
        max_states: args.max_states,
        paths: args.paths,
        latency: "wall time of each solve alone (parsing and output excluded), in ns; \
                  with --repeat K, latency_ns is the median and latency_min_ns the fastest"
            .into(),
        external_solvers: externals.iter().map(|e| e.info()).collect(),
        size: args.size.clone(),
        goal: args.goal.clone(),
        shard,
        sessions: None,
        merged_from: Vec::new(),
    };
    let out_dir = if args.resume {
        resume_dir(args.out.as_deref(), &mut info, args.quiet)?
    } else {
        let dir = prepare_out_dir(args.out.as_deref(), args.force, started)?;
        start_journal(&dir, &info)?;
        dir
    };
    if !externals.is_empty() && args.timeout.is_none() && !args.quiet {
        eprintln!(
            "tilebench: no --timeout: a --solver program that never answers a case stalls the \
             run; pass --timeout SECONDS to make such cases `limit` rows"
        );
    }

    // What is left to do: the shard's case × job grid minus the journal's records.
    let sh = shard.unwrap_or(Shard::ALL);
    let k = names.len();
    let slots = sh.len(cases.len()) * k;
    let loaded = journal::load(&out_dir)?;
    let mut done = vec![false; slots];
    for r in &loaded.records {
        done[slot(&out_dir, r, &cases, sh, &names)?] = true;
    }
    let already = done.iter().filter(|&&d| d).count();
    let todo: Vec<Vec<usize>> = (0..k)
        .map(|j| {
            sh.cases(cases.len())
                .filter(|&i| !done[sh.position(i) * k + j])
                .collect()
        })
        .collect();
    let next_session = loaded.last_session + 1;
    drop(loaded);
    if args.resume && already > 0 {
        eprintln!(
            "tilebench: resuming {}: {already} of {slots} case × strategy jobs were done, {} to go",
            out_dir.display(),
            slots - already
        );
    }

    let cfg = RunConfig {
        jobs,
        threads,
        solve,
        repeat: args.repeat,
        keep_paths: args.paths,
        progress: !args.quiet,
    };
    let t0 = std::time::Instant::now();
    interrupt::install();
    // A run that starts afresh keeps its records in memory too, rather than read 1M journal
    // lines back for the final files; a resumed one reads every session's from the journal.
    let fresh = already == 0;
    let writer = journal::Writer::open(&out_dir, next_session, names.clone(), fresh)?;
    let session = runner::run_into(&cases, &cfg, &todo, &writer, &interrupt::STOP);
    let kept = writer.finish()?;
    let session = session?;
    if session.stopped {
        let saved = already + session.solved;
        eprintln!(
            "tilebench: interrupted; {saved} of {slots} case × strategy jobs are saved in {}. \
             To finish the run, run:\n  {}",
            out_dir.join(journal::JOURNAL).display(),
            resume_command(&out_dir, args.out.is_none())
        );
        return Ok(if interrupt::requested() {
            interrupt::exit_code()
        } else {
            130
        });
    }
    let session_s = t0.elapsed().as_secs_f64();

    // The final files: this session's records, or every session's from the journal.
    let (all, wall, prepare, last_session) = if fresh {
        (
            kept,
            session.wall.clone(),
            session.prepare.clone(),
            next_session,
        )
    } else {
        let loaded = journal::load(&out_dir)?;
        let by_name = |m: &std::collections::BTreeMap<String, Duration>| -> Vec<Duration> {
            names
                .iter()
                .map(|n| m.get(n).copied().unwrap_or_default())
                .collect()
        };
        let (wall, prepare) = (by_name(&loaded.wall), by_name(&loaded.prepare));
        (loaded.records, wall, prepare, loaded.last_session)
    };
    let mut grid: Vec<Option<crate::harness::record::Record>> = vec![None; slots];
    for r in all {
        let at = slot(&out_dir, &r, &cases, sh, &names)?;
        grid[at] = Some(r);
    }
    let records: Vec<_> = grid.into_iter().flatten().collect();
    if records.len() != slots {
        return Err(format!(
            "{}: the journal holds {} of the {slots} results after the run; run again with --resume",
            out_dir.join(journal::JOURNAL).display(),
            records.len()
        ));
    }
    let report = RunReport::new(&cases, &records, &names, &wall);
    let cases_path = out_dir.join("cases.csv");
    atomic_write(&cases_path, |w| {
        cases_csv::write(w, &cases, &records).map_err(std::io::Error::other)
    })?;
    info.threads = session.threads;
    info.prepare_s = names
        .iter()
        .zip(&prepare)
        .map(|(n, d)| (n.clone(), d.as_secs_f64()))
        .collect();
    info.sessions = (last_session > 1).then_some(last_session);
    info.wall_s = if last_session > 1 {
        // Time spent solving, summed over the sessions.
        info.prepare_s.values().sum::<f64>() + wall.iter().map(Duration::as_secs_f64).sum::<f64>()
    } else {
        session_s
    };
    crate::report::write_run_files(&out_dir, &report, &wall, started, &info)?;
    journal::remove(&out_dir);
    let wall_s = session_s;
    let summaries = report.summaries;
    let output = runner::RunOutput {
        records,
        wall,
        prepare: Vec::new(),
        threads: session.threads,
    };

    // Extra exports.
    let exports: [(&Option<PathBuf>, &dyn SummaryExport); 3] = [
        (&args.export_markdown, &Markdown),
        (&args.export_bmf, &Bencher),
        (&args.export_github_benchmark, &GithubActionBenchmark),
    ];
    for (path, exporter) in exports {
        if let Some(p) = path {
            std::fs::write(p, exporter.render(&summaries))
                .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
    }

    if !args.quiet {
        print!("{}", Table.render(&summaries));
    }
    eprintln!(
        "tilebench: {} cases × {} strategies on {} threads in {:.2} s; results in {}",
        sh.len(cases.len()),
        names.len(),
        output.threads,
        wall_s,
        out_dir.display()
    );

    if let Some(name) = &args.save_baseline {
        let dest = save_baseline(&out_dir, name)?;
        eprintln!(
            "tilebench: saved as baseline `{name}` in {}",
            dest.display()
        );
    }

    // Problems, after the data is safely written.
    let invalid: Vec<&Case> = sh
        .cases(cases.len())
        .map(|i| &cases[i])
        .filter(|c| c.problem.is_err())
        .collect();
    let shown = |label: &str, messages: &[&str]| {
        for m in messages.iter().take(20) {
            eprintln!("{label}: {m}");
        }
        if messages.len() > 20 {
            eprintln!(
                "{label}: … and {} more (see the message column of {})",
                messages.len() - 20,
                cases_path.display()
            );
        }
    };
    let invalid_messages: Vec<&str> = invalid
        .iter()
        .map(|c| c.problem.as_ref().unwrap_err().as_str())
        .collect();
    shown("invalid", &invalid_messages);
    let errors: Vec<&str> = output
        .records
        .iter()
        .filter(|r| r.status == crate::harness::record::RowStatus::Error)
        .map(|r| r.message.as_str())
        .collect();
    shown("error", &errors);
    // The rows as written, for the answer checks; built only when something reads them
    // (a row allocates its strings, which a million-row run should not pay for nothing).
    let rows: Vec<CaseRow> = if args.check || !externals.is_empty() {
        output
            .records
            .iter()
            .map(|r| CaseRow::new(&cases[r.case], r))
            .collect()
    } else {
        Vec::new()
    };
    let bad_answers = check::external_failures(&rows);
    if !args.check && !bad_answers.is_empty() {
        for s in summaries.iter().filter(|s| s.wrong + s.non_optimal > 0) {
            eprintln!(
                "tilebench: {} gave {} wrong and {} non-optimal answer(s) (status, optimal and \
                 message columns of {}); --check fails on them",
                s.strategy,
                s.wrong,
                s.non_optimal,
                cases_path.display()
            );
        }
    }
    let mut code = OK;
    if args.check {
        let mut failures = check::mismatches(&rows);
        failures.extend(check::disagreements(&rows));
        failures.extend(bad_answers);
        if failures.is_empty() {
            eprintln!(
                "check: every answer matches expected_steps and optimal strategies agree{}",
                if externals.is_empty() {
                    ""
                } else {
                    "; every external answer is right and optimal"
                }
            );
        } else {
            for f in failures.iter().take(50) {
                eprintln!("check failed: {f}");
            }
            eprintln!("check: {} failure(s)", failures.len());
            code = FAILED;
        }
    }
    if !invalid.is_empty() || !errors.is_empty() {
        eprintln!(
            "tilebench: {} invalid row(s), {} error row(s); every row is in {} (status and message columns)",
            invalid.len(),
            errors.len(),
            cases_path.display()
        );
        code = BAD_INPUT;
    }
    Ok(code)
}

/// The --solver programs, with the run's protocol options.
fn external_solvers(args: &RunArgs) -> Result<Vec<ExternalSolver>, String> {
    let protocol: Protocol = args
        .solver_protocol
        .parse()
        .map_err(|e| format!("--solver-protocol: {e}"))?;
    let blank: Blank = args
        .solver_blank
        .parse()
        .map_err(|e| format!("--solver-blank: {e}"))?;
    let spawn: Spawn = args
        .solver_spawn
        .parse()
        .map_err(|e| format!("--solver-spawn: {e}"))?;
    let mut out: Vec<ExternalSolver> = Vec::new();
    for spec in &args.solvers {
        let s = ExternalSolver::parse(spec, protocol, blank, spawn)?;
        if out.iter().any(|o| o.name.eq_ignore_ascii_case(&s.name)) {
            return Err(format!(
                "--solver `{spec}`: the name `{}` is taken (names become file names, so case \
                 does not count); give each program its own name",
                s.name
            ));
        }
        out.push(s);
    }
    Ok(out)
}

/// The strategies to run: the ones named (`none`: no built-in strategy), or by default every
/// strategy that fits every board.
fn choose_strategies(arg: Option<&str>, cases: &[Case]) -> Result<Vec<Strategy>, String> {
    if let Some(list) = arg {
        if list.trim().eq_ignore_ascii_case("none") {
            return Ok(Vec::new());
        }
        return parse_strategy_list(list).map_err(|e| format!("--strategy: {e}"));
    }
    let shapes = shapes_of(cases);
    Ok(Strategy::ALL
        .into_iter()
        .filter(|s| shapes.iter().all(|&sh| s.check(sh).is_ok()))
        .collect())
}

/// The board shapes of the valid cases, each once.
fn shapes_of(cases: &[Case]) -> Vec<crate::puzzle::Shape> {
    let mut shapes: Vec<_> = cases
        .iter()
        .filter_map(|c| c.problem.as_ref().ok().map(|p| p.start.shape()))
        .collect();
    shapes.sort();
    shapes.dedup();
    shapes
}

/// Creates the output directory, refusing to overwrite an earlier run unless `force`.
pub(crate) fn prepare_out_dir(
    out: Option<&Path>,
    force: bool,
    started: SystemTime,
) -> Result<PathBuf, String> {
    let dir = match out {
        Some(d) => d.to_path_buf(),
        None => {
            let base = format!("results/run-{}", crate::util::compact_timestamp(started));
            let mut dir = PathBuf::from(&base);
            let mut n = 2;
            while dir.exists() {
                dir = PathBuf::from(format!("{base}-{n}"));
                n += 1;
            }
            dir
        }
    };
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "the output directory {} is a file, not a directory; choose another --out",
            dir.display()
        ));
    }
    if !force && dir.join(journal::MANIFEST).exists() {
        return Err(format!(
            "{} holds an unfinished run ({}); add --resume to finish it, or pass --force to \
             start it again",
            dir.display(),
            journal::JOURNAL
        ));
    }
    if !force && RUN_FILES.iter().any(|f| dir.join(f).exists()) {
        return Err(format!(
            "{} already holds a run; pass --force to overwrite it, or choose another --out",
            dir.display()
        ));
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create the output directory {}: {e}", dir.display()))?;
    // Fail now, not after solving, if the directory is not writable.
    let probe = dir.join(".tilebench-write-test");
    std::fs::write(&probe, b"").map_err(|e| {
        format!(
            "cannot write into the output directory {}: {e}",
            dir.display()
        )
    })?;
    let _ = std::fs::remove_file(probe);
    Ok(dir)
}

/// Copies a finished run to results/baselines/NAME (replacing an older baseline of that name).
pub fn save_baseline(run_dir: &Path, name: &str) -> Result<PathBuf, String> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(format!(
            "--save-baseline `{name}`: a baseline name is one plain word, e.g. `main`"
        ));
    }
    let dest = Path::new(BASELINES_DIR).join(name);
    std::fs::create_dir_all(&dest).map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
    let entries = std::fs::read_dir(run_dir)
        .map_err(|e| format!("cannot read {}: {e}", run_dir.display()))?;
    for entry in entries.flatten() {
        let p = entry.path();
        if p.is_file() {
            let to = dest.join(entry.file_name());
            std::fs::copy(&p, &to).map_err(|e| format!("cannot copy to {}: {e}", to.display()))?;
        }
    }
    Ok(dest)
}
