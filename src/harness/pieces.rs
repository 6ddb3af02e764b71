//! A dataset's bytes in pieces that end where a CSV record ends, read as a stream.
//!
//! Each piece can be read by a CSV reader of its own, so the pieces of a large file are read
//! in parallel and no more of the file is held than the pieces in flight. A piece ends after
//! a line end that is outside every quoted field (a quoted field may hold line ends) and
//! outside nothing else: the scanner below follows the CSV reader's rules (a quote opens a
//! field only as its first character; `""` in a quoted field is a quote; a `#` at the start
//! of a record opens a comment that ends at `\n`).
//!
//! Lone `\r` line ends (old Mac files) are made `\n` byte for byte as the bytes arrive, so
//! offsets and line numbers stay the same: the CSV reader ends a `#` comment only at `\n`.
//! The file's size and checksum are of the bytes as read.

use std::io::{self, Read};

/// Where the scanner is, in CSV terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    /// At the start of a record (or of a blank line).
    RecordStart,
    /// At the start of a field after a comma.
    FieldStart,
    /// In a field that did not start with a quote.
    Unquoted,
    /// In a quoted field.
    Quoted,
    /// Just after a quote in a quoted field: the field's end, or the first of `""`.
    QuoteInQuoted,
    /// In a `#` comment line.
    Comment,
}

impl Scan {
    fn next(self, b: u8) -> Scan {
        use Scan::*;
        match (self, b) {
            (Comment, b'\n') => RecordStart,
            (Comment, _) => Comment,
            (Quoted, b'"') => QuoteInQuoted,
            (Quoted, _) => Quoted,
            (QuoteInQuoted, b'"') => Quoted,
            (RecordStart, b'#') => Comment,
            (RecordStart | FieldStart, b'"') => Quoted,
            (_, b',') => FieldStart,
            (_, b'\n' | b'\r') => RecordStart,
            _ => Unquoted,
        }
    }
}

/// A dataset read as a stream of pieces.
pub(crate) struct Pieces<R> {
    input: R,
    /// Bytes read and not yet handed out; `buf[..scanned]` is scanned.
    buf: Vec<u8>,
    scanned: usize,
    /// The scanner's state at `buf[scanned]`.
    state: Scan,
    /// The end of the last whole record in `buf[..scanned]` (0: none yet).
    cut: usize,
    eof: bool,
    /// The FNV-1a 64-bit hash of the bytes read so far, and how many.
    hash: crate::util::Fnv1a64,
    bytes: usize,
    /// The stream ended inside a quoted field (known once the last piece is handed out).
    unclosed: bool,
}

impl<R: Read> Pieces<R> {
    pub(crate) fn new(input: R) -> Pieces<R> {
        Pieces {
            input,
            buf: Vec::new(),
            scanned: 0,
            state: Scan::RecordStart,
            cut: 0,
            eof: false,
            hash: crate::util::Fnv1a64::default(),
            bytes: 0,
            unclosed: false,
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
                self.unclosed = matches!(self.state, Scan::Quoted);
                self.cut = self.buf.len();
                break;
            }
            self.fill(size.clamp(1 << 12, 1 << 22))?;
            self.scan();
        }
        let rest = self.buf.split_off(self.cut);
        let piece = std::mem::replace(&mut self.buf, rest);
        self.scanned -= self.cut;
        self.cut = 0;
        Ok(Some(piece))
    }

    /// Reads up to `more` bytes, hashing them and making lone `\r`s `\n`.
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
        let from = old.saturating_sub(1);
        let mut at = from;
        while let Some(k) = memchr::memchr(b'\r', &b[at..]) {
            let i = at + k;
            if b.get(i + 1).map_or(self.eof, |&c| c != b'\n') {
                b[i] = b'\n';
            }
            at = i + 1;
        }
        Ok(())
    }

    /// Scans the new bytes for record ends (not a last `\r`, which may yet become `\n`).
    fn scan(&mut self) {
        let mut end = self.buf.len();
        if !self.eof && self.buf.last() == Some(&b'\r') {
            end -= 1;
        }
        let mut from = self.scanned;
        // Without a quote in the new bytes, only a quoted field's state lasts past a line
        // end: outside one, every `\n` ends a record (a comment's too), so the scanner need
        // only run over what follows the last.
        if from < end && memchr::memchr(b'"', &self.buf[from..end]).is_none() {
            if matches!(self.state, Scan::Quoted) {
                from = end;
            } else if let Some(k) = memchr::memrchr(b'\n', &self.buf[from..end]) {
                self.cut = from + k + 1;
                self.state = Scan::RecordStart;
                from = self.cut;
            }
        }
        for i in from..end {
            let b = self.buf[i];
            self.state = self.state.next(b);
            if b == b'\n' && self.state == Scan::RecordStart {
                self.cut = i + 1;
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
