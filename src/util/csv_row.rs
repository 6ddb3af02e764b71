//! A CSV row writer for the hot paths (cases.csv and the journal).

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
pub(crate) struct CsvRow<'a> {
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
    pub(crate) fn new(out: &'a mut Vec<u8>) -> CsvRow<'a> {
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
    pub(crate) fn field(&mut self, f: impl AsRef<[u8]>) {
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
    pub(crate) fn plain(&mut self, f: impl AsRef<[u8]>) {
        let f = f.as_ref();
        debug_assert!(
            !f.iter().any(|&b| NEEDS_QUOTES[b as usize]),
            "a plain CSV field that needs quotes: {:?}",
            String::from_utf8_lossy(f)
        );
        self.sep();
        self.raw(f);
    }

    /// Appends several fields at once, given as CSV already (joined by commas, quoted where
    /// a field needs it, as [`CsvRow::field`] writes them): cells made once and written on
    /// every row.
    #[inline(always)]
    pub(crate) fn fields_written(&mut self, csv: &[u8]) {
        self.sep();
        self.raw(csv);
    }

    /// Appends a whole number in decimal, written in place (as `itoa` writes it).
    #[inline(always)]
    pub(crate) fn number(&mut self, v: u64) {
        self.sep();
        self.digits(v);
    }

    /// Appends a signed whole number (`-` before a negative one's digits).
    #[inline(always)]
    pub(crate) fn signed(&mut self, v: i64) {
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
    pub(crate) fn maybe(&mut self, v: Option<u64>) {
        match v {
            Some(v) => self.number(v),
            None => self.sep(),
        }
    }

    /// Appends a ratio given in ten-thousandths (`11053` → `1.1053`, `15000` → `1.5`,
    /// `10000` → `1`), or an empty field for none.
    #[inline]
    pub(crate) fn ratio(&mut self, v: Option<u64>) {
        let Some(q) = v else {
            return self.sep();
        };
        self.number(q / 10_000);
        let (digits, n) = fraction_digits(q);
        if n > 0 {
            self.raw(b".");
            self.raw(&digits[..n]);
        }
    }

    /// Appends a flag: `true`, `false`, or an empty field for none.
    #[inline(always)]
    pub(crate) fn flag(&mut self, v: Option<bool>) {
        self.plain(match v {
            Some(true) => "true",
            Some(false) => "false",
            None => "",
        });
    }

    /// Appends a field whose text, at most `room` bytes that cannot need quotes (as
    /// [`CsvRow::plain`]), `fill` writes in place into the slice it is given, returning
    /// how many bytes it wrote.
    #[inline(always)]
    pub(crate) fn plain_in_place(&mut self, room: usize, fill: impl FnOnce(&mut [u8]) -> usize) {
        self.sep();
        if self.room(room) {
            let n = fill(&mut self.buf[self.n..self.n + room]);
            self.n += n.min(room);
        } else {
            let mut own = vec![0; room];
            let n = fill(&mut own);
            self.out.extend_from_slice(&own[..n.min(room)]);
        }
    }

    /// Ends the row (`\n`) and appends it to `out`.
    pub(crate) fn end(mut self) {
        self.raw(b"\n");
        self.flush();
    }
}

/// The decimals of a number of ten-thousandths, trailing zeros dropped (`11050` → `105`).
/// The four decimals of `q / 10_000` without their trailing zeros: the digits and how many.
fn fraction_digits(q: u64) -> ([u8; 4], usize) {
    let mut f = q % 10_000;
    let mut digits = [b'0'; 4];
    for d in digits.iter_mut().rev() {
        *d = b'0' + (f % 10) as u8;
        f /= 10;
    }
    let n = digits.iter().rposition(|&d| d != b'0').map_or(0, |i| i + 1);
    (digits, n)
}

/// A ratio given in ten-thousandths as [`CsvRow::ratio`] writes it: `1.1053`, `1.5`, `1`.
pub(crate) fn ratio_text(q: u64) -> String {
    let (digits, n) = fraction_digits(q);
    let frac = std::str::from_utf8(&digits[..n]).unwrap_or_default();
    if frac.is_empty() {
        (q / 10_000).to_string()
    } else {
        format!("{}.{frac}", q / 10_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Rng;

    /// `number`, `signed` and `maybe` write what `itoa` writes, at every length from 1 to
    /// 20 digits (each power of ten and the number below it), and rows longer than the
    /// buffer they are gathered in come out whole, as the csv crate writes them.
    /// A ratio's text is the number the ten-thousandths make, shortest: parsed back it is
    /// `q / 10_000` exactly, it has no trailing zero after a point, and `ratio` writes the
    /// same text as a field.
    #[test]
    fn ratios_are_written_exactly_and_shortest() {
        let mut rng = Rng::new(7);
        let mut qs: Vec<u64> = vec![0, 1, 10, 100, 1000, 9999, 10_000, 10_001, 11_053, 15_000];
        qs.extend((0..2000).map(|_| rng.below(10_000_000)));
        for q in qs {
            let text = ratio_text(q);
            let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
            assert_eq!(whole.parse::<u64>().unwrap(), q / 10_000, "{q}: {text}");
            assert!(frac.len() <= 4 && !frac.ends_with('0'), "{q}: {text}");
            let frac_value = format!("{frac:0<4}").parse::<u64>().unwrap();
            assert_eq!(frac_value, q % 10_000, "{q}: {text}");
            let mut out = Vec::new();
            let mut row = CsvRow::new(&mut out);
            row.ratio(Some(q));
            row.end();
            assert_eq!(String::from_utf8(out).unwrap(), format!("{text}\n"), "{q}");
        }
    }

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
}
