//! Markdown (GitHub's tables): the best of a row in bold, missing values `—`.

use super::{Format, Render};
use crate::table::Table;

/// `--format md`.
pub(crate) const FORMAT: Format = Format {
    name: "md",
    describe: "Markdown tables (GitHub), best in bold, missing —",
    export: &Markdown,
};

/// The Markdown renderer.
pub(crate) struct Markdown;

/// A cell's text with `|` escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

impl Render for Markdown {
    fn render(&self, tables: &[Table]) -> String {
        let mut out = String::new();
        for (i, t) in tables.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("### {}\n\n", t.title));
            let head: Vec<String> = t.header.iter().map(|h| cell(h)).collect();
            out.push_str(&format!("| {} |\n", head.join(" | ")));
            let rule: Vec<&str> = (0..t.header.len())
                .map(|c| if c < t.first_value { ":---" } else { "---:" })
                .collect();
            out.push_str(&format!("|{}|\n", rule.join("|")));
            for r in &t.rows {
                let cells: Vec<String> = r
                    .cells
                    .iter()
                    .zip(&r.best)
                    .enumerate()
                    .map(|(c, (v, &best))| {
                        let text = cell(&v.shown());
                        if best || (r.total && c == 0) {
                            format!("**{text}**")
                        } else {
                            text
                        }
                    })
                    .collect();
                out.push_str(&format!("| {} |\n", cells.join(" | ")));
            }
            out.push('\n');
            for n in &t.notes {
                out.push_str(n);
                out.push('\n');
            }
        }
        out
    }
}
