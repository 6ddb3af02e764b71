//! Checksums of files: FNV-1a, and readers and writers that hash what passes through.

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

/// A reader or writer that hashes ([`Fnv1a64`]) every byte that passes through it: a file's
/// checksum taken while it is read or written, without a second pass.
#[derive(Debug)]
pub(crate) struct Hashed<T> {
    /// The reader or writer.
    pub inner: T,
    /// The hash of the bytes read or written so far.
    pub hash: Fnv1a64,
}

impl<T> Hashed<T> {
    /// Hashes what passes through `inner`, from the start.
    pub(crate) fn new(inner: T) -> Hashed<T> {
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
