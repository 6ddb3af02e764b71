//! The harness: input → solve → record. [`input`] turns CSV rows into [`input::Case`]s,
//! [`runner`] solves every case with every strategy in parallel, and [`record`] is the
//! one row per case × strategy that every report is made from.

pub mod input;
pub mod interrupt;
pub mod journal;
pub mod record;
pub mod runner;
pub mod shard;
