//! Writing files durably.

use super::{crash_point, io_reason};

/// Writes a file atomically: into a temporary file beside it, synced, then renamed over
/// `path`. Readers see the old file or the whole new one, never half of one, even after a
/// crash or a power loss.
///
/// # Errors
/// The temporary file cannot be created, filled (`fill`'s error), synced or renamed: a
/// [`WriteError`] naming `path`; the temporary file is removed.
pub fn atomic_write(
    path: &std::path::Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), WriteError> {
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
    result.map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        WriteError {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// A file [`atomic_write`] could not write: "cannot write PATH: REASON", the reason in words
/// (not "os error 28").
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {}", .path.display(), io_reason(.source))]
pub struct WriteError {
    path: std::path::PathBuf,
    source: std::io::Error,
}

impl WriteError {
    /// The file that was being written.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// What the system said.
    pub fn io_error(&self) -> &std::io::Error {
        &self.source
    }
}

/// The library's functions that still report a sentence take this one as it reads.
impl From<WriteError> for String {
    fn from(e: WriteError) -> String {
        e.to_string()
    }
}

/// Asks the kernel to start writing `file`'s dirty pages to the disk now, without waiting
/// for them (Linux's `sync_file_range(SYNC_FILE_RANGE_WRITE)`): a large file written a part
/// at a time is then mostly on the disk when it is synced, and the sync at its end (which
/// the run waits for) has less left to do. Only a hint: it changes no data and no ordering,
/// does nothing elsewhere, and leaves errors to the sync.
pub(crate) fn start_writeback(file: &std::fs::File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: a descriptor of an open file; the call only schedules writeback.
        unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A write into a missing directory fails naming the file and the reason in words; no
    /// temporary file is left.
    #[test]
    fn a_failed_write_names_its_file_and_reason() {
        let dir = std::env::temp_dir().join(format!("tilebench-aw-{}", std::process::id()));
        let path = dir.join("missing").join("out.csv");
        let e = atomic_write(&path, |w| std::io::Write::write_all(w, b"x")).unwrap_err();
        assert_eq!(e.path(), path.as_path());
        assert_eq!(e.io_error().kind(), std::io::ErrorKind::NotFound);
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("cannot write {}: ", path.display())),
            "{text}"
        );
        assert!(!text.contains("os error"), "{text}");

        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        let e = atomic_write(&path, |_| Err(std::io::Error::other("the fill failed"))).unwrap_err();
        assert_eq!(e.io_error().to_string(), "the fill failed");
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "a temporary file was left"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
