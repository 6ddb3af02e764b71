//! One file per subcommand, gluing the library together. Each returns the process exit code:
//! 0 success, 1 a check failed (regression, wrong answer), 2 bad input or usage.

pub mod compare;
pub mod gen;
pub mod merge;
pub mod pdb;
pub mod plot;
pub mod report;
pub mod run;
pub mod solve;
pub mod space;
pub mod table;
pub mod terminal;
pub mod verify;

/// Exit codes.
pub const OK: i32 = 0;
pub const FAILED: i32 = 1;
pub const BAD_INPUT: i32 = 2;

/// An error that ends a command with exit code 2 and a message on stderr.
pub type CmdResult = Result<i32, String>;

/// The end of a command that writes its data to stdout: a reader that stopped early (`| head`)
/// is a quiet success, as it asked for no more; another write error is explained.
pub fn stdout_written(written: std::io::Result<i32>) -> CmdResult {
    match written {
        Ok(code) => Ok(code),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(OK),
        Err(e) => Err(format!("cannot write to standard output: {e}")),
    }
}

/// A solver's error as the command line says it: the option at fault (`partition: …` in the
/// library's words) named by its flag (`--pdb-partition: …`), after the solver's name where
/// the error names one (`astar: partition: …`; a solver's name holds no `: `).
pub fn solve_in_flags(e: &tilebench::search::SolveError) -> String {
    if let Some(option) = e.option().filter(|o| !o.flag().is_empty()) {
        let solver = e.solver().map(|s| format!("{s}: ")).unwrap_or_default();
        return format!("{solver}{}: {}", option.flag(), e.reason());
    }
    // The runner says a solver's error as text (`SolveError::new("SOLVER: …")`): the option
    // is found again after the solver's name.
    let text = e.message();
    if let Some((solver, rest)) = text.split_once(": ") {
        let flagged = tilebench::search::registry::all()
            .iter()
            .flat_map(|b| {
                b.options
                    .iter()
                    .chain(b.options.iter().flat_map(|o| o.with()))
            })
            .filter(|o| !o.flag().is_empty());
        for option in flagged {
            if let Some(reason) = rest.strip_prefix(&format!("{}: ", option.name())) {
                return format!("{solver}: {}: {reason}", option.flag());
            }
        }
    }
    text.to_string()
}
