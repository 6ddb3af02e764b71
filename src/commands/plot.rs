//! `tilebench plot`: SVG charts of one or more finished runs.

use super::{CmdResult, OK};
use crate::cli::PlotArgs;
use tilebench::plot::{self, LatencySource};

pub fn run(args: PlotArgs) -> CmdResult {
    let out = match (&args.out, args.runs.as_slice()) {
        (Some(d), _) => d.clone(),
        (None, [one]) => plot::results_dir(one).map_err(|e| super::flags::plot_in_flags(&e))?,
        (None, _) => {
            return Err(format!(
                "{} result directories given: say where the charts go with --out DIR",
                args.runs.len()
            ))
        }
    };
    let runs = plot::load_all(&args.runs).map_err(|e| super::flags::plot_in_flags(&e))?;
    let drawn =
        plot::draw(&runs, &args.pairs.selection()).map_err(|e| super::flags::plot_in_flags(&e))?;
    std::fs::create_dir_all(&out)
        .map_err(|e| format!("cannot create the output directory {}: {e}", out.display()))?;
    for run in &runs {
        if run.latency_source == LatencySource::CasesCsv {
            eprintln!(
                "plot: {} has no {}; latency is read from cases.csv's latency_ns",
                run.dir.display(),
                tilebench::results::LATENCY_HLOG
            );
        }
    }
    for note in &drawn.notes {
        eprintln!("plot: {note}");
    }
    let mut written = Vec::new();
    for (name, svg) in &drawn.charts.drawn {
        let p = out.join(name);
        std::fs::write(&p, svg).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        written.push(p.display().to_string());
    }
    eprintln!("tilebench: wrote {}", written.join(", "));
    Ok(OK)
}
