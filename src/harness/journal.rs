//! The journal of a run in progress: every finished case × strategy, on disk as it finishes.
//!
//! While a run is going, its output directory holds
//!
//! - `manifest.json`: the run's identity (a `run.json` without results: inputs with their
//!   checksums, strategies, options, shard), written atomically before any solving, so that
//!   `--resume` can refuse a directory started from other inputs or options;
//! - `journal.csv`: one line per finished job (`case` = the case's 0-based index in the run's
//!   inputs, strategy, status, steps, counters, latencies, path, message): enough to rebuild
//!   its [`Record`]. Lines are appended by a writer thread, written to the file every
//!   [`FLUSH_RECORDS`] records and at least every [`FLUSH_EVERY`], and synced to the disk
//!   every [`FLUSH_EVERY`] and at the end of each pass; a torn last line (a kill or a power
//!   loss mid-write) is dropped when the journal is read back;
//! - `journal-passes.csv`: per session and strategy, the time spent preparing and the pass's
//!   wall time so far (a checkpoint at each sync, and the final figure at the pass's end).
//!
//! The final files are made from the journal; then the three files are removed.

use super::record::{Column, Record};
use super::runner::Sink;
use super::store::{self, Batch, Store};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The file of finished records, one line per case × strategy, in the output directory.
pub const JOURNAL: &str = "journal.csv";
/// The file of per-session, per-strategy prepare and wall times.
pub const PASSES: &str = "journal-passes.csv";
/// The run's identity, written before any solving; its presence marks a run in progress.
pub const MANIFEST: &str = "manifest.json";

/// Records are handed to the OS after this many (a `kill -9` loses at most these)…
pub const FLUSH_RECORDS: usize = 4096;
/// …and at least this often, when they are also synced to the disk (a power loss loses at
/// most this much work).
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// The journal's header: `case`, then the columns a record fills, as cases.csv names them.
fn header() -> &'static str {
    static H: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    H.get_or_init(|| {
        let names: Vec<&str> = std::iter::once("case")
            .chain(Column::of_records().map(Column::name))
            .collect();
        names.join(",") + "\n"
    })
}
const PASSES_HEADER: &str = "session,strategy,prepare_ns,wall_ns,finished\n";

/// Appends one record as a journal line: its case index, then its value in every column a
/// record fills. Line ends inside the message are escaped (`\n`), so every record is exactly
/// one line and a torn line is easy to find; an empty path (start = goal) is written as `-`,
/// so it is not read back as no path.
pub fn encode(rec: &Record, out: &mut Vec<u8>) {
    let mut row = crate::util::CsvRow::new(out);
    row.number(rec.case as u64);
    row.field(&rec.strategy);
    row.plain(rec.status.as_str());
    rec.write_steps(&mut row);
    rec.write_tail(&mut row, true);
    row.end();
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads one journal line back.
///
/// # Errors
/// A line with the wrong number of fields, or a field that is not a value of its column.
pub fn decode(r: &csv::StringRecord) -> Result<Record, String> {
    let want = 1 + Column::of_records().count();
    if r.len() != want {
        return Err(format!("{} fields, expected {want}", r.len()));
    }
    let case = match r[0].parse() {
        Ok(i) => i,
        Err(_) if r[0].is_empty() => return Err("no case index".into()),
        Err(_) => return Err(format!("`{}` is not a case index", &r[0])),
    };
    let mut rec = Record::empty(case, "");
    for (i, column) in Column::of_records().enumerate() {
        let text = &r[i + 1];
        match column {
            Column::Path if text == "-" => rec.path = Some(String::new()),
            Column::Message => rec.message = unescape(text),
            _ => rec.set(column, text)?,
        }
    }
    Ok(rec)
}

/// Creates empty journal files (with their headers) in `dir`, replacing any.
///
/// # Errors
/// A file that cannot be created, written or synced.
pub fn create(dir: &Path) -> io::Result<()> {
    for (name, header) in [(JOURNAL, header()), (PASSES, PASSES_HEADER)] {
        let mut f = File::create(dir.join(name))?;
        f.write_all(header.as_bytes())?;
        f.sync_all()?;
    }
    Ok(())
}

/// What the journal holds besides its records (which [`load`] hands over one by one).
pub struct Loaded {
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
    format!(
        "{}:{line}: damaged journal line ({e}); the run cannot be resumed safely: \
         start it again with --force",
        path.display()
    )
}

/// Reads the journal of `dir` back, once, in order: each record (in completion order) goes
/// to `each`, which may refuse it with a message (a record the run does not have).
///
/// # Errors
/// A journal file that cannot be read or repaired, that is not a tilebench journal (wrong
/// header), or that has a damaged line other than a torn last one; or `each`'s message.
pub fn load(
    dir: &Path,
    mut each: impl FnMut(Record) -> Result<(), String>,
) -> Result<Loaded, String> {
    let path = dir.join(JOURNAL);
    let text = complete_lines(&path, header())?;
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text);
    let mut row = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut row) {
            Ok(true) => {
                let line = row.position().map_or(0, |p| p.line());
                each(decode(&row).map_err(|e| damaged(&path, line, &e))?)?;
            }
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                return Err(damaged(&path, line, &e.to_string()));
            }
        }
    }

    let ppath = dir.join(PASSES);
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
pub fn remove(dir: &Path) {
    // The manifest first: a kill between two removals then leaves a finished run (run.json)
    // with a stray journal file, never a manifest with no journal to resume.
    let _ = std::fs::remove_file(dir.join(MANIFEST));
    crate::util::crash_point("removing", "");
    for f in [JOURNAL, PASSES, store::SLOTS, store::TEXTS] {
        let _ = std::fs::remove_file(dir.join(f));
    }
}

enum Msg {
    /// Encoded lines, how many, and the same records for the store.
    Lines(Vec<u8>, usize, Option<Batch>),
    Start {
        name: String,
        prepare: Duration,
        start: Instant,
    },
    End {
        wall: Duration,
    },
}

/// Appends records to the journal from a writer thread, and puts them in the run's
/// [`Store`]; a [`Sink`] for the runner.
pub struct Writer {
    tx: Option<SyncSender<Msg>>,
    names: Vec<String>,
    thread: Option<JoinHandle<io::Result<Option<Store>>>>,
    /// The store's layout, when there is a store.
    layout: Option<store::Layout>,
}

impl Writer {
    /// Opens the journal of `dir` for appending as session `session`; `names` are the jobs'
    /// names, in job order. With a `store`, every record also goes into it (in its slot),
    /// and [`Writer::finish`] hands it back.
    ///
    /// # Errors
    /// A journal file that cannot be opened for appending (see [`create`]), or a writer
    /// thread that cannot be started.
    pub fn open(
        dir: &Path,
        session: u32,
        names: Vec<String>,
        store: Option<Store>,
    ) -> Result<Writer, String> {
        let open = |name: &str| {
            let p = dir.join(name);
            OpenOptions::new()
                .append(true)
                .open(&p)
                .map_err(|e| format!("cannot append to {}: {e}", p.display()))
        };
        let (records, passes) = (open(JOURNAL)?, open(PASSES)?);
        let layout = store.as_ref().map(|s| *s.layout());
        // Bounded: workers wait rather than pile records up in memory if the disk is slow.
        let (tx, rx) = sync_channel(1 << 10);
        let files = Files {
            records,
            passes,
            store,
        };
        let thread = std::thread::Builder::new()
            .name("tilebench-journal".into())
            .spawn(move || write_loop(rx, files, session))
            .map_err(|e| format!("cannot start the journal thread: {e}"))?;
        Ok(Writer {
            tx: Some(tx),
            names,
            thread: Some(thread),
            layout,
        })
    }

    fn send(&self, m: Msg) {
        if let Some(tx) = &self.tx {
            // The thread only ends early on a write error, reported by `finish`.
            let _ = tx.send(m);
        }
    }

    /// Writes and syncs everything sent so far and closes the journal files. Returns the
    /// store, if it was opened with one, with every record sent in it.
    ///
    /// # Errors
    /// A write or sync that failed at any point since [`Writer::open`], or a writer thread
    /// that panicked.
    pub fn finish(mut self) -> Result<Option<Store>, String> {
        self.tx.take();
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(Ok(store))) => Ok(store),
            None => Ok(None),
            Some(Ok(Err(e))) => Err(format!("cannot write the journal: {e}")),
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
        let mut lines = Vec::with_capacity(recs.len() * 96);
        let mut batch = self.layout.map(|_| Batch::default());
        for r in &recs {
            encode(r, &mut lines);
            if let (Some(b), Some(layout)) = (&mut batch, &self.layout) {
                b.push(layout, job, r);
            }
        }
        self.send(Msg::Lines(lines, recs.len(), batch));
    }
    fn pass_end(&self, _job: usize, wall: Duration) {
        self.send(Msg::End { wall });
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

/// The writer thread's files.
struct Files {
    records: File,
    passes: File,
    store: Option<Store>,
}

fn write_loop(rx: Receiver<Msg>, files: Files, session: u32) -> io::Result<Option<Store>> {
    let Files {
        mut records,
        mut passes,
        mut store,
    } = files;
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 20);
    let mut pending = 0usize;
    let mut current: Option<(String, Duration, Instant)> = None;
    let mut last_sync = Instant::now();
    let pass_line =
        |passes: &mut File, name: &str, prepare: Duration, wall: Duration, fin: bool| {
            let line = format!(
                "{session},{name},{},{},{fin}\n",
                prepare.as_nanos(),
                wall.as_nanos()
            );
            passes.write_all(line.as_bytes())?;
            passes.sync_data()
        };
    loop {
        let wait = FLUSH_EVERY.saturating_sub(last_sync.elapsed());
        let msg = rx.recv_timeout(wait);
        match msg {
            Ok(Msg::Lines(l, n, batch)) => {
                if let (Some(st), Some(b)) = (&mut store, batch) {
                    st.put(b)?;
                }
                buf.extend_from_slice(&l);
                pending += n;
                if pending >= FLUSH_RECORDS {
                    records.write_all(&buf)?;
                    buf.clear();
                    pending = 0;
                }
            }
            Ok(Msg::Start {
                name,
                prepare,
                start,
            }) => {
                pass_line(&mut passes, &name, prepare, Duration::ZERO, false)?;
                current = Some((name, prepare, start));
            }
            Ok(Msg::End { wall }) => {
                records.write_all(&buf)?;
                buf.clear();
                pending = 0;
                records.sync_data()?;
                crate::util::crash_point("journal-synced", "");
                if let Some((name, prepare, _)) = current.take() {
                    pass_line(&mut passes, &name, prepare, wall, true)?;
                    crate::util::crash_point("pass-ended", "");
                }
                last_sync = Instant::now();
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                records.write_all(&buf)?;
                records.sync_data()?;
                return Ok(store);
            }
        }
        if last_sync.elapsed() >= FLUSH_EVERY {
            records.write_all(&buf)?;
            buf.clear();
            pending = 0;
            records.sync_data()?;
            crate::util::crash_point("journal-synced", "");
            // The checkpoint comes after the records it covers are on disk.
            if let Some((name, prepare, start)) = &current {
                pass_line(&mut passes, name, *prepare, start.elapsed(), false)?;
            }
            last_sync = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::record::RowStatus;

    #[test]
    fn records_survive_the_round_trip() {
        let mut r = Record::empty(7, "my,solver");
        r.status = RowStatus::Wrong;
        r.steps = Some(-1);
        r.matches_expected = Some(false);
        r.counters.expanded = Some(12);
        r.latency_ns = Some(99);
        r.latency_min_ns = Some(98);
        r.path = Some(String::new());
        r.message = " a \"quoted\", multi\nline \\ message\r ".into();
        let mut b = Record::empty(8, "astar");
        b.path = Some("udlr".into());
        let mut bytes = header().as_bytes().to_vec();
        encode(&r, &mut bytes);
        encode(&b, &mut bytes);
        assert_eq!(bytes.iter().filter(|&&c| c == b'\n').count(), 3);
        let mut rd = csv::Reader::from_reader(bytes.as_slice());
        let back: Vec<Record> = rd.records().map(|x| decode(&x.unwrap()).unwrap()).collect();
        assert_eq!(format!("{:?}", back), format!("{:?}", vec![r, b]));
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut_off() {
        let dir = std::env::temp_dir().join(format!("tilebench-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        create(&dir).unwrap();
        let layout = store::Layout {
            shard: crate::harness::shard::Shard::ALL,
            cases: 3,
            solvers: 1,
        };
        let st = Store::create(&dir, layout).unwrap();
        let w = Writer::open(&dir, 1, vec!["astar".into()], Some(st)).unwrap();
        let t0 = Instant::now();
        w.pass_start(0, "astar", Duration::ZERO, t0);
        for i in 0..3 {
            w.record(0, Record::empty(i, "astar"));
        }
        w.pass_end(0, Duration::from_millis(5));
        let st = w.finish().unwrap().unwrap();
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join(JOURNAL))
            .unwrap();
        f.write_all(b"3,astar,sol").unwrap();
        let mut records = Vec::new();
        let l = load(&dir, |r| {
            records.push(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(records.len(), 3);
        // What the writer put in the store is what the journal holds.
        let names = ["astar".to_string()];
        let stored: Vec<Record> = st
            .read(0, 3, &names)
            .unwrap()
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(stored, records);
        assert_eq!(l.wall["astar"], Duration::from_millis(5));
        assert_eq!(l.last_session, 1);
        let text = std::fs::read_to_string(dir.join(JOURNAL)).unwrap();
        assert!(text.ends_with('\n'));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
