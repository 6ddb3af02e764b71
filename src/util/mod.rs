//! Small helpers with no better home, one file per concern: a seeded RNG, checksums,
//! timestamps, machine facts, I/O messages, durable writes, fault injection, registries of
//! output formats, message text, the CSV row writer, worker slots and a prefetch hint. Their
//! items are re-exported here, so each is `crate::util::NAME`.

mod checksum;
mod crash;
mod csv_row;
pub(crate) mod files;
mod io;
mod machine;
mod prefetch;
mod registry;
mod rng;
pub(crate) mod text;
mod time;
mod workers;

#[cfg(test)]
pub(crate) use checksum::fnv1a64;
pub(crate) use checksum::{FileSum, Fnv1a64, Hashed, Xxh3};
pub(crate) use crash::crash_point;
pub(crate) use csv_row::{ratio_text, CsvRow};
pub use files::WriteError;
pub(crate) use files::{atomic_write, start_writeback};
pub(crate) use io::io_reason;
pub(crate) use machine::{cpu_model, git_commit};
pub(crate) use prefetch::prefetch;
pub(crate) use registry::registered;
pub use registry::{Registered, UnknownName};
pub(crate) use rng::Rng;
pub(crate) use text::{clip, escape_controls, shell_command};
pub(crate) use time::{compact_timestamp, rfc3339};
pub(crate) use workers::for_worker;
