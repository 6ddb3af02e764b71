//! `tilebench plot`: run, then plot; the SVGs parse as XML and show the expected series,
//! axis labels and titles; bad result paths are named.

use crate::common::*;
use std::path::{Path, PathBuf};

const CHARTS: [&str; 3] = ["latency.svg", "expanded-by-length.svg", "throughput.svg"];

/// A quick run of the bundled per-depth dataset with two strategies.
fn quick_run(name: &str, strategies: &str) -> PathBuf {
    let out = temp_dir(name);
    run_ok(&[
        "run",
        "inputs/per-depth.csv",
        "-q",
        "-s",
        strategies,
        "--out",
        out.to_str().unwrap(),
    ]);
    out
}

/// Parses an SVG and returns the text of every `<text>` element.
fn svg_texts(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not well-formed XML: {e}", path.display()));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{}", path.display());
    assert!(root.attribute("width").is_some() && root.attribute("height").is_some());
    // Something is drawn: lines or rectangles besides the background.
    let shapes = root
        .descendants()
        .filter(|n| matches!(n.tag_name().name(), "polyline" | "path" | "rect" | "line"))
        .count();
    assert!(shapes > 10, "{}: only {shapes} shapes", path.display());
    root.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

fn has(texts: &[String], want: &str) -> bool {
    texts.iter().any(|t| t == want)
}

fn assert_has(texts: &[String], want: &str, file: &str) {
    assert!(has(texts, want), "{file}: no text `{want}` in {texts:?}");
}

#[test]
fn one_run_gives_three_charts_with_series_axes_and_titles() {
    let run = quick_run("plot-one", "astar,bfs-hash");
    let out = temp_dir("plot-one-out");
    let res = bin()
        .arg("plot")
        .arg(&run)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    let name = run.file_name().unwrap().to_str().unwrap().to_string();

    let t = svg_texts(&out.join("latency.svg"));
    assert_has(
        &t,
        &format!("Solve latency by percentile: {name}"),
        "latency.svg",
    );
    assert_has(&t, "latency of one solve (µs, log scale)", "latency.svg");
    assert_has(
        &t,
        "percentile (log scale of 1/(1−p): each step is 10× rarer)",
        "latency.svg",
    );
    for tick in ["0%", "90%", "99%"] {
        assert_has(&t, tick, "latency.svg");
    }
    for s in ["astar", "bfs-hash"] {
        assert_has(&t, s, "latency.svg");
    }

    let t = svg_texts(&out.join("expanded-by-length.svg"));
    assert_has(
        &t,
        "optimal solution length (moves)",
        "expanded-by-length.svg",
    );
    assert_has(
        &t,
        "mean states expanded per case (log scale)",
        "expanded-by-length.svg",
    );
    assert_has(&t, "astar", "expanded-by-length.svg");
    assert_has(&t, "bfs-hash", "expanded-by-length.svg");
    // per-depth.csv goes up to 31 moves.
    assert_has(&t, "30", "expanded-by-length.svg");

    let t = svg_texts(&out.join("throughput.svg"));
    assert_has(
        &t,
        "cases per second (answers right / wall time, log scale)",
        "throughput.svg",
    );
    assert_has(&t, "strategy", "throughput.svg");
    assert!(
        t.iter().filter(|x| *x == "astar").count() >= 2,
        "tick and legend: {t:?}"
    );
}

#[test]
fn two_runs_are_overlaid_with_run_names_where_both_hold_a_solver() {
    let a = quick_run("plot-a", "astar,bfs-hash");
    let b = quick_run("plot-b", "astar,idastar");
    let out = temp_dir("plot-ab-out");
    let res = bin()
        .arg("plot")
        .args([&a, &b])
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    let (na, nb) = (
        a.file_name().unwrap().to_str().unwrap(),
        b.file_name().unwrap().to_str().unwrap(),
    );
    for chart in CHARTS {
        let t = svg_texts(&out.join(chart));
        // astar is in both runs: its label carries the run; the others stay plain.
        for series in [
            format!("{na}/astar"),
            "bfs-hash".to_string(),
            format!("{nb}/astar"),
            "idastar".to_string(),
        ] {
            assert_has(&t, &series, chart);
        }
        assert!(!has(&t, &format!("{na}/bfs-hash")), "{chart}: {t:?}");
        assert!(
            t.iter().any(|x| x.ends_with(&format!("{na} vs {nb}"))),
            "{chart}: title names both runs: {t:?}"
        );
    }
}

#[test]
fn three_runs_compare_the_third_too_and_a_reference_run_pairs_namesakes() {
    let runs: Vec<PathBuf> = ["plot3-a", "plot3-b", "plot3-c"]
        .iter()
        .map(|n| quick_run(n, "astar,idastar"))
        .collect();
    let n: Vec<&str> = runs
        .iter()
        .map(|r| r.file_name().unwrap().to_str().unwrap())
        .collect();
    let plot = |extra: &[&str]| {
        let out = temp_dir("plot3-out");
        let res = bin()
            .arg("plot")
            .args(&runs)
            .arg("-o")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
        (out, stderr(&res))
    };
    // Default: runs of the same solvers, each against its namesake in the first run, the
    // third run's included.
    let (out, err) = plot(&[]);
    for y in [1, 2] {
        for s in ["astar", "idastar"] {
            let name = format!("scatter-latency-{}_{s}-vs-{}_{s}.svg", n[0], n[y]);
            let t = svg_texts(&out.join(&name));
            assert!(
                t.iter().any(|x| x.starts_with("Per case, latency:")),
                "{name}: {t:?}"
            );
        }
    }
    assert!(!err.contains("left out"), "{err}");
    // The first solver named: every other solver of every run against it.
    let (out, _) = plot(&["--reference", &format!("{}/astar", n[0])]);
    for other in [
        "idastar".to_string(),
        format!("{}_astar", n[1]),
        format!("{}_idastar", n[1]),
        format!("{}_astar", n[2]),
        format!("{}_idastar", n[2]),
    ] {
        let name = if other == "idastar" {
            format!("scatter-latency-{}_astar-vs-{}_idastar.svg", n[0], n[0])
        } else {
            format!("scatter-latency-{}_astar-vs-{other}.svg", n[0])
        };
        assert!(out.join(&name).is_file(), "{name}");
    }
    // Against the second run: each solver with its namesake there.
    let (out, _) = plot(&["--reference", n[1]]);
    for (x, y) in [(1, 0), (1, 2)] {
        for s in ["astar", "idastar"] {
            let name = format!("scatter-latency-{}_{s}-vs-{}_{s}.svg", n[x], n[y]);
            assert!(out.join(&name).is_file(), "{name}");
        }
    }
    // A reference that names nothing is refused, with the choices.
    let res = bin()
        .arg("plot")
        .args(&runs)
        .args(["-o", "/tmp", "--reference", "dfs"])
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    assert!(
        stderr(&res).contains("--reference dfs: no solver or run"),
        "{}",
        stderr(&res)
    );
}

#[test]
fn without_out_a_single_run_is_plotted_into_its_own_directory() {
    let run = quick_run("plot-here", "astar");
    run_ok(&["plot", run.to_str().unwrap()]);
    for chart in CHARTS {
        assert!(run.join(chart).is_file(), "{chart}");
    }
    // Several runs need --out.
    let res = bin().arg("plot").args([&run, &run]).output().unwrap();
    assert_eq!(res.status.code(), Some(2));
    assert!(stderr(&res).contains("--out"), "{}", stderr(&res));
}

#[test]
fn latency_falls_back_to_cases_csv_without_an_interval_log() {
    let run = quick_run("plot-nohlog", "astar");
    std::fs::remove_file(run.join("latency.hlog")).unwrap();
    let out = temp_dir("plot-nohlog-out");
    let res = bin()
        .arg("plot")
        .arg(&run)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(0), "{}", stderr(&res));
    assert!(stderr(&res).contains("latency is read from cases.csv"));
    assert_has(&svg_texts(&out.join("latency.svg")), "astar", "latency.svg");
}

#[test]
fn missing_or_damaged_results_are_named_with_their_path() {
    let fail = |args: &[&std::ffi::OsStr]| {
        let res = bin().arg("plot").args(args).output().unwrap();
        assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
        assert!(!stderr(&res).contains("panicked"), "{}", stderr(&res));
        stderr(&res)
    };
    let dir = temp_dir("plot-bad");

    let missing = dir.join("no-such-run");
    let err = fail(&[missing.as_os_str()]);
    assert!(
        err.contains(&format!("{}: no such results directory", missing.display())),
        "{err}"
    );

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = fail(&[empty.as_os_str()]);
    assert!(
        err.contains(&format!("{}: missing", empty.join("summary.csv").display())),
        "{err}"
    );

    let run = quick_run("plot-damaged", "astar");
    std::fs::write(
        run.join("latency.hlog"),
        "Tag=astar,0.0,1.0,1.0,not base64!\n",
    )
    .unwrap();
    let err = fail(&[run.as_os_str()]);
    assert!(
        err.contains(&run.join("latency.hlog").display().to_string()),
        "{err}"
    );

    std::fs::write(run.join("summary.csv"), "strategy,cases\nastar,zero\n").unwrap();
    let err = fail(&[run.as_os_str()]);
    assert!(
        err.contains(&run.join("summary.csv").display().to_string()),
        "{err}"
    );

    // A good run beside a missing one is not plotted half-way: nothing is written.
    let good = quick_run("plot-good", "astar");
    let out = dir.join("out");
    let err = fail(&[
        good.as_os_str(),
        missing.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(!out.exists());
}

#[test]
fn an_empty_or_headerless_cases_csv_is_refused_naming_it() {
    let run = quick_run("plot-empty-cases", "astar");
    let cases = run.join("cases.csv");
    let text = std::fs::read_to_string(&cases).unwrap();
    let body = text.split_once('\n').unwrap().1.to_string();
    for (content, want) in [
        (String::new(), "is empty (0 bytes, no header line)"),
        (body, ":1: no header line"),
    ] {
        std::fs::write(&cases, content).unwrap();
        let out = temp_dir("plot-empty-cases-out");
        let res = bin()
            .arg("plot")
            .arg(&run)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = stderr(&res);
        assert_eq!(res.status.code(), Some(2), "{err}");
        assert!(err.contains(&cases.display().to_string()), "{err}");
        assert!(err.contains(want), "{err}");
        assert!(!out.join("latency.svg").exists());
    }
}
