//! `tilebench report`: one self-contained HTML page of one or more finished runs.

use super::{CmdResult, OK};
use crate::cli::ReportArgs;
use tilebench::plot;
use tilebench::plot::html;

pub fn run(args: ReportArgs) -> CmdResult {
    if args.out.is_dir() {
        return Err(format!(
            "{} is a directory; give the HTML file to write, e.g. --out {}/report.html",
            args.out.display(),
            args.out.display()
        ));
    }
    let runs = plot::load_all(&args.runs).map_err(|e| super::flags::plot_in_flags(&e))?;
    let mut report = html::Report::new(&runs, &args.pairs.selection())
        .map_err(|e| super::flags::plot_in_flags(&e))?;
    // The coverage table and the ranking (`tilebench table`'s), from the same runs.
    report.tables = Some(tilebench::table::report_fragment(&args.runs).map_err(|e| e.to_string())?);
    let title = args.title.unwrap_or_else(|| {
        let names: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
        format!("tilebench: {}", names.join(" vs "))
    });
    let page_dir = match args.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let text = html::page(&title, &runs, &report, &page_dir);
    tilebench::cli_support::atomic_write(&args.out, |w| {
        std::io::Write::write_all(w, text.as_bytes())
    })?;
    for note in &report.notes {
        eprintln!("report: {note}");
    }
    for c in &report.compared {
        eprintln!(
            "{}: {}",
            tilebench::stats::faster_or_slower(
                &c.current,
                &c.baseline,
                "per case",
                &c.comparison.mean
            ),
            c.word(c.verdict())
        );
    }
    eprintln!(
        "tilebench: wrote {} ({} charts)",
        args.out.display(),
        report.charts.drawn.len()
    );
    Ok(OK)
}
