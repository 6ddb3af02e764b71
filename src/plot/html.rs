//! `tilebench report`: one self-contained HTML page of one or more runs, what a reviewer
//! opens from a CI artifact. It holds each run's summary table, the paired latency
//! comparisons with their intervals and verdicts, every chart `plot` draws (inline SVG) and
//! links to the CSV files. No script, no stylesheet or font fetched from anywhere: the page
//! reads the same offline.
//!
//! The page is well-formed XML (XHTML syntax in an HTML5 document), so tests parse it.

use crate::plot::charts::Charts;
use crate::plot::per_case::paired_latency;
use crate::plot::select::{label_of, Plan, Reference, Selection};
use crate::plot::RunData;
use crate::stats::{self, Comparison, Verdict};
use std::fmt::Write;
use std::path::Path;

/// Changes smaller than this (2%) are noise, whatever the interval says.
pub(crate) const NOISE: f64 = 0.02;

/// One paired latency comparison on the page.
pub struct Compared {
    /// The side compared (y of the scatter), e.g. `idastar` or `pr/astar`.
    pub current: String,
    /// The side it is compared with (x), e.g. `astar` or `main/astar`.
    pub baseline: String,
    /// The ratios current/baseline with their intervals.
    pub comparison: Comparison,
    /// Two runs (a change over time: criterion's words), not two strategies of one run
    /// (faster or slower).
    pub across_runs: bool,
}

impl Compared {
    /// The verdict at the `NOISE` threshold.
    pub fn verdict(&self) -> Verdict {
        self.comparison.verdict(NOISE, NOISE)
    }

    /// The verdict's word for this comparison: criterion's between two runs ("regressed",
    /// "improved", …); "slower", "faster", "within noise", "no difference" between two
    /// strategies.
    pub fn word(&self, v: Verdict) -> &'static str {
        match (self.across_runs, v) {
            (true, v) => v.word(),
            (false, Verdict::Regressed) => "slower",
            (false, Verdict::Improved) => "faster",
            (false, Verdict::WithinNoise) => "within noise",
            (false, Verdict::NoChange) => "no difference",
        }
    }
}

/// The paired comparisons of `plan`'s pairs (the scatter charts' pairs), seeded; and a
/// sentence for each pair that could not be compared (no case both sides answered right with
/// a measured latency), so that none is dropped silently.
pub(crate) fn comparisons(runs: &[RunData], plan: &Plan) -> (Vec<Compared>, Vec<String>) {
    let mut notes = Vec::new();
    let compared = plan
        .pairs
        .iter()
        .filter_map(|&(xi, yi)| {
            let (x, y) = (
                &runs[xi.run].strategies[xi.solver],
                &runs[yi.run].strategies[yi.solver],
            );
            let (xl, yl) = (label_of(runs, xi), label_of(runs, yi));
            let Some(paired) = paired_latency(x, y) else {
                notes.push(format!(
                    "{yl} vs {xl} not compared: no case that both answered right with a measured \
                     latency"
                ));
                return None;
            };
            Some(Compared {
                comparison: paired.compare(stats::RESAMPLES, 1),
                current: yl,
                baseline: xl,
                // The same solver in two runs: a change over time.
                across_runs: xi.run != yi.run && x.name == y.name,
            })
        })
        .collect();
    (compared, notes)
}

/// What the page shows beside the runs' tables: the charts, the comparisons, and every
/// note on what was left out (pairs beyond the cap, pairs with nothing to pair, charts
/// with nothing to draw).
pub struct Report {
    /// The pairs compared.
    pub plan: Plan,
    /// The charts drawn and left out.
    pub charts: Charts,
    /// The paired comparisons.
    pub compared: Vec<Compared>,
    /// One sentence per thing left out, for stderr and the page.
    pub notes: Vec<String>,
    /// The coverage table and the class ranking as an HTML fragment
    /// (`tilebench::table::report_fragment`), shown after the runs' summaries; none: left
    /// out.
    pub tables: Option<String>,
}

impl Report {
    /// The charts and comparisons of `runs` for `selection`.
    ///
    /// # Errors
    /// A `--reference` that names no solver or more than one; a chart that cannot be drawn.
    pub fn new(runs: &[RunData], selection: &Selection) -> Result<Report, crate::plot::PlotError> {
        let drawn = crate::plot::draw(runs, selection)?;
        let (compared, not_compared) = comparisons(runs, &drawn.plan);
        let mut notes = drawn.notes;
        notes.extend(not_compared);
        Ok(Report {
            plan: drawn.plan,
            charts: drawn.charts,
            compared,
            notes,
            tables: None,
        })
    }
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG chart for inlining: without its XML declaration, if it has one.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

/// A link target for `file`, relative to the page's directory when it lies below it.
fn href(file: &Path, page_dir: &Path) -> String {
    let abs = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (f, d) = (abs(file), abs(page_dir));
    let shown = f.strip_prefix(&d).map(Path::to_path_buf).unwrap_or(f);
    esc(&shown.display().to_string())
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1180px;color:#222}\
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;font-size:.9em;margin:.5em 0}\
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}\
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}\
.regressed{color:#b00;font-weight:bold}.notes{background:#fff8e0;padding:.5em 1.5em}.improved{color:#070;font-weight:bold}\
figure{margin:1em 0}figure svg{max-width:100%;height:auto}\
figcaption{font-size:.85em;color:#555}.best{font-weight:bold}.total td{border-top:2px solid #888}\
.note{font-size:.85em;color:#555}section{overflow-x:auto}";

/// The page: `title`, what was left out, the runs' summaries, the report's comparisons and
/// charts (inline SVG) and links to each run's files, relative to `page_dir`.
pub fn page(title: &str, runs: &[RunData], report: &Report, page_dir: &Path) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head>\
         <meta charset=\"utf-8\"/><title>{t}</title><style>{STYLE}</style></head><body>\
         <h1>{t}</h1>",
        t = esc(title)
    );
    if !report.notes.is_empty() {
        h.push_str("<ul class=\"notes\" id=\"left-out\">");
        for n in &report.notes {
            let _ = write!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul>");
    }
    summary_tables(&mut h, runs, page_dir);
    if let Some(tables) = &report.tables {
        h += "<h2>Coverage and ranking</h2>";
        h += tables;
    }
    comparison_table(&mut h, runs, report);
    h += "<h2>Charts</h2>";
    for (name, svg) in &report.charts.drawn {
        let _ = write!(
            h,
            "<figure id=\"{n}\">{}<figcaption>{n}</figcaption></figure>",
            inline_svg(svg),
            n = esc(name)
        );
    }
    h += "<p><small>Made by tilebench ";
    h += env!("CARGO_PKG_VERSION");
    h += ". Intervals are 95% percentile-bootstrap intervals over cases (seeded); see \
          docs/report.md.</small></p></body></html>\n";
    h
}

fn summary_tables(h: &mut String, runs: &[RunData], page_dir: &Path) {
    for run in runs {
        let _ = write!(h, "<h2>{}</h2><p>", esc(&run.label));
        for f in crate::results::RUN_FILES {
            let p = run.dir.join(f);
            if p.is_file() {
                let _ = write!(h, "<a href=\"{}\">{f}</a> ", href(&p, page_dir));
            }
        }
        h.push_str(
            "</p><table><tr><th>strategy</th><th>cases</th><th>solved</th><th>unsolvable</th>\
             <th>limit</th><th>errors</th><th>wrong</th><th>expanded (mean)</th>\
             <th>p50 µs</th><th>p99 µs</th><th>max µs</th><th>cases/s</th></tr>",
        );
        for s in &run.summaries {
            use crate::report::table::figure;
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&s.strategy),
                s.cases,
                s.solved,
                s.unsolvable,
                s.limit,
                s.errors,
                s.wrong,
                figure(s.expanded_mean, 1),
                figure(s.latency_p50_us, 1),
                figure(s.latency_p99_us, 1),
                figure(s.latency_max_us, 1),
                figure(s.cases_per_s, 0)
            );
        }
        h.push_str("</table>");
    }
}

fn comparison_table(h: &mut String, runs: &[RunData], report: &Report) {
    let compared = &report.compared;
    h.push_str("<h2>Latency, case by case</h2>");
    if report.plan.pairs.is_empty() {
        h.push_str("<p>Nothing to compare: one solver in one run.</p>");
        return;
    }
    let _ = write!(
        h,
        "<p>{}</p>",
        esc(&match report.plan.reference {
            Some(Reference::Solver(r)) => format!(
                "Every solver compared with {} (choose another with --reference NAME, or \
                 compare every pair with --all-pairs).",
                label_of(runs, r)
            ),
            Some(Reference::Run(r)) => format!(
                "Each solver compared with the solver of the same name in {} \
                 (--reference {}).",
                runs[r].label, runs[r].label
            ),
            None => "Every pair of solvers compared (--all-pairs).".to_string(),
        })
    );
    if compared.is_empty() {
        h.push_str("<p>No pair had a case both sides answered right with a latency.</p>");
        return;
    }
    h.push_str(
        "<p>Each case's latency ratio, paired on the same cases: the geometric mean of the \
         ratios, and the ratio of the p50s and of the p99s, each with its 95% interval. A \
         verdict needs the whole interval past ±2%. A strategy with more than 50,000 cases \
         is compared on a sample of them, the same cases on each side; `tilebench compare` \
         reads every case.</p><ul>",
    );
    for c in compared {
        let v = c.verdict();
        let _ = write!(
            h,
            "<li class=\"{}\">{}: <b>{}</b></li>",
            v.word().replace(' ', "-"),
            esc(&stats::faster_or_slower(
                &c.current,
                &c.baseline,
                "per case",
                &c.comparison.mean
            )),
            c.word(v)
        );
    }
    h.push_str(
        "</ul><table><tr><th>compared</th><th>with</th><th>cases</th><th>figure</th>\
         <th>ratio</th><th>95% CI</th><th>verdict</th></tr>",
    );
    for c in compared {
        for (name, i) in c.comparison.figures() {
            let v = Verdict::of(i, NOISE, NOISE);
            let (class, word) = if c.comparison.judgeable(name) {
                (v.word().replace(' ', "-"), c.word(v))
            } else {
                ("too-few".to_string(), "too few cases")
            };
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{name}</td><td>{:.3}×</td>\
                 <td>{:.3}–{:.3}×</td><td class=\"{}\">{}</td></tr>",
                esc(&c.current),
                esc(&c.baseline),
                c.comparison.cases,
                i.estimate,
                i.low,
                i.high,
                class,
                word
            );
        }
    }
    h.push_str("</table>");
}
