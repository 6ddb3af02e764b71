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
