//! DCQCN's congestion point (Zhu et al. 2015 §3.1, Fig. 5): RED-style ECN marking on the
//! *instantaneous* egress queue in bytes, no averaging. An ECN-capable frame is marked CE with
//!
//! ```text
//! p(q) = 0                               q ≤ Kmin
//!        Pmax · (q − Kmin)/(Kmax − Kmin)   Kmin < q ≤ Kmax
//!        1                               q > Kmax
//! ```
//!
//! Fig. 5 draws the curve without saying which side of Kmin and Kmax the points belong to; the
//! strict comparisons above (q > Kmin starts marking, q > Kmax marks all) are the first author's
//! ns-3 switch model (ns3-rdma `broadcom-node.cc`) and make p continuous at Kmin. The fluid model's
//! marking function (§5) has the same form.
//!
//! `q` is what the caller passes: the bytes of the egress queue the frame is measured against
//! (ns3-rdma evaluates at dequeue, with the departing frame already out of the count; a caller
//! marking at enqueue passes the bytes waiting ahead of the arrival). Frames that are not
//! ECN-capable are never marked and never dropped here: RoCEv2 runs on a PFC-lossless class, and
//! dropping is left to the queue's own admission.

use super::MarkingParams;
use crate::core::rng::Rng;

/// One egress queue's marker.
#[derive(Clone, Debug)]
pub struct Marking {
    pub p: MarkingParams,
    /// Frames offered (ECN-capable or not) and frames marked CE.
    pub arrivals: u64,
    pub marks: u64,
}

impl Marking {
    pub fn new(p: MarkingParams) -> Self {
        Marking { p, arrivals: 0, marks: 0 }
    }

    /// The marking probability at a queue of `q` bytes (the formula above).
    #[inline]
    pub fn probability(&self, q: u64) -> f64 {
        let MarkingParams { kmin, kmax, pmax } = self.p;
        if q <= kmin {
            0.0
        } else if q > kmax {
            1.0
        } else {
            // Here kmin < q ≤ kmax, so kmax − kmin ≥ 1: no division by zero.
            pmax * (q - kmin) as f64 / (kmax - kmin) as f64
        }
    }

    /// A frame is measured against a queue of `queue_bytes`; `ect` says whether it is ECN-capable.
    /// Returns true when it must be marked CE. A random number is drawn only where 0 < p < 1, so
    /// the stream does not move while the queue is short.
    #[inline]
    pub fn on_arrival(&mut self, queue_bytes: u64, ect: bool, rng: &mut Rng) -> bool {
        self.arrivals += 1;
        if !ect {
            return false;
        }
        let p = self.probability(queue_bytes);
        let mark = if p <= 0.0 {
            false
        } else if p >= 1.0 {
            true
        } else {
            rng.bernoulli(p)
        };
        self.marks += mark as u64;
        mark
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng() -> Rng {
        Rng::stream(0, "t", "dcqcn-cp")
    }

    #[test]
    fn curve_at_and_around_the_thresholds() {
        let m = Marking::new(MarkingParams { kmin: 5_000, kmax: 200_000, pmax: 0.01 });
        assert_eq!(m.probability(0), 0.0);
        assert_eq!(m.probability(5_000), 0.0); // q = Kmin: not above it
        // q = Kmin + 1: 0.01 · 1/195 000.
        assert_eq!(m.probability(5_001), 0.01 / 195_000.0);
        // Midway, q = 102 500: 0.01 · 97 500/195 000 = 0.005.
        assert_eq!(m.probability(102_500), 0.005);
        assert_eq!(m.probability(200_000), 0.01); // q = Kmax: Pmax exactly
        assert_eq!(m.probability(200_001), 1.0); // above Kmax: every frame
    }

    #[test]
    fn deterministic_regions() {
        // Pmax = 1 makes p = 1 at Kmax; p = 0 at Kmin. Neither draws from the stream.
        let mut m = Marking::new(MarkingParams { kmin: 1_000, kmax: 3_000, pmax: 1.0 });
        let mut r = rng();
        let untouched = r.clone().uniform();
        for _ in 0..100 {
            assert!(!m.on_arrival(1_000, true, &mut r));
            assert!(m.on_arrival(3_000, true, &mut r));
            assert!(m.on_arrival(1_000_000, true, &mut r));
        }
        assert_eq!((m.arrivals, m.marks), (300, 200));
        assert_eq!(r.uniform(), untouched, "no random number drawn where p is 0 or 1");
    }

    #[test]
    fn non_ect_frames_are_never_marked() {
        let mut m = Marking::new(MarkingParams { kmin: 0, kmax: 0, pmax: 1.0 });
        let mut r = rng();
        assert!(!m.on_arrival(1_000_000, false, &mut r));
        assert!(m.on_arrival(1_000_000, true, &mut r));
        assert_eq!((m.arrivals, m.marks), (2, 1));
    }

    #[test]
    fn kmin_equal_kmax_is_a_step() {
        // DCTCP-style cut-off marking (the paper's comparison, Kmin = Kmax): no linear region.
        let m = Marking::new(MarkingParams { kmin: 40_000, kmax: 40_000, pmax: 1.0 });
        assert_eq!((m.probability(40_000), m.probability(40_001)), (0.0, 1.0));
    }

    #[test]
    fn marked_fraction_in_the_linear_region() {
        // q = 150 000 B: p = 0.5 · (150 000 − 50 000)/(250 000 − 50 000) = 0.25. n = 40 000 draws:
        // σ of the fraction = sqrt(0.25 · 0.75 / 40 000) ≈ 0.00217; the bound 0.01 is 4.6 σ, fixed
        // before running (a fixed seed, so the test is reproducible, not flaky).
        let mut m = Marking::new(MarkingParams { kmin: 50_000, kmax: 250_000, pmax: 0.5 });
        let mut r = rng();
        let n = 40_000;
        for _ in 0..n {
            m.on_arrival(150_000, true, &mut r);
        }
        let f = m.marks as f64 / n as f64;
        assert!((f - 0.25).abs() < 0.01, "{f}");
    }
}
