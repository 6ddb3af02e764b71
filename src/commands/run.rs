//! `tilebench run`: the arguments become a [`RunPlan`], the library runs it, and the outcome
//! becomes messages and an exit code.

use super::flags::{self, in_flags, plan_in_flags};
use super::{CmdResult, BAD_INPUT, FAILED, OK};
use crate::cli::RunArgs;
use std::time::Duration;
use tilebench::check::AllowLimit;
use tilebench::cli_support::interrupt;
use tilebench::cli_support::resume_command;
use tilebench::cli_support::PerSolver;
use tilebench::dataset::InputOptions;
use tilebench::external::protocol::{Blank, Protocol};
use tilebench::external::ExternalSolver;
use tilebench::harness::pipeline::{execute_with, Ending};
use tilebench::harness::plan::{Export, OutMode, RunPlan};
use tilebench::harness::runner::Order;
use tilebench::report::table::Table;
use tilebench::report::{format, SummaryExport};
use tilebench::search::configuration::Configuration;
use tilebench::search::{Claim, Limits};

/// `-s`'s values: plain names (comma lists) and configurations (`NAME:KEY=VALUE`,
/// `LABEL=NAME…`); with --sweep, or when any value is a configuration, every name is a
/// configuration (so the solvers keep the order given), multiplied by the sweeps. A comma
/// list that holds a configuration is split (no option's value holds a comma, and a label
/// may not).
fn strategy_texts(args: &RunArgs, base: &tilebench::search::Config) -> Result<Vec<String>, String> {
    let mut texts: Vec<String> = args
        .strategy
        .iter()
        .flat_map(|t| {
            if t.contains([':', '=']) && t.contains(',') {
                t.split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect()
            } else {
                vec![t.clone()]
            }
        })
        .collect();
    let configured = texts.iter().any(|t| t.contains([':', '=']));
    if !args.sweep.is_empty() || configured {
        texts = texts
            .iter()
            .flat_map(|t| {
                if t.contains([':', '=']) {
                    vec![t.clone()]
                } else {
                    tilebench::search::registry::parse_list(t)
                        .map(|v| v.iter().map(|b| b.name.to_string()).collect())
                        .unwrap_or_else(|_| vec![t.clone()])
                }
            })
            .collect();
        for s in &args.sweep {
            texts = tilebench::search::configuration::sweep(texts, s, base)
                .map_err(|e| flags::sweep_in_flags(&e))?;
        }
        texts = texts
            .into_iter()
            .map(|t| {
                if t.contains([':', '=']) {
                    t
                } else {
                    format!("{t}:")
                }
            })
            .collect();
    }
    Ok(texts)
}

/// The plan the arguments describe, checked.
fn plan(args: RunArgs) -> Result<RunPlan, String> {
    let mut config =
        super::solve::config_of(args.exhaustive, (args.heuristic, args.weight), &args.pdb)?;
    config.set(
        &tilebench::search::bfs_hash::BUCKETS,
        &args.hash_buckets.to_string(),
    )?;
    let texts = strategy_texts(&args, &config)?;
    let mut plan = RunPlan::new(args.files.clone()).with_config(config);
    let (configured, plain): (Vec<&String>, Vec<&String>) =
        texts.iter().partition(|s| s.contains([':', '=']));
    if !args.strategy.is_empty() {
        let list: Vec<&str> = plain.iter().map(|s| s.as_str()).collect();
        plan = plan
            .with_strategies(&if list.is_empty() {
                "none".to_string()
            } else {
                list.join(",")
            })
            .map_err(|e| plan_in_flags(&e))?;
    }
    plan = plan.with_input(InputOptions {
        size: args.size,
        goal: args.goal.clone(),
    });
    let per = |e| flags::per_solver_in_flags(&e);
    let claims = PerSolver::<Claim>::parse("--solver-claim", &args.solver_claim).map_err(per)?;
    let protocols =
        PerSolver::<Protocol>::parse("--solver-protocol", &args.solver_protocol).map_err(per)?;
    let blanks = PerSolver::<Blank>::parse("--solver-blank", &args.solver_blank).map_err(per)?;
    for text in configured {
        let c = Configuration::parse(text, plan.config())
            .map_err(|e| flags::configuration_in_flags(&e))?;
        plan = plan.with(c);
    }
    let programs: Vec<ExternalSolver> = args
        .solvers
        .iter()
        .map(|spec| {
            let mut e = ExternalSolver::parse(spec, Protocol::Moves, Blank::X, args.solver_spawn)
                .map_err(|e| flags::external_in_flags(&e))?;
            e.stdout = args.solver_stdout;
            e.strict = args.solver_strict;
            e.claim = claims.get(&e.name).copied().unwrap_or_default();
            e.protocol = protocols.get(&e.name).copied().unwrap_or(Protocol::Moves);
            e.blank = blanks.get(&e.name).copied().unwrap_or(Blank::X);
            Ok(e)
        })
        .collect::<Result<_, String>>()?;
    let names: Vec<&str> = programs.iter().map(|e| e.name.as_str()).collect();
    claims.check_names("--solver-claim", &names).map_err(per)?;
    protocols
        .check_names("--solver-protocol", &names)
        .map_err(per)?;
    blanks.check_names("--solver-blank", &names).map_err(per)?;
    for program in programs {
        plan = plan.with(program);
    }
    Ok(with_outputs(plan, &args))
}

/// The plan's budget, threads and outputs, as the arguments say.
fn with_outputs(mut plan: RunPlan, args: &RunArgs) -> RunPlan {
    // In range: cli's parser takes 0.000001 to MAX_SECONDS.
    let timeout = args.timeout.map(Duration::from_secs_f64);
    if let Some(out) = &args.out {
        plan = plan.with_out(out);
    }
    plan = plan
        .with_limits(Limits {
            max_nodes: args.max_nodes,
            timeout,
            max_states: args.max_states,
            max_memory: args.max_memory,
        })
        .with_threads(args.threads.unwrap_or(0))
        .with_repeat(args.repeat)
        .with_paths(args.paths)
        .with_order(match args.order {
            crate::cli::TurnOrder::Shuffled => Order::Shuffled { seed: args.seed },
            crate::cli::TurnOrder::Blocked => Order::Blocked,
        })
        .with_mode(match (args.resume, args.force) {
            (true, _) => OutMode::Resume,
            (false, true) => OutMode::Force,
            (false, false) => OutMode::New,
        });
    if let Some(shard) = args.shard {
        plan = plan.with_shard(shard);
    }
    if let Some(rows) = &args.rows {
        plan = plan.with_rows(rows.clone());
    }
    let aliases = [
        (&args.export_markdown, "markdown"),
        (&args.export_bmf, "bmf"),
        (&args.export_github_benchmark, "github-benchmark"),
    ];
    let aliased = aliases
        .into_iter()
        .filter_map(|(p, name)| Some((format(name).ok()?, p.clone()?)));
    for (format, path) in args.exports.iter().cloned().chain(aliased) {
        plan = plan.with_export(Export { path, format });
    }
    if let Some(name) = &args.save_baseline {
        plan = plan.saving_baseline(name);
    }
    plan.with_command(std::env::args().collect())
}

/// `--allow-limit`'s values, each naming a solver of the run: a built-in strategy, a
/// configuration's label or a `--solver` program.
fn allow_limit(values: &[String], plan: &RunPlan) -> Result<AllowLimit, String> {
    let allow = AllowLimit::new(values).map_err(|e| flags::allow_in_flags(&e))?;
    for (name, _) in &allow.named {
        let label = plan
            .configurations()
            .any(|c| c.label.eq_ignore_ascii_case(name));
        let external = plan.programs().any(|e| e.name.eq_ignore_ascii_case(name));
        if !label && !external && tilebench::search::registry::find(name).is_none() {
            return Err(format!(
                "--allow-limit {name}=…: `{name}` is neither a built-in strategy ({}), a \
                 configuration's label nor a --solver NAME; name a solver of the run",
                tilebench::search::registry::names().join(", ")
            ));
        }
    }
    Ok(allow)
}

pub fn run(args: RunArgs) -> CmdResult {
    let began = std::time::Instant::now();
    if args
        .strategy
        .iter()
        .any(|s| s.trim().eq_ignore_ascii_case("list"))
    {
        for b in tilebench::search::registry::all() {
            println!("{:12} {}", b.name, b.describe);
            for k in tilebench::search::registry::options_of(b) {
                let flag = match k.flag() {
                    "" => String::new(),
                    f => format!("; {f} sets it for all"),
                };
                println!(
                    "{:12}   {}={}: {}; takes {}{flag}",
                    "",
                    k.name(),
                    k.default(),
                    k.help(),
                    k.range()
                );
            }
        }
        return Ok(OK);
    }
    let (quiet, add_out) = (args.quiet, args.out.is_none());
    let (check, allowed) = (args.check, args.allow_limit.clone());
    let terminal = super::terminal::Terminal::new(quiet);
    interrupt::install();
    let plan = plan(args)?;
    let check = check.then(|| allow_limit(&allowed, &plan)).transpose()?;
    let plan = plan.with_allow_limit(check.clone().unwrap_or_default());
    let run = match execute_with(plan, &terminal, &interrupt::STOP).map_err(|e| in_flags(&e))? {
        Ending::Finished(run) => run,
        Ending::Stopped(s) => {
            eprintln!(
                "tilebench: interrupted; {} of {} case × strategy jobs are saved in {}. \
                 To finish the run, run:\n  {}",
                s.saved,
                s.total,
                s.dir.path().display(),
                resume_command(&std::env::args().collect::<Vec<_>>(), s.dir.path(), add_out)
            );
            return Ok(if interrupt::requested() {
                interrupt::exit_code()
            } else {
                130
            });
        }
    };
    if !quiet {
        print!("{}", Table.render(&run.summaries));
    }
    let k = run.solvers.len();
    eprintln!(
        "tilebench: {} cases × {k} {} on {} threads in {:.2} s ({:.2} s of it solving); results \
         in {}",
        run.shard.len(run.cases),
        if k == 1 { "strategy" } else { "strategies" },
        run.threads,
        began.elapsed().as_secs_f64(),
        run.wall.as_secs_f64(),
        run.dir.path().display()
    );
    if let Some((name, dest)) = &run.baseline {
        eprintln!(
            "tilebench: saved as baseline `{name}` in {}",
            dest.display()
        );
    }
    let verdict = run.verdict(check.as_ref());
    for line in &verdict.lines_with_flags {
        eprintln!("{line}");
    }
    Ok(if verdict.bad_rows {
        BAD_INPUT
    } else if verdict.check_failed {
        FAILED
    } else {
        OK
    })
}
