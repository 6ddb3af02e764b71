//! Pattern databases: admissible (never above the true distance, checked against BFS),
//! at least Manhattan, and IDA*/A* with them find optimal paths; the cache file is reused,
//! and a damaged file is rebuilt.

use crate::common::bfs_distance;
use proptest::prelude::*;
use std::sync::Arc;
use tilebench::observe::{Collect, Silent};
use tilebench::puzzle::{is_solvable, Board, Move, Shape};
use tilebench::search::heuristic::{Heuristic, HeuristicKind, Manhattan};
use tilebench::search::pdb::{self, load_or_build, Partition, Pdb};
use tilebench::search::{registry, Config, Limits, Problem};

fn pdb_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-tests")
}

fn heuristic(goal: &Board, partition: &str) -> Pdb {
    let p = Partition::parse(partition, goal.shape()).unwrap();
    Pdb::new(
        goal,
        pdb::shared(goal.shape(), goal.blank(), &p, &pdb_dir(), &Silent),
    )
}

fn heuristic_without_reflection(goal: &Board, partition: &str) -> Pdb {
    let p = Partition::parse(partition, goal.shape()).unwrap();
    Pdb::with_reflection(
        goal,
        pdb::shared(goal.shape(), goal.blank(), &p, &pdb_dir(), &Silent),
        false,
    )
}

fn board(shape: Shape) -> impl proptest::strategy::Strategy<Value = Board> {
    Just((0..shape.cells() as u8).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(move |t: Vec<u8>| Board::from_tiles(shape, &t))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn admissible_and_above_manhattan_on_3x3(start in board(Shape::S3X3), goal in board(Shape::S3X3)) {
        prop_assume!(is_solvable(&start, &goal));
        let h = heuristic(&goal, "4-4").estimate(&start);
        prop_assert!(h >= Manhattan::new(&goal).estimate(&start));
        prop_assert!(h <= bfs_distance(start, goal), "pdb {} above the true distance", h);
    }

    #[test]
    fn admissible_on_shallow_4x4(moves in proptest::collection::vec(0u8..4, 0..24)) {
        // Korf's goal (blank first) and the standard one (blank last): both corner layouts.
        for goal in [
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse::<Board>().unwrap(),
            Board::standard_goal(Shape::S4X4),
        ] {
            let mut start = goal;
            for &m in &moves {
                if let Some(b) = start.apply(Move::from_index(m)) {
                    start = b;
                }
            }
            let h = heuristic(&goal, "5-5-5");
            let v = h.estimate(&start);
            prop_assert!(v >= Manhattan::new(&goal).estimate(&start));
            prop_assert!(v <= bfs_distance(start, goal), "pdb {} above the true distance", v);
            // The incremental step (what IDA* calls) agrees with a full estimate after each
            // move, with and without the reflection.
            for h in [h, heuristic_without_reflection(&goal, "5-5-5")] {
                let mut b = goal;
                let (mut hv, mut memo) = h.start(&b);
                for &m in &moves {
                    let Some(next) = b.apply(Move::from_index(m)) else { continue };
                    let tile = b.tile(next.blank());
                    (hv, memo) = h.step(hv, &memo, &next, tile, next.blank(), b.blank());
                    b = next;
                    prop_assert_eq!(hv, h.estimate(&b));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A single group holding every tile makes every move cost 1: the table is then the
    /// exact distance, an end-to-end check of the builder against BFS.
    #[test]
    fn one_group_of_all_tiles_is_exact_on_3x3(start in board(Shape::S3X3), goal in board(Shape::S3X3)) {
        prop_assume!(is_solvable(&start, &goal));
        prop_assert_eq!(heuristic(&goal, "8").estimate(&start), bfs_distance(start, goal));
    }
}

#[test]
fn idastar_and_astar_with_pdb_are_optimal_on_2x3_and_3x3() {
    let mut opts = Config::default()
        .with(
            &tilebench::search::heuristic::HEURISTIC,
            HeuristicKind::Pdb.name(),
        )
        .unwrap();
    opts.pdb_dir = Some(pdb_dir());
    for (start, goal) in [
        ("2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x"),
        ("2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2"),
    ] {
        let p = Problem::new(start.parse().unwrap(), goal.parse().unwrap()).unwrap();
        let want = bfs_distance(p.start, p.goal) as usize;
        for s in ["idastar", "astar"] {
            let out = registry::find(s)
                .unwrap()
                .solve_once(&opts, &p, &Limits::default())
                .unwrap();
            assert_eq!(out.steps(), Some(want), "{s}");
            assert_eq!(p.start.replay(out.path.as_ref().unwrap()).unwrap(), p.goal);
        }
    }
}

#[test]
fn cache_files_are_reused_and_damaged_ones_rebuilt() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-cache-test");
    let _ = std::fs::remove_dir_all(&dir);
    let shape: Shape = "3x2".parse().unwrap();
    let p = Partition::parse("3-2", shape).unwrap();
    let log = Collect::default();
    let first = load_or_build(shape, 5, &p, &dir, &log);
    let files: Vec<_> = files_in(&dir).iter().map(|n| dir.join(n)).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    let again = load_or_build(shape, 5, &p, &dir, &log);
    assert!(
        log.notices()
            .iter()
            .filter(|l| l.contains("loaded"))
            .count()
            == 2
    );
    // Flip a byte of one table: the checksum catches it and the table is rebuilt.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let i = bytes.len() - 20;
    bytes[i] ^= 0xFF;
    std::fs::write(&files[0], bytes).unwrap();
    let rebuilt = load_or_build(shape, 5, &p, &dir, &log);
    assert!(
        log.notices().iter().any(|l| l.contains("cannot use")),
        "{:?}",
        log.notices()
    );
    // Built, loaded and rebuilt tables give the same estimates everywhere.
    let goal = Board::standard_goal(shape);
    let [a, b, c] = [first, again, rebuilt].map(|set| Pdb::new(&goal, Arc::new(set)));
    let mut s = goal;
    for i in 0..40u8 {
        if let Some(n) = s.apply(Move::from_index((i as u32 * 7 % 4) as u8)) {
            s = n;
        }
        assert_eq!(a.estimate(&s), b.estimate(&s));
        assert_eq!(a.estimate(&s), c.estimate(&s));
    }
}

/// Korf and Felner's reflection, done by hand: for Korf's goal (blank first), the board
/// mirrored in its main diagonal with tile `4r + c` renamed `4c + r` is as far from the goal
/// as the board itself, so the estimate with the reflection is the larger of the plain
/// estimates of the two boards.
#[test]
fn reflection_is_the_plain_estimate_of_the_transposed_board() {
    let goal: Board = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap();
    let with = heuristic(&goal, "5-5-5");
    let without = heuristic_without_reflection(&goal, "5-5-5");
    assert!(with.reflects() && !without.reflects());
    let transpose = |p: usize| (p % 4) * 4 + p / 4;
    let mut b = goal;
    let mut larger = 0;
    let mut seed = 12345u32;
    for _ in 0..400 {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        if let Some(n) = b.apply(Move::from_index((seed >> 16) as u8 % 4)) {
            b = n;
        }
        let mut tiles = [0u8; 16];
        for p in 0..16 {
            tiles[transpose(p)] = transpose(b.tile(p) as usize) as u8;
        }
        let mirrored = Board::from_tiles(Shape::S4X4, &tiles);
        let (a, m) = (without.estimate(&b), without.estimate(&mirrored));
        assert_eq!(with.estimate(&b), a.max(m), "{b}");
        larger += (m > a) as u32;
    }
    // The reflection adds something on some of these boards (else the test shows nothing).
    assert!(larger > 0);
}

/// The builder (a search over blank regions, see `search::pdb::build`) against a plain 0-1
/// breadth-first search over (placement, blank cell) written here: every entry of every
/// table agrees, on shapes where the free cells split into several regions, and with 1 to
/// 9 free cells (the builder's fields of 2, 4, 8, 16 and 32 bits a placement).
#[test]
fn tables_equal_a_plain_search_over_placement_and_blank() {
    for (shape, partition, blank) in [
        // One and two free cells (fields of 2 and 4 bits).
        ("2x2", "3", 3),
        ("2x3", "4-1", 5),
        ("3x3", "4-4", 8),
        // Blank top left, first group {1, 2, 3, 4}: cells 1 and 3 wall the blank's cell off.
        ("3x3", "4-4", 0),
        ("3x3", "3-5", 4),
        ("2x4", "3-4", 0),
        ("3x4", "4-4-3", 5),
        ("4x3", "3-4-4", 11),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let p = Partition::parse(partition, shape).unwrap();
        let set = pdb::load_or_build(shape, blank, &p, &pdb_dir(), &Silent);
        for (home, table) in set.homes.iter().zip(&set.tables) {
            if home.len() > 4 {
                continue; // the plain search below is slow beyond a few tiles
            }
            let reference = plain_table(shape, blank as u8, home);
            if home.len() + 2 < shape.cells() {
                assert_eq!(reference.len() as u64, table.len());
            } else {
                // With one or two free cells some placements are out of reach (every tile in
                // the group: the other parity; on 2x3, 108 of the 4-tile group's 360).
                assert!(
                    reference.len() as u64 * 2 >= table.len(),
                    "{shape} {home:?}"
                );
            }
            for (cells, want) in reference {
                assert_eq!(
                    table.value(&cells),
                    want,
                    "{shape} blank {blank} group {home:?} at {cells:?}"
                );
            }
        }
    }
}

/// Fewest moves of the group's tiles from each placement home with the blank in its goal
/// cell, by 0-1 BFS over (placement, blank) from the goal, minimised over the blank.
fn plain_table(
    shape: Shape,
    goal_blank: u8,
    home: &[u8],
) -> std::collections::HashMap<Vec<u8>, u32> {
    use std::collections::{HashMap, VecDeque};
    let (w, n) = (shape.width(), shape.cells());
    let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((home.to_vec(), goal_blank), 0);
    queue.push_back((home.to_vec(), goal_blank));
    while let Some((cells, b)) = queue.pop_front() {
        let d = dist[&(cells.clone(), b)];
        let (r, c) = (b as usize / w, b as usize % w);
        let mut next = Vec::new();
        if r > 0 {
            next.push(b - w as u8)
        }
        if r + 1 < n / w {
            next.push(b + w as u8)
        }
        if c > 0 {
            next.push(b - 1)
        }
        if c + 1 < w {
            next.push(b + 1)
        }
        for to in next {
            let mut moved = cells.clone();
            let cost = match moved.iter().position(|&x| x == to) {
                Some(j) => {
                    moved[j] = b;
                    1
                }
                None => 0,
            };
            let key = (moved, to);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    queue.push_front(key)
                } else {
                    queue.push_back(key)
                }
            }
        }
    }
    let mut table: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((cells, _), d) in dist {
        let e = table.entry(cells).or_insert(d);
        *e = (*e).min(d);
    }
    table
}

use crate::common::{bin, run_bounded, run_ok, stderr, temp_dir};
use std::time::Duration;

/// `tilebench pdb build` with these arguments: its exit code and stderr.
fn pdb_build(args: &[&str]) -> (i32, String) {
    let out = bin().args(["pdb", "build"]).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), stderr(&out))
}

/// The names of the files in `dir`, sorted, less the tables' stamps (`.NAME.pdb.ok`) and
/// build locks (`.NAME.pdb.lock`), which stay beside them by design.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !(n.ends_with(".pdb.ok") || n.ends_with(".pdb.lock")))
        .collect();
    names.sort();
    names
}

#[test]
fn pdb_build_fails_when_a_file_stands_where_the_directory_goes() {
    let dir = temp_dir("pdb-file-in-the-way");
    let file = dir.join("tables");
    std::fs::write(&file, "not a directory").unwrap();
    for (pdb_dir, want) in [
        (
            file.clone(),
            format!("{} is a file, not a directory", file.display()),
        ),
        (
            file.join("sub"),
            format!(
                "cannot create the directory {}: {} is a file, not a directory",
                file.join("sub").display(),
                file.display()
            ),
        ),
    ] {
        let (code, err) = pdb_build(&[
            "--size",
            "3x3",
            "--pdb-partition",
            "4-4",
            "--pdb-dir",
            pdb_dir.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&want), "{err}");
        assert!(err.contains("2 of 2 table(s) could not be cached"), "{err}");
        assert!(!err.contains("os error"), "{err}");
    }
}

#[test]
fn pdb_build_fails_on_a_write_error_and_leaves_no_partial_file() {
    // A file size limit of one block (as a full disk does, a write fails midway: EFBIG);
    // SIGXFSZ is ignored so the write returns the error instead of killing the process.
    // The limit applies to root too, unlike a read-only directory.
    let dir = temp_dir("pdb-write-error");
    let script = format!(
        "trap '' XFSZ; ulimit -f 1 && exec \"$0\" pdb build --size 3x3 --pdb-partition 4-4 --pdb-dir '{}'",
        dir.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_tilebench")])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("2 of 2 table(s) could not be cached"), "{err}");
    assert!(
        err.contains(&format!(
            "cannot write {}",
            dir.join("3x3-blank8-tiles1_2_3_4.pdb").display()
        )),
        "{err}"
    );
    // Each table is far over the limit, so each write failed after a partial write: no
    // temporary file stays behind.
    assert_eq!(files_in(&dir), Vec::<String>::new());
    // Without the limit the same command caches both tables.
    let (code, err) = pdb_build(&[
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 built and cached"), "{err}");
    assert_eq!(
        files_in(&dir),
        ["3x3-blank8-tiles1_2_3_4.pdb", "3x3-blank8-tiles5_6_7_8.pdb"]
    );
}

#[test]
fn temporary_files_of_dead_builds_are_removed_and_live_ones_kept() {
    let dir = temp_dir("pdb-stale-tmp");
    let dead = {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let live = std::process::id();
    let stale = [
        format!(".3x3-blank8-tiles1_2_3_4.pdb.tmp-{dead}"),
        format!("3x3-blank8-tiles5_6_7_8.tmp{dead}"),
    ];
    let kept = [
        format!(".3x3-blank8-tiles1_2_3_4.pdb.tmp-{live}"),
        format!("notes.tmp{dead}"),
    ];
    for name in stale.iter().chain(&kept) {
        std::fs::write(dir.join(name), "partial").unwrap();
    }
    let (code, err) = pdb_build(&[
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("removed 2 temporary file(s) that interrupted builds left"),
        "{err}"
    );
    let mut want: Vec<String> = kept.to_vec();
    want.extend([
        "3x3-blank8-tiles1_2_3_4.pdb".to_string(),
        "3x3-blank8-tiles5_6_7_8.pdb".to_string(),
    ]);
    want.sort();
    assert_eq!(files_in(&dir), want);
}

#[test]
fn a_temporary_file_is_kept_while_its_tables_build_lock_is_held() {
    // A builder in another PID namespace (a container sharing the cache volume) or on another
    // NFS host has a process id that looks dead from here, but it writes its temporary file
    // while holding the table's build lock: the file must stay until the lock is free.
    let dir = temp_dir("pdb-tmp-locked");
    let args = [
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ];
    assert_eq!(pdb_build(&args).0, 0);
    let elsewhere = {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let name = format!(".3x3-blank8-tiles1_2_3_4.pdb.tmp-{elsewhere}");
    std::fs::write(dir.join(&name), "being written").unwrap();
    let lock = std::fs::File::open(dir.join(".3x3-blank8-tiles1_2_3_4.pdb.lock")).unwrap();
    use std::os::unix::io::AsRawFd;
    assert_eq!(
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    let (code, err) = pdb_build(&args);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("removed"), "{err}");
    assert!(dir.join(&name).is_file(), "{err}");
    drop(lock);
    let (code, err) = pdb_build(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("removed 1 temporary file(s)"), "{err}");
    assert!(!dir.join(&name).exists(), "{err}");
}

#[test]
fn pdb_build_of_datasets_builds_exactly_the_tables_their_goals_need() {
    let dir = temp_dir("pdb-datasets");
    let tables = dir.join("tables");
    // Goals with the blank at cells 0 and 4, and rows without a goal (blank last, cell 8);
    // an invalid row needs nothing.
    let data = dir.join("goals.csv");
    std::fs::write(
        &data,
        "id,start,goal\n\
         a,1 2 3 4 x 5 6 7 8,x 1 2 3 4 5 6 7 8\n\
         b,1 2 3 x 4 5 6 7 8,1 2 3 4 x 5 6 7 8\n\
         c,1 2 3 4 5 6 7 x 8,\n\
         d,2 1 3 4 5 6 7 8 x,x 1 2 3 4 5 6 7 8\n\
         e,1 2 3,\n",
    )
    .unwrap();
    let args = [
        data.to_str().unwrap(),
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        tables.to_str().unwrap(),
    ];
    let (code, err) = pdb_build(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("3x3 with the blank at cell 0; 3x3 with the blank at cell 4; 3x3 with the blank at cell 8"),
        "{err}"
    );
    let names = files_in(&tables);
    assert_eq!(names.len(), 6, "{names:?}");
    for blank in [0, 4, 8] {
        let of_blank = names
            .iter()
            .filter(|n| n.starts_with(&format!("3x3-blank{blank}-")))
            .count();
        assert_eq!(of_blank, 2, "{names:?}");
    }
    // A run of the dataset then builds nothing: every table it needs is cached.
    let run = bin()
        .arg("run")
        .arg(&data)
        .args(["-q", "-s", "idastar", "--heuristic", "pdb", "--out"])
        .arg(dir.join("run"))
        .args(&args[1..])
        .output()
        .unwrap();
    let run_err = stderr(&run);
    // The four valid rows are answered (the invalid one is reported as such).
    let cases = std::fs::read_to_string(dir.join("run/cases.csv")).unwrap();
    let answered = cases
        .lines()
        .filter(|l| l.contains(",solved,") || l.contains(",unsolvable,"))
        .count();
    assert_eq!(answered, 4, "{run_err}\n{cases}");
    assert!(run_err.contains("pdb: loaded"), "{run_err}");
    assert!(!run_err.contains("pdb: building"), "{run_err}");
    // And building again finds them all.
    let (code, err) = pdb_build(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("2 loaded from the cache").count(), 3, "{err}");
    assert!(!err.contains("pdb: building"), "{err}");
}

#[test]
fn an_empty_table_file_is_named_as_such_and_rebuilt() {
    let dir = temp_dir("pdb-empty-table");
    let shape: Shape = "3x3".parse().unwrap();
    let p = Partition::parse("4-4", shape).unwrap();
    load_or_build(shape, 8, &p, &dir, &Silent);
    let file = dir.join("3x3-blank8-tiles1_2_3_4.pdb");
    let size = std::fs::metadata(&file).unwrap().len();
    for cut in [0, 5, 30, size - 20] {
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..cut as usize]).unwrap();
        let log = Collect::default();
        let set = load_or_build(shape, 8, &p, &dir, &log);
        let notice = log
            .notices()
            .into_iter()
            .find(|l| l.contains("cannot use"))
            .unwrap_or_else(|| panic!("cut at {cut}: {:?}", log.notices()));
        let want = if cut == 0 {
            "the file is empty (0 bytes), probably left by an interrupted write"
        } else {
            "the file is truncated"
        };
        assert!(notice.contains(want), "cut at {cut}: {notice}");
        assert!(notice.ends_with("rebuilding it"), "{notice}");
        assert_eq!(set.cache[0], pdb::Cache::Written);
        assert_eq!(std::fs::metadata(&file).unwrap().len(), size);
    }
}

/// Loads the 3x3 4-4 tables (blank last) from `dir`: the notice about the first table and
/// what became of it.
fn load_first_table(dir: &std::path::Path) -> (String, pdb::Cache) {
    let shape: Shape = "3x3".parse().unwrap();
    let p = Partition::parse("4-4", shape).unwrap();
    let log = Collect::default();
    let set = load_or_build(shape, 8, &p, dir, &log);
    let notice = log
        .notices()
        .into_iter()
        .filter(|l| l.contains("tiles1_2_3_4.pdb"))
        .collect::<Vec<_>>()
        .join("\n");
    (notice, set.cache[0].clone())
}

#[test]
fn a_mapped_table_is_checked_in_full_once_then_by_header_size_and_samples() {
    let dir = temp_dir("pdb-stamp");
    let file = dir.join("3x3-blank8-tiles1_2_3_4.pdb");
    let stamp = dir.join(".3x3-blank8-tiles1_2_3_4.pdb.ok");
    assert_eq!(load_first_table(&dir).1, pdb::Cache::Written);
    // The builder stamped the file it wrote: the next start reads only samples of it.
    let (notice, cache) = load_first_table(&dir);
    assert_eq!(cache, pdb::Cache::Loaded);
    assert!(notice.contains("mapped into memory"), "{notice}");
    assert!(
        notice.contains("header, size and sampled blocks checked"),
        "{notice}"
    );
    // Without its stamp (a table copied from elsewhere), the first start checks every byte,
    // and stamps it for the next.
    std::fs::remove_file(&stamp).unwrap();
    let (notice, _) = load_first_table(&dir);
    assert!(notice.contains("checksum verified in full"), "{notice}");
    assert!(stamp.is_file());
    assert!(load_first_table(&dir).0.contains("sampled blocks checked"));
    // A sampled block that differs from the stamp forces the full check (the file is sound
    // here, so it is used, and stamped again).
    let text = std::fs::read_to_string(&stamp).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let last = lines.last_mut().unwrap();
    *last = if last.starts_with('0') {
        last.replacen('0', "1", 1)
    } else {
        format!("0{}", &last[1..])
    };
    std::fs::write(&stamp, lines.join("\n") + "\n").unwrap();
    let (notice, cache) = load_first_table(&dir);
    assert_eq!(cache, pdb::Cache::Loaded);
    assert!(notice.contains("checksum verified in full"), "{notice}");
    assert_eq!(std::fs::read_to_string(&stamp).unwrap(), text);
    // A body byte flipped with the modification time set back: the status-change time still
    // differs from the stamp's, so the full check runs and catches it.
    let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let (notice, cache) = load_first_table(&dir);
    assert!(
        notice.contains(
            "its checksum does not match its entries (the file is damaged); rebuilding it"
        ),
        "{notice}"
    );
    assert_eq!(cache, pdb::Cache::Written);
}

#[test]
fn each_kind_of_damage_is_named_and_the_table_rebuilt() {
    let dir = temp_dir("pdb-damage");
    let file = dir.join("3x3-blank8-tiles1_2_3_4.pdb");
    load_first_table(&dir);
    let good = std::fs::read(&file).unwrap();
    let head = good
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(1)
        .unwrap()
        .0
        + 1;
    // A table of another shape with as many tiles: 2x4, 4 tiles.
    let other = temp_dir("pdb-damage-other");
    let s24: Shape = "2x4".parse().unwrap();
    load_or_build(
        s24,
        7,
        &Partition::parse("4-3", s24).unwrap(),
        &other,
        &Silent,
    );
    let wrong_shape = std::fs::read(other.join("2x4-blank7-tiles1_2_3_4.pdb")).unwrap();
    let flip = |i: usize| {
        let mut b = good.clone();
        b[i] ^= 0x04;
        b
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated in the body",
            good[..good.len() - 20].to_vec(),
            "the file is truncated",
        ),
        (
            "truncated in the header",
            good[..12].to_vec(),
            "the file is truncated",
        ),
        (
            "a byte flipped in the magic",
            flip(3),
            "not a table of this tilebench version",
        ),
        (
            "a byte flipped in the header",
            flip(head - 3),
            "its header is not this table's",
        ),
        (
            "a byte flipped in the body",
            flip(head + 700),
            "its checksum does not match its entries",
        ),
        (
            "a byte flipped in the checksum",
            flip(good.len() - 1),
            "its checksum does not match its entries",
        ),
        (
            "bytes appended",
            [good.as_slice(), b"0000"].concat(),
            "bytes longer than its header says",
        ),
        (
            "another shape's table",
            wrong_shape,
            "its header is not this table's (`TBPDB03 2x4 7",
        ),
    ];
    for (what, bytes, want) in cases {
        std::fs::write(&file, bytes).unwrap();
        let (notice, cache) = load_first_table(&dir);
        assert!(notice.contains(want), "{what}: {notice}");
        assert!(notice.contains("; rebuilding it"), "{what}: {notice}");
        assert_eq!(cache, pdb::Cache::Written, "{what}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            good,
            "{what}: the rebuilt file"
        );
    }
}

/// `tilebench pdb verify` with these arguments: its exit code and stderr.
fn pdb_verify(args: &[&str]) -> (i32, String) {
    let out = bin().args(["pdb", "verify"]).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), stderr(&out))
}

#[test]
fn pdb_verify_checks_every_byte_and_builds_nothing() {
    let dir = temp_dir("pdb-verify");
    let args = [
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ];
    let (code, err) = pdb_verify(&args);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.matches(": it is missing").count(), 2, "{err}");
    assert!(err.contains("2 of 2 table(s)"), "{err}");
    assert!(
        err.contains("`tilebench pdb build` with the same arguments builds them"),
        "{err}"
    );
    assert_eq!(files_in(&dir), Vec::<String>::new());
    assert_eq!(pdb_build(&args).0, 0);
    let (code, err) = pdb_verify(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("is sound (3024 entries, its checksum verified in full)")
            .count(),
        2,
        "{err}"
    );
    // A flipped byte: verify names the file and its damage, and leaves it for build to fix.
    let file = dir.join("3x3-blank8-tiles5_6_7_8.pdb");
    let mut bytes = std::fs::read(&file).unwrap();
    let i = bytes.len() - 100;
    bytes[i] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let (code, err) = pdb_verify(&args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("tiles5_6_7_8.pdb cannot be used: its checksum does not match its entries"),
        "{err}"
    );
    assert!(err.contains("tiles1_2_3_4.pdb is sound"), "{err}");
    assert!(err.contains("1 of 2 table(s)"), "{err}");
    // Verify built nothing: the damaged file is still there as it was.
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

/// A `tilebench pdb build` running in the background, its stderr read line by line.
struct Builder {
    id: u32,
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Builder {
    fn start(args: &[&str], crash_at: Option<&str>) -> Builder {
        let mut cmd = bin();
        cmd.args(["pdb", "build"]).args(args);
        Builder::spawn(cmd, crash_at)
    }

    /// `cmd` started with its stderr read line by line.
    fn spawn(mut cmd: std::process::Command, crash_at: Option<&str>) -> Builder {
        use std::io::BufRead;
        cmd.stderr(std::process::Stdio::piped());
        if let Some(at) = crash_at {
            cmd.env("TILEBENCH_CRASH_AT", at);
        }
        let mut child = cmd.spawn().unwrap();
        let err = child.stderr.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for l in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        Builder {
            id: child.id(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits (at most a minute) for a line of stderr containing `text`.
    fn wait_for(&mut self, text: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !self.seen.iter().any(|l| l.contains(text)) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => self.seen.push(l),
                Err(_) => panic!("no line with `{text}` within a minute: {:?}", self.seen),
            }
        }
    }

    /// Waits (at most two minutes) for the process to end: its exit status and all of stderr.
    fn finish(mut self) -> (std::process::ExitStatus, String) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "still running after two minutes (blocked?): {:?}",
                    self.seen
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        self.seen.extend(self.lines.iter());
        (status, self.seen.join("\n"))
    }
}

/// The 5-5-5 tables on 4x4: each takes long enough to build (a second or more) that a
/// process started after another's `building` line finds its lock taken.
fn slow_build_args(dir: &std::path::Path) -> Vec<String> {
    ["--size", "4x4", "--pdb-partition", "5-5-5", "--pdb-dir"]
        .iter()
        .map(|s| s.to_string())
        .chain([dir.display().to_string()])
        .collect()
}

#[test]
fn processes_starting_together_build_each_missing_table_once() {
    let dir = temp_dir("pdb-lock-two");
    let args = slow_build_args(&dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut a = Builder::start(&args, None);
    let a_id = a.id;
    a.wait_for("pdb: building");
    let b = Builder::start(&args, None);
    let (sa, ea) = a.finish();
    let (sb, eb) = b.finish();
    assert!(sa.success() && sb.success(), "{ea}\n---\n{eb}");
    let both = format!("{ea}\n{eb}");
    // Each of the three tables was built by exactly one of the two, and the other waited
    // for it, then mapped the file the builder wrote.
    assert_eq!(
        both.matches("pdb: building the 5-tile table").count(),
        3,
        "{both}"
    );
    assert_eq!(
        both.matches("pdb: built the 5-tile table").count(),
        3,
        "{both}"
    );
    assert!(
        eb.contains(&format!("pdb: waiting for process {a_id} to build")),
        "{eb}"
    );
    assert!(
        eb.contains("built by another process while this one waited"),
        "{eb}"
    );
    assert_eq!(
        files_in(&dir)
            .iter()
            .filter(|n| n.ends_with(".pdb"))
            .count(),
        3,
        "{:?}",
        files_in(&dir)
    );
}

#[test]
fn a_builder_killed_holding_the_lock_does_not_block_the_next() {
    // Killed (kill -9, by the crash point) after building, holding the lock, before writing:
    // the lock file stays, with its process id, and the kernel has released the lock.
    let dir = temp_dir("pdb-lock-killed");
    let small = [
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ];
    let (status, err) = Builder::start(&small, Some("pdb-built")).finish();
    assert_eq!(status.code(), None, "killed, not exited: {err}");
    assert!(err.contains("pdb: building"), "{err}");
    assert!(files_in(&dir).is_empty(), "{:?}", files_in(&dir));
    assert!(dir.join(".3x3-blank8-tiles1_2_3_4.pdb.lock").is_file());
    let (code, err) = pdb_build(&small);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("waiting"), "{err}");
    assert!(err.contains("2 built and cached"), "{err}");

    // Killed while another process waits for it: the waiter takes over and builds.
    let dir = temp_dir("pdb-lock-killed-waiting");
    let args = slow_build_args(&dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut a = Builder::start(&args, Some("pdb-built"));
    a.wait_for("pdb: building");
    let mut b = Builder::start(&args, None);
    b.wait_for(&format!("pdb: waiting for process {} to build", a.id));
    let (sa, ea) = a.finish();
    assert_eq!(sa.code(), None, "killed, not exited: {ea}");
    let (sb, eb) = b.finish();
    assert!(sb.success(), "{eb}");
    assert_eq!(
        files_in(&dir)
            .iter()
            .filter(|n| n.ends_with(".pdb"))
            .count(),
        3,
        "{eb}"
    );
    // Every table is sound: what b built after the kill, and what a may have written first.
    assert_eq!(pdb_verify(&args).0, 0);
}

#[test]
fn a_directory_where_a_table_goes_is_named_as_such_not_as_missing() {
    let dir = temp_dir("pdb-dir-in-the-way");
    let table = dir.join("3x3-blank8-tiles1_2_3_4.pdb");
    std::fs::create_dir(&table).unwrap();
    let args = [
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        dir.to_str().unwrap(),
    ];
    let (code, err) = pdb_verify(&args);
    assert_eq!(code, 1, "{err}");
    let said = format!(
        "{} cannot be used: it is a directory, not a table file; remove it",
        table.display()
    );
    assert!(err.contains(&said), "{err}");
    assert_eq!(err.matches(": it is missing").count(), 1, "{err}");
    let (code, err) = pdb_build(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "pdb: cannot use {}: it is a directory, not a table file",
            table.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "could not be cached in {}, so every run would build them again: {} is a \
             directory, not a table file; remove it",
            dir.display(),
            table.display()
        )),
        "{err}"
    );
    assert!(!err.contains("Make room there"), "{err}");
    // A small table's memory in megabytes, not `0.00 GB`.
    assert!(err.contains("MB of memory while building"), "{err}");
    assert!(!err.contains("0.00 GB"), "{err}");
}

#[test]
fn a_cache_directory_that_cannot_be_made_is_named_with_a_sentence_not_an_os_error() {
    // /sys refuses new directories (EPERM for root, EACCES for others).
    let (code, err) = pdb_build(&[
        "--size",
        "3x3",
        "--pdb-partition",
        "4-4",
        "--pdb-dir",
        "/sys/tilebench-test/pdb",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot create the directory /sys/tilebench-test/pdb: "),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn ctrl_c_while_a_run_builds_its_tables_ends_it_at_once() {
    // The 6-6-3 tables take seconds; the run used to finish building (and caching) them
    // before it answered the first Ctrl-C, which with the 7-8 tables meant minutes.
    let dir = temp_dir("pdb-ctrl-c");
    let out = dir.join("run");
    let tables = dir.join("tables");
    let mut cmd = bin();
    cmd.args([
        "run",
        "inputs/4x4-shallow.csv",
        "-s",
        "idastar",
        "--heuristic",
        "pdb",
        "--pdb-partition",
        "6-6-3",
        "--pdb-dir",
        tables.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let mut run = Builder::spawn(cmd, None);
    run.wait_for("pdb: building the 6-tile table");
    let t0 = std::time::Instant::now();
    unsafe { libc::kill(run.id as i32, libc::SIGINT) };
    let (status, err) = run.finish();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted while the solvers were prepared"),
        "{err}"
    );
    assert!(!err.contains("pdb: built the 6-tile"), "{err}");
    assert!(t0.elapsed() < std::time::Duration::from_secs(2), "{err}");
    // Nothing cached, nothing half-written, no results directory.
    let left: Vec<String> = files_in(&tables)
        .into_iter()
        .filter(|n| n.contains(".pdb"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(!out.exists());
}

#[test]
fn an_empty_pdb_dir_is_refused_rather_than_taken_as_the_current_directory() {
    let (code, err) = pdb_build(&["--size", "2x3", "--pdb-dir", ""]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the directory is empty; give a path"), "{err}");
    assert!(!err.contains("pdb: built"), "{err}");
}

/// `pdb build --goal` without `--size` takes a square goal's shape from its cells, as `run`
/// reads a row (it used to take 4x4 and refuse a 3x3 goal as "9 cells, but a 4x4 board has
/// 16"); a goal whose cells make no square asks for `--size`.
#[test]
fn pdb_build_takes_a_square_goal_s_shape_without_size() {
    let dir = temp_dir("pdb-goal-shape");
    let d = dir.to_str().unwrap();
    let (code, err) = pdb_build(&["--goal", "1 2 3 4 5 6 7 8 x", "--pdb-dir", d]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        files_in(&dir),
        ["3x3-blank8-tiles1_2_3_4_5_6.pdb", "3x3-blank8-tiles7_8.pdb"]
    );
    let (code, err) = pdb_build(&["--goal", "1 2 3 4 5 6 7 8 9 10 11 x", "--pdb-dir", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--size"), "{err}");
}

/// A FIFO where a table file should be is refused before it is opened (opening it would wait
/// for a writer forever): `pdb verify` reports it in a sentence, `run` rebuilds the table over
/// it; neither hangs.
#[test]
fn a_fifo_in_place_of_a_table_is_refused_not_waited_on() {
    let dir = temp_dir("pdb-fifo");
    let d = dir.to_str().unwrap();
    let args = ["--size", "3x3", "--pdb-partition", "4-4", "--pdb-dir", d];
    run_ok(&[&["pdb", "build"][..], &args].concat());
    let table = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pdb"))
        .unwrap();
    std::fs::remove_file(&table).unwrap();
    let c = std::ffi::CString::new(table.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let limit = Duration::from_secs(20);
    let verify = run_bounded(&[&["pdb", "verify"][..], &args].concat(), 1 << 16, limit);
    assert!(!verify.timed_out, "pdb verify waited on the FIFO");
    assert_eq!(verify.status.code(), Some(1), "{}", verify.stderr);
    assert!(
        verify
            .stderr
            .contains("it is a named pipe (FIFO), not a table file"),
        "{}",
        verify.stderr
    );
    let run = run_bounded(
        &[
            &[
                "run",
                "inputs/seeds.csv",
                "-q",
                "-s",
                "astar",
                "--heuristic",
                "pdb",
            ][..],
            &args[2..],
            &["--out", dir.join("run").to_str().unwrap()],
        ]
        .concat(),
        1 << 16,
        limit,
    );
    assert!(!run.timed_out, "run waited on the FIFO");
    assert!(run.status.success(), "{}", run.stderr);
    assert!(run.stderr.contains("named pipe (FIFO)"), "{}", run.stderr);
    assert!(std::fs::metadata(&table).unwrap().is_file());
}
