//! `tilebench pdb build [FILE…]`: load or build the pattern databases of a shape and goal,
//! or exactly those the goals of datasets need, and cache them. Exit 2 when a table cannot
//! be cached (the next run would build it again). `tilebench pdb verify [FILE…]`: check
//! every byte of those tables' files, building nothing; exit 1 when one is missing or
//! damaged.

use super::{CmdResult, OK};
use crate::cli::{PdbArgs, PdbOptions};
use std::time::Instant;
use tilebench::dataset::{read_all, InputOptions};
use tilebench::puzzle::{Board, Shape};
use tilebench::search::pdb::{self, Cache, Partition};

/// The pattern-database options the arguments give.
pub fn options(o: &PdbOptions) -> pdb::PdbOptions {
    pdb::PdbOptions {
        dir: o.pdb_dir.clone(),
        partition: o.pdb_partition.clone(),
        lookup: o.pdb_lookup,
    }
}

/// The (shape, goal blank cell) of every table set wanted: that of --size and --goal, or
/// those of the datasets' goals (read as `run` reads them), in first-seen order.
fn wanted(args: &PdbArgs) -> Result<Vec<(Shape, usize)>, String> {
    if args.files.is_empty() {
        // Without --size, a square goal says its shape (as `run` reads a row's); no goal
        // either means 4x4.
        let goal = match (&args.goal, args.size) {
            (Some(g), size) => Board::parse(g, size)
                .map_err(|e| format!("--goal `{g}`: {}", e.message_with_flags()))?,
            (None, size) => Board::standard_goal(size.unwrap_or(Shape::S4X4)),
        };
        return Ok(vec![(goal.shape(), goal.blank())]);
    }
    let opts = InputOptions {
        size: args.size,
        goal: args.goal.clone(),
    };
    // Read as a stream: each piece's valid cases become their goals' (shape, blank) keys,
    // kept once each, in first-seen order.
    let (mut keys, mut valid): (Vec<(Shape, usize)>, usize) = (Vec::new(), 0);
    let files = read_all(
        &args.files,
        &opts,
        |_, cases| {
            cases
                .iter()
                .filter_map(|c| c.problem.as_ref().ok())
                .map(|p| (p.goal.shape(), p.goal.blank()))
                .collect::<Vec<_>>()
        },
        |_, piece_keys| {
            valid += piece_keys.len();
            for k in piece_keys {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        },
    )
    .map_err(|e| super::flags::input_in_flags(&e))?;
    let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    if keys.is_empty() {
        return Err(format!(
            "{}: no valid rows, so no goals to build tables for; `tilebench run` on the file \
             says what is wrong with its rows",
            names.join(", ")
        ));
    }
    let sets: Vec<String> = keys
        .iter()
        .map(|(shape, blank)| format!("{shape} with the blank at cell {blank}"))
        .collect();
    eprintln!(
        "pdb: the {valid} valid case(s) of {} have goals of {} set(s) of tables: {}",
        names.join(", "),
        keys.len(),
        sets.join("; ")
    );
    Ok(keys)
}

pub fn run(args: PdbArgs) -> CmdResult {
    let opts = options(&args.pdb);
    let dir = opts.dir();
    // Every partition is checked before anything is built.
    let sets: Vec<(Shape, usize, Partition)> = wanted(&args)?
        .into_iter()
        .map(|(shape, blank)| {
            opts.partition_for(shape)
                .map(|p| (shape, blank, p))
                .map_err(|e| {
                    format!(
                        "--pdb-partition: {} (for the {shape} boards)",
                        e.message_with_flags()
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    if args.action == "verify" {
        return Ok(verify(&sets, &dir));
    }
    let terminal = super::terminal::Terminal::new(false);
    let mut reasons: Vec<String> = Vec::new();
    let (mut tables, mut not_cached) = (0, 0);
    for (shape, blank, partition) in sets {
        let t0 = Instant::now();
        let set = pdb::load_or_build(shape, blank, &partition, &dir, &terminal);
        let count = |c: fn(&Cache) -> bool| set.cache.iter().filter(|x| c(x)).count();
        let entries: u64 = set.tables.iter().map(|t| t.len()).sum();
        eprintln!(
            "pdb: {shape} partition {} for goals with the blank at cell {blank}: {} tables ({} loaded from the cache, {} built and cached, {} built but not cached), {entries} entries ({:.1} MB at 4 bits each) in {}, ready in {:.1} s",
            partition.name(),
            set.tables.len(),
            count(|c| *c == Cache::Loaded),
            count(|c| *c == Cache::Written),
            count(|c| matches!(c, Cache::NotWritten(_))),
            set.bytes() as f64 / 1e6,
            dir.display(),
            t0.elapsed().as_secs_f64()
        );
        tables += set.tables.len();
        for c in &set.cache {
            if let Cache::NotWritten(e) = c {
                not_cached += 1;
                let why = e.message_with_flags();
                if !reasons.contains(&why) {
                    reasons.push(why);
                }
            }
        }
    }
    if not_cached > 0 {
        return Err(format!(
            "{not_cached} of {tables} table(s) could not be cached in {}, so every run would \
             build them again: {}. Do what that says (make room on a full disk, raise a file size \
             limit, remove what stands in the way), or give a writable --pdb-dir, and run \
             `tilebench pdb build` again",
            dir.display(),
            reasons.join("; ")
        ));
    }
    Ok(OK)
}

/// `pdb verify`: every byte of every table file the sets need, checked against its checksum;
/// a line per table on stderr. 0 when all are sound, 1 when one is missing or damaged.
fn verify(sets: &[(Shape, usize, Partition)], dir: &std::path::Path) -> i32 {
    let (mut total, mut bad) = (0, 0);
    for (shape, blank, partition) in sets {
        for v in pdb::verify(*shape, *blank, partition, dir) {
            total += 1;
            match v.result {
                Ok(entries) => eprintln!(
                    "pdb: {} is sound ({entries} entries, its checksum verified in full)",
                    v.path.display()
                ),
                Err(why) => {
                    bad += 1;
                    eprintln!("pdb: {} cannot be used: {}", v.path.display(), why.kind());
                }
            }
        }
    }
    if bad == 0 {
        eprintln!("pdb: all {total} table(s) in {} are sound", dir.display());
        return OK;
    }
    eprintln!(
        "pdb: {bad} of {total} table(s) in {} are missing or damaged; `tilebench pdb build` with \
         the same arguments builds them again (a run would too, before solving)",
        dir.display()
    );
    super::FAILED
}
