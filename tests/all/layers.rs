//! The library's layers import one way (CONTRIBUTING.md, "Layers"): every `crate::` path in
//! `src/` names a module of a lower layer, or the file's own module.

use std::collections::BTreeMap;
use std::path::Path;

/// The layers, bottom first: a module may import from the layers before its own.
const LAYERS: &[&[&str]] = &[
    &["util", "memory", "observe"],
    &["stats", "puzzle"],
    &["space"],
    &["search"],
    &["external", "dataset"],
    &["error"],
    &["results"],
    &["check"],
    &["report"],
    &["plot"],
    &["harness"],
    &["compare", "table", "gen"],
    &["cli_support"],
];

/// The binary's files, over every layer.
const TOP: &[&str] = &["main", "cli", "commands", "lib", "prelude"];

fn layer(module: &str) -> Option<usize> {
    // `crate::Error` and `crate::Result` are the error module's, re-exported at the root.
    let module = match module {
        "Error" | "Result" => "error",
        m => m,
    };
    LAYERS.iter().position(|l| l.contains(&module))
}

/// A file's code outside comments and test modules: the code whose imports count.
fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let next = lines.get(i + 1).map_or("", |l| l.trim_start());
        if t.starts_with("#[cfg(test)]")
            && (next.starts_with("mod ") || next.starts_with("pub mod "))
        {
            // Skip the module to its closing brace (braces in its strings are balanced
            // in this crate's tests, and a miscount only hides a test module's imports).
            i += 1;
            let mut depth = 0i32;
            let mut opened = false;
            while i < lines.len() {
                for c in lines[i].chars() {
                    match c {
                        '{' => (depth, opened) = (depth + 1, true),
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                i += 1;
                if opened && depth <= 0 || lines[i - 1].trim_end().ends_with(';') && !opened {
                    break;
                }
            }
            continue;
        }
        if !t.starts_with("//") {
            // A trailing comment may name a path; only code before `//` counts.
            out.push_str(lines[i].split("//").next().unwrap_or(""));
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// The modules `text` names as `crate::NAME` (and `use crate::{A, B}` lists).
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let end = list.find('}').unwrap_or(list.len());
            for item in list[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != "self" {
                    out.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `src/` file's module and the modules it imports.
fn graph() -> BTreeMap<String, Vec<(String, String)>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    all.sort();
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for path in all {
        let rel = path.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for target in imports(&code(&text)) {
            out.entry(module.clone())
                .or_default()
                .push((target, rel.display().to_string()));
        }
    }
    out
}

#[test]
fn every_import_goes_down_a_layer() {
    let mut upward = Vec::new();
    let mut unplaced = Vec::new();
    for (module, targets) in graph() {
        if TOP.contains(&module.as_str()) {
            continue;
        }
        let Some(own) = layer(&module) else {
            unplaced.push(module);
            continue;
        };
        for (target, file) in targets {
            if target == module {
                continue;
            }
            match layer(&target) {
                Some(l) if l < own => {}
                Some(_) => upward.push(format!("src/{file} imports crate::{target}")),
                None => unplaced.push(format!("{target} (imported by src/{file})")),
            }
        }
    }
    upward.sort();
    upward.dedup();
    unplaced.sort();
    unplaced.dedup();
    assert!(
        unplaced.is_empty(),
        "modules in no layer: {unplaced:?}; add each to LAYERS here and to CONTRIBUTING.md's Layers"
    );
    assert!(
        upward.is_empty(),
        "imports that go up or sideways a layer (CONTRIBUTING.md, Layers):\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_reader_sees_the_imports_it_must() {
    // The test above can only pass honestly if it finds imports: a file that imports upward
    // is caught, comments and test modules are not.
    let text = "use crate::{harness::runner, search};\n// crate::plot in a comment\nfn f() { crate::report::x(); }\n#[cfg(test)]\nmod tests {\n    use crate::compare;\n    fn g() {\n    }\n}\nfn h() { crate::table::y(); }\n#[cfg(test)]\nmod more;\nuse crate::gen;\n";
    assert_eq!(
        imports(&code(text)),
        ["harness", "search", "report", "table", "gen"]
    );
    let g = graph();
    assert!(g["harness"].iter().any(|(t, _)| t == "search"));
    assert!(g["search"].iter().any(|(t, _)| t == "puzzle"));
    assert!(layer("harness") > layer("results") && layer("Error") == layer("error"));
}
