//! Correctness checks over result rows, shared by `run --check` and `verify`.

use crate::report::cases_csv::CaseRow;
use crate::search::Strategy;
use std::collections::BTreeMap;

fn where_(r: &CaseRow) -> String {
    if r.id.is_empty() {
        format!("{}:{}", r.input, r.line)
    } else {
        format!("{}:{} (id {})", r.input, r.line, r.id)
    }
}

fn steps_text(s: Option<i64>) -> String {
    match s {
        Some(-1) => "unsolvable".into(),
        Some(n) => format!("{n} steps"),
        None => "no answer".into(),
    }
}

/// Rows whose answer differs from the dataset's `expected_steps` (except external answers
/// that are valid but not optimal: [`external_failures`] lists those).
pub fn mismatches(rows: &[CaseRow]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.matches_expected == Some(false) && r.optimal != Some(false))
        .map(|r| {
            format!(
                "{}: {} answered {}, expected {}",
                where_(r),
                r.strategy,
                steps_text(r.steps),
                steps_text(r.expected_steps)
            )
        })
        .collect()
}

/// Cases on which optimal strategies that answered (solved or unsolvable) disagree.
pub fn disagreements(rows: &[CaseRow]) -> Vec<String> {
    let mut by_case: BTreeMap<(&str, u64), Vec<&CaseRow>> = BTreeMap::new();
    for r in rows {
        let optimal = r
            .strategy
            .parse::<Strategy>()
            .map(Strategy::is_optimal)
            .unwrap_or(false);
        if optimal && matches!(r.status.as_str(), "solved" | "unsolvable") {
            by_case.entry((&r.input, r.line)).or_default().push(r);
        }
    }
    let mut out = Vec::new();
    // BTreeMap orders by input name then line; report in that order.
    for group in by_case.values() {
        if group.iter().any(|r| r.steps != group[0].steps) {
            let answers: Vec<String> = group
                .iter()
                .map(|r| format!("{} {}", r.strategy, steps_text(r.steps)))
                .collect();
            out.push(format!(
                "{}: optimal strategies disagree: {}",
                where_(group[0]),
                answers.join(", ")
            ));
        }
    }
    out
}

/// External programs' answers that are wrong (status `wrong`) or valid but not optimal
/// (`optimal` = false), with the row's message (what was sent, what came back, why).
pub fn external_failures(rows: &[CaseRow]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.status == "wrong" || r.optimal == Some(false))
        .map(|r| {
            // The message starts with the row's place and the program's name: say them once.
            let prefix = format!("{}:{}: {}: ", r.input, r.line, r.strategy);
            let detail = r.message.strip_prefix(&prefix).unwrap_or(&r.message);
            format!("{}: {}: {detail}", where_(r), r.strategy)
        })
        .collect()
}
