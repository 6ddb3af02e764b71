//! What a table shows: attributes (per task), aggregates (per row) and the grouping of rows.

use super::load::{Data, Task};
use super::TableError;

/// A per-task figure of one solver, named as on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    /// Tasks answered right (a count per row, summed).
    Coverage,
    /// cases.csv's `expanded`.
    Expanded,
    /// cases.csv's `generated`.
    Generated,
    /// cases.csv's `stored`.
    Stored,
    /// cases.csv's `peak_frontier`.
    PeakFrontier,
    /// cases.csv's `latency_ns`, shown in µs.
    Latency,
    /// cases.csv's `steps` (solved tasks).
    Steps,
    /// `steps` ÷ the task's optimal length (solved tasks of known optimum above 0).
    Suboptimality,
    /// cases.csv's `cpu_us` (per-case external programs).
    Cpu,
    /// cases.csv's `max_rss_kb` (per-case external programs).
    MaxRss,
}

impl Attribute {
    /// Every attribute, in the order the help lists them.
    pub(crate) const ALL: [Attribute; 10] = [
        Attribute::Coverage,
        Attribute::Expanded,
        Attribute::Generated,
        Attribute::Stored,
        Attribute::PeakFrontier,
        Attribute::Latency,
        Attribute::Steps,
        Attribute::Suboptimality,
        Attribute::Cpu,
        Attribute::MaxRss,
    ];

    /// The name on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Attribute::Coverage => "coverage",
            Attribute::Expanded => "expanded",
            Attribute::Generated => "generated",
            Attribute::Stored => "stored",
            Attribute::PeakFrontier => "peak_frontier",
            Attribute::Latency => "latency",
            Attribute::Steps => "steps",
            Attribute::Suboptimality => "suboptimality",
            Attribute::Cpu => "cpu",
            Attribute::MaxRss => "max_rss",
        }
    }

    /// The unit the values are shown in, if any.
    pub(crate) fn unit(self) -> Option<&'static str> {
        match self {
            Attribute::Latency | Attribute::Cpu => Some("µs"),
            Attribute::MaxRss => Some("KB"),
            _ => None,
        }
    }

    /// The aggregate used when none is given.
    pub(crate) fn default_aggregate(self) -> Aggregate {
        match self {
            Attribute::Coverage => Aggregate::Sum,
            Attribute::Steps | Attribute::Suboptimality | Attribute::MaxRss => Aggregate::Mean,
            _ => Aggregate::Gmean,
        }
    }

    /// Whether more is better (coverage); else less is.
    pub(crate) fn max_wins(self) -> bool {
        self == Attribute::Coverage
    }

    /// Decimals shown for a value (an aggregate, or a per-task value).
    pub(crate) fn decimals(self, per_task: bool) -> usize {
        match self {
            Attribute::Suboptimality => 3,
            Attribute::Latency | Attribute::Cpu => 1,
            _ if per_task => 0,
            _ => 2,
        }
    }

    /// The value of `solver` on `task`, when it answered right and the value was measured.
    pub(crate) fn value(self, data: &Data, task: usize, solver: usize) -> Option<f64> {
        if !data.right(task, solver) {
            return None;
        }
        let o = data.outcomes[task][solver].as_ref()?;
        let n = |v: Option<u64>| v.map(|v| v as f64);
        match self {
            Attribute::Coverage => Some(1.0),
            Attribute::Expanded => n(o.expanded),
            Attribute::Generated => n(o.generated),
            Attribute::Stored => n(o.stored),
            Attribute::PeakFrontier => n(o.peak_frontier),
            Attribute::Latency => n(o.latency_ns).map(|ns| ns / 1000.0),
            Attribute::Steps => o.steps.filter(|s| *s >= 0).map(|s| s as f64),
            // As cases.csv's `suboptimality`: a start that is its goal, answered in 0 moves,
            // is 1 (shortest), not left out.
            Attribute::Suboptimality => {
                let opt = data.tasks[task].optimum.filter(|o| *o >= 0)?;
                match (o.steps.filter(|s| *s >= 0)?, opt) {
                    (0, 0) => Some(1.0),
                    (_, 0) => None,
                    (s, opt) => Some(s as f64 / opt as f64),
                }
            }
            Attribute::Cpu => n(o.cpu_us),
            Attribute::MaxRss => n(o.max_rss_kb),
        }
    }

    /// `coverage, expanded, …`: the names, for messages.
    pub(crate) fn choices() -> String {
        Attribute::ALL.map(Attribute::name).join(", ")
    }
}

impl std::str::FromStr for Attribute {
    type Err = TableError;
    fn from_str(s: &str) -> Result<Attribute, TableError> {
        let s = s.trim();
        Attribute::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| TableError::UnknownAttribute(s.to_string()))
    }
}

/// How a row's per-task values become one value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Aggregate {
    /// The sum.
    Sum,
    /// The arithmetic mean.
    Mean,
    /// The geometric mean (a 0 counts as 1: a task answered without search has 0 counters).
    Gmean,
    /// The median (nearest rank: the lower middle of an even count).
    Median,
    /// A percentile, 0 to 100 (nearest rank).
    Percentile(u8),
    /// The smallest value.
    Min,
    /// The largest value.
    Max,
}

impl Aggregate {
    /// The names, for messages and the help.
    pub(crate) const CHOICES: &'static str =
        "sum, mean, gmean, median, p0 to p100 (e.g. p50, p99), min, max";

    /// The name on the command line.
    pub(crate) fn name(self) -> String {
        match self {
            Aggregate::Sum => "sum".into(),
            Aggregate::Mean => "mean".into(),
            Aggregate::Gmean => "gmean".into(),
            Aggregate::Median => "median".into(),
            Aggregate::Percentile(p) => format!("p{p}"),
            Aggregate::Min => "min".into(),
            Aggregate::Max => "max".into(),
        }
    }

    /// Words for the notes: `geometric mean`, `99th percentile`…
    pub(crate) fn words(self) -> String {
        match self {
            Aggregate::Sum => "sum".into(),
            Aggregate::Mean => "arithmetic mean".into(),
            Aggregate::Gmean => "geometric mean".into(),
            Aggregate::Median => "median".into(),
            Aggregate::Percentile(p) => format!("{p}th percentile"),
            Aggregate::Min => "minimum".into(),
            Aggregate::Max => "maximum".into(),
        }
    }

    /// The aggregate of `values`; `None` when there are none.
    pub(crate) fn of(self, values: &[f64]) -> Option<f64> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mut sorted = values.to_vec();
        Some(match self {
            Aggregate::Sum => values.iter().sum(),
            Aggregate::Mean => values.iter().sum::<f64>() / n,
            Aggregate::Gmean => (values.iter().map(|v| v.max(1.0).ln()).sum::<f64>() / n).exp(),
            Aggregate::Median => crate::stats::quantile(&mut sorted, 0.5),
            Aggregate::Percentile(p) => crate::stats::quantile(&mut sorted, f64::from(p) / 100.0),
            Aggregate::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
            Aggregate::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
    }
}

impl std::str::FromStr for Aggregate {
    type Err = String;
    fn from_str(s: &str) -> Result<Aggregate, String> {
        let s = s.trim().to_ascii_lowercase();
        Ok(match s.as_str() {
            "sum" => Aggregate::Sum,
            "mean" => Aggregate::Mean,
            "gmean" => Aggregate::Gmean,
            "median" => Aggregate::Median,
            "min" => Aggregate::Min,
            "max" => Aggregate::Max,
            _ => match s.strip_prefix('p').and_then(|p| p.parse::<u8>().ok()) {
                Some(p) if p <= 100 => Aggregate::Percentile(p),
                _ => return Err(s),
            },
        })
    }
}

/// An attribute with its aggregate: `expanded:gmean`, or `coverage`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    /// The per-task figure.
    pub attribute: Attribute,
    /// How a row's values are combined.
    pub aggregate: Aggregate,
}

impl Measure {
    /// Coverage, summed.
    pub(crate) fn coverage() -> Measure {
        Measure {
            attribute: Attribute::Coverage,
            aggregate: Aggregate::Sum,
        }
    }

    /// `attribute:aggregate` (or `coverage`), the table's name.
    pub(crate) fn name(self) -> String {
        if self.attribute == Attribute::Coverage {
            return "coverage".into();
        }
        format!("{}:{}", self.attribute.name(), self.aggregate.name())
    }
}

impl std::str::FromStr for Measure {
    type Err = TableError;
    /// `ATTRIBUTE` or `ATTRIBUTE:AGGREGATE`.
    fn from_str(s: &str) -> Result<Measure, TableError> {
        let (a, g) = match s.split_once(':') {
            Some((a, g)) => (a, Some(g)),
            None => (s, None),
        };
        let attribute: Attribute = a.parse()?;
        let aggregate = match g {
            None => attribute.default_aggregate(),
            Some(g) => g
                .parse()
                .map_err(|aggregate| TableError::UnknownAggregate {
                    given: s.trim().to_string(),
                    aggregate,
                })?,
        };
        if attribute == Attribute::Coverage && aggregate != Aggregate::Sum {
            return Err(TableError::CoverageAggregate(s.trim().to_string()));
        }
        Ok(Measure {
            attribute,
            aggregate,
        })
    }
}

/// What a table's rows are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GroupBy {
    /// The dataset file (the domain).
    #[default]
    Input,
    /// The board's size (cells).
    Size,
    /// The task's optimal length.
    Depth,
}

impl GroupBy {
    /// The names on the command line.
    pub const NAMES: [&'static str; 3] = ["input", "size", "depth"];

    /// The name on the command line, and the label column's header.
    pub(crate) fn name(self) -> &'static str {
        match self {
            GroupBy::Input => "input",
            GroupBy::Size => "size",
            GroupBy::Depth => "depth",
        }
    }

    /// The groups of `data`'s tasks: (label, task indices), in order (inputs as they first
    /// appear, sizes and depths ascending, then `unsolvable` and `unknown`).
    pub(crate) fn groups(self, data: &Data) -> Vec<(String, Vec<usize>)> {
        let key = |t: &Task, first: usize| -> (i64, String) {
            match self {
                GroupBy::Input => (first as i64, t.input.clone()),
                GroupBy::Size => (t.cells as i64, size_label(t.cells)),
                GroupBy::Depth => match t.optimum {
                    Some(d) if d >= 0 => (d, d.to_string()),
                    Some(_) => (i64::MAX - 1, "unsolvable".into()),
                    None => (i64::MAX, "unknown".into()),
                },
            }
        };
        let mut groups: std::collections::BTreeMap<(i64, String), Vec<usize>> = Default::default();
        let mut firsts: Vec<&str> = Vec::new();
        for (i, t) in data.tasks.iter().enumerate() {
            let first = match firsts.iter().position(|f| *f == t.input) {
                Some(p) => p,
                None => {
                    firsts.push(&t.input);
                    firsts.len() - 1
                }
            };
            groups.entry(key(t, first)).or_default().push(i);
        }
        groups.into_iter().map(|((_, l), ts)| (l, ts)).collect()
    }
}

impl std::str::FromStr for GroupBy {
    type Err = String;
    fn from_str(s: &str) -> Result<GroupBy, String> {
        match s.trim() {
            "input" => Ok(GroupBy::Input),
            "size" => Ok(GroupBy::Size),
            "depth" => Ok(GroupBy::Depth),
            _ => Err(format!("`{s}`: choose input, size or depth")),
        }
    }
}

/// `3x3` for a square board of `cells` cells, else `N cells` (cases.csv does not say the
/// shape of a 12-cell board: 3x4, 4x3, 2x6…).
fn size_label(cells: usize) -> String {
    let side = (cells as f64).sqrt().round() as usize;
    if side * side == cells {
        format!("{side}x{side}")
    } else {
        format!("{cells} cells")
    }
}
