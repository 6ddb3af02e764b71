//! Fault injection for the kill tests.

/// The environment variable that names a crash point (see [`crash_point`]).
pub(crate) const CRASH_AT: &str = "TILEBENCH_CRASH_AT";

/// A fault-injection point for the kill tests: when `TILEBENCH_CRASH_AT` is `point` (or
/// `point:N`, the N-th time it is reached; `point` is `kind` or `kind:detail`), the process
/// kills itself with SIGKILL here, as `kill -9` would at that moment: no destructor, no flush,
/// no clean-up. Without the variable this is one relaxed atomic load after the first call.
///
/// The points: `solving` (the results directory and its journal exist, nothing solved),
/// `solved` (a case solved, its record not yet handed to the journal), `journal-synced`
/// (records synced to the disk), `pass-ended` (a strategy's pass recorded as complete),
/// `write:FILE` (a final file written to its temporary name, not yet renamed), `finished`
/// (every final file written, the journal still there), `removing` (the manifest removed, the
/// journal not yet).
pub(crate) fn crash_point(kind: &str, detail: &str) {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;
    static AT: OnceLock<Option<(String, u64)>> = OnceLock::new();
    static HITS: AtomicU64 = AtomicU64::new(0);
    let Some((at, nth)) = AT.get_or_init(|| {
        let v = std::env::var(CRASH_AT).ok()?;
        Some(match v.rsplit_once(':') {
            Some((p, n)) if n.parse::<u64>().is_ok() => (p.to_string(), n.parse().ok()?),
            _ => (v, 1),
        })
    }) else {
        return;
    };
    let matches = if detail.is_empty() {
        at == kind
    } else {
        at.strip_prefix(kind)
            .and_then(|r| r.strip_prefix(':'))
            .is_some_and(|d| d == detail)
            || at == kind
    };
    if matches && HITS.fetch_add(1, Ordering::SeqCst) + 1 == *nth {
        let me = rustix::process::getpid();
        let _ = rustix::process::kill_process(me, rustix::process::Signal::KILL);
        std::process::abort();
    }
}
