//! A dataset's CSV grammar, in one place: csv-core's DFA, configured by [`grammar`], both
//! cuts the byte stream into pieces that end where a record ends ([`Pieces`]) and splits
//! each piece into records and fields ([`Records`]), so the two can never disagree on where
//! a record ends.
//!
//! Each piece can be read on its own, so the pieces of a large file are read in parallel
//! and no more of the file is held than the pieces in flight. Two things are done to the
//! bytes as they arrive, before the grammar sees them, keeping line numbers as they are:
//! lone `\r` line ends (old Mac files) are made `\n` (the grammar ends a `#` comment only at
//! `\n`), and a UTF-8 byte-order mark that starts a line (a file's own, or each file's of a
//! `cat`) is dropped: a mark is invisible, and a row, comment or blank line reads the same
//! with or without one. The file's size and checksum are of the bytes as read.

use std::io::{self, Read};

/// The byte-order mark, as UTF-8.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The grammar every dataset is read with: RFC 4180 CSV (`,` between fields, `"` around a
/// field that holds `,`, `"` (written `""`) or a line end), records ending at `\n` or
/// `\r\n`, lines that start with `#` skipped, any number of fields a record. Blank lines
/// are skipped by the DFA; a line of spaces is a record of one field, skipped by its reader.
pub(crate) fn grammar() -> csv_core::Reader {
    csv_core::ReaderBuilder::new().comment(Some(b'#')).build()
}

/// What the grammar did with some bytes.
enum Step {
    /// It ended a record after this many bytes.
    Record(usize),
    /// It read them all without ending a record.
    Open,
    /// The text had ended, and no record was left in it.
    End,
}

/// Runs `dfa` over `input` until it ends a record or the input is used up (with `at_end`,
/// the input is the rest of the text, so a last record without a line end ends with it).
/// The fields' text goes to `out` and their ends to `ends`, grown as needed; with `keep`
/// false the text is not kept (`out` and `ends` are scratch space). Returns what happened,
/// and the bytes and fields written.
fn step(
    dfa: &mut csv_core::Reader,
    input: &[u8],
    (out, ends): (&mut Vec<u8>, &mut Vec<usize>),
    keep: bool,
    at_end: bool,
) -> (Step, usize, usize) {
    use csv_core::ReadRecordResult as R;
    let (mut read, mut wrote, mut fields) = (0, 0, 0);
    loop {
        let (res, nin, nout, nend) =
            dfa.read_record(&input[read..], &mut out[wrote..], &mut ends[fields..]);
        read += nin;
        if keep {
            wrote += nout;
        }
        fields += nend;
        match res {
            R::Record => return (Step::Record(read), wrote, fields),
            R::End => return (Step::End, wrote, fields),
            R::InputEmpty if !at_end => return (Step::Open, wrote, fields),
            // Called again with no input, the grammar takes it as the text's end.
            R::InputEmpty => {}
            R::OutputFull if keep => out.resize(2 * out.len().max(64), 0),
            R::OutputFull => {}
            R::OutputEndsFull if keep => ends.resize(2 * ends.len().max(8), 0),
            R::OutputEndsFull => fields = 0,
        }
    }
}

/// Whether `tail`, the bytes after a file's last record end, stops inside a quoted field:
/// fed a line end after it, the grammar ends a record only outside one (or it was between
/// records, or in a comment); fed a quote then a line end, only inside one (the quote
/// closes it). (`csv_core::Reader`'s `Clone` does not copy its tables: it is read anew.)
fn in_quoted_field(tail: &[u8]) -> bool {
    let ends = |probe: &[u8]| {
        let mut dfa = grammar();
        let (mut out, mut ends) = (vec![0; 256], vec![0; 32]);
        [tail, probe].iter().any(|bytes| {
            let scratch = (&mut out, &mut ends);
            matches!(
                step(&mut dfa, bytes, scratch, false, false).0,
                Step::Record(_)
            )
        })
    };
    !ends(b"\n") && ends(b"\"\n")
}

/// A dataset read as a stream of pieces.
pub(crate) struct Pieces<R> {
    input: R,
    /// Bytes read and not yet handed out; `buf[..scanned]` is read by `dfa`.
    buf: Vec<u8>,
    scanned: usize,
    dfa: csv_core::Reader,
    /// Whether `dfa` has read bytes since the last record's end (false: it is at a line's
    /// start, outside every record).
    open: bool,
    /// The end of the last whole record in `buf[..scanned]` (0: none yet).
    cut: usize,
    /// Whether `buf[0]` starts a line.
    line_start: bool,
    eof: bool,
    /// The FNV-1a 64-bit hash of the bytes read so far, and how many.
    hash: crate::util::Fnv1a64,
    bytes: usize,
    /// The stream ended inside a quoted field (known once the last piece is handed out).
    unclosed: bool,
    /// Scratch space for the grammar's output, which cutting does not keep.
    scratch: (Vec<u8>, Vec<usize>),
}

impl<R: Read> Pieces<R> {
    pub(crate) fn new(input: R) -> Pieces<R> {
        Pieces {
            input,
            buf: Vec::new(),
            scanned: 0,
            dfa: grammar(),
            open: false,
            cut: 0,
            line_start: true,
            eof: false,
            hash: crate::util::Fnv1a64::default(),
            bytes: 0,
            unclosed: false,
            scratch: (vec![0; 256], vec![0; 32]),
        }
    }

    /// The next piece: whole records, about `size` bytes or more (a record longer than that
    /// is one piece), or `None` at the end of the stream.
    ///
    /// # Errors
    /// A read that fails.
    pub(crate) fn next(&mut self, size: usize) -> io::Result<Option<Vec<u8>>> {
        loop {
            if self.cut > 0 && (self.buf.len() >= size || self.eof) {
                break;
            }
            if self.eof {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                self.unclosed = self.open && in_quoted_field(&self.buf[self.cut..]);
                self.cut = self.buf.len();
                break;
            }
            self.fill(size.clamp(1 << 12, 1 << 22))?;
            self.scan();
        }
        let rest = self.buf.split_off(self.cut);
        let piece = std::mem::replace(&mut self.buf, rest);
        self.line_start = piece.last() == Some(&b'\n');
        self.scanned -= self.cut;
        self.cut = 0;
        Ok(Some(piece))
    }

    /// Reads up to `more` bytes, hashing them, making lone `\r`s `\n` and dropping the
    /// byte-order marks that start a line.
    fn fill(&mut self, more: usize) -> io::Result<()> {
        let old = self.buf.len();
        self.buf.resize(old + more, 0);
        let n = loop {
            match self.input.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        self.eof = n == 0;
        self.hash.update(&self.buf[old..]);
        self.bytes += n;
        // A `\r` is lone when the next byte is not `\n`; the last byte's next is unknown
        // until more is read (or the stream ends).
        let b = &mut self.buf;
        let mut at = old.saturating_sub(1);
        while let Some(k) = memchr::memchr(b'\r', &b[at..]) {
            let i = at + k;
            if b.get(i + 1).map_or(self.eof, |&c| c != b'\n') {
                b[i] = b'\n';
            }
            at = i + 1;
        }
        // A mark cut short at the end of the last read is whole now, or is no mark.
        let from = old.saturating_sub(BOM.len() - 1).max(self.scanned);
        if memchr::memmem::find(&self.buf[from..], BOM).is_some() {
            let b = &mut self.buf;
            let mut prev = match from {
                0 if self.line_start => b'\n',
                0 => 0,
                _ => b[from - 1],
            };
            let (mut r, mut w) = (from, from);
            while r < b.len() {
                if prev == b'\n' && b[r..].starts_with(BOM) {
                    r += BOM.len();
                    continue;
                }
                prev = b[r];
                b[w] = prev;
                (r, w) = (r + 1, w + 1);
            }
            b.truncate(w);
        }
        Ok(())
    }

    /// How many bytes at the end of `buf` the grammar must not read yet: a last `\r`, which
    /// may yet become `\n`, or the start of a byte-order mark that may start a line.
    fn held(&self) -> usize {
        if self.eof {
            return 0;
        }
        let b = &self.buf;
        if b.last() == Some(&b'\r') {
            return 1;
        }
        (1..BOM.len())
            .find(|&k| {
                b.len() >= k
                    && b[b.len() - k..] == BOM[..k]
                    && (if b.len() == k {
                        self.line_start
                    } else {
                        b[b.len() - k - 1] == b'\n'
                    })
            })
            .unwrap_or(0)
    }

    /// Reads the new bytes for record ends.
    fn scan(&mut self) {
        let end = self.buf.len() - self.held();
        let mut at = self.scanned;
        while at < end {
            // Between records, bytes without a quote are lines: each `\n` ends a record, a
            // comment or a blank line, so the grammar need only read what follows the last
            // one before a quote.
            if !self.open {
                let rest = &self.buf[at..end];
                let quote = memchr::memchr(b'"', rest).unwrap_or(rest.len());
                if let Some(k) = memchr::memrchr(b'\n', &rest[..quote]) {
                    at += k + 1;
                    self.cut = at;
                    if at == end {
                        break;
                    }
                }
            }
            let (out, ends) = &mut self.scratch;
            match step(&mut self.dfa, &self.buf[at..end], (out, ends), false, false).0 {
                Step::Record(n) => {
                    at += n;
                    // A record that ends at `\r` of `\r\n`: the piece takes the `\n` too.
                    if self.buf[at - 1] == b'\r' && self.buf.get(at) == Some(&b'\n') {
                        at += 1;
                    }
                    self.dfa.reset();
                    self.cut = at;
                    self.open = false;
                }
                Step::Open | Step::End => {
                    self.open = true;
                    at = end;
                }
            }
        }
        self.scanned = end.max(self.scanned);
    }

    /// The stream's size in bytes and the FNV-1a 64-bit hash of its bytes, as 16 hex digits
    /// (complete once [`Pieces::next`] has returned `None`).
    pub(crate) fn checksum(&self) -> (usize, String) {
        (self.bytes, self.hash.hex())
    }

    /// Whether the stream ended inside a quoted field that was never closed.
    pub(crate) fn unclosed(&self) -> bool {
        self.unclosed
    }
}

/// The records of a piece's text, in order, each with its line: the grammar's reading of
/// the text, with the fields of the current record at hand ([`Records::field`]).
pub(crate) struct Records<'t> {
    text: &'t str,
    /// Where the next record is looked for.
    at: usize,
    /// The line of `text[from]`, where the grammar started (it counts the `\n`s it reads).
    first: u64,
    dfa: csv_core::Reader,
    /// The current record's fields: their text (as the grammar wrote it) and ends.
    out: Vec<u8>,
    ends: Vec<usize>,
    fields: usize,
    /// Where the current record starts in `text`, when its fields are the text's own bytes
    /// (no quote in it: the grammar only dropped the commas between them).
    plain: Option<usize>,
}

impl<'t> Records<'t> {
    /// The records of `text[from..]`, where `text[from]` is on line `line` of its file.
    pub(crate) fn new(text: &'t str, from: usize, line: u64) -> Records<'t> {
        Records {
            text,
            at: from,
            first: line,
            dfa: grammar(),
            out: vec![0; 256],
            ends: vec![0; 16],
            fields: 0,
            plain: None,
        }
    }

    /// Moves to the next record (blank and comment lines skipped): its line, or `None` at
    /// the end of the text.
    pub(crate) fn next_record(&mut self) -> Option<u64> {
        let b = self.text.as_bytes();
        // The record starts after the blank and comment lines the grammar skips first.
        let start = match b.get(self.at) {
            Some(b'\r' | b'\n' | b'#') => record_start(b, self.at),
            _ => self.at,
        };
        let line = self.line() + lines_in(&b[self.at..start]);
        let scratch = (&mut self.out, &mut self.ends);
        let (stepped, _, fields) = step(&mut self.dfa, &b[self.at..], scratch, true, true);
        let Step::Record(read) = stepped else {
            self.at = b.len();
            return None;
        };
        self.at += read;
        self.fields = fields;
        let bytes = &b[start..self.at];
        self.plain =
            (memchr::memchr(b'"', bytes).is_none() && !bytes.starts_with(BOM)).then_some(start);
        Some(line)
    }

    /// The current record's number of fields.
    pub(crate) fn len(&self) -> usize {
        self.fields
    }

    /// The current record's field `i`, if it has one. (A field is a run of the text's UTF-8
    /// with quotes taken out, so it is UTF-8 too.)
    pub(crate) fn field(&self, i: usize) -> Option<&str> {
        if i >= self.fields {
            return None;
        }
        let from = if i == 0 { 0 } else { self.ends[i - 1] };
        match self.plain {
            // Field `i` follows `i` commas.
            Some(start) => self.text.get(start + from + i..start + self.ends[i] + i),
            None => std::str::from_utf8(&self.out[from..self.ends[i]]).ok(),
        }
    }

    /// The line of [`Records::position`].
    pub(crate) fn line(&self) -> u64 {
        self.first + self.dfa.line() - 1
    }

    /// Where the grammar stopped: the byte after the last record read.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    /// Moves to `at`, a byte of the text where a record starts (outside quotes) on line
    /// `line`: the next record read is the one there.
    pub(crate) fn seek(&mut self, at: usize, line: u64) {
        self.dfa.reset();
        self.at = at;
        self.first = line;
    }
}

/// The rows of `b[from..]`, a text with no `"` (so that each record is one line): for each,
/// where it starts and how many line ends come before it from `from`. A line is not a row
/// when it is empty, a `#` comment, or ASCII spaces only: the lines the grammar skips, and
/// the blank records the dataset's reader skips.
pub(crate) fn row_lines(b: &[u8], from: usize) -> impl Iterator<Item = (usize, u64)> + '_ {
    let (mut at, mut line) = (from, 0u64);
    std::iter::from_fn(move || loop {
        if at >= b.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |k| at + k);
        let (start, on) = (at, line);
        (at, line) = (end + 1, line + 1);
        // Every `\r` left ends a line as the first of `\r\n` (lone ones were made `\n`).
        let text = b[start..end].strip_suffix(b"\r").unwrap_or(&b[start..end]);
        if !(text.first() == Some(&b'#') || text.trim_ascii().is_empty()) {
            return Some((start, on));
        }
    })
}

/// How many rows `b` holds, a piece of a file after its header (records that are not
/// blank: as [`Records`] and the dataset's reader count them, without keeping their
/// fields). A piece without a quote is counted line by line.
pub(crate) fn rows_in(b: &[u8]) -> usize {
    if memchr::memchr(b'"', b).is_none() {
        return row_lines(b, 0).count();
    }
    let mut dfa = grammar();
    let (mut out, mut ends) = (vec![0; 256], vec![0; 16]);
    let (mut at, mut rows) = (0, 0);
    loop {
        let (stepped, wrote, fields) = step(&mut dfa, &b[at..], (&mut out, &mut ends), true, true);
        let Step::Record(read) = stepped else {
            return rows;
        };
        at += read;
        if !(fields == 1 && out[..wrote].trim_ascii().is_empty()) {
            rows += 1;
        }
    }
}

/// The number of line ends in `bytes` (lone `\r`s were made `\n` as the file was read).
pub(crate) fn lines_in(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Where a record really starts, from `at`: after the line ends and the comment lines the
/// grammar skips before it.
fn record_start(b: &[u8], at: usize) -> usize {
    let mut i = at.min(b.len());
    loop {
        while i < b.len() && (b[i] == b'\r' || b[i] == b'\n') {
            i += 1;
        }
        if i < b.len() && b[i] == b'#' {
            i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            continue;
        }
        return i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of `text`, of about `size` bytes, from a reader that hands out at most 7
    /// bytes a read.
    fn pieces(text: &[u8], size: usize) -> (Vec<Vec<u8>>, bool) {
        struct Slow<'a>(&'a [u8]);
        impl Read for Slow<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = out.len().min(self.0.len()).min(7);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut p = Pieces::new(Slow(text));
        let mut out = Vec::new();
        while let Some(piece) = p.next(size).unwrap() {
            out.push(piece);
        }
        assert_eq!(p.checksum().0, text.len());
        (out, p.unclosed())
    }

    #[test]
    fn pieces_end_only_where_a_record_ends() {
        let text = b"id,start\r\na,\"1 2\n3\"\r\n# say \"hi\nb,x\"y\nc,\"q\"\"\n\"\n\rd,1\re,2";
        let (got, unclosed) = pieces(text, 1);
        assert!(!unclosed);
        // Every record end outside quotes and comments; the `\n`s inside the quoted fields
        // (after `1 2` and after `q""`) are not among them.
        let ends = [10, 21, 31, 37, 46, 47, 51];
        let mut at = 0;
        for p in &got[..got.len() - 1] {
            at += p.len();
            assert!(ends.contains(&at), "a piece ends at byte {at}: {got:?}");
        }
        assert!(got.len() >= 6, "{got:?}");
        // Bytes, hash and all: the pieces put together are the text with lone `\r`s made `\n`.
        let lone: Vec<u8> =
            b"id,start\r\na,\"1 2\n3\"\r\n# say \"hi\nb,x\"y\nc,\"q\"\"\n\"\n\nd,1\ne,2".to_vec();
        assert_eq!(got.concat(), lone);
        let mut p = Pieces::new(&text[..]);
        while p.next(5).unwrap().is_some() {}
        assert_eq!(p.checksum().1, crate::util::fnv1a64(text));
    }

    #[test]
    fn a_quote_never_closed_is_one_last_piece() {
        let (got, unclosed) = pieces(b"id,start\na,\"1 2 3\nb,4\n", 1);
        assert_eq!(got.len(), 2);
        assert!(unclosed);
    }
}
