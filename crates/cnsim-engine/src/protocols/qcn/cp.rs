//! QCN congestion point, one per switch output queue (docs/protocols.md §2; Mliki et al. 2016a §2.1, eq. 1).

use super::QNTZ_FB_MAX;
use crate::core::rng::Rng;

/// Which arriving data frames the CP evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// 802.1Qau: a byte counter `time_to_mark`, reloaded from the sampling table
    /// `sample_base / (1 + floor(QntzFb/8))` (150 000 … 18 750 B by default) [impl].
    Table,
    /// Every arriving data frame: "For every received data frame, the CP checks the queue
    /// occupancy" (Mliki et al. 2016b §2.1); the seeds' feedback rates of 44–89 % need this mode.
    EveryFrame,
}

#[derive(Clone, Copy, Debug)]
pub struct CpParams {
    /// Equilibrium queue length Qeq in bytes (802.1Qau default 26 000 B; seeds 25/50/75 frames).
    pub qeq: u64,
    /// Weight of the queue growth in Fb; 2 in the standard (Mliki et al. 2016a §2.1).
    pub w: f64,
    pub sampling: Sampling,
    /// Bytes between samples at QntzFb = 0 (table mode), default 150 000 B [impl].
    pub sample_base: u64,
    /// Multiply each sampling interval by U(0.85, 1.15) [impl].
    pub jitter: bool,
    /// Oversampling: shorten the sampling interval with the last QntzFb (the table). Off: every
    /// interval is `sample_base` (Roeck 2007's stability runs: "Oversampling disabled").
    pub oversampling: bool,
    /// Update Qold only when feedback is due (Fb < 0), as Mliki et al. 2016a §2.1 words it ("the queue size
    /// when the last feedback message was generated"); otherwise at every sample [impl].
    pub qold_on_feedback: bool,
    /// Send a CNM for every sample with Fb < 0: QntzFb at least 1 then. Mliki et al. 2016a/b §2.1
    /// word it so ("if Fb is negative, the CP sends a CNM"); 802.1Qau quantizes first and sends
    /// nothing at QntzFb = 0, which is the default (false) [impl].
    pub cnm_on_any_negative_fb: bool,
}

/// What a CP counted: samples evaluated, and those with Fb < 0 (whole run; the engine keeps the
/// values at window start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpCounters {
    pub samples: u64,
    pub fb_negative: u64,
}

/// The outcome of evaluating one sampled frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Fb = -(Qoff + W·Qdelta), bytes (Mliki et al. 2016a eq. 1).
    pub fb: f64,
    pub qoff: i64,
    pub qdelta: i64,
    /// |Fb| quantized to 6 bits when Fb < 0, else 0.
    pub qntz_fb: u8,
}

#[derive(Clone, Debug)]
pub struct CongestionPoint {
    pub p: CpParams,
    qlen_old: u64,
    time_to_mark: i64,
    pub c: CpCounters,
}

impl CongestionPoint {
    pub fn new(p: CpParams) -> Self {
        CongestionPoint { p, qlen_old: 0, time_to_mark: p.sample_base as i64, c: CpCounters::default() }
    }

    /// Quantize Fb: min(63, floor(-Fb·63 / (Qeq·(2W+1)))) for Fb < 0, else 0 (docs/protocols.md §2);
    /// at least 1 for Fb < 0 with `cnm_on_any_negative_fb`.
    pub fn quantize(&self, fb: f64) -> u8 {
        if fb >= 0.0 {
            return 0;
        }
        let fb_max = self.p.qeq as f64 * (2.0 * self.p.w + 1.0);
        let q = ((-fb * QNTZ_FB_MAX as f64 / fb_max).floor()).min(QNTZ_FB_MAX as f64) as u8;
        if self.p.cnm_on_any_negative_fb { q.max(1) } else { q }
    }

    /// A data frame of `len` bytes arrived; `qlen` is the queue length in bytes measured after the
    /// frame was offered to the queue [impl]. Returns the sample when this frame was sampled.
    pub fn on_arrival(&mut self, len: u32, qlen: u64, rng: &mut Rng) -> Option<Sample> {
        if self.p.sampling == Sampling::Table {
            self.time_to_mark -= len as i64;
            if self.time_to_mark > 0 {
                return None;
            }
        }
        let qoff = qlen as i64 - self.p.qeq as i64;
        let qdelta = qlen as i64 - self.qlen_old as i64;
        let fb = -(qoff as f64 + self.p.w * qdelta as f64);
        let qntz_fb = self.quantize(fb);
        self.c.samples += 1;
        self.c.fb_negative += (fb < 0.0) as u64;
        if !self.p.qold_on_feedback {
            self.qlen_old = qlen;
        }
        if self.p.sampling == Sampling::Table {
            let step = if self.p.oversampling { 1 + qntz_fb / 8 } else { 1 };
            let base = self.p.sample_base as f64 / step as f64;
            let jitter = if self.p.jitter { rng.range(0.85, 1.15) } else { 1.0 };
            self.time_to_mark = (base * jitter) as i64;
        }
        Some(Sample { fb, qoff, qdelta, qntz_fb })
    }

    /// The current signed, quantized Fb at queue `qlen`, for a probe (Roeck 2007): positive feedback
    /// included, same scale as QntzFb, sampling state untouched.
    pub fn probe_fb(&self, qlen: u64) -> i32 {
        let qoff = qlen as f64 - self.p.qeq as f64;
        let fb = -(qoff + self.p.w * (qlen as f64 - self.qlen_old as f64));
        let q = self.quantize(-fb.abs()) as i32;
        if fb < 0.0 { -q } else { q }
    }

    /// A CNM was generated from the sample taken at `qlen`. With Qold "the queue size when the
    /// last feedback message was generated" (Mliki et al. 2016a §2.1) Qold moves here — not on samples whose
    /// CNM was suppressed (E-QCN's representative check, Mliki et al. 2016b Algorithm 2).
    pub fn feedback_generated(&mut self, qlen: u64) {
        if self.p.qold_on_feedback {
            self.qlen_old = qlen;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(sampling: Sampling) -> CongestionPoint {
        CongestionPoint::new(CpParams { qeq: 25 * 1500, w: 2.0, sampling, sample_base: 150_000, jitter: false, oversampling: true, qold_on_feedback: false, cnm_on_any_negative_fb: false })
    }

    #[test]
    fn quantized_feedback_by_hand() {
        let mut c = cp(Sampling::EveryFrame);
        let mut r = Rng::stream(0, "t", "cp");
        // q = 30 frames, first sample: Qoff = 5·1500 = 7500, Qdelta = 45000, Fb = -(7500 + 90000) = -97500.
        // Fbmax = 37500·5 = 187500 → floor(97500·63/187500) = floor(32.76) = 32.
        let s = c.on_arrival(1500, 45_000, &mut r).unwrap();
        assert_eq!((s.qoff, s.qdelta, s.fb, s.qntz_fb), (7500, 45_000, -97_500.0, 32));
        // q = 31 frames: Qoff = 9000, Qdelta = 1500, Fb = -12000 → floor(12000·63/187500) = 4.
        assert_eq!(c.on_arrival(1500, 46_500, &mut r).unwrap().qntz_fb, 4);
        // q back to 20 frames: Qoff = -7500, Qdelta = -16500, Fb = 40500 > 0 → 0.
        assert_eq!(c.on_arrival(1500, 30_000, &mut r).unwrap().qntz_fb, 0);
        // Far above: saturates at 63.
        assert_eq!(c.on_arrival(1500, 1_000_000, &mut r).unwrap().qntz_fb, 63);
    }

    #[test]
    fn samples_with_negative_fb_below_one_quantum() {
        // Fbmax = 37500·5 = 187500, one quantum 187500/63 ≈ 2976 B. Qold 0, q = 25 frames + 1000 B:
        // Qoff = 1000, Qdelta = 38500 → Fb = −78000 → 26. Then q = 25 frames + 1000 B again: Qdelta 0,
        // Fb = −1000: below one quantum → 0 under 802.1Qau, 1 when every Fb < 0 notifies.
        let mut r = Rng::stream(0, "t", "cp");
        let mut std = cp(Sampling::EveryFrame);
        let mut any = CongestionPoint::new(CpParams { cnm_on_any_negative_fb: true, ..std.p });
        for c in [&mut std, &mut any] {
            assert_eq!(c.on_arrival(1500, 38_500, &mut r).unwrap().qntz_fb, 26);
        }
        assert_eq!(std.on_arrival(1500, 38_500, &mut r).unwrap().qntz_fb, 0);
        assert_eq!(any.on_arrival(1500, 38_500, &mut r).unwrap().qntz_fb, 1);
        // Below Qeq and not growing: Fb > 0, no CNM either way.
        for c in [&mut std, &mut any] {
            assert_eq!(c.on_arrival(1500, 15_000, &mut r).unwrap().qntz_fb, 0);
        }
        // Three samples each, two of them with Fb < 0 — one of which sends no CNM by default.
        assert_eq!(std.c, CpCounters { samples: 3, fb_negative: 2 });
        assert_eq!(any.c, CpCounters { samples: 3, fb_negative: 2 });
    }

    #[test]
    fn qold_on_feedback_keeps_the_last_cnm_queue() {
        let mut c = CongestionPoint::new(CpParams { qold_on_feedback: true, ..cp(Sampling::EveryFrame).p });
        let mut r = Rng::stream(0, "t", "cp");
        assert_eq!(c.on_arrival(1500, 45_000, &mut r).unwrap().qntz_fb, 32);
        c.feedback_generated(45_000); // the CNM went out: Qold := 45000
        // 20 frames: Fb = -(-7500 + 2·(30000 − 45000)) > 0 → no CNM, Qold stays 45000.
        assert_eq!(c.on_arrival(1500, 30_000, &mut r).unwrap().qntz_fb, 0);
        // 26 frames: Qoff = 1500, Qdelta = 39000 − 45000 = −6000 → Fb = 10500 > 0 (with per-sample
        // Qold it would be Qdelta = 9000, Fb = −19500 → CNM).
        let s = c.on_arrival(1500, 39_000, &mut r).unwrap();
        assert_eq!((s.qdelta, s.qntz_fb), (-6000, 0));
    }

    #[test]
    fn probe_fb_is_signed_and_leaves_the_state() {
        let mut c = cp(Sampling::EveryFrame);
        let mut r = Rng::stream(0, "t", "cp");
        // Qold 0, q = 30 frames: −97 500 → −32 (as the CNM of quantized_feedback_by_hand).
        assert_eq!(c.probe_fb(45_000), -32);
        assert_eq!(c.probe_fb(45_000), -32); // Qold did not move
        c.on_arrival(1500, 45_000, &mut r); // a sample: Qold = 45 000
        // q = 10 frames: Qoff = −22 500, Qdelta = −30 000 → Fb = +82 500 → floor(82500·63/187500) = 27.
        assert_eq!(c.probe_fb(15_000), 27);
        assert_eq!(c.probe_fb(45_000), -2); // Qoff 7500, Qdelta 0 → Fb −7500 → −floor(2.52)
    }

    #[test]
    fn table_sampling_gaps() {
        let mut c = cp(Sampling::Table);
        let mut r = Rng::stream(0, "t", "cp");
        // Empty queue: one sample every 150 000 B = 100 frames of 1500 B.
        let sampled: Vec<usize> = (1..=300).filter(|_| c.on_arrival(1500, 0, &mut r).is_some()).collect();
        assert_eq!(sampled, vec![100, 200, 300]);
        // Severe congestion (QntzFb = 63 → table index 7): 150000/8 = 18750 B → every 12.5 frames,
        // i.e. a sample after 13 frames (time_to_mark goes ≤ 0 at the 13th).
        let mut c = cp(Sampling::Table);
        let mut n = 0;
        let mut gaps = vec![];
        for _ in 0..2000 {
            n += 1;
            if c.on_arrival(1500, 1_000_000, &mut r).is_some() {
                gaps.push(n);
                n = 0;
            }
        }
        assert_eq!(gaps[0], 100); // the first interval was loaded at QntzFb 0
        assert!(gaps[1..].iter().all(|&g| g == 13), "{gaps:?}");
        // Oversampling off: 100 frames whatever the feedback.
        let mut c = CongestionPoint::new(CpParams { oversampling: false, ..cp(Sampling::Table).p });
        let sampled = (1..=300).filter(|_| c.on_arrival(1500, 1_000_000, &mut r).is_some()).count();
        assert_eq!(sampled, 3);
    }

    #[test]
    fn table_jitter_stays_within_bounds() {
        let mut c = CongestionPoint::new(CpParams { jitter: true, ..cp(Sampling::Table).p });
        let mut r = Rng::stream(3, "t", "cp");
        let mut n = 0;
        let mut gaps = vec![];
        for _ in 0..100_000 {
            n += 1;
            if c.on_arrival(1500, 0, &mut r).is_some() {
                gaps.push(n);
                n = 0;
            }
        }
        // 150000·[0.85, 1.15) bytes = [85, 115) frames.
        assert!(gaps[1..].iter().all(|&g| (85..=115).contains(&g)), "{gaps:?}");
        assert!(gaps.iter().min() != gaps.iter().max());
    }
}
