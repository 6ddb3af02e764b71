//! Checksums of files: FNV-1a (input files), XXH3 (cases.csv), and readers and writers that
//! hash what passes through.

/// FNV-1a, 64 bits, as hex: a checksum of input files for run.json.
#[cfg(test)]
pub(crate) fn fnv1a64(bytes: &[u8]) -> String {
    let mut h = Fnv1a64::default();
    h.update(bytes);
    h.hex()
}

/// `fnv1a64` fed piece by piece, for bytes that are written as they are made.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Fnv1a64 {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a64 {
    /// Adds `bytes` to the hash.
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    /// The hash of everything added so far.
    pub(crate) fn value(&self) -> u64 {
        self.0
    }
    /// The hash of everything added so far, as 16 hex digits.
    pub(crate) fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// XXH3, 64 bits, as hex: the checksum of a run's cases.csv for run.json (`cases_xxh3_64`).
/// Fast enough to take as the file is written: FNV-1a's multiply per byte was a tenth of a
/// million-row run's time.
#[cfg(test)]
pub(crate) fn xxh3_64(bytes: &[u8]) -> String {
    let mut h = Xxh3::default();
    h.update(bytes);
    h.hex()
}

/// [`xxh3_64`] fed piece by piece.
#[derive(Clone, Default)]
pub(crate) struct Xxh3(xxhash_rust::xxh3::Xxh3Default);

impl std::fmt::Debug for Xxh3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Xxh3({})", self.hex())
    }
}

/// The checksum a run.json recorded for its cases.csv: XXH3 (`cases_xxh3_64`), or FNV-1a
/// (`cases_fnv1a64`) in runs made on 2026-12-04 and 12-05 before XXH3.
#[derive(Clone, Debug)]
pub(crate) enum FileSum {
    /// `cases_xxh3_64` (boxed: XXH3's state is 600 bytes, FNV-1a's 8).
    Xxh3(Box<Xxh3>),
    /// `cases_fnv1a64`.
    Fnv1a64(Fnv1a64),
}

impl FileSum {
    /// The sum of cases.csv a run recorded (`xxh3`, else `fnv`), with a fresh hash of that
    /// kind to check it against: `None` when it recorded neither.
    pub(crate) fn recorded(xxh3: Option<&str>, fnv: Option<&str>) -> Option<(String, FileSum)> {
        match (xxh3, fnv) {
            (Some(x), _) => Some((x.to_string(), FileSum::Xxh3(Box::default()))),
            (None, Some(f)) => Some((f.to_string(), FileSum::Fnv1a64(Fnv1a64::default()))),
            (None, None) => None,
        }
    }
}

impl Default for FileSum {
    fn default() -> FileSum {
        FileSum::Xxh3(Box::default())
    }
}

impl FileSum {
    /// The hash of everything added so far, as 16 hex digits.
    pub(crate) fn hex(&self) -> String {
        match self {
            FileSum::Xxh3(h) => h.hex(),
            FileSum::Fnv1a64(h) => h.hex(),
        }
    }
}

impl Sum for FileSum {
    fn update(&mut self, bytes: &[u8]) {
        match self {
            FileSum::Xxh3(h) => h.update(bytes),
            FileSum::Fnv1a64(h) => h.update(bytes),
        }
    }
}

/// A checksum fed piece by piece.
pub(crate) trait Sum: Default {
    /// Adds `bytes` to the hash.
    fn update(&mut self, bytes: &[u8]);
}

impl Sum for Fnv1a64 {
    fn update(&mut self, bytes: &[u8]) {
        Fnv1a64::update(self, bytes);
    }
}

impl Xxh3 {
    /// Adds `bytes` to the hash.
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    /// The hash of everything added so far, as 16 hex digits.
    pub(crate) fn hex(&self) -> String {
        format!("{:016x}", self.0.digest())
    }
}

impl Sum for Xxh3 {
    fn update(&mut self, bytes: &[u8]) {
        Xxh3::update(self, bytes);
    }
}

/// A reader or writer that hashes (with `H`) every byte that passes through it: a file's
/// checksum taken while it is read or written, without a second pass.
#[derive(Debug)]
pub(crate) struct Hashed<T, H = Xxh3> {
    /// The reader or writer.
    pub inner: T,
    /// The hash of the bytes read or written so far.
    pub hash: H,
}

impl<T, H: Sum> Hashed<T, H> {
    /// Hashes what passes through `inner`, from the start.
    pub(crate) fn new(inner: T) -> Hashed<T, H> {
        Hashed {
            inner,
            hash: H::default(),
        }
    }
}

impl<R: std::io::Read, H: Sum> std::io::Read for Hashed<R, H> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

impl<W: std::io::Write, H: Sum> std::io::Write for Hashed<W, H> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// XXH3's published value for no bytes, and the same hash however the bytes are cut into
    /// pieces, written or read through [`Hashed`]; FNV-1a's published value for `a`.
    #[test]
    fn sums_are_the_published_values_however_the_bytes_come() {
        assert_eq!(xxh3_64(b""), "2d06800538d394c2");
        assert_eq!(fnv1a64(b"a"), "af63dc4c8601ec8c");
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let whole = xxh3_64(&bytes);
        assert_eq!(
            whole,
            format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes))
        );
        for piece in [1, 7, 64, 240, 4096, 100_000] {
            let mut w = Hashed::<_, Xxh3>::new(Vec::new());
            for p in bytes.chunks(piece) {
                w.write_all(p).unwrap();
            }
            assert_eq!(w.inner, bytes);
            assert_eq!(w.hash.hex(), whole, "written in pieces of {piece}");
            let mut r = Hashed::<_, Fnv1a64>::new(&bytes[..]);
            let mut buf = vec![0; piece];
            while r.read(&mut buf).unwrap() > 0 {}
            assert_eq!(r.hash.hex(), fnv1a64(&bytes), "read in pieces of {piece}");
        }
    }
}
