//! run.json: what was run, where, when, and on what.

use crate::dataset::shard::Shard;
use crate::dataset::InputFile;
use crate::external::ExternalInfo;
use serde::{Deserialize, Serialize};

/// The contents of run.json (and of a run in progress's manifest.json): the version, the
/// machine, the inputs with their checksums, the strategies and every option of the run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunInfo {
    /// The version of tilebench that made the run (`CARGO_PKG_VERSION`).
    pub tilebench_version: String,
    /// The git commit the binary was built from, when known.
    pub git_commit: Option<String>,
    /// The command line, as given.
    pub command: Vec<String>,
    /// Worker threads that solved the cases.
    pub threads: usize,
    /// The CPU's model name from /proc/cpuinfo, when there is one.
    pub cpu_model: Option<String>,
    /// RFC 3339, UTC.
    pub started_at: String,
    /// The run's wall time, in seconds (summed solving time over the sessions of a resumed
    /// run).
    pub wall_s: f64,
    /// The dataset files, in command-line order, with their sizes and checksums.
    pub inputs: Vec<InputFile>,
    /// The strategy names (built-in and external), in output order.
    pub strategies: Vec<String>,
    /// Seconds each strategy spent building shared data before its pass (e.g. `table`).
    pub prepare_s: std::collections::BTreeMap<String, f64>,
    /// `--exhaustive`: unsolvable pairs were searched to exhaustion instead of answered by
    /// parity.
    pub exhaustive: bool,
    /// `--repeat`: how many times each case was solved.
    pub repeat: u32,
    /// `--max-nodes`: the most states one search could expand.
    pub max_nodes: Option<u64>,
    /// `--timeout`: the longest one case could take, in seconds.
    pub timeout_s: Option<f64>,
    /// `--hash-buckets`: the buckets of bfs-hash's chained table.
    pub hash_buckets: usize,
    /// The heuristic of astar, idastar, wastar and greedy.
    pub heuristic: String,
    /// `--weight`: wastar's weight (older runs: empty).
    #[serde(default)]
    pub weight: String,
    /// With `--heuristic pdb`: the pattern databases' partition, lookups and cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb: Option<PdbInfo>,
    /// `--max-states`: the most distinct states one search could store.
    pub max_states: u64,
    /// `--max-memory`: the most heap bytes one case could hold (older runs: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memory: Option<u64>,
    /// `--paths`: whether cases.csv holds the move strings.
    pub paths: bool,
    /// How latency is measured (built-in strategies).
    pub latency: String,
    /// The --solver programs, each with what its latency measures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external_solvers: Vec<ExternalInfo>,
    /// `--size`: the board shape of rows without a `size` column (`3x4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// `--goal`: the goal of rows without one, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// `--shard I/N`: this run holds only the cases of that shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// `--rows`: this run holds only the cases of these data rows (1-based, over the inputs
    /// in order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<crate::dataset::rows::Rows>,
    /// How many sessions solved the run (more than 1 when it was resumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<u32>,
    /// `merge`: the shard directories this run was made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// The XXH3 64-bit hash of cases.csv's bytes, as 16 hex digits: `merge` refuses a
    /// shard whose cases.csv was changed after its run, and `verify` such a run (absent in
    /// runs made before XXH3, late on 2026-12-05: those of 2026-12-04 and 12-05 have
    /// [`RunInfo::cases_fnv1a64`], older ones neither).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cases_xxh3_64: Option<String>,
    /// The FNV-1a 64-bit hash of cases.csv's bytes, written by runs made on 2026-12-04 and
    /// 12-05 before XXH3 (`verify` and `merge` still check it; newer runs write
    /// [`RunInfo::cases_xxh3_64`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cases_fnv1a64: Option<String>,
    /// How each solver that reports it ran: an external program's final spawn mode and
    /// stdout, the start-up cost of one of its processes, a batch's wall time (labelled, with
    /// units in the names).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub solver_facts:
        std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    /// `--order`: how the solvers took turns at the cases, `shuffled` or `blocked` (empty in
    /// runs made before the option: blocked).
    #[serde(default)]
    pub order: String,
    /// `--seed`: the seed of the shuffled turns (absent when blocked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Each solver's label and what it runs (`fast: algorithm wastar, heuristic manhattan,
    /// weight 3`), in solver order (absent in runs made before it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub configurations: Vec<String>,
}

/// The pattern-database settings of a run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PdbInfo {
    /// `--pdb-partition`, or `default` (7-8 on 4x4, else groups of 6).
    pub partition: String,
    /// `--pdb-lookup`, or `default` (`max`).
    pub lookup: String,
    /// Where the tables are cached.
    pub dir: String,
}

impl RunInfo {
    /// What makes two runs' results comparable case by case, field by field: version, inputs
    /// (path and checksum), strategies and every option that changes an answer or a counter.
    /// Threads, times, the machine and the shard are left out.
    pub fn identity(&self) -> Vec<(&'static str, String)> {
        let j = |v: &dyn erased::Ser| v.json();
        vec![
            ("tilebench version", self.tilebench_version.clone()),
            ("git commit", j(&self.git_commit)),
            (
                "inputs",
                self.inputs
                    .iter()
                    .map(|f| format!("{} (fnv1a64 {}, {} rows)", f.path, f.fnv1a64, f.rows))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ("strategies", self.strategies.join(",")),
            ("configurations", self.configurations.join("; ")),
            ("--exhaustive", j(&self.exhaustive)),
            ("--repeat", j(&self.repeat)),
            ("--max-nodes", j(&self.max_nodes)),
            ("--timeout", j(&self.timeout_s)),
            ("--hash-buckets", j(&self.hash_buckets)),
            ("--heuristic", self.heuristic.clone()),
            ("--weight", self.weight.clone()),
            (
                "--pdb-partition",
                j(&self.pdb.as_ref().map(|p| p.partition.clone())),
            ),
            (
                "--pdb-lookup",
                j(&self.pdb.as_ref().map(|p| p.lookup.clone())),
            ),
            ("--max-states", j(&self.max_states)),
            ("--max-memory", j(&self.max_memory)),
            ("--paths", j(&self.paths)),
            ("--size", j(&self.size)),
            ("--goal", j(&self.goal)),
            (
                "--rows",
                self.rows.as_ref().map_or("null".into(), |r| r.to_string()),
            ),
            (
                "--solver",
                self.external_solvers
                    .iter()
                    .map(|e| {
                        format!(
                            "{}={} ({}, blank {}, {})",
                            e.name, e.command, e.protocol, e.blank, e.spawn
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        ]
    }

    /// How `other` differs from this run in [`RunInfo::identity`], one line per field;
    /// `labels` name the two (e.g. `now`, `when started`).
    pub fn differences(&self, other: &RunInfo, labels: (&str, &str)) -> Vec<String> {
        self.identity()
            .into_iter()
            .zip(other.identity())
            .filter(|(a, b)| a.1 != b.1)
            // A run made before the configurations were recorded has none to compare.
            .filter(|(a, b)| a.0 != "configurations" || !a.1.is_empty() && !b.1.is_empty())
            .map(|((what, a), (_, b))| {
                // An option not given is JSON's null: say so in words.
                let shown = |v: &str| match v {
                    "null" => "not set".to_string(),
                    v => format!("`{v}`"),
                };
                format!(
                    "{what}: {} {}, {} {}",
                    shown(&a),
                    labels.0,
                    shown(&b),
                    labels.1
                )
            })
            .collect()
    }
}

mod erased {
    pub(super) trait Ser {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("JSON")
        }
    }
}
impl RunInfo {
    /// The run's cases: its inputs' rows, or the rows it chose (`--rows`).
    pub fn cases(&self) -> usize {
        let total = self.inputs.iter().map(|f| f.rows).sum();
        self.rows.as_ref().map_or(total, |r| r.within(total))
    }
}
