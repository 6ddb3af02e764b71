//! Aggregates, sum rows, best-marking, missing values and the ranking, on hand-made data.

use super::*;
use crate::results::record::RowStatus;

fn solver(label: &str, judged: bool, timing: Timing) -> Solver {
    Solver {
        label: label.into(),
        run: "run".into(),
        name: label.into(),
        timing,
        batch_mean_us: None,
        judged,
    }
}

fn task(input: &str, line: u64, optimum: Option<i64>) -> Task {
    Task {
        input: input.into(),
        line,
        id: String::new(),
        cells: 9,
        optimum,
    }
}

/// A solved row of `steps` moves, `expanded` states, `latency_ns`.
fn solved(steps: i64, expanded: u64, latency_ns: Option<u64>) -> Option<Outcome> {
    Some(Outcome {
        steps: Some(steps),
        expanded: Some(expanded),
        latency_ns,
        ..Outcome::new(RowStatus::Solved)
    })
}

fn limit() -> Option<Outcome> {
    Some(Outcome {
        expanded: Some(5000),
        latency_ns: Some(9_000),
        ..Outcome::new(RowStatus::Limit)
    })
}

/// Two inputs: a (tasks 0, 1, 2) and b (task 3). Solvers: `fast` (optimal, solves all but
/// task 3, which it answers with the wrong length), `slow` (optimal, all but task 1: limit),
/// `prog` (a judged batch program: all four, task 2 not optimal, no latency).
fn data() -> Data {
    let mut prog_suboptimal = solved(12, 0, None);
    if let Some(o) = &mut prog_suboptimal {
        o.optimal = Some(false);
        o.expanded = None;
    }
    let prog = |steps| {
        let mut o = solved(steps, 0, None);
        if let Some(o) = &mut o {
            o.optimal = Some(true);
            o.expanded = None;
        }
        o
    };
    let mut batch = solver("prog", true, Timing::BatchMean);
    batch.batch_mean_us = Some(250.0);
    Data {
        solvers: vec![
            solver("fast", false, Timing::InProcess),
            solver("slow", false, Timing::InProcess),
            batch,
        ],
        tasks: vec![
            task("a.csv", 2, Some(4)),
            task("a.csv", 3, Some(6)),
            task("a.csv", 4, Some(10)),
            task("b.csv", 2, Some(8)),
        ],
        outcomes: vec![
            vec![
                solved(4, 10, Some(1000)),
                solved(4, 40, Some(4000)),
                prog(4),
            ],
            vec![solved(6, 20, Some(2000)), limit(), prog(6)],
            vec![
                solved(10, 90, Some(3000)),
                solved(10, 160, Some(8000)),
                prog_suboptimal,
            ],
            vec![solved(9, 0, Some(500)), solved(8, 0, Some(700)), prog(8)],
        ],
    }
}

fn numbers(row: &Row) -> Vec<Option<f64>> {
    row.cells.iter().map(Value::number).collect()
}

#[test]
fn coverage_counts_right_answers_per_group_with_a_sum_row() {
    let d = data();
    let t = &build(
        &d,
        &Spec {
            measures: vec![Measure::coverage()],
            ..Spec::default()
        },
    )[0];
    assert_eq!(t.header, ["input", "tasks", "fast", "slow", "prog"]);
    // fast's 9 moves on task 3 (optimum 8) is not right; slow's limit is not an answer; a
    // judged program's not-optimal answer is still a right (valid) one.
    let rows: Vec<Vec<Option<f64>>> = t.rows.iter().map(numbers).collect();
    assert_eq!(rows[0][1..], [Some(3.0), Some(3.0), Some(2.0), Some(3.0)]);
    assert_eq!(rows[1][1..], [Some(1.0), Some(0.0), Some(1.0), Some(1.0)]);
    assert_eq!(rows[2][1..], [Some(4.0), Some(3.0), Some(3.0), Some(4.0)]);
    assert_eq!(t.rows[2].cells[0], Value::Text("sum".into()));
    assert!(t.rows[2].total && !t.rows[0].total);
    // The best of a row: the most, every tie, never the `tasks` column.
    assert_eq!(t.rows[0].best, [false, false, true, false, true]);
    assert_eq!(t.rows[1].best, [false, false, false, true, true]);
}

#[test]
fn a_geometric_mean_is_over_the_tasks_every_solver_answered_right() {
    let d = data();
    let m: Measure = "expanded:gmean".parse().unwrap();
    let t = &build(
        &d,
        &Spec {
            measures: vec![m],
            ..Spec::default()
        },
    )[0];
    // Input a: tasks 0 and 2 are right for all three (task 1: slow hit its limit).
    let a = &t.rows[0];
    assert_eq!(a.cells[1], Value::Int(2));
    let fast = a.cells[2].number().unwrap();
    let slow = a.cells[3].number().unwrap();
    assert!((fast - (10.0f64 * 90.0).sqrt()).abs() < 0.01, "{fast}");
    assert!((slow - (40.0f64 * 160.0).sqrt()).abs() < 0.01, "{slow}");
    // prog reports no counters: missing, never 0, and not the best.
    assert_eq!(a.cells[4], Value::Missing);
    assert_eq!(a.best, [false, false, true, false, false]);
    // Input b: no task right for all (fast's answer is wrong): every value missing.
    assert_eq!(t.rows[1].cells[1], Value::Int(0));
    assert!(t.rows[1].cells[2..].iter().all(|v| *v == Value::Missing));
    assert!(t.rows[1].best.iter().all(|b| !b));
    // The `all` row: the same two tasks.
    assert_eq!(numbers(&t.rows[2])[2..4], [Some(fast), Some(slow)]);
    assert!(
        t.notes[0].contains("every solver answered right"),
        "{:?}",
        t.notes
    );
}

#[test]
fn aggregates_compute_what_they_say_and_a_zero_counts_as_one_in_a_gmean() {
    let xs = [1.0, 4.0, 16.0, 2.0];
    assert_eq!(Aggregate::Sum.of(&xs), Some(23.0));
    assert_eq!(Aggregate::Mean.of(&xs), Some(5.75));
    assert!((Aggregate::Gmean.of(&xs).unwrap() - 128f64.powf(0.25)).abs() < 1e-9);
    assert!((Aggregate::Gmean.of(&[0.0, 100.0]).unwrap() - 10.0).abs() < 1e-9);
    assert_eq!(Aggregate::Median.of(&xs), Some(2.0));
    assert_eq!(Aggregate::Percentile(100).of(&xs), Some(16.0));
    assert_eq!(Aggregate::Min.of(&xs), Some(1.0));
    assert_eq!(Aggregate::Max.of(&xs), Some(16.0));
    assert_eq!(Aggregate::Gmean.of(&[]), None);
}

#[test]
fn names_parse_and_bad_names_list_the_choices() {
    let m: Measure = "latency:p50".parse().unwrap();
    assert_eq!(m.aggregate, Aggregate::Percentile(50));
    assert_eq!(m.name(), "latency:p50");
    let m: Measure = "suboptimality".parse().unwrap();
    assert_eq!(m.aggregate, Aggregate::Mean);
    let e = "expandd:gmean".parse::<Measure>().unwrap_err().to_string();
    assert!(
        e.contains("`expandd`") && e.contains("coverage, expanded"),
        "{e}"
    );
    let e = "expanded:geomean"
        .parse::<Measure>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`geomean`") && e.contains("gmean, median"),
        "{e}"
    );
    let e = "coverage:gmean".parse::<Measure>().unwrap_err().to_string();
    assert!(e.contains("write `coverage`"), "{e}");
    let e = render::format("docx").unwrap_err().to_string();
    assert!(e.contains("md, tex, csv, html"), "{e}");
}

#[test]
fn missing_is_empty_in_csv_and_a_dash_elsewhere_never_zero() {
    let d = data();
    let spec = Spec {
        measures: vec!["latency:gmean".parse().unwrap()],
        ..Spec::default()
    };
    let tables = build(&d, &spec);
    let csv = render(&tables, render::format("csv").unwrap());
    let mut r = ::csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<::csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let prog_a = rows
        .iter()
        .find(|r| &r[1] == "a.csv" && &r[2] == "prog")
        .unwrap();
    assert_eq!((&prog_a[3], &prog_a[4]), ("", "false"));
    let fast_a = rows
        .iter()
        .find(|r| &r[1] == "a.csv" && &r[2] == "fast")
        .unwrap();
    let want = (1.0f64 * 3.0).sqrt(); // µs over tasks 0 and 2
    assert!((fast_a[3].parse::<f64>().unwrap() - want).abs() < 1e-9);
    assert_eq!(&fast_a[4], "true");
    let md = render(&tables, render::format("md").unwrap());
    assert!(md.contains("| a.csv | 2 | **1.7** | 5.7 | — |"), "{md}");
    let tex = render(&tables, render::format("tex").unwrap());
    assert!(
        tex.contains("a.csv & 2 & \\textbf{1.7} & 5.7 & --- \\\\"),
        "{tex}"
    );
    let html = render(&tables, render::format("html").unwrap());
    assert!(
        html.contains("<strong class=\"best\">1.7</strong>"),
        "{html}"
    );
    // b.csv has no task every solver answered right: nothing to aggregate, no 0.
    let b: Vec<&::csv::StringRecord> = rows
        .iter()
        .filter(|r| &r[1] == "b.csv" && &r[2] != "tasks")
        .collect();
    assert_eq!(b.len(), 3);
    assert!(
        b.iter().all(|r| r[3].is_empty() && &r[4] == "false"),
        "{b:?}"
    );
    assert!(md.contains("| b.csv | 0 | — | — | — |"), "{md}");
}

#[test]
fn the_ranking_sorts_by_right_then_optimal_then_median_time() {
    let d = data();
    let s = rank::standings(&d);
    let order: Vec<&str> = s
        .iter()
        .map(|s| d.solvers[s.solver].label.as_str())
        .collect();
    // prog: 4 right, 3 optimal; fast: 3 right (one wrong), 3 optimal; slow: 3 right, 3
    // optimal, slower than fast.
    assert_eq!(order, ["prog", "fast", "slow"]);
    assert_eq!((s[0].right, s[0].optimal, s[0].wrong), (4, 3, 0));
    assert_eq!((s[1].right, s[1].wrong, s[1].unanswered), (3, 1, 0));
    assert_eq!((s[2].right, s[2].wrong, s[2].unanswered), (3, 0, 1));
    // Medians of the right answers' times (nearest rank), and the batch's mean.
    assert_eq!(s[1].median_us, Some(2.0));
    assert_eq!(s[2].median_us, Some(4.0));
    assert_eq!(s[0].median_us, Some(250.0));
    let t = rank::ranking(&d);
    assert_eq!(t.rows[0].cells[7], Value::Text("batch mean".into()));
    assert_eq!(t.rows[1].cells[7], Value::Text("in process".into()));
    assert!(t.rows[0].best[2] && !t.rows[1].best[2]);
    assert!(t.rows[1].best[6] && !t.rows[0].best[6]);
}

#[test]
fn the_per_task_table_shows_right_answers_only_and_the_mean_over_common_tasks() {
    let d = data();
    let t = &build(
        &d,
        &Spec {
            measures: vec![],
            per_task: Some(Attribute::Expanded),
            ..Spec::default()
        },
    )[0];
    assert_eq!(t.header, ["task", "fast", "slow", "prog"]);
    assert_eq!(t.rows.len(), 5);
    assert_eq!(t.rows[1].cells[0], Value::Text("a.csv:3".into()));
    assert_eq!(numbers(&t.rows[1])[1..], [Some(20.0), None, None]);
    // fast's wrong answer on task 3 shows no value.
    assert_eq!(numbers(&t.rows[3])[1..], [None, Some(0.0), None]);
    let last = numbers(&t.rows[4]);
    assert!((last[1].unwrap() - 30.0).abs() < 0.01, "{last:?}");
}

#[test]
fn latex_escapes_every_special_character_of_a_name() {
    let e = render::tex::escape("a_b%c&d#e$f{g}h~i^j\\k µs —");
    assert_eq!(
        e,
        "a\\_b\\%c\\&d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k $\\mu$s ---"
    );
}

#[test]
fn the_report_fragment_holds_the_coverage_table_and_the_ranking() {
    let mut d = data();
    d.solvers[0].label = "<fast>".into();
    let html = html_fragment(&d);
    assert!(
        html.starts_with("<section class=\"tb-coverage\">"),
        "{html}"
    );
    assert!(html.contains("<h3>Coverage by input</h3>"));
    assert!(html.contains("<h3>Ranking</h3>"));
    assert!(html.contains("&lt;fast&gt;") && !html.contains("<fast>"));
    assert!(html.contains("<tr class=\"total\">"));
    assert_eq!(html.matches("<table").count(), 2);
    assert!(!html.contains("<html"));
}

#[test]
fn steps_leave_out_unsolvable_tasks_instead_of_missing_every_value() {
    let mut d = data();
    // A fifth task, unsolvable, proved so by every solver.
    d.tasks.push(task("a.csv", 5, Some(-1)));
    d.outcomes
        .push(vec![Some(Outcome::new(RowStatus::Unsolvable)); 3]);
    let t = &build(
        &d,
        &Spec {
            measures: vec![
                "steps:mean".parse().unwrap(),
                "suboptimality".parse().unwrap(),
            ],
            ..Spec::default()
        },
    );
    // Input a: tasks 0 and 2 have steps (4 and 10; prog's 12), the unsolvable task none.
    assert_eq!(
        numbers(&t[0].rows[0])[1..],
        [Some(2.0), Some(7.0), Some(7.0), Some(8.0)]
    );
    let sub = numbers(&t[1].rows[0]);
    assert_eq!(sub[1..4], [Some(2.0), Some(1.0), Some(1.0)]);
    assert!((sub[4].unwrap() - 1.1).abs() < 1e-9, "{sub:?}");
}
