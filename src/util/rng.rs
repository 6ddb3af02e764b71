//! A seeded random number generator.

/// SplitMix64: a tiny, fast, seedable generator. Datasets made with `--seed S` are the same
/// on every machine and every version of tilebench, which no external RNG crate promises.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`: the same seed gives the same sequence.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 uniformly random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), without modulo bias.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
    /// Uniform in `0..n` (n > 0), without bias, by a multiplication instead of a division
    /// (Lemire's method): for drawing many indices. Its sequence differs from
    /// [`Rng::below`]'s, which datasets are made with and must not change.
    pub(crate) fn index(&mut self, n: u64) -> u64 {
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let t = n.wrapping_neg() % n;
            while (m as u64) < t {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Fisher–Yates shuffle.
    pub(crate) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    // `super::Rng` spelled out: the benches and integration tests include this file with
    // `#[path]`, where a glob import would be unused.
    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = super::Rng::new(7);
        let mut b = super::Rng::new(7);
        for _ in 0..100 {
            let x = a.below(10);
            assert_eq!(x, b.below(10));
            assert!(x < 10);
        }
    }
}
