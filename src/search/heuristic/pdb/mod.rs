//! Additive disjoint pattern databases (Korf & Felner, 2002).
//!
//! The tiles are split into disjoint groups. For each group a table holds, for every
//! placement of the group's tiles, the fewest moves *of those tiles* that bring them home,
//! moves of the blank through other cells being free. Since each move moves one tile, the
//! per-group costs add up to an admissible estimate that dominates Manhattan distance.
//!
//! Tables are built for canonical goals (tiles numbered in reading order around the goal's
//! blank, see `space::canonical_goal`), so one set serves every goal with its blank
//! in the same cell: a problem's tiles are renamed on the fly. How a table is built:
//! [`build`] (a breadth-first search over placements and blank regions, 4 bits an entry).
//! Files: `store` (header, entries, checksum; mapped into memory, checked as `store::open`
//! says, rebuilt when missing or damaged, one builder at a time). Which tiles share a table: [`Partition`]. The lookups (regular, Korf
//! and Felner's reflection, the dual boards) and their maximum: [`Pdb`], [`LookupMode`].

pub mod build;
mod direct;
mod index;
mod lookup;
mod memory;
mod partition;
mod sources;
pub(crate) mod store;
mod table;

pub(crate) use direct::DirectTable;
pub(crate) use index::placements;
pub use lookup::{LookupMode, Pdb, PdbMemo};
pub use partition::{Partition, PartitionError, PartitionErrorKind};
pub(crate) use sources::Source;
pub(crate) use store::default_dir;
pub use store::{OpenError, OpenErrorKind, SaveError, SaveErrorKind};
pub(crate) use table::PatternTable;

use crate::observe::Part;
use crate::puzzle::{Board, Shape};
use crate::search::options::OptionError;
use crate::search::{Config, SolveError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// All tables of one (shape, goal blank cell, partition).
pub struct PdbSet {
    /// The board shape the tables are for.
    pub shape: Shape,
    /// The goal's blank cell; the tables serve every goal with its blank there.
    pub blank: usize,
    /// Which tiles share a table.
    pub partition: Partition,
    /// Goal cells of each group's tiles, in slot order.
    pub homes: Vec<Vec<u8>>,
    /// One table per group, in the partition's order; on boards of more than 16 cells, one
    /// per group no symmetry maps onto an earlier one ([`PdbSet::sources`]).
    pub tables: Vec<PatternTable>,
    /// Where each table came from and whether it is cached, in the tables' order.
    pub cache: Vec<Cache>,
    /// Where each group's values are read: on boards of at most 16 cells, table `g` as it
    /// is; on larger ones, maybe an earlier group's table through a symmetry of the board.
    pub sources: Vec<Source>,
    /// The tables in the direct layout, made when a search first asks ([`PdbSet::direct`]).
    direct: OnceLock<Vec<Option<DirectTable>>>,
}

/// Where a table of a [`PdbSet`] came from, and whether its cache file holds it.
#[derive(Clone, Debug)]
pub enum Cache {
    /// Mapped from its cache file.
    Loaded,
    /// Built (the file was missing or could not be used) and written to its cache file.
    Written,
    /// Built, but its cache file could not be written: why ([`store::SaveError`]: the file,
    /// and what went wrong).
    NotWritten(Arc<store::SaveError>),
}

// Two caches are alike when they say the same: a table not written for the same reason.
impl PartialEq for Cache {
    fn eq(&self, other: &Cache) -> bool {
        match (self, other) {
            (Cache::NotWritten(a), Cache::NotWritten(b)) => a.to_string() == b.to_string(),
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
        }
    }
}
impl Eq for Cache {}

impl PdbSet {
    /// Bytes of all tables in memory.
    pub fn bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.packed().len() as u64).sum()
    }

    /// The tables in the direct layout ([`DirectTable`]), expanded in parallel on the first
    /// call: `None` for a table too large for it. For boards of more than 16 cells only.
    pub(crate) fn direct(&self) -> &[Option<DirectTable>] {
        use rayon::prelude::*;
        self.direct.get_or_init(|| {
            let n = self.shape.cells();
            self.tables
                .par_iter()
                .map(|t| DirectTable::expand(t.packed(), n, t.tiles.len()))
                .collect()
        })
    }
}

/// The symmetries of the board (cell maps that keep adjacency: `map[cell]`), the identity
/// first, then those that are their own inverses (the diagonals of a square first).
pub(crate) fn symmetry_maps(shape: Shape) -> Vec<Vec<u8>> {
    lookup::symmetry_maps(shape)
}

/// A group's tiles as messages write them: `1, 2, 3`.
fn tile_list(tiles: &[u8]) -> String {
    tiles
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Loads or builds the tables of a partition, caching them in `dir`. Groups are built in
/// parallel, each reporting its progress to `observer`, which also gets one line per table
/// (loaded, built, rebuilt and why, not cached and why). Temporary files that builds of
/// processes no longer running left in `dir` are removed first. What became of each table's
/// file is in [`PdbSet::cache`]: a table that cannot be cached is used anyway.
pub fn load_or_build(
    shape: Shape,
    blank: usize,
    partition: &Partition,
    dir: &Path,
    observer: &dyn crate::observe::Observer,
) -> PdbSet {
    use rayon::prelude::*;
    let removed = store::remove_stale_temporaries(dir);
    if !removed.is_empty() {
        observer.notice(&format!(
            "pdb: removed {} temporary file(s) that interrupted builds left in {}: {}",
            removed.len(),
            dir.display(),
            removed.join(", ")
        ));
    }
    let canon = crate::space::canonical_goal(shape, blank);
    let homes = partition.group_cells(shape, blank);
    let (sources, built) = shared_tables(shape, blank, &homes);
    let (tables, cache) = built
        .par_iter()
        .map(|&g| {
            let home = &homes[g];
            let tiles: Vec<u8> = home.iter().map(|&c| canon.tile(c as usize)).collect();
            load_or_build_one(shape, blank, home, &tiles, dir, observer)
        })
        .unzip();
    PdbSet {
        shape,
        blank,
        partition: partition.clone(),
        homes,
        tables,
        cache,
        sources,
        direct: OnceLock::new(),
    }
}

/// Each group's [`Source`] and the groups whose tables are built, in table order: on
/// boards of at most 16 cells every group's own table (as ever); on larger boards a group
/// that a symmetry maps onto an earlier one reads that one's table (see `sources.rs`).
pub(crate) fn shared_tables(
    shape: Shape,
    blank: usize,
    homes: &[Vec<u8>],
) -> (Vec<Source>, Vec<usize>) {
    if shape.is_packed() {
        let own = homes
            .iter()
            .enumerate()
            .map(|(g, home)| Source {
                table: g,
                cell: (0..shape.cells() as u8).collect(),
                slot: (0..home.len() as u8).collect(),
            })
            .collect();
        return (own, (0..homes.len()).collect());
    }
    sources::sources(shape, blank, homes)
}

/// What a full check of one cache file found (`tilebench pdb verify`).
pub struct Verified {
    /// The table's cache file.
    pub path: PathBuf,
    /// Its entries, or why it cannot be used (missing, truncated, damaged, another table).
    pub result: Result<u64, OpenError>,
}

/// Checks every byte of the cache files of a partition's tables in `dir` against their
/// checksums (and records the check in their stamps), building nothing.
pub fn verify(shape: Shape, blank: usize, partition: &Partition, dir: &Path) -> Vec<Verified> {
    let canon = crate::space::canonical_goal(shape, blank);
    let homes = partition.group_cells(shape, blank);
    let (_, built) = shared_tables(shape, blank, &homes);
    built
        .iter()
        .map(|&g| &homes[g])
        .map(|home| {
            let tiles: Vec<u8> = home.iter().map(|&c| canon.tile(c as usize)).collect();
            let path = dir.join(store::file_name(shape, blank, &tiles));
            let result = if path.exists() {
                store::open(&path, shape, blank, home, &tiles, true).map(|(t, _)| t.len())
            } else {
                Err(store::OpenError::missing(&path))
            };
            Verified { path, result }
        })
        .collect()
}

/// One group's table: mapped from its cache file, or built and written there.
fn load_or_build_one(
    shape: Shape,
    blank: usize,
    home: &[u8],
    tiles: &[u8],
    dir: &Path,
    observer: &dyn crate::observe::Observer,
) -> (PatternTable, Cache) {
    let log = |line: String| observer.notice(&line);
    let path = dir.join(store::file_name(shape, blank, tiles));
    let opened = |how: &str| {
        let (t, checked) = store::open(&path, shape, blank, home, tiles, false)?;
        let check = match checked {
            store::Checked::Sampled => "header, size and sampled blocks checked",
            store::Checked::Full => "checksum verified in full",
        };
        log(format!(
            "pdb: loaded {}{how} (mapped into memory, {} entries, {check})",
            path.display(),
            t.len()
        ));
        Ok::<_, store::OpenError>(t)
    };
    match opened("") {
        Ok(t) => return (t, Cache::Loaded),
        Err(e) if path.exists() => log(format!("pdb: {e}; rebuilding it")),
        Err(_) => {}
    }
    // One builder at a time: a process that finds the lock taken waits, then maps what the
    // builder wrote (or builds it, if the builder died first).
    let _lock = store::lock(&path, |pid| {
        log(format!(
            "pdb: waiting for {} to build {}",
            pid.map_or("another process".to_string(), |p| format!("process {p}")),
            path.display()
        ));
    });
    if let Ok(t) = opened(", built by another process while this one waited") {
        return (t, Cache::Loaded);
    }
    let entries = index::placements(shape.cells(), tiles.len());
    let memory = build::memory(shape.cells(), tiles.len());
    let building = format!(
        "pdb: building the {}-tile table of tiles {} for {shape} (blank at {blank}): {entries} entries, {} of memory while building",
        tiles.len(),
        tile_list(tiles),
        if memory >= 1e9 as u64 {
            format!("{:.2} GB", memory as f64 / 1e9)
        } else {
            format!("{:.1} MB", memory as f64 / 1e6)
        },
    );
    // A long build names a partition that builds fast (the option, or its flag).
    let (takes, faster) = match entries {
        e if e > 100_000_000 && shape.is_packed() => ("about a minute", "6-6-3"),
        e if e > 100_000_000 => ("about a minute and a half", "5-5-5-5-4"),
        _ => ("", ""),
    };
    if takes.is_empty() {
        log(building);
    } else {
        let takes = format!("; this takes {takes} on 2 cores, once (it is cached; ");
        let faster = format!(" {faster} builds in seconds)");
        observer.notice_parts(&[
            Part::Text(&building),
            Part::Text(&takes),
            Part::Naming {
                words: PARTITION.name,
                flags: PARTITION.flag,
            },
            Part::Text(&faster),
        ]);
    }
    let bar = observer.progress(&format!("pdb {}-tile table", tiles.len()), entries);
    let t0 = std::time::Instant::now();
    let (t, built) = table::build_table(shape, blank, home, tiles, &|done, _| bar.set(done));
    bar.finish();
    // A builder killed here holds the lock and has written nothing (the lock tests).
    crate::util::crash_point("pdb-built", &store::file_name(shape, blank, tiles));
    log(format!(
        "pdb: built the {}-tile table of tiles {} for {shape} (blank at {blank}) in {:.1} s: {} entries, {:.1} MB at 4 bits each, largest value {}{}",
        tiles.len(),
        tile_list(tiles),
        t0.elapsed().as_secs_f64(),
        t.len(),
        t.packed().len() as f64 / 1e6,
        built.max_value,
        if built.clamped > 0 {
            format!(", {} entries stored below their value (difference from Manhattan above 28)", built.clamped)
        } else {
            String::new()
        }
    ));
    match store::write(&path, shape, blank, &t) {
        Ok(()) => (t, Cache::Written),
        Err(e) => {
            let (words, flags) = (
                format!("{e} (it is used anyway; choose a writable directory for the tables with room to keep it)"),
                format!("{} (it is used anyway; choose a writable --pdb-dir with room to keep it)", e.message_with_flags()),
            );
            observer.notice_parts(&[
                Part::Text("pdb: the table is not cached: "),
                Part::Naming {
                    words: &words,
                    flags: &flags,
                },
            ]);
            (t, Cache::NotWritten(Arc::new(e)))
        }
    }
}

type Key = (Shape, usize, String);
type Registry = Mutex<std::collections::HashMap<Key, Arc<OnceLock<Arc<PdbSet>>>>>;

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(Default::default)
}

/// The process-wide tables for (shape, blank, partition), loaded or built once. Called
/// before a pass, never inside a timed solve.
pub fn shared(
    shape: Shape,
    blank: usize,
    partition: &Partition,
    dir: &Path,
    observer: &dyn crate::observe::Observer,
) -> Arc<PdbSet> {
    let cell = registry()
        .lock()
        .expect("pdb registry")
        .entry((shape, blank, partition.name()))
        .or_default()
        .clone();
    cell.get_or_init(|| Arc::new(load_or_build(shape, blank, partition, dir, observer)))
        .clone()
}

/// The pattern databases' partition, an option of the strategies guided by a heuristic
/// that applies with `heuristic=pdb` (`--pdb-partition`): `default` is 7-8 on 4x4, groups of
/// 6 on other boards; otherwise the group sizes, written without leading zeros.
pub const PARTITION: crate::search::options::Knob<Option<String>> = crate::search::options::Knob {
    name: "partition",
    default: "default",
    range: "default, or the group sizes separated by `-` (7-8, 6-6-3) adding up to the tiles",
    help: "which tiles share a pattern database (with heuristic=pdb)",
    flag: "--pdb-partition",
    parse: |v| match v.trim() {
        "" => Err("give `default` or the group sizes, e.g. 7-8".into()),
        "default" => Ok(None),
        // Checked against each board's shape when the tables are loaded (`supports`);
        // sizes are written back without leading zeros.
        p => {
            let sizes: Option<Vec<u64>> = p.split('-').map(|n| n.trim().parse().ok()).collect();
            Ok(Some(sizes.map_or_else(
                || p.to_string(),
                |sizes| {
                    sizes
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join("-")
                },
            )))
        }
    },
    show: |p| p.clone().unwrap_or_else(|| "default".into()),
    with: &[],
    applies: Some(uses_pdb),
};

/// The pattern databases' lookups, an option of the strategies guided by a heuristic that
/// applies with `heuristic=pdb` (`--pdb-lookup`; `default` is read as `max`).
pub const LOOKUP: crate::search::options::Knob<LookupMode> = crate::search::options::Knob {
    name: "lookup",
    default: "max",
    range: "max (the default), regular, reflected, dual, walked, eager",
    help: "which lookups' maximum estimates a board (with heuristic=pdb)",
    flag: "--pdb-lookup",
    parse: |v| match v.trim() {
        "default" => Ok(LookupMode::Max),
        m => m
            .parse()
            .map_err(|e: crate::util::UnknownName| e.to_string()),
    },
    show: |m| m.to_string(),
    with: &[],
    applies: Some(uses_pdb),
};

/// Whether `config` estimates with pattern databases.
pub(crate) fn uses_pdb(config: &Config) -> bool {
    super::HEURISTIC.get(config) == super::HeuristicKind::Pdb
}

/// The most cells of a board the pattern databases take (5x5; cell masks are 32 bits).
pub(crate) const MAX_CELLS: usize = 25;

/// Pattern-database settings (`--pdb-partition`, `--pdb-dir`, `--pdb-lookup`; a
/// configuration's `partition` and `lookup`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdbOptions {
    /// Partition for every shape whose cell count it fits (default: [`Partition::default_for`]).
    pub partition: Option<String>,
    /// Cache directory (default: `$TILEBENCH_PDB_DIR`, `$XDG_CACHE_HOME/tilebench/pdb` or
    /// `~/.cache/tilebench/pdb`).
    pub dir: Option<PathBuf>,
    /// Which lookups to take the maximum of (default: [`LookupMode::default_for`]).
    pub lookup: Option<LookupMode>,
}

impl PdbOptions {
    /// The settings of `config`.
    pub fn of(config: &Config) -> PdbOptions {
        PdbOptions {
            partition: PARTITION.get(config),
            dir: config.pdb_dir.clone(),
            lookup: Some(LOOKUP.get(config)),
        }
    }

    /// Gives `config` these settings: its partition and lookups are set only where given, so
    /// a configuration's own stay its own.
    ///
    /// # Errors
    /// A lookup or partition that does not read ([`OptionError`]).
    pub fn apply(&self, config: &mut Config) -> Result<(), OptionError> {
        if let Some(p) = &self.partition {
            config.set(&PARTITION, p)?;
        }
        if let Some(m) = self.lookup {
            config.set(&LOOKUP, m.name())?;
        }
        config.pdb_dir.clone_from(&self.dir);
        Ok(())
    }

    /// The partition for `shape`.
    ///
    /// # Errors
    /// A [`PartitionError`]: boards of this shape are too large for pattern databases, or
    /// the partition given does not fit them (the message says what would).
    pub fn partition_for(&self, shape: Shape) -> Result<Partition, PartitionError> {
        if shape.cells() > MAX_CELLS {
            return Err(PartitionError::board_too_large(
                self.partition.as_deref().unwrap_or("default"),
                shape,
            ));
        }
        match &self.partition {
            Some(p) => Partition::parse(p, shape),
            None => Ok(Partition::default_for(shape)),
        }
    }

    /// The lookups for boards of `shape`.
    pub fn lookup_for(&self, shape: Shape) -> LookupMode {
        self.lookup
            .unwrap_or_else(|| LookupMode::default_for(shape))
    }

    /// The cache directory.
    pub fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(default_dir)
    }

    /// The tables for goals of `shape` with the blank at `blank`, loaded or built once per
    /// process (astar and idastar in one run share them); notices go to `observer`.
    ///
    /// # Errors
    /// The partition does not fit the shape ([`PartitionError`]).
    pub fn tables(
        &self,
        shape: Shape,
        blank: usize,
        observer: &dyn crate::observe::Observer,
    ) -> Result<Arc<PdbSet>, PartitionError> {
        let partition = self.partition_for(shape)?;
        Ok(shared(shape, blank, &partition, &self.dir(), observer))
    }
}

impl super::Family for Pdb {
    const NAME: &'static str = "pdb";
    /// The tables by (shape, goal blank cell).
    type Shared = std::collections::HashMap<(Shape, usize), Arc<PdbSet>>;

    fn supports(config: &Config, shape: Shape) -> Result<(), SolveError> {
        PdbOptions::of(config)
            .partition_for(shape)
            .map(|_| ())
            .map_err(|e| {
                let reason = crate::observe::Wording::from(e);
                SolveError::of_option(
                    &PARTITION,
                    reason.map(|t| format!("{t} (for the {shape} boards)")),
                )
            })
    }

    fn prepare(
        shared: &mut Self::Shared,
        config: &Config,
        goals: &[Board],
        observer: &dyn crate::observe::Observer,
    ) -> Result<(), SolveError> {
        for g in goals {
            let key = (g.shape(), g.blank());
            if let std::collections::hash_map::Entry::Vacant(slot) = shared.entry(key) {
                Self::supports(config, key.0)?;
                let set = PdbOptions::of(config)
                    .tables(key.0, key.1, observer)
                    .map_err(SolveError::new)?;
                slot.insert(set);
            }
        }
        Ok(())
    }

    fn for_goal(shared: &Self::Shared, config: &Config, goal: &Board) -> Result<Pdb, SolveError> {
        let set = shared.get(&(goal.shape(), goal.blank())).ok_or_else(|| {
            SolveError::new(format!(
                "the pattern databases for {} goals with the blank at cell {} were not loaded; \
                 call Solver::prepare with the goals first",
                goal.shape(),
                goal.blank()
            ))
        })?;
        Ok(Pdb::with_lookup(
            goal,
            set.clone(),
            PdbOptions::of(config).lookup_for(goal.shape()),
        ))
    }
}
