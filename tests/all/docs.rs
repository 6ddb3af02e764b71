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

/// The README's commands (in code blocks, and in `code` spans that start with `tilebench `),
/// in the order a reader meets them.
fn readme_commands() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string("README.md").unwrap();
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut at = 0;
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            found.push((at, line.trim().trim_start_matches("$ ").to_string()));
        }
        at += line.len();
    }
    // Spans between backquotes outside the code blocks (which the split above left whole).
    let mut offset = 0;
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 && part.starts_with("tilebench ") && !part.contains("```") {
            found.push((
                offset,
                part.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
        offset += part.len() + 1;
    }
    found.sort();
    found
        .into_iter()
        .filter_map(|(_, line)| {
            let line = line.split(" #").next().unwrap_or_default();
            let words: Vec<String> = line.split_whitespace().map(String::from).collect();
            let start = match words.first().map(String::as_str) {
                Some("tilebench") => 1,
                Some("cargo") if words.get(1).is_some_and(|w| w == "run") => {
                    words.iter().position(|w| w == "--")? + 1
                }
                _ => return None,
            };
            Some(words[start..].to_vec())
        })
        .collect()
}

/// Every README command runs as written from a fresh clone, in the order a reader meets them:
/// each file or directory it reads (under inputs/, tests/ or results/) is in the checkout or
/// written by an earlier command (`--out DIR`), and each file it writes (`-o FILE`, `--out
/// DIR`) goes into a directory that is there by then (or that the command creates).
#[test]
fn every_readme_command_reads_and_writes_where_a_fresh_clone_has_room() {
    let commands = readme_commands();
    assert!(commands.len() > 10, "{commands:?}");
    let mut written: Vec<String> = Vec::new();
    let there = |p: &str, written: &[String]| {
        std::path::Path::new(p).exists()
            || written
                .iter()
                .any(|w| p == w || p.starts_with(&format!("{w}/")))
    };
    let mut bad = Vec::new();
    for words in &commands {
        let sub = words.first().map_or("", String::as_str);
        let mut outs = Vec::new();
        let mut skip_next = false;
        for (i, w) in words.iter().enumerate() {
            if skip_next {
                skip_next = false;
                continue;
            }
            if (w == "--out" || w == "-o") && i + 1 < words.len() {
                outs.push(words[i + 1].clone());
                skip_next = true;
                continue;
            }
            let read = ["inputs/", "tests/", "results/"]
                .iter()
                .any(|d| w.starts_with(d));
            if read && !there(w, &written) {
                bad.push(format!(
                    "`{}` reads {w}, which a fresh clone lacks",
                    words.join(" ")
                ));
            }
        }
        for out in outs {
            // run, merge and plot create their --out directory; other outputs are files.
            let dir_made = matches!(sub, "run" | "merge" | "plot");
            let parent = std::path::Path::new(&out)
                .parent()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !dir_made && !parent.is_empty() && !there(&parent, &written) {
                bad.push(format!(
                    "`{}` writes {out} into {parent}, which does not exist by then",
                    words.join(" ")
                ));
            }
            written.push(out.trim_end_matches('/').to_string());
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
