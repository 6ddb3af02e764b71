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

/// How a series is drawn: its colour, its line's dash pattern and its marker. Together they
/// tell apart 200 series (10 colours × 20 patterns, see [`style_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Style {
    /// Index into the palette (Tableau 10).
    pub colour: usize,
    /// Index into the dash patterns: solid, dashed, dotted, long dashes.
    pub dash: usize,
    /// Index into the markers: circle, triangle, square, diamond, cross.
    pub marker: usize,
}

/// The dash patterns (on, off) in pixels; (0, 0) is a solid line.
const DASHES: [(u32, u32); 4] = [(0, 0), (8, 5), (2, 4), (16, 4)];
/// How many marker shapes there are (see [`draw_marker`]).
const MARKERS: usize = 5;

impl Style {
    /// The colour.
    pub(crate) fn rgb(self) -> RGBColor {
        PALETTE[self.colour % PALETTE.len()]
    }
}

/// The style of the `k`-th of `names` strategy names (in [`strategy_order`]) in run `run`:
/// the colour follows the strategy (the same in every chart and every run), and the pattern
/// (dash and marker) tells apart strategies 10 apart and the runs. Distinct (k, run) pairs
/// get distinct styles.
pub(crate) fn style_of(names: usize, k: usize, run: usize) -> Style {
    let groups = names.div_ceil(PALETTE.len()).max(1);
    let pattern = run * groups + k / PALETTE.len();
    // 4 dashes and 5 markers: the (dash, marker) of patterns 0–19 are all different.
    Style {
        colour: k % PALETTE.len(),
        dash: pattern % DASHES.len(),
        marker: pattern % MARKERS,
    }
}

/// The style of strategy `name` of run `run`, `order` being [`strategy_order`].
pub(super) fn style_in(order: &[String], name: &str, run: usize) -> Style {
    let k = order.iter().position(|n| n == name).unwrap_or(0);
    style_of(order.len(), k, run)
}

/// A series' label: the strategy, or `<run>/<strategy>` where two runs hold that name.
pub(super) fn label(runs: &[RunData], run: usize, strategy: &str) -> String {
    super::select::label(runs, run, strategy)
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
    pub(super) style: Style,
    /// The run's index.
    pub(super) run: usize,
    /// Points in axis coordinates (log10 already applied on log axes).
    pub(super) points: Vec<(f64, f64)>,
}

impl Series {
    /// Strategy `name` of run `ri`: labelled, styled by the strategy and the run.
    pub(super) fn new(
        runs: &[RunData],
        ri: usize,
        order: &[String],
        name: &str,
        points: Vec<(f64, f64)>,
    ) -> Series {
        Series {
            label: label(runs, ri, name),
            strategy: name.to_string(),
            style: style_in(order, name, ri),
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
pub(crate) fn percentile_label(c: f64) -> String {
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
    /// A line in a dash pattern (index into the dashes), with a marker or without.
    Line { dash: usize, marker: Option<usize> },
    /// A bar in the run's shade, with the series' marker.
    Bar { run: usize, marker: usize },
}

pub(super) struct LegendEntry {
    pub(super) label: String,
    pub(super) colour: RGBColor,
    pub(super) swatch: Swatch,
}

impl LegendEntry {
    /// A series' entry: its label, its line and marker.
    pub(super) fn line(label: String, style: Style) -> LegendEntry {
        LegendEntry {
            label,
            colour: style.rgb(),
            swatch: Swatch::Line {
                dash: style.dash,
                marker: Some(style.marker),
            },
        }
    }
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
        // Tick labels too long to sit side by side (15 solvers' names under their bars) are
        // written downwards.
        let longest = x.ticks.iter().map(|&t| (x.label)(t).chars().count()).max();
        let room = (WIDTH - LEGEND_WIDTH - 120) as usize / x.ticks.len().max(1);
        let turned = longest.is_some_and(|n| n * 8 + 6 > room);
        let label_area = if turned {
            longest.map_or(58, |n| (n as u32 * 8 + 40).min(200))
        } else {
            58
        };
        let mut chart = ChartBuilder::on(&main)
            .margin(14)
            .margin_top(8)
            .x_label_area_size(label_area)
            .y_label_area_size(92)
            .build_cartesian_2d(x.ranged(), y.ranged())
            .map_err(err)?;
        let (xl, yl) = (&x.label, &y.label);
        chart
            .configure_mesh()
            .x_desc(x.title.as_str())
            .y_desc(y.title.as_str())
            .x_label_formatter(&|c| {
                let l = xl(*c);
                if turned {
                    // plotters centres a label on its tick: no-break spaces (which SVG does
                    // not collapse) before it move the turned text below the axis.
                    let pad = "\u{a0}".repeat(l.chars().count() * 2 + 2);
                    format!("{pad}{l}")
                } else {
                    l
                }
            })
            .y_label_formatter(&|c| yl(*c))
            .label_style((FONT, 15))
            .x_label_style(if turned {
                (FONT, 14).into_font().transform(FontTransform::Rotate90)
            } else {
                (FONT, 15).into_font()
            })
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
            Swatch::Line { dash, marker } => {
                let style = line_style(e.colour);
                for (a, b) in dash_segments(dash, x0, x0 + 36) {
                    area.draw(&PathElement::new(vec![(a, y), (b, y)], style))
                        .map_err(err)?;
                }
                if let Some(m) = marker {
                    draw_marker(area, (x0 + 18, y), m, e.colour, 4)?;
                }
            }
            Swatch::Bar { run, marker } => {
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
                draw_marker(area, (x0 + 36, y), marker, e.colour, 4)?;
            }
        }
        area.draw(&Text::new(
            crate::util::clip(&e.label, 30),
            (x0 + 48, y),
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

/// Lines are 2 px wide; the dash pattern (see [`Style`]) and the marker tell series apart.
fn line_style(colour: RGBColor) -> ShapeStyle {
    colour.stroke_width(2)
}

/// The pieces of a legend line from `a` to `b` in dash pattern `dash`.
fn dash_segments(dash: usize, a: i32, b: i32) -> Vec<(i32, i32)> {
    let (on, off) = match DASHES[dash % DASHES.len()] {
        (0, _) => return vec![(a, b)],
        (on, off) => (on as i32, off as i32),
    };
    let mut out = Vec::new();
    let mut x = a;
    while x < b {
        out.push((x, (x + on).min(b)));
        x += on + off;
    }
    out
}

pub(super) fn bar_fill(colour: RGBColor, run: usize) -> ShapeStyle {
    let alpha = [1.0, 0.5, 0.25][run % 3];
    colour.mix(alpha).filled()
}

/// Marker `m` (circle, triangle, square, diamond, cross) of radius `r` px at `at`, on a chart's
/// plotting area (data coordinates) or on a panel (pixels).
pub(super) fn draw_marker<C>(
    area: &DrawingArea<SVGBackend<'_>, C>,
    at: C::From,
    m: usize,
    colour: RGBColor,
    r: i32,
) -> Result<(), String>
where
    C: plotters::coord::CoordTranslate,
    C::From: Clone + 'static,
{
    let fill = colour.filled();
    let e = EmptyElement::at(at);
    let q = r + 1;
    match m % MARKERS {
        0 => area.draw(&(e + Circle::new((0, 0), r, fill))),
        1 => area.draw(&(e + Polygon::new(vec![(0, -q), (q, r), (-q, r)], fill))),
        2 => area.draw(&(e + Rectangle::new([(-r, -r), (r, r)], fill))),
        3 => area.draw(&(e + Polygon::new(vec![(0, -q), (q, 0), (0, q), (-q, 0)], fill))),
        _ => {
            let pen = colour.stroke_width(2);
            area.draw(
                &(e + PathElement::new(vec![(-r, -r), (r, r)], pen)
                    + PathElement::new(vec![(-r, r), (r, -r)], pen)),
            )
        }
    }
    .map_err(err)
}

/// At most this many markers on a line drawn without a marker at every point.
const SPARSE_MARKERS: usize = 8;

/// Draws a series as a line in its dash pattern, with its marker at every point
/// (`markers`) or at a few points spread along it (so that every line carries its marker).
pub(super) fn draw_series(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Coords>,
    s: &Series,
    markers: bool,
) -> Result<(), String> {
    let colour = s.style.rgb();
    let style = line_style(colour);
    let points = s.points.iter().copied();
    match DASHES[s.style.dash % DASHES.len()] {
        (0, _) => chart
            .draw_series(LineSeries::new(points, style))
            .map(|_| ()),
        (on, off) => chart
            .draw_series(DashedLineSeries::new(points, on, off, style))
            .map(|_| ()),
    }
    .map_err(err)?;
    let n = s.points.len();
    let step = if markers {
        1
    } else {
        n.div_ceil(SPARSE_MARKERS).max(1)
    };
    // Sparse markers start at a place that depends on the colour, so that two lines that
    // run together do not put their markers on the same points.
    let first = if step > 1 {
        (s.style.colour * step / 10).min(n - 1)
    } else {
        0
    };
    let area = chart.plotting_area();
    for &p in s.points.iter().skip(first).step_by(step) {
        draw_marker(area, p, s.style.marker, colour, 4)?;
    }
    Ok(())
}

/// A chart: its SVG, or why it was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Chart {
    /// The SVG text.
    Drawn(String),
    /// Nothing to draw: why, as a sentence's end ("no solver reported states expanded").
    LeftOut(String),
}

/// A chart with nothing to draw is left out (never an empty box), saying why.
pub(super) fn nothing(why: &str) -> Result<Chart, String> {
    Ok(Chart::LeftOut(why.to_string()))
}

/// The charts of some runs: those drawn (file name, SVG) and those left out (file name, why).
#[derive(Clone, Debug, Default)]
pub struct Charts {
    /// File name and SVG text, in the order they are shown.
    pub drawn: Vec<(String, String)>,
    /// File name and why it was left out.
    pub left_out: Vec<(String, String)>,
}

impl Charts {
    /// Adds chart `file`.
    pub(crate) fn push(&mut self, file: String, chart: Chart) {
        match chart {
            Chart::Drawn(svg) => self.drawn.push((file, svg)),
            Chart::LeftOut(why) => self.left_out.push((file, why)),
        }
    }
    /// One sentence per chart left out: which and why.
    pub(crate) fn notes(&self) -> Vec<String> {
        self.left_out
            .iter()
            .map(|(file, why)| format!("{file} left out: {why}"))
            .collect()
    }
}

/// Legend entries for line series; a series identical to an earlier one of the same run says
/// so, since it is drawn exactly underneath it.
pub(super) fn line_legend(series: &[Series]) -> Vec<LegendEntry> {
    series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let twin = series[..i]
                .iter()
                .find(|t| t.run == s.run && t.points == s.points);
            let label = match twin {
                Some(t) => format!("{} (= {})", s.label, t.strategy),
                None => s.label.clone(),
            };
            LegendEntry::line(label, s.style)
        })
        .collect()
}

/// Latency percentile curves, HdrHistogram style: x is log10(1/(1-p)), y is µs on a log scale.
///
/// # Errors
/// Only when plotters' SVG backend fails to draw (`cannot draw the chart: …`).
pub(crate) fn latency(runs: &[RunData]) -> Result<Chart, String> {
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
        return nothing(
            "no solver has a measured latency (no answer right, or not timed case by case)",
        );
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
    .map(Chart::Drawn)
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
    let legend = line_legend(series);
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
pub(crate) fn expanded_by_length(runs: &[RunData]) -> Result<Chart, String> {
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
        return nothing("no solver reported states expanded on a solved case");
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
    .map(Chart::Drawn)
}

/// The bars' legend, in the order of the tables; a solver without a bar says so. `bars` are
/// (strategy index in `order`, run index, value).
fn bar_legend(
    runs: &[RunData],
    order: &[String],
    bars: &[(usize, usize, f64)],
) -> Vec<LegendEntry> {
    let mut legend = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for s in &run.strategies {
            let st = style_in(order, &s.name, ri);
            let mut label = label(runs, ri, &s.name);
            if !bars
                .iter()
                .any(|&(si, r, _)| r == ri && order[si] == s.name)
            {
                label += " (none)";
            }
            legend.push(LegendEntry {
                label,
                colour: st.rgb(),
                swatch: Swatch::Bar {
                    run: ri,
                    marker: st.marker,
                },
            });
        }
    }
    legend
}

/// Cases per second per strategy, as bars (grouped by strategy when runs are overlaid).
///
/// # Errors
/// Only when plotters' SVG backend fails to draw (`cannot draw the chart: …`).
pub(crate) fn throughput(runs: &[RunData]) -> Result<Chart, String> {
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
        return nothing("no solver answered a case right, so none has a throughput");
    }
    let min = bars.iter().map(|b| b.2).fold(f64::INFINITY, f64::min);
    let max = bars.iter().map(|b| b.2).fold(0.0, f64::max);
    // Head room above the tallest bar for its value.
    let y = Axis::log(
        min,
        max * 1.6,
        "cases per second (answers right / wall time, log scale)",
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
    let legend = bar_legend(runs, &order, &bars);
    let width = 0.8 / runs.len() as f64;
    let (y_lo, y_hi) = (y.lo, y.hi);
    draw(&title, &x, &y, &legend, |chart| {
        for &(si, ri, v) in &bars {
            let st = style_of(order.len(), si, ri);
            let colour = st.rgb();
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
            draw_marker(
                chart.plotting_area(),
                ((x0 + x1) / 2.0, top),
                st.marker,
                colour,
                4,
            )?;
            chart
                .draw_series(std::iter::once(Text::new(
                    number(v),
                    ((x0 + x1) / 2.0, top + 0.04 * (y_hi - y_lo)),
                    (FONT, 13)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                )))
                .map_err(err)?;
        }
        Ok(())
    })
    .map(Chart::Drawn)
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
    fn twenty_series_get_twenty_styles_and_a_strategy_keeps_its_colour() {
        use std::collections::HashSet;
        // One run of 20 solvers; 3 runs of 7; 2 runs of the same 15; 5 runs of 4.
        for (names, runs) in [(20, 1), (7, 3), (15, 2), (4, 5), (1, 20)] {
            let styles: Vec<Style> = (0..runs)
                .flat_map(|r| (0..names).map(move |k| style_of(names, k, r)))
                .collect();
            let distinct: HashSet<Style> = styles.iter().copied().collect();
            assert_eq!(distinct.len(), names * runs, "{names} × {runs}: {styles:?}");
            // Lines drawn without a marker at every point still differ by colour or dash
            // for a run of up to 40 solvers.
            if runs == 1 {
                let lines: HashSet<(usize, usize)> =
                    styles.iter().map(|s| (s.colour, s.dash)).collect();
                assert_eq!(lines.len(), names);
            }
            // The same strategy has the same colour in every run.
            for k in 0..names {
                let c: HashSet<usize> = (0..runs).map(|r| style_of(names, k, r).colour).collect();
                assert_eq!(c.len(), 1);
            }
        }
        // Ten colours, four dashes and five markers are all used by 20 series.
        let s: Vec<Style> = (0..20).map(|k| style_of(20, k, 0)).collect();
        assert_eq!(s.iter().map(|s| s.colour).collect::<HashSet<_>>().len(), 10);
        let s: Vec<Style> = (0..20).map(|r| style_of(1, 0, r)).collect();
        assert_eq!(s.iter().map(|s| s.dash).collect::<HashSet<_>>().len(), 4);
        assert_eq!(s.iter().map(|s| s.marker).collect::<HashSet<_>>().len(), 5);
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
