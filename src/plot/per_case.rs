//! The per-case charts search papers publish: a scatter of two configurations case by case
//! (log–log, with the diagonal, as Downward Lab's `ScatterPlotReport`), coverage ("cactus")
//! curves of the cases answered within a growing time or node budget, and each case's
//! states expanded against its latency (the cost of a node, per strategy).
//!
//! Scatter pairs: those of the [`super::select::Plan`]: every solver of every run against the
//! reference (by default the first run when runs share solver names, else the first
//! solver), or every pair.

use super::charts::{
    draw, draw_marker, nothing, runs_named, strategy_order, Axis, Chart, Charts, LegendEntry,
    Series, Swatch,
};
use super::{CasePoint, RunData, StrategyData};
use plotters::prelude::*;
use std::collections::HashMap;

/// Per case, y's latency against x's, for the cases both answered with a search: the paired
/// comparison of y with x (`None` when no case is in both).
pub(crate) fn paired_latency(x: &StrategyData, y: &StrategyData) -> Option<crate::stats::Paired> {
    let ns = |p: &CasePoint| Some(p.latency_ns.filter(|&n| p.answered && n > 0)? as f64);
    let ys: HashMap<u64, &CasePoint> = y.cases.iter().map(|p| (p.case, p)).collect();
    let (a, b): (Vec<f64>, Vec<f64>) = x
        .cases
        .iter()
        .filter_map(|p| Some((ns(p)?, ns(ys.get(&p.case)?)?)))
        .unzip();
    crate::stats::Paired::new(&a, &b).ok()
}

/// Every strategy of every run.
fn all_strategies(runs: &[RunData]) -> Vec<&StrategyData> {
    runs.iter().flat_map(|r| &r.strategies).collect()
}

/// "" when every case of `of` is drawn; else how the cases were sampled (a large run keeps
/// at most [`super::MAX_POINTS`] a strategy, the same cases in every run).
fn sampled(of: &[&StrategyData]) -> String {
    match of.iter().map(|s| s.every).max() {
        Some(every) if every > 1 => {
            format!(", a sample: 1 case in {every}, chosen by case")
        }
        _ => String::new(),
    }
}

/// The per-case charts, added to `out`: coverage, cost per node, and a scatter of latency
/// and of states expanded for each pair of `plan`.
///
/// # Errors
/// Only when plotters' SVG backend fails to draw (`cannot draw the chart: …`).
pub(crate) fn all(
    runs: &[RunData],
    plan: &super::select::Plan,
    out: &mut Charts,
) -> Result<(), String> {
    out.push("coverage-time.svg".into(), coverage(runs, Budget::Time)?);
    out.push("coverage-nodes.svg".into(), coverage(runs, Budget::Nodes)?);
    out.push("expanded-vs-latency.svg".into(), cost_per_node(runs)?);
    // Without a counter anywhere, one note for all the scatters of states expanded.
    let counted = all_strategies(runs)
        .iter()
        .any(|s| s.cases.iter().any(|p| Measure::Expanded.of(p).is_some()));
    let measures: &[Measure] = if counted {
        &[Measure::Latency, Measure::Expanded]
    } else {
        if !plan.pairs.is_empty() {
            out.push(
                "scatter-expanded-*.svg".into(),
                Chart::LeftOut(
                    "no solver reported states expanded on a case it answered right".into(),
                ),
            );
        }
        &[Measure::Latency]
    };
    for (x, y) in plan.labelled(runs) {
        for &measure in measures {
            let name = format!(
                "scatter-{}-{}-vs-{}.svg",
                measure.slug(),
                file_part(&x.0),
                file_part(&y.0)
            );
            out.push(name, scatter(&x, &y, measure)?);
        }
    }
    Ok(())
}

/// A label for a file name: letters, digits, `.`, `_` and `-`; anything else becomes `_`.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One side of a scatter: its label and its strategy's rows.
pub(crate) type Side<'a> = (String, &'a StrategyData);

/// What a scatter compares.
#[derive(Clone, Copy)]
enum Measure {
    Latency,
    Expanded,
}

impl Measure {
    fn slug(self) -> &'static str {
        match self {
            Measure::Latency => "latency",
            Measure::Expanded => "expanded",
        }
    }
    /// The case's value, when it answered and has one (≥ 1, for the log axis).
    fn of(self, p: &CasePoint) -> Option<f64> {
        self.point(p).ok().flatten()
    }
    /// For a scatter: `Ok(Some(v))`, `Ok(None)` when the case did not answer (drawn on the
    /// border), `Err(())` when it answered without the figure (e.g. no search: left out).
    fn point(self, p: &CasePoint) -> Result<Option<f64>, ()> {
        if !p.answered {
            return Ok(None);
        }
        let v = match self {
            Measure::Latency => p.latency_ns.map(|ns| ns as f64 / 1000.0),
            Measure::Expanded => p.expanded.map(|e| e as f64),
        }
        .ok_or(())?;
        Ok(Some(v.max(1.0)))
    }
    /// What a case lacks when a chart of this measure has nothing to draw.
    fn what(self) -> &'static str {
        match self {
            Measure::Latency => "an answer right with a measured latency",
            Measure::Expanded => "an answer right with states expanded",
        }
    }
    fn unit(self) -> &'static str {
        match self {
            Measure::Latency => "latency (µs, log scale)",
            Measure::Expanded => "states expanded (log scale)",
        }
    }
}

/// Per case: x's value against y's, log–log, with the diagonal; a case one side did not
/// answer (`limit`, `error`) sits on that side's far border, drawn as a cross. Cases without
/// the figure on an answering side (answered without a search) and cases neither side
/// answered are left out.
fn scatter(x: &Side<'_>, y: &Side<'_>, m: Measure) -> Result<Chart, String> {
    let title = crate::util::clip(&format!("Per case, {}: {} vs {}", m.slug(), x.0, y.0), 90);
    let ys: HashMap<u64, &CasePoint> = y.1.cases.iter().map(|p| (p.case, p)).collect();
    // (x, y) with None for "did not answer".
    let pairs: Vec<(Option<f64>, Option<f64>)> =
        x.1.cases
            .iter()
            .filter_map(|p| Some((m.point(p).ok()?, m.point(ys.get(&p.case)?).ok()?)))
            .filter(|(a, b)| a.is_some() || b.is_some())
            .collect();
    let values = || pairs.iter().flat_map(|&(a, b)| [a, b]).flatten();
    if pairs.is_empty() {
        return nothing(&format!("no case has {} for {} or {}", m.what(), x.0, y.0));
    }
    let (lo, hi) = (
        values().fold(f64::INFINITY, f64::min),
        values().fold(0.0, f64::max),
    );
    // One more decade at the top: the border where unanswered cases go.
    let mut ax = Axis::log(lo, hi * 10.0, &format!("{}: {}", x.0, m.unit()));
    let mut ay = Axis::log(lo, hi * 10.0, &format!("{}: {}", y.0, m.unit()));
    let border = ax.hi;
    ax.title = crate::util::clip(&ax.title, 70);
    ay.title = crate::util::clip(&ay.title, 70);
    let (below, above) = pairs
        .iter()
        .fold((0, 0), |(b, a), &(px, py)| match (px, py) {
            (Some(px), Some(py)) if py < px => (b + 1, a),
            (Some(px), Some(py)) if py > px => (b, a + 1),
            _ => (b, a),
        });
    let one_sided = pairs
        .iter()
        .filter(|(a, b)| a.is_none() || b.is_none())
        .count();
    let colour = RGBColor(0x4E, 0x79, 0xA7);
    let legend = vec![
        LegendEntry {
            label: format!(
                "{} cases ({} one-sided){}",
                pairs.len(),
                one_sided,
                sampled(&[x.1, y.1])
            ),
            colour,
            swatch: Swatch::Line {
                dash: 0,
                marker: Some(0),
            },
        },
        LegendEntry {
            label: format!("{below} below the diagonal"),
            colour: BLACK,
            swatch: Swatch::Line {
                dash: 1,
                marker: None,
            },
        },
        LegendEntry {
            label: format!("{above} above it"),
            colour: BLACK,
            swatch: Swatch::Line {
                dash: 1,
                marker: None,
            },
        },
    ];
    let (lo_c, hi_c) = (ax.lo, ax.hi);
    draw(&title, &ax, &ay, &legend, |chart| {
        chart
            .draw_series(DashedLineSeries::new(
                [(lo_c, lo_c), (hi_c, hi_c)],
                6,
                4,
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(super::charts::err)?;
        let at = |v: Option<f64>| v.map_or(border, f64::log10);
        chart
            .draw_series(
                pairs
                    .iter()
                    .filter(|(a, b)| a.is_some() && b.is_some())
                    .map(|&(a, b)| Circle::new((at(a), at(b)), 3, colour.mix(0.55).filled())),
            )
            .map_err(super::charts::err)?;
        chart
            .draw_series(
                pairs
                    .iter()
                    .filter(|(a, b)| a.is_none() || b.is_none())
                    .map(|&(a, b)| Cross::new((at(a), at(b)), 4, RED.stroke_width(2))),
            )
            .map_err(super::charts::err)?;
        Ok(())
    })
    .map(Chart::Drawn)
}

/// A coverage chart's budget.
#[derive(Clone, Copy, PartialEq)]
enum Budget {
    Time,
    Nodes,
}

/// Cases answered within a growing budget (time or states expanded), one line per run ×
/// strategy: a step up at each case's own figure.
fn coverage(runs: &[RunData], budget: Budget) -> Result<Chart, String> {
    let (what, x_title) = match budget {
        Budget::Time => ("time", "time budget per case (µs, log scale)"),
        Budget::Nodes => ("node", "budget of states expanded per case (log scale)"),
    };
    let title = format!(
        "Cases answered within a {what} budget: {}{}",
        runs_named(runs),
        sampled(&all_strategies(runs))
    );
    let order = strategy_order(runs);
    let mut series = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for s in &run.strategies {
            let m = match budget {
                Budget::Time => Measure::Latency,
                Budget::Nodes => Measure::Expanded,
            };
            let mut v: Vec<f64> = s.cases.iter().filter_map(|p| m.of(p)).collect();
            if v.is_empty() {
                continue;
            }
            v.sort_by(f64::total_cmp);
            // A sample's counts stand for `every` cases each.
            let every = s.every as f64;
            let mut points = vec![(v[0].log10(), 0.0)];
            for (i, x) in v.iter().enumerate() {
                let x = x.log10();
                points.push((x, i as f64 * every));
                points.push((x, (i + 1) as f64 * every));
            }
            series.push(Series::new(runs, ri, &order, &s.name, points));
        }
    }
    if series.is_empty() {
        return nothing(match budget {
            Budget::Time => "no solver has a measured latency on a case it answered right",
            Budget::Nodes => "no solver reported states expanded on a case it answered right",
        });
    }
    let xs = || series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (lo, hi) = (
        xs().fold(f64::INFINITY, f64::min),
        xs().fold(f64::NEG_INFINITY, f64::max),
    );
    let x = Axis::log(10f64.powf(lo), 10f64.powf(hi), x_title);
    let most = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let step = nice_step(most);
    let y = Axis {
        lo: 0.0,
        hi: most * 1.05,
        ticks: (0..)
            .map(|i| f64::from(i) * step)
            .take_while(|&t| t <= most * 1.05)
            .collect(),
        minor: Vec::new(),
        title: "cases answered (solved or proved unsolvable)".into(),
        label: Box::new(super::charts::number),
    };
    let legend = super::charts::line_legend(&series);
    draw(&title, &x, &y, &legend, |chart| {
        for s in &series {
            super::charts::draw_series(chart, s, false)?;
        }
        Ok(())
    })
    .map(Chart::Drawn)
}

/// A tick step of 1, 2 or 5 times a power of ten giving about 5–10 ticks up to `max`.
fn nice_step(max: f64) -> f64 {
    let raw = (max / 6.0).max(1.0);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

/// Each answered case's states expanded (x) against its latency (y), log–log, one colour per
/// strategy: a strategy's points lie along its cost per node.
fn cost_per_node(runs: &[RunData]) -> Result<Chart, String> {
    let title = format!(
        "States expanded against latency, per case: {}{}",
        runs_named(runs),
        sampled(&all_strategies(runs))
    );
    let order = strategy_order(runs);
    let mut series = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for s in &run.strategies {
            let points: Vec<(f64, f64)> = s
                .cases
                .iter()
                .filter_map(|p| {
                    let e = Measure::Expanded.of(p)?;
                    let l = Measure::Latency.of(p)?;
                    Some((e.log10(), l.log10()))
                })
                .collect();
            if !points.is_empty() {
                series.push(Series::new(runs, ri, &order, &s.name, points));
            }
        }
    }
    if series.is_empty() {
        return nothing(
            "no solver has both states expanded and a measured latency on a case it answered right",
        );
    }
    let xs = || series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (lo, hi) = (
        xs().fold(f64::INFINITY, f64::min),
        xs().fold(f64::NEG_INFINITY, f64::max),
    );
    let x = Axis::log(
        10f64.powf(lo),
        10f64.powf(hi),
        "states expanded (log scale)",
    );
    let ys = || series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (ylo, yhi) = (
        ys().fold(f64::INFINITY, f64::min),
        ys().fold(f64::NEG_INFINITY, f64::max),
    );
    let y = Axis::log(10f64.powf(ylo), 10f64.powf(yhi), "latency (µs, log scale)");
    let legend: Vec<LegendEntry> = series
        .iter()
        .map(|s| LegendEntry {
            label: s.label.clone(),
            colour: s.style.rgb(),
            swatch: Swatch::Line {
                dash: 0,
                marker: Some(s.style.marker),
            },
        })
        .collect();
    draw(&title, &x, &y, &legend, |chart| {
        for s in &series {
            let c = s.style.rgb();
            let area = chart.plotting_area();
            for &p in &s.points {
                draw_marker(area, p, s.style.marker, c, 2)?;
            }
        }
        Ok(())
    })
    .map(Chart::Drawn)
}
