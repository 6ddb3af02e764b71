use super::CmdResult;
use crate::cli::VerifyArgs;
pub fn run(_args: VerifyArgs) -> CmdResult {
    Err("verify: not built yet".into())
}
