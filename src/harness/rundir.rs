//! A run's results directory, over its whole life: created (refusing to overwrite an earlier
//! run unless forced), resumed (checked against the command that resumes it), finished
//! (journal removed once the final files are written), saved as a baseline, and found again
//! by `compare`, `verify`, `plot` and `merge`.

use super::journal;
use crate::observe::Observer;
use crate::report::run_json::RunInfo;
use crate::util::atomic_write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where saved baselines live.
pub const BASELINES_DIR: &str = "results/baselines";

/// The files a finished run has in its directory.
pub const RUN_FILES: [&str; 3] = ["cases.csv", "summary.csv", "run.json"];

/// A run's results directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A file in the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Creates `out` (or `results/run-<UTC>` when `None`) for a new run and starts its
    /// journal with `info` as the manifest. Refuses a directory that holds a run, finished or
    /// not, unless `force`.
    ///
    /// # Errors
    /// The directory holds a run, is a file, or cannot be created or written.
    pub fn create(
        out: Option<&Path>,
        force: bool,
        started: SystemTime,
        info: &RunInfo,
    ) -> Result<RunDir, String> {
        let dir = RunDir::make(out, force, started)?;
        dir.start_journal(info)?;
        Ok(dir)
    }

    /// Creates the directory, refusing to overwrite an earlier run unless `force` (no journal).
    ///
    /// # Errors
    /// As [`RunDir::create`].
    pub fn make(out: Option<&Path>, force: bool, started: SystemTime) -> Result<RunDir, String> {
        let dir = match out {
            Some(d) => d.to_path_buf(),
            None => {
                let base = format!("results/run-{}", crate::util::compact_timestamp(started));
                let mut dir = PathBuf::from(&base);
                let mut n = 2;
                while dir.exists() {
                    dir = PathBuf::from(format!("{base}-{n}"));
                    n += 1;
                }
                dir
            }
        };
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "the output directory {} is a file, not a directory; choose another --out",
                dir.display()
            ));
        }
        if !force && dir.join(journal::MANIFEST).exists() {
            return Err(format!(
                "{} holds an unfinished run ({}); add --resume to finish it, or pass --force to \
                 start it again",
                dir.display(),
                journal::JOURNAL
            ));
        }
        if !force && RUN_FILES.iter().any(|f| dir.join(f).exists()) {
            return Err(format!(
                "{} already holds a run; pass --force to overwrite it, or choose another --out",
                dir.display()
            ));
        }
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create the output directory {}: {e}", dir.display()))?;
        // Fail now, not after solving, if the directory is not writable.
        let probe = dir.join(".tilebench-write-test");
        std::fs::write(&probe, b"").map_err(|e| {
            format!(
                "cannot write into the output directory {}: {e}",
                dir.display()
            )
        })?;
        let _ = std::fs::remove_file(probe);
        Ok(RunDir { path: dir })
    }

    /// Starts the journal of a new run: its manifest and empty journal files.
    fn start_journal(&self, info: &RunInfo) -> Result<(), String> {
        journal::create(&self.path)
            .map_err(|e| format!("cannot start the journal in {}: {e}", self.path.display()))?;
        let text = serde_json::to_string_pretty(info).expect("JSON") + "\n";
        atomic_write(&self.join(journal::MANIFEST), |w| {
            std::io::Write::write_all(w, text.as_bytes())
        })
    }

    /// The directory `--resume` finishes: `out`, checked against this command's inputs and
    /// options in `info` (which takes the start time and command of the run it finishes). A
    /// directory with no unfinished run is started afresh.
    ///
    /// # Errors
    /// No `out`, a finished run, an unreadable manifest, or a run started with other inputs
    /// or options.
    pub fn resume(
        out: Option<&Path>,
        info: &mut RunInfo,
        observer: &dyn Observer,
    ) -> Result<RunDir, String> {
        let Some(dir) = out else {
            return Err(format!(
                "--resume needs the --out DIR of the run to finish (the command printed when it \
                 stopped shows it){}",
                unfinished_hint()
            ));
        };
        let manifest = dir.join(journal::MANIFEST);
        if !manifest.is_file() {
            if dir.join("run.json").is_file() {
                return Err(format!(
                    "{} holds a finished run (run.json, no journal): nothing to resume; use it \
                     as it is, or pass --force instead of --resume to run it again",
                    dir.display()
                ));
            }
            observer.notice(&format!(
                "tilebench: no unfinished run in {}; starting it",
                dir.display()
            ));
            return RunDir::create(Some(dir), false, SystemTime::now(), info);
        }
        let text = std::fs::read_to_string(&manifest)
            .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        let was: RunInfo = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}: not a tilebench manifest ({e}); start the run again with --force",
                manifest.display()
            )
        })?;
        let mut diffs = info.differences(&was, ("now", "when started"));
        if was.shard != info.shard {
            let show =
                |s: &Option<super::shard::Shard>| s.map_or("none".to_string(), |s| s.to_string());
            diffs.push(format!(
                "--shard: `{}` now, `{}` when started",
                show(&info.shard),
                show(&was.shard)
            ));
        }
        if !diffs.is_empty() {
            return Err(format!(
                "{} holds a run started with other inputs or options, so --resume cannot finish \
                 it with this command:\n  {}\nresume it with the command it was started with \
                 (`command` in {}), or start a new run with another --out (or --force)",
                dir.display(),
                diffs.join("\n  "),
                manifest.display()
            ));
        }
        info.started_at = was.started_at;
        info.command = was.command;
        Ok(RunDir {
            path: dir.to_path_buf(),
        })
    }

    /// Reads the journal back.
    ///
    /// # Errors
    /// A damaged or foreign journal.
    pub fn load_journal(&self) -> Result<journal::Loaded, String> {
        journal::load(&self.path)
    }

    /// The run's final files are written: the journal goes.
    pub fn finish(&self) {
        journal::remove(&self.path);
    }

    /// Copies the finished run to `results/baselines/NAME`, replacing an older baseline of
    /// that name.
    ///
    /// # Errors
    /// A name that is not one plain word, or a copy that fails.
    pub fn save_baseline(&self, name: &str) -> Result<PathBuf, String> {
        check_baseline_name(name)?;
        let dest = Path::new(BASELINES_DIR).join(name);
        std::fs::create_dir_all(&dest)
            .map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
        let entries = std::fs::read_dir(&self.path)
            .map_err(|e| format!("cannot read {}: {e}", self.path.display()))?;
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_file() {
                let to = dest.join(entry.file_name());
                std::fs::copy(&p, &to)
                    .map_err(|e| format!("cannot copy to {}: {e}", to.display()))?;
            }
        }
        Ok(dest)
    }

    /// A saved baseline's directory.
    pub fn baseline(name: &str) -> PathBuf {
        Path::new(BASELINES_DIR).join(name)
    }

    /// `DIR` or `DIR/cases.csv`, as given to `compare`, `verify` and `plot`: the cases.csv.
    pub fn cases_csv(p: &Path) -> PathBuf {
        if p.is_dir() {
            p.join("cases.csv")
        } else {
            p.to_path_buf()
        }
    }
}

/// Checks a `--save-baseline` name before any solving.
///
/// # Errors
/// The name is empty, has a path separator, or starts with a dot.
pub fn check_baseline_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(format!(
            "--save-baseline `{name}`: a baseline name is one plain word, e.g. `main`"
        ));
    }
    Ok(())
}

/// `; unfinished runs under results/: …`, or nothing.
fn unfinished_hint() -> String {
    let mut unfinished: Vec<String> = std::fs::read_dir("results")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(journal::MANIFEST).is_file())
        .map(|e| e.path().display().to_string())
        .collect();
    unfinished.sort();
    if unfinished.is_empty() {
        String::new()
    } else {
        format!(
            "; unfinished runs under results/: {}",
            unfinished.join(", ")
        )
    }
}

/// The command that resumes a run started with `argv`: the same, with `--out DIR` (when it
/// had none) and `--resume`, without `--force`, quoted for a POSIX shell.
pub fn resume_command(argv: &[String], out_dir: &Path, add_out: bool) -> String {
    let mut argv: Vec<String> = argv.iter().filter(|a| *a != "--force").cloned().collect();
    if add_out {
        argv.push("--out".into());
        argv.push(out_dir.display().to_string());
    }
    if !argv.iter().any(|a| a == "--resume") {
        argv.push("--resume".into());
    }
    let quote = |a: &String| {
        let plain = !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
        if plain {
            a.clone()
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    argv.iter().map(quote).collect::<Vec<_>>().join(" ")
}
