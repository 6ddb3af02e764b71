//! A run's results directory, over its whole life: created (refusing to overwrite an earlier
//! run unless forced), resumed (checked against the command that resumes it), finished
//! (journal removed once the final files are written), saved as a baseline, and found again
//! by `compare`, `verify`, `plot` and `merge`.

use super::journal;
use crate::observe::{Observer, Wording};
use crate::results::run_json::RunInfo;
use crate::results::RUN_FILES;
use crate::util::atomic_write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where saved baselines live.
pub const BASELINES_DIR: &str = "results/baselines";

/// The lock file of a results directory: held (`flock`) by the one process writing it.
pub(crate) const LOCK: &str = ".tilebench.lock";

/// A run's results directory, locked for as long as the value lives: one writer at a time.
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    /// The held lock (released when dropped, or when the process ends however it ends).
    _lock: std::fs::File,
}

/// Takes `dir`'s lock without waiting, writing our pid into it; a directory already locked
/// is refused, naming the process that holds it.
fn lock(dir: &Path) -> Result<std::fs::File, Wording> {
    use std::io::{Read, Seek, Write};
    let path = dir.join(LOCK);
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| {
            let said = |what: &str| {
                format!(
                    "cannot open the lock file {}: {}; choose {what} you can write",
                    path.display(),
                    crate::util::io_reason(&e)
                )
            };
            Wording::new(said("a results directory"), said("an --out"))
        })?;
    if rustix::fs::flock(&f, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err() {
        let mut holder = String::new();
        let _ = f.read_to_string(&mut holder);
        let holder = holder.trim();
        let said = |what: &str| {
            format!(
                "{} is in use by another tilebench (process {}); wait for it to finish, or \
                 choose another {what}",
                dir.display(),
                if holder.is_empty() { "unknown" } else { holder }
            )
        };
        return Err(Wording::new(said("results directory"), said("--out")));
    }
    let _ = f.set_len(0);
    let _ = f.rewind();
    let _ = write!(f, "{}", std::process::id());
    let _ = f.flush();
    Ok(f)
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
    pub(crate) fn create(
        out: Option<&Path>,
        force: bool,
        started: SystemTime,
        info: &RunInfo,
    ) -> Result<RunDir, Wording> {
        let dir = RunDir::make(out, force, started)?;
        dir.start_journal(info)?;
        Ok(dir)
    }

    /// Creates the directory, refusing to overwrite an earlier run unless `force` (no journal).
    ///
    /// # Errors
    /// As [`RunDir::create`].
    pub(crate) fn make(
        out: Option<&Path>,
        force: bool,
        started: SystemTime,
    ) -> Result<RunDir, Wording> {
        let dir = match out {
            Some(d) => d.to_path_buf(),
            None => reserve_default(started)?,
        };
        if dir.exists() && !dir.is_dir() {
            let said = |what: &str| {
                format!(
                    "the output directory {} is a file, not a directory; choose another {what}",
                    dir.display()
                )
            };
            return Err(Wording::new(said("results directory"), said("--out")));
        }
        // The directory is made, and locked, before anything in it is looked at: a run that
        // looked at a directory another run was starting (both having found none) saw that
        // run's journal before its manifest, and refused it as a journal without one.
        std::fs::create_dir_all(&dir).map_err(|e| {
            format!(
                "cannot create the output directory {}: {}",
                dir.display(),
                crate::util::io_reason(&e)
            )
        })?;
        let held = lock(&dir)?;
        if !force && dir.join(journal::MANIFEST).exists() {
            let said = |how: &str| {
                format!(
                    "{} holds an unfinished run ({}); {how}",
                    dir.display(),
                    journal::JOURNAL
                )
            };
            return Err(Wording::new(
                said("resume it to finish it (the plan's mode Resume), or start it again (Force)"),
                said("add --resume to finish it, or pass --force to start it again"),
            ));
        }
        if !force && RUN_FILES.iter().any(|f| dir.join(f).exists()) {
            let said = |how: &str| format!("{} already holds a run; {how}", dir.display());
            return Err(Wording::new(
                said("overwrite it (the plan's mode Force), or choose another results directory"),
                said("pass --force to overwrite it, or choose another --out"),
            ));
        }
        if !force && dir.join(journal::JOURNAL).exists() {
            return Err(no_manifest(&dir));
        }
        if force {
            remove_files(&dir, is_run_file)?;
        }
        // Fail now, not after solving, if the directory is not writable.
        let probe = dir.join(".tilebench-write-test");
        std::fs::write(&probe, b"").map_err(|e| {
            format!(
                "cannot write into the output directory {}: {}",
                dir.display(),
                crate::util::io_reason(&e)
            )
        })?;
        let _ = std::fs::remove_file(probe);
        Ok(RunDir {
            path: dir,
            _lock: held,
        })
    }

    /// Starts the journal of a new run: its manifest and empty journal files.
    fn start_journal(&self, info: &RunInfo) -> Result<(), Wording> {
        journal::create(&self.path)
            .map_err(|e| format!("cannot start the journal in {}: {e}", self.path.display()))?;
        let text = serde_json::to_string_pretty(info).expect("JSON") + "\n";
        atomic_write(&self.join(journal::MANIFEST), |w| {
            std::io::Write::write_all(w, text.as_bytes())
        })
        .map_err(|e| e.to_string())?;
        Ok(())
    }

    /// The directory `--resume` finishes: `out`, checked against this command's inputs and
    /// options in `info` (which takes the start time and command of the run it finishes). A
    /// directory with no unfinished run is started afresh.
    ///
    /// # Errors
    /// No `out`, a finished run, an unreadable manifest, or a run started with other inputs
    /// or options.
    pub(crate) fn resume(
        out: Option<&Path>,
        info: &mut RunInfo,
        observer: &dyn Observer,
    ) -> Result<RunDir, Wording> {
        let Some(dir) = out else {
            return Err(Wording::new(
                format!(
                    "resuming needs the results directory of the run to finish (the plan's \
                     `out`){}",
                    unfinished_hint()
                ),
                format!(
                    "--resume needs the --out DIR of the run to finish (the command printed \
                     when it stopped shows it){}",
                    unfinished_hint()
                ),
            ));
        };
        let manifest = dir.join(journal::MANIFEST);
        let held = if dir.is_dir() { Some(lock(dir)?) } else { None };
        if held.is_some() {
            // We hold the lock, so every temporary file here is a killed writer's.
            remove_files(dir, is_leftover)?;
        }
        if !manifest.is_file() {
            if dir.join(crate::results::RUN_JSON).is_file() {
                // A kill between the manifest's removal and the journal's leaves the journal.
                remove_files(dir, |n| {
                    [journal::PASSES, super::store::SLOTS, super::store::TEXTS].contains(&n)
                })?;
                let said = |how: &str| {
                    format!(
                        "{} holds a finished run (run.json, no manifest): nothing to resume; \
                         use it as it is, or {how} to run it again",
                        dir.display()
                    )
                };
                return Err(Wording::new(
                    said("give the plan the mode Force instead of Resume"),
                    said("pass --force instead of --resume"),
                ));
            }
            if dir.join(journal::JOURNAL).is_file() {
                return Err(no_manifest(dir));
            }
            observer.notice(&format!(
                "tilebench: no unfinished run in {}; starting it",
                dir.display()
            ));
            drop(held);
            return RunDir::create(Some(dir), false, SystemTime::now(), info);
        }
        if dir.join(LEGACY_JOURNAL).is_file() {
            let said = |force: &str| {
                format!(
                    "{} holds a run that an older tilebench started: its results are in {}, \
                     which this version does not read; finish it with the version that started \
                     it, or start it again with {force}",
                    dir.display(),
                    LEGACY_JOURNAL
                )
            };
            return Err(Wording::new(said("the mode Force"), said("--force")));
        }
        let text = std::fs::read_to_string(&manifest)
            .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        let was: RunInfo = serde_json::from_str(&text).map_err(|e| {
            let said = |force: &str| {
                format!(
                    "{}: not a tilebench manifest ({e}); start the run again with {force}",
                    manifest.display()
                )
            };
            Wording::new(said("the mode Force"), said("--force"))
        })?;
        let mut diffs = info.differences(&was, ("now", "when started"));
        if was.shard != info.shard {
            let show = |s: &Option<crate::dataset::shard::Shard>| {
                s.map_or("none".to_string(), |s| s.to_string())
            };
            diffs.push(format!(
                "--shard: `{}` now, `{}` when started",
                show(&info.shard),
                show(&was.shard)
            ));
        }
        if !diffs.is_empty() {
            return Err(other_run(dir, &diffs, &manifest));
        }
        info.started_at = was.started_at;
        info.command = was.command;
        Ok(RunDir {
            path: dir.to_path_buf(),
            _lock: match held {
                Some(l) => l,
                None => lock(dir)?,
            },
        })
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
    pub(crate) fn save_baseline(&self, name: &str) -> Result<PathBuf, String> {
        check_baseline_name(name).map_err(|e| e.to_string())?;
        let dest = Path::new(BASELINES_DIR).join(name);
        std::fs::create_dir_all(&dest)
            .map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
        let entries = std::fs::read_dir(&self.path)
            .map_err(|e| format!("cannot read {}: {e}", self.path.display()))?;
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_file() && entry.file_name() != LOCK {
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
}

/// `results/run-<UTC>` (or `…-2`, `…-3`, …), created here: the name is taken by creating the
/// directory, never by looking first, so two runs started in the same second cannot share it.
fn reserve_default(started: SystemTime) -> Result<PathBuf, String> {
    let base = format!("results/run-{}", crate::util::compact_timestamp(started));
    std::fs::create_dir_all("results")
        .map_err(|e| format!("cannot create the results directory results/: {e}"))?;
    for n in 1.. {
        let dir = if n == 1 {
            PathBuf::from(&base)
        } else {
            PathBuf::from(format!("{base}-{n}"))
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(format!(
                    "cannot create the output directory {}: {}",
                    dir.display(),
                    crate::util::io_reason(&e)
                ))
            }
        }
    }
    unreachable!("some name is free")
}

/// A temporary file a killed writer left in a results directory: an atomic write's
/// `.NAME.tmp-PID`, or the writability probe.
fn is_leftover(name: &str) -> bool {
    name == ".tilebench-write-test"
        || name.starts_with('.')
            && name
                .rsplit_once(".tmp-")
                .is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// The text journal of tilebench before December 2026 (its results, one line each).
const LEGACY_JOURNAL: &str = "journal.csv";

/// A file a run writes into its results directory (not the lock, not a user's own files).
fn is_run_file(name: &str) -> bool {
    RUN_FILES.contains(&name)
        || [
            journal::MANIFEST,
            journal::PASSES,
            LEGACY_JOURNAL,
            super::store::SLOTS,
            super::store::TEXTS,
            crate::results::LATENCY_HLOG,
        ]
        .contains(&name)
        || crate::results::is_latency_hgrm(name)
        || is_leftover(name)
}

/// Removes the files of `dir` whose names `which` picks.
fn remove_files(dir: &Path, which: impl Fn(&str) -> bool) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name.to_str().is_some_and(&which) && entry.path().is_file() {
            std::fs::remove_file(entry.path()).map_err(|e| {
                format!(
                    "cannot remove {} (a file of the earlier run): {e}",
                    entry.path().display()
                )
            })?;
        }
    }
    Ok(())
}

/// The refusal for a journal without its manifest.
fn no_manifest(dir: &Path) -> Wording {
    let said = |force: &str| {
        format!(
            "{} holds a journal ({}) without its manifest ({}), so the run it belongs to cannot \
             be told and it cannot be resumed safely; {force} to start the run again (the \
             journal is discarded), or move the directory away to keep it",
            dir.display(),
            journal::JOURNAL,
            journal::MANIFEST
        )
    };
    Wording::new(said("give the plan the mode Force"), said("pass --force"))
}

/// The refusal to resume a run started with other inputs or options: `diffs` name them by
/// their flags (run.json's [`RunInfo::identity`]), and in the library's words without the
/// `--`.
fn other_run(dir: &Path, diffs: &[String], manifest: &Path) -> Wording {
    let listed = |words: bool| {
        diffs
            .iter()
            .map(|d| match d.strip_prefix("--") {
                Some(d) if words => d,
                _ => d,
            })
            .collect::<Vec<_>>()
            .join("\n  ")
    };
    Wording::new(
        format!(
            "{} holds a run started with other inputs or options, so it cannot be resumed \
             with this plan:\n  {}\nresume it with the plan it was started with (`command` \
             in {}), or start a new run in another results directory (or with the mode Force)",
            dir.display(),
            listed(true),
            manifest.display()
        ),
        format!(
            "{} holds a run started with other inputs or options, so --resume cannot finish \
             it with this command:\n  {}\nresume it with the command it was started with \
             (`command` in {}), or start a new run with another --out (or --force)",
            dir.display(),
            listed(false),
            manifest.display()
        ),
    )
}

/// Checks a `--save-baseline` name before any solving.
///
/// # Errors
/// The name is empty, has a path separator, or starts with a dot.
pub(crate) fn check_baseline_name(name: &str) -> Result<(), crate::error::PlanError> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(crate::error::PlanError::BaselineName { name: name.into() });
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
    crate::util::shell_command(&argv)
}
