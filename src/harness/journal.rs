//! The journal of a run in progress: every finished case × strategy, on disk as it finishes.
//!
//! While a run is going, its output directory holds
//!
//! - `manifest.json`: the run's identity (a `run.json` without results: inputs with their
//!   checksums, strategies, options, shard), written atomically before any solving, so that
//!   `--resume` can refuse a directory started from other inputs or options;
//! - the records: `journal-slots.bin` and `journal-texts.bin`, the run's `Store`, one
//!   fixed-width slot per case × strategy in its final place, each with a checksum (so that a
//!   slot torn by a kill or a power loss is found and its job run again). A writer thread
//!   writes each batch of records the workers hand over at once, and syncs both files to
//!   the disk every `FLUSH_EVERY` and at the end of each pass;
//! - `journal-passes.csv`: per session and strategy, the time spent preparing and the pass's
//!   wall time so far (a checkpoint at each sync, and the final figure at the pass's end).
//!
//! The final files are made from the store; then these files are removed.
//!
//! The records are written once, in binary: a text copy cost a fast strategy's pass a fifth
//! of its time (docs/performance-history.md, "Figures moved from the code").

use super::runner::Sink;
use super::store::{self, Batch, Store};
use crate::results::record::Record;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The file of finished records (the store's slots), in the output directory: its presence
/// marks a journal.
pub(crate) const JOURNAL: &str = store::SLOTS;
/// The file of per-session, per-strategy prepare and wall times.
pub(crate) const PASSES: &str = "journal-passes.csv";
/// The run's identity, written before any solving; its presence marks a run in progress.
pub(crate) const MANIFEST: &str = "manifest.json";

/// Records are synced to the disk at least this often (a power loss loses at most this much
/// work; a `kill -9` loses only the records the workers had not handed over yet).
pub(crate) const FLUSH_EVERY: Duration = Duration::from_secs(1);

const PASSES_HEADER: &str = "session,strategy,prepare_ns,wall_ns,finished\n";

/// The identity of the run whose manifest is in `dir`: a hash of the manifest's bytes
/// (written once, when the run starts, with its start time), which every record's checksum
/// holds ([`Store::open`]): records of another run are never taken for this one's.
///
/// # Errors
/// A manifest that cannot be read.
pub(crate) fn identity(dir: &Path) -> io::Result<u64> {
    let mut h = crate::util::Fnv1a64::default();
    h.update(&std::fs::read(dir.join(MANIFEST))?);
    Ok(h.value())
}

/// How many records the journal of the run in `dir` holds whole: what `--resume` would take
/// as done. It reads, and changes nothing: for tools and tests that watch a run.
///
/// # Errors
/// A journal file that cannot be read.
pub fn count_done(dir: &Path) -> io::Result<usize> {
    store::count_whole(dir, identity(dir)?)
}

/// Creates empty journal files in `dir`, replacing any: the store's (see
/// [`store::create_files`]) and the passes' file, with its header.
///
/// # Errors
/// A file that cannot be created, written or synced.
pub(crate) fn create(dir: &Path) -> io::Result<()> {
    store::create_files(dir)?;
    let mut f = File::create(dir.join(PASSES))?;
    f.write_all(PASSES_HEADER.as_bytes())?;
    f.sync_all()
}

/// What the journal holds besides its records (which [`load`] hands over one by one).
pub(crate) struct Loaded {
    /// Per strategy: the time spent preparing it (e.g. building pattern databases), summed
    /// over all sessions.
    pub prepare: BTreeMap<String, Duration>,
    /// Per strategy: its passes' wall time, summed over all sessions.
    pub wall: BTreeMap<String, Duration>,
    /// The last session number (0 when none ran).
    pub last_session: u32,
}

/// Opens a journal file for reading its complete lines: the text up to its last line end. A
/// torn last line is cut off the file first, so that appending starts on a fresh line; a
/// file without even its header gets the header again. Only the file's tail is read to find
/// its last line end, and its header line to check it.
fn complete_lines(path: &Path, header: &str) -> Result<io::BufReader<File>, String> {
    use std::io::{Read, Seek, SeekFrom};
    let cannot = |e: io::Error| format!("cannot read {}: {e}", path.display());
    let mut f = File::open(path).map_err(cannot)?;
    let len = f.metadata().map_err(cannot)?.len();
    // Back from the end, a block at a time, to the last line end.
    let mut good = 0;
    let mut end = len;
    let mut block = vec![0u8; 1 << 16];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let part = &mut block[..(end - start) as usize];
        f.seek(SeekFrom::Start(start)).map_err(cannot)?;
        f.read_exact(part).map_err(cannot)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            good = start + i as u64 + 1;
            break;
        }
        end = start;
    }
    if good < len {
        let w = OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|w| w.set_len(good).map(|_| w))
            .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
        let _ = w.sync_all();
    }
    if good == 0 {
        // Not even the header made it: start the file again.
        std::fs::write(path, header)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut first = vec![0u8; header.len()];
    f.seek(SeekFrom::Start(0)).map_err(cannot)?;
    let got = f.read(&mut first).map_err(cannot)?;
    if good > 0 && (got < first.len() || first != header.as_bytes()) {
        return Err(format!(
            "{}: not a tilebench journal (its header is not `{}`)",
            path.display(),
            header.trim_end()
        ));
    }
    f.seek(SeekFrom::Start(0)).map_err(cannot)?;
    Ok(io::BufReader::with_capacity(1 << 20, f))
}

fn damaged(path: &Path, line: u64, e: &str) -> String {
    format!("{}:{line}: damaged line ({e})", path.display())
}

/// [`load`], and when the passes file is damaged or not a journal's (it holds only the
/// earlier sessions' times, never a result), the file started again: the resume goes on with
/// every result the store holds, and the notice returned says what was lost and why.
///
/// # Errors
/// The passes file cannot be read or written.
pub(crate) fn load_or_restart(dir: &Path) -> Result<(Loaded, Option<String>), String> {
    let why = match load(dir) {
        Ok(loaded) => return Ok((loaded, None)),
        Err(why) => why,
    };
    let ppath = dir.join(PASSES);
    std::fs::write(&ppath, PASSES_HEADER).map_err(|e| {
        format!(
            "{why}; cannot start it again: {}: {}",
            ppath.display(),
            crate::util::io_reason(&e)
        )
    })?;
    let loaded = Loaded {
        prepare: BTreeMap::new(),
        wall: BTreeMap::new(),
        last_session: 0,
    };
    Ok((
        loaded,
        Some(format!(
            "tilebench: {why}: that file holds only the earlier sessions' times, not results, so \
             it was started again; every saved result is kept, but summary.csv's wall_s and \
             cases_per_s will count only the sessions from now on"
        )),
    ))
}

/// Reads the journal's passes file back: the earlier sessions' times. (The records are in
/// the store, which [`Store::open`] reads back.)
///
/// # Errors
/// A passes file that cannot be read or repaired, that is not a tilebench journal's (wrong
/// header), or that has a damaged line other than a torn last one.
pub(crate) fn load(dir: &Path) -> Result<Loaded, String> {
    let ppath = dir.join(PASSES);
    if !ppath.exists() {
        // Only the earlier sessions' times are lost: the results are in the store.
        std::fs::write(&ppath, PASSES_HEADER).map_err(|e| {
            format!(
                "cannot write {}: {}",
                ppath.display(),
                crate::util::io_reason(&e)
            )
        })?;
    }
    let text = complete_lines(&ppath, PASSES_HEADER)?;
    let mut reader = csv::Reader::from_reader(text);
    // (session, strategy) → (prepare, wall): the last checkpoint is the longest.
    let mut passes: BTreeMap<(u32, String), (u64, u64)> = BTreeMap::new();
    let mut last_session = 0;
    for row in reader.records() {
        let row =
            row.map_err(|e| damaged(&ppath, e.position().map_or(0, |p| p.line()), &e.to_string()))?;
        let line = row.position().map_or(0, |p| p.line());
        let n = |i: usize| -> Result<u64, String> {
            row.get(i)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| damaged(&ppath, line, &format!("field {} is not a number", i + 1)))
        };
        let session = n(0)? as u32;
        let (prepare, wall) = (n(2)?, n(3)?);
        let e = passes
            .entry((session, row.get(1).unwrap_or("").to_string()))
            .or_default();
        *e = (e.0.max(prepare), e.1.max(wall));
        last_session = last_session.max(session);
    }
    let mut prepare: BTreeMap<String, Duration> = BTreeMap::new();
    let mut wall: BTreeMap<String, Duration> = BTreeMap::new();
    for ((_, name), (p, w)) in passes {
        *prepare.entry(name.clone()).or_default() += Duration::from_nanos(p);
        *wall.entry(name).or_default() += Duration::from_nanos(w);
    }
    Ok(Loaded {
        prepare,
        wall,
        last_session,
    })
}

/// Removes the journal files (after the final files are written).
pub(crate) fn remove(dir: &Path) {
    // The manifest first: a kill between two removals then leaves a finished run (run.json)
    // with a stray journal file, never a manifest with no journal to resume.
    let _ = std::fs::remove_file(dir.join(MANIFEST));
    crate::util::crash_point("removing", "");
    for f in [PASSES, store::SLOTS, store::TEXTS] {
        let _ = std::fs::remove_file(dir.join(f));
    }
}

enum Msg {
    /// Records encoded for the store.
    Records(Batch),
    Start {
        name: String,
        prepare: Duration,
        start: Instant,
    },
    /// A pass ended; `sync`: its records are synced before its line is written (the end
    /// of a block), else they wait for the next regular sync (a turn within one).
    End { wall: Duration, sync: bool },
}

/// Writes records into the run's [`Store`] (the journal) from a writer thread, syncing it
/// now and then; a [`Sink`] for the runner.
pub(crate) struct Writer {
    tx: Option<SyncSender<Msg>>,
    names: Vec<String>,
    thread: Option<JoinHandle<io::Result<Store>>>,
    layout: store::Layout,
    run: u64,
    dir: std::path::PathBuf,
    /// Set when the writer thread has stopped on an error: the pass stops too.
    broken: std::sync::atomic::AtomicBool,
}

impl Writer {
    /// Opens the journal of `dir` as session `session`, its records going into `store`;
    /// `names` are the jobs' names, in job order. [`Writer::finish`] hands the store back.
    ///
    /// # Errors
    /// A passes file that cannot be opened for appending (see [`create`]), or a writer thread
    /// that cannot be started.
    pub(crate) fn open(
        dir: &Path,
        session: u32,
        names: Vec<String>,
        store: Store,
    ) -> Result<Writer, String> {
        let p = dir.join(PASSES);
        let passes = OpenOptions::new()
            .append(true)
            .open(&p)
            .map_err(|e| format!("cannot append to {}: {e}", p.display()))?;
        let (layout, run) = (*store.layout(), store.run());
        // Bounded: workers wait rather than pile records up in memory if the disk is slow.
        let (tx, rx) = sync_channel(1 << 10);
        let thread = std::thread::Builder::new()
            .name("tilebench-journal".into())
            .spawn(move || write_loop(rx, passes, store, session))
            .map_err(|e| format!("cannot start the journal thread: {e}"))?;
        Ok(Writer {
            tx: Some(tx),
            names,
            thread: Some(thread),
            layout,
            run,
            dir: dir.to_path_buf(),
            broken: std::sync::atomic::AtomicBool::new(false),
        })
    }

    fn send(&self, m: Msg) {
        if let Some(tx) = &self.tx {
            // The thread only ends early on a write error, reported by `finish`; the pass
            // then stops rather than solve what cannot be kept.
            if tx.send(m).is_err() {
                self.broken
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }

    /// Writes and syncs everything sent so far. Returns the store, every record sent in it.
    ///
    /// # Errors
    /// A write or sync that failed at any point since [`Writer::open`], or a writer thread
    /// that panicked.
    pub(crate) fn finish(mut self) -> Result<Store, crate::observe::Wording> {
        self.tx.take();
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(Ok(store))) => Ok(store),
            None => Err("the journal was finished twice".into()),
            Some(Ok(Err(e))) => {
                let said = |how: &str| {
                    format!(
                        "cannot write the run's journal in {}: {}; the results written so far \
                         are kept: once that is mended, finish the run with the same {how}",
                        self.dir.display(),
                        crate::util::io_reason(&e)
                    )
                };
                Err(crate::observe::Wording::new(
                    said("plan and the mode Resume"),
                    said("command and --resume"),
                ))
            }
            Some(Err(_)) => Err("the journal thread panicked".into()),
        }
    }
}

impl Sink for Writer {
    fn pass_start(&self, job: usize, _name: &str, prepare: Duration, start: Instant) {
        self.send(Msg::Start {
            name: self.names[job].clone(),
            prepare,
            start,
        });
    }
    fn record(&self, job: usize, rec: Record) {
        self.records(job, vec![rec]);
    }
    fn records(&self, job: usize, recs: Vec<Record>) {
        // Encoded here, on the worker: the writer thread only writes.
        let mut batch = Batch::for_run(self.run);
        for r in &recs {
            batch.push(&self.layout, job, r);
        }
        self.send(Msg::Records(batch));
    }
    fn pass_end(&self, _job: usize, wall: Duration) {
        self.send(Msg::End { wall, sync: true });
    }
    fn turn_end(&self, _job: usize, wall: Duration) {
        self.send(Msg::End { wall, sync: false });
    }
    fn failed(&self) -> bool {
        self.broken.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.tx.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn write_loop(
    rx: Receiver<Msg>,
    mut passes: File,
    mut store: Store,
    session: u32,
) -> io::Result<Store> {
    let mut current: Option<(String, Duration, Instant)> = None;
    let mut last_sync = Instant::now();
    // A line of the passes file; `fin`: the pass ended with its records synced (and so is
    // the line). Other lines are synced with the next regular sync.
    let pass_line =
        |passes: &mut File, name: &str, prepare: Duration, wall: Duration, fin: bool| {
            let line = format!(
                "{session},{name},{},{},{fin}\n",
                prepare.as_nanos(),
                wall.as_nanos()
            );
            passes.write_all(line.as_bytes())?;
            if fin {
                passes.sync_data()?;
            }
            Ok::<(), io::Error>(())
        };
    loop {
        let wait = FLUSH_EVERY.saturating_sub(last_sync.elapsed());
        match rx.recv_timeout(wait) {
            Ok(Msg::Records(batch)) => store.put(batch)?,
            Ok(Msg::Start {
                name,
                prepare,
                start,
            }) => {
                // Not synced: a sync here cost a disk flush per turn of a shuffled run.
                pass_line(&mut passes, &name, prepare, Duration::ZERO, false)?;
                current = Some((name, prepare, start));
            }
            Ok(Msg::End { wall, sync: true }) => {
                store.sync()?;
                crate::util::crash_point("journal-synced", "");
                if let Some((name, prepare, _)) = current.take() {
                    pass_line(&mut passes, &name, prepare, wall, true)?;
                    crate::util::crash_point("pass-ended", "");
                }
                last_sync = Instant::now();
            }
            Ok(Msg::End { wall, sync: false }) => {
                // A turn's end: its line says how long the job has taken so far (a
                // checkpoint), written at once and synced with the next regular sync.
                if let Some((name, prepare, _)) = current.take() {
                    pass_line(&mut passes, &name, prepare, wall, false)?;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                store.sync()?;
                return Ok(store);
            }
        }
        if last_sync.elapsed() >= FLUSH_EVERY {
            store.sync()?;
            crate::util::crash_point("journal-synced", "");
            // The checkpoint comes after the records it covers are on disk.
            if let Some((name, prepare, start)) = &current {
                pass_line(&mut passes, name, *prepare, start.elapsed(), false)?;
            }
            // With the lines of the turns and passes since the last sync.
            passes.sync_data()?;
            last_sync = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::record::RowStatus;
    use std::os::unix::fs::FileExt;

    fn record(case: usize, name: &str) -> Record {
        let mut r = Record::empty(case, name);
        r.status = RowStatus::Solved;
        r.steps = Some(case as i64);
        r.latency_ns = Some(1000 + case as u64);
        r.path = Some("udlr".repeat(case));
        r.message = format!("note {case}");
        r
    }

    /// What the writer journaled is what a resumed run opens: every record whole is done
    /// and reads back the same; a slot torn (one byte off), one whose texts never reached
    /// the file, and one of garbage are cleared and left to do; a torn passes line is cut.
    #[test]
    fn a_resumed_journal_holds_exactly_the_records_written_whole() {
        let dir = std::env::temp_dir().join(format!("tilebench-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        create(&dir).unwrap();
        let layout = store::Layout {
            shard: crate::dataset::shard::Shard::ALL,
            cases: 8,
            solvers: 1,
        };
        const RUN: u64 = 0xA11CE;
        let opened = Store::open(&dir, layout, RUN).unwrap();
        assert_eq!((opened.already, opened.done.len()), (0, 0));
        let w = Writer::open(&dir, 1, vec!["astar".into()], opened.store).unwrap();
        w.pass_start(0, "astar", Duration::ZERO, Instant::now());
        w.records(0, (0..6).map(|i| record(i, "astar")).collect());
        w.pass_end(0, Duration::from_millis(5));
        let st = w.finish().unwrap();
        drop(st);
        let slots = OpenOptions::new()
            .write(true)
            .open(dir.join(store::SLOTS))
            .unwrap();
        let at = |case: usize, byte: usize| (case * store::SLOT + byte) as u64;
        // Case 1: torn (its last counter half written). Case 3: a message longer than the
        // texts file holds. Case 7 (never solved): garbage.
        slots.write_all_at(&[0x55], at(1, store::SLOT - 1)).unwrap();
        slots.write_all_at(&[0xFF, 0xFF], at(3, 4)).unwrap();
        slots.write_all_at(&[1, 2, 3], at(7, 0)).unwrap();
        OpenOptions::new()
            .append(true)
            .open(dir.join(PASSES))
            .unwrap()
            .write_all(b"2,astar,12")
            .unwrap();
        // Bytes past the last slot (a longer file is not this run's).
        OpenOptions::new()
            .append(true)
            .open(dir.join(store::SLOTS))
            .unwrap()
            .write_all(&[7u8; store::SLOT + 5])
            .unwrap();
        let opened = Store::open(&dir, layout, RUN).unwrap();
        let want = [true, false, true, false, true, true, false, false];
        assert_eq!(opened.done, want);
        assert_eq!((opened.already, opened.cleared), (4, 3 + 2));
        let back = opened.store.read(0, 8, &["astar".to_string()]).unwrap();
        for (i, r) in back.into_iter().enumerate() {
            assert_eq!(r, want[i].then(|| record(i, "astar")), "case {i}");
        }
        drop(opened);
        let len = std::fs::metadata(dir.join(store::SLOTS)).unwrap().len();
        assert_eq!(len, (8 * store::SLOT) as u64);
        // The same files read as another run's: nothing of it is this run's.
        let other = Store::open(&dir, layout, RUN + 1).unwrap();
        assert_eq!((other.already, other.cleared), (0, 4));
        let l = load(&dir).unwrap();
        assert_eq!(l.wall["astar"], Duration::from_millis(5));
        assert_eq!(l.last_session, 1);
        let text = std::fs::read_to_string(dir.join(PASSES)).unwrap();
        assert!(text.ends_with('\n'));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
