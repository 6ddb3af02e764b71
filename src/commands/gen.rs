//! `tilebench gen`: datasets with exact answers, deterministic for a seed
//! ([`tilebench::gen`]).

use super::{CmdResult, OK};
use crate::cli::GenArgs;
use std::io::Write;
use tilebench::cli_support::shell_command;
use tilebench::gen::{check_out, GenError, GenSpec, Generator, Goal};

pub fn run(args: GenArgs) -> CmdResult {
    let spec = GenSpec {
        shape: args.size,
        goal: Goal::parse(&args.goal, args.size).map_err(|e| super::flags::gen_in_flags(&e))?,
        count: args.count,
        unsolvable: args.unsolvable,
        depth: args.depth,
        per_depth: args.per_depth,
        walk: args.walk,
        seed: args.seed,
    };
    if let Some(p) = &args.out {
        check_out(p).map_err(|e| super::flags::gen_in_flags(&e))?;
    }
    let mut generator = Generator::new(spec).map_err(|e| super::flags::gen_in_flags(&e))?;
    let Some(path) = &args.out else {
        return to_stdout(&mut generator);
    };
    let written = generator
        .write_file(path, command())
        .map_err(|e| super::flags::gen_in_flags(&e))?;
    eprintln!(
        "tilebench gen: wrote {} rows to {}; how they were made is in {}",
        written.rows,
        path.display(),
        written.sidecar.display()
    );
    Ok(OK)
}

/// Writes the dataset to stdout, and how it was made to stderr. A closed pipe (`| head`)
/// ends it quietly.
fn to_stdout(generator: &mut Generator) -> CmdResult {
    eprintln!(
        "tilebench gen: made by tilebench {} with `{}`; expected_steps is exact ({}), -1 = \
         unsolvable (with --out FILE this goes to FILE.json)",
        env!("CARGO_PKG_VERSION"),
        shell_command(&command()),
        generator.method()
    );
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = generator.write(&mut out).and_then(|_| Ok(out.flush()?));
    match written {
        Ok(()) => Ok(OK),
        Err(GenError::Write(e)) => super::stdout_written(Err(e)),
        Err(e) => Err(super::flags::gen_in_flags(&e)),
    }
}

/// The command that made the dataset, without where it was written.
fn command() -> Vec<String> {
    let mut command = vec!["tilebench".to_string()];
    let mut argv = std::env::args().skip(1);
    while let Some(a) = argv.next() {
        if a == "-o" || a == "--out" {
            argv.next();
        } else if !(a.starts_with("--out=") || a.starts_with("-o") && a.len() > 2) {
            command.push(a);
        }
    }
    command
}
