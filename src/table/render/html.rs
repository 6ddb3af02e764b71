//! HTML: a `<table>` per table (class `tb-table`), the best of a row in `<strong>` (class
//! `best`), summary rows of class `total`, missing values `—`; text escaped. A fragment: the
//! whole `--format html` output is a page around [`tables`].

use super::{Format, Render};
use crate::table::Table;

/// `--format html`.
pub(crate) const FORMAT: Format = Format {
    name: "html",
    describe: "an HTML page of tables, best in bold, missing —",
    export: &Html,
};

/// The HTML renderer.
pub(crate) struct Html;

/// `text` with `&`, `<`, `>` and `"` escaped.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The tables as an HTML fragment: for each a `<h3>` title, the `<table>`, its notes.
pub(crate) fn tables(tables: &[Table]) -> String {
    let mut out = String::new();
    for t in tables {
        out.push_str(&format!("<h3>{}</h3>\n", escape(&t.title)));
        out.push_str("<table class=\"tb-table\">\n<thead><tr>");
        for (c, h) in t.header.iter().enumerate() {
            let align = if c < t.first_value { "left" } else { "right" };
            out.push_str(&format!(
                "<th style=\"text-align:{align}\">{}</th>",
                escape(h)
            ));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for r in &t.rows {
            out.push_str(if r.total {
                "<tr class=\"total\">"
            } else {
                "<tr>"
            });
            for (c, (v, &best)) in r.cells.iter().zip(&r.best).enumerate() {
                let align = if c < t.first_value { "left" } else { "right" };
                let text = escape(&v.shown());
                if best {
                    out.push_str(&format!(
                        "<td style=\"text-align:{align}\"><strong class=\"best\">{text}</strong></td>"
                    ));
                } else {
                    out.push_str(&format!("<td style=\"text-align:{align}\">{text}</td>"));
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        for n in &t.notes {
            out.push_str(&format!("<p class=\"note\">{}</p>\n", escape(n)));
        }
    }
    out
}

impl Render for Html {
    fn render(&self, t: &[Table]) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>tilebench tables</title>\n<style>\n\
             body {{ font-family: sans-serif; margin: 2em; }}\n\
             table.tb-table {{ border-collapse: collapse; margin: 1em 0; }}\n\
             table.tb-table th, table.tb-table td {{ padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; }}\n\
             tr.total td {{ border-top: 2px solid #333; font-weight: 600; }}\n\
             p.note {{ color: #555; max-width: 60em; }}\n\
             </style>\n</head>\n<body>\n{}</body>\n</html>\n",
            tables(t)
        )
    }
}
