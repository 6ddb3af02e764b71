//! Small helpers with no better home: a seeded RNG, checksums, timestamps, machine facts.

use std::time::{SystemTime, UNIX_EPOCH};

/// SplitMix64: a tiny, fast, seedable generator. Datasets made with `--seed S` are the same
/// on every machine and every version of tilebench, which no external RNG crate promises.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`: the same seed gives the same sequence.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 uniformly random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
    /// Uniform in `0..n` (n > 0), without bias, by a multiplication instead of a division
    /// (Lemire's method): for drawing many indices. Its sequence differs from
    /// [`Rng::below`]'s, which datasets are made with and must not change.
    pub fn index(&mut self, n: u64) -> u64 {
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let t = n.wrapping_neg() % n;
            while (m as u64) < t {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// FNV-1a, 64 bits, as hex: a checksum of input files for run.json.
pub fn fnv1a64(bytes: &[u8]) -> String {
    let mut h = Fnv1a64::default();
    h.update(bytes);
    h.hex()
}

/// [`fnv1a64`] fed piece by piece, for bytes that are written as they are made.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Fnv1a64 {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a64 {
    /// Adds `bytes` to the hash.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    /// The hash of everything added so far.
    pub fn value(&self) -> u64 {
        self.0
    }
    /// The hash of everything added so far, as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// A reader or writer that hashes ([`Fnv1a64`]) every byte that passes through it: a file's
/// checksum taken while it is read or written, without a second pass.
#[derive(Debug)]
pub struct Hashed<T> {
    /// The reader or writer.
    pub inner: T,
    /// The hash of the bytes read or written so far.
    pub hash: Fnv1a64,
}

impl<T> Hashed<T> {
    /// Hashes what passes through `inner`, from the start.
    pub fn new(inner: T) -> Hashed<T> {
        Hashed {
            inner,
            hash: Fnv1a64::default(),
        }
    }
}

impl<R: std::io::Read> std::io::Read for Hashed<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

impl<W: std::io::Write> std::io::Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A command line as a shell reads it back: arguments with spaces, quotes or other special
/// characters in single quotes.
pub fn shell_command(argv: &[String]) -> String {
    let quote = |a: &String| {
        let plain = !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
        if plain {
            a.clone()
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    argv.iter().map(quote).collect::<Vec<_>>().join(" ")
}

/// Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month, day, hour, minute, second) in UTC.
fn utc_parts(t: SystemTime) -> (i64, u32, u32, u64, u64, u64) {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, mo, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    (y, mo, d, s / 3600, s % 3600 / 60, s % 60)
}

/// RFC 3339 UTC timestamp: `2026-11-29T16:54:52Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// A timestamp for directory names: `20261129-165452`.
pub fn compact_timestamp(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(t);
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}")
}

/// The CPU model from /proc/cpuinfo, when there is one.
pub fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// The git commit the binary was built from, if known.
pub fn git_commit() -> Option<&'static str> {
    let c = env!("TILEBENCH_GIT_COMMIT");
    (!c.is_empty()).then_some(c)
}

/// An I/O error as the end of a sentence for a user: what went wrong, without the bare
/// `(os error N)` of `io::Error`'s text.
pub fn io_reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        PermissionDenied => "permission denied (this user may not write or read there)".into(),
        NotFound => "no such file or directory".into(),
        AlreadyExists => "it already exists".into(),
        StorageFull => "the disk is full (no space left on the device)".into(),
        ReadOnlyFilesystem => "the file system is read-only".into(),
        NotADirectory => "a part of the path is a file, not a directory".into(),
        IsADirectory => "it is a directory, not a file".into(),
        FileTooLarge => "the file would pass this process's file size limit (ulimit -f)".into(),
        _ => {
            let text = e.to_string();
            match text.rfind(" (os error ") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// The environment variable that names a crash point (see [`crash_point`]).
pub const CRASH_AT: &str = "TILEBENCH_CRASH_AT";

/// A fault-injection point for the kill tests: when `TILEBENCH_CRASH_AT` is `point` (or
/// `point:N`, the N-th time it is reached; `point` is `kind` or `kind:detail`), the process
/// kills itself with SIGKILL here, as `kill -9` would at that moment: no destructor, no flush,
/// no clean-up. Without the variable this is one relaxed atomic load after the first call.
///
/// The points: `solving` (the results directory and its journal exist, nothing solved),
/// `solved` (a case solved, its record not yet handed to the journal), `journal-synced`
/// (records synced to the disk), `pass-ended` (a strategy's pass recorded as complete),
/// `write:FILE` (a final file written to its temporary name, not yet renamed), `finished`
/// (every final file written, the journal still there), `removing` (the manifest removed, the
/// journal not yet).
pub fn crash_point(kind: &str, detail: &str) {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;
    static AT: OnceLock<Option<(String, u64)>> = OnceLock::new();
    static HITS: AtomicU64 = AtomicU64::new(0);
    let Some((at, nth)) = AT.get_or_init(|| {
        let v = std::env::var(CRASH_AT).ok()?;
        Some(match v.rsplit_once(':') {
            Some((p, n)) if n.parse::<u64>().is_ok() => (p.to_string(), n.parse().ok()?),
            _ => (v, 1),
        })
    }) else {
        return;
    };
    let matches = if detail.is_empty() {
        at == kind
    } else {
        at.strip_prefix(kind)
            .and_then(|r| r.strip_prefix(':'))
            .is_some_and(|d| d == detail)
            || at == kind
    };
    if matches && HITS.fetch_add(1, Ordering::SeqCst) + 1 == *nth {
        #[cfg(unix)]
        // SAFETY: a plain syscall; the process ends here.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
        std::process::abort();
    }
}

/// Writes a file atomically: into a temporary file beside it, synced, then renamed over
/// `path`. Readers see the old file or the whole new one, never half of one, even after a
/// crash or a power loss.
///
/// # Errors
/// The temporary file cannot be created, filled (`fill`'s error), synced or renamed; the
/// message names `path`, and the temporary file is removed.
pub fn atomic_write(
    path: &std::path::Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), String> {
    use std::io::Write;
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        fill(&mut w)?;
        w.flush()?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        crash_point("write", &name);
        std::fs::rename(&tmp, path)?;
        // The rename itself is durable once the directory is synced.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok::<_, std::io::Error>(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {}", path.display(), io_reason(&e))
    })
}

/// Asks the kernel to start writing `file`'s dirty pages to the disk now, without waiting
/// for them (Linux's `sync_file_range(SYNC_FILE_RANGE_WRITE)`): a large file written a part
/// at a time is then mostly on the disk when it is synced, and the sync at its end (which
/// the run waits for) has less left to do. Only a hint: it changes no data and no ordering,
/// does nothing elsewhere, and leaves errors to the sync.
pub fn start_writeback(file: &std::fs::File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: a descriptor of an open file; the call only schedules writeback.
        unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

/// The calling rayon worker's own slot of `slots` (one per worker thread; slot 0 outside a
/// pool).
pub fn for_worker<T>(slots: &[T]) -> &T {
    let i = rayon::current_thread_index().unwrap_or(0);
    &slots[i % slots.len()]
}

/// One entry of a registry of output formats (the run's summary exports, a comparison's
/// exports, `table`'s formats): a name for the command line, a line for the help, and the
/// renderer, a `&'static` trait object of the registry's own trait.
pub struct Registered<E: ?Sized + 'static> {
    /// The name on the command line.
    pub name: &'static str,
    /// One line for `--help` and the docs.
    pub describe: &'static str,
    /// The renderer.
    pub export: &'static E,
}

impl<E: ?Sized> std::fmt::Debug for Registered<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The entry of `list` called `name` (any case, spaces trimmed), or a sentence naming the
/// choices: "unknown `what` `name`; choose a, b, c".
///
/// # Errors
/// No entry has that name.
pub fn registered<'a, E: ?Sized>(
    list: &'a [Registered<E>],
    name: &str,
    what: &str,
) -> Result<&'a Registered<E>, String> {
    list.iter()
        .find(|f| f.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = list.iter().map(|f| f.name).collect();
            format!("unknown {what} `{name}`; choose {}", names.join(", "))
        })
}

/// `s` with its control characters (a NUL, an escape, a line end) shown escaped (`\u{0}`,
/// `\u{1b}`, `\n`): what every message passes through before it reaches a terminal or a CSV
/// cell. Returned as it is when it has none.
pub fn escape_controls(s: String) -> String {
    if !s.chars().any(char::is_control) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text shortened for a message or a label: trailing white space dropped, then at most `max`
/// characters, then `…` and the full length, so one huge field cannot flood a terminal or a
/// log; control characters (a NUL, a tab, an escape) shown escaped (`\u{0}`, `\t`,
/// `\u{1b}`), so none reaches a terminal raw. The one clipper every message uses.
pub fn clip(s: &str, max: usize) -> String {
    let s = s.trim_end();
    let n = s.chars().count();
    let mut out = String::new();
    for c in s.chars().take(max) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if n > max {
        out += &format!("… ({n} characters)");
    }
    out
}

/// The bytes a CSV field must be quoted for: the comma, the quote and the line ends.
const NEEDS_QUOTES: [bool; 256] = {
    let mut t = [false; 256];
    t[b',' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

/// A CSV row appended to a buffer as the `csv` crate writes it (RFC 4180, fields quoted only
/// where they hold a comma, a quote or a line end), without its per-byte state machine: the
/// rows of cases.csv and of the journal are mostly short numbers and boards, checked against
/// a table of those bytes.
///
/// The row is gathered in a buffer on the stack and appended to `out` in one copy by
/// [`CsvRow::end`] (a field too long for the buffer goes straight through): the bytes of a
/// row then cost a store each, not a call and a capacity check. Nothing reaches `out` before
/// `end` (or before the buffer fills).
pub struct CsvRow<'a> {
    out: &'a mut Vec<u8>,
    buf: [u8; ROW_ROOM],
    n: usize,
    first: bool,
}

/// The bytes of a row gathered on the stack before they are appended.
const ROW_ROOM: usize = 256;

/// The powers of ten a u64 holds (`TENS[i]` = 10^i).
const TENS: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// Two decimal digits of every number below 100.
const DIGITS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

impl<'a> CsvRow<'a> {
    /// A row appended to `out`.
    pub fn new(out: &'a mut Vec<u8>) -> CsvRow<'a> {
        CsvRow {
            out,
            buf: [0; ROW_ROOM],
            n: 0,
            first: true,
        }
    }

    /// Appends what is gathered to `out` (a row longer than the buffer).
    #[cold]
    fn spill(&mut self) {
        self.flush();
    }

    /// Appends what is gathered to `out`.
    fn flush(&mut self) {
        self.out.extend_from_slice(&self.buf[..self.n]);
        self.n = 0;
    }

    /// Makes room for `len` more bytes in the buffer; false when they cannot fit even in an
    /// empty one (what is gathered is then in `out`, and the bytes go there too).
    #[inline(always)]
    fn room(&mut self, len: usize) -> bool {
        if len <= ROW_ROOM - self.n {
            return true;
        }
        self.spill();
        len <= ROW_ROOM
    }

    /// The separator before a field (none before the first).
    #[inline(always)]
    fn sep(&mut self) {
        if !std::mem::take(&mut self.first) {
            if self.n == ROW_ROOM {
                self.spill();
            }
            self.buf[self.n] = b',';
            self.n += 1;
        }
    }

    /// Appends bytes as they are.
    #[inline(always)]
    fn raw(&mut self, f: &[u8]) {
        if self.room(f.len()) {
            self.buf[self.n..self.n + f.len()].copy_from_slice(f);
            self.n += f.len();
        } else {
            self.out.extend_from_slice(f);
        }
    }

    /// Appends a field, quoted if it needs to be.
    #[inline(always)]
    pub fn field(&mut self, f: impl AsRef<[u8]>) {
        let f = f.as_ref();
        self.sep();
        // Copied and checked in one pass (most fields are a few bytes: no call to memcpy).
        let mut quote = false;
        if self.room(f.len()) {
            for (to, &b) in self.buf[self.n..].iter_mut().zip(f) {
                *to = b;
                quote |= NEEDS_QUOTES[b as usize];
            }
            if !quote {
                self.n += f.len();
                return;
            }
        } else if !f.iter().any(|&b| NEEDS_QUOTES[b as usize]) {
            self.out.extend_from_slice(f);
            return;
        }
        self.spill();
        self.out.push(b'"');
        for part in f.split_inclusive(|&b| b == b'"') {
            self.out.extend_from_slice(part);
            if part.last() == Some(&b'"') {
                self.out.push(b'"');
            }
        }
        self.out.push(b'"');
    }

    /// Appends a field whose text cannot need quotes (a number, a flag, a status, a board
    /// the program formatted: no comma, quote or line end), copied without looking at its
    /// bytes; [`CsvRow::field`] for any text that comes from outside.
    #[inline(always)]
    pub fn plain(&mut self, f: impl AsRef<[u8]>) {
        let f = f.as_ref();
        debug_assert!(
            !f.iter().any(|&b| NEEDS_QUOTES[b as usize]),
            "a plain CSV field that needs quotes: {:?}",
            String::from_utf8_lossy(f)
        );
        self.sep();
        self.raw(f);
    }

    /// Appends a whole number in decimal, written in place (as `itoa` writes it).
    #[inline(always)]
    pub fn number(&mut self, v: u64) {
        self.sep();
        self.digits(v);
    }

    /// Appends a signed whole number (`-` before a negative one's digits).
    #[inline(always)]
    pub fn signed(&mut self, v: i64) {
        self.sep();
        if v < 0 {
            self.raw(b"-");
        }
        self.digits(v.unsigned_abs());
    }

    /// The decimal digits of `v`, written in place two at a time from the last.
    #[inline(always)]
    fn digits(&mut self, mut v: u64) {
        // The digits of the powers of two up to v's, less one where v is below the power
        // of ten they reach.
        let bits = 64 - (v | 1).leading_zeros() as usize;
        let guess = (bits * 1233) >> 12;
        let len = guess + 1 - usize::from(guess > 0 && v < TENS[guess]);
        // A u64 has at most 20 digits: they always fit in an emptied buffer.
        let _ = self.room(len);
        let mut at = self.n + len;
        while v >= 100 {
            let d = (v % 100) as usize * 2;
            v /= 100;
            at -= 2;
            self.buf[at] = DIGITS[d];
            self.buf[at + 1] = DIGITS[d + 1];
        }
        if v >= 10 {
            let d = v as usize * 2;
            self.buf[at - 2] = DIGITS[d];
            self.buf[at - 1] = DIGITS[d + 1];
        } else {
            self.buf[at - 1] = b'0' + v as u8;
        }
        self.n += len;
    }

    /// Appends a number, or an empty field for none.
    #[inline(always)]
    pub fn maybe(&mut self, v: Option<u64>) {
        match v {
            Some(v) => self.number(v),
            None => self.sep(),
        }
    }

    /// Appends a ratio given in ten-thousandths (`11053` → `1.1053`, `15000` → `1.5`,
    /// `10000` → `1`), or an empty field for none.
    #[inline]
    pub fn ratio(&mut self, v: Option<u64>) {
        let Some(q) = v else {
            return self.sep();
        };
        self.number(q / 10_000);
        let frac = fraction_digits(q);
        if !frac.is_empty() {
            self.raw(b".");
            self.raw(frac.as_bytes());
        }
    }

    /// Appends a flag: `true`, `false`, or an empty field for none.
    #[inline(always)]
    pub fn flag(&mut self, v: Option<bool>) {
        self.plain(match v {
            Some(true) => "true",
            Some(false) => "false",
            None => "",
        });
    }

    /// Starts a field whose text, written next through [`std::fmt::Write`], cannot need
    /// quotes (as [`CsvRow::plain`]).
    #[inline(always)]
    pub fn next_plain(&mut self) -> &mut Self {
        self.sep();
        self
    }

    /// Ends the row (`\n`) and appends it to `out`.
    pub fn end(mut self) {
        self.raw(b"\n");
        self.flush();
    }
}

/// The decimals of a number of ten-thousandths, trailing zeros dropped (`11050` → `105`).
fn fraction_digits(q: u64) -> String {
    let f = format!("{:04}", q % 10_000);
    f.trim_end_matches('0').to_string()
}

/// A ratio given in ten-thousandths as [`CsvRow::ratio`] writes it: `1.1053`, `1.5`, `1`.
pub fn ratio_text(q: u64) -> String {
    let frac = fraction_digits(q);
    if frac.is_empty() {
        (q / 10_000).to_string()
    } else {
        format!("{}.{frac}", q / 10_000)
    }
}

/// The text of the field [`CsvRow::next_plain`] started (a board's tiles, which
/// [`crate::puzzle::Board::write_to`] hands over in pieces).
impl std::fmt::Write for CsvRow<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.raw(s.as_bytes());
        Ok(())
    }
}

/// Asks the CPU to fetch the cache line holding `value`, soon to be read: a hint that reads
/// nothing, so several fetches can overlap (a search's random lookups into a table larger
/// than the cache). Nothing on targets other than x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch hint of a valid address; it reads nothing.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast::<i8>(),
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `number`, `signed` and `maybe` write what `itoa` writes, at every length from 1 to
    /// 20 digits (each power of ten and the number below it), and rows longer than the
    /// buffer they are gathered in come out whole, as the csv crate writes them.
    #[test]
    fn a_rows_numbers_and_long_fields_are_written_whole() {
        let mut values = vec![0u64, 1, 9, u64::MAX, u64::MAX - 1];
        for p in TENS {
            values.extend([p - 1, p, p + 1]);
        }
        let mut rng = Rng::new(5);
        values.extend((0..200).map(|_| rng.next_u64() >> (rng.next_u64() % 64)));
        let (mut a, mut b) = (itoa::Buffer::new(), itoa::Buffer::new());
        for &v in &values {
            let mut out = Vec::new();
            let mut row = CsvRow::new(&mut out);
            row.number(v);
            row.maybe(Some(v));
            row.maybe(None);
            row.signed(v as i64);
            row.signed(-(v as i64 / 3));
            row.end();
            let want = format!(
                "{v},{v},,{},{}\n",
                a.format(v as i64),
                b.format(-(v as i64 / 3))
            );
            assert_eq!(String::from_utf8(out).unwrap(), want);
        }
        // Fields that overflow the gathering buffer: one longer than it, and many that add
        // up to more; some needing quotes.
        let long = "a,\"b".repeat(ROW_ROOM);
        let fields: Vec<String> = (0..100)
            .map(|i| match i % 4 {
                0 => long[..i * 7].to_string(),
                1 => "x".repeat(ROW_ROOM + i),
                _ => format!("{i}"),
            })
            .collect();
        let mut ours = Vec::new();
        let mut row = CsvRow::new(&mut ours);
        for f in &fields {
            row.field(f);
        }
        row.number(7);
        row.end();
        let mut theirs = csv::Writer::from_writer(Vec::new());
        let mut all = fields.clone();
        all.push("7".into());
        theirs.write_record(&all).unwrap();
        assert_eq!(ours, theirs.into_inner().unwrap());
    }

    /// Starting the writeback between writes (and after the last) leaves the file's bytes
    /// as written.
    #[test]
    fn start_writeback_changes_nothing_in_the_file() {
        use std::io::Write;
        let path = std::env::temp_dir().join(format!("tilebench-wb-{}", std::process::id()));
        let mut f = std::fs::File::create(&path).unwrap();
        let mut want = Vec::new();
        for part in 0..5u8 {
            let bytes = vec![b'a' + part; 100_000 + usize::from(part)];
            f.write_all(&bytes).unwrap();
            want.extend_from_slice(&bytes);
            start_writeback(&f);
        }
        f.sync_all().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), want);
        let _ = std::fs::remove_file(&path);
    }
    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_421), (2025, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
    #[test]
    fn messages_carry_no_raw_control_characters() {
        assert_eq!(escape_controls("plain".into()), "plain");
        assert_eq!(
            escape_controls("a\0b\x1b[31mc\nd".into()),
            "a\\u{0}b\\u{1b}[31mc\\nd"
        );
    }

    #[test]
    fn clip_cuts_long_text_and_escapes_control_characters() {
        assert_eq!(
            clip("st\0art\tx\u{1b}[2J ", 40),
            "st\\u{0}art\\tx\\u{1b}[2J"
        );
        assert_eq!(clip("abcdef", 3), "abc… (6 characters)");
        assert_eq!(clip("abc", 3), "abc");
    }

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            let x = a.below(10);
            assert_eq!(x, b.below(10));
            assert!(x < 10);
        }
    }
}
