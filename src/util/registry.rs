//! Registries of output formats: a name, a line of help, a renderer.

/// One entry of a registry of output formats (the run's summary exports, a comparison's
/// exports, `table`'s formats): a name for the command line, a line for the help, and the
/// renderer, a `&'static` trait object of the registry's own trait.
pub struct Registered<E: ?Sized + 'static> {
    /// The name on the command line.
    pub name: &'static str,
    /// One line for `--help` and the docs.
    pub describe: &'static str,
    /// The renderer.
    pub export: &'static E,
}

impl<E: ?Sized> std::fmt::Debug for Registered<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A name that is no entry's of a registry of formats; the message names the choices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{name}`; choose {}", .choices.join(", "))]
#[non_exhaustive]
pub struct UnknownName {
    /// What the registry holds (`export format`, `comparison export format`, `table format`).
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The registry's names, in order.
    pub choices: Vec<&'static str>,
}

/// The entry of `list` called `name` (any case, spaces trimmed).
///
/// # Errors
/// No entry has that name ([`UnknownName`]: "unknown `what` `name`; choose a, b, c").
pub(crate) fn registered<'a, E: ?Sized>(
    list: &'a [Registered<E>],
    name: &str,
    what: &'static str,
) -> Result<&'a Registered<E>, UnknownName> {
    list.iter()
        .find(|f| f.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| UnknownName {
            what,
            name: name.to_string(),
            choices: list.iter().map(|f| f.name).collect(),
        })
}
