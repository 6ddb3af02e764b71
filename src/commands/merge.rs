use super::CmdResult;
pub fn run(_a: crate::cli::MergeArgs) -> CmdResult {
    Err("todo".into())
}
