//! A cache prefetch hint.

/// Asks the CPU to fetch the cache line holding `value`, soon to be read: a hint that reads
/// nothing, so several fetches can overlap (a search's random lookups into a table larger
/// than the cache). Nothing on targets other than x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch hint of a valid address; it reads nothing.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast::<i8>(),
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
