//! Korf's 50 random 24-puzzle instances (`inputs/korf50-24.csv`): the file against the figures
//! published with them (Korf and Felner 2002; see inputs/korf50-24.SOURCE.md) and against what
//! can be computed from the boards alone.

use tilebench::puzzle::{is_solvable, Board, Shape};

struct Row {
    id: u32,
    start: Board,
    goal: Board,
    steps: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut r = csv::Reader::from_path(format!("{root}/inputs/korf50-24.csv")).unwrap();
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        ["id", "start", "goal", "expected_steps", "korf_felner_nodes"]
    );
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            Row {
                id: rec[0].parse().unwrap(),
                start: rec[1].parse().unwrap(),
                goal: rec[2].parse().unwrap(),
                steps: rec[3].parse().unwrap(),
                nodes: rec[4].parse().unwrap(),
            }
        })
        .collect()
}

/// 50 instances in the paper's order, Korf's goal (blank first), every start a 5x5
/// permutation that can reach it. (That each optimal length fits the start's estimates is a
/// unit test of `search::wide`, whose estimates they are.)
#[test]
fn korfs_50_are_solvable_5x5_boards() {
    let all = rows();
    assert_eq!(all.len(), 50);
    let korf_goal: Board = (0..25)
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
        .parse()
        .unwrap();
    for (i, r) in all.iter().enumerate() {
        assert_eq!(r.id as usize, i + 1);
        assert_eq!(r.start.shape(), Shape::S5X5);
        assert_eq!(r.goal, korf_goal, "instance {}", r.id);
        assert!(is_solvable(&r.start, &r.goal), "instance {}", r.id);
    }
}

/// The figures quoted from the paper: the easiest instances by search effort, the first and
/// the hardest, and the mean of 3.6·10¹¹ nodes and 100.78 moves over all 50.
#[test]
fn korfs_50_carry_the_published_lengths_and_node_counts() {
    let all = rows();
    let by_id = |id: u32| all.iter().find(|r| r.id == id).unwrap();
    for (id, steps, nodes) in [
        (38, 96, 38_173_507u64),
        (40, 82, 65_099_578),
        (25, 81, 292_174_444),
        (32, 97, 428_222_507),
        (44, 93, 867_106_238),
        (1, 95, 2_031_102_635),
        (50, 113, 4_156_099_168_506),
    ] {
        assert_eq!((by_id(id).steps, by_id(id).nodes), (steps, nodes), "#{id}");
    }
    let easiest: Vec<u32> = {
        let mut v: Vec<&Row> = all.iter().collect();
        v.sort_by_key(|r| r.nodes);
        v.iter().take(3).map(|r| r.id).collect()
    };
    assert_eq!(easiest, [38, 40, 25]);
    let mean_nodes = all.iter().map(|r| r.nodes as f64).sum::<f64>() / 50.0;
    assert!((3.55e11..3.65e11).contains(&mean_nodes), "{mean_nodes}");
    let total_steps: u32 = all.iter().map(|r| r.steps).sum();
    assert_eq!(total_steps, 5039, "a mean of 100.78 moves");
}

/// The easy tier (`inputs/korf50-24-easy.csv`, what `scripts/bench.sh --korf24` solves) is
/// rows of the whole file, unchanged, each once, with the whole file's header.
#[test]
fn the_easy_tier_is_rows_of_the_whole_file() {
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |name: &str| std::fs::read_to_string(format!("{root}/inputs/{name}")).unwrap();
    let (all, easy) = (read("korf50-24.csv"), read("korf50-24-easy.csv"));
    let all: Vec<&str> = all.lines().collect();
    let easy: Vec<&str> = easy.lines().collect();
    assert_eq!(easy[0], all[0]);
    let ids: Vec<&str> = easy[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(ids, ["40", "38", "25", "44", "1"]);
    for line in &easy[1..] {
        assert_eq!(all.iter().filter(|l| *l == line).count(), 1, "{line}");
    }
}
