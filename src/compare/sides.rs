//! The sides of a comparison: a run (its cases.csv, tallied, and its inputs' checksums from
//! run.json), or a set of replicate runs; how two sides' inputs are paired; two solvers of
//! one run picked as two sides.

use super::CompareError;
use crate::dataset::InputFile;
use crate::report::settings::Settings;
use crate::results::cases_csv::{Rows, Tally};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One run as given to compare: its cases.csv (read as a stream when rows are matched), how
/// many rows of each input and solver it has, and its inputs' checksums when a run.json
/// lies beside the cases.csv.
#[derive(Clone, Debug)]
pub(crate) struct Side {
    /// The cases.csv read.
    pub path: PathBuf,
    /// Rows by input and solver, in order of first appearance.
    pub tally: Vec<Tally>,
    /// run.json's inputs, when there is a readable one.
    pub inputs: Option<Vec<InputFile>>,
    /// The run's settings from its run.json, or why they cannot be read.
    pub settings: Result<Settings, crate::report::settings::SettingsError>,
    /// Two solvers of one run: only this solver's rows, under this label.
    pub pick: Option<(String, String)>,
    /// Inputs read under another path than the baseline's, renamed to the baseline's path.
    pub rename: HashMap<String, String>,
}

impl Side {
    /// The checksum run.json gives for `input`.
    fn checksum(&self, input: &str) -> Option<&str> {
        let files = self.inputs.as_ref()?;
        files
            .iter()
            .find(|f| f.path == input)
            .map(|f| f.fnv1a64.as_str())
    }

    /// The rows compared (those of the picked solver, if one is), by input and solver.
    pub(super) fn tallies(&self) -> impl Iterator<Item = &Tally> {
        self.tally
            .iter()
            .filter(|t| self.pick.as_ref().is_none_or(|(s, _)| *s == t.strategy))
    }

    /// The distinct inputs of the rows, in order, with their row counts.
    pub(super) fn input_rows(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for t in self.tallies() {
            match out.iter_mut().find(|(i, _)| *i == t.input) {
                Some((_, n)) => *n += t.rows,
                None => out.push((t.input.clone(), t.rows)),
            }
        }
        out
    }

    /// Solver `label`'s configuration cells (its first row's), when the cases.csv has them:
    /// `None` for a column the file lacks.
    pub(super) fn setting(&self, label: &str) -> Option<&Vec<Option<String>>> {
        self.tally
            .iter()
            .find(|t| t.strategy == label)
            .and_then(|t| t.setting.as_ref())
    }

    /// The solvers of the run, in order of first appearance.
    pub(super) fn solvers(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for t in &self.tally {
            if !out.contains(&t.strategy.as_str()) {
                out.push(&t.strategy);
            }
        }
        out
    }
}

/// Reads a run's tally and its inputs' checksums.
fn load(p: &Path) -> Result<Side, CompareError> {
    let path = crate::results::cases_csv_of(p);
    if !path.exists() {
        return Err(CompareError::Results(format!(
            "{}: no such results; give a run's directory (with cases.csv) or its cases.csv",
            path.display()
        )));
    }
    // One pass over two columns; the rows themselves are read when they are matched.
    let tally = Rows::open(&path)
        .and_then(Rows::tally)
        .map_err(|e| CompareError::Results(e.to_string()))?;
    if tally.is_empty() {
        return Err(CompareError::Results(format!(
            "{}: no rows, only the header: that run recorded no cases, so there is nothing \
             to compare; give the results of a run that solved its dataset",
            path.display()
        )));
    }
    /// The part of run.json compare reads.
    #[derive(serde::Deserialize)]
    struct Inputs {
        inputs: Vec<InputFile>,
    }
    let json = path.with_file_name(crate::results::RUN_JSON);
    let inputs = std::fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str::<Inputs>(&t).ok())
        .map(|i| i.inputs);
    let settings = Settings::load(&json);
    Ok(Side {
        path,
        tally,
        inputs,
        settings,
        pick: None,
        rename: HashMap::new(),
    })
}

/// One side of a comparison: a run, or replicate runs of one build (a directory whose
/// subdirectories are runs). The first run is checked for answers and work; latency is
/// compared over all of them.
#[derive(Clone, Debug)]
pub(crate) struct Set {
    /// What the user gave, as they wrote it.
    pub given: PathBuf,
    /// The runs, the first checked for answers and work.
    pub runs: Vec<Side>,
}

/// Loads `p`: a run (its directory or cases.csv), or a directory of replicate runs.
pub(crate) fn load_set(p: &Path) -> Result<Set, CompareError> {
    if p.is_dir() && !p.join(crate::results::CASES_CSV).exists() {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| {
                CompareError::Results(format!(
                    "cannot read {}: {}",
                    p.display(),
                    crate::util::io_reason(&e)
                ))
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|d| d.join(crate::results::CASES_CSV).is_file())
            .collect();
        if !dirs.is_empty() {
            dirs.sort();
            let runs = dirs
                .iter()
                .map(|d| load(d))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Set {
                given: p.to_path_buf(),
                runs,
            });
        }
    }
    Ok(Set {
        given: p.to_path_buf(),
        runs: vec![load(p)?],
    })
}

/// Two solvers of one set of runs as two sides: `b`'s rows the baseline, `a`'s the current,
/// both under the label `A vs B` so that they pair case by case.
///
/// # Errors
/// The run has no rows of `a` or of `b` (the message lists its solvers).
pub(crate) fn pick_pair(set: &Set, a: &str, b: &str) -> Result<(Set, Set), CompareError> {
    let label = format!("{a} vs {b}");
    let first = &set.runs[0];
    let present = first.solvers();
    for name in [a, b] {
        if !present.contains(&name) {
            return Err(CompareError::Plan(super::plan_error(format!(
                "{}: no rows of strategy `{name}`; its strategies are {}: give two or more of \
                 them to --strategies",
                first.path.display(),
                present.join(", ")
            ))));
        }
    }
    let pick = |name: &str| Set {
        given: set.given.clone(),
        runs: set
            .runs
            .iter()
            .map(|side| Side {
                pick: Some((name.to_string(), label.clone())),
                ..side.clone()
            })
            .collect(),
    };
    Ok((pick(b), pick(a)))
}

/// How two runs' inputs were paired.
#[derive(Clone, Debug, Default)]
pub(crate) struct InputMatch {
    /// What the reader should know: inputs matched by checksum, inputs that changed.
    pub notes: Vec<String>,
    /// Inputs only the baseline read, with their row counts (their rows are missing).
    pub only_base: Vec<(String, usize)>,
    /// Inputs only the current run read, with their row counts (their rows are new).
    pub only_cur: Vec<(String, usize)>,
}

/// Pairs the inputs of the runs: by path, else by checksum (the current run's rows are then
/// renamed to the baseline's path). Two runs without a common input cannot be compared.
pub(crate) fn match_inputs(base: &Side, cur: &mut Side) -> Result<InputMatch, CompareError> {
    let base_inputs = base.input_rows();
    let mut cur_inputs = cur.input_rows();
    let mut found = InputMatch::default();
    let mut rename: HashMap<String, String> = HashMap::new();
    for (b, rows) in &base_inputs {
        if let Some(i) = cur_inputs.iter().position(|(c, _)| c == b) {
            cur_inputs.remove(i);
            if let (Some(x), Some(y)) = (base.checksum(b), cur.checksum(b)) {
                if x != y {
                    found.notes.push(format!(
                        "`{b}` changed between the runs (fnv1a64 {x} in the baseline, {y} now): \
                         its rows are matched by id (or line), but they may be other cases"
                    ));
                }
            }
            continue;
        }
        let same = base.checksum(b).and_then(|sum| {
            cur_inputs.iter().position(|(c, _)| {
                !base_inputs.iter().any(|(x, _)| x == c) && cur.checksum(c) == Some(sum)
            })
        });
        match same {
            Some(i) => {
                let (c, _) = cur_inputs.remove(i);
                found.notes.push(format!(
                    "the current run read `{c}` where the baseline read `{b}`: the same file \
                     (fnv1a64 {}), so their rows are matched",
                    base.checksum(b).unwrap_or_default()
                ));
                rename.insert(c, b.clone());
            }
            None => found.only_base.push((b.clone(), *rows)),
        }
    }
    found.only_cur = cur_inputs;
    if found.only_base.len() == base_inputs.len() {
        return Err(CompareError::DifferentInputs(different_inputs(
            base, cur, &found,
        )));
    }
    if !found.only_base.is_empty()
        && !found.only_cur.is_empty()
        && (base.inputs.is_none() || cur.inputs.is_none())
    {
        found.notes.push(format!(
            "inputs whose paths differ could not be matched by checksum: there is no readable \
             {} (it holds each input's checksum); give the results directories",
            lacking_checksums(base, cur)
        ));
    }
    cur.rename = rename;
    Ok(found)
}

/// The run.json files that are missing or unreadable, so that checksums cannot pair inputs.
fn lacking_checksums(base: &Side, cur: &Side) -> String {
    [base, cur]
        .iter()
        .filter(|s| s.inputs.is_none())
        .map(|s| {
            s.path
                .with_file_name(crate::results::RUN_JSON)
                .display()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The message for two runs that share no input.
fn different_inputs(base: &Side, cur: &Side, found: &InputMatch) -> String {
    let names = |side: &Side, list: &[(String, usize)]| {
        list.iter()
            .map(|(i, n)| match side.checksum(i) {
                Some(c) => format!("`{i}` (fnv1a64 {c}, {n} rows)"),
                None => format!("`{i}` ({n} rows)"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let read = format!(
        "the baseline {} read {}, the current run {} read {}",
        base.path.display(),
        names(base, &found.only_base),
        cur.path.display(),
        names(cur, &found.only_cur)
    );
    if base.inputs.is_some() && cur.inputs.is_some() {
        format!(
            "the two runs used different input files: {read}; compare two runs of the same \
             datasets"
        )
    } else {
        format!(
            "the two runs' inputs have different paths: {read}; without {} their checksums \
             cannot tell whether they are the same files: give the results directories (each \
             run.json holds its inputs' checksums)",
            lacking_checksums(base, cur)
        )
    }
}
