//! The reference lists what the code has: the strategies' and heuristics' tables in
//! docs/strategies.md, and the export formats in docs/run.md, read from the registries. And
//! every link between the Markdown files (README, CONTRIBUTING, docs/, inputs/) reaches its
//! file and, with `#`, a heading there, by GitHub's anchors.

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

/// The Markdown files a reader follows links between.
fn markdown_files() -> Vec<std::path::PathBuf> {
    let mut files = vec!["README.md".into(), "CONTRIBUTING.md".into()];
    for dir in ["docs", "inputs", "tests/corpus"] {
        let mut more: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        more.sort();
        files.extend(more);
    }
    files
}

/// The text of `doc` outside fenced code blocks.
fn prose(doc: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// GitHub's anchors for the headings of `doc`: lower case, what is not a letter, digit,
/// space, `-` or `_` dropped, spaces made `-`, and a repeated anchor numbered `-1`, `-2`, ….
fn anchors(doc: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut bases: Vec<String> = Vec::new();
    for line in prose(doc).lines() {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        // A closing run of `#` is not part of the title.
        let slug: String = title
            .trim()
            .trim_end_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = bases.iter().filter(|b| **b == slug).count();
        seen.push(if n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        bases.push(slug);
    }
    seen
}

/// The targets of the Markdown links in `doc` (`[text](target)`, or `[text](target "title")`),
/// web addresses left out.
fn link_targets(doc: &str) -> Vec<String> {
    let text = prose(doc);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        let web = target.split_once(':').is_some_and(|(scheme, _)| {
            !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphabetic())
        });
        if !web && !target.is_empty() {
            out.push(target.to_string());
        }
    }
    out
}

#[test]
fn every_link_between_the_docs_reaches_its_file_and_heading() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in markdown_files() {
        let doc = std::fs::read_to_string(&file).unwrap();
        for target in link_targets(&doc) {
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            checked += 1;
            if !dest.exists() {
                broken.push(format!("{}: `{target}`: no such file", file.display()));
            } else if !anchor.is_empty() && dest.extension().is_some_and(|x| x == "md") {
                let heads = anchors(&std::fs::read_to_string(&dest).unwrap());
                if !heads.iter().any(|h| h == anchor) {
                    broken.push(format!("{}: `{target}`: no such heading", file.display()));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the link reader broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_github_s() {
    let doc = "# Title\n## Title more ##\n## `cases.csv` columns\n\
               ### Issue 17, session 7: A\\*, `bfs-set` (2026-12-01)\n\
               ```\n# not a heading\n```\n## Title\n#hashtag\n";
    assert_eq!(
        anchors(doc),
        [
            "title",
            "title-more",
            "casescsv-columns",
            "issue-17-session-7-a-bfs-set-2026-12-01",
            "title-1"
        ]
    );
    assert_eq!(
        link_targets(
            "[a](x.md#y) [b](https://e.org)\n```\n[c](z.md)\n```\n[d](#e) [f](g.md \"t\")"
        ),
        ["x.md#y", "#e", "g.md"]
    );
}
