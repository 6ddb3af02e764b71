//! `tilebench table`: the tables papers print, from one or more runs.

use super::{CmdResult, OK};
use crate::cli::TableArgs;
use tilebench::table::{self, Spec};

pub fn run(args: TableArgs) -> CmdResult {
    let format = table::render::format(&args.format).map_err(|e| e.to_string())?;
    let mut measures = args
        .attribute
        .iter()
        .map(|a| a.parse())
        .collect::<Result<Vec<table::Measure>, _>>()
        .map_err(|e| format!("--attribute: {e}"))?;
    let per_task = args
        .per_task
        .as_deref()
        .map(str::parse::<table::Attribute>)
        .transpose()
        .map_err(|e| format!("--per-task: {e}"))?;
    if measures.is_empty() && per_task.is_none() && !args.rank {
        measures = Spec::default().measures;
    }
    let spec = Spec {
        by: args.by,
        measures,
        per_task,
        ranking: args.rank,
    };
    let data = table::load(&args.runs).map_err(|e| super::flags::table_in_flags(&e))?;
    let text = table::render(&table::build(&data, &spec), format);
    match &args.out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| {
                format!(
                    "cannot write {}: {e}; check that its directory exists and is writable",
                    path.display()
                )
            })?;
            eprintln!("tilebench: wrote {}", path.display());
            Ok(OK)
        }
        None => {
            use std::io::Write;
            super::stdout_written(std::io::stdout().write_all(text.as_bytes()).map(|()| OK))
        }
    }
}
