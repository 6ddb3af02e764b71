//! run.json: what was run, where, when, and on what.

use crate::external::ExternalInfo;
use crate::harness::input::InputFile;
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
    pub max_states: u64,
    pub paths: bool,
    /// How latency is measured (built-in strategies).
    pub latency: String,
    /// The --solver programs, each with what its latency measures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external_solvers: Vec<ExternalInfo>,
}
