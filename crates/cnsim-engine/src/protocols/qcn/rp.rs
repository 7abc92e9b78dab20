//! QCN reaction point: the per-flow rate limiter's rate controller (docs/protocols.md §3; Mliki et al. 2016a
//! §2.3; QCN pseudo-code v2.2 as public implementations read it). Rates are in bit/s.

use crate::slots::TimerAction;
use super::probe::{Answer, ProbeMode, Prober, Reaction};
use crate::core::rng::Rng;
use crate::core::time::Time;

/// How the RP increases its rate after a decrease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RpVariant {
    /// The standard's pseudo-code: byte counter and timer, FR/AI/HAI from both counters, extra
    /// fast recovery, jittered cycles.
    Standard,
    /// The seeds' wording (Mliki et al. 2016a §2.3.1–2.3.3): byte counter only, no timer. FR for
    /// `fast_recovery_th` cycles of BC_LIMIT, then AI for `ai_cycles` cycles of BC_LIMIT/2
    /// (TR += R_AI), then HAI (TR += i·R_HAI, i = HAI cycle number).
    ByteCounter,
}

#[derive(Clone, Copy, Debug)]
pub struct RpParams {
    pub variant: RpVariant,
    /// Rate of the source's link; CR and TR start here [Mliki et al. 2016a §3].
    pub line_rate: f64,
    /// BC_LIMIT [rpgByteReset], 150 000 B.
    pub bc_limit: u64,
    /// TIMER_PERIOD T [rpgTimeReset], 10 ms (15 ms also seen).
    pub timer_period: Time,
    /// FAST_RECOVERY_TH [rpgThreshold], 5.
    pub fast_recovery_th: u32,
    /// R_AI, 5 Mb/s; R_HAI, 50 Mb/s.
    pub r_ai: f64,
    pub r_hai: f64,
    /// GD, 1/128 (GD·63 ≤ ½).
    pub gd: f64,
    /// MIN_DEC_FACTOR, 0.5: a CNM cuts CR by at most half.
    pub min_dec_factor: f64,
    /// MIN_RATE, 10 Mb/s (the QCN reaction point's minimum rate; the seed papers state none).
    pub min_rate: f64,
    /// Extra fast recovery (TR /= 8 when TR > 10·CR at the first cycle), Standard only.
    pub extra_fast_recovery: bool,
    /// Jitter U(0.85, 1.15) on byte-counter and timer cycles.
    pub jitter: bool,
    /// ByteCounter variant: AI cycles before HAI.
    pub ai_cycles: u32,
    /// Drift factor: CR ← min(line rate, CR·drift) at each timer expiry, i.e. every timer period
    /// without a CNM (Roeck 2007's QCN-xx slide: "Drift factor = 1.005"; where in the cycle it
    /// applies is not given — after the self-increase here [assumed]). 1 = off.
    pub drift_factor: f64,
    /// Probes (Roeck 2007's -P, -SP, -PP; `probe.rs`), none by default.
    pub probe: ProbeMode,
    /// Size of a probe frame (64 B: the seed gives none).
    pub probe_size: u32,
}

impl RpParams {
    /// The 802.1Qau defaults for a source whose link runs at `line_rate` bit/s.
    pub fn standard(line_rate: f64) -> Self {
        RpParams {
            variant: RpVariant::Standard,
            line_rate,
            bc_limit: 150_000,
            timer_period: 10_000_000_000,
            fast_recovery_th: 5,
            r_ai: 5e6,
            r_hai: 50e6,
            gd: 1.0 / 128.0,
            min_dec_factor: 0.5,
            min_rate: 10e6,
            extra_fast_recovery: true,
            jitter: true,
            ai_cycles: 5,
            drift_factor: 1.0,
            probe: ProbeMode::None,
            probe_size: 64,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ReactionPoint {
    pub p: RpParams,
    /// Current rate CR and target rate TR.
    pub cr: f64,
    pub tr: f64,
    /// A rate limiter is in place (created by a CNM, released at line rate with an empty queue).
    pub active: bool,
    tx_bcount: i64,
    si_count: u32,
    timer_scount: u32,
    pub cnms_received: u64,
    pub limiters_created: u64,
    pub first_cnm: Option<Time>,
    /// Probing state (inactive unless `p.probe` asks for probes).
    pub prober: Prober,
}

impl ReactionPoint {
    pub fn new(p: RpParams) -> Self {
        ReactionPoint {
            p,
            cr: p.line_rate,
            tr: p.line_rate,
            active: false,
            tx_bcount: p.bc_limit as i64,
            si_count: 0,
            timer_scount: 0,
            cnms_received: 0,
            limiters_created: 0,
            first_cnm: None,
            prober: Prober::new(p.probe),
        }
    }

    fn jitter(&self, rng: &mut Rng) -> f64 {
        if self.p.jitter { rng.range(0.85, 1.15) } else { 1.0 }
    }

    /// A CNM with `qntz_fb` arrived at `now`. QntzFb = 0 carries no congestion and is ignored.
    pub fn on_cnm(&mut self, qntz_fb: u8, now: Time) -> TimerAction {
        if qntz_fb == 0 {
            return TimerAction::None;
        }
        self.cnms_received += 1;
        self.first_cnm.get_or_insert(now);
        if !self.active {
            self.active = true;
            self.limiters_created += 1;
            self.cr = self.p.line_rate;
            self.tr = self.p.line_rate;
            self.si_count = 0;
        }
        if self.cr >= self.p.line_rate || self.si_count != 0 {
            self.tr = self.cr;
            self.tx_bcount = self.p.bc_limit as i64;
        }
        self.si_count = 0;
        self.timer_scount = 0;
        let factor = (1.0 - self.p.min_dec_factor).max(1.0 - self.p.gd * qntz_fb as f64);
        self.cr = (self.cr * factor).max(self.p.min_rate);
        match self.p.variant {
            RpVariant::Standard => TimerAction::Arm(now + self.p.timer_period),
            RpVariant::ByteCounter => TimerAction::None,
        }
    }

    /// The limiter sent a frame of `len` bytes; `queue_empty` tells whether frames still wait
    /// behind it (the limiter is released only at line rate with an empty queue).
    pub fn on_frame_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        if !self.active {
            return TimerAction::None;
        }
        self.tx_bcount -= len as i64;
        if self.tx_bcount < 0 {
            self.si_count += 1;
            let half = match self.p.variant {
                RpVariant::Standard => self.si_count > self.p.fast_recovery_th,
                RpVariant::ByteCounter => self.si_count >= self.p.fast_recovery_th,
            };
            let cycle = self.p.bc_limit as f64 * self.jitter(rng) * if half { 0.5 } else { 1.0 };
            self.tx_bcount = cycle as i64;
            self.self_increase();
            self.prober.on_cycle();
        }
        self.maybe_release(queue_empty)
    }

    /// The timer fired at `now` (Standard variant only).
    pub fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        if !self.active || self.p.variant != RpVariant::Standard {
            return TimerAction::None;
        }
        self.timer_scount += 1;
        let half = if self.timer_scount > self.p.fast_recovery_th { 0.5 } else { 1.0 };
        let next = now + (self.p.timer_period as f64 * self.jitter(rng) * half) as Time;
        self.self_increase();
        self.prober.on_cycle();
        if self.p.drift_factor != 1.0 {
            self.cr = (self.cr * self.p.drift_factor).min(self.p.line_rate);
        }
        match self.maybe_release(queue_empty) {
            TimerAction::Cancel => TimerAction::Cancel,
            _ => TimerAction::Arm(next),
        }
    }

    fn maybe_release(&mut self, queue_empty: bool) -> TimerAction {
        if self.active && queue_empty && self.cr >= self.p.line_rate {
            self.active = false;
            self.si_count = 0;
            self.timer_scount = 0;
            self.tx_bcount = self.p.bc_limit as i64;
            self.prober.on_release();
            return TimerAction::Cancel;
        }
        TimerAction::None
    }

    /// A probe's answer arrived at `now` (Roeck 2007; `probe.rs`): a negative one decreases as a CNM
    /// of that value, a positive one is one rate-increase cycle.
    pub fn on_answer(&mut self, a: Answer, now: Time) -> TimerAction {
        match self.prober.on_answer(a, self.active) {
            Reaction::None => TimerAction::None,
            Reaction::Decrease(q) => self.on_cnm(q, now),
            Reaction::Increase => {
                self.si_count += 1;
                self.self_increase();
                TimerAction::None
            }
        }
    }

    /// FR / AI / HAI step (docs/protocols.md §3).
    fn self_increase(&mut self) {
        let th = self.p.fast_recovery_th;
        let inc = match self.p.variant {
            RpVariant::Standard => {
                let lo = self.si_count.min(self.timer_scount);
                let hi = self.si_count.max(self.timer_scount);
                if lo > th {
                    self.p.r_hai * (lo - th) as f64
                } else if hi > th {
                    self.p.r_ai
                } else {
                    0.0
                }
            }
            RpVariant::ByteCounter => {
                let ai_end = th + self.p.ai_cycles;
                if self.si_count > ai_end {
                    self.p.r_hai * (self.si_count - ai_end) as f64
                } else if self.si_count > th {
                    self.p.r_ai
                } else {
                    0.0
                }
            }
        };
        let first_cycle = self.si_count == 1 || self.timer_scount == 1;
        if self.p.variant == RpVariant::Standard && self.p.extra_fast_recovery && first_cycle && self.tr > 10.0 * self.cr {
            self.tr /= 8.0;
        } else {
            self.tr += inc;
        }
        self.cr = ((self.cr + self.tr) / 2.0).min(self.p.line_rate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: f64 = 1e9;

    fn rp(variant: RpVariant) -> ReactionPoint {
        ReactionPoint::new(RpParams { variant, jitter: false, ..RpParams::standard(G) })
    }
    fn rng() -> Rng {
        Rng::stream(0, "t", "rp")
    }
    /// Send `bytes` in 1500-B frames with frames still queued.
    fn send(r: &mut ReactionPoint, bytes: u64, rng: &mut Rng) {
        for _ in 0..bytes / 1500 {
            r.on_frame_sent(1500, false, rng);
        }
    }

    #[test]
    fn qntzfb_63_cut() {
        let mut r = rp(RpVariant::Standard);
        assert_eq!(r.on_cnm(63, 7), TimerAction::Arm(7 + 10_000_000_000));
        // CR = 1 Gb/s · (1 − 63/128) = 507.8125 Mb/s; TR = 1 Gb/s.
        assert_eq!(r.cr, G * 65.0 / 128.0);
        assert_eq!(r.tr, G);
        assert_eq!((r.active, r.limiters_created, r.first_cnm), (true, 1, Some(7)));
        // A second 63 cut: TR stays (si_count = 0, CR < line rate), CR halves again (·65/128).
        r.on_cnm(63, 8);
        assert_eq!(r.cr, G * (65.0f64 / 128.0).powi(2));
        assert_eq!(r.tr, G);
        assert_eq!(r.first_cnm, Some(7));
    }

    #[test]
    fn rmin_floor_and_min_dec_factor() {
        let mut r = rp(RpVariant::Standard);
        for t in 0..40 {
            r.on_cnm(63, t);
        }
        assert_eq!(r.cr, 10e6);
        // With GD = 1/64 a QntzFb of 63 would cut by 98 %: MIN_DEC_FACTOR caps it at 50 %.
        let mut r = ReactionPoint::new(RpParams { gd: 1.0 / 64.0, jitter: false, ..RpParams::standard(G) });
        r.on_cnm(63, 0);
        assert_eq!(r.cr, 0.5 * G);
    }

    #[test]
    fn five_byte_counter_cycles_of_fast_recovery() {
        let mut r = rp(RpVariant::Standard);
        let mut g = rng();
        r.on_cnm(63, 0);
        let (cr0, tr) = (r.cr, r.tr);
        // Each 150 000-B cycle (101 frames: the counter must go below zero) halves the gap to TR.
        let mut expect = cr0;
        for _ in 0..5 {
            send(&mut r, 101 * 1500, &mut g);
            expect = (expect + tr) / 2.0;
            assert_eq!(r.tr, tr);
            assert!((r.cr - expect).abs() < 1e-6, "{} vs {}", r.cr, expect);
        }
        // CR after five cycles = TR − (TR − CR0)/32.
        assert!((r.cr - (tr - (tr - cr0) / 32.0)).abs() < 1e-6);
    }

    #[test]
    fn ai_and_hai_steps() {
        let mut r = rp(RpVariant::Standard);
        let mut g = rng();
        r.on_cnm(63, 0);
        send(&mut r, 5 * 101 * 1500, &mut g); // fast recovery over
        // Sixth byte-counter cycle (still 150 000 B: the pseudo-code halves the cycle once
        // si_count > 5) with the timer still at 0: AI, TR += 5 Mb/s.
        let (cr, tr) = (r.cr, r.tr);
        send(&mut r, 51 * 1500, &mut g);
        assert_eq!(r.tr, tr);
        send(&mut r, 50 * 1500, &mut g);
        assert_eq!(r.tr, tr + 5e6);
        assert!((r.cr - (cr + tr + 5e6) / 2.0).abs() < 1e-6);
        // Five timer cycles bring timer_scount to 5; the sixth makes min(si, ts) = 6 > 5 → HAI step 50 Mb/s.
        let mut t = 0;
        for _ in 0..5 {
            t += 10_000_000_000;
            r.on_timer(t, false, &mut g);
        }
        let tr = r.tr;
        r.on_timer(t + 5_000_000_000, false, &mut g);
        assert_eq!(r.tr, tr + 50e6);
        // Next byte-counter cycle (now 75 000 B): si = 7, ts = 6 → min 6 → still 1·R_HAI.
        let tr = r.tr;
        send(&mut r, 51 * 1500, &mut g);
        assert_eq!(r.tr, tr + 50e6);
    }

    #[test]
    fn extra_fast_recovery() {
        let mut r = rp(RpVariant::Standard);
        let mut g = rng();
        for t in 0..8 {
            r.on_cnm(63, t); // CR ≈ 4.5 Mb/s → floored … TR stays at 1 Gb/s
        }
        assert!(r.tr > 10.0 * r.cr);
        send(&mut r, 101 * 1500, &mut g); // first cycle: TR /= 8 instead of FR averaging towards 1 Gb/s
        assert_eq!(r.tr, G / 8.0);
        let mut r2 = ReactionPoint::new(RpParams { extra_fast_recovery: false, jitter: false, ..RpParams::standard(G) });
        for t in 0..8 {
            r2.on_cnm(63, t);
        }
        send(&mut r2, 101 * 1500, &mut g);
        assert_eq!(r2.tr, G);
    }

    #[test]
    fn released_at_line_rate_with_empty_queue() {
        let mut r = rp(RpVariant::Standard);
        let mut g = rng();
        r.on_cnm(1, 0); // CR = 1 Gb/s · 127/128
        let mut last = TimerAction::None;
        for _ in 0..20_000 {
            last = r.on_frame_sent(1500, true, &mut g);
            if !r.active {
                break;
            }
        }
        assert_eq!(last, TimerAction::Cancel);
        assert!(!r.active);
        assert_eq!(r.cr, G);
    }

    #[test]
    fn probe_answers_move_the_rate() {
        let mut r = ReactionPoint::new(RpParams { probe: ProbeMode::Cp, jitter: false, ..RpParams::standard(G) });
        let mut g = rng();
        r.on_cnm(63, 0);
        r.prober.on_cnm(4);
        let (cr, tr) = (r.cr, r.tr);
        // A positive answer from the limiting CP: one fast-recovery cycle, CR = (CR + TR)/2.
        assert_eq!(r.on_answer(Answer { fb: 10, cpid: 4 }, 1), TimerAction::None);
        assert_eq!(r.cr, (cr + tr) / 2.0);
        assert_eq!(r.tr, tr);
        // A negative answer −63: a CNM cut (si_count ≠ 0 → TR := CR first).
        let cr = r.cr;
        assert!(matches!(r.on_answer(Answer { fb: -63, cpid: 4 }, 2), TimerAction::Arm(_)));
        assert_eq!((r.cr, r.tr), (cr * 65.0 / 128.0, cr));
        // A probe is due after a byte-counter cycle, with the target of the last CNM.
        assert!(r.prober.take().is_none());
        send(&mut r, 101 * 1500, &mut g);
        assert_eq!(r.prober.take().map(|p| p.target), Some(4));
        // Without probing nothing is ever due.
        let mut q = rp(RpVariant::Standard);
        q.on_cnm(63, 0);
        send(&mut q, 101 * 1500, &mut g);
        assert!(q.prober.take().is_none());
    }

    #[test]
    fn drift_factor_at_timer_expiry() {
        let mut r = ReactionPoint::new(RpParams { drift_factor: 1.005, timer_period: 500_000_000, jitter: false, ..RpParams::standard(G) });
        let mut g = rng();
        assert_eq!(r.on_cnm(63, 0), TimerAction::Arm(500_000_000)); // 500 µs (Roeck 2007)
        let (cr, tr) = (r.cr, r.tr); // 507.8125 Mb/s, 1 Gb/s
        // First expiry: fast recovery (CR + TR)/2 = 753.90625 Mb/s, then × 1.005.
        assert_eq!(r.on_timer(500_000_000, false, &mut g), TimerAction::Arm(1_000_000_000));
        assert!((r.cr - (cr + tr) / 2.0 * 1.005).abs() < 1e-3, "{}", r.cr);
        // Never above the line rate.
        for i in 2..40 {
            r.on_timer(i * 500_000_000, false, &mut g);
        }
        assert!(r.cr <= G);
    }

    #[test]
    fn byte_counter_variant_phases() {
        let mut r = rp(RpVariant::ByteCounter);
        let mut g = rng();
        assert_eq!(r.on_cnm(63, 0), TimerAction::None); // no timer in this variant
        assert_eq!(r.on_timer(1, false, &mut g), TimerAction::None);
        let tr = r.tr;
        send(&mut r, 4 * 101 * 1500, &mut g);
        assert_eq!(r.tr, tr); // FR: TR constant
        send(&mut r, 101 * 1500, &mut g); // fifth FR cycle; next cycles are 75 kB
        assert_eq!(r.tr, tr);
        for i in 1..=5 {
            send(&mut r, 51 * 1500, &mut g);
            assert_eq!(r.tr, tr + i as f64 * 5e6, "AI cycle {i}");
        }
        send(&mut r, 51 * 1500, &mut g); // HAI, i = 1
        assert_eq!(r.tr, tr + 25e6 + 50e6);
        send(&mut r, 51 * 1500, &mut g); // HAI, i = 2
        assert_eq!(r.tr, tr + 25e6 + 150e6);
    }
}
