//! Cache files: one table a file, a text header, the packed entries, a checksum.
//!
//! ```text
//! TBPDB03\n
//! 4x4 0 [8, 9, 10, 11, 12, 13, 14, 15] 518918400\n     shape, goal blank, tiles, entries
//! <entries / 2 bytes, rounded up>
//! <16 hex digits: checksum of those bytes>
//! ```
//!
//! Files are mapped into memory, not read: see [`open`] for what is checked when. Beside
//! each file, `.NAME.pdb.ok` records the last full check (the file's identity, its checksum,
//! a hash per MiB of entries), and `.NAME.pdb.lock` is the lock its builders take.

use super::table::PatternTable;
use crate::puzzle::Shape;
use std::io::Write as _;
use std::path::{Path, PathBuf};

const MAGIC: &str = "TBPDB03";

/// Where tables are cached: `--pdb-dir`, else `$TILEBENCH_PDB_DIR`, else
/// `$XDG_CACHE_HOME/tilebench/pdb`, else `~/.cache/tilebench/pdb`. A variable set but empty
/// counts as unset (`TILEBENCH_PDB_DIR= tilebench run …` would otherwise cache the tables in
/// the current directory), and so does a relative `$XDG_CACHE_HOME`, as the XDG
/// specification says.
pub(crate) fn default_dir() -> PathBuf {
    dir_from(|name| std::env::var_os(name))
}

/// [`default_dir`] with the environment read through `var`.
fn dir_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = set("TILEBENCH_PDB_DIR") {
        return d;
    }
    if let Some(d) = set("XDG_CACHE_HOME").filter(|d| d.is_absolute()) {
        return d.join("tilebench/pdb");
    }
    if let Some(h) = set("HOME") {
        return h.join(".cache/tilebench/pdb");
    }
    PathBuf::from("results/pdb")
}

/// The cache file's name for the table of `tiles` on a goal with its blank at `blank`:
/// `4x4-blank15-tiles1_2_3_4_5_6_7.pdb`.
pub(crate) fn file_name(shape: Shape, blank: usize, tiles: &[u8]) -> String {
    let names: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    format!("{shape}-blank{blank}-tiles{}.pdb", names.join("_"))
}

fn header(shape: Shape, blank: usize, tiles: &[u8], entries: u64) -> String {
    format!("{MAGIC}\n{shape} {blank} {tiles:?} {entries}\n")
}

/// A 64-bit checksum of a table, four FNV-1a lanes over 8-byte words (a byte-at-a-time
/// FNV-1a took 0.4 s over the 8-tile table; this takes a tenth of that).
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut lanes = [0xcbf2_9ce4_8422_2325u64; 4];
    let mut chunks = bytes.chunks_exact(32);
    for c in &mut chunks {
        for (i, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(c[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
            *lane = (*lane ^ w).wrapping_mul(PRIME);
        }
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for lane in lanes {
        for b in lane.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(PRIME);
        }
    }
    for &b in chunks.remainder() {
        h = (h ^ b as u64).wrapping_mul(PRIME);
    }
    h ^ bytes.len() as u64
}

/// Bytes of the entries per block of a [`Stamp`]: each start hashes a few blocks.
const BLOCK: usize = 1 << 20;
/// Blocks hashed at each start when the stamp matches the file.
const SAMPLED_BLOCKS: usize = 4;

/// How an opened cache file was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Checked {
    /// Header, size and a few sampled blocks: the file is the one a full check passed.
    Sampled,
    /// Every byte against the checksum (first use, a changed file, or `pdb verify`).
    Full,
}

/// The file's identity as the kernel reports it: size, device, inode, modification and
/// status-change times. Any write, truncation, copy or rename over the file changes one of
/// them (the status-change time cannot be set back by a user), so a file with the identity a
/// full check recorded holds the bytes that check read, barring bit rot on the disk.
fn identity(meta: &std::fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    format!(
        "{} {} {} {}.{:09} {}.{:09}",
        meta.len(),
        meta.dev(),
        meta.ino(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec()
    )
}

/// What a full check of a cache file found, kept beside it in `.NAME.pdb.ok`: the file's
/// identity, its checksum, and a hash of each block of its entries.
struct Stamp {
    identity: String,
    checksum: u64,
    blocks: Vec<u64>,
}

const STAMP_MAGIC: &str = "TBPDB03-OK";

/// The stamp file of the cache file `path`.
fn stamp_path(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{name}.ok"))
}

impl Stamp {
    fn of(entries: &[u8], identity: String) -> Stamp {
        use rayon::prelude::*;
        Stamp {
            identity,
            checksum: checksum(entries),
            blocks: entries.par_chunks(BLOCK).map(checksum).collect(),
        }
    }

    fn read(path: &Path) -> Option<Stamp> {
        let text = std::fs::read_to_string(stamp_path(path)).ok()?;
        let mut lines = text.lines();
        if lines.next()? != STAMP_MAGIC {
            return None;
        }
        let identity = lines.next()?.to_string();
        let checksum = u64::from_str_radix(lines.next()?, 16).ok()?;
        let blocks = lines
            .map(|l| u64::from_str_radix(l, 16).ok())
            .collect::<Option<Vec<u64>>>()?;
        Some(Stamp {
            identity,
            checksum,
            blocks,
        })
    }

    /// Writes the stamp; a stamp that cannot be written only means a full check next time.
    fn write(&self, path: &Path) {
        if self.identity.is_empty() {
            return;
        }
        let _ = crate::util::atomic_write(&stamp_path(path), |f| {
            writeln!(
                f,
                "{STAMP_MAGIC}\n{}\n{:016x}",
                self.identity, self.checksum
            )?;
            for b in &self.blocks {
                writeln!(f, "{b:016x}")?;
            }
            Ok(())
        });
    }

    /// Whether `SAMPLED_BLOCKS` blocks of `entries`, chosen at random, hash as recorded.
    fn sample_matches(&self, entries: &[u8]) -> bool {
        let n = entries.len().div_ceil(BLOCK);
        if self.blocks.len() != n {
            return false;
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id());
        let mut rng = crate::util::Rng::new(seed);
        (0..SAMPLED_BLOCKS.min(n)).all(|_| {
            let b = rng.below(n as u64) as usize;
            let block = &entries[b * BLOCK..((b + 1) * BLOCK).min(entries.len())];
            checksum(block) == self.blocks[b]
        })
    }
}

/// Where a table's header ends in `head` (its first bytes), or why the file is not one.
fn header_len(head: &[u8], want: &str, bytes: u64) -> Result<usize, OpenErrorKind> {
    let truncated = || OpenErrorKind::TruncatedHeader { bytes };
    let magic = MAGIC.as_bytes();
    if !head.starts_with(magic) {
        return Err(if magic.starts_with(head) {
            truncated()
        } else {
            OpenErrorKind::OtherVersion
        });
    }
    let second = head
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(1)
        .map(|(i, _)| i + 1);
    let Some(end) = second else {
        return Err(
            if head.len() as u64 == bytes && head.len() < want.len() + 64 {
                truncated()
            } else {
                OpenErrorKind::NoSecondLine
            },
        );
    };
    let got = String::from_utf8_lossy(&head[..end]);
    if got != want {
        return Err(OpenErrorKind::OtherTable {
            found: got.trim().replace('\n', " "),
            want: want.trim().replace('\n', " "),
        });
    }
    Ok(end)
}

/// Maps a cached table into memory, or says why it cannot be used (the caller rebuilds it).
///
/// Every start checks the header (version, shape, goal blank, tiles, entries) and the file's
/// size, which catch a truncated file or another table. The entries are checked in full
/// against the checksum the first time a file is used, or whenever its identity (size,
/// inode, modification and status-change times) differs from the one the last full check
/// recorded in its stamp `.NAME.pdb.ok`; otherwise a few blocks, chosen at random, are
/// hashed and compared with the stamp (a sampled block that differs forces the full check).
/// `full` forces the full check (`tilebench pdb verify`). Returns the table and which check
/// it passed.
///
/// # Errors
/// An [`OpenError`] naming `path`: a file that cannot be opened or mapped, an empty or
/// truncated file (an interrupted write), a header of another version or another table, a
/// file longer than its header says, or a checksum that does not match.
pub(crate) fn open(
    path: &Path,
    shape: Shape,
    blank: usize,
    home: &[u8],
    tiles: &[u8],
    full: bool,
) -> Result<(PatternTable, Checked), OpenError> {
    open_checked(path, shape, blank, (home, tiles), full).map_err(|kind| OpenError {
        path: path.to_path_buf(),
        kind,
    })
}

/// [`open`], its errors without the path.
fn open_checked(
    path: &Path,
    shape: Shape,
    blank: usize,
    (home, tiles): (&[u8], &[u8]),
    full: bool,
) -> Result<(PatternTable, Checked), OpenErrorKind> {
    let reason = OpenErrorKind::Unreadable;
    // Looked at before it is opened: opening a FIFO waits for a writer, forever.
    not_a_table_file(&std::fs::metadata(path).map_err(reason)?)?;
    let file = open_without_waiting(path).map_err(reason)?;
    let meta = file.metadata().map_err(reason)?;
    // Again on what was opened: the path may have changed in between.
    not_a_table_file(&meta)?;
    let bytes = meta.len();
    if bytes == 0 {
        return Err(OpenErrorKind::Empty);
    }
    // SAFETY: cache files are replaced whole by a rename (`atomic_write`), never written in
    // place, so the mapped file keeps its bytes while this process runs; a user who
    // truncates a file in place while a run maps it stops that run (SIGBUS), as documented.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(OpenErrorKind::Map)?;
    // Huge pages for the lookups' random reads, before the first byte is touched: where the
    // kernel keeps files in large folios (Linux 6.x on ext4, XFS, tmpfs…), a mapping advised
    // so reads the file in 2 MiB folios and maps them whole, so a lookup misses no TLB entry
    // and takes no page fault (Korf's 100: see docs/performance-history.md). A kernel without that
    // refuses the advice or ignores it; the mapping works the same.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    let len = PatternTable::packed_len(shape, tiles.len()) as usize;
    let want = header(
        shape,
        blank,
        tiles,
        super::index::placements(shape.cells(), tiles.len()),
    );
    let head = header_len(&map[..map.len().min(want.len() + 64)], &want, bytes)?;
    let total = head + len + 16;
    let header_says = total as u64;
    if map.len() < total {
        return Err(OpenErrorKind::Truncated { bytes, header_says });
    }
    if map.len() > total {
        return Err(OpenErrorKind::TooLong { bytes, header_says });
    }
    let trailer = std::str::from_utf8(&map[head + len..])
        .ok()
        .and_then(|t| u64::from_str_radix(t, 16).ok())
        .ok_or(OpenErrorKind::BadChecksumText)?;
    let entries = &map[head..head + len];
    let id = identity(&meta);
    let stamp = Stamp::read(path)
        .filter(|s| !full && !id.is_empty() && s.identity == id && s.checksum == trailer);
    let checked = match stamp {
        Some(s) if s.sample_matches(entries) => Checked::Sampled,
        _ => {
            let stamp = Stamp::of(entries, id);
            if stamp.checksum != trailer {
                return Err(OpenErrorKind::Checksum);
            }
            stamp.write(path);
            Checked::Full
        }
    };
    let entries = super::table::Entries::Mapped {
        map,
        offset: head,
        len,
    };
    Ok((PatternTable::new(shape, home, tiles, entries), checked))
}

/// A cache file the table store cannot use: "cannot use PATH: REASON". The caller rebuilds the table
/// (a run) or reports it (`tilebench pdb verify`).
#[derive(Debug, thiserror::Error)]
#[error("cannot use {}: {kind}", .path.display())]
#[non_exhaustive]
pub struct OpenError {
    path: PathBuf,
    #[source]
    kind: OpenErrorKind,
}

impl OpenError {
    /// The error for a table file that is not there (`pdb verify`).
    pub(crate) fn missing(path: &Path) -> OpenError {
        OpenError {
            path: path.to_path_buf(),
            kind: OpenErrorKind::Missing,
        }
    }

    /// The table's cache file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why it cannot be used; its message is the reason alone, for a caller that names the
    /// file its own way.
    pub fn kind(&self) -> &OpenErrorKind {
        &self.kind
    }
}

/// Why a cache file cannot be used ([`OpenError::kind`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenErrorKind {
    /// There is no file.
    #[error("it is missing")]
    Missing,
    /// The system refused to look at it or open it.
    #[error("{}", crate::util::io_reason(.0))]
    Unreadable(std::io::Error),
    /// A directory stands at its path.
    #[error("it {IN_THE_WAY}")]
    Directory,
    /// Something other than a regular file or a directory stands at its path.
    #[error(
        "it is {what}, not a table file (tilebench reads a table only from a regular file it \
         wrote); remove it (`rm`) so the table can be built and cached there"
    )]
    NotAFile {
        /// What it is: `a named pipe (FIFO)`, `a socket`, `a device`.
        what: &'static str,
    },
    /// The file has no bytes.
    #[error("the file is empty (0 bytes), probably left by an interrupted write")]
    Empty,
    /// The file cannot be mapped into memory.
    #[error("cannot map it into memory: {}", crate::util::io_reason(.0))]
    Map(std::io::Error),
    /// The file ends within its header.
    #[error(
        "the file is truncated ({bytes} bytes, within its header), probably by an \
         interrupted write"
    )]
    TruncatedHeader {
        /// The file's size.
        bytes: u64,
    },
    /// The first line is not this version's.
    #[error("not a table of this tilebench version (its first line is not `{MAGIC}`)")]
    OtherVersion,
    /// The header has no second line.
    #[error("its header is damaged (no second line)")]
    NoSecondLine,
    /// The header is another table's (shape, goal blank, tiles or entries differ).
    #[error(
        "its header is not this table's (`{found}`, where this one is `{want}`): the file of \
         another table, or damaged"
    )]
    OtherTable {
        /// The header read, on one line.
        found: String,
        /// This table's header, on one line.
        want: String,
    },
    /// The file is shorter than its header says.
    #[error(
        "the file is truncated ({bytes} bytes, shorter than the {header_says} its header \
         says), probably by an interrupted write"
    )]
    Truncated {
        /// The file's size.
        bytes: u64,
        /// The size its header gives.
        header_says: u64,
    },
    /// The file is longer than its header says.
    #[error(
        "the file is {} longer than its header says ({bytes} bytes, not {header_says}): it is \
         damaged",
        bytes_text(.bytes - .header_says)
    )]
    TooLong {
        /// The file's size.
        bytes: u64,
        /// The size its header gives.
        header_says: u64,
    },
    /// The checksum at the end is not 16 hex digits.
    #[error("the checksum at its end is not 16 hex digits (the file is damaged)")]
    BadChecksumText,
    /// The entries do not hash to the checksum.
    #[error("its checksum does not match its entries (the file is damaged)")]
    Checksum,
}

impl OpenErrorKind {
    /// What the system said, where it refused ([`OpenErrorKind::Unreadable`],
    /// [`OpenErrorKind::Map`]).
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            OpenErrorKind::Unreadable(e) | OpenErrorKind::Map(e) => Some(e),
            _ => None,
        }
    }
}

/// `1 byte`, `2 bytes`.
fn bytes_text(n: u64) -> String {
    match n {
        1 => "1 byte".to_string(),
        n => format!("{n} bytes"),
    }
}

/// A table the store could not cache; its message names the file or directory and says what
/// to do, in the library's words (the tables' directory);
/// [`message_with_flags`](SaveError::message_with_flags) names `--pdb-dir` instead.
#[derive(Debug, thiserror::Error)]
#[error("{}", save_message(.path, .kind, false))]
#[non_exhaustive]
pub struct SaveError {
    path: PathBuf,
    kind: SaveErrorKind,
}

impl SaveError {
    /// The message as a command line says it: the tables' directory is `--pdb-dir`.
    pub fn message_with_flags(&self) -> String {
        save_message(&self.path, &self.kind, true)
    }

    /// The table's cache file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why it could not be written.
    pub fn kind(&self) -> &SaveErrorKind {
        &self.kind
    }
}

/// Why a table could not be cached.
#[derive(Debug)]
#[non_exhaustive]
pub enum SaveErrorKind {
    /// The cache directory cannot be created.
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// A file standing where it or one of its parents should be, if that is why.
        file: Option<PathBuf>,
        /// What the system said.
        source: std::io::Error,
    },
    /// A directory stands at the table's path.
    Directory,
    /// The file cannot be written (a full disk, a file size limit).
    Write(crate::util::WriteError),
}

/// The message of a [`SaveError`], with the command line's flag (`flags`) or in the
/// library's words.
fn save_message(path: &Path, kind: &SaveErrorKind, flags: bool) -> String {
    match kind {
        SaveErrorKind::CreateDir { dir, file, source } => match file {
            Some(f) if f == dir => format!(
                "{} is a file, not a directory; {}",
                dir.display(),
                if flags {
                    "give a directory as --pdb-dir"
                } else {
                    "give a directory for the tables"
                }
            ),
            Some(f) => format!(
                "cannot create the directory {}: {} is a file, not a directory; {}",
                dir.display(),
                f.display(),
                if flags {
                    "give another --pdb-dir"
                } else {
                    "give the tables another directory"
                }
            ),
            None => format!(
                "cannot create the directory {}: {}",
                dir.display(),
                crate::util::io_reason(source)
            ),
        },
        SaveErrorKind::Directory => format!("{} {IN_THE_WAY}", path.display()),
        SaveErrorKind::Write(e) => e.to_string(),
    }
}

/// The lock the builders of one table take, held while this value lives: an exclusive
/// `flock(2)` on `.NAME.pdb.lock` beside the table, which holds the builder's process id. The
/// kernel releases it when the builder exits or is killed (`kill -9` too), so a lock is
/// never stale; the file itself stays (removing it could let two builders in at once).
pub(crate) struct BuildLock {
    _file: Option<std::fs::File>,
}

/// Takes the build lock of the table file `path`, waiting while another process holds it;
/// `waiting(pid)` is called first if it does (with the holder's id, when its file gives
/// one). Without a lock (a directory that cannot be written, a system without `flock`),
/// returns at once: the build goes on unlocked, as it would alone.
pub(crate) fn lock(path: &Path, waiting: impl FnOnce(Option<u32>)) -> BuildLock {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let lock_path = path.with_file_name(format!(".{name}.lock"));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(dir);
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .ok();
    let file = file.filter(|f| flock(f, &lock_path, waiting));
    if let Some(mut f) = file.as_ref() {
        use std::io::Seek as _;
        let _ = f.set_len(0);
        let _ = f.seek(std::io::SeekFrom::Start(0));
        let _ = write!(f, "{}", std::process::id());
        let _ = f.flush();
    }
    BuildLock { _file: file }
}

/// Locks `f` exclusively, waiting if need be: whether it is locked.
fn flock(f: &std::fs::File, path: &Path, waiting: impl FnOnce(Option<u32>)) -> bool {
    use rustix::fs::FlockOperation;
    use rustix::io::Errno;
    match rustix::fs::flock(f, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => return true,
        Err(Errno::WOULDBLOCK) => {}
        Err(_) => return false,
    }
    let holder = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.trim().parse().ok());
    waiting(holder);
    loop {
        // Blocks until the holder unlocks or exits.
        match rustix::fs::flock(f, FlockOperation::LockExclusive) {
            Ok(()) => return true,
            Err(Errno::INTR) => {}
            Err(_) => return false,
        }
    }
}

/// Writes a table atomically with [`crate::util::atomic_write`] (a temporary file beside it,
/// renamed into place, and removed on any error), creating the directory.
///
/// # Errors
/// A [`SaveError`] naming `path`: the directory cannot be created (a file in the way, no
/// permission), a directory stands at `path`, or the table cannot be written (a full disk, a
/// file size limit); its message says which and what to do.
pub(crate) fn write(
    path: &Path,
    shape: Shape,
    blank: usize,
    t: &PatternTable,
) -> Result<(), SaveError> {
    let error = |kind| SaveError {
        path: path.to_path_buf(),
        kind,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_dir(dir).map_err(error)?;
    }
    if path.is_dir() {
        return Err(error(SaveErrorKind::Directory));
    }
    crate::util::atomic_write(path, |f| {
        f.write_all(header(shape, blank, &t.tiles, t.len()).as_bytes())?;
        f.write_all(t.packed())?;
        write!(f, "{:016x}", checksum(t.packed()))
    })
    .map_err(|e| error(SaveErrorKind::Write(e)))?;
    // The bytes just written are the table's: stamp them, so the next start need not read
    // them all.
    if let Ok(meta) = std::fs::metadata(path) {
        Stamp::of(t.packed(), identity(&meta)).write(path);
    }
    forget_cached_pages(path);
    Ok(())
}

/// Asks the kernel to drop a just-written file's pages from its cache (they are on the disk:
/// `atomic_write` synced them). Written, they sit in the cache as small pages, and a mapping
/// would use those; read again through [`open`]'s mapping, advised into huge pages, they come
/// back as 2 MiB folios.
fn forget_cached_pages(path: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(f) = std::fs::File::open(path) {
        let _ = rustix::fs::fadvise(&f, 0, None, rustix::fs::Advice::DontNeed);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
}

/// Why what is at a table's path, when it is not a regular file (a directory, a FIFO, a
/// socket, a device), cannot be used, and what to do.
fn not_a_table_file(meta: &std::fs::Metadata) -> Result<(), OpenErrorKind> {
    if meta.is_file() {
        return Ok(());
    }
    if meta.is_dir() {
        return Err(OpenErrorKind::Directory);
    }
    let kind = {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            "a named pipe (FIFO)"
        } else if t.is_socket() {
            "a socket"
        } else if t.is_block_device() || t.is_char_device() {
            "a device"
        } else {
            "not a regular file"
        }
    };
    Err(OpenErrorKind::NotAFile { what: kind })
}

/// Opens a file for reading without waiting on it (`O_NONBLOCK`: a FIFO put there after it
/// was looked at is opened, not waited on, and then refused).
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// What a directory at a table's path is, and what to do (the end of two messages).
const IN_THE_WAY: &str = "is a directory, not a table file; remove it (`rmdir`, if it is \
                          empty) so the table can be cached there";

/// Creates the cache directory, naming a file that stands in the way.
fn create_dir(dir: &Path) -> Result<(), SaveErrorKind> {
    std::fs::create_dir_all(dir).map_err(|source| {
        let file = dir.ancestors().find(|a| a.exists() && !a.is_dir());
        SaveErrorKind::CreateDir {
            dir: dir.to_path_buf(),
            file: file.map(Path::to_path_buf),
            source,
        }
    })
}

/// Removes the temporary files that builds of processes no longer running left in `dir` (a
/// kill or a full disk mid-write): `.NAME.pdb.tmp-PID`, and `NAME.tmpPID` of earlier
/// versions. Files of running processes (a build in progress) are kept, and so is a table's
/// file while anyone holds that table's build lock: a builder in another PID namespace (a
/// container sharing the cache) or on another NFS host has a process id this process cannot
/// see, but it writes while holding the lock. Returns the names removed, sorted.
pub(crate) fn remove_stale_temporaries(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = temporary_pid(&name)?;
            let stale = pid != std::process::id() && !process_alive(pid) && !locked(dir, &name);
            (stale && std::fs::remove_file(e.path()).is_ok()).then_some(name)
        })
        .collect();
    removed.sort();
    removed
}

/// Whether the build lock of the table whose temporary file is `name` (`.NAME.pdb.tmp-PID`)
/// is held by some process, wherever it runs; false for other names and where no lock can be
/// tried.
fn locked(dir: &Path, name: &str) -> bool {
    let Some((table, _)) = name
        .strip_prefix('.')
        .and_then(|rest| rest.rsplit_once(".tmp-"))
        .filter(|(stem, _)| stem.ends_with(".pdb"))
    else {
        return false;
    };
    let Ok(f) = std::fs::File::open(dir.join(format!(".{table}.lock"))) else {
        return false;
    };
    held(&f)
}

/// Whether another open file holds an exclusive `flock` on `f`'s file (tried without
/// waiting, and released at once).
fn held(f: &std::fs::File) -> bool {
    use rustix::fs::FlockOperation;
    match rustix::fs::flock(f, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => {
            let _ = rustix::fs::flock(f, FlockOperation::Unlock);
            false
        }
        Err(e) => e == rustix::io::Errno::WOULDBLOCK,
    }
}

/// The id of the process that writes the table temporary file `name`, if it is one.
fn temporary_pid(name: &str) -> Option<u32> {
    let digits = match name.strip_prefix('.') {
        // `.NAME.pdb.tmp-PID`, and `..NAME.pdb.ok.tmp-PID` of a stamp.
        Some(rest) => {
            rest.rsplit_once(".tmp-")
                .filter(|(stem, _)| stem.contains(".pdb"))?
                .1
        }
        None => {
            let (stem, digits) = name.rsplit_once(".tmp")?;
            if !(stem.contains("-blank") && stem.contains("-tiles")) {
                return None;
            }
            digits
        }
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Whether a process with this id is running (as any user).
fn process_alive(pid: u32) -> bool {
    // Id 0 names no process (a signal to it would go to this process group).
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    // Signal 0 only checks: ESRCH is "no such process"; EPERM, another user's process.
    rustix::process::test_kill_process(pid) != Err(rustix::io::Errno::SRCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_variables_and_a_relative_xdg_cache_home_do_not_choose_the_directory() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            dir_from(move |name| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            })
        };
        assert_eq!(
            env(&[("HOME", "/home/u")]),
            Path::new("/home/u/.cache/tilebench/pdb")
        );
        assert_eq!(
            env(&[("TILEBENCH_PDB_DIR", ""), ("HOME", "/home/u")]),
            Path::new("/home/u/.cache/tilebench/pdb")
        );
        assert_eq!(
            env(&[("XDG_CACHE_HOME", ""), ("HOME", "/home/u")]),
            Path::new("/home/u/.cache/tilebench/pdb")
        );
        assert_eq!(
            env(&[("XDG_CACHE_HOME", "cache"), ("HOME", "/home/u")]),
            Path::new("/home/u/.cache/tilebench/pdb")
        );
        assert_eq!(
            env(&[("XDG_CACHE_HOME", "/c"), ("HOME", "/home/u")]),
            Path::new("/c/tilebench/pdb")
        );
        assert_eq!(
            env(&[("TILEBENCH_PDB_DIR", "/t"), ("XDG_CACHE_HOME", "/c")]),
            Path::new("/t")
        );
        assert_eq!(env(&[("HOME", "")]), Path::new("results/pdb"));
    }

    /// Each way a cache file cannot be used: the kind, the path, and the message (the
    /// reason alone from `kind()`, "cannot use PATH: reason" in all).
    #[test]
    fn a_damaged_table_file_says_which_file_and_what_is_wrong() {
        let dir = std::env::temp_dir().join(format!("tilebench-open-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (shape, blank, home, tiles) = (Shape::S3X3, 8, [0u8, 1, 2], [1u8, 2, 3]);
        let (t, _) = super::super::table::build_table(shape, blank, &home, &tiles, &|_, _| {});
        let path = dir.join(file_name(shape, blank, &tiles));
        write(&path, shape, blank, &t).unwrap();
        let good = std::fs::read(&path).unwrap();
        let len = good.len() as u64;
        let open_bytes = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            open(&path, shape, blank, &home, &tiles, false)
                .map(|_| ())
                .unwrap_err()
        };
        assert!(open(&path, shape, blank, &home, &tiles, true).is_ok());

        let e = open_bytes(&good[..good.len() - 3]);
        assert_eq!(e.path(), path.as_path());
        assert!(matches!(
            e.kind(),
            OpenErrorKind::Truncated { bytes, header_says } if *bytes == len - 3 && *header_says == len
        ));
        assert_eq!(
            e.kind().to_string(),
            format!(
                "the file is truncated ({} bytes, shorter than the {len} its header says), \
                 probably by an interrupted write",
                len - 3
            )
        );
        assert_eq!(
            e.to_string(),
            format!("cannot use {}: {}", path.display(), e.kind())
        );
        let e = open_bytes(&[good.as_slice(), b"x"].concat());
        assert_eq!(
            e.kind().to_string(),
            format!(
                "the file is 1 byte longer than its header says ({} bytes, not {len}): it is \
                 damaged",
                len + 1
            )
        );
        let mut flipped = good.clone();
        let last = flipped.len() - 20;
        flipped[last] ^= 1;
        let e = open_bytes(&flipped);
        assert!(matches!(e.kind(), OpenErrorKind::Checksum), "{e}");
        assert_eq!(
            e.kind().to_string(),
            "its checksum does not match its entries (the file is damaged)"
        );
        let e = open_bytes(&good[..5]);
        assert!(
            matches!(e.kind(), OpenErrorKind::TruncatedHeader { bytes: 5 }),
            "{e}"
        );
        let e = open_bytes(b"");
        assert!(matches!(e.kind(), OpenErrorKind::Empty), "{e}");
        let e = open_bytes(b"TBPDB02\n");
        assert_eq!(
            e.kind().to_string(),
            "not a table of this tilebench version (its first line is not `TBPDB03`)"
        );
        let other = good.iter().position(|&b| b == b']').unwrap();
        let mut header = good.clone();
        header[other - 1] = b'4';
        let e = open_bytes(&header);
        assert!(
            matches!(e.kind(), OpenErrorKind::OtherTable { found, want }
                if found == "TBPDB03 3x3 8 [1, 2, 4] 504" && want == "TBPDB03 3x3 8 [1, 2, 3] 504"),
            "{e}"
        );
        std::fs::remove_file(&path).unwrap();
        let e = open(&path, shape, blank, &home, &tiles, false)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            e.kind().io_error().map(std::io::Error::kind),
            Some(std::io::ErrorKind::NotFound)
        );
        assert!(!e.to_string().contains("os error"), "{e}");
        assert_eq!(
            OpenError::missing(&path).kind().to_string(),
            "it is missing"
        );

        // Saving: a directory where the table goes, a file where the directory goes.
        std::fs::create_dir(&path).unwrap();
        let e = write(&path, shape, blank, &t).unwrap_err();
        assert_eq!(e.path(), path.as_path());
        assert!(matches!(e.kind(), SaveErrorKind::Directory));
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a directory, not a table file; remove it (`rmdir`, if it is empty) so \
                 the table can be cached there",
                path.display()
            )
        );
        let e = open(&path, shape, blank, &home, &tiles, false)
            .map(|_| ())
            .unwrap_err();
        assert!(e
            .kind()
            .to_string()
            .starts_with("it is a directory, not a table file"));
        let file = dir.join("file");
        std::fs::write(&file, "x").unwrap();
        let e = write(&file.join("t.pdb"), shape, blank, &t).unwrap_err();
        assert!(
            matches!(e.kind(), SaveErrorKind::CreateDir { dir, file: Some(f), .. } if dir == f)
        );
        assert_eq!(
            e.message_with_flags(),
            format!(
                "{} is a file, not a directory; give a directory as --pdb-dir",
                file.display()
            )
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a file, not a directory; give a directory for the tables",
                file.display()
            )
        );
        let e = write(&file.join("sub/t.pdb"), shape, blank, &t).unwrap_err();
        assert_eq!(
            e.message_with_flags(),
            format!(
                "cannot create the directory {}: {} is a file, not a directory; give another \
                 --pdb-dir",
                file.join("sub").display(),
                file.display()
            )
        );
        assert_eq!(
            e.to_string(),
            format!(
                "cannot create the directory {}: {} is a file, not a directory; give the tables \
                 another directory",
                file.join("sub").display(),
                file.display()
            )
        );
        assert!(!e.to_string().contains("--"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn temporary_names_give_their_process() {
        assert_eq!(
            temporary_pid(".4x4-blank0-tiles1_2_3.pdb.tmp-4242"),
            Some(4242)
        );
        assert_eq!(temporary_pid("4x4-blank0-tiles1_2_3.tmp17"), Some(17));
        assert_eq!(
            temporary_pid("..4x4-blank0-tiles1_2_3.pdb.ok.tmp-99"),
            Some(99)
        );
        for not in [
            "4x4-blank0-tiles1_2_3.pdb",
            ".4x4-blank0-tiles1_2_3.pdb.tmp-",
            ".notes.tmp-12",
            "report.tmp12",
            "4x4-blank0-tiles1_2_3.tmp12x",
        ] {
            assert_eq!(temporary_pid(not), None, "{not}");
        }
    }
}
