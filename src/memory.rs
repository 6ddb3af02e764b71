//! Heap accounting per thread: how much a case allocated at its peak, and whether it may
//! allocate more under `--max-memory`.
//!
//! [`CountingAlloc`] wraps the system allocator and keeps, per thread, the bytes it holds
//! now (`live`) and the most it held since the last `begin_case`. The `tilebench`
//! binary installs it (`#[global_allocator]` in `src/main.rs`, behind the default cargo
//! feature `heap-accounting`); a library user may install it too. Without it, [`counting`]
//! is false and nothing here measures (cases.csv's `peak_heap_bytes` stays empty).
//!
//! The accounting is per thread, as a case is solved on one thread: bytes allocated on one
//! thread and freed on another count on both (the first's figure stays up, the second's goes
//! down, below zero if need be). A case's figure is the peak of its thread's live bytes over
//! the case minus what the thread held when the case started: what the case *added*. Buffers
//! a strategy keeps per thread from case to case (the BFS queues, bfs-hash's table, A*'s
//! arena and closed table) are counted in the case that grew them, not in later ones that
//! reuse their room; under `--max-memory` they are given back after every case, so that each
//! case starts from nothing and holds its budget alone.
//!
//! The cost: two thread-local additions and a comparison per allocation and one per free.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};

thread_local! {
    /// Bytes this thread holds (allocated here minus freed here).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The most `LIVE` has been since the last [`begin_case`].
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// `LIVE` at the [`begin_case`] of the case in flight (none between cases).
    static MARK: Cell<Option<isize>> = const { Cell::new(None) };
}

/// The system allocator, counting each thread's live bytes and their peak.
pub struct CountingAlloc;

#[inline(always)]
fn add(bytes: isize) {
    // `try_with`: a thread being torn down may free after its locals are gone.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + bytes;
        live.set(now);
        if bytes > 0 {
            let _ = PEAK.try_with(|peak| {
                if now > peak.get() {
                    peak.set(now);
                }
            });
        }
    });
}

// SAFETY: every call is passed to `System` unchanged; the counting touches only this
// thread's const-initialised cells (no allocation, no destructor).
unsafe impl GlobalAlloc for CountingAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }
    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        add(-(layout.size() as isize));
    }
    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// The bytes this thread holds now (0 without [`CountingAlloc`]).
#[inline]
pub(crate) fn live() -> isize {
    LIVE.with(Cell::get)
}

/// Whether [`CountingAlloc`] is the global allocator of this process (checked once).
pub fn counting() -> bool {
    static KNOWN: AtomicU8 = AtomicU8::new(0);
    match KNOWN.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let before = live();
            let probe = std::hint::black_box(vec![0u8; 4096]);
            let yes = live() - before >= 4096;
            drop(probe);
            KNOWN.store(if yes { 1 } else { 2 }, Ordering::Relaxed);
            yes
        }
    }
}

/// Starts a case on this thread: its peak is measured from what the thread holds now.
/// Returns the mark to pass to [`peak_since`].
pub(crate) fn begin_case() -> isize {
    let now = live();
    PEAK.with(|p| p.set(now));
    MARK.with(|m| m.set(Some(now)));
    now
}

/// The most bytes this thread held beyond `mark` since the [`begin_case`] that gave it;
/// `None` without [`CountingAlloc`]. Ends the case.
pub(crate) fn peak_since(mark: isize) -> Option<u64> {
    MARK.with(|m| m.set(None));
    counting().then(|| (PEAK.with(Cell::get) - mark).max(0) as u64)
}

/// What this thread held when the case in flight began ([`begin_case`]), or now when no
/// case is (a search called outside the harness): a heap budget counts from there.
pub(crate) fn case_mark() -> isize {
    MARK.with(Cell::get).unwrap_or_else(live)
}

/// The bytes a store of `capacity` entries of `entry` bytes allocates beyond what it holds
/// to hold `len` entries: 0 while they fit.
///
/// `table` says how it grows: a `Vec` (or `VecDeque`) reallocates to twice its capacity
/// (at least 4 entries, at least `len`) and the old block is given back at once (the
/// accounting counts the difference); a `HashMap`/`HashSet` allocates a table of twice its
/// buckets, with a control byte per bucket, while it still holds the old one.
pub(crate) fn growth(len: usize, capacity: usize, entry: usize, table: bool) -> usize {
    if len <= capacity {
        return 0;
    }
    if table {
        // hashbrown: buckets are a power of two, 7/8 of them usable from 8 on.
        let items = len.max(capacity + 1).max(4);
        let buckets = if items < 8 {
            8
        } else {
            (items * 8).div_ceil(7).next_power_of_two()
        };
        buckets * (entry + 1) + 64
    } else {
        let new = (capacity * 2).max(len).max(4);
        (new - capacity) * entry
    }
}

/// [`growth`] of a `Vec` that is to take `more` entries.
pub(crate) fn vec_growth<T>(v: &Vec<T>, more: usize) -> usize {
    growth(
        v.len() + more,
        v.capacity(),
        std::mem::size_of::<T>(),
        false,
    )
}

/// [`growth`] of a hash set or map of `len` entries and `capacity` that is to take `more`.
pub(crate) fn table_growth<T>(len: usize, capacity: usize, more: usize) -> usize {
    growth(len + more, capacity, std::mem::size_of::<T>(), true)
}

/// Reads a byte count as `--max-memory` takes it: a whole number of bytes, or with a
/// suffix `K`, `M`, `G` or `T` (powers of 1,024; `KB`, `MiB`, … too, any case): `512M`, `2G`.
///
/// # Errors
/// [`BytesError`]: not a count of bytes, or more than a `u64` holds.
pub fn parse_bytes(text: &str) -> Result<u64, BytesError> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let unit = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1u64,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => 0,
    };
    let n: Option<u64> = number.parse().ok();
    let error = |kind| BytesError {
        text: text.to_string(),
        kind,
    };
    match (n, unit) {
        (Some(n), u) if u > 0 && n > 0 => n
            .checked_mul(u)
            .ok_or_else(|| error(BytesErrorKind::TooMany)),
        _ => Err(error(BytesErrorKind::NotBytes)),
    }
}

/// A byte count [`parse_bytes`] refuses: the text given and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' {kind}")]
#[non_exhaustive]
pub struct BytesError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub kind: BytesErrorKind,
}

/// What is wrong with a byte count ([`BytesError::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BytesErrorKind {
    /// Not a whole number from 1 up with an optional suffix.
    #[error(
        "is not a number of bytes: give a whole number from 1 up, with or without a suffix K, \
         M, G or T (powers of 1024), e.g. 512M or 2G"
    )]
    NotBytes,
    /// More bytes than a `u64` counts.
    #[error("is more bytes than this machine can count")]
    TooMany,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_read_with_their_suffixes_and_refuse_the_rest() {
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("2g"), Ok(2 << 30));
        assert_eq!(parse_bytes("3 KiB"), Ok(3 << 10));
        for bad in ["", "0", "1.5G", "-3M", "12Q", "M", "99999999999T"] {
            let e = parse_bytes(bad).unwrap_err();
            assert_eq!(e.text, bad);
            assert!(e.to_string().starts_with(&format!("'{bad}'")), "{e}");
        }
    }

    #[test]
    fn a_refused_byte_count_keeps_its_text_and_kind_and_says_what_to_give() {
        let e = parse_bytes("12Q").unwrap_err();
        assert_eq!((e.text.as_str(), e.kind), ("12Q", BytesErrorKind::NotBytes));
        assert_eq!(
            e.to_string(),
            "'12Q' is not a number of bytes: give a whole number from 1 up, with or without a \
             suffix K, M, G or T (powers of 1024), e.g. 512M or 2G"
        );
        let e = parse_bytes("99999999999T").unwrap_err();
        assert_eq!(e.kind, BytesErrorKind::TooMany);
        assert_eq!(
            e.to_string(),
            "'99999999999T' is more bytes than this machine can count"
        );
    }

    #[test]
    fn growth_is_zero_while_there_is_room_and_covers_a_doubling() {
        assert_eq!(growth(4, 4, 8, false), 0);
        assert_eq!(growth(5, 4, 8, false), 32);
        let mut v: Vec<u64> = Vec::with_capacity(100);
        v.extend(0..100);
        let before = v.capacity();
        let asked = vec_growth(&v, 1);
        v.push(0);
        assert!(asked >= (v.capacity() - before) * 8);
        // A hash set's next table, measured by its capacity after the insert.
        let mut s: std::collections::HashSet<u64> = std::collections::HashSet::new();
        for i in 0..100_000u64 {
            let ask = table_growth::<u64>(s.len(), s.capacity(), 1);
            let cap = s.capacity();
            s.insert(i);
            if s.capacity() != cap {
                // Usable capacity is 7/8 of the buckets, each 8 bytes and a control byte.
                assert!(
                    ask >= s.capacity() * 8 / 7 * 9,
                    "{ask} for {}",
                    s.capacity()
                );
            } else {
                assert_eq!(ask, 0);
            }
        }
    }
}
