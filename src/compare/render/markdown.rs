//! `compare --export markdown=FILE`: the comparison as a pull-request comment: a ✅ or ❌
//! verdict line first, then per pair its notes, table and lists.

use super::{header, lists_text, pair_table, ComparisonExport, Format};
use crate::compare::model::{Comparison, PairKind};
use crate::report::markdown::markdown_table;

/// The registry entry.
pub(crate) const FORMAT: Format = Format {
    name: "markdown",
    describe: "a pull-request comment: the ✅/❌ verdict, notes, the table and the lists",
    export: &Markdown,
};

/// Markdown for a pull-request comment.
pub(crate) struct Markdown;

impl ComparisonExport for Markdown {
    fn render(&self, c: &Comparison) -> String {
        let max = c.thresholds.max_work_increase_pct;
        let mark = if c.regressed() { "❌" } else { "✅" };
        let mut md = format!(
            "{mark} **tilebench compare** {}: {}\n\n",
            c.title(),
            c.verdict()
        );
        for n in &c.left_out {
            md += &format!("Note: {n}\n\n");
        }
        let several = c.pairs.len() > 1;
        for pair in &c.pairs {
            if several {
                let mark = if pair.regressed { "❌" } else { "✅" };
                md += &format!("### {mark} {}\n\n", pair.title());
                if pair.kind == PairKind::Runs {
                    md += &format!("{}\n\n", pair.verdict());
                }
            }
            if pair.kind == PairKind::Solvers {
                for line in pair.headline() {
                    md += &format!("- {line}\n");
                }
                md += "\n";
            }
            for n in &pair.notes {
                md += &format!("Note: {n}\n\n");
            }
            let header = header(pair);
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            md += &markdown_table(&header, &pair_table(pair, max));
            let lists = lists_text(pair, max);
            if !lists.trim().is_empty() {
                md += &format!("\n```\n{}\n```\n", lists.trim());
            }
            if several {
                md += "\n";
            }
        }
        md
    }
}
