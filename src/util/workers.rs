//! Per-worker state in a rayon pool.

/// The calling rayon worker's own slot of `slots` (one per worker thread; slot 0 outside a
/// pool).
pub(crate) fn for_worker<T>(slots: &[T]) -> &T {
    let i = rayon::current_thread_index().unwrap_or(0);
    &slots[i % slots.len()]
}
