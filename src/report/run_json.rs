//! run.json: what was run, where, when, and on what.

use crate::external::ExternalInfo;
use crate::harness::input::InputFile;
use crate::harness::shard::Shard;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunInfo {
    pub tilebench_version: String,
    pub git_commit: Option<String>,
    /// The command line, as given.
    pub command: Vec<String>,
    pub threads: usize,
    pub cpu_model: Option<String>,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub wall_s: f64,
    pub inputs: Vec<InputFile>,
    pub strategies: Vec<String>,
    /// Seconds each strategy spent building shared data before its pass (e.g. `table`).
    pub prepare_s: std::collections::BTreeMap<String, f64>,
    pub exhaustive: bool,
    pub repeat: u32,
    pub max_nodes: Option<u64>,
    pub timeout_s: Option<f64>,
    pub hash_buckets: usize,
    /// The heuristic of astar and idastar.
    pub heuristic: String,
    /// With `--heuristic pdb`: the pattern databases' partition, reflection and cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb: Option<PdbInfo>,
    pub max_states: u64,
    pub paths: bool,
    /// How latency is measured (built-in strategies).
    pub latency: String,
    /// The --solver programs, each with what its latency measures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external_solvers: Vec<ExternalInfo>,
    /// `--size` and `--goal`, which change how rows are read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// `--shard I/N`: this run holds only the cases of that shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// How many sessions solved the run (more than 1 when it was resumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<u32>,
    /// `merge`: the shard directories this run was made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
}

/// The pattern-database settings of a run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PdbInfo {
    /// `--pdb-partition`, or `default` (7-8 on 4x4, else groups of 6).
    pub partition: String,
    /// Whether the reflected lookup is taken (not with `--pdb-no-reflection`).
    pub reflection: bool,
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
            ("--exhaustive", j(&self.exhaustive)),
            ("--repeat", j(&self.repeat)),
            ("--max-nodes", j(&self.max_nodes)),
            ("--timeout", j(&self.timeout_s)),
            ("--hash-buckets", j(&self.hash_buckets)),
            ("--heuristic", self.heuristic.clone()),
            (
                "--pdb-partition",
                j(&self.pdb.as_ref().map(|p| p.partition.clone())),
            ),
            (
                "--pdb-no-reflection",
                j(&self.pdb.as_ref().map(|p| !p.reflection)),
            ),
            ("--max-states", j(&self.max_states)),
            ("--paths", j(&self.paths)),
            ("--size", j(&self.size)),
            ("--goal", j(&self.goal)),
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
            .map(|((what, a), (_, b))| format!("{what}: `{a}` {}, `{b}` {}", labels.0, labels.1))
            .collect()
    }
}

mod erased {
    pub trait Ser {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("JSON")
        }
    }
}
