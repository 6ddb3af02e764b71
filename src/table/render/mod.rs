//! Table formats, one file each: a [`Render`] implementation and its `pub const FORMAT`.
//! Adding one is its file and its name in the `formats!` line below.

use super::{Table, TableError};

/// Renders typed tables as the text of one file.
pub trait Render {
    /// The whole text: every table, its title and notes.
    fn render(&self, tables: &[Table]) -> String;
}

/// One table format: a name for `--format`, a line for the help, the renderer.
pub(crate) type Format = crate::util::Registered<dyn Render + Sync>;

pub(crate) mod csv;
pub(crate) mod html;
pub(crate) mod md;
pub(crate) mod tex;
/// The table formats (`table --format NAME`), in order.
pub(crate) const FORMATS: &[Format] = &[md::FORMAT, tex::FORMAT, csv::FORMAT, html::FORMAT];

/// The formats' names, in order.
pub fn names() -> Vec<&'static str> {
    FORMATS.iter().map(|f| f.name).collect()
}

/// The format called `name`.
///
/// # Errors
/// No format has that name ([`TableError::UnknownFormat`] lists them).
pub fn format(name: &str) -> Result<&'static Format, TableError> {
    crate::util::registered(FORMATS, name, "table format")
        .map_err(|_| TableError::UnknownFormat(name.to_string()))
}
