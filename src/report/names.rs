//! The names a run's figures go by on dashboards (Bencher, github-action-benchmark): one per
//! solver, unique across the datasets and settings a project tracks.
//!
//! `tilebench/<dataset>/<solver>[<settings>]`:
//! - `<dataset>`: the input files' stems, in command-line order, joined by `+`
//!   (`random-1k`, `korf100+3x4-random`; `stdin` for `-`, `seeds` for the built-in samples).
//!   Always there: one run has one dataset, and a project that tracks two makes two runs, whose
//!   names must differ.
//! - `<settings>`: the options the solver reads that differ from their defaults, as
//!   `[name=value,…]` in a fixed order: `heuristic`, `pdb-partition`, `pdb-lookup` (astar,
//!   idastar, dida, idastar-tt, wastar, greedy), `weight` (wastar). Absent when the solver runs
//!   with the defaults, so the usual names stay short and a series keeps its name when a second
//!   setting is tracked beside it; a solver that reads none of them (bfs-set, an external
//!   program) never has any, so its series does not split when the heuristic changes.

use crate::dataset::BUILTIN_NAME;
use crate::results::run_json::RunInfo;

/// The dataset's name: the input files' stems joined by `+` (`stdin` for `-`, `seeds` for
/// the built-in samples).
pub(crate) fn dataset_name(info: &RunInfo) -> String {
    if info.inputs.is_empty() {
        return stem(BUILTIN_NAME);
    }
    let stems: Vec<String> = info.inputs.iter().map(|f| stem(&f.path)).collect();
    stems.join("+")
}

fn stem(path: &str) -> String {
    if path == "-" {
        return "stdin".into();
    }
    std::path::Path::new(path)
        .file_stem()
        .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

/// The options `solver` reads that differ from their defaults, as `name=value`, in order.
pub(crate) fn settings_of(info: &RunInfo, solver: &str) -> Vec<String> {
    let mut out = Vec::new();
    if crate::search::registry::reads(solver, "heuristic") {
        if info.heuristic != crate::search::heuristic::HEURISTIC.default {
            out.push(format!("heuristic={}", info.heuristic));
        }
        if let Some(pdb) = &info.pdb {
            for (name, value) in [
                ("pdb-partition", &pdb.partition),
                ("pdb-lookup", &pdb.lookup),
            ] {
                if value != "default" {
                    out.push(format!("{name}={value}"));
                }
            }
        }
    }
    if crate::search::registry::reads(solver, "weight")
        && !info.weight.is_empty()
        && info.weight != crate::search::wastar::WEIGHT.default
    {
        out.push(format!("weight={}", info.weight));
    }
    out
}

/// `tilebench/<dataset>/<solver>[<settings>]`: see the module's documentation.
pub(crate) fn benchmark_name(info: &RunInfo, solver: &str) -> String {
    let settings = settings_of(info, solver);
    let mut name = format!("tilebench/{}/{solver}", dataset_name(info));
    if !settings.is_empty() {
        name.push('[');
        name.push_str(&settings.join(","));
        name.push(']');
    }
    name
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_add_only_the_settings_that_differ() {
        use crate::report::names::benchmark_name;
        let mut info: crate::results::run_json::RunInfo = serde_json::from_str(r#"{"tilebench_version": "0.1.0", "git_commit": null, "command": [], "threads": 1, "cpu_model": null, "started_at": "", "wall_s": 0, "inputs": [{"path": "inputs/random-1k.csv", "rows": 1, "invalid_rows": 0, "bytes": 1, "fnv1a64": "0"}], "strategies": [], "prepare_s": {}, "exhaustive": false, "repeat": 1, "max_nodes": null, "timeout_s": null, "hash_buckets": 1, "heuristic": "manhattan", "weight": "1.5", "max_states": 1, "paths": false, "latency": ""}"#).unwrap();
        assert_eq!(benchmark_name(&info, "astar"), "tilebench/random-1k/astar");
        info.heuristic = "linear-conflict".into();
        info.weight = "2".into();
        assert_eq!(
            benchmark_name(&info, "wastar"),
            "tilebench/random-1k/wastar[heuristic=linear-conflict,weight=2]"
        );
        assert_eq!(
            benchmark_name(&info, "bfs-set"),
            "tilebench/random-1k/bfs-set"
        );
    }
}
