//! A run's cases on disk while it runs, so that memory does not grow with the dataset.
//!
//! The inputs are read once, as a stream ([`crate::dataset::read_all`]); each case is written
//! to a scratch file in a compact binary form as its piece is read, and what the run needs
//! across the whole dataset is kept beside, compactly: the files' facts, the distinct goals
//! and board shapes, and an 8-byte hash per id (to find repeated ids). The runner then reads
//! the cases back a block at a time ([`Dataset::cases`]), which costs a small fraction of
//! parsing them again.
//!
//! The scratch file is created beside the results and unlinked at once: it holds no name,
//! and vanishes with the process however it ends (kill -9 included).

use crate::dataset::shard::Shard;
use crate::dataset::{
    self, Case, Id, InputError, InputErrorKind, InputFile, InputOptions, Portion, Share, Source,
};
use crate::puzzle::{Board, Shape};
use crate::search::Problem;
use std::borrow::Cow;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Cases between two entries of the spool's index.
const EVERY: usize = 1024;

/// What a reader of spooled cases needs of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Need {
    /// Every field: the final pass writes them into rows.
    All,
    /// All but the ids, which no solver reads (a short id is copied, a long one allocated).
    Solving,
}

/// The cases of a run's inputs (of its shard), read once and spooled to disk, with the facts
/// a run needs about them.
pub(crate) struct Dataset {
    /// The input files' facts, in order.
    pub files: Vec<InputFile>,
    /// The distinct goals of the shard's valid cases, in first-seen order.
    pub goals: Vec<Board>,
    /// The board shapes of the shard's valid cases (of every valid case, when the reading's
    /// [`Share::shapes`] asked for them), each once, in order.
    pub shapes: Vec<Shape>,
    /// Warnings about ids repeated among the shard's cases (the first [`Dataset::KEPT`]),
    /// and how many there are.
    pub duplicates: (Vec<String>, usize),
    /// The shard whose cases are spooled.
    shard: Shard,
    /// The rows of every input (all shards').
    total: usize,
    spool: Spool,
}

/// The spooled cases.
struct Spool {
    file: File,
    /// The byte offset of every [`EVERY`]-th case, and the end.
    index: Vec<u64>,
    end: u64,
    len: usize,
    sources: Vec<Source>,
}

/// One piece of the inputs, encoded (on a worker thread).
struct Piece {
    bytes: Vec<u8>,
    /// Where each case's bytes end.
    ends: Vec<u32>,
    goals: Vec<Board>,
    shapes: Vec<Shape>,
    ids: Vec<u64>,
    rising: Rising,
}

/// Whether some ids (those not empty, in order) are whole numbers, each above the one
/// before: then no two are the same, and a file whose pieces rise one after another repeats
/// no id, with no need to sort its ids' hashes to find out (a generated dataset's ids are
/// 1, 2, 3, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rising {
    /// No id yet.
    Empty,
    /// Rising from the first to the last.
    From(u64, u64),
    /// Not whole numbers, or not rising.
    No,
}

impl Rising {
    /// Followed by `id` (not empty).
    fn then(self, id: &str) -> Rising {
        let number = (id.len() <= 19 && id.bytes().all(|b| b.is_ascii_digit()))
            .then(|| id.parse::<u64>().ok())
            .flatten();
        match (self, number) {
            (Rising::Empty, Some(v)) => Rising::From(v, v),
            (Rising::From(first, last), Some(v)) if v > last => Rising::From(first, v),
            _ => Rising::No,
        }
    }

    /// Followed by the ids of the piece after.
    fn and(self, next: Rising) -> Rising {
        match (self, next) {
            (r, Rising::Empty) | (Rising::Empty, r) => r,
            (Rising::From(first, last), Rising::From(from, to)) if from > last => {
                Rising::From(first, to)
            }
            _ => Rising::No,
        }
    }
}

/// The hash of an id of file `file`.
fn id_hash(file: usize, id: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    file.hash(&mut h);
    id.hash(&mut h);
    h.finish()
}

impl Dataset {
    /// Warnings about repeated ids that are kept.
    pub(crate) const KEPT: usize = 20;

    /// Reads every dataset in `paths` as [`input::read_share`] does, spooling the cases of
    /// `share` to a scratch file in the first of `dirs` where one can be created.
    ///
    /// # Errors
    /// As [`input::read_all`]; and when the scratch file cannot be created or written.
    pub(crate) fn read(
        paths: &[String],
        opts: &InputOptions,
        dirs: &[PathBuf],
        share: Share<'_>,
    ) -> Result<Dataset, InputError> {
        let (file, dir) = scratch_file(dirs).map_err(|(error, dir)| {
            let kind = InputErrorKind::Scratch {
                created: false,
                error,
            };
            InputError::new(dir.display().to_string(), None, kind)
        })?;
        let scratch = |error: io::Error| {
            let kind = InputErrorKind::Scratch {
                created: true,
                error,
            };
            InputError::new(dir.display().to_string(), None, kind)
        };
        let mut out = io::BufWriter::with_capacity(1 << 20, &file);
        let (mut index, mut at, mut len) = (Vec::new(), 0u64, 0usize);
        let mut goals = Vec::new();
        let mut seen_goals = std::collections::HashSet::new();
        let mut shapes = std::collections::BTreeSet::new();
        let mut ids = Vec::new();
        // Per file, whether its ids rise (and the file they are of).
        let (mut rising, mut rise_file, mut all_rise) = (Rising::Empty, 0, true);
        let mut failed: Option<io::Error> = None;
        let files = dataset::read_share(
            paths,
            opts,
            share,
            |k, portion| encode_piece(k, &portion),
            |k, piece: Piece| {
                if k != rise_file {
                    (rising, rise_file) = (Rising::Empty, k);
                }
                rising = rising.and(piece.rising);
                all_rise &= rising != Rising::No;
                let mut from = 0;
                for &end in &piece.ends {
                    if len % EVERY == 0 {
                        index.push(at + u64::from(from));
                    }
                    len += 1;
                    from = end;
                }
                at += piece.bytes.len() as u64;
                if failed.is_none() {
                    failed = out.write_all(&piece.bytes).err();
                }
                for g in piece.goals {
                    if seen_goals.insert(g) {
                        goals.push(g);
                    }
                }
                shapes.extend(piece.shapes);
                ids.extend(piece.ids);
            },
        )?;
        if let Some(e) = failed {
            return Err(scratch(e));
        }
        out.flush().map_err(scratch)?;
        drop(out);
        let sources = files.iter().map(|f| Source::new(&f.path)).collect();
        let rows = files.iter().map(|f| f.rows).sum();
        let spool = Spool {
            file,
            index,
            end: at,
            len,
            sources,
        };
        let duplicates = if all_rise {
            (Vec::new(), 0)
        } else {
            spool.duplicates(ids).map_err(scratch)?
        };
        Ok(Dataset {
            // With --rows, the chosen rows (the run refuses rows that do not exist).
            total: share.rows.map_or(rows, |r| r.within(rows)),
            files,
            goals,
            shapes: shapes.into_iter().collect(),
            duplicates,
            shard: share.shard,
            spool,
        })
    }

    /// How many cases (all shards').
    pub(crate) fn len(&self) -> usize {
        self.total
    }

    /// Whether there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The cases of `shard` (the one read) at its positions `positions`, read back, in order.
    ///
    /// # Errors
    /// The scratch file cannot be read.
    ///
    /// # Panics
    /// `shard` is not the shard read.
    pub(crate) fn cases(
        &self,
        shard: Shard,
        positions: std::ops::Range<usize>,
        need: Need,
    ) -> io::Result<CaseBlock<'static>> {
        assert_eq!(shard, self.shard, "the cases of a shard that was not read");
        let first = shard.case_at(positions.start);
        let cases = self.spool.read(positions, |_| true, need)?;
        Ok(CaseBlock::owned(cases, first, shard))
    }

    /// Every valid case's problem, in order.
    ///
    /// # Errors
    /// The scratch file cannot be read.
    pub(crate) fn problems(&self) -> io::Result<Vec<Problem>> {
        let mut out = Vec::new();
        self.spool.each_chunk(|cases| {
            out.extend(
                cases
                    .iter()
                    .filter_map(|c| c.problem.as_ref().ok().copied()),
            );
        })?;
        Ok(out)
    }
}

/// A file with no name in the first of `dirs` where one can be made: created, then
/// unlinked at once; or the last directory's error.
fn scratch_file(dirs: &[PathBuf]) -> Result<(File, &Path), (io::Error, &Path)> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mut last = (io::Error::other("no directory to write in"), Path::new("."));
    for dir in dirs {
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.join(format!(".tilebench-cases-{}-{n}.tmp", std::process::id()));
        let made = std::fs::create_dir_all(dir).and_then(|()| {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
        });
        match made {
            Ok(file) => {
                std::fs::remove_file(&path).map_err(|e| (e, dir.as_path()))?;
                return Ok((file, dir));
            }
            Err(e) => last = (e, dir),
        }
    }
    Err(last)
}

/// Cases held for a while, looked up by their index in the run.
pub(crate) struct CaseBlock<'a> {
    cases: Cow<'a, [Case]>,
    /// The index of `cases[0]`, and the step between two held cases' indices.
    first: usize,
    stride: usize,
}

impl<'a> CaseBlock<'a> {
    /// Every case of a run, in memory.
    pub(crate) fn all(cases: &'a [Case]) -> CaseBlock<'a> {
        CaseBlock {
            cases: Cow::Borrowed(cases),
            first: 0,
            stride: 1,
        }
    }

    fn owned(cases: Vec<Case>, first: usize, shard: Shard) -> CaseBlock<'static> {
        CaseBlock {
            cases: Cow::Owned(cases),
            first,
            stride: shard.count as usize,
        }
    }

    /// Case `i` of the run (one of those held).
    pub(crate) fn get(&self, i: usize) -> &Case {
        &self.cases[(i - self.first) / self.stride]
    }

    /// The cases held, in order.
    pub(crate) fn held(&self) -> &[Case] {
        &self.cases
    }
}

impl Spool {
    /// Cases `range` for which `keep` holds, decoded.
    fn read(
        &self,
        range: std::ops::Range<usize>,
        keep: impl Fn(usize) -> bool + Sync,
        need: Need,
    ) -> io::Result<Vec<Case>> {
        use rayon::prelude::*;
        if range.is_empty() {
            return Ok(Vec::new());
        }
        let (g0, g1) = (range.start / EVERY, (range.end - 1) / EVERY);
        let at = |g: usize| self.index.get(g).copied().unwrap_or(self.end);
        let mut bytes = vec![0u8; (at(g1 + 1) - at(g0)) as usize];
        self.file.read_exact_at(&mut bytes, at(g0))?;
        let base = at(g0);
        // Each group's cases are decoded in parallel straight into their places in `out`
        // (not into a vector a group, then moved).
        let wanted = |g: usize| {
            let cases = (g * EVERY).max(range.start)..((g + 1) * EVERY).min(range.end);
            cases.filter(|&i| keep(i)).count()
        };
        let counts: Vec<usize> = (g0..=g1).into_par_iter().map(wanted).collect();
        let total: usize = counts.iter().sum();
        // Written in place in the vector's spare capacity, each place once (not filled with
        // a placeholder first, then written again: a case is 248 bytes).
        let mut out: Vec<Case> = Vec::with_capacity(total);
        let mut places = Vec::with_capacity(counts.len());
        let mut rest = &mut out.spare_capacity_mut()[..total];
        for (g, &n) in (g0..=g1).zip(&counts) {
            let (these, after) = rest.split_at_mut(n);
            places.push((g, these));
            rest = after;
        }
        places.into_par_iter().for_each(|(g, places)| {
            let mut b = &bytes[(at(g) - base) as usize..(at(g + 1) - base) as usize];
            let mut places = places.iter_mut();
            let mut i = g * EVERY;
            while !b.is_empty() {
                let wanted = range.contains(&i) && keep(i);
                let case = decode(&mut b, &self.sources, wanted, need);
                if wanted {
                    if let Some(place) = places.next() {
                        match case {
                            Some(c) => place.write(c.case()),
                            None => place.write(broken(i)),
                        };
                    }
                }
                i += 1;
            }
            // A group whose bytes end early leaves its last places as broken cases.
            for (k, place) in places.enumerate() {
                place.write(broken(i + k));
            }
        });
        // SAFETY: `places` split the first `total` places of the spare capacity among the
        // groups, and each group wrote every one of its places (a decoded case, or a broken
        // one for bytes that end early): the first `total` elements are initialised.
        unsafe { out.set_len(total) };
        Ok(out)
    }

    /// Every case, in order, handed to `f` a chunk at a time.
    fn each_chunk(&self, mut f: impl FnMut(Vec<Case>)) -> io::Result<()> {
        const CHUNK: usize = 1 << 16;
        for from in (0..self.len).step_by(CHUNK) {
            f(self.read(from..(from + CHUNK).min(self.len), |_| true, Need::All)?);
        }
        Ok(())
    }

    /// The warnings of [`input::duplicate_ids`], found from the ids' hashes: only the cases
    /// whose hash is repeated are read back.
    fn duplicates(&self, mut ids: Vec<u64>) -> io::Result<(Vec<String>, usize)> {
        use rayon::prelude::*;
        ids.par_sort_unstable();
        let repeated: rustc_hash::FxHashSet<u64> = ids
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        drop(ids);
        if repeated.is_empty() {
            return Ok((Vec::new(), 0));
        }
        let mut candidates = Vec::new();
        self.each_chunk(|cases| {
            candidates.extend(cases.into_iter().filter(|c| {
                let k = self
                    .sources
                    .iter()
                    .position(|s| *s == c.source)
                    .unwrap_or(0);
                !c.id.is_empty() && repeated.contains(&id_hash(k, &c.id))
            }));
        })?;
        let mut all = dataset::duplicate_ids(&candidates);
        let n = all.len();
        all.truncate(Dataset::KEPT);
        Ok((all, n))
    }
}

/// What a place for a case holds before the case is decoded into it (nothing on the heap).
fn placeholder() -> Case {
    Case {
        source: Source::new("<scratch>"),
        line: 0,
        id: Id::default(),
        start_text: String::new(),
        goal_text: String::new(),
        expected_steps: None,
        problem: Err(String::new()),
    }
}

/// A case whose spooled bytes do not decode (a damaged scratch file): an invalid row that
/// says so.
fn broken(i: usize) -> Case {
    Case {
        problem: Err(format!(
            "case {} could not be read back from the run's scratch file (a bug in tilebench, \
             or a damaged disk); run again",
            i + 1
        )),
        ..placeholder()
    }
}

fn encode_piece(file: usize, portion: &Portion) -> Piece {
    let cases = &portion.cases;
    let mut p = Piece {
        bytes: Vec::with_capacity(cases.len() * 40),
        ends: Vec::with_capacity(cases.len()),
        goals: Vec::new(),
        shapes: portion.shapes.clone(),
        ids: Vec::new(),
        rising: Rising::Empty,
    };
    // The piece's goals so far, looked up by hash: a piece of a dataset with thousands of
    // goals holds thousands (a scan of `p.goals` for each row was most of such a run's
    // reading time). Rows mostly repeat the row before's goal: that is tested first.
    let mut seen = rustc_hash::FxHashSet::default();
    for c in cases {
        encode(file, c, &mut p.bytes);
        p.ends
            .push(u32::try_from(p.bytes.len()).expect("a piece is under 4 GB"));
        if let Ok(pr) = &c.problem {
            if p.goals.last() != Some(&pr.goal) && seen.insert(pr.goal) {
                p.goals.push(pr.goal);
            }
            if !p.shapes.contains(&pr.start.shape()) {
                p.shapes.push(pr.start.shape());
            }
        }
        if !c.id.is_empty() {
            p.ids.push(id_hash(file, &c.id));
            p.rising = p.rising.then(&c.id);
        }
    }
    p
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// A packed board as its word and blank; a larger one as its tiles, a byte each.
fn put_board(out: &mut Vec<u8>, b: &Board) {
    if !b.is_packed() {
        out.extend((0..b.shape().cells()).map(|p| b.tile(p)));
        return;
    }
    out.extend_from_slice(&b.packed().to_le_bytes());
    out.push(b.blank() as u8);
}

/// A case as bytes: file, line, flags (valid, has expected_steps), expected_steps, then the
/// shape and both boards (valid) or the message and texts (invalid), then the id.
fn encode(file: usize, c: &Case, out: &mut Vec<u8>) {
    put_varint(out, file as u64);
    put_varint(out, c.line);
    out.push(u8::from(c.problem.is_ok()) | u8::from(c.expected_steps.is_some()) << 1);
    if let Some(e) = c.expected_steps {
        put_varint(out, ((e << 1) ^ (e >> 63)) as u64);
    }
    match &c.problem {
        Ok(p) => {
            let s = p.start.shape();
            out.push((s.width() as u8) << 4 | s.height() as u8);
            put_board(out, &p.start);
            put_board(out, &p.goal);
        }
        Err(m) => {
            put_str(out, m);
            put_str(out, &c.start_text);
            put_str(out, &c.goal_text);
        }
    }
    put_str(out, &c.id);
}

#[inline(always)]
fn take<'b>(b: &mut &'b [u8], n: usize) -> Option<&'b [u8]> {
    if b.len() < n {
        return None;
    }
    let (head, rest) = b.split_at(n);
    *b = rest;
    Some(head)
}

fn varint(b: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = take(b, 1)?[0];
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(v);
        }
    }
    None
}

/// A length-prefixed text, made into a `T` by `make` when it is kept (else `T`'s default).
fn text<T: Default>(
    b: &mut &[u8],
    keep: bool,
    make: impl FnOnce(std::borrow::Cow<'_, str>) -> T,
) -> Option<T> {
    let n = usize::try_from(varint(b)?).ok()?;
    let s = take(b, n)?;
    Some(if keep {
        // Most texts are short and ASCII: checked as such first (the lossy walk, or even
        // `from_utf8`, costs several times more on a few bytes).
        make(if s.is_ascii() {
            // SAFETY: ASCII bytes are UTF-8.
            std::borrow::Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(s) })
        } else {
            String::from_utf8_lossy(s)
        })
    } else {
        T::default()
    })
}

fn string(b: &mut &[u8], keep: bool) -> Option<String> {
    text(b, keep, |s| s.into_owned())
}

/// As [`string`], for an id (kept in place when short: no allocation).
fn id(b: &mut &[u8], keep: bool) -> Option<Id> {
    text(b, keep, |s| Id::from(&*s))
}

/// A case's problem as decoded: a packed board's cells and blank (start, goal), or a larger
/// board's tiles; or an invalid row's message and texts.
enum Body<'b> {
    Packed(Shape, [u64; 2], [u8; 2]),
    Wide(Shape, &'b [u8], &'b [u8]),
    Invalid([String; 3]),
}

/// A case as decoded, before it is made: the boards still as their bytes, so that the case
/// (248 bytes) is written once, in its place, not built and then copied there.
struct Decoded<'b> {
    source: Source,
    line: u64,
    expected_steps: Option<i64>,
    body: Body<'b>,
    id: Id,
}

impl Decoded<'_> {
    #[inline(always)]
    fn case(self) -> Case {
        let (problem, start_text, goal_text) = match self.body {
            Body::Packed(shape, cells, blank) => {
                let p = Problem {
                    start: Board::from_parts(shape, cells[0], blank[0]),
                    goal: Board::from_parts(shape, cells[1], blank[1]),
                };
                (Ok(p), String::new(), String::new())
            }
            Body::Wide(shape, start, goal) => {
                let p = Problem {
                    start: Board::from_tiles(shape, start),
                    goal: Board::from_tiles(shape, goal),
                };
                (Ok(p), String::new(), String::new())
            }
            Body::Invalid([m, s, g]) => (Err(m), s, g),
        };
        Case {
            source: self.source,
            line: self.line,
            id: self.id,
            start_text,
            goal_text,
            expected_steps: self.expected_steps,
            problem,
        }
    }
}

/// A valid case's boards (after its shape's byte).
#[inline(always)]
fn boards<'b>(b: &mut &'b [u8], shape: Shape) -> Option<Body<'b>> {
    if !shape.is_packed() {
        let n = shape.cells();
        let (start, goal) = take(b, 2 * n)?.split_at(n);
        return Some(Body::Wide(shape, start, goal));
    }
    let bytes: &[u8; 18] = take(b, 18)?.try_into().ok()?;
    let cells = |k: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[k..k + 8]);
        u64::from_le_bytes(w)
    };
    Some(Body::Packed(
        shape,
        [cells(0), cells(9)],
        [bytes[8], bytes[17]],
    ))
}

/// The next case of `b` (advanced past it); `None` when the bytes do not decode, or when the
/// case is not `wanted` (then it is only skipped). Its id is left empty unless `need` is
/// [`Need::All`].
fn decode<'b>(
    b: &mut &'b [u8],
    sources: &[Source],
    wanted: bool,
    need: Need,
) -> Option<Decoded<'b>> {
    let file = usize::try_from(varint(b)?).ok()?;
    let line = varint(b)?;
    let flags = take(b, 1)?[0];
    let expected_steps = if flags & 2 != 0 {
        let z = varint(b)?;
        Some((z >> 1) as i64 ^ -((z & 1) as i64))
    } else {
        None
    };
    let body = if flags & 1 != 0 {
        let s = take(b, 1)?[0];
        let shape = Shape::new(usize::from(s >> 4), usize::from(s & 15)).ok()?;
        boards(b, shape)?
    } else {
        let m = string(b, wanted)?;
        Body::Invalid([m, string(b, wanted)?, string(b, wanted)?])
    };
    let id = id(b, wanted && need == Need::All)?;
    if !wanted {
        return None;
    }
    Some(Decoded {
        source: *sources.get(file)?,
        line,
        expected_steps,
        body,
        id,
    })
}

/// A warning for a selection that looks written in ids: the first chosen row (among the
/// first thousand of `shard`'s cases of `data`) whose id is a number other than its row
/// number, or `None`. Rows without ids, with names for ids, or numbered as they lie say
/// nothing.
pub(crate) fn id_warning(
    rows: &crate::dataset::rows::Rows,
    shard: Shard,
    data: &Dataset,
) -> Option<crate::observe::Wording> {
    let n = shard.len(data.len()).min(1000);
    let block = data.cases(shard, 0..n, Need::All).ok()?;
    block.held().iter().enumerate().find_map(|(p, case)| {
        let row = rows.row_of(shard.case_at(p)) + 1;
        let id: usize = case.id.as_str().trim().parse().ok()?;
        (id != row).then(|| {
            let said = |rows: &str| {
                format!(
                    "warning: {rows} data rows, not ids: row {row} ({}:{}) has id {id}; make \
                     sure these are the rows you mean",
                    case.source, case.line
                )
            };
            crate::observe::Wording::new(said("the plan's rows count"), said("--rows counts"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids that rise as whole numbers, within a piece and from piece to piece, are known
    /// to repeat none; anything else is not.
    #[test]
    fn ids_rise_only_as_whole_numbers_each_above_the_last() {
        let of = |ids: &[&str]| ids.iter().fold(Rising::Empty, |r, id| r.then(id));
        assert_eq!(of(&[]), Rising::Empty);
        assert_eq!(of(&["1", "2", "10"]), Rising::From(1, 10));
        assert_eq!(of(&["01", "2"]), Rising::From(1, 2));
        for not in [
            &["1", "1"][..],
            &["2", "1"],
            &["1", "a"],
            &["+1", "2"],
            &["-1"],
            &[" 1"],
        ] {
            assert_eq!(of(not), Rising::No, "{not:?}");
        }
        assert_eq!(of(&["99999999999999999999"]), Rising::No); // 20 digits
        let (a, b) = (of(&["1", "5"]), of(&["6", "9"]));
        assert_eq!(a.and(b), Rising::From(1, 9));
        assert_eq!(b.and(a), Rising::No);
        assert_eq!(a.and(of(&["5"])), Rising::No);
        assert_eq!(Rising::Empty.and(a).and(Rising::Empty), a);
        assert_eq!(Rising::No.and(a), Rising::No);
    }

    #[test]
    fn cases_come_back_as_they_were_read_for_any_shard_and_range() {
        // Valid and invalid rows, ids repeated, two files, more than one index entry.
        let dir = std::env::temp_dir().join(format!("tilebench-spool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut a = String::from("id,start,goal,expected_steps\n");
        for i in 0..3000 {
            a.push_str(&match i % 5 {
                0 => format!("r{i},1 2 3 4 5 6 7 x 8,,1\n"),
                1 => format!("r{i},1 2 3 4 5 6 7 7 x,,\n"),
                2 => "dup,x 1 2 3 4 5 6 7 8,1 2 3 4 5 6 7 8 x,-1\n".to_string(),
                3 => format!("r{i},1 2 3 4 5 6 7 8 9 10 11 x 12 13 14 15,,\n"),
                _ => format!("é{i},8 7 6 5 4 3 2 1 x,x 1 2 3 4 5 6 7 8,{}\n", i * 1000),
            });
        }
        let pa = dir.join("a.csv");
        let pb = dir.join("b.csv");
        std::fs::write(&pa, &a).unwrap();
        std::fs::write(&pb, "start\n2 1 3 4 5 6 7 8 x\n").unwrap();
        // Boards of more than 16 cells are spooled a byte a cell.
        let pc = dir.join("c.csv");
        let wide = |blank: usize| {
            let mut t: Vec<String> = (1..25).map(|t| t.to_string()).collect();
            t.insert(blank, "x".into());
            t.join(" ")
        };
        std::fs::write(
            &pc,
            format!("start,goal\n{},{}\n{},\n", wide(3), wide(24), wide(20)),
        )
        .unwrap();
        let paths = [
            pa.display().to_string(),
            pb.display().to_string(),
            pc.display().to_string(),
        ];
        let opts = InputOptions::default();
        let (files, want) = dataset::read_inputs(&paths, &opts).unwrap();
        let show = |c: &Case| format!("{c:?}");
        let shares = [
            Share::ALL,
            Share {
                shard: Shard { index: 2, count: 3 },
                rows: None,
                shapes: false,
            },
            Share {
                shard: Shard { index: 3, count: 3 },
                rows: None,
                shapes: true,
            },
        ];
        for share in shares {
            let shard = share.shard;
            let d = Dataset::read(&paths, &opts, std::slice::from_ref(&dir), share).unwrap();
            // The shard's own cases, from the whole reading.
            let own: Vec<Case> = shard.cases(want.len()).map(|i| want[i].clone()).collect();
            assert_eq!(d.len(), want.len());
            assert_eq!(d.files.len(), files.len());
            for (f, g) in d.files.iter().zip(&files) {
                assert_eq!((f.rows, f.bytes, &f.fnv1a64), (g.rows, g.bytes, &g.fnv1a64));
            }
            let bad = own.iter().filter(|c| c.problem.is_err()).count();
            assert_eq!(d.files.iter().map(|f| f.invalid_rows).sum::<usize>(), bad);
            assert_eq!(d.goals, crate::harness::runner::goals_of(&own));
            let shapes = if share.shapes { &want } else { &own };
            assert_eq!(d.shapes, dataset::shapes_of(shapes));
            let dups = dataset::duplicate_ids(&own);
            assert!(dups.len() > Dataset::KEPT);
            assert_eq!(d.duplicates.1, dups.len());
            assert_eq!(d.duplicates.0, dups[..Dataset::KEPT]);
            let n = shard.len(want.len());
            for (from, to) in [(0, n), (5, n.min(1030)), (n - 1, n), (3, 3)] {
                let block = d.cases(shard, from..to, Need::All).unwrap();
                assert_eq!(block.held().len(), to - from);
                // For solving, the same cases without their ids.
                let lean = d.cases(shard, from..to, Need::Solving).unwrap();
                for p in from..to {
                    let i = shard.case_at(p);
                    assert_eq!(show(block.get(i)), show(&want[i]), "case {i}");
                    let without_id = Case {
                        id: Id::default(),
                        ..want[i].clone()
                    };
                    assert_eq!(show(lean.get(i)), show(&without_id), "case {i}");
                }
            }
            let problems: Vec<Problem> =
                own.iter().filter_map(|c| c.problem.clone().ok()).collect();
            assert_eq!(d.problems().unwrap(), problems);
        }
        // The scratch file has no name in the directory.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), paths.len(), "{names:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
