//! The reference lists what the code has: the strategies' and heuristics' tables in
//! docs/strategies.md, and the export formats in docs/run.md, read from the registries.

use tilebench::search::heuristic::HeuristicKind;
use tilebench::search::registry;

/// The first cells of a Markdown table's rows whose first cell is a `code` name, in order,
/// from the table under `heading`.
fn names_in_table(doc: &str, heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(doc).unwrap();
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("{doc} has no `{heading}`"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let first = l.split('|').nth(1)?.trim();
            Some(first.strip_prefix('`')?.strip_suffix('`')?.to_string())
        })
        .collect()
}

#[test]
fn the_strategy_table_lists_the_registry_in_order() {
    let want: Vec<String> = registry::names().into_iter().map(String::from).collect();
    assert_eq!(names_in_table("docs/strategies.md", "## Strategies"), want);
}

#[test]
fn the_heuristic_table_lists_every_heuristic_in_order() {
    let want: Vec<String> = HeuristicKind::ALL
        .iter()
        .map(|h| h.name().to_string())
        .collect();
    assert_eq!(names_in_table("docs/strategies.md", "## Heuristics"), want);
}

#[test]
fn the_run_reference_names_every_export_format() {
    let text = std::fs::read_to_string("docs/run.md").unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("| `--export FORMAT=FILE`"))
        .expect("docs/run.md documents --export");
    for f in tilebench::report::FORMATS {
        assert!(
            line.contains(&format!("`{}`", f.name)),
            "{} is missing",
            f.name
        );
    }
}
