//! Data and a [`Spec`] → typed [`Table`]s: coverage, aggregates per group, per-task values.

use super::attribute::{Attribute, GroupBy, Measure};
use super::load::Data;
use super::{rank, Row, Table, Value};

/// What tables to make.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// What the rows of the attribute tables are.
    pub by: GroupBy,
    /// One table per measure, in order.
    pub measures: Vec<Measure>,
    /// Also a table of every task × solver for this attribute.
    pub per_task: Option<Attribute>,
    /// Also the ranking of the solvers (see `rank::ranking`).
    pub ranking: bool,
}

impl Default for Spec {
    /// Coverage, `expanded:gmean` and `latency:gmean` by input.
    fn default() -> Spec {
        Spec {
            by: GroupBy::Input,
            measures: vec![
                Measure::coverage(),
                Measure {
                    attribute: Attribute::Expanded,
                    aggregate: super::Aggregate::Gmean,
                },
                Measure {
                    attribute: Attribute::Latency,
                    aggregate: super::Aggregate::Gmean,
                },
            ],
            per_task: None,
            ranking: false,
        }
    }
}

/// The tables `spec` asks for, in order: one per measure, the per-task table, the ranking.
/// The first carries the notes about the data (solvers without a row for some tasks).
pub fn build(data: &Data, spec: &Spec) -> Vec<Table> {
    let groups = spec.by.groups(data);
    let mut tables: Vec<Table> = spec
        .measures
        .iter()
        .map(|m| measure_table(data, &groups, *m, spec.by))
        .collect();
    if let Some(a) = spec.per_task {
        tables.push(per_task_table(data, a));
    }
    if spec.ranking {
        tables.push(rank::ranking(data));
    }
    if let Some(first) = tables.first_mut() {
        first.notes.extend(absent_rows(data));
    }
    tables
}

/// A sentence per solver whose run has no row for some tasks.
fn absent_rows(data: &Data) -> Vec<String> {
    let n = data.tasks.len();
    (0..data.solvers.len())
        .filter_map(|s| {
            let absent = data.outcomes.iter().filter(|o| o[s].is_none()).count();
            (absent > 0).then(|| {
                format!(
                    "{} has no row for {absent} of the {n} tasks (its run did not hold them): \
                     they count as not answered.",
                    data.solvers[s].label
                )
            })
        })
        .collect()
}

/// Marks the best value of `row` among the columns from `from`: the largest if `max_wins`,
/// else the smallest, all ties; nothing when fewer than two columns have a value.
pub(crate) fn mark_best(row: &mut Row, from: usize, max_wins: bool) {
    let numbers: Vec<(usize, f64)> = row
        .cells
        .iter()
        .enumerate()
        .skip(from)
        .filter_map(|(i, v)| Some((i, v.number()?)))
        .collect();
    if numbers.len() < 2 {
        return;
    }
    let pick = if max_wins { f64::max } else { f64::min };
    let best = numbers
        .iter()
        .map(|n| n.1)
        .reduce(pick)
        .expect("two values");
    for (i, v) in numbers {
        row.best[i] = v == best;
    }
}

fn header(first: &str, data: &Data) -> Vec<String> {
    let mut h = vec![first.to_string(), "tasks".to_string()];
    h.extend(data.solvers.iter().map(|s| s.label.clone()));
    h
}

/// One row: the label, a count of tasks, one value per solver; the best marked.
fn row(label: String, tasks: usize, values: Vec<Value>, max_wins: bool, total: bool) -> Row {
    let mut cells = vec![Value::Text(label), Value::Int(tasks as i64)];
    cells.extend(values);
    let mut r = Row {
        best: vec![false; cells.len()],
        cells,
        total,
    };
    mark_best(&mut r, 2, max_wins);
    r
}

/// Coverage: tasks answered right per group and solver, and their sum.
fn coverage_table(data: &Data, groups: &[(String, Vec<usize>)], by: GroupBy) -> Table {
    let count = |tasks: &[usize]| -> Vec<Value> {
        (0..data.solvers.len())
            .map(|s| Value::Int(tasks.iter().filter(|&&t| data.right(t, s)).count() as i64))
            .collect()
    };
    let mut rows: Vec<Row> = groups
        .iter()
        .map(|(label, tasks)| row(label.clone(), tasks.len(), count(tasks), true, false))
        .collect();
    let all: Vec<usize> = (0..data.tasks.len()).collect();
    rows.push(row("sum".into(), all.len(), count(&all), true, true));
    Table {
        name: "coverage".into(),
        title: format!("Coverage by {}", by.name()),
        header: header(by.name(), data),
        first_value: 1,
        rows,
        notes: vec![
            "coverage: tasks answered right (solved with a right answer, or proved \
             unsolvable); tasks: the tasks of the row. The best of each row is in bold."
                .into(),
        ],
    }
}

/// The tasks of `tasks` an aggregate of `a` is over: those every solver answered right, and
/// that the attribute applies to (some solver has a value: the steps of an unsolvable task,
/// the suboptimality of a task of unknown optimum have none).
fn common(data: &Data, a: Attribute, tasks: &[usize]) -> Vec<usize> {
    data.common(tasks)
        .into_iter()
        .filter(|&t| (0..data.solvers.len()).any(|s| a.value(data, t, s).is_some()))
        .collect()
}

/// The aggregate of one solver's values over `tasks`: missing unless every task has one.
fn aggregate(data: &Data, m: Measure, tasks: &[usize], s: usize) -> Value {
    let values: Option<Vec<f64>> = tasks
        .iter()
        .map(|&t| m.attribute.value(data, t, s))
        .collect();
    match values.and_then(|v| m.aggregate.of(&v)) {
        Some(x) => Value::Real(x, m.attribute.decimals(false)),
        None => Value::Missing,
    }
}

/// An attribute's aggregate per group and solver, over the tasks every solver answered right.
fn measure_table(data: &Data, groups: &[(String, Vec<usize>)], m: Measure, by: GroupBy) -> Table {
    if m.attribute == Attribute::Coverage {
        return coverage_table(data, groups, by);
    }
    let values = |common: &[usize]| -> Vec<Value> {
        (0..data.solvers.len())
            .map(|s| aggregate(data, m, common, s))
            .collect()
    };
    let mut rows: Vec<Row> = groups
        .iter()
        .map(|(label, tasks)| {
            let common = common(data, m.attribute, tasks);
            row(label.clone(), common.len(), values(&common), false, false)
        })
        .collect();
    let all: Vec<usize> = (0..data.tasks.len()).collect();
    let common = common(data, m.attribute, &all);
    rows.push(row(
        "all".into(),
        common.len(),
        values(&common),
        false,
        true,
    ));
    let unit = m
        .attribute
        .unit()
        .map_or(String::new(), |u| format!(" in {u}"));
    Table {
        name: m.name(),
        title: format!(
            "{} of {}{unit} by {}",
            capitalized(&m.aggregate.words()),
            m.attribute.name(),
            by.name()
        ),
        header: header(by.name(), data),
        first_value: 1,
        rows,
        notes: vec![format!(
            "{}: the {} of {}{unit} over the tasks of the row that every solver answered \
             right (Lab's rule: each solver measured on the same tasks) and that have the \
             attribute; tasks: how many, {} of the {} tasks in all.{} A solver without the \
             value on one of them shows —. The lowest of each row is in bold.",
            m.name(),
            m.aggregate.words(),
            m.attribute.name(),
            common.len(),
            data.tasks.len(),
            if m.aggregate == super::Aggregate::Gmean {
                " A 0 counts as 1 (tasks answered without search have 0 counters)."
            } else {
                ""
            }
        )],
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// Every task × solver for one attribute (the tasks' values where answered right), and the
/// attribute's default aggregate over the tasks every solver answered right.
fn per_task_table(data: &Data, a: Attribute) -> Table {
    let max_wins = a.max_wins();
    let value = |t: usize, s: usize| match a.value(data, t, s) {
        Some(v) if a == Attribute::Coverage => Value::Int(v as i64),
        Some(v) => Value::Real(v, a.decimals(true)),
        // Coverage is 0 on a task not answered right; other values are missing.
        None if a == Attribute::Coverage => Value::Int(0),
        None => Value::Missing,
    };
    let mut rows: Vec<Row> = (0..data.tasks.len())
        .map(|t| {
            let mut cells = vec![Value::Text(data.tasks[t].label())];
            cells.extend((0..data.solvers.len()).map(|s| value(t, s)));
            let mut r = Row {
                best: vec![false; cells.len()],
                cells,
                total: false,
            };
            mark_best(&mut r, 1, max_wins);
            r
        })
        .collect();
    let m = Measure {
        attribute: a,
        aggregate: a.default_aggregate(),
    };
    let all: Vec<usize> = (0..data.tasks.len()).collect();
    let over = if a == Attribute::Coverage {
        all
    } else {
        common(data, a, &all)
    };
    let mut cells = vec![Value::Text(format!(
        "{} ({} tasks)",
        m.aggregate.name(),
        over.len()
    ))];
    cells.extend((0..data.solvers.len()).map(|s| match a {
        Attribute::Coverage => {
            Value::Int(over.iter().filter(|&&t| data.right(t, s)).count() as i64)
        }
        _ => aggregate(data, m, &over, s),
    }));
    let mut total = Row {
        best: vec![false; cells.len()],
        cells,
        total: true,
    };
    mark_best(&mut total, 1, max_wins);
    rows.push(total);
    let mut header = vec!["task".to_string()];
    header.extend(data.solvers.iter().map(|s| s.label.clone()));
    let unit = a.unit().map_or(String::new(), |u| format!(" in {u}"));
    Table {
        name: format!("per-task {}", a.name()),
        title: format!("{}{unit} per task", capitalized(a.name())),
        header,
        first_value: 1,
        rows,
        notes: vec![format!(
            "{}{unit} of each task (input:line) where the solver answered it right, else —; \
             the last row: the {} over the {} tasks {}. The best of each row is in bold.",
            a.name(),
            m.aggregate.words(),
            over.len(),
            if a == Attribute::Coverage {
                "in all"
            } else {
                "every solver answered right"
            }
        )],
    }
}
