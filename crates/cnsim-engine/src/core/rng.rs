//! Per-entity random streams (docs/architecture.md §2).
//!
//! Each entity (source, CP queue, RP …) owns a xoshiro256++ generator seeded from
//! (scenario seed, stream kind, entity name) through SplitMix64 over an FNV-1a hash of the name. Adding a
//! host therefore never changes another entity's stream, and a run is a pure function of
//! (scenario, seed, version).

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

impl Rng {
    /// Stream for entity `name` of kind `kind` ("src", "cp", "rp", …) under `seed`.
    pub fn stream(seed: u64, kind: &str, name: &str) -> Self {
        let key = fnv1a(kind.as_bytes()) ^ fnv1a(name.as_bytes()).rotate_left(17) ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Rng(Xoshiro256PlusPlus::seed_from_u64(key))
    }

    /// 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1) with 53 random bits.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    #[inline]
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Exponential with the given mean.
    #[inline]
    pub fn exp(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.uniform()).ln()
    }

    /// True with probability `p`.
    #[inline]
    pub fn bernoulli(&mut self, p: f64) -> bool {
        self.uniform() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn streams_are_independent_and_reproducible() {
        let a1: Vec<f64> = (0..4).map({ let mut r = Rng::stream(1, "src", "S1"); move |_| r.uniform() }).collect();
        let a2: Vec<f64> = (0..4).map({ let mut r = Rng::stream(1, "src", "S1"); move |_| r.uniform() }).collect();
        let b: Vec<f64> = (0..4).map({ let mut r = Rng::stream(1, "src", "S2"); move |_| r.uniform() }).collect();
        let c: Vec<f64> = (0..4).map({ let mut r = Rng::stream(2, "src", "S1"); move |_| r.uniform() }).collect();
        assert_eq!(a1, a2);
        assert_ne!(a1, b);
        assert_ne!(a1, c);
        assert!(a1.iter().all(|&x| (0.0..1.0).contains(&x)));
    }
    #[test]
    fn exponential_mean() {
        let mut r = Rng::stream(7, "t", "x");
        let n = 200_000;
        let m: f64 = (0..n).map(|_| r.exp(2.0)).sum::<f64>() / n as f64;
        assert!((m - 2.0).abs() < 0.03, "{m}");
    }
}
