//! A run's settings, read back from its run.json, and what differs between two runs.
//!
//! [`Settings::load`] reads a results directory's run.json into a [`Settings`]: every option
//! that can change what a run measures (strategy options, heuristic and pattern databases,
//! limits, threads, the tilebench version and commit, the CPU, the inputs and their
//! checksums, the external programs). [`diff`] lists what differs between two runs as typed
//! [`SettingChange`]s, each saying which [`Counter`]s of which solvers it can move, so a
//! comparison can print the differences before its verdict and put a note beside each
//! regression a changed setting explains.
//!
//! A setting a run.json does not record (a run made by an older tilebench, a CPU model on a
//! system without /proc/cpuinfo) is *unknown*: it is never reported as a change.
//!
//! This module reads run.json as JSON, field by field; it depends on no other part of
//! tilebench but the names of the strategies a setting is read by (listed here, and checked
//! against the registry by a test).
//!
//! ```
//! use tilebench::report::settings::{diff, Counter, Setting, Settings};
//! let base = Settings::from_json(r#"{"heuristic": "linear-conflict", "strategies": ["astar", "bfs-set"]}"#).unwrap();
//! let cur = Settings::from_json(r#"{"heuristic": "manhattan", "strategies": ["astar", "bfs-set"]}"#).unwrap();
//! let changes = diff(&base, &cur);
//! assert_eq!(changes.len(), 1);
//! assert_eq!(changes[0].setting, Setting::Heuristic);
//! assert!(changes[0].affects("astar", Counter::Expanded));
//! assert!(!changes[0].affects("bfs-set", Counter::Expanded));
//! assert!(!changes[0].affects("astar", Counter::Steps)); // astar stays optimal
//! ```

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::search::registry;

/// Whether `solver` is a built-in strategy whose answers are not optimal by construction: a
/// heuristic changes its path lengths too.
fn suboptimal(solver: &str) -> bool {
    registry::find(solver).is_some_and(|b| !b.optimal())
}

/// A setting of a run, as its user knows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Setting {
    /// The tilebench version (`tilebench_version`).
    Version,
    /// The git commit tilebench was built from.
    Commit,
    /// The CPU's model name.
    Cpu,
    /// Worker threads (`-j`/`--threads`; run.json records the number used).
    Threads,
    /// `--repeat`: solves per case.
    Repeat,
    /// The dataset files, with their checksums.
    Inputs,
    /// The solvers run, in order.
    Strategies,
    /// `--heuristic`.
    Heuristic,
    /// `--weight` (wastar).
    Weight,
    /// `--pdb-partition`.
    PdbPartition,
    /// `--pdb-lookup`.
    PdbLookup,
    /// `--max-nodes`.
    MaxNodes,
    /// `--timeout`.
    Timeout,
    /// `--max-states`.
    MaxStates,
    /// `--exhaustive`.
    Exhaustive,
    /// `--hash-buckets` (bfs-hash).
    HashBuckets,
    /// `--size`: the shape of rows without one.
    Size,
    /// `--goal`: the goal of rows without one.
    Goal,
    /// `--rows`: the data rows run (absent: all).
    Rows,
    /// `--paths`: whether the move strings are kept.
    Paths,
    /// One external program (`--solver NAME=COMMAND` and its protocol, blank, spawn mode and
    /// stdout), by its name.
    Solver(String),
}

impl Setting {
    /// The name a user knows it by: `heuristic`, `--max-nodes`, `threads`, `version`,
    /// `commit`, `cpu`, `solver my-astar`.
    pub fn name(&self) -> String {
        match self {
            Setting::Version => "version".into(),
            Setting::Commit => "commit".into(),
            Setting::Cpu => "cpu".into(),
            Setting::Threads => "threads".into(),
            Setting::Repeat => "--repeat".into(),
            Setting::Inputs => "inputs".into(),
            Setting::Strategies => "strategies".into(),
            Setting::Heuristic => "heuristic".into(),
            Setting::Weight => "weight".into(),
            Setting::PdbPartition => "--pdb-partition".into(),
            Setting::PdbLookup => "--pdb-lookup".into(),
            Setting::MaxNodes => "--max-nodes".into(),
            Setting::Timeout => "--timeout".into(),
            Setting::MaxStates => "--max-states".into(),
            Setting::Exhaustive => "--exhaustive".into(),
            Setting::HashBuckets => "--hash-buckets".into(),
            Setting::Size => "--size".into(),
            Setting::Goal => "--goal".into(),
            Setting::Rows => "--rows".into(),
            Setting::Paths => "--paths".into(),
            Setting::Solver(name) => format!("solver {name}"),
        }
    }

    /// The configuration column of the strategies' option it is the run-wide flag of.
    fn column(&self) -> Option<&'static str> {
        Some(match self {
            Setting::Heuristic => "heuristic",
            Setting::PdbPartition => "partition",
            Setting::PdbLookup => "lookup",
            Setting::Weight => "weight",
            Setting::HashBuckets => "hash_buckets",
            _ => return None,
        })
    }

    /// What it can change, and for which solvers.
    fn effect(&self) -> (Scope, &'static [Counter]) {
        use Counter::*;
        const ALL: &[Counter] = &[Status, Steps, Expanded, Generated, Stored, Latency];
        const SEARCH: &[Counter] = &[Steps, Expanded, Generated, Stored, Latency];
        // The strategies that declare the option (`registry::Knob`) read it.
        let some = |option: &str| {
            Scope::Solvers(
                registry::readers(option)
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            )
        };
        match self {
            // What a comparison of two builds tests is the code; a changed version or commit
            // is expected there and is not named as the cause of a changed counter.
            Setting::Version | Setting::Commit | Setting::Cpu | Setting::Threads => {
                (Scope::All, &[Latency])
            }
            Setting::Repeat => (Scope::All, &[Latency]),
            Setting::Inputs | Setting::Size | Setting::Goal | Setting::Rows => (Scope::All, ALL),
            Setting::Strategies | Setting::Paths => (Scope::All, &[]),
            Setting::Heuristic | Setting::PdbPartition | Setting::PdbLookup => {
                (some("heuristic"), SEARCH)
            }
            Setting::Weight => (some("weight"), SEARCH),
            Setting::MaxNodes | Setting::Timeout | Setting::MaxStates => (Scope::All, &[Status]),
            Setting::Exhaustive => (Scope::All, &[Expanded, Generated, Stored, Latency]),
            Setting::HashBuckets => (some("hash-buckets"), &[Latency]),
            Setting::Solver(name) => (Scope::Solvers(vec![name.clone()]), ALL),
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// What a setting can move: a row's status, or one of its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Counter {
    /// The row's status (a `limit` row, a different answer).
    Status,
    /// The path length.
    Steps,
    /// States expanded.
    Expanded,
    /// States generated.
    Generated,
    /// States stored.
    Stored,
    /// Latency (every figure of it: per case, p50, p99, …).
    Latency,
}

impl Counter {
    /// Its column in cases.csv (`latency_ns` for latency).
    pub(crate) fn column(self) -> &'static str {
        match self {
            Counter::Status => "status",
            Counter::Steps => "steps",
            Counter::Expanded => "expanded",
            Counter::Generated => "generated",
            Counter::Stored => "stored",
            Counter::Latency => "latency_ns",
        }
    }
}

/// The solvers a setting is read by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every solver of the run.
    All,
    /// Only these (built-in strategies or external programs, by name).
    Solvers(Vec<String>),
}

impl Scope {
    /// Whether `solver` is in it (any case).
    pub(crate) fn has(&self, solver: &str) -> bool {
        match self {
            Scope::All => true,
            Scope::Solvers(names) => names.iter().any(|n| n.eq_ignore_ascii_case(solver)),
        }
    }
}

/// One setting that differs between two runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingChange {
    /// Which setting.
    pub setting: Setting,
    /// Its value in the base run, as run.json records it (`none` for a limit not set).
    pub base: String,
    /// Its value in the current run.
    pub current: String,
    /// The solvers of the two runs that read it (for [`Scope::Solvers`], only those present
    /// in either run).
    pub scope: Scope,
    /// The counters it can move (for [`Counter::Steps`] of a heuristic: the suboptimal
    /// strategies' only; see [`SettingChange::affects`]).
    pub counters: Vec<Counter>,
    /// The built-in strategy of each solver label of [`SettingChange::scope`] that is not
    /// itself a strategy's name (`fast` → `wastar`), from run.json's `configurations`.
    pub algorithms: BTreeMap<String, String>,
}

impl SettingChange {
    /// Whether this change can explain a difference in `counter` of `solver`: the solver
    /// reads the setting and the setting moves that counter. A heuristic or its tables change
    /// the path lengths of suboptimal strategies only (an optimal one's are the optimum
    /// whatever its heuristic).
    pub fn affects(&self, solver: &str, counter: Counter) -> bool {
        let heuristic = matches!(
            self.setting,
            Setting::Heuristic | Setting::PdbPartition | Setting::PdbLookup
        );
        let algorithm = self.algorithms.get(solver).map_or(solver, String::as_str);
        if heuristic && counter == Counter::Steps && !suboptimal(algorithm) {
            return false;
        }
        self.scope.has(solver) && self.counters.contains(&counter)
    }
}

impl fmt::Display for SettingChange {
    /// `heuristic: linear-conflict → manhattan (can change steps, expanded, generated,
    /// stored, latency_ns of astar, wastar)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} → {}", self.setting, self.base, self.current)?;
        if self.counters.is_empty() {
            return Ok(());
        }
        let counters: Vec<&str> = self.counters.iter().map(|c| c.column()).collect();
        write!(f, " (can change {}", counters.join(", "))?;
        match &self.scope {
            Scope::All => write!(f, ")"),
            Scope::Solvers(names) => write!(f, " of {})", names.join(", ")),
        }
    }
}

/// Why a run.json could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// The file could not be read.
    #[error("cannot read {path}: {reason}; give a results directory that `tilebench run` finished (it writes run.json last)")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why, as the end of a sentence.
        reason: String,
    },
    /// The file is not a JSON object.
    #[error("{path}: line {line}, column {column}: {reason}; run.json is written by `tilebench run`: rerun it, or restore the file")]
    Parse {
        /// The file (`run.json` when parsed from text).
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        reason: String,
    },
}

/// A run's settings, as its run.json records them. Every field is `None` when run.json does
/// not say (an older run): unknown, never a difference.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Every recorded setting but the external programs and the solvers run, with its value
    /// as text; a setting not recorded is absent.
    pub values: BTreeMap<Setting, String>,
    /// The solvers run, in output order (`strategies`), when recorded.
    pub strategies: Option<Vec<String>>,
    /// Each external program by name: its command, protocol, blank, spawn mode and stdout.
    pub external: BTreeMap<String, String>,
    /// Each solver label's configuration cells (`algorithm`, and each option it reads:
    /// `heuristic`, `weight`, …), from run.json's `configurations`, when recorded.
    pub configured: BTreeMap<String, BTreeMap<String, String>>,
}

impl Settings {
    /// Reads `dir/run.json` (or `dir` itself when it names a file).
    ///
    /// # Errors
    /// The file cannot be read, or is not a JSON object.
    pub fn load(dir: &Path) -> Result<Settings, SettingsError> {
        let path = crate::results::file_of(dir, crate::results::RUN_JSON);
        let text = std::fs::read_to_string(&path).map_err(|e| SettingsError::Read {
            path: path.clone(),
            reason: crate::util::io_reason(&e),
        })?;
        Settings::from_json(&text).map_err(|e| match e {
            SettingsError::Parse {
                line,
                column,
                reason,
                ..
            } => SettingsError::Parse {
                path,
                line,
                column,
                reason,
            },
            other => other,
        })
    }

    /// Reads the text of a run.json. Fields it lacks are unknown; fields it does not know
    /// are ignored.
    ///
    /// # Errors
    /// The text is not a JSON object.
    pub fn from_json(text: &str) -> Result<Settings, SettingsError> {
        let parse_error = |line, column, reason: String| SettingsError::Parse {
            path: PathBuf::from(crate::results::RUN_JSON),
            line,
            column,
            reason,
        };
        let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|e| parse_error(e.line(), e.column(), e.to_string()))?;
        let Value::Object(o) = v else {
            return Err(parse_error(1, 1, "not a JSON object".into()));
        };
        Ok(Settings::from_object(&o))
    }

    #[cfg(test)]
    /// The settings of a run in memory (what its run.json says or will say).
    pub(crate) fn from_info(info: &crate::results::run_json::RunInfo) -> Settings {
        match serde_json::to_value(info) {
            Ok(Value::Object(o)) => Settings::from_object(&o),
            _ => Settings::default(),
        }
    }

    fn from_object(o: &serde_json::Map<String, Value>) -> Settings {
        let mut values = BTreeMap::new();
        // `null` means "not set" for options, "not known" for facts of the machine.
        let mut put = |s: Setting, key: &str, null: Option<&str>| {
            let text = match o.get(key) {
                None => None,
                Some(Value::Null) => null.map(str::to_string),
                Some(Value::String(t)) if t.is_empty() => None,
                Some(v) => Some(text_of(v)),
            };
            if let Some(t) = text {
                values.insert(s, t);
            }
        };
        put(Setting::Version, "tilebench_version", None);
        put(Setting::Commit, "git_commit", None);
        put(Setting::Cpu, "cpu_model", None);
        put(Setting::Repeat, "repeat", None);
        put(Setting::Heuristic, "heuristic", None);
        put(Setting::Weight, "weight", None);
        put(Setting::MaxNodes, "max_nodes", Some("none"));
        put(Setting::Timeout, "timeout_s", Some("none"));
        put(Setting::MaxStates, "max_states", Some("none"));
        put(Setting::Exhaustive, "exhaustive", None);
        put(Setting::HashBuckets, "hash_buckets", None);
        put(Setting::Paths, "paths", None);
        // Threads: 0 is "not yet known" (a manifest written before the run).
        if let Some(n) = o.get("threads").and_then(Value::as_u64).filter(|&n| n > 0) {
            values.insert(Setting::Threads, n.to_string());
        }
        settings_of_rows(o, &mut values);
        settings_of_pdb(o, &mut values);
        settings_of_inputs(o, &mut values);
        let strategies = o.get("strategies").and_then(Value::as_array).map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        });
        Settings {
            values,
            strategies,
            external: externals(o),
            configured: configured(o),
        }
    }

    /// The value of a setting, when recorded (an external program's: see
    /// [`Settings::external`]).
    pub fn get(&self, setting: &Setting) -> Option<&str> {
        match setting {
            Setting::Solver(name) => self.external.get(name).map(String::as_str),
            Setting::Strategies => None,
            s => self.values.get(s).map(String::as_str),
        }
    }
}

/// run.json's `configurations` (`fast: algorithm wastar, heuristic manhattan, weight 3`) by
/// label.
fn configured(o: &serde_json::Map<String, Value>) -> BTreeMap<String, BTreeMap<String, String>> {
    let lines = o.get("configurations").and_then(Value::as_array);
    let mut out = BTreeMap::new();
    for line in lines.into_iter().flatten().filter_map(Value::as_str) {
        let Some((label, cells)) = line.rsplit_once(": ") else {
            continue;
        };
        let cells = cells
            .split(", ")
            .filter_map(|c| c.split_once(' '))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        out.insert(label.to_string(), cells);
    }
    out
}

/// `--size`, `--goal` and `--rows`: absent from run.json when not given (since they were
/// recorded, i.e. whenever `inputs` is), so absent is "not given" when the run records its
/// inputs (a run made before `--rows` ran every row).
fn settings_of_rows(o: &serde_json::Map<String, Value>, values: &mut BTreeMap<Setting, String>) {
    if !o.contains_key("inputs") {
        return;
    }
    for (s, key) in [
        (Setting::Size, "size"),
        (Setting::Goal, "goal"),
        (Setting::Rows, "rows"),
    ] {
        let t = o
            .get(key)
            .filter(|v| !v.is_null())
            .map_or("none".into(), text_of);
        values.insert(s, t);
    }
}

/// The pattern databases' partition and lookup, for a run with `heuristic` `pdb` that
/// records them.
fn settings_of_pdb(o: &serde_json::Map<String, Value>, values: &mut BTreeMap<Setting, String>) {
    if o.get("heuristic").and_then(Value::as_str) != Some("pdb") {
        return;
    }
    let Some(pdb) = o.get("pdb").and_then(Value::as_object) else {
        return;
    };
    for (s, key) in [
        (Setting::PdbPartition, "partition"),
        (Setting::PdbLookup, "lookup"),
    ] {
        if let Some(v) = pdb.get(key).and_then(Value::as_str) {
            values.insert(s, v.to_string());
        }
    }
}

/// The inputs as `path (fnv1a64 HASH)`, joined by `, `.
fn settings_of_inputs(o: &serde_json::Map<String, Value>, values: &mut BTreeMap<Setting, String>) {
    let Some(files) = o.get("inputs").and_then(Value::as_array) else {
        return;
    };
    let text: Vec<String> = files
        .iter()
        .map(|f| {
            let field = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or("?");
            format!("{} (fnv1a64 {})", field("path"), field("fnv1a64"))
        })
        .collect();
    values.insert(Setting::Inputs, text.join(", "));
}

/// Each external program's command and how it was run.
fn externals(o: &serde_json::Map<String, Value>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(list) = o.get("external_solvers").and_then(Value::as_array) else {
        return out;
    };
    for e in list {
        let field = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
        let how: Vec<String> = ["protocol", "blank", "spawn", "stdout"]
            .iter()
            .filter(|k| !field(k).is_empty())
            .map(|k| format!("{k} {}", field(k)))
            .collect();
        out.insert(
            field("name").to_string(),
            format!("`{}` ({})", field("command"), how.join(", ")),
        );
    }
    out
}

/// A JSON value as a user reads it: strings without quotes.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The change of one configuration's option between two runs (cases.csv's configuration
/// column `column` of the solver labelled `label`, running `algorithm`), as a run-wide flag's
/// change would be: read by that label alone. `None` for a column that is no option of a flag.
pub(crate) fn for_label(
    label: &str,
    algorithm: &str,
    column: &str,
    (base, current): (&str, &str),
) -> Option<SettingChange> {
    let setting = [
        Setting::Heuristic,
        Setting::PdbPartition,
        Setting::PdbLookup,
        Setting::Weight,
        Setting::HashBuckets,
    ]
    .into_iter()
    .find(|s| s.column() == Some(column))?;
    let (_, counters) = setting.effect();
    let mut algorithms = BTreeMap::new();
    if algorithm != label && !algorithm.is_empty() {
        algorithms.insert(label.to_string(), algorithm.to_string());
    }
    Some(SettingChange {
        setting,
        base: base.to_string(),
        current: current.to_string(),
        scope: Scope::Solvers(vec![label.to_string()]),
        counters: counters.to_vec(),
        algorithms,
    })
}

/// Every setting that differs between `base` and `current`, in a fixed order (machine and
/// build first, then the inputs, the solvers, the options, the external programs). A setting
/// either run does not record is unknown and left out; so is an external program only one
/// run has (that is a difference in `strategies`). For settings read by some solvers only
/// (the heuristic, the weight), the scope lists those present in either run, and a setting
/// none of them reads is left out.
pub fn diff(base: &Settings, current: &Settings) -> Vec<SettingChange> {
    let present: Vec<&str> = base
        .strategies
        .iter()
        .chain(&current.strategies)
        .flatten()
        .map(String::as_str)
        .collect();
    let mut out = Vec::new();
    // A label's algorithm, where run.json says it (`fast` → `wastar`).
    let algorithm = |label: &str| -> String {
        [base, current]
            .iter()
            .find_map(|s| s.configured.get(label)?.get("algorithm"))
            .map_or_else(|| label.to_string(), String::clone)
    };
    let mut push = |setting: Setting, b: &str, c: &str| {
        let (mut scope, counters) = setting.effect();
        let mut algorithms = BTreeMap::new();
        if let Scope::Solvers(names) = &mut scope {
            // Runs that record their solvers: only the readers they ran, by label; a label
            // both runs describe is read by the flag only where its cell differs (one that
            // sets the option itself keeps it).
            if base.strategies.is_some() || current.strategies.is_some() {
                let mut labels: Vec<String> = Vec::new();
                for &p in &present {
                    let a = algorithm(p);
                    let reads = names
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(&a) || n.eq_ignore_ascii_case(p));
                    let cell = |s: &Settings| {
                        let column = setting.column()?;
                        Some(
                            s.configured
                                .get(p)?
                                .get(column)
                                .cloned()
                                .unwrap_or_default(),
                        )
                    };
                    let kept = matches!((cell(base), cell(current)), (Some(x), Some(y)) if x == y);
                    if reads && !kept && !labels.iter().any(|l| l == p) {
                        if a != p {
                            algorithms.insert(p.to_string(), a);
                        }
                        labels.push(p.to_string());
                    }
                }
                *names = labels;
                if names.is_empty() {
                    return;
                }
            }
        }
        out.push(SettingChange {
            setting,
            base: b.to_string(),
            current: c.to_string(),
            scope,
            counters: counters.to_vec(),
            algorithms,
        });
    };
    for (setting, b) in &base.values {
        if let Some(c) = current.values.get(setting) {
            if b != c {
                push(setting.clone(), b, c);
            }
        }
    }
    if let (Some(b), Some(c)) = (&base.strategies, &current.strategies) {
        if b != c {
            push(Setting::Strategies, &b.join(","), &c.join(","));
        }
    }
    for (name, b) in &base.external {
        if let Some(c) = current.external.get(name) {
            if b != c {
                push(Setting::Solver(name.clone()), b, c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run.json as `tilebench run` writes it today (fields trimmed to those read).
    fn run_json(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Settings {
        let mut v = serde_json::json!({
            "tilebench_version": "0.1.0",
            "git_commit": "b32f9e13fc5b",
            "threads": 2,
            "cpu_model": "AMD EPYC",
            "inputs": [{"path": "inputs/ci.csv", "rows": 300, "fnv1a64": "8244d4757937d4cf"}],
            "strategies": ["bfs-set", "astar", "wastar", "mine"],
            "exhaustive": false,
            "repeat": 1,
            "max_nodes": null,
            "timeout_s": null,
            "hash_buckets": 1000003,
            "heuristic": "manhattan",
            "weight": "1.5",
            "max_states": 50000000,
            "paths": true,
            "external_solvers": [{"name": "mine", "command": "./a.out", "protocol": "moves",
                                  "blank": "x", "spawn": "persistent", "stdout": "auto"}]
        });
        edit(v.as_object_mut().unwrap());
        Settings::from_json(&v.to_string()).unwrap()
    }

    fn set(key: &'static str, value: Value) -> impl FnOnce(&mut serde_json::Map<String, Value>) {
        move |o| {
            o.insert(key.into(), value);
        }
    }

    #[test]
    fn identical_runs_have_no_changes() {
        let a = run_json(|_| {});
        assert_eq!(diff(&a, &a.clone()), vec![]);
        assert!(!a.values.is_empty());
    }

    #[test]
    fn a_changed_heuristic_is_named_heuristic_and_moves_the_search_counters() {
        let base = run_json(set("heuristic", "linear-conflict".into()));
        let cur = run_json(|_| {});
        let changes = diff(&base, &cur);
        assert_eq!(changes.len(), 1, "{changes:?}");
        let c = &changes[0];
        assert_eq!(c.setting.name(), "heuristic");
        assert_eq!(
            (c.base.as_str(), c.current.as_str()),
            ("linear-conflict", "manhattan")
        );
        // The readers present, not every reader there is.
        assert_eq!(
            c.scope,
            Scope::Solvers(vec!["astar".into(), "wastar".into()])
        );
        assert!(c.affects("astar", Counter::Expanded));
        assert!(c.affects("wastar", Counter::Steps));
        assert!(!c.affects("astar", Counter::Steps));
        assert!(!c.affects("bfs-set", Counter::Expanded));
        assert!(!c.affects("astar", Counter::Status));
        assert_eq!(
            c.to_string(),
            "heuristic: linear-conflict → manhattan (can change steps, expanded, generated, \
             stored, latency_ns of astar, wastar)"
        );
    }

    #[test]
    fn machine_and_build_changes_move_latency_only() {
        let base = run_json(|o| {
            o.insert("threads".into(), 4.into());
            o.insert("cpu_model".into(), "Intel Xeon".into());
            o.insert("git_commit".into(), "0123456789ab".into());
            o.insert("tilebench_version".into(), "0.0.9".into());
        });
        let changes = diff(&base, &run_json(|_| {}));
        let names: Vec<String> = changes.iter().map(|c| c.setting.name()).collect();
        assert_eq!(names, ["version", "commit", "cpu", "threads"]);
        for c in &changes {
            assert_eq!(c.counters, vec![Counter::Latency], "{c}");
            assert!(c.affects("bfs-set", Counter::Latency));
            assert!(!c.affects("astar", Counter::Expanded));
        }
    }

    #[test]
    fn missing_fields_are_unknown_not_changed() {
        // An older run.json: no commit, CPU, weight, threads or solvers.
        let old = run_json(|o| {
            for k in [
                "git_commit",
                "cpu_model",
                "weight",
                "threads",
                "strategies",
                "external_solvers",
            ] {
                o.remove(k);
            }
        });
        let now = run_json(|o| {
            o.insert("weight".into(), "3".into());
            o.insert("threads".into(), 8.into());
        });
        assert_eq!(diff(&old, &now), vec![]);
        assert_eq!(diff(&now, &old), vec![]);
        // A machine without /proc/cpuinfo writes null: unknown too.
        let no_cpu = run_json(set("cpu_model", Value::Null));
        assert_eq!(diff(&no_cpu, &run_json(|_| {})), vec![]);
        assert_eq!(no_cpu.get(&Setting::Cpu), None);
    }

    #[test]
    fn a_limit_set_on_one_side_is_a_change_of_status() {
        let cur = run_json(set("max_nodes", 1000.into()));
        let changes = diff(&run_json(|_| {}), &cur);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].setting.name(), "--max-nodes");
        assert_eq!(
            (changes[0].base.as_str(), changes[0].current.as_str()),
            ("none", "1000")
        );
        assert!(changes[0].affects("bfs-set", Counter::Status));
        assert!(!changes[0].affects("bfs-set", Counter::Expanded));
    }

    #[test]
    fn the_weight_is_read_by_wastar_only_and_left_out_without_it() {
        let w3 = |o: &mut serde_json::Map<String, Value>| {
            o.insert("weight".into(), "3".into());
        };
        let changes = diff(&run_json(|_| {}), &run_json(w3));
        assert_eq!(changes.len(), 1);
        assert!(changes[0].affects("wastar", Counter::Steps));
        assert!(!changes[0].affects("astar", Counter::Expanded));
        let no_wastar = |o: &mut serde_json::Map<String, Value>| {
            o.insert("strategies".into(), serde_json::json!(["astar"]));
        };
        let a = run_json(no_wastar);
        let b = run_json(|o| {
            no_wastar(o);
            w3(o);
        });
        assert_eq!(diff(&a, &b), vec![]);
    }

    #[test]
    fn inputs_pdb_and_external_programs() {
        let base = run_json(|o| {
            o.insert("heuristic".into(), "pdb".into());
            o.insert(
                "pdb".into(),
                serde_json::json!({"partition": "default", "lookup": "max", "dir": "a"}),
            );
        });
        let cur = run_json(|o| {
            o.insert("heuristic".into(), "pdb".into());
            o.insert(
                "pdb".into(),
                serde_json::json!({"partition": "5-5-5", "lookup": "max", "dir": "b"}),
            );
            o["inputs"][0]["fnv1a64"] = "0000000000000000".into();
            o["external_solvers"][0]["spawn"] = "per-case".into();
        });
        let changes = diff(&base, &cur);
        let names: Vec<String> = changes.iter().map(|c| c.setting.name()).collect();
        assert_eq!(names, ["inputs", "--pdb-partition", "solver mine"]);
        assert!(changes[2].affects("mine", Counter::Latency));
        assert!(!changes[2].affects("astar", Counter::Latency));
        assert!(changes[0].affects("astar", Counter::Steps));
    }

    #[test]
    fn a_run_in_memory_has_the_settings_of_its_run_json() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/results/baselines/ci/run.json");
        let text = std::fs::read_to_string(path).unwrap();
        let info: crate::results::run_json::RunInfo = serde_json::from_str(&text).unwrap();
        let from_file = Settings::from_json(&text).unwrap();
        let from_info = Settings::from_info(&info);
        assert_eq!(from_file.get(&Setting::Heuristic), Some("manhattan"));
        // The file predates `weight`; the struct fills it in as empty, which is unknown too.
        assert_eq!(from_info, from_file);
    }

    #[test]
    fn bad_json_names_the_line() {
        let e = Settings::from_json("{\n  \"heuristic\": }").unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("run.json: line 2, column"), "{text}");
        assert!(Settings::from_json("[1]").is_err());
    }

    /// A run-wide flag's change reaches a configuration by its label (`fast` runs wastar)
    /// when its own cell changed with it, not one that sets the option itself; an external
    /// program's change reaches the program by its name.
    #[test]
    fn a_change_is_scoped_by_label() {
        let run = |weight: &str, keep: &str| {
            Settings::from_json(&format!(
                r#"{{"weight": "{weight}", "strategies": ["fast", "own", "prog"],
                "configurations": ["fast: algorithm wastar, heuristic manhattan, weight {weight}",
                "own: algorithm wastar, heuristic manhattan, weight {keep}",
                "prog: algorithm external"],
                "external_solvers": [{{"name": "prog", "command": "./p {weight}", "protocol": "moves", "blank": "x", "spawn": "per-case"}}]}}"#
            ))
            .unwrap()
        };
        let changes = diff(&run("2", "5"), &run("3", "5"));
        let weight = changes
            .iter()
            .find(|c| c.setting == Setting::Weight)
            .unwrap();
        assert_eq!(weight.scope, Scope::Solvers(vec!["fast".into()]));
        assert!(weight.affects("fast", Counter::Steps), "{weight}");
        assert!(!weight.affects("own", Counter::Steps), "{weight}");
        let prog = changes
            .iter()
            .find(|c| c.setting == Setting::Solver("prog".into()));
        assert!(
            prog.is_some_and(|c| c.affects("prog", Counter::Latency)),
            "{changes:?}"
        );
    }

    /// The readers come from the strategies' own option lists: the heuristic's are the
    /// strategies guided by one, the weight's wastar alone, the buckets' bfs-hash alone; every
    /// suboptimal strategy reads a heuristic.
    #[test]
    fn the_readers_are_the_strategies_that_declare_the_option() {
        let readers = registry::readers("heuristic");
        assert_eq!(
            readers,
            ["astar", "idastar", "dida", "idastar-tt", "wastar", "greedy"]
        );
        assert_eq!(registry::readers("weight"), ["wastar"]);
        assert_eq!(registry::readers("hash-buckets"), ["bfs-hash"]);
        for b in registry::all().iter().filter(|b| !b.optimal()) {
            assert!(readers.contains(&b.name), "{}", b.name);
        }
    }
}
