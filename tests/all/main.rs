//! Every integration test, in one binary: one link instead of one per file (CI's build
//! time), and the tests of all files share the test harness's threads. Each file is a module;
//! `cargo test --test all resume::` runs one file's tests.

mod common;
// The library's SplitMix64 (crate-private there), included so the seeds give the boards they
// always gave.
#[allow(dead_code)]
#[path = "../../src/util/rng.rs"]
mod rng;

mod answers;

mod args;
mod big_boards;
mod census;
mod ci_outputs;
mod claims;
mod configurations;
mod corpus;
mod docs;
mod errors;
mod external;
mod faults;
mod formats;
mod fuzz;
mod gen;
mod heap;
mod heuristics;
mod korf;
mod korf24;
mod layers;
mod library;
mod limit_reasons;
mod memory;
mod messages;
mod pdb;
mod pdb24;
mod pdb_tables;
mod plot;
mod plot_per_case;
mod puzzle;
mod regression;
mod report;
mod resume;
mod rows;
mod run;
mod rundir;
mod solve;
mod solvers;
mod students;
mod table;
