//! Additive disjoint pattern databases (Korf & Felner, 2002).
//!
//! The tiles are split into disjoint groups. For each group a table holds, for every
//! placement of the group's tiles, the fewest moves *of those tiles* that bring them home,
//! moves of the blank through other cells being free. Since each move moves one tile, the
//! per-group costs add up to an admissible estimate that dominates Manhattan distance.
//!
//! Tables are built for canonical goals (tiles numbered in reading order around the goal's
//! blank, see [`crate::space::canonical_goal`]), so one set serves every goal with its blank
//! in the same cell: a problem's tiles are renamed on the fly. A table is built by a
//! 0-1 breadth-first search over (group placement, blank cell) from all goal placements, then
//! minimised over the blank cell. Tables are cached on disk ([`PdbStore`]) in files with a
//! header and an FNV-1a checksum, and rebuilt when missing or damaged.

use super::heuristic::Heuristic;
use crate::puzzle::{factorial, Board, Neighbors, Shape};
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// `n! / (n - k)!`: ordered placements of `k` items in `n` cells.
fn placements(n: usize, k: usize) -> u64 {
    factorial(n) / factorial(n - k)
}

/// Ranks ordered placements of `k` distinct cells out of `n` (a partial Lehmer code).
#[derive(Clone, Debug)]
struct PartialRanker {
    k: usize,
    weights: [u64; 17],
}

impl PartialRanker {
    fn new(n: usize, k: usize) -> PartialRanker {
        let mut weights = [0u64; 17];
        for (i, w) in weights.iter_mut().enumerate().take(k) {
            *w = placements(n - 1 - i, k - 1 - i);
        }
        PartialRanker { k, weights }
    }
    #[inline]
    fn rank(&self, cells: &[u8]) -> u64 {
        let mut used = 0u32;
        let mut r = 0u64;
        for (i, &c) in cells.iter().enumerate().take(self.k) {
            let below = (used & ((1u32 << c) - 1)).count_ones();
            r += (c as u32 - below) as u64 * self.weights[i];
            used |= 1 << c;
        }
        r
    }
    fn unrank(&self, mut r: u64, out: &mut [u8]) {
        let mut free: u32 = u32::MAX;
        for (i, slot) in out.iter_mut().enumerate().take(self.k) {
            let w = self.weights[i];
            let d = (r / w) as u32;
            r %= w;
            let mut f = free;
            for _ in 0..d {
                f &= f - 1;
            }
            let c = f.trailing_zeros();
            free &= !(1 << c);
            *slot = c as u8;
        }
    }
}

/// One group's table: for each placement of its tiles (in canonical tile order), the
/// fewest moves of those tiles to bring them home.
pub struct PatternTable {
    /// Canonical tile names of the group, in slot order.
    pub tiles: Vec<u8>,
    ranker: PartialRanker,
    values: Vec<u8>,
}

impl PatternTable {
    /// Builds the table for `tiles` (canonical names) of the canonical goal with the blank at `blank`.
    pub fn build(
        shape: Shape,
        blank: usize,
        tiles: &[u8],
        progress: &(dyn Fn(u64) + Sync),
    ) -> PatternTable {
        let n = shape.cells();
        let k = tiles.len();
        let goal = crate::space::canonical_goal(shape, blank);
        let home: Vec<u8> = tiles
            .iter()
            .map(|&t| {
                (0..n)
                    .find(|&p| goal.tile(p) == t)
                    .expect("tile on the board") as u8
            })
            .collect();
        let with_blank = PartialRanker::new(n, k + 1);
        let ranker = PartialRanker::new(n, k);
        let states = placements(n, k + 1) as usize;
        let mut dist = vec![u8::MAX; states];
        let mut closed = vec![0u64; states.div_ceil(64)];
        let mut values = vec![u8::MAX; placements(n, k) as usize];
        let neighbors = Neighbors::new(shape);
        let mut queue: VecDeque<u32> = VecDeque::new();
        let mut cells = [0u8; 17];
        // Sources: the group at home, the blank on any other cell.
        cells[1..=k].copy_from_slice(&home);
        for b in 0..n as u8 {
            if home.contains(&b) {
                continue;
            }
            cells[0] = b;
            let r = with_blank.rank(&cells[..=k]) as usize;
            dist[r] = 0;
            queue.push_back(r as u32);
        }
        let mut done = 0u64;
        while let Some(s) = queue.pop_front() {
            let s = s as usize;
            if closed[s / 64] & (1 << (s % 64)) != 0 {
                continue;
            }
            closed[s / 64] |= 1 << (s % 64);
            done += 1;
            if done % (1 << 22) == 0 {
                progress(done);
            }
            let d = dist[s];
            with_blank.unrank(s as u64, &mut cells);
            let v = ranker.rank(&cells[1..=k]) as usize;
            values[v] = values[v].min(d);
            let blank_cell = cells[0] as usize;
            for m in 0..4 {
                let to = neighbors.target(blank_cell, m);
                if to == Neighbors::NONE {
                    continue;
                }
                let mut next = cells;
                let slot = cells[1..=k].iter().position(|&c| c == to);
                let cost = match slot {
                    Some(j) => {
                        next[1 + j] = blank_cell as u8;
                        1
                    }
                    None => 0,
                };
                next[0] = to;
                let t = with_blank.rank(&next[..=k]) as usize;
                let nd = d + cost;
                if nd < dist[t] {
                    dist[t] = nd;
                    if cost == 0 {
                        queue.push_front(t as u32);
                    } else {
                        queue.push_back(t as u32);
                    }
                }
            }
        }
        PatternTable {
            tiles: tiles.to_vec(),
            ranker,
            values,
        }
    }

    /// The table's value for the group's cells, in slot order.
    #[inline]
    pub fn value(&self, cells: &[u8]) -> u8 {
        self.values[self.ranker.rank(cells) as usize]
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The most (placement, blank) states one table's build may visit.
pub const MAX_BUILD_STATES: u64 = 60_000_000;

/// A partition of the non-blank cells into groups, by sizes, e.g. `6-6-3`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    pub sizes: Vec<usize>,
}

impl Partition {
    /// The default partition for a shape: groups of at most 6 tiles (6-6-3 for 4x4).
    pub fn default_for(shape: Shape) -> Partition {
        let mut left = shape.cells() - 1;
        let mut sizes = Vec::new();
        while left > 0 {
            let s = left.min(6);
            sizes.push(s);
            left -= s;
        }
        Partition { sizes }
    }

    pub fn parse(s: &str, shape: Shape) -> Result<Partition, String> {
        let sizes: Vec<usize> = s
            .split('-')
            .map(|p| p.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("`{s}` is not a partition; write group sizes like 6-6-3"))?;
        let total: usize = sizes.iter().sum();
        if total != shape.cells() - 1 || sizes.contains(&0) {
            return Err(format!(
                "partition {s} covers {total} tiles, but a {shape} board has {}",
                shape.cells() - 1
            ));
        }
        // The build visits every (placement, blank cell): keep it to about 60M states (a
        // minute or so, 60 MB), which 6 tiles on 4x4 reach.
        if let Some(&big) = sizes
            .iter()
            .find(|&&g| placements(shape.cells(), g + 1) > MAX_BUILD_STATES)
        {
            return Err(format!(
                "a group of {big} tiles on a {shape} board needs a build over {} states ({:.1} GB); \
                 tilebench builds at most {MAX_BUILD_STATES} (6 tiles on 4x4)",
                placements(shape.cells(), big + 1),
                placements(shape.cells(), big + 1) as f64 / 1e9
            ));
        }
        Ok(Partition { sizes })
    }

    pub fn name(&self) -> String {
        self.sizes
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// The groups' canonical tile names for a goal with its blank at `blank`.
    ///
    /// On 4x4 with the blank in a corner, 6-6-3 and 5-5-5 use compact groups (for the blank
    /// at the bottom right: {1,2,5,6,9,10} {3,4,7,8,11,12} {13,14,15} — Korf and Felner's
    /// 6-6-3, the three-tile group in the row beside the blank's — and {1,2,3,4,7}
    /// {5,6,9,10,13} {8,11,12,14,15}), mirrored to the goal's corner. Otherwise
    /// the goal's cells in reading order (skipping the blank) are cut into consecutive runs.
    pub fn groups(&self, shape: Shape, blank: usize) -> Vec<Vec<u8>> {
        let canon = crate::space::canonical_goal(shape, blank);
        if let Some(cells) = self.layout_4x4(shape, blank) {
            return cells
                .iter()
                .map(|g| g.iter().map(|&p| canon.tile(p as usize)).collect())
                .collect();
        }
        let mut next = 1u8;
        self.sizes
            .iter()
            .map(|&s| {
                let g: Vec<u8> = (next..next + s as u8).collect();
                next += s as u8;
                g
            })
            .collect()
    }

    /// Goal cells of each group for the known 4x4 layouts, mirrored so the blank corner fits.
    fn layout_4x4(&self, shape: Shape, blank: usize) -> Option<Vec<Vec<u8>>> {
        if shape != Shape::S4X4 {
            return None;
        }
        // For the blank at cell 15.
        let layout: Vec<Vec<u8>> = match self.sizes.as_slice() {
            [6, 6, 3] => vec![
                vec![0, 1, 4, 5, 8, 9],
                vec![2, 3, 6, 7, 10, 11],
                vec![12, 13, 14],
            ],
            [5, 5, 5] => vec![
                vec![0, 1, 2, 3, 6],
                vec![4, 5, 8, 9, 12],
                vec![7, 10, 11, 13, 14],
            ],
            _ => return None,
        };
        let mirror = |p: u8| -> u8 {
            let (r, c) = (p / 4, p % 4);
            match blank {
                15 => p,
                0 => 15 - p,
                3 => (3 - r) * 4 + c,
                12 => r * 4 + (3 - c),
                _ => unreachable!(),
            }
        };
        if ![0, 3, 12, 15].contains(&blank) {
            return None;
        }
        Some(
            layout
                .iter()
                .map(|g| g.iter().map(|&p| mirror(p)).collect())
                .collect(),
        )
    }
}

/// All tables of one (shape, goal blank cell, partition).
pub struct PdbSet {
    pub shape: Shape,
    pub blank: usize,
    pub partition: Partition,
    pub tables: Vec<PatternTable>,
}

const MAGIC: &[u8; 8] = b"TBPDB01\n";

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

fn file_name(shape: Shape, blank: usize, tiles: &[u8]) -> String {
    let names: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    format!("{shape}-blank{blank}-tiles{}.pdb", names.join("_"))
}

fn read_table(
    path: &Path,
    shape: Shape,
    blank: usize,
    tiles: &[u8],
) -> Result<PatternTable, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    let n = shape.cells();
    let len = placements(n, tiles.len()) as usize;
    let header = format!("{shape} {blank} {:?} {len}\n", tiles);
    let want = MAGIC.len() + header.len() + len + 16;
    if bytes.len() != want
        || &bytes[..8] != MAGIC
        || &bytes[8..8 + header.len()] != header.as_bytes()
    {
        return Err("wrong size or header".into());
    }
    let data = &bytes[8 + header.len()..8 + header.len() + len];
    let sum = &bytes[8 + header.len() + len..];
    if crate::util::fnv1a64(data).as_bytes() != sum {
        return Err("checksum mismatch".into());
    }
    Ok(PatternTable {
        tiles: tiles.to_vec(),
        ranker: PartialRanker::new(n, tiles.len()),
        values: data.to_vec(),
    })
}

fn write_table(path: &Path, shape: Shape, blank: usize, t: &PatternTable) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let header = format!("{shape} {blank} {:?} {}\n", t.tiles, t.values.len());
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(header.as_bytes())?;
        f.write_all(&t.values)?;
        f.write_all(crate::util::fnv1a64(&t.values).as_bytes())?;
        f.flush()?;
    }
    std::fs::rename(tmp, path)
}

/// Loads or builds the tables of a partition, caching them in `dir`. Groups are built in
/// parallel; `log` receives one line per table (loaded, built, rebuilt and why).
pub fn load_or_build(
    shape: Shape,
    blank: usize,
    partition: &Partition,
    dir: &Path,
    log: &(dyn Fn(String) + Sync),
) -> PdbSet {
    use rayon::prelude::*;
    let groups = partition.groups(shape, blank);
    let tables: Vec<PatternTable> = groups
        .par_iter()
        .map(|tiles| {
            let path = dir.join(file_name(shape, blank, tiles));
            match read_table(&path, shape, blank, tiles) {
                Ok(t) => {
                    log(format!("pdb: loaded {} ({} entries)", path.display(), t.len()));
                    return t;
                }
                Err(why) if path.exists() => {
                    log(format!("pdb: {} is damaged ({why}); rebuilding", path.display()))
                }
                Err(_) => {}
            }
            let t0 = std::time::Instant::now();
            let t = PatternTable::build(shape, blank, tiles, &|_| {});
            log(format!(
                "pdb: built {}-tile table {:?} for {shape} (blank at {blank}) in {:.1} s, {} entries ({:.1} MB)",
                tiles.len(),
                tiles,
                t0.elapsed().as_secs_f64(),
                t.len(),
                t.len() as f64 / 1e6
            ));
            if let Err(e) = write_table(&path, shape, blank, &t) {
                log(format!("pdb: cannot cache {}: {e} (the table is used anyway)", path.display()));
            }
            t
        })
        .collect();
    PdbSet {
        shape,
        blank,
        partition: partition.clone(),
        tables,
    }
}

type Key = (Shape, usize, String);
type Registry = Mutex<std::collections::HashMap<Key, Arc<OnceLock<Arc<PdbSet>>>>>;

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(Default::default)
}

/// The process-wide tables for (shape, blank, partition), loaded or built once.
pub fn shared(shape: Shape, blank: usize, partition: &Partition, dir: &Path) -> Arc<PdbSet> {
    let cell = registry()
        .lock()
        .expect("pdb registry")
        .entry((shape, blank, partition.name()))
        .or_default()
        .clone();
    cell.get_or_init(|| {
        Arc::new(load_or_build(shape, blank, partition, dir, &|line| {
            eprintln!("{line}")
        }))
    })
    .clone()
}

/// The additive pattern-database heuristic for one goal.
pub struct Pdb {
    set: Arc<PdbSet>,
    /// For each tile of the problem's goal: (group, slot in the group), or (u8::MAX, _) for the blank.
    place: [(u8, u8); 16],
    n: usize,
}

impl Pdb {
    pub fn new(goal: &Board, set: Arc<PdbSet>) -> Pdb {
        let shape = goal.shape();
        let canon = crate::space::canonical_goal(shape, goal.blank());
        let mut place = [(u8::MAX, 0u8); 16];
        for p in 0..shape.cells() {
            let t = goal.tile(p);
            if t == 0 {
                continue;
            }
            let c = canon.tile(p);
            for (g, table) in set.tables.iter().enumerate() {
                if let Some(slot) = table.tiles.iter().position(|&x| x == c) {
                    place[t as usize] = (g as u8, slot as u8);
                }
            }
        }
        Pdb {
            set,
            place,
            n: shape.cells(),
        }
    }

    /// The cells of group `g`'s tiles on `b`, in slot order.
    #[inline]
    fn group_cells(&self, b: &Board, g: usize) -> [u8; 16] {
        let mut cells = [0u8; 16];
        for p in 0..self.n {
            let (pg, slot) = self.place[b.tile(p) as usize];
            if pg as usize == g {
                cells[slot as usize] = p as u8;
            }
        }
        cells
    }

    #[inline]
    fn group_value(&self, b: &Board, g: usize) -> u32 {
        let t = &self.set.tables[g];
        t.value(&self.group_cells(b, g)[..t.tiles.len()]) as u32
    }
}

impl Heuristic for Pdb {
    fn estimate(&self, b: &Board) -> u32 {
        (0..self.set.tables.len())
            .map(|g| self.group_value(b, g))
            .sum()
    }
    #[inline]
    fn update(&self, h: u32, after: &Board, tile: u8, from: usize, _to: usize) -> u32 {
        // Only the moved tile's group changes: read its cells once, then put the tile back
        // where it came from for the value before the move.
        let (g, slot) = self.place[tile as usize];
        let t = &self.set.tables[g as usize];
        let mut cells = self.group_cells(after, g as usize);
        let k = t.tiles.len();
        let now = t.value(&cells[..k]) as u32;
        cells[slot as usize] = from as u8;
        let before = t.value(&cells[..k]) as u32;
        h + now - before
    }
}

/// Process-wide settings: where tables are cached and which partition each shape uses.
#[derive(Clone, Debug, Default)]
pub struct PdbConfig {
    /// Cache directory (default: [`default_dir`]).
    pub dir: Option<PathBuf>,
    /// Partition for every shape whose cell count it fits (default: [`Partition::default_for`]).
    pub partition: Option<String>,
}

fn config() -> &'static Mutex<PdbConfig> {
    static C: OnceLock<Mutex<PdbConfig>> = OnceLock::new();
    C.get_or_init(Default::default)
}

/// Sets where tables are cached and which partition to use (the `--pdb-dir` and
/// `--pdb-partition` options). Checked against a shape when it is first used.
pub fn configure(c: PdbConfig) {
    *config().lock().expect("pdb config") = c;
}

/// The partition and cache directory in force for `shape`.
pub fn settings(shape: Shape) -> Result<(Partition, PathBuf), String> {
    let c = config().lock().expect("pdb config").clone();
    let partition = match &c.partition {
        Some(p) => Partition::parse(p, shape)?,
        None => Partition::default_for(shape),
    };
    Ok((partition, c.dir.unwrap_or_else(default_dir)))
}

/// The heuristic for `goal`, loading or building its tables on first use.
pub fn for_goal(goal: &Board) -> Result<Pdb, String> {
    let (partition, dir) = settings(goal.shape())?;
    Ok(Pdb::new(
        goal,
        shared(goal.shape(), goal.blank(), &partition, &dir),
    ))
}
