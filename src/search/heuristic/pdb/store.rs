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
use std::io::{BufRead, Read, Write};
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

/// Reads a cached table, or says why it cannot be used.
///
/// # Errors
/// A file that cannot be opened or read, a header of another version or another table, a
/// file shorter than its header says, or a checksum that does not match.
pub fn read(
    path: &Path,
    shape: Shape,
    blank: usize,
    home: &[u8],
    tiles: &[u8],
) -> Result<PatternTable, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
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
        return Err("not a table of this tilebench version".into());
    }
    if got != want {
        return Err(format!(
            "its header says {:?}, expected {:?}",
            got.trim(),
            want.trim()
        ));
    }
    let mut packed = vec![0u8; len as usize];
    r.read_exact(&mut packed)
        .map_err(|_| "the file is shorter than its header says".to_string())?;
    let mut sum = String::new();
    r.read_to_string(&mut sum)
        .map_err(|_| "the checksum is not text".to_string())?;
    if sum != format!("{:016x}", checksum(&packed)) {
        return Err("checksum mismatch".into());
    }
    Ok(PatternTable::new(shape, home, tiles, packed))
}

/// Writes a table atomically (a temporary file renamed into place), creating the directory.
///
/// # Errors
/// The directory or the temporary file cannot be created, written or renamed.
pub fn write(path: &Path, shape: Shape, blank: usize, t: &PatternTable) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(header(shape, blank, &t.tiles, t.len()).as_bytes())?;
        f.write_all(t.packed())?;
        write!(f, "{:016x}", checksum(t.packed()))?;
        f.flush()?;
    }
    std::fs::rename(tmp, path)
}
