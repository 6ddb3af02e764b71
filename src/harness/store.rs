//! A run's records on disk in their final order: the run's journal while it runs, and what
//! the final files are written from, in memory that does not grow with the run.
//!
//! While a run is going, its results directory holds
//!
//! - `journal-slots.bin`: one fixed-width slot of `SLOT` bytes per case × solver of the
//!   shard, solver-major (slot `job × positions + position`): a pass writes its records in
//!   long runs of neighbouring slots, and the final pass reads each solver's slots in order;
//!   an all-zero slot is a job not done yet;
//! - `journal-texts.bin`: the messages and paths, appended; a slot says where its own are.
//!
//! Each record is written once, where its case and solver put it, and read once, with no
//! sorting pass and no temporary runs; a record's fixed-width part is small (no strategy
//! name: the slot says which solver). A slot carries a checksum over the run's identity (a
//! hash of its manifest), its place in the grid, its bytes and its texts, so that a resumed
//! run ([`Store::open`]) takes as done exactly the slots this run wrote whole, whatever a
//! kill or a power loss left: a slot torn, pointing at texts that never reached the disk,
//! or another run's is cleared and its job run again.
//! The journal's writer syncs both files every second and at the end of each pass
//! ([`super::journal`]).

use crate::dataset::shard::Shard;
use crate::results::record::{Record, RowStatus};
use crate::search::Counters;
#[cfg(test)]
use crate::search::LimitReason;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The file of fixed-width slots.
pub(crate) const SLOTS: &str = "journal-slots.bin";
/// The file of messages and paths.
pub(crate) const TEXTS: &str = "journal-texts.bin";
/// Bytes per slot.
pub(crate) const SLOT: usize = 112;

/// Creates the store's files in `dir`, empty, replacing any (a new run's journal).
///
/// # Errors
/// A file that cannot be created.
pub(crate) fn create_files(dir: &Path) -> io::Result<()> {
    for name in [SLOTS, TEXTS] {
        File::create(dir.join(name))?;
    }
    Ok(())
}

/// Where a run's records go: its shard's cases × its solvers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// The run's shard.
    pub shard: Shard,
    /// Cases in the run's inputs (all shards).
    pub cases: usize,
    /// Solvers, in output order.
    pub solvers: usize,
}

impl Layout {
    /// The shard's cases.
    pub(crate) fn positions(&self) -> usize {
        self.shard.len(self.cases)
    }
    /// Case × solver jobs.
    pub(crate) fn len(&self) -> usize {
        self.positions() * self.solvers
    }
    /// The slot of case `case` (of the shard) × solver `job`.
    pub(crate) fn slot(&self, case: usize, job: usize) -> usize {
        job * self.positions() + self.shard.position(case)
    }
}

const NONE_U64: u64 = u64::MAX;
const NONE_I64: i64 = i64::MIN;

fn flag(b: Option<bool>) -> u8 {
    match b {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    }
}

fn unflag(b: u8) -> Option<bool> {
    match b & 3 {
        1 => Some(false),
        2 => Some(true),
        _ => None,
    }
}

fn status_byte(s: RowStatus) -> u8 {
    match s {
        RowStatus::Solved => 1,
        RowStatus::Unsolvable => 2,
        RowStatus::Limit => 3,
        RowStatus::Invalid => 4,
        RowStatus::Error => 5,
        RowStatus::Wrong => 6,
    }
}

fn status_of(b: u8) -> Option<RowStatus> {
    Some(match b {
        1 => RowStatus::Solved,
        2 => RowStatus::Unsolvable,
        3 => RowStatus::Limit,
        4 => RowStatus::Invalid,
        5 => RowStatus::Error,
        6 => RowStatus::Wrong,
        _ => return None,
    })
}

/// The counters and measurements of a slot, in slot order.
fn numbers(r: &Record) -> [Option<u64>; 10] {
    let c = &r.counters;
    [
        c.expanded,
        c.generated,
        c.stored,
        c.peak_frontier,
        r.latency_ns,
        r.latency_min_ns,
        r.cpu_us,
        r.max_rss_kb,
        r.optimum_steps,
        r.peak_heap_bytes,
    ]
}

/// Where a slot's checksum is (4 bytes); byte 2 is a `limit` row's reason (0: none, else
/// its place in [`crate::search::LimitReason::ALL`] + 1), byte 3 is unused.
const SUM: usize = 12;

/// The checksum of slot `slot` of run `run` holding `s`, whose texts are `text`: over the
/// run (so that another run's journal, put in this one's directory, holds no record of
/// it), its place, its bytes (but for the checksum and the texts' offset, which a [`Batch`]
/// only knows when it is written) and its texts. Never 0.
fn slot_sum(run: u64, slot: usize, s: &[u8], text: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |h: u64, w: u64| {
        let h = (h ^ w).wrapping_mul(K);
        h ^ (h >> 29)
    };
    let mut h = mix(mix(K, run), slot as u64);
    h = mix(h, u64_at(s, 0));
    h = mix(h, u32_at(s, 8) as u64);
    for at in (24..SLOT).step_by(8) {
        h = mix(h, u64_at(s, at));
    }
    let mut words = text.chunks_exact(8);
    for w in &mut words {
        h = mix(h, u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = mix(h, u64::from_le_bytes(tail) ^ (text.len() as u64) << 56);
    ((h >> 32) as u32 ^ h as u32).max(1)
}

/// Encodes `r` as slot `slot` of run `run`; its message and path are appended to `text`,
/// and the slot says where, relative to the start of `text` (see [`Batch::push`]).
fn encode(run: u64, slot: usize, r: &Record, text: &mut Vec<u8>) -> [u8; SLOT] {
    let mut s = [0u8; SLOT];
    s[0] = status_byte(r.status);
    s[1] = flag(r.matches_expected) | flag(r.optimal) << 2 | u8::from(r.path.is_some()) << 4;
    s[2] = r.limit_reason.map_or(0, |why| why as u8 + 1);
    let path = r.path.as_deref().unwrap_or("");
    s[4..8].copy_from_slice(&(r.message.len() as u32).to_le_bytes());
    s[8..12].copy_from_slice(&(path.len() as u32).to_le_bytes());
    let from = text.len();
    s[16..24].copy_from_slice(&(from as u64).to_le_bytes());
    text.extend_from_slice(r.message.as_bytes());
    text.extend_from_slice(path.as_bytes());
    s[24..32].copy_from_slice(&r.steps.unwrap_or(NONE_I64).to_le_bytes());
    for (i, v) in numbers(r).into_iter().enumerate() {
        let at = 32 + 8 * i;
        s[at..at + 8].copy_from_slice(&v.unwrap_or(NONE_U64).to_le_bytes());
    }
    let sum = slot_sum(run, slot, &s, &text[from..]);
    s[SUM..SUM + 4].copy_from_slice(&sum.to_le_bytes());
    s
}

fn u64_at(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(s: &[u8], at: usize) -> usize {
    u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes")) as usize
}

/// Where a slot's texts are in the texts file, and how long the message and path are.
fn text_span(s: &[u8]) -> (u64, usize, usize) {
    (u64_at(s, 16), u32_at(s, 4), u32_at(s, 8))
}

/// Decodes a slot (none when it is empty), its texts read from `text` at `off` (the texts
/// file's offset of `text[0]`).
fn decode(s: &[u8], case: usize, strategy: &str, text: &[u8], off: u64) -> Option<Record> {
    let status = status_of(s[0])?;
    let n = |i: usize| Some(u64_at(s, 32 + 8 * i)).filter(|&v| v != NONE_U64);
    let (at, msg, path) = text_span(s);
    let t = if msg + path == 0 {
        &[][..]
    } else {
        &text[(at - off) as usize..][..msg + path]
    };
    let string = |b: &[u8]| {
        if b.is_empty() {
            String::new() // most records' message
        } else {
            String::from_utf8_lossy(b).into_owned()
        }
    };
    Some(Record {
        case,
        strategy: strategy.into(),
        status,
        steps: Some(u64_at(s, 24) as i64).filter(|&v| v != NONE_I64),
        matches_expected: unflag(s[1]),
        optimal: unflag(s[1] >> 2),
        optimum_steps: n(8),
        counters: Counters {
            expanded: n(0),
            generated: n(1),
            stored: n(2),
            peak_frontier: n(3),
        },
        latency_ns: n(4),
        latency_min_ns: n(5),
        cpu_us: n(6),
        max_rss_kb: n(7),
        peak_heap_bytes: n(9),
        path: (s[1] & 16 != 0).then(|| string(&t[msg..])),
        limit_reason: (s[2] as usize)
            .checked_sub(1)
            .and_then(|i| crate::search::LimitReason::ALL.get(i).copied()),
        message: string(&t[..msg]),
    })
}

/// Some records encoded for the store of run `run` (by a worker, so that the writer thread
/// only copies). [`Batch::default`] is run 0's, as [`Store::create`] makes.
#[derive(Default)]
pub(crate) struct Batch {
    run: u64,
    /// Per record: its slot and its bytes (text offsets relative to `text`).
    slots: Vec<(usize, [u8; SLOT])>,
    /// The records' messages and paths.
    text: Vec<u8>,
}

impl Batch {
    /// An empty batch for the store of run `run` (see [`Store::run`]).
    pub(crate) fn for_run(run: u64) -> Batch {
        Batch {
            run,
            ..Batch::default()
        }
    }
    /// Adds record `r` of solver `job`.
    pub(crate) fn push(&mut self, layout: &Layout, job: usize, r: &Record) {
        let slot = layout.slot(r.case, job);
        let bytes = encode(self.run, slot, r, &mut self.text);
        self.slots.push((slot, bytes));
    }
}

/// The texts file, and the texts of some slots read from it in one piece.
struct Texts<'a> {
    file: &'a File,
    /// The file's length.
    len: u64,
    /// The bytes read, and the file's offset of the first.
    held: Vec<u8>,
    at: u64,
}

impl<'a> Texts<'a> {
    /// The texts of the slots in `slots` that have any, read in one piece when they lie
    /// within 16 MB of each other (records written together have their texts together);
    /// else none is held, and each is read alone.
    fn of(slots: &[u8], file: &'a File, len: u64) -> io::Result<Texts<'a>> {
        let (lo, hi) = slots
            .chunks(SLOT)
            .filter(|s| s[0] != 0)
            .map(text_span)
            .filter(|&(_, m, p)| m + p > 0)
            .fold((u64::MAX, 0), |(lo, hi), (at, m, p)| {
                (lo.min(at), hi.max(at.saturating_add((m + p) as u64)))
            });
        let hi = hi.min(len);
        let mut texts = Texts {
            file,
            len,
            held: Vec::new(),
            at: 0,
        };
        if hi > lo && hi - lo <= 16 << 20 {
            texts.held = vec![0u8; (hi - lo) as usize];
            file.read_exact_at(&mut texts.held, lo)?;
            texts.at = lo;
        }
        Ok(texts)
    }

    /// The `n` bytes at the file's offset `at`: from those held when they are there, else
    /// read into `own` (the caller checks that they lie within the file).
    #[inline]
    fn get<'b>(&'b self, at: u64, n: usize, own: &'b mut Vec<u8>) -> io::Result<&'b [u8]> {
        let end = at + n as u64;
        if n == 0 || (at >= self.at && end <= self.at + self.held.len() as u64) {
            let from = at.saturating_sub(self.at) as usize;
            return Ok(self.held.get(from..from + n).unwrap_or_default());
        }
        own.resize(n, 0);
        self.file.read_exact_at(own, at)?;
        Ok(own)
    }

    /// Whether slot `slot` of run `run`, holding `s`, is a record written whole, texts and
    /// all.
    fn whole(&self, run: u64, slot: usize, s: &[u8]) -> io::Result<bool> {
        let (at, msg, path) = text_span(s);
        let n = msg + path;
        if status_of(s[0]).is_none() || at.checked_add(n as u64).is_none_or(|e| e > self.len) {
            return Ok(false);
        }
        let mut own = Vec::new();
        let text = self.get(at, n, &mut own)?;
        Ok(u32_at(s, SUM) as u32 == slot_sum(run, slot, s, text))
    }
}

/// Reads the first `n` slots of `slots` back, [`SCAN`] at a time with their texts, and
/// tells `each` of every one that is not all zero whether it is a whole record of run
/// `run`.
fn scan(
    slots: &File,
    texts: (&File, u64),
    run: u64,
    n: usize,
    mut each: impl FnMut(usize, bool),
) -> io::Result<()> {
    let mut bytes = vec![0u8; SCAN.min(n) * SLOT];
    for first in (0..n).step_by(SCAN) {
        let part = &mut bytes[..(n - first).min(SCAN) * SLOT];
        slots.read_exact_at(part, (first * SLOT) as u64)?;
        let held = Texts::of(part, texts.0, texts.1)?;
        for (i, s) in part.chunks(SLOT).enumerate() {
            if s.iter().any(|&b| b != 0) {
                each(first + i, held.whole(run, first + i, s)?);
            }
        }
    }
    Ok(())
}

/// Slots read back at a time by [`scan`].
const SCAN: usize = 1 << 15;

/// How many records the store in `dir` of run `run` holds whole (what `--resume` would take
/// as done), read without changing anything (see [`super::journal::count_done`]).
///
/// # Errors
/// A store file that cannot be opened or read.
pub(crate) fn count_whole(dir: &Path, run: u64) -> io::Result<usize> {
    let slots = File::open(dir.join(SLOTS))?;
    let texts = File::open(dir.join(TEXTS))?;
    let n = (slots.metadata()?.len() / SLOT as u64) as usize;
    let mut whole = 0;
    scan(&slots, (&texts, texts.metadata()?.len()), run, n, |_, w| {
        whole += usize::from(w);
    })?;
    Ok(whole)
}

/// The two files, open.
pub(crate) struct Store {
    layout: Layout,
    /// The run's identity, in every slot's checksum.
    run: u64,
    slots: File,
    texts: File,
    texts_len: u64,
}

/// A store opened for a run, and what its slots held: per job (in slot order) whether it
/// is done, empty when none is.
pub(crate) struct Opened {
    /// The store, ready to take the jobs left.
    pub store: Store,
    /// Per slot: whether its job is done; empty when none is.
    pub done: Vec<bool>,
    /// Jobs done.
    pub already: usize,
    /// Slots that held something other than a whole record of this run (part of one, left
    /// by a kill or a power loss mid-write; or another run's), cleared.
    pub cleared: usize,
}

impl Store {
    /// Creates the store of `dir` for `layout`, empty (every slot zero), replacing any, as
    /// run 0's.
    ///
    /// # Errors
    /// A file that cannot be created or sized.
    #[cfg(test)]
    pub(crate) fn create(dir: &Path, layout: Layout) -> io::Result<Store> {
        create_files(dir)?;
        Ok(Store::open(dir, layout, 0)?.store)
    }

    /// Opens the store of `dir` for `layout` of run `run` as the journal left it (the files
    /// made empty by `create_files` for a new run): every slot whose checksum holds is a job
    /// done; every other slot not zero is cleared (its job runs again), and so is anything
    /// past the layout's last slot; a slots file shorter than the layout is lengthened with
    /// empty slots.
    ///
    /// # Errors
    /// A file that cannot be opened, read, written or sized.
    pub(crate) fn open(dir: &Path, layout: Layout, run: u64) -> io::Result<Opened> {
        let open = |name: &str| {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(dir.join(name))
        };
        let (slots, texts) = (open(SLOTS)?, open(TEXTS)?);
        let (have, want) = (slots.metadata()?.len(), (layout.len() * SLOT) as u64);
        let store = Store {
            layout,
            run,
            slots,
            texts_len: texts.metadata()?.len(),
            texts,
        };
        let whole_slots = (have.min(want) / SLOT as u64) as usize;
        let (done, already, mut cleared) = store.check(whole_slots)?;
        if have != want {
            // Bytes past the last whole slot, or past the layout: a slot cut short, or not
            // this run's. Cut off, then lengthened with empty slots.
            let from = (whole_slots * SLOT) as u64;
            cleared += (have.saturating_sub(from)).div_ceil(SLOT as u64) as usize;
            store.slots.set_len(from)?;
            store.slots.set_len(want)?;
        }
        Ok(Opened {
            store,
            done,
            already,
            cleared,
        })
    }

    /// Reads the first `n` slots back: which are done; clears the others that are not zero.
    fn check(&self, n: usize) -> io::Result<(Vec<bool>, usize, usize)> {
        let mut done = Vec::new();
        let (mut already, mut torn) = (0, Vec::new());
        let texts = (&self.texts, self.texts_len);
        scan(&self.slots, texts, self.run, n, |slot, whole| {
            if !whole {
                torn.push(slot);
                return;
            }
            if done.is_empty() {
                done = vec![false; self.layout.len()];
            }
            done[slot] = true;
            already += 1;
        })?;
        for &slot in &torn {
            self.slots
                .write_all_at(&[0u8; SLOT], (slot * SLOT) as u64)?;
        }
        Ok((done, already, torn.len()))
    }

    /// The run whose records the store holds (for [`Batch::for_run`]).
    pub(crate) fn run(&self) -> u64 {
        self.run
    }

    /// Makes both files durable: what [`Store::put`] wrote so far survives a power loss.
    ///
    /// # Errors
    /// A sync that fails.
    pub(crate) fn sync(&self) -> io::Result<()> {
        self.texts.sync_data()?;
        self.slots.sync_data()
    }

    /// The layout.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Writes a batch: its texts appended, its slots in place (neighbouring slots in one
    /// write).
    ///
    /// # Errors
    /// A write that fails.
    pub(crate) fn put(&mut self, mut batch: Batch) -> io::Result<()> {
        let base = self.texts_len;
        self.texts.write_all_at(&batch.text, base)?;
        self.texts_len += batch.text.len() as u64;
        batch.slots.sort_unstable_by_key(|(s, _)| *s);
        let mut run: Vec<u8> = Vec::with_capacity(batch.slots.len() * SLOT);
        let mut first = 0;
        for (slot, bytes) in &mut batch.slots {
            let at = u64_at(bytes, 16) + base;
            bytes[16..24].copy_from_slice(&at.to_le_bytes());
            if !run.is_empty() && *slot != first + run.len() / SLOT {
                self.slots.write_all_at(&run, (first * SLOT) as u64)?;
                run.clear();
            }
            if run.is_empty() {
                first = *slot;
            }
            run.extend_from_slice(bytes);
        }
        if !run.is_empty() {
            self.slots.write_all_at(&run, (first * SLOT) as u64)?;
        }
        crate::util::crash_point("stored", "");
        Ok(())
    }

    /// Removes the store's files from `dir` (if the journal's removal has not) and closes
    /// them, on a thread of its own (the one returned): the kernel takes a while to free
    /// their blocks (15 ms for the 100 MB of a 1M-row run). For the end of a run, once its
    /// files are written and the journal is gone; when no thread can start, `None`, and the
    /// files are closed at once.
    pub(crate) fn discard(self, dir: &Path) -> Option<std::thread::JoinHandle<()>> {
        let paths = [dir.join(SLOTS), dir.join(TEXTS)];
        std::thread::Builder::new()
            .name("tilebench-free".into())
            .spawn(move || {
                for p in &paths {
                    let _ = std::fs::remove_file(p);
                }
                drop(self);
            })
            .ok()
    }

    /// The records of positions `from..to` of the shard, in grid order (position, then
    /// solver); `None` for a job not done. `names` are the solvers'.
    ///
    /// # Errors
    /// A read that fails.
    #[cfg(test)]
    pub(crate) fn read(
        &self,
        from: usize,
        to: usize,
        names: &[String],
    ) -> io::Result<Vec<Option<Record>>> {
        let mut out = Vec::with_capacity((to - from) * self.layout.solvers);
        self.read_each(from, to, names, |r| out.push(r))?;
        Ok(out)
    }

    /// As `Store::read` (the tests'), the records that are there, in the same order, and how many jobs
    /// are not done: the final pass takes its chunks' records as they are decoded, without a
    /// second vector.
    ///
    /// # Errors
    /// A read that fails.
    pub(crate) fn read_done(
        &self,
        from: usize,
        to: usize,
        names: &[String],
    ) -> io::Result<(Vec<Record>, usize)> {
        let mut out = Vec::with_capacity((to - from) * self.layout.solvers);
        let mut missing = 0;
        self.read_each(from, to, names, |r| match r {
            Some(r) => out.push(r),
            None => missing += 1,
        })?;
        Ok((out, missing))
    }

    /// The slots of positions `from..to`, decoded and handed to `each` in grid order.
    fn read_each(
        &self,
        from: usize,
        to: usize,
        names: &[String],
        mut each: impl FnMut(Option<Record>),
    ) -> io::Result<()> {
        let (n, k) = (to - from, self.layout.solvers);
        if n == 0 || k == 0 {
            return Ok(());
        }
        let mut bytes = vec![0u8; n * k * SLOT];
        for (j, part) in bytes.chunks_mut(n * SLOT).enumerate() {
            let at = (j * self.layout.positions() + from) * SLOT;
            self.slots.read_exact_at(part, at as u64)?;
        }
        let texts = Texts::of(&bytes, &self.texts, self.texts_len)?;
        let mut own = Vec::new();
        for p in 0..n {
            let case = self.layout.shard.case_at(from + p);
            for (j, name) in names.iter().enumerate().take(k) {
                let s = &bytes[(j * n + p) * SLOT..][..SLOT];
                let rec = if s[0] == 0 {
                    None // not done
                } else {
                    let (at, m, l) = text_span(s);
                    decode(s, case, name, texts.get(at, m + l, &mut own)?, at)
                };
                each(rec);
            }
        }
        Ok(())
    }
}

/// The arbitrary records of the journal's property test, shared with tests/all/formats.rs.
#[cfg(test)]
#[path = "../../tests/all/common/records.rs"]
mod records;

#[cfg(test)]
mod tests {
    use super::*;

    /// A discarded store's files are gone once its thread has ended.
    #[test]
    fn a_discarded_store_leaves_no_file() {
        let dir = std::env::temp_dir().join(format!("tilebench-discard-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let layout = Layout {
            shard: Shard::ALL,
            cases: 4,
            solvers: 1,
        };
        let mut store = Store::create(&dir, layout).unwrap();
        let mut batch = Batch::default();
        let mut r = Record::empty(2, "astar");
        r.message = "a note".into();
        batch.push(&layout, 0, &r);
        store.put(batch).unwrap();
        assert!(dir.join(SLOTS).is_file() && dir.join(TEXTS).is_file());
        store.discard(&dir).expect("a thread").join().unwrap();
        assert!(!dir.join(SLOTS).exists());
        assert!(!dir.join(TEXTS).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn records_come_back_in_grid_order_whatever_order_they_were_put() {
        let dir = std::env::temp_dir().join(format!("tilebench-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let shard = Shard { index: 2, count: 3 };
        let layout = Layout {
            shard,
            cases: 20,
            solvers: 2,
        };
        let names = vec!["astar".to_string(), "my,solver".to_string()];
        let mut store = Store::create(&dir, layout).unwrap();
        let mut want = Vec::new();
        for case in shard.cases(20) {
            for (j, name) in names.iter().enumerate() {
                let mut r = Record::empty(case, name);
                r.status = if case % 2 == 0 {
                    RowStatus::Solved
                } else {
                    RowStatus::Wrong
                };
                r.steps = (case != 4).then_some(case as i64 - 7);
                r.matches_expected = (case % 3 != 0).then_some(case % 2 == 0);
                r.optimal = Some(j == 1);
                r.counters.expanded = Some(case as u64 * 1000);
                r.latency_ns = (case != 7).then_some(99 + case as u64);
                r.path = match case % 3 {
                    0 => None,
                    1 => Some(String::new()),
                    _ => Some("udlr".repeat(case)),
                };
                r.message = if j == 0 {
                    String::new()
                } else {
                    format!("a \"note\",\n{case}")
                };
                want.push(r);
            }
        }
        // Put in reverse order, in two batches, one job missing.
        let mut batches = [Batch::default(), Batch::default()];
        for (i, r) in want.iter().enumerate().rev().skip(1) {
            batches[i % 2].push(&layout, i % 2, r);
        }
        for b in batches {
            store.put(b).unwrap();
        }
        let back = store.read(0, layout.positions(), &names).unwrap();
        let last = back.len() - 1;
        assert!(back[last].is_none());
        let (done, missing) = store.read_done(0, layout.positions(), &names).unwrap();
        assert_eq!((&done[..], missing), (&want[..last], 1));
        let back: Vec<Record> = back.into_iter().flatten().collect();
        assert_eq!(back, want[..last]);
        // A range in the middle.
        let mid = store.read(2, 4, &names).unwrap();
        assert_eq!(mid.into_iter().flatten().collect::<Vec<_>>(), want[4..8]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every record reads back from the journal's store as it was put, and a resumed run
    /// finds it whole (moved here from the integration tests: the store is crate-private).
    mod round_trip {
        use super::super::records::record;
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn the_journal_reads_back_every_record(rec in record(true), solvers in 1usize..4) {
                let dir = std::env::temp_dir().join(format!(
                    "tilebench-formats-{}-{:?}",
                    std::process::id(),
                    std::thread::current().id()
                ));
                std::fs::create_dir_all(&dir).unwrap();
                let layout = Layout {
                    shard: Shard::ALL,
                    cases: rec.case + 1,
                    solvers,
                };
                let job = rec.case % solvers;
                let mut names: Vec<String> = (0..solvers).map(|j| format!("other{j}")).collect();
                names[job] = rec.strategy.to_string();
                let mut store = Store::create(&dir, layout).unwrap();
                let mut batch = Batch::default();
                batch.push(&layout, job, &rec);
                store.put(batch).unwrap();
                store.sync().unwrap();
                let back = store.read(rec.case, rec.case + 1, &names).unwrap();
                // Read again as a resumed run opens it: the one record is whole.
                drop(store);
                let opened = Store::open(&dir, layout, 0).unwrap();
                let _ = std::fs::remove_dir_all(&dir);
                prop_assert_eq!(back[job].as_ref(), Some(&rec));
                prop_assert_eq!((opened.already, opened.cleared), (1, 0));
            }
        }
    }
}
