//! Faults: output directories that cannot be written. (A strategy that panics on one case is
//! a unit test of the runner, `harness::runner`'s tests.)

use crate::common::*;
use std::path::Path;

/// `tilebench run` on the seed samples into `out`; returns exit code and stderr.
fn run_into(out: &Path) -> (Option<i32>, String) {
    let res = bin()
        .args(["run", "inputs/seeds.csv", "-q", "-s", "astar", "--out"])
        .arg(out)
        .output()
        .unwrap();
    (res.status.code(), stderr(&res))
}

/// Refused before any solving: exit 2, the path named, no "N cases × M strategies" line.
fn assert_refused(out: &Path, why: &str) {
    let (code, err) = run_into(out);
    assert_eq!(code, Some(2), "{err}");
    let want = format!("error: {why} {}", out.display());
    assert!(err.contains(&want), "expected `{want}` in:\n{err}");
    assert!(!err.contains("strategies on"), "solving started:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_missing_parent_directory_is_created() {
    let dir = temp_dir("fault-parent");
    let out = dir.join("a").join("b").join("run");
    let (code, err) = run_into(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.join("cases.csv").is_file());
}

#[test]
fn an_output_path_that_is_a_file_is_refused_before_solving() {
    let dir = temp_dir("fault-file");
    let file = dir.join("not-a-dir");
    std::fs::write(&file, "a file").unwrap();
    assert_refused(&file, "the output directory");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file");
}

/// A directory under a regular file cannot be created, even by root.
#[test]
fn an_output_path_under_a_file_is_refused_before_solving() {
    let dir = temp_dir("fault-under-file");
    let file = dir.join("plain-file");
    std::fs::write(&file, "a file").unwrap();
    assert_refused(&file.join("run"), "cannot create the output directory");
}

/// A read-only directory, refused before solving, as itself and as the parent of `--out`.
/// Mode bits do not stop root (as in CI containers), so as root the run is started as the
/// unprivileged user `nobody` (uid and gid 65534), for whom the directory is read-only: the
/// test always asserts, and first shows that the same user really cannot write there.
#[test]
#[cfg(unix)]
fn a_read_only_output_directory_is_refused_before_solving() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;
    // Under the system's temporary directory, with the binary and the dataset copied in:
    // uid 65534 must reach them, and a clean clone may sit below a directory only its owner
    // can enter (mktemp -d makes 0700).
    let dir = std::env::temp_dir().join(format!("tilebench-fault-readonly-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = dir.join("tilebench");
    std::fs::copy(env!("CARGO_BIN_EXE_tilebench"), &exe).unwrap();
    std::fs::copy("inputs/seeds.csv", dir.join("seeds.csv")).unwrap();
    let ro = dir.join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let root = std::fs::metadata(&dir).unwrap().uid() == 0;
    let as_user = |mut cmd: std::process::Command| {
        cmd.current_dir(&dir);
        if root {
            cmd.uid(65534).gid(65534);
        }
        cmd.output().unwrap_or_else(|e| {
            panic!("cannot start a process as uid 65534 (root needs CAP_SETUID here): {e}")
        })
    };
    let mut probe = std::process::Command::new("/bin/sh");
    probe.args(["-c", "echo x > \"$0\"/probe"]).arg(&ro);
    let probe = as_user(probe);
    assert!(
        !probe.status.success(),
        "the directory is writable: the test proves nothing"
    );
    assert!(!ro.join("probe").exists());
    for out in [ro.clone(), ro.join("sub")] {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(["run", "seeds.csv", "-q", "-s", "astar", "--out"])
            .arg(&out);
        let res = as_user(cmd);
        let err = stderr(&res);
        assert_eq!(res.status.code(), Some(2), "{}: {err}", out.display());
        assert!(err.starts_with("error: "), "{err}");
        assert!(
            err.contains(&out.display().to_string()),
            "the path is named: {err}"
        );
        let lower = err.to_lowercase();
        assert!(
            lower.contains("permission denied") || lower.contains("cannot write"),
            "the reason is given: {err}"
        );
        assert!(!err.contains("strategies on"), "solving started:\n{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(
        std::fs::read_dir(&ro).unwrap().count(),
        0,
        "nothing was written"
    );
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A disk that fills while the rows are read (a file size limit, as in the pdb tests: the
/// limit applies to root too): the scratch file the cases are spooled to cannot be written.
/// The run stops before solving with a sentence naming the directory and the reason, exit 2,
/// and leaves nothing behind (the scratch file has no name; the results directory was never
/// made). Without the limit the same command runs.
#[test]
fn a_disk_full_while_the_rows_are_read_is_an_error_that_leaves_nothing() {
    let dir = temp_dir("fault-spool-full");
    let data = dir.join("rows.csv");
    let gen = bin()
        .args(["gen", "-n", "20000", "--seed", "5", "-o"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(gen.status.success(), "{}", stderr(&gen));
    let out = dir.join("run");
    let script = format!(
        "trap '' XFSZ; ulimit -f 200 && exec \"$0\" run '{}' -s table -q --out '{}'",
        data.display(),
        out.display()
    );
    let res = std::process::Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_tilebench")])
        .output()
        .unwrap();
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "cannot write the cases being read to a scratch file in {}",
            dir.display()
        )) && err.contains("file size limit"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
    assert!(!out.exists());
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["rows.csv", "rows.csv.json"]);
    let res = bin()
        .args(["run", "-s", "table", "-q", "--out"])
        .arg(&out)
        .arg(&data)
        .output()
        .unwrap();
    assert!(res.status.success(), "{}", stderr(&res));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A disk that fills while the journal is written (here its texts file is `/dev/full`,
/// which refuses every write with "no space left"): the run stops with a sentence that names
/// the directory and says to finish it with `--resume`, exit 2, and leaves no final file;
/// once there is room, `--resume` finishes it with the results of a run that never failed.
#[test]
#[cfg(target_os = "linux")]
fn a_disk_full_while_the_journal_is_written_stops_the_run_and_resume_finishes_it() {
    let dir = temp_dir("fault-journal-full");
    let out = dir.join("run");
    std::fs::create_dir_all(&out).unwrap();
    let texts = out.join("journal-texts.bin");
    std::os::unix::fs::symlink("/dev/full", &texts).unwrap();
    let args = |out: &Path| {
        vec![
            "run".to_string(),
            "inputs/random-1k.csv".into(),
            "-s".into(),
            "astar".into(),
            "--paths".into(),
            "-q".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let res = bin().args(args(&out)).output().unwrap();
    let err = stderr(&res);
    assert_eq!(res.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "cannot write the run's journal in {}",
            out.display()
        )) && err.contains("disk is full")
            && err.contains("--resume"),
        "{err}"
    );
    assert!(!out.join("cases.csv").exists());
    std::fs::remove_file(&texts).unwrap();
    std::fs::write(&texts, b"").unwrap();
    let mut resume = args(&out);
    resume.push("--resume".into());
    run_ok(&resume);
    let reference = dir.join("reference");
    run_ok(&args(&reference));
    assert_eq!(
        without(&out.join("cases.csv"), &TIMING),
        without(&reference.join("cases.csv"), &TIMING)
    );
}
