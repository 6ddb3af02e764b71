//! One file per subcommand, gluing the library together. Each returns the process exit code:
//! 0 success, 1 a check failed (regression, wrong answer), 2 bad input or usage.

pub mod compare;
pub mod flags;
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
