use super::CmdResult;
use crate::cli::CompareArgs;
pub fn run(_args: CompareArgs) -> CmdResult {
    Err("compare: not built yet".into())
}
