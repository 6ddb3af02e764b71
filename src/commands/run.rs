//! `tilebench run`: input → solve → record → export.

use super::{parse_size, CmdResult, BAD_INPUT, FAILED, OK};
use crate::check;
use crate::cli::RunArgs;
use crate::harness::input::{read_inputs, Case, InputOptions};
use crate::harness::runner::{self, RunConfig};
use crate::report::cases_csv::{self, CaseRow};
use crate::report::dashboard::{Bencher, GithubActionBenchmark};
use crate::report::markdown::Markdown;
use crate::report::run_json::RunInfo;
use crate::report::summary::SummaryCsv;
use crate::report::table::Table;
use crate::report::{hgrm, RunReport, SummaryExport};
use crate::search::{parse_strategy_list, Limits, SolveOptions, Strategy};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where saved baselines live.
pub const BASELINES_DIR: &str = "results/baselines";

/// The files a run writes into its directory.
pub const RUN_FILES: [&str; 3] = ["cases.csv", "summary.csv", "run.json"];

pub fn run(args: RunArgs) -> CmdResult {
    let started = SystemTime::now();
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
    let strategies = choose_strategies(args.strategy.as_deref(), &cases)?;
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
    let out_dir = prepare_out_dir(args.out.as_deref(), args.force, started)?;

    let cfg = RunConfig {
        strategies: strategies.clone(),
        threads,
        solve,
        repeat: args.repeat,
        keep_paths: args.paths,
        progress: !args.quiet,
    };
    let t0 = std::time::Instant::now();
    let output = runner::run(&cases, &cfg)?;
    let wall_s = t0.elapsed().as_secs_f64();
    let report = RunReport::new(&cases, &output.records, &strategies, &output.wall);

    // Write every file.
    let write = |name: &str, text: &str| -> Result<(), String> {
        let p = out_dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    let cases_path = out_dir.join("cases.csv");
    let f = std::fs::File::create(&cases_path)
        .map_err(|e| format!("cannot write {}: {e}", cases_path.display()))?;
    cases_csv::write(std::io::BufWriter::new(f), &cases, &output.records)
        .map_err(|e| format!("cannot write {}: {e}", cases_path.display()))?;
    write("summary.csv", &SummaryCsv.render(&report.summaries))?;
    for (s, h) in strategies.iter().zip(&report.histograms) {
        write(
            &format!("latency-{}.hgrm", s.name()),
            &hgrm::percentile_text(h),
        )?;
    }
    let mut hlog = Vec::new();
    let entries: Vec<_> = strategies
        .iter()
        .zip(&report.histograms)
        .zip(&output.wall)
        .map(|((s, h), w)| (s.name(), h, *w))
        .collect();
    hgrm::write_interval_log(&mut hlog, started, &entries)
        .map_err(|e| format!("cannot serialize histograms: {e}"))?;
    std::fs::write(out_dir.join("latency.hlog"), hlog).map_err(|e| {
        format!(
            "cannot write {}: {e}",
            out_dir.join("latency.hlog").display()
        )
    })?;
    let info = RunInfo {
        tilebench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: crate::util::git_commit().map(str::to_string),
        command: std::env::args().collect(),
        threads: output.threads,
        cpu_model: crate::util::cpu_model(),
        started_at: crate::util::rfc3339(started),
        wall_s,
        inputs: files,
        strategies: strategies.iter().map(|s| s.name().to_string()).collect(),
        exhaustive: args.exhaustive,
        repeat: args.repeat,
        max_nodes: args.max_nodes,
        timeout_s: args.timeout,
        hash_buckets: solve.hash_buckets,
        heuristic: solve.heuristic.name().to_string(),
        max_states: args.max_states,
        paths: args.paths,
        latency: "wall time of each solve alone (parsing and output excluded), in ns; \
                  with --repeat K, latency_ns is the median and latency_min_ns the fastest"
            .into(),
    };
    write(
        "run.json",
        &(serde_json::to_string_pretty(&info).expect("JSON") + "\n"),
    )?;

    // Extra exports.
    let exports: [(&Option<PathBuf>, &dyn SummaryExport); 3] = [
        (&args.export_markdown, &Markdown),
        (&args.export_bmf, &Bencher),
        (&args.export_github_benchmark, &GithubActionBenchmark),
    ];
    for (path, exporter) in exports {
        if let Some(p) = path {
            std::fs::write(p, exporter.render(&report.summaries))
                .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
    }

    if !args.quiet {
        print!("{}", Table.render(&report.summaries));
    }
    eprintln!(
        "tilebench: {} cases × {} strategies on {} threads in {:.2} s; results in {}",
        cases.len(),
        strategies.len(),
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
    let invalid: Vec<&Case> = cases.iter().filter(|c| c.problem.is_err()).collect();
    for c in invalid.iter().take(20) {
        eprintln!("invalid: {}", c.problem.as_ref().unwrap_err());
    }
    if invalid.len() > 20 {
        eprintln!(
            "invalid: … and {} more (see the message column of {})",
            invalid.len() - 20,
            cases_path.display()
        );
    }
    let errors: Vec<_> = output
        .records
        .iter()
        .filter(|r| r.status == crate::harness::record::RowStatus::Error)
        .collect();
    for r in errors.iter().take(20) {
        eprintln!("error: {}", r.message);
    }
    let mut code = OK;
    if args.check {
        let rows: Vec<CaseRow> = output
            .records
            .iter()
            .map(|r| CaseRow::new(&cases[r.case], r))
            .collect();
        let mut failures = check::mismatches(&rows);
        failures.extend(check::disagreements(&rows));
        if failures.is_empty() {
            eprintln!("check: every answer matches expected_steps and optimal strategies agree");
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

/// The strategies to run: the ones named, or by default every strategy that fits every board.
fn choose_strategies(arg: Option<&str>, cases: &[Case]) -> Result<Vec<Strategy>, String> {
    if let Some(list) = arg {
        return parse_strategy_list(list).map_err(|e| format!("--strategy: {e}"));
    }
    let mut shapes: Vec<_> = cases
        .iter()
        .filter_map(|c| c.problem.as_ref().ok().map(|p| p.start.shape()))
        .collect();
    shapes.sort();
    shapes.dedup();
    Ok(Strategy::ALL
        .into_iter()
        .filter(|s| shapes.iter().all(|&sh| s.check(sh).is_ok()))
        .collect())
}

/// Creates the output directory, refusing to overwrite an earlier run unless `force`.
fn prepare_out_dir(
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
