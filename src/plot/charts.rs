//! The charts, drawn with plotters' SVG backend.
//!
//! Every chart has the same frame: a title, a plotting area with labelled axes (units in the
//! labels), and a legend panel on the right that never covers data. Log axes are drawn by
//! plotting `log10(value)` on a linear axis with ticks at whole decades, labelled with the
//! values themselves, so tick placement is exact and identical across charts.
//!
//! Colours follow the strategy (the same strategy has the same colour in every chart and every
//! run); when several runs are overlaid, the line style (solid, dashed, dotted) and the marker
//! tell the runs apart.

use super::RunData;
use crate::search::registry;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 640;
const LEGEND_WIDTH: u32 = 320;
const FONT: &str = "sans-serif";

/// Colours for strategies, in registry order, then for unknown names (Tableau 10,
/// with the pale yellow last).
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0xBA, 0xB0, 0xAC),
    RGBColor(0xED, 0xC9, 0x48),
];

/// The charts `plot` writes: file name and SVG text. The per-case charts (scatter,
/// coverage, cost per node) are drawn by [`super::per_case`].
///
/// # Errors
/// As [`latency`], [`expanded_by_length`] and [`throughput`]: the first chart that cannot be
/// drawn.
pub fn all(runs: &[RunData]) -> Result<Vec<(String, String)>, String> {
    let mut out = vec![
        ("latency.svg".to_string(), latency(runs)?),
        (
            "expanded-by-length.svg".to_string(),
            expanded_by_length(runs)?,
        ),
        ("throughput.svg".to_string(), throughput(runs)?),
    ];
    out.extend(super::per_case::all(runs)?);
    Ok(out)
}

/// The strategies of all runs, in a stable order: built-in strategies in registry order,
/// then other names in order of appearance. A strategy's colour is its place here.
pub(super) fn strategy_order(runs: &[RunData]) -> Vec<String> {
    let mut names: Vec<String> = registry::names()
        .into_iter()
        .map(str::to_string)
        .filter(|n| {
            runs.iter()
                .any(|r| r.strategies.iter().any(|s| &s.name == n))
        })
        .collect();
    for r in runs {
        for s in &r.strategies {
            if !names.contains(&s.name) {
                names.push(s.name.clone());
            }
        }
    }
    names
}

pub(super) fn colour_of(order: &[String], name: &str) -> RGBColor {
    let i = order.iter().position(|n| n == name).unwrap_or(0);
    PALETTE[i % PALETTE.len()]
}

/// A series' label: the strategy for one run, `<run>/<strategy>` for several.
pub(super) fn label(runs: &[RunData], run: &RunData, strategy: &str) -> String {
    if runs.len() == 1 {
        strategy.to_string()
    } else {
        format!("{}/{strategy}", run.label)
    }
}

/// The title's suffix naming the runs.
pub(super) fn runs_named(runs: &[RunData]) -> String {
    let names: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
    crate::util::clip(&names.join(" vs "), 60)
}

/// One line of a line chart.
pub(super) struct Series {
    pub(super) label: String,
    pub(super) strategy: String,
    pub(super) colour: RGBColor,
    /// The run's index: picks the line style and the marker.
    pub(super) run: usize,
    /// Points in axis coordinates (log10 already applied on log axes).
    pub(super) points: Vec<(f64, f64)>,
}

impl Series {
    /// Strategy `name` of run `ri`: labelled, coloured by the strategy, styled by the run.
    pub(super) fn new(
        runs: &[RunData],
        ri: usize,
        order: &[String],
        name: &str,
        points: Vec<(f64, f64)>,
    ) -> Series {
        Series {
            label: label(runs, &runs[ri], name),
            strategy: name.to_string(),
            colour: colour_of(order, name),
            run: ri,
            points,
        }
    }
}

/// An axis: its range and ticks in axis coordinates, its title, and how to label a tick.
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) ticks: Vec<f64>,
    pub(super) minor: Vec<f64>,
    pub(super) title: String,
    pub(super) label: Box<dyn Fn(f64) -> String>,
}

impl Axis {
    fn ranged(&self) -> Ticked {
        Ticked {
            lo: self.lo,
            hi: self.hi,
            ticks: self.ticks.clone(),
            minor: self.minor.clone(),
        }
    }

    /// A log10 axis over whole decades covering `min..=max` (both > 0), values labelled as
    /// numbers.
    pub(super) fn log(min: f64, max: f64, title: &str) -> Axis {
        let lo = min.log10().floor();
        let mut hi = max.log10().ceil();
        if hi <= lo {
            hi = lo + 1.0;
        }
        let decades = (lo as i32)..=(hi as i32);
        Axis {
            lo,
            hi,
            ticks: decades.clone().map(f64::from).collect(),
            minor: decades
                .filter(|&d| f64::from(d) < hi)
                .flat_map(|d| (2..10).map(move |m| f64::from(d) + f64::from(m).log10()))
                .collect(),
            title: title.to_string(),
            label: Box::new(|c| number(10f64.powf(c))),
        }
    }
}

/// A number for a tick or a bar: 3 significant digits, thousands separated, no exponent below
/// ten million.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    if a >= 1e7 {
        let exp = a.log10().floor();
        let mant = v / 10f64.powf(exp);
        return if (mant - mant.round()).abs() < 1e-9 {
            format!("{}e{}", mant.round(), exp)
        } else {
            format!("{mant:.2}e{exp}")
        };
    }
    if a >= 1000.0 {
        let n = v.round() as i64;
        let digits = n.unsigned_abs().to_string();
        let mut out = String::new();
        for (i, ch) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
        return if n < 0 { format!("-{out}") } else { out };
    }
    if a == 0.0 {
        return "0".into();
    }
    // Up to 3 significant digits, trailing zeros dropped.
    let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The label of a percentile axis tick at log10(1/(1-p)) = `c`: 0%, 90%, 99%, 99.9% …
pub fn percentile_label(c: f64) -> String {
    let x = 10f64.powf(c);
    let p = 100.0 * (1.0 - 1.0 / x);
    let decimals = (c.round() as i64 - 2).max(0) as usize;
    format!("{p:.decimals$}%")
}

/// A linear f64 axis with exactly the ticks given (bold) and the minor lines given (light).
/// (plotters' `WithKeyPoints` over f64 cannot take custom tick labels.)
#[derive(Clone)]
pub(super) struct Ticked {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
    minor: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        if self.hi == self.lo {
            return (limit.0 + limit.1) / 2;
        }
        let t = ((v - self.lo) / (self.hi - self.lo)).clamp(-1.0, 2.0);
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.minor.clone()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

pub(super) type Coords = Cartesian2d<Ticked, Ticked>;

pub(super) fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw the chart: {e:?}")
}

/// What a legend entry shows beside its label.
#[derive(Clone, Copy)]
pub(super) enum Swatch {
    /// A line in the run's style, with the run's marker or without.
    Line { run: usize, marker: bool },
    /// A bar in the run's shade.
    Bar { run: usize },
}

pub(super) struct LegendEntry {
    pub(super) label: String,
    pub(super) colour: RGBColor,
    pub(super) swatch: Swatch,
}

/// A chart: draws the frame, calls `body` to draw the data, draws the legend; returns the SVG.
pub(super) fn draw(
    title: &str,
    x: &Axis,
    y: &Axis,
    legend: &[LegendEntry],
    body: impl FnOnce(&mut ChartContext<'_, SVGBackend<'_>, Coords>) -> Result<(), String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(title, (FONT, 24).into_font().color(&BLACK))
            .map_err(err)?;
        let (main, side) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&main)
            .margin(14)
            .margin_top(8)
            .x_label_area_size(58)
            .y_label_area_size(92)
            .build_cartesian_2d(x.ranged(), y.ranged())
            .map_err(err)?;
        let (xl, yl) = (&x.label, &y.label);
        chart
            .configure_mesh()
            .x_desc(x.title.as_str())
            .y_desc(y.title.as_str())
            .x_label_formatter(&|c| xl(*c))
            .y_label_formatter(&|c| yl(*c))
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .bold_line_style(BLACK.mix(0.18))
            .light_line_style(BLACK.mix(0.06))
            .draw()
            .map_err(err)?;
        body(&mut chart)?;
        draw_legend(&side, legend)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The legend panel: one entry per series, top to bottom.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    entries: &[LegendEntry],
) -> Result<(), String> {
    let row = if entries.len() > 22 { 16 } else { 24 };
    let font = if entries.len() > 22 { 12 } else { 15 };
    let x0 = 8;
    let mut y = 24;
    area.draw(&Text::new(
        "legend",
        (x0, y - 4),
        (FONT, 15).into_font().color(&BLACK.mix(0.6)),
    ))
    .map_err(err)?;
    y += row;
    for e in entries {
        match e.swatch {
            Swatch::Line { run, marker } => {
                let style = line_style(e.colour);
                for (a, b) in dash_segments(run, x0, x0 + 36) {
                    area.draw(&PathElement::new(vec![(a, y), (b, y)], style))
                        .map_err(err)?;
                }
                if marker {
                    draw_marker_px(area, (x0 + 18, y), e.colour, run)?;
                }
            }
            Swatch::Bar { run } => {
                area.draw(&Rectangle::new(
                    [(x0 + 8, y - 7), (x0 + 28, y + 7)],
                    bar_fill(e.colour, run),
                ))
                .map_err(err)?;
                area.draw(&Rectangle::new(
                    [(x0 + 8, y - 7), (x0 + 28, y + 7)],
                    e.colour.stroke_width(1),
                ))
                .map_err(err)?;
            }
        }
        area.draw(&Text::new(
            crate::util::clip(&e.label, 30),
            (x0 + 44, y),
            (FONT, font)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
        y += row;
    }
    Ok(())
}

/// Lines are 2 px wide; the dash pattern (see [`draw_series`]) tells runs apart.
fn line_style(colour: RGBColor) -> ShapeStyle {
    colour.stroke_width(2)
}

/// The pieces of a legend line from `a` to `b` in the run's dash pattern.
fn dash_segments(run: usize, a: i32, b: i32) -> Vec<(i32, i32)> {
    let (on, off) = match run % 3 {
        0 => return vec![(a, b)],
        1 => (8, 5),
        _ => (2, 4),
    };
    let mut out = Vec::new();
    let mut x = a;
    while x < b {
        out.push((x, (x + on).min(b)));
        x += on + off;
    }
    out
}

fn bar_fill(colour: RGBColor, run: usize) -> ShapeStyle {
    let alpha = [1.0, 0.5, 0.25][run % 3];
    colour.mix(alpha).filled()
}

/// A marker in pixel coordinates (for the legend).
fn draw_marker_px(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    at: (i32, i32),
    colour: RGBColor,
    run: usize,
) -> Result<(), String> {
    match run % 3 {
        0 => area.draw(&Circle::new(at, 4, colour.filled())),
        1 => area.draw(&TriangleMarker::new(at, 5, colour.filled())),
        _ => area.draw(&Cross::new(at, 4, colour.stroke_width(2))),
    }
    .map_err(err)
}

/// Draws a series as a line in its run's style, with markers or without.
pub(super) fn draw_series(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Coords>,
    s: &Series,
    markers: bool,
) -> Result<(), String> {
    let style = line_style(s.colour);
    match s.run % 3 {
        0 => {
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), style))
                .map_err(err)?;
        }
        1 => {
            chart
                .draw_series(DashedLineSeries::new(s.points.iter().copied(), 8, 5, style))
                .map_err(err)?;
        }
        _ => {
            chart
                .draw_series(DashedLineSeries::new(s.points.iter().copied(), 2, 4, style))
                .map_err(err)?;
        }
    }
    if markers {
        let c = s.colour;
        match s.run % 3 {
            0 => chart
                .draw_series(s.points.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map(|_| ()),
            1 => chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&p| TriangleMarker::new(p, 5, c.filled())),
                )
                .map(|_| ()),
            _ => chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&p| Cross::new(p, 4, c.stroke_width(2))),
                )
                .map(|_| ()),
        }
        .map_err(err)?;
    }
    Ok(())
}

/// A chart with nothing to show: the title and why.
pub(super) fn empty(title: &str, why: &str) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(title, (FONT, 24).into_font().color(&BLACK))
            .map_err(err)?;
        let (w, h) = root.dim_in_pixel();
        root.draw(&Text::new(
            why.to_string(),
            (w as i32 / 2, h as i32 / 2),
            (FONT, 18)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Legend entries for line series; a series identical to an earlier one of the same run says
/// so, since it is drawn exactly underneath it.
pub(super) fn line_legend(series: &[Series], markers: bool) -> Vec<LegendEntry> {
    series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let twin = series[..i]
                .iter()
                .find(|t| t.run == s.run && t.points == s.points);
            LegendEntry {
                label: match twin {
                    Some(t) => format!("{} (= {})", s.label, t.strategy),
                    None => s.label.clone(),
                },
                colour: s.colour,
                swatch: Swatch::Line {
                    run: s.run,
                    marker: markers,
                },
            }
        })
        .collect()
}

/// Latency percentile curves, HdrHistogram style: x is log10(1/(1-p)), y is µs on a log scale.
///
/// # Errors
/// Only when plotters' SVG backend fails to draw (`cannot draw the chart: …`).
pub fn latency(runs: &[RunData]) -> Result<String, String> {
    let title = format!("Solve latency by percentile: {}", runs_named(runs));
    let order = strategy_order(runs);
    let mut series = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for s in &run.strategies {
            let h = &s.latency_ns;
            if h.is_empty() {
                continue;
            }
            let mut points = Vec::new();
            let mut last_x = 0.0f64;
            for v in h.iter_quantiles(4) {
                let q = v.quantile_iterated_to();
                let us = v.value_iterated_to().max(1) as f64 / 1000.0;
                let x = if q < 1.0 {
                    1.0 / (1.0 - q)
                } else {
                    // The maximum: the last sample's percentile, 1 - 1/n.
                    (h.len() as f64).max(last_x)
                };
                last_x = x;
                points.push((x.log10(), us.log10()));
            }
            series.push(Series::new(runs, ri, &order, &s.name, points));
        }
    }
    if series.is_empty() {
        return empty(&title, "no searched rows: nothing has a latency to plot");
    }
    let max_x = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold(0.0, f64::max);
    let hi = max_x.ceil().max(2.0);
    let x = Axis {
        lo: 0.0,
        hi,
        ticks: (0..=hi as i32).map(f64::from).collect(),
        minor: Vec::new(),
        title: "percentile (log scale of 1/(1−p): each step is 10× rarer)".into(),
        label: Box::new(percentile_label),
    };
    line_chart(
        &title,
        &x,
        &series,
        "latency of one solve (µs, log scale)",
        false,
    )
}

/// A chart of line series over a log-scale y axis spanning the series, with their legend
/// (and point markers when `markers`).
pub(super) fn line_chart(
    title: &str,
    x: &Axis,
    series: &[Series],
    y_label: &str,
    markers: bool,
) -> Result<String, String> {
    let (ymin, ymax) = y_extent(series);
    let y = Axis::log(10f64.powf(ymin), 10f64.powf(ymax), y_label);
    let legend = line_legend(series, markers);
    draw(title, x, &y, &legend, |chart| {
        for s in series {
            draw_series(chart, s, markers)?;
        }
        Ok(())
    })
}

fn y_extent(series: &[Series]) -> (f64, f64) {
    let ys = || series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    (
        ys().fold(f64::INFINITY, f64::min),
        ys().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// Mean states expanded by optimal solution length, per strategy (solved rows).
///
/// # Errors
/// Only when plotters' SVG backend fails to draw (`cannot draw the chart: …`).
pub fn expanded_by_length(runs: &[RunData]) -> Result<String, String> {
    let title = format!("States expanded by solution length: {}", runs_named(runs));
    let order = strategy_order(runs);
    let mut series = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for s in &run.strategies {
            // Zero-move cases expand nothing and have no place on a log axis.
            let points: Vec<(f64, f64)> = s
                .expanded_by_steps
                .iter()
                .filter(|&&(_, mean, _)| mean > 0.0)
                .map(|&(steps, mean, _)| (f64::from(steps), mean.log10()))
                .collect();
            if points.is_empty() {
                continue;
            }
            series.push(Series::new(runs, ri, &order, &s.name, points));
        }
    }
    if series.is_empty() {
        return empty(
            &title,
            "no solved rows that expanded a state: nothing to plot",
        );
    }
    let max_steps = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold(0.0, f64::max);
    let min_steps = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold(f64::INFINITY, f64::min);
    let step = match max_steps as u32 {
        0..=20 => 1,
        21..=40 => 2,
        41..=100 => 5,
        _ => 10,
    };
    // From the shortest length shown, down to a whole tick.
    let first = (min_steps as u32 / step) * step;
    let x = Axis {
        lo: f64::from(first) - 0.5,
        hi: max_steps + 0.5,
        ticks: (first..=max_steps as u32)
            .filter(|s| s % step == 0)
            .map(f64::from)
            .collect(),
        minor: Vec::new(),
        title: "optimal solution length (moves)".into(),
        label: Box::new(|c| format!("{}", c.round() as i64)),
    };
    line_chart(
        &title,
        &x,
        &series,
        "mean states expanded per case (log scale)",
        true,
    )
}

/// Cases per second per strategy, as bars (grouped by strategy when runs are overlaid).
///
/// # Errors
/// Only when plotters' SVG backend fails to draw (`cannot draw the chart: …`).
pub fn throughput(runs: &[RunData]) -> Result<String, String> {
    let title = format!("Throughput by strategy: {}", runs_named(runs));
    let order = strategy_order(runs);
    // (strategy index, run index, cases/s)
    let bars: Vec<(usize, usize, f64)> = runs
        .iter()
        .enumerate()
        .flat_map(|(ri, run)| {
            let order = &order;
            run.strategies.iter().filter_map(move |s| {
                let v = s.cases_per_s.filter(|v| *v > 0.0 && v.is_finite())?;
                let si = order.iter().position(|n| n == &s.name).unwrap_or(0);
                Some((si, ri, v))
            })
        })
        .collect();
    if bars.is_empty() {
        return empty(
            &title,
            "no strategy searched any case: no throughput to plot",
        );
    }
    let min = bars.iter().map(|b| b.2).fold(f64::INFINITY, f64::min);
    let max = bars.iter().map(|b| b.2).fold(0.0, f64::max);
    // Head room above the tallest bar for its value.
    let y = Axis::log(
        min,
        max * 1.6,
        "cases per second (searched cases / wall time, log scale)",
    );
    let n = order.len();
    // Strategy names as the x ticks: the label formatter gets the tick's position.
    let names = order.clone();
    let x = Axis {
        lo: -0.5,
        hi: n as f64 - 0.5,
        ticks: (0..n).map(|i| i as f64).collect(),
        minor: Vec::new(),
        title: "strategy".into(),
        label: Box::new(move |c| {
            let i = c.round();
            if i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        }),
    };
    let mut legend = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for s in &run.strategies {
            legend.push(LegendEntry {
                label: label(runs, run, &s.name),
                colour: colour_of(&order, &s.name),
                swatch: Swatch::Bar { run: ri },
            });
        }
    }
    let width = 0.8 / runs.len() as f64;
    let y_lo = y.lo;
    draw(&title, &x, &y, &legend, |chart| {
        for &(si, ri, v) in &bars {
            let colour = PALETTE[si % PALETTE.len()];
            let x0 = si as f64 - 0.4 + ri as f64 * width + 0.02;
            let x1 = x0 + width - 0.04;
            let top = v.log10();
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, y_lo), (x1, top)],
                    bar_fill(colour, ri),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, y_lo), (x1, top)],
                    colour.stroke_width(1),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    number(v),
                    ((x0 + x1) / 2.0, top),
                    (FONT, 13)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                )))
                .map_err(err)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_at_a_glance() {
        assert_eq!(number(0.001), "0.001");
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(43.391), "43.4");
        assert_eq!(number(100.0), "100");
        assert_eq!(number(28094.0), "28,094");
        assert_eq!(number(1e6), "1,000,000");
        assert_eq!(number(1e8), "1e8");
    }

    #[test]
    fn percentile_ticks() {
        assert_eq!(percentile_label(0.0), "0%");
        assert_eq!(percentile_label(1.0), "90%");
        assert_eq!(percentile_label(2.0), "99%");
        assert_eq!(percentile_label(3.0), "99.9%");
        assert_eq!(percentile_label(5.0), "99.999%");
    }
}
