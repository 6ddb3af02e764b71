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

/// The entry of `list` called `name` (any case, spaces trimmed), or a sentence naming the
/// choices: "unknown `what` `name`; choose a, b, c".
///
/// # Errors
/// No entry has that name.
pub(crate) fn registered<'a, E: ?Sized>(
    list: &'a [Registered<E>],
    name: &str,
    what: &str,
) -> Result<&'a Registered<E>, String> {
    list.iter()
        .find(|f| f.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = list.iter().map(|f| f.name).collect();
            format!("unknown {what} `{name}`; choose {}", names.join(", "))
        })
}
