//! Traffic generators (PROTOCOLS.md §9): each returns the gap to its next frame.

use crate::core::rng::Rng;
use crate::core::time::Time;

#[derive(Clone, Copy, Debug)]
pub enum TrafficGen {
    /// Constant gap.
    Cbr { gap: Time },
    /// Exponential gaps (Poisson arrivals) with this mean, in ps.
    Poisson { mean_gap: f64 },
    /// One slot per frame time at line rate; each slot carries a frame with probability `p`
    /// (seed 004's Bernoulli sources). The gap is a geometric number of slots.
    Bernoulli { slot: Time, p: f64 },
}

impl TrafficGen {
    #[inline]
    pub fn next_gap(&self, rng: &mut Rng) -> Time {
        match *self {
            TrafficGen::Cbr { gap } => gap,
            TrafficGen::Poisson { mean_gap } => (rng.exp(mean_gap).round() as Time).max(1),
            TrafficGen::Bernoulli { slot, p } => {
                if p >= 1.0 {
                    return slot;
                }
                // Slots until the next success: 1 + floor(ln U / ln(1-p)), U in (0, 1].
                let u = 1.0 - rng.uniform();
                slot * (1 + (u.ln() / (1.0 - p).ln()).floor() as Time)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn mean_gaps() {
        let mut r = Rng::stream(1, "t", "g");
        let n = 100_000u64;
        let b = TrafficGen::Bernoulli { slot: 1000, p: 0.25 };
        let mean = (0..n).map(|_| b.next_gap(&mut r)).sum::<u64>() as f64 / n as f64;
        assert!((mean - 4000.0).abs() < 40.0, "{mean}");
        let p = TrafficGen::Poisson { mean_gap: 5000.0 };
        let mean = (0..n).map(|_| p.next_gap(&mut r)).sum::<u64>() as f64 / n as f64;
        assert!((mean - 5000.0).abs() < 60.0, "{mean}");
        assert_eq!(TrafficGen::Cbr { gap: 7 }.next_gap(&mut r), 7);
    }
}
