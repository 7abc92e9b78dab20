//! Traffic generators (docs/protocols.md §9), the endpoint slot of open-loop sources: each returns the
//! gap to its next frame. Gaps saturate at `MAX_TIME`, so no input makes them wrap.

use crate::core::rng::Rng;
use crate::core::time::{Time, MAX_TIME};

#[derive(Clone, Copy, Debug)]
pub enum TrafficGen {
    /// Constant gap.
    Cbr { gap: Time },
    /// Exponential gaps (Poisson arrivals) with this mean, in ps.
    Poisson { mean_gap: f64 },
    /// One slot per frame time at line rate; each slot carries a frame with probability `p`
    /// (Roeck 2007's Bernoulli sources). The gap is a geometric number of slots.
    Bernoulli { slot: Time, p: f64 },
    /// Pareto on/off (Jiang & Jain 2007's bursty sources, ns-2's Application/Traffic/Pareto): bursts at
    /// the peak rate (frames `gap` apart) whose lengths, and the idle times between them, are
    /// Pareto distributed with the given means (ps) and shape; `left` frames remain in the burst
    /// (0 before the first).
    ParetoOnOff { gap: Time, mean_on: f64, mean_off: f64, shape: f64, left: u64 },
}

/// A Pareto variate with this mean and shape (> 1): scale · U^(−1/shape), scale = mean·(shape−1)/shape.
fn pareto(rng: &mut Rng, mean: f64, shape: f64) -> f64 {
    let u = 1.0 - rng.uniform(); // (0, 1]
    mean * (shape - 1.0) / shape * u.powf(-1.0 / shape)
}

/// A duration in ps from a non-negative float, saturating at `MAX_TIME` (NaN too).
fn ps(x: f64) -> Time {
    if x < MAX_TIME as f64 { x.round() as Time } else { MAX_TIME }
}

impl TrafficGen {
    /// The span a source's random start phase is drawn from: one (mean) gap, or one slot.
    pub fn phase_span(&self) -> Time {
        match *self {
            TrafficGen::Cbr { gap } | TrafficGen::ParetoOnOff { gap, .. } => gap,
            TrafficGen::Poisson { mean_gap } => ps(mean_gap),
            TrafficGen::Bernoulli { slot, .. } => slot,
        }
    }

    /// The gap to the next frame; constant rate inline, the random processes out of line.
    #[inline(always)]
    pub fn next_gap(&mut self, rng: &mut Rng) -> Time {
        match self {
            TrafficGen::Cbr { gap } => *gap,
            _ => self.next_random_gap(rng),
        }
    }

    #[inline(never)]
    fn next_random_gap(&mut self, rng: &mut Rng) -> Time {
        match self {
            TrafficGen::Cbr { gap } => *gap,
            TrafficGen::Poisson { mean_gap } => ps(rng.exp(*mean_gap)).max(1),
            TrafficGen::Bernoulli { slot, p } => {
                if *p >= 1.0 {
                    return *slot;
                }
                // Slots until the next success: 1 + floor(ln U / ln(1-p)), U in (0, 1]; ln_1p
                // keeps ln(1-p) exact (and non-zero) for tiny loads.
                let u = 1.0 - rng.uniform();
                let slots = (1.0 + (u.ln() / (-*p).ln_1p()).floor()).max(1.0);
                ps(*slot as f64 * slots)
            }
            TrafficGen::ParetoOnOff { gap, mean_on, mean_off, shape, left } => {
                let burst = |rng: &mut Rng| (pareto(rng, *mean_on, *shape) / *gap as f64).ceil().clamp(1.0, u32::MAX as f64) as u64;
                if *left == 0 {
                    *left = burst(rng); // the first burst began with the source's first frame
                }
                if *left > 1 {
                    *left -= 1;
                    return *gap;
                }
                // The burst's last frame went: idle, then the next burst.
                *left = burst(rng);
                ps(*gap as f64 + pareto(rng, *mean_off, *shape))
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
        let mut b = TrafficGen::Bernoulli { slot: 1000, p: 0.25 };
        let mean = (0..n).map(|_| b.next_gap(&mut r)).sum::<u64>() as f64 / n as f64;
        assert!((mean - 4000.0).abs() < 40.0, "{mean}");
        let mut p = TrafficGen::Poisson { mean_gap: 5000.0 };
        let mean = (0..n).map(|_| p.next_gap(&mut r)).sum::<u64>() as f64 / n as f64;
        assert!((mean - 5000.0).abs() < 60.0, "{mean}");
        assert_eq!(TrafficGen::Cbr { gap: 7 }.next_gap(&mut r), 7);
        // A vanishing load saturates instead of wrapping.
        assert_eq!(TrafficGen::Bernoulli { slot: 1000, p: 1e-300 }.next_gap(&mut r), MAX_TIME);
    }

    #[test]
    fn pareto_on_off_means() {
        // Peak gap 1 us, mean burst 100 us (≈100 frames), mean idle 400 us, shape 1.5: the mean
        // gap is (100 + 400) us per ~100 frames ≈ 5 us, i.e. a 20 % duty cycle.
        let mut r = Rng::stream(2, "t", "p");
        let mut g = TrafficGen::ParetoOnOff { gap: 1_000_000, mean_on: 100e6, mean_off: 400e6, shape: 1.5, left: 0 };
        let n = 2_000_000u64;
        let total: u64 = (0..n).map(|_| g.next_gap(&mut r)).sum();
        let mean = total as f64 / n as f64;
        // Heavy tails converge slowly: a wide band, but far from CBR's 1 us and from 1 s.
        assert!((3.5e6..7e6).contains(&mean), "{mean}");
    }
}
