//! `plot`'s per-case charts (scatter, coverage, states expanded against latency): drawn from
//! a run, with what each shows counted again from cases.csv.

use crate::common::*;
use std::collections::HashMap;
use std::path::Path;

/// The SVG's `<text>` contents and its number of `<circle>` elements.
fn svg(path: &Path) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not well-formed XML: {e}", path.display()));
    let texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect();
    let circles = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    (texts, circles)
}

#[test]
fn scatter_and_coverage_show_every_case_cases_csv_has() {
    let out = temp_dir("plot-per-case");
    // A node budget that bfs-hash runs out of far more often than astar: one-sided cases.
    let o = bin()
        .args(["run", "inputs/per-depth.csv", "-q", "-s", "astar,bfs-hash"])
        .args(["--max-nodes", "3000", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let charts = temp_dir("plot-per-case-charts");
    let o = bin()
        .arg("plot")
        .arg(&out)
        .arg("--out")
        .arg(&charts)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));

    // Recount from cases.csv: per strategy, which cases were answered.
    let (h, rows) = read_csv(&out.join("cases.csv"));
    let (s, st, line) = (col(&h, "strategy"), col(&h, "status"), col(&h, "line"));
    let ns = col(&h, "latency_ns");
    // Per strategy and line: Some(answered), None for an answer without a search.
    let mut answered: HashMap<&str, HashMap<&str, Option<bool>>> = HashMap::new();
    for r in &rows {
        let ok = r[st] == "solved" || r[st] == "unsolvable";
        let shown = (!ok || !r[ns].is_empty()).then_some(ok);
        answered.entry(&r[s]).or_default().insert(&r[line], shown);
    }
    let (a, b) = (&answered["astar"], &answered["bfs-hash"]);
    let pairs: Vec<(bool, bool)> = a
        .iter()
        .filter_map(|(l, x)| Some(((*x)?, b[*l]?)))
        .filter(|&(x, y)| x || y)
        .collect();
    let both = pairs.iter().filter(|&&(x, y)| x && y).count();
    let either = pairs.len();
    assert!(either > both, "the budget made some cases one-sided");

    let (texts, circles) = svg(&charts.join("scatter-latency-astar-vs-bfs-hash.svg"));
    let one_sided = either - both;
    assert!(
        texts.contains(&format!("{either} cases ({one_sided} one-sided)")),
        "{texts:?}"
    );
    // A dot per case both answered, and the legend's one.
    assert_eq!(circles, both + 1);
    assert!(charts
        .join("scatter-expanded-astar-vs-bfs-hash.svg")
        .is_file());

    // Coverage: each strategy's line ends at its answered count, the y axis reaches it.
    for name in [
        "coverage-time.svg",
        "coverage-nodes.svg",
        "expanded-vs-latency.svg",
    ] {
        let (texts, _) = svg(&charts.join(name));
        assert!(texts.iter().any(|t| t == "astar"), "{name}: {texts:?}");
        assert!(texts.iter().any(|t| t == "bfs-hash"), "{name}: {texts:?}");
    }
}
