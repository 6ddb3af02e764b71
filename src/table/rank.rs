//! The ranking of a class: right answers, then optimal answers, then median time.

use super::build::mark_best;
use super::load::{Data, Timing};
use super::{Row, Table, Value};
use crate::results::record::RowStatus;

/// One solver's standing.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Standing {
    /// The solver (an index into [`Data::solvers`]).
    pub solver: usize,
    /// Tasks answered right.
    pub right: usize,
    /// Of those, answered with an optimal path (or a proof of unsolvability).
    pub optimal: usize,
    /// Tasks answered wrong: a `wrong` row, or an answer an optimal length contradicts.
    pub wrong: usize,
    /// Tasks not answered: limit, error, invalid, or no row.
    pub unanswered: usize,
    /// The median time of the right answers in µs (nearest rank); a batch-mode program's
    /// mean per case; `None` when not measured.
    pub median_us: Option<f64>,
}

/// Every solver's standing, best first: most right answers, then most optimal ones, then the
/// lowest median time (unmeasured last), then the label.
pub(crate) fn standings(data: &Data) -> Vec<Standing> {
    let mut out: Vec<Standing> = (0..data.solvers.len()).map(|s| standing(data, s)).collect();
    out.sort_by(|a, b| {
        b.right
            .cmp(&a.right)
            .then(b.optimal.cmp(&a.optimal))
            .then(match (a.median_us, b.median_us) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| {
                data.solvers[a.solver]
                    .label
                    .cmp(&data.solvers[b.solver].label)
            })
    });
    out
}

fn standing(data: &Data, s: usize) -> Standing {
    let mut st = Standing {
        solver: s,
        right: 0,
        optimal: 0,
        wrong: 0,
        unanswered: 0,
        median_us: None,
    };
    let mut times = Vec::new();
    for t in 0..data.tasks.len() {
        let o = data.outcomes[t][s].as_ref();
        if data.right(t, s) {
            st.right += 1;
            st.optimal += usize::from(data.optimal(t, s));
            if let Some(ns) = o.and_then(|o| o.latency_ns) {
                times.push(ns as f64 / 1000.0);
            }
        } else if matches!(
            o.map(|o| o.status),
            Some(RowStatus::Wrong | RowStatus::Solved | RowStatus::Unsolvable)
        ) {
            st.wrong += 1;
        } else {
            st.unanswered += 1;
        }
    }
    st.median_us = match data.solvers[s].timing {
        Timing::BatchMean => data.solvers[s].batch_mean_us,
        _ => super::Aggregate::Median.of(&times),
    };
    st
}

/// The ranking as a table, a row per solver in rank order: solver, rank, right, optimal, wrong, not answered, median
/// µs, and how the solver was timed.
pub(crate) fn ranking(data: &Data) -> Table {
    let header: Vec<String> = [
        "solver",
        "rank",
        "right",
        "optimal",
        "wrong",
        "not answered",
        "median µs",
        "timed",
    ]
    .map(String::from)
    .to_vec();
    let standings = standings(data);
    let columns: Vec<Vec<Value>> = standings
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let solver = &data.solvers[st.solver];
            vec![
                Value::Text(solver.label.clone()),
                Value::Int(i as i64 + 1),
                Value::Int(st.right as i64),
                Value::Int(st.optimal as i64),
                Value::Int(st.wrong as i64),
                Value::Int(st.unanswered as i64),
                st.median_us.map_or(Value::Missing, |m| Value::Real(m, 1)),
                Value::Text(solver.timing.name().into()),
            ]
        })
        .collect();
    // The best of each column (most right and optimal, fewest wrong and unanswered, the
    // lowest time): a column of the ranking is a row of the comparison.
    let mut best = vec![vec![false; header.len()]; columns.len()];
    for (c, max_wins) in [(2, true), (3, true), (4, false), (5, false), (6, false)] {
        let mut column = Row {
            cells: columns.iter().map(|r| r[c].clone()).collect(),
            best: vec![false; columns.len()],
            total: false,
        };
        mark_best(&mut column, 0, max_wins);
        for (r, b) in column.best.into_iter().enumerate() {
            best[r][c] = b;
        }
    }
    let rows = columns
        .into_iter()
        .zip(best)
        .map(|(cells, best)| Row {
            cells,
            best,
            total: false,
        })
        .collect();
    Table {
        name: "ranking".into(),
        title: "Ranking".into(),
        header,
        first_value: 1,
        rows,
        notes: vec![format!(
            "Sorted by right answers, then optimal answers, then median time. Of {} tasks: \
             right = solved with a right answer or proved unsolvable; optimal = of those, as \
             short as the optimum; wrong = a wrong answer; not answered = a limit, an error, \
             an invalid row or no row. median µs: the median time of the right answers, or \
             for a batch-mode program its batch's wall time per case; timed: how that time \
             was measured (in process: the solve alone; round trip: a persistent program's \
             answer to one case; process per case: the wall time of a process run for the \
             case; batch mean: no time per case). The best of each column is in bold.",
            data.tasks.len()
        )],
    }
}
