//! The `tilebench` command line: parse the arguments, run one command, map its result to an
//! exit code. Everything else is in the library.
#![warn(clippy::too_many_lines)]

mod cli;
mod commands;

use clap::Parser;
use cli::{Cli, Command};

/// Counts each thread's heap: a case's peak (cases.csv `peak_heap_bytes`) and
/// `--max-memory` for the built-in solvers.
#[cfg(feature = "heap-accounting")]
#[global_allocator]
static ALLOC: tilebench::memory::CountingAlloc = tilebench::memory::CountingAlloc;

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(a) => commands::solve::run(a),
        Command::Run(a) => commands::run::run(*a),
        Command::Gen(a) => commands::gen::run(a),
        Command::Space(a) => commands::space::run(a),
        Command::Compare(a) => commands::compare::run(a),
        Command::Verify(a) => commands::verify::run(a),
        Command::Pdb(a) => commands::pdb::run(a),
        Command::Merge(a) => commands::merge::run(a),
        Command::Plot(a) => commands::plot::run(a),
        Command::Report(a) => commands::report::run(a),
        Command::Table(a) => commands::table::run(a),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(msg) => {
            eprintln!("error: {msg}");
            std::process::exit(commands::BAD_INPUT);
        }
    }
}
