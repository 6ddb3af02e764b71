//! Small helpers with no better home, one file per concern: a seeded RNG, checksums,
//! timestamps, machine facts, I/O messages, durable writes, fault injection, registries of
//! output formats, message text, the CSV row writer, worker slots and a prefetch hint. Their
//! items are re-exported here, so each is `crate::util::NAME`.

mod checksum;
mod crash;
mod csv_row;
mod files;
mod io;
mod machine;
mod prefetch;
mod registry;
mod rng;
mod text;
mod time;
mod workers;

pub use checksum::{fnv1a64, Fnv1a64, Hashed};
pub use crash::{crash_point, CRASH_AT};
pub use csv_row::{ratio_text, CsvRow};
pub use files::{atomic_write, start_writeback};
pub use io::io_reason;
pub use machine::{cpu_model, git_commit};
pub use prefetch::prefetch;
pub use registry::{registered, Registered};
pub use rng::Rng;
pub use text::{clip, escape_controls, shell_command};
pub use time::{compact_timestamp, rfc3339};
pub use workers::for_worker;
