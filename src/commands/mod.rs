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
pub mod terminal;
pub mod verify;

/// Exit codes.
pub const OK: i32 = 0;
pub const FAILED: i32 = 1;
pub const BAD_INPUT: i32 = 2;

/// An error that ends a command with exit code 2 and a message on stderr.
pub type CmdResult = Result<i32, String>;
