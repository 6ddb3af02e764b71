//! Cache files: one table a file, a text header, the packed entries, a checksum.
//!
//! ```text
//! TBPDB03\n
//! 4x4 0 [8, 9, 10, 11, 12, 13, 14, 15] 518918400\n     shape, goal blank, tiles, entries
//! <entries / 2 bytes, rounded up>
//! <16 hex digits: checksum of those bytes>
//! ```

use super::table::PatternTable;
use crate::puzzle::Shape;
use std::io::{BufRead, Read, Write as _};
use std::path::{Path, PathBuf};

const MAGIC: &str = "TBPDB03";

/// Where tables are cached: `--pdb-dir`, else `$TILEBENCH_PDB_DIR`, else
/// `$XDG_CACHE_HOME/tilebench/pdb`, else `~/.cache/tilebench/pdb`.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TILEBENCH_PDB_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("tilebench/pdb");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache/tilebench/pdb");
    }
    PathBuf::from("results/pdb")
}

/// The cache file's name for the table of `tiles` on a goal with its blank at `blank`:
/// `4x4-blank15-tiles1_2_3_4_5_6_7.pdb`.
pub fn file_name(shape: Shape, blank: usize, tiles: &[u8]) -> String {
    let names: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    format!("{shape}-blank{blank}-tiles{}.pdb", names.join("_"))
}

fn header(shape: Shape, blank: usize, tiles: &[u8], entries: u64) -> String {
    format!("{MAGIC}\n{shape} {blank} {tiles:?} {entries}\n")
}

/// A 64-bit checksum of a table, four FNV-1a lanes over 8-byte words (a byte-at-a-time
/// FNV-1a took 0.4 s over the 8-tile table; this takes a tenth of that).
pub fn checksum(bytes: &[u8]) -> u64 {
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

/// Reads a cached table, or says why it cannot be used (the caller rebuilds it).
///
/// # Errors
/// A file that cannot be opened or read, an empty or truncated file (an interrupted write), a
/// header of another version or another table, or a checksum that does not match.
pub fn read(
    path: &Path,
    shape: Shape,
    blank: usize,
    home: &[u8],
    tiles: &[u8],
) -> Result<PatternTable, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let bytes = file.metadata().map_err(|e| e.to_string())?.len();
    if bytes == 0 {
        return Err("the file is empty (0 bytes), probably left by an interrupted write".into());
    }
    let mut r = std::io::BufReader::with_capacity(1 << 16, file);
    let len = PatternTable::packed_len(shape, tiles.len());
    let want = header(
        shape,
        blank,
        tiles,
        super::index::placements(shape.cells(), tiles.len()),
    );
    let mut got = String::new();
    for _ in 0..2 {
        r.read_line(&mut got).map_err(|e| e.to_string())?;
    }
    if !got.starts_with(MAGIC) {
        return Err(if MAGIC.starts_with(got.as_str()) {
            format!("the file is truncated ({bytes} bytes, within its header), probably by an interrupted write")
        } else {
            "not a table of this tilebench version".into()
        });
    }
    if !got.ends_with('\n') || got.lines().count() < 2 {
        return Err(format!(
            "the file is truncated ({bytes} bytes, within its header), probably by an interrupted write"
        ));
    }
    if got != want {
        return Err(format!(
            "its header is for another table (`{}`, where this one is `{}`)",
            got.trim().replace('\n', " "),
            want.trim().replace('\n', " ")
        ));
    }
    let mut packed = vec![0u8; len as usize];
    r.read_exact(&mut packed).map_err(|_| {
        format!("the file is truncated ({bytes} bytes, shorter than its header says), probably by an interrupted write")
    })?;
    let mut sum = String::new();
    r.read_to_string(&mut sum)
        .map_err(|_| "the checksum at its end is not text".to_string())?;
    if sum != format!("{:016x}", checksum(&packed)) {
        return Err("its checksum does not match its entries (the file is damaged)".into());
    }
    Ok(PatternTable::new(shape, home, tiles, packed))
}

/// Writes a table atomically with [`crate::util::atomic_write`] (a temporary file beside it,
/// renamed into place, and removed on any error), creating the directory.
///
/// # Errors
/// The directory cannot be created (a file in the way, no permission) or the table cannot be
/// written (a full disk, a file size limit): a sentence that says which and what to do.
pub fn write(path: &Path, shape: Shape, blank: usize, t: &PatternTable) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_dir(dir)?;
    }
    crate::util::atomic_write(path, |f| {
        f.write_all(header(shape, blank, &t.tiles, t.len()).as_bytes())?;
        f.write_all(t.packed())?;
        write!(f, "{:016x}", checksum(t.packed()))
    })
}

/// Creates the cache directory, naming a file that stands in the way.
fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        match dir.ancestors().find(|a| a.exists() && !a.is_dir()) {
            Some(f) if f == dir => format!(
                "{} is a file, not a directory; give a directory as --pdb-dir",
                dir.display()
            ),
            Some(f) => format!(
                "cannot create the directory {}: {} is a file, not a directory; give another \
                 --pdb-dir",
                dir.display(),
                f.display()
            ),
            None => format!("cannot create the directory {}: {e}", dir.display()),
        }
    })
}

/// Removes the temporary files that builds of processes no longer running left in `dir` (a
/// kill or a full disk mid-write): `.NAME.pdb.tmp-PID`, and `NAME.tmpPID` of earlier
/// versions. Files of running processes (a build in progress) are kept. Returns the names
/// removed, sorted.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = temporary_pid(&name)?;
            let stale = pid != std::process::id() && !process_alive(pid);
            (stale && std::fs::remove_file(e.path()).is_ok()).then_some(name)
        })
        .collect();
    removed.sort();
    removed
}

/// The id of the process that writes the table temporary file `name`, if it is one.
fn temporary_pid(name: &str) -> Option<u32> {
    let digits = match name.strip_prefix('.') {
        Some(rest) => rest.rsplit_once(".pdb.tmp-")?.1,
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
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // Signal 0 only checks: ESRCH is "no such process"; EPERM, another user's process.
    // SAFETY: kill with signal 0 sends nothing.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Whether a process with this id is running: unknown here, so assumed (files are kept).
#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_give_their_process() {
        assert_eq!(temporary_pid(".4x4-blank0-tiles1_2_3.pdb.tmp-4242"), Some(4242));
        assert_eq!(temporary_pid("4x4-blank0-tiles1_2_3.tmp17"), Some(17));
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
