//! `tilebench report`: one self-contained page (no script, nothing fetched), with every chart
//! inline, the summaries, the paired comparisons and links to the CSV files; opened in a real
//! headless browser when one is installed.

use crate::common::*;

#[test]
fn the_report_is_one_self_contained_page_with_every_chart() {
    let out = temp_dir("report-run");
    run_ok(&[
        "run",
        "inputs/ci.csv",
        "-q",
        "-s",
        "astar,idastar",
        "--out",
        out.to_str().unwrap(),
    ]);
    let page = out.join("report.html");
    let o = bin()
        .arg("report")
        .arg(&out)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("idastar is ") && e.contains("than astar per case (95% CI "),
        "{e}"
    );

    let text = std::fs::read_to_string(&page).unwrap();
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, opts)
        .expect("the page is well-formed XHTML");
    let tag = |t: &'static str| doc.descendants().filter(move |n| n.tag_name().name() == t);
    // Every chart `plot` draws, inline: the 3 of the run, coverage ×2, expanded-vs-latency,
    // and the two scatters of astar against idastar.
    let charts = temp_dir("report-plot");
    run_ok(&[
        "plot",
        out.to_str().unwrap(),
        "--out",
        charts.to_str().unwrap(),
    ]);
    let drawn = std::fs::read_dir(&charts).unwrap().count();
    assert_eq!(drawn, 8);
    assert_eq!(tag("svg").count(), drawn);
    assert_eq!(tag("figure").count(), drawn);
    // Nothing runs and nothing is fetched: no script, no external reference.
    assert_eq!(tag("script").count(), 0);
    for n in doc.descendants() {
        for a in n.attributes() {
            let external = a.value().starts_with("http") && a.name() != "xmlns";
            assert!(!(external && ["href", "src"].contains(&a.name())), "{a:?}");
        }
    }
    // The summary table has a row per strategy; the links reach the run's files.
    let cells: Vec<String> = tag("td")
        .filter_map(|n| n.text())
        .map(String::from)
        .collect();
    assert!(cells.iter().any(|c| c == "astar") && cells.iter().any(|c| c == "idastar"));
    let links: Vec<&str> = tag("a").filter_map(|n| n.attribute("href")).collect();
    assert_eq!(links, ["cases.csv", "summary.csv", "run.json"]);
    for l in links {
        assert!(out.join(l).is_file(), "{l}");
    }
    let verdicts = ["faster", "slower", "within noise", "no difference"];
    assert!(
        tag("b")
            .filter_map(|n| n.text())
            .any(|t| verdicts.contains(&t)),
        "a verdict is shown"
    );

    // A real browser renders it: a screenshot with the charts in it is far larger than a
    // blank page's.
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let Some(browser) = chromium else {
        eprintln!("report test: no headless Chromium installed, so the page was not rendered");
        return;
    };
    let shot = out.join("report.png");
    let o = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1280,6000",
        ])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .output()
        .unwrap();
    assert!(shot.is_file(), "{}", String::from_utf8_lossy(&o.stderr));
    let size = std::fs::metadata(&shot).unwrap().len();
    assert!(
        size > 200_000,
        "a {size}-byte screenshot: the charts did not render"
    );
}

/// Parses a report page (XHTML) and returns its text.
fn page_text(page: &std::path::Path) -> String {
    std::fs::read_to_string(page).unwrap()
}

fn report(args: &[&std::path::Path], extra: &[&str], page: &std::path::Path) -> String {
    let o = bin()
        .arg("report")
        .args(args)
        .arg("-o")
        .arg(page)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
}

#[test]
fn three_runs_are_all_compared_with_the_reference() {
    let runs: Vec<std::path::PathBuf> = ["rep3-a", "rep3-b", "rep3-c"]
        .iter()
        .map(|n| {
            let out = temp_dir(n);
            run_ok(&[
                "run",
                "inputs/per-depth.csv",
                "-q",
                "-s",
                "astar,idastar",
                "--out",
                out.to_str().unwrap(),
            ]);
            out
        })
        .collect();
    let name = |i: usize| runs[i].file_name().unwrap().to_str().unwrap().to_string();
    let page = temp_dir("rep3-page").join("report.html");
    let paths: Vec<&std::path::Path> = runs.iter().map(|p| p.as_path()).collect();
    let err = report(&paths, &[], &page);
    let text = page_text(&page);
    // The third run's solvers are compared, on stderr and on the page.
    for s in ["astar", "idastar"] {
        let c = format!("{}/{s} is ", name(2));
        assert!(err.contains(&c), "{c}: {err}");
        assert!(text.contains(&format!("<td>{}/{s}</td>", name(2))), "{c}");
    }
    // By default, runs of the same solvers: each with its namesake in the first run, the
    // third run's idastar with the first's.
    let want = format!("{}/idastar is ", name(2));
    let line = err.lines().find(|l| l.starts_with(&want)).unwrap_or("");
    assert!(line.contains(&format!("than {}/idastar", name(0))), "{err}");
    // The first run's astar named: every solver against it.
    let err = report(
        &paths,
        &["--reference", &format!("{}/astar", name(0))],
        &page,
    );
    let text = page_text(&page);
    assert!(
        err.contains(&format!("{}/idastar is ", name(2)))
            && err.contains(&format!("than {}/astar per case", name(0))),
        "{err}"
    );
    assert!(text.contains(&format!("Every solver compared with {}/astar", name(0))));
}

/// A class of 15 programs in one run: 13 copies of one solver, one that reads all of its
/// input before answering (run in batch mode: no latency per case), one whose every answer
/// is wrong.
#[test]
fn fifteen_programs_missing_figures_are_missing_and_no_chart_is_empty() {
    let dir = temp_dir("rep15");
    let data = dir.join("cases.csv");
    let gen = run_ok(&[
        "gen",
        "--count",
        "20",
        "--walk",
        "14",
        "--seed",
        "3",
        "--unsolvable",
        "0.1",
    ]);
    std::fs::write(&data, gen.stdout).unwrap();
    let toy = "python3 tests/solvers/toy_solver.py";
    let mut solvers: Vec<String> = (1..=13).map(|i| format!("student-{i:02}={toy}")).collect();
    // `tac | tac` holds every line until the input ends.
    solvers.push(format!("batchy=tac | tac | {toy}"));
    solvers.push(format!("allwrong={toy} --fault lie"));
    let out = dir.join("class");
    let mut args = vec![
        "run".to_string(),
        data.display().to_string(),
        "-s".into(),
        "none".into(),
        "-q".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    for s in &solvers {
        args.extend(["--solver".to_string(), s.clone()]);
    }
    let o = bin().args(&args).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("batchy: "),
        "switched to batch mode: {}",
        stderr(&o)
    );

    // summary.csv: empty cells, never 0, where nothing was measured.
    let (h, rows) = read_csv(&out.join("summary.csv"));
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap().clone();
    let cell = |r: &[String], c: &str| r[col(&h, c)].clone();
    let batchy = row("batchy");
    for c in [
        "latency_mean_us",
        "latency_p50_us",
        "latency_p99_us",
        "latency_max_us",
    ] {
        assert_eq!(cell(&batchy, c), "", "batchy {c}");
    }
    assert!(cell(&batchy, "cases_per_s").parse::<f64>().unwrap() > 0.0);
    let wrong = row("allwrong");
    assert_eq!(cell(&wrong, "wrong"), "20");
    for c in ["latency_p50_us", "latency_max_us", "cases_per_s"] {
        assert_eq!(cell(&wrong, c), "", "allwrong {c}");
    }
    assert!(
        cell(&row("student-07"), "latency_p50_us")
            .parse::<f64>()
            .unwrap()
            > 0.0
    );

    // The report.
    let page = dir.join("report.html");
    let err = report(&[out.as_path()], &[], &page);
    let text = page_text(&page);
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, opts).expect("well-formed XHTML");
    let tag = |t: &'static str| doc.descendants().filter(move |n| n.tag_name().name() == t);
    // The summary table: batchy's p50 is —, allwrong's cases/s is —.
    let table = tag("table").next().unwrap();
    let header: Vec<String> = table
        .descendants()
        .filter(|n| n.tag_name().name() == "th")
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    let row_of = |name: &str| -> Vec<String> {
        table
            .children()
            .find(|tr| tr.first_child().and_then(|td| td.text()) == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}"))
            .children()
            .map(|td| td.text().unwrap_or("").to_string())
            .collect()
    };
    let at = |h: &str| header.iter().position(|x| x == h).unwrap();
    assert_eq!(row_of("batchy")[at("p50 µs")], "—");
    assert_eq!(row_of("allwrong")[at("cases/s")], "—");
    assert_eq!(row_of("allwrong")[at("p50 µs")], "—");
    assert_ne!(row_of("student-01")[at("p50 µs")], "—");
    // The class ranking: the program whose every answer is wrong ranks last, the batch
    // program says how it was timed; and the coverage table has its sum row.
    let ranking = tag("section")
        .find(|n| n.attribute("class") == Some("tb-ranking"))
        .expect("a ranking section");
    let ranked: Vec<Vec<String>> = ranking
        .descendants()
        .filter(|n| n.tag_name().name() == "tr")
        .map(|tr| {
            tr.children()
                .filter(|c| c.is_element())
                .map(|c| {
                    c.descendants()
                        .filter(|d| d.is_text())
                        .filter_map(|d| d.text())
                        .collect::<String>()
                })
                .collect()
        })
        .collect();
    assert_eq!(ranked.len(), 16, "{ranked:?}");
    assert!(ranked[15].iter().any(|c| c == "allwrong"), "{ranked:?}");
    let batch_row = rows
        .iter()
        .find(|r| r.iter().any(|c| c == "batchy"))
        .unwrap();
    assert!(
        batch_row.iter().any(|c| c.contains("batch")),
        "{batch_row:?}"
    );
    let coverage = tag("section")
        .find(|n| n.attribute("class") == Some("tb-coverage"))
        .expect("a coverage section");
    assert!(
        coverage.descendants().any(|n| n.text() == Some("sum")),
        "a sum row"
    );
    // No chart with nothing drawn: the charts of states expanded (the programs count none)
    // are left out, each said once on stderr and on the page.
    let figures: Vec<&str> = tag("figure").filter_map(|n| n.attribute("id")).collect();
    for left in [
        "expanded-by-length.svg",
        "coverage-nodes.svg",
        "expanded-vs-latency.svg",
    ] {
        assert!(!figures.contains(&left), "{left} drawn: {figures:?}");
        let line = format!("{left} left out: ");
        assert_eq!(err.matches(&line).count(), 1, "{line}: {err}");
        assert!(text.contains(&line), "{line} not on the page");
    }
    assert!(figures.iter().all(|f| !f.starts_with("scatter-expanded")));
    for svg in tag("svg") {
        let shapes = svg
            .descendants()
            .filter(|n| {
                matches!(
                    n.tag_name().name(),
                    "polyline" | "path" | "rect" | "circle" | "polygon"
                )
            })
            .count();
        assert!(shapes > 15, "a chart with {shapes} shapes");
    }
    let svg_texts = |id: &str| -> Vec<String> {
        tag("figure")
            .find(|f| f.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no {id}"))
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .collect()
    };
    // No throughput bar for the solver whose every answer is wrong: a bar's value is
    // printed on it, one per solver with a rate in summary.csv; its legend says none.
    let t = svg_texts("throughput.svg");
    assert!(t.iter().any(|x| x == "allwrong (none)"), "{t:?}");
    assert!(t.iter().any(|x| x == "batchy"), "{t:?}");
    let rates: Vec<f64> = rows
        .iter()
        .filter_map(|r| cell(r, "cases_per_s").parse().ok())
        .collect();
    assert_eq!(rates.len(), 14);
    for v in rates {
        let label = tilebench::plot::charts::number(v);
        assert!(t.contains(&label), "no bar labelled {label}: {t:?}");
    }
    // No latency curve for allwrong or batchy: 13 series in the legend.
    let t = svg_texts("latency.svg");
    assert!(
        !t.iter()
            .any(|x| x.starts_with("allwrong") || x.starts_with("batchy")),
        "{t:?}"
    );
    assert_eq!(
        t.iter().filter(|x| x.starts_with("student-")).count(),
        13,
        "{t:?}"
    );
    // Every student against the first; the two without a latency named as not compared.
    assert_eq!(err.matches("than student-01 per case").count(), 12, "{err}");
    for s in ["batchy", "allwrong"] {
        assert!(
            err.contains(&format!("{s} vs student-01 not compared")),
            "{err}"
        );
    }
}
