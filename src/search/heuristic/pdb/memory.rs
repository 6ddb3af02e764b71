//! The builder's large arrays: zeroed anonymous memory, advised into huge pages.
//!
//! The 8-tile build reads its 1 GB field array at random, one word per generated state. In
//! 4 KiB pages nearly every such read misses the TLB, and the page walk itself misses the
//! caches; in 2 MiB pages the whole array needs 512 TLB entries. Where transparent huge
//! pages are in `madvise` mode (the usual default), only memory advised `MADV_HUGEPAGE` gets
//! them, so the arrays are mapped anonymously and advised so. Elsewhere the advice is
//! skipped, or refused quietly, and the arrays are ordinary zeroed pages.

use bytemuck::Zeroable;
use memmap2::MmapMut;
use std::marker::PhantomData;

/// `len` zeroed values of `T` in anonymous memory advised into huge pages; derefs to `[T]`.
pub(crate) struct Zeroed<T: Zeroable> {
    map: MmapMut,
    len: usize,
    kind: PhantomData<T>,
}

impl<T: Zeroable> Zeroed<T> {
    /// Maps `len` zeroed values. Panics when the system has no memory for them (as a `Vec`
    /// that cannot allocate aborts).
    pub(crate) fn new(len: usize) -> Zeroed<T> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("array size overflows the address space");
        // A mapping of 0 bytes is refused: map one page's worth at least.
        let map = MmapMut::map_anon(bytes.max(1)).unwrap_or_else(|e| {
            panic!(
                "cannot allocate {:.2} GB of memory to build a pattern database: {e}",
                bytes as f64 / 1e9
            )
        });
        #[cfg(target_os = "linux")]
        {
            // Only a hint: a kernel without transparent huge pages refuses it (EINVAL), and
            // the memory works the same in small pages.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Zeroed {
            map,
            len,
            kind: PhantomData,
        }
    }

    /// The values' bytes, once no thread shares them any longer.
    pub(crate) fn bytes(&mut self) -> &[u8] {
        &self.map[..self.len * std::mem::size_of::<T>()]
    }
}

impl<T: Zeroable> std::ops::Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the mapping is page-aligned (so aligned for `T`), holds at least
        // `len * size_of::<T>()` bytes, starts zeroed (a valid `T` by bytemuck's `Zeroable`)
        // and lives as long as `self`. `T` is an atomic: writes through `&[T]` go through its
        // interior mutability, and `bytes` (the only other view) takes `&mut self`. (bytemuck's
        // `cast_slice` cannot make this view: atomics are not `Pod`, for that very mutability.)
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<T>(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::atomic::{AtomicU64, AtomicU8};

    #[test]
    fn zeroed_has_its_length_starts_at_zero_and_works_as_atomics() {
        let words: Zeroed<AtomicU64> = Zeroed::new(3 << 20);
        assert_eq!(words.len(), 3 << 20);
        assert!(words.iter().step_by(4099).all(|w| w.load(Relaxed) == 0));
        assert_eq!(words[words.len() - 1].load(Relaxed), 0);
        words[12345].fetch_or(0b1010, Relaxed);
        assert_eq!(
            words[12345].compare_exchange(0b1010, 7, Relaxed, Relaxed),
            Ok(0b1010)
        );
        assert_eq!(words[12345].load(Relaxed), 7);
        assert_eq!(words[12344].load(Relaxed) | words[12346].load(Relaxed), 0);

        let mut bytes: Zeroed<AtomicU8> = Zeroed::new(5);
        bytes[4].fetch_or(0xA5, Relaxed);
        assert_eq!(bytes.bytes(), &[0, 0, 0, 0, 0xA5]);
        let mut empty: Zeroed<AtomicU8> = Zeroed::new(0);
        assert!(empty.is_empty() && empty.bytes().is_empty());
    }
}
