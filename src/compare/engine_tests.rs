//! The engine on small cases.csv files written here: answers, work, missing rows and
//! counters, N-way pairing and the renderers, without spawning the binary.

use super::*;
use std::path::Path;

/// One row: (id, strategy, status, steps, expanded, generated, latency_ns); empty cells are
/// `None`.
type Row<'a> = (
    &'a str,
    &'a str,
    &'a str,
    Option<u32>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
);

/// A [`Row`] that owns its text.
type Owned = (
    String,
    String,
    String,
    Option<u32>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
);

/// Writes `dir/cases.csv` with `rows` (input `data.csv`, line = id + 1) and returns `dir`.
fn run(dir: &Path, rows: &[Row]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = crate::results::cases_csv::columns().join(",") + "\n";
    let cell = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    for (id, strategy, status, steps, expanded, generated, latency) in rows {
        let line: u64 = id.parse::<u64>().unwrap() + 1;
        let fields: Vec<String> = crate::results::cases_csv::columns()
            .iter()
            .map(|c| match *c {
                "input" => "data.csv".into(),
                "line" => line.to_string(),
                "id" => (*id).into(),
                "strategy" => (*strategy).into(),
                "start" => "1 2 3 4 5 6 7 x 8".into(),
                "goal" => "1 2 3 4 5 6 7 8 x".into(),
                "status" => (*status).into(),
                "steps" => cell(steps.map(u64::from)),
                "expanded" => cell(*expanded),
                "generated" => cell(*generated),
                "latency_ns" | "latency_min_ns" => cell(*latency),
                _ => String::new(),
            })
            .collect();
        text += &(fields.join(",") + "\n");
    }
    std::fs::write(dir.join("cases.csv"), text).unwrap();
    dir.to_path_buf()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilebench-engine-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Ten solved cases of `astar`: steps 10 + i, expanded 100 × (i + 1), latency 1000 × (i + 1).
fn rows(strategy: &str) -> Vec<Owned> {
    (1..=10u64)
        .map(|i| {
            (
                i.to_string(),
                strategy.to_string(),
                "solved".to_string(),
                Some(10 + i as u32),
                Some(100 * i),
                Some(300 * i),
                Some(1000 * i),
            )
        })
        .collect()
}

fn write(dir: &Path, owned: &[Owned]) -> PathBuf {
    let borrowed: Vec<Row> = owned
        .iter()
        .map(|(a, b, c, d, e, f, g)| (a.as_str(), b.as_str(), c.as_str(), *d, *e, *f, *g))
        .collect();
    run(dir, &borrowed)
}

fn runs(paths: &[&PathBuf]) -> Plan {
    Plan::new(Subject::Runs {
        runs: paths.iter().map(|p| (*p).clone()).collect(),
        reference: None,
        all_pairs: false,
    })
}

#[test]
fn identical_runs_match_every_row_and_pass() {
    let d = tmp("same");
    let a = write(&d.join("a"), &rows("astar"));
    let b = write(&d.join("b"), &rows("astar"));
    let c = compare(&runs(&[&a, &b])).unwrap();
    assert!(!c.regressed());
    let p = &c.pairs[0];
    assert_eq!(p.matched, 10);
    assert_eq!(p.solvers.len(), 1);
    let s = &p.solvers[0];
    assert_eq!(s.wrong, 0);
    assert_eq!(s.work[0].1.baseline, 5500);
    assert_eq!(s.work[0].1.change_pct(), Some(0.0));
    // The latency figures exist, and with one run a side they are indications.
    assert_eq!(s.latency.len(), 3);
    assert!(s.latency.iter().all(|f| !f.replicated));
    assert!(render::text(&c).contains("no regression (10 rows matched, 0 with less work)"));
}

#[test]
fn a_changed_answer_more_work_and_a_lost_row_each_regress() {
    let d = tmp("bad");
    let a = write(&d.join("a"), &rows("astar"));
    let mut worse = rows("astar");
    worse[2].3 = Some(99); // id 3: other steps
    worse[4].4 = worse[4].4.map(|e| e * 2); // id 5: twice the expansions
    worse.remove(7); // id 8: lost
    let b = write(&d.join("b"), &worse);
    let c = compare(&runs(&[&a, &b])).unwrap();
    assert!(c.regressed());
    let p = &c.pairs[0];
    assert_eq!(p.count(ListKind::WrongAnswers), 1);
    assert_eq!(p.count(ListKind::MoreWork), 1);
    assert_eq!(p.count(ListKind::Missing), 1);
    assert_eq!(p.count(ListKind::New), 0);
    let wrong = &p.list(ListKind::WrongAnswers).unwrap().shown[0];
    assert_eq!(
        wrong,
        "data.csv:4 3 astar: baseline solved in 13, current solved in 99"
    );
    assert!(p
        .verdict()
        .starts_with("REGRESSION: 1 wrong answer(s), 1 case(s) with more work, 1 missing case(s)"));

    // A threshold above the growth lets the work pass (the answer and the lost row do not).
    let mut plan = runs(&[&a, &b]);
    plan.thresholds.max_work_increase_pct = 150.0;
    let p = &compare(&plan).unwrap().pairs[0];
    assert_eq!(p.count(ListKind::MoreWork), 0);
    assert!(p.regressed);
}

#[test]
fn a_counter_one_run_lacks_is_a_regression_never_a_zero() {
    let d = tmp("gap");
    let a = write(&d.join("a"), &rows("astar"));
    let mut gaps = rows("astar");
    for r in &mut gaps {
        r.4 = None;
    }
    let b = write(&d.join("b"), &gaps);
    let c = compare(&runs(&[&a, &b])).unwrap();
    let p = &c.pairs[0];
    assert!(p.regressed);
    assert_eq!(p.count(ListKind::MissingCounters), 10);
    let s = &p.solvers[0];
    // expanded is summed over no row: not compared; generated still is.
    assert_eq!(s.work[0].1.change_pct(), None);
    assert_eq!(s.work[1].1.rows, 10);
    let text = render::text(&c);
    assert!(text.contains("not compared"), "{text}");
    assert!(
        text.contains("`expanded` is empty in the current run on 10 row(s)"),
        "{text}"
    );
}

#[test]
fn three_runs_compare_each_against_the_reference_and_say_what_is_left_out() {
    let d = tmp("three");
    let a = write(&d.join("a"), &rows("astar"));
    let b = write(&d.join("b"), &rows("astar"));
    let mut bad = rows("astar");
    bad[0].3 = Some(1);
    let c3 = write(&d.join("c"), &bad);
    let c = compare(&runs(&[&a, &b, &c3])).unwrap();
    assert_eq!(c.pairs.len(), 2);
    assert!(!c.pairs[0].regressed);
    assert!(c.pairs[1].regressed, "the third run is compared too");
    assert!(c.pairs[1].current.ends_with('c'));
    assert!(c.left_out[0].contains("--all-pairs"), "{:?}", c.left_out);
    assert!(c.verdict().starts_with("REGRESSION in 1 of 2 comparisons"));

    let mut plan = runs(&[&a, &b, &c3]);
    plan.subject = Subject::Runs {
        runs: vec![a.clone(), b.clone(), c3.clone()],
        reference: Some("c".into()),
        all_pairs: false,
    };
    let c = compare(&plan).unwrap();
    assert!(c.pairs.iter().all(|p| p.baseline.ends_with('c')));
    assert!(c.pairs.iter().all(|p| p.regressed));

    plan.subject = Subject::Runs {
        runs: vec![a, b, c3],
        reference: None,
        all_pairs: true,
    };
    let c = compare(&plan).unwrap();
    assert_eq!(c.pairs.len(), 3);
    assert!(c.left_out.is_empty());
}

#[test]
fn solvers_of_one_run_differ_by_design_and_fail_only_a_gated_latency() {
    let d = tmp("solvers");
    let mut both = rows("astar");
    let mut other = rows("greedy");
    for (i, r) in other.iter_mut().enumerate() {
        if i < 4 {
            r.3 = r.3.map(|s| s + 2);
        }
        r.4 = r.4.map(|e| e / 4);
    }
    both.append(&mut other);
    let one = write(&d.join("run"), &both);
    let plan = Plan::new(Subject::Solvers {
        run: one,
        solvers: vec!["greedy".into(), "astar".into()],
        reference: None,
        all_pairs: false,
    });
    let c = compare(&plan).unwrap();
    let p = &c.pairs[0];
    assert_eq!(
        (p.baseline.as_str(), p.current.as_str()),
        ("astar", "greedy")
    );
    assert_eq!(p.count(ListKind::AnswersDiffer), 4);
    // Work is compared on the cases both answer alike.
    assert_eq!(p.solvers[0].work[0].1.rows, 6);
    assert!(!p.regressed, "different answers are listed, not failed");
    let text = render::text(&c);
    assert!(text.contains("answers that differ"), "{text}");
    assert!(text.contains("less"), "{text}");
    assert!(!text.contains("Correctness regressions"), "{text}");
}

#[test]
fn the_exports_render_every_pair() {
    let d = tmp("render");
    let a = write(&d.join("a"), &rows("astar"));
    let mut bad = rows("astar");
    bad[0].3 = Some(1);
    let b = write(&d.join("b"), &bad);
    let c3 = write(&d.join("c"), &rows("astar"));
    let c = compare(&runs(&[&a, &b, &c3])).unwrap();
    let md = render::format("markdown").unwrap().export.render(&c);
    assert!(md.starts_with("❌ **tilebench compare**"), "{md}");
    assert!(md.contains("### ❌ baseline"), "{md}");
    assert!(md.contains("### ✅ baseline"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&render::format("json").unwrap().export.render(&c)).unwrap();
    assert_eq!(json["tilebench_compare"], 2);
    assert_eq!(json["pairs"].as_array().unwrap().len(), 2);
    assert_eq!(json["pairs"][0]["strategies"][0]["wrong_answers"], 1);
    assert_eq!(json["regressed"], true);
    let e = render::format("yaml").unwrap_err();
    assert_eq!(
        (e.what, e.name.as_str()),
        ("comparison export format", "yaml")
    );
    assert_eq!(
        e.to_string(),
        "unknown comparison export format `yaml`; choose markdown, json, junit"
    );
}

#[test]
fn rows_in_another_order_and_repeated_ids_are_matched_exactly() {
    let d = tmp("order");
    let base = rows("astar");
    let a = write(&d.join("a"), &base);
    // The same rows backwards (shards merged in another order), one answer changed.
    let mut back: Vec<Owned> = base.iter().rev().cloned().collect();
    back[0].3 = Some(1); // id 10
    let b = write(&d.join("b"), &back);
    let c = compare(&runs(&[&a, &b])).unwrap();
    let p = &c.pairs[0];
    assert_eq!(p.matched, 10);
    assert_eq!(p.count(ListKind::WrongAnswers), 1);
    assert_eq!(p.count(ListKind::Missing) + p.count(ListKind::New), 0);
    assert!(p.list(ListKind::WrongAnswers).unwrap().shown[0].starts_with("data.csv:11 10 astar"));

    // One id on two rows: paired in order, the n-th with the n-th.
    let mut dup = rows("astar");
    dup[1].0 = "1".into();
    let a = write(&d.join("da"), &dup);
    let mut dup2 = dup.clone();
    dup2[1].3 = Some(50);
    let b = write(&d.join("db"), &dup2);
    let p = &compare(&runs(&[&a, &b])).unwrap().pairs[0];
    assert_eq!(p.count(ListKind::WrongAnswers), 1);
    assert_eq!(p.matched, 10);
}
