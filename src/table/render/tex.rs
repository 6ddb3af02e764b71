//! LaTeX: a `table` environment per table with a booktabs `tabular` (`\toprule`, `\midrule`
//! before summary rows, `\bottomrule`), the best of a row in `\textbf`, missing values `---`,
//! the notes as the caption. Compiles in a plain `article` with `\usepackage{booktabs}`
//! (`\input` it); every special character of names is escaped.

use super::{Format, Render};
use crate::table::Table;

/// `--format tex`.
pub(crate) const FORMAT: Format = Format {
    name: "tex",
    describe: "LaTeX booktabs tables (\\usepackage{booktabs}), best in \\textbf, missing ---",
    export: &Tex,
};

/// The LaTeX renderer.
pub(crate) struct Tex;

/// `text` safe in LaTeX's text mode: the ten special characters escaped, `µ` and `—` as
/// commands (no inputenc or fonts needed).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '_' | '%' | '&' | '#' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            'µ' => out.push_str("$\\mu$"),
            '—' => out.push_str("---"),
            '÷' => out.push_str("$\\div$"),
            c if c.is_ascii() => out.push(c),
            // Other characters a plain pdflatex may lack a glyph for.
            _ => out.push('?'),
        }
    }
    out
}

impl Render for Tex {
    fn render(&self, tables: &[Table]) -> String {
        let mut out = String::from("% tilebench table: \\usepackage{booktabs} in the preamble\n");
        for t in tables {
            let spec: String = (0..t.header.len())
                .map(|c| if c < t.first_value { 'l' } else { 'r' })
                .collect();
            out.push_str("\\begin{table}[htbp]\n\\centering\n\\small\n");
            out.push_str(&format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n"));
            let head: Vec<String> = t.header.iter().map(|h| escape(h)).collect();
            out.push_str(&format!("{} \\\\\n\\midrule\n", head.join(" & ")));
            for r in &t.rows {
                if r.total {
                    out.push_str("\\midrule\n");
                }
                let cells: Vec<String> = r
                    .cells
                    .iter()
                    .zip(&r.best)
                    .map(|(v, &best)| {
                        let text = escape(&v.shown());
                        if best {
                            format!("\\textbf{{{text}}}")
                        } else {
                            text
                        }
                    })
                    .collect();
                out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
            }
            out.push_str("\\bottomrule\n\\end{tabular}\n");
            let notes: Vec<String> = t.notes.iter().map(|n| escape(n)).collect();
            out.push_str(&format!(
                "\\caption{{{}. {}}}\n\\end{{table}}\n\n",
                escape(&t.title),
                notes.join(" ")
            ));
        }
        out
    }
}
