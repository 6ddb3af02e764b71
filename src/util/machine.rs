//! Facts about the machine and the build, for run.json.

/// The CPU model from /proc/cpuinfo, when there is one.
pub(crate) fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// The git commit the binary was built from, if known.
pub(crate) fn git_commit() -> Option<&'static str> {
    let c = env!("TILEBENCH_GIT_COMMIT");
    (!c.is_empty()).then_some(c)
}
