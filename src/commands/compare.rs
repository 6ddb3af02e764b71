//! `tilebench compare`: the arguments as a [`Plan`], the comparison made by the library, its
//! text on stdout and its exports written; exit 0 no regression, 1 regression, 2 unusable
//! input.

use super::{CmdResult, FAILED, OK};
use crate::cli::CompareArgs;
use std::path::Path;
use tilebench::cli_support::BASELINES_DIR;
use tilebench::compare::{self, render, Plan, Subject, Thresholds};

/// The plan the arguments ask for.
fn plan(args: &CompareArgs) -> Result<Plan, String> {
    let subject = match (&args.strategies, &args.baseline_name, args.runs.as_slice()) {
        (Some(names), None, [run]) => Subject::Solvers {
            run: run.clone(),
            solvers: names.iter().map(|n| n.trim().to_string()).collect(),
            reference: args.reference.clone(),
            all_pairs: args.all_pairs,
        },
        (Some(_), _, _) => {
            return Err(
                "with --strategies A,B, give one RESULTS (a run, or a directory of \
                        replicate runs), whose strategies A and B are compared"
                    .into(),
            )
        }
        (None, Some(name), current) => Subject::Runs {
            runs: std::iter::once(Path::new(BASELINES_DIR).join(name))
                .chain(current.iter().cloned())
                .collect(),
            reference: args.reference.clone(),
            all_pairs: args.all_pairs,
        },
        (None, None, [_]) => {
            return Err(
                "give BASELINE and CURRENT results (directories or cases.csv), or \
                        --baseline NAME and CURRENT, or one RESULTS with --strategies A,B"
                    .into(),
            )
        }
        (None, None, runs) => Subject::Runs {
            runs: runs.to_vec(),
            reference: args.reference.clone(),
            all_pairs: args.all_pairs,
        },
    };
    Ok(Plan {
        subject,
        thresholds: Thresholds {
            max_work_increase_pct: args.max_work_increase,
            max_latency_increase_pct: args.max_latency_increase,
            noise_threshold_pct: args.noise_threshold,
        },
        show: args.show,
    })
}

pub fn run(args: CompareArgs) -> CmdResult {
    let plan = plan(&args)?;
    let mut exports = args.exports.clone();
    for (name, file) in [
        ("markdown", &args.export_markdown),
        ("json", &args.export_json),
    ] {
        if let Some(f) = file {
            let format = render::format(name).map_err(|e| e.to_string())?;
            exports.push((format, f.clone()));
        }
    }
    let c = compare::compare(&plan).map_err(|e| super::flags::compare_in_flags(&e))?;
    print!("{}", render::text(&c));
    for (format, file) in &exports {
        let text = format.export.render(&c);
        tilebench::cli_support::atomic_write(file, |w| {
            std::io::Write::write_all(w, text.as_bytes())
        })?;
    }
    Ok(if c.regressed() { FAILED } else { OK })
}
