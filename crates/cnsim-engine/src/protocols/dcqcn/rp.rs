//! DCQCN's reaction point: the rate controller of one flow's limiter at the sender NIC (Zhu et al.
//! 2015 §3.3, Fig. 7; parameters §5). Rates are f64 bit/s, as in the QCN RP (`qcn/rp.rs`).
//!
//! The rules implemented (RC current rate, RT target rate, L line rate):
//!
//! * Start: RC = RT = L (no slow start, §3.3), α = `alpha_init` (1, §3.3). No timer runs and the
//!   byte counter is off until the first CNP.
//! * CNP (Eq. 1): RT = RC (always; with `clamp_target = false` QCN's rule, see `RpParams`),
//!   RC = max(min_rate, RC·(1 − α/2)), then α = (1 − g)·α + g (`alpha_before_cut` swaps the two).
//!   Both increase counters and the byte count restart at 0; the α timer restarts at now + K and the
//!   rate-increase timer at now + T.
//! * α timer (Eq. 2): every K without a CNP, α = (1 − g)·α. The period runs from the CNP, then from
//!   each expiry.
//! * Increase events, "identical to QCN" (§3.3): one per expiry of the timer (period T) and one per
//!   B bytes sent (the byte count carries its remainder, so it is exactly every B bytes). The event
//!   increments its own counter (timer count or byte count), then with F = `fast_recovery_th`:
//!   - both counters ≤ F: fast recovery, RT unchanged (Eq. 3);
//!   - one counter > F: additive increase, RT += R_AI (Eq. 4);
//!   - both counters > F: hyper increase, RT += i·R_HAI with i = min(counters) − F (QCN's rule;
//!     the paper names the phase without a formula);
//!
//!   then RT = min(RT, L) and RC = min((RT + RC)/2, L) (RC = RT once the midpoint no longer moves
//!   in f64).
//!
//! Where the implementations read differ: ns3-rdma (the first author's simulator) gives fast
//! recovery to counts 1…F−1 and uses i = min − F + 1, halves B and T in hyper increase, and caps
//! only RC; the HPCC simulator's NIC model has no byte counter, a fixed R_HAI step and α updated on
//! a free-running K-period clock from a CNP-arrived flag; neither applies QCN's "extra fast
//! recovery". Here, the paper's text and QCN's counting as the QCN RP in `qcn/rp.rs` does it.
//!
//! One engine timer per flow: the RP exposes the earlier of its two deadlines as a `TimerAction`
//! from every call. The rate-increase timer stops once RC = RT = L: from there an increase event
//! changes nothing a later CNP would not reset (RT and RC stay capped at L, and a CNP zeroes the
//! counters), so stopping it saves events without changing behaviour. The α timer keeps running.

use super::RpParams;
use crate::core::time::Time;
use crate::slots::TimerAction;

/// What the RP answers when its flow sent a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sent {
    pub timer: TimerAction,
    /// A byte-counter event moved RC.
    pub rate_changed: bool,
}

/// Which counter produced an increase event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Timer,
    Bytes,
}

#[derive(Clone, Debug)]
pub struct ReactionPoint {
    pub p: RpParams,
    rc: f64,
    rt: f64,
    alpha: f64,
    /// A CNP has been received: the limiter and its timers are in place.
    active: bool,
    /// Bytes sent since the last byte-counter event or cut.
    bytes: u64,
    /// Increase events of each counter since the last cut.
    byte_count: u32,
    timer_count: u32,
    alpha_due: Option<Time>,
    rate_due: Option<Time>,
    /// The deadline the engine's timer was last armed at.
    armed: Option<Time>,
    pub cnps_received: u64,
    /// Increase events by phase, over the run.
    pub fast_recoveries: u64,
    pub additive_increases: u64,
    pub hyper_increases: u64,
}

impl ReactionPoint {
    pub fn new(p: RpParams) -> Self {
        ReactionPoint {
            p,
            rc: p.line_rate,
            rt: p.line_rate,
            alpha: p.alpha_init,
            active: false,
            bytes: 0,
            byte_count: 0,
            timer_count: 0,
            alpha_due: None,
            rate_due: None,
            armed: None,
            cnps_received: 0,
            fast_recoveries: 0,
            additive_increases: 0,
            hyper_increases: 0,
        }
    }

    /// Current rate RC, bit/s.
    #[inline]
    pub fn rate(&self) -> f64 {
        self.rc
    }
    /// Target rate RT, bit/s.
    #[inline]
    pub fn target(&self) -> f64 {
        self.rt
    }
    #[inline]
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// Has a CNP put the limiter in place?
    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }
    /// The deadline the RP last asked the engine to arm (None: no timer).
    #[inline]
    pub fn deadline(&self) -> Option<Time> {
        self.armed
    }

    fn update_alpha(&mut self) {
        self.alpha = (1.0 - self.p.g) * self.alpha + self.p.g;
    }

    /// A CNP for this flow arrived at `now` (Eq. 1).
    pub fn on_cnp(&mut self, now: Time) -> TimerAction {
        self.cnps_received += 1;
        self.active = true;
        if self.p.alpha_before_cut {
            self.update_alpha();
        }
        let increased = self.byte_count > 0 || self.timer_count > 0;
        if self.p.clamp_target || increased || self.rc >= self.p.line_rate {
            self.rt = self.rc;
        }
        self.rc = (self.rc * (1.0 - self.alpha / 2.0)).max(self.p.min_rate);
        if !self.p.alpha_before_cut {
            self.update_alpha();
        }
        self.bytes = 0;
        self.byte_count = 0;
        self.timer_count = 0;
        self.alpha_due = Some(now.saturating_add(self.p.alpha_interval));
        self.rate_due = Some(now.saturating_add(self.p.timer_period));
        self.timer()
    }

    /// The flow's engine timer fired at `now`: run whichever deadlines are due (both when they
    /// coincide).
    pub fn on_timer(&mut self, now: Time) -> TimerAction {
        self.armed = None; // it just fired
        if self.alpha_due.is_some_and(|d| d <= now) {
            self.alpha *= 1.0 - self.p.g;
            self.alpha_due = Some(now.saturating_add(self.p.alpha_interval));
        }
        if self.rate_due.is_some_and(|d| d <= now) {
            self.rate_due = Some(now.saturating_add(self.p.timer_period));
            self.increase(Source::Timer);
        }
        self.timer()
    }

    /// The flow sent a frame of `bytes` at `now` (the byte counter).
    #[inline]
    pub fn on_sent(&mut self, bytes: u32, _now: Time) -> Sent {
        if !self.active {
            return Sent { timer: TimerAction::None, rate_changed: false };
        }
        let before = self.rc;
        self.bytes = self.bytes.saturating_add(bytes as u64);
        while self.bytes >= self.p.byte_counter {
            self.bytes -= self.p.byte_counter;
            self.increase(Source::Bytes);
        }
        Sent { timer: self.timer(), rate_changed: self.rc != before }
    }

    /// One increase event (fast recovery, additive or hyper increase; the module doc's rules).
    fn increase(&mut self, src: Source) {
        match src {
            Source::Timer => self.timer_count = self.timer_count.saturating_add(1),
            Source::Bytes => self.byte_count = self.byte_count.saturating_add(1),
        }
        let f = self.p.fast_recovery_th;
        let lo = self.byte_count.min(self.timer_count);
        let hi = self.byte_count.max(self.timer_count);
        if hi <= f {
            self.fast_recoveries += 1;
        } else if lo <= f {
            self.additive_increases += 1;
            self.rt += self.p.r_ai;
        } else {
            self.hyper_increases += 1;
            self.rt += (lo - f) as f64 * self.p.r_hai;
        }
        let l = self.p.line_rate;
        self.rt = self.rt.min(l);
        // Once RC is one float step from RT the midpoint can round back to RC for ever; RC then
        // takes RT, the limit the halving converges to.
        let mid = (self.rt + self.rc) / 2.0;
        self.rc = if mid == self.rc { self.rt } else { mid }.min(l);
        if self.rc >= l && self.rt >= l {
            self.rate_due = None; // nothing left to recover (module doc)
        }
    }

    /// The action that brings the engine's timer to the earlier deadline, if it moved.
    fn timer(&mut self) -> TimerAction {
        let next = match (self.alpha_due, self.rate_due) {
            (Some(a), Some(r)) => Some(a.min(r)),
            (a, r) => a.or(r),
        };
        if next == self.armed {
            return TimerAction::None;
        }
        self.armed = next;
        next.map_or(TimerAction::Cancel, TimerAction::Arm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::dcqcn::PS_PER_US;

    const US: Time = PS_PER_US;
    const L: f64 = 40e9;
    /// Far beyond any test's horizon: keeps one of the two timers out of the way.
    const NEVER: Time = 1_000_000 * US;

    fn rp(p: RpParams) -> ReactionPoint {
        ReactionPoint::new(p)
    }
    fn std() -> RpParams {
        RpParams::standard(L)
    }

    #[test]
    fn first_cnp_with_alpha_one_halves_the_rate() {
        let mut r = rp(std());
        assert!(!r.active());
        // K = T = 55 µs: the one timer goes to 55 µs after the CNP.
        assert_eq!(r.on_cnp(10 * US), TimerAction::Arm(65 * US));
        // RT = RC = 40 Gb/s; RC = 40·(1 − 1/2) = 20 Gb/s; α = (255/256)·1 + 1/256 = 1.
        assert_eq!((r.target(), r.rate(), r.alpha()), (L, 20e9, 1.0));
        assert!(r.active());
    }

    #[test]
    fn alpha_after_k_cnps() {
        // g = 1/4, α0 = 1/2 (binary fractions: exact). The paper's order: cut with the old α.
        let mut r = rp(RpParams { g: 0.25, alpha_init: 0.5, ..std() });
        r.on_cnp(0); // RC = L·(1 − 1/4) = 0.75 L;        α = 0.75·0.5 + 0.25 = 0.625
        assert_eq!((r.rate(), r.alpha()), (0.75 * L, 0.625));
        r.on_cnp(1); // RC = 0.75 L·(1 − 0.3125) = 0.515625 L; α = 0.75·0.625 + 0.25 = 0.71875
        assert_eq!((r.rate(), r.alpha()), (0.515625 * L, 0.71875));
        r.on_cnp(2); // α = 0.75·0.71875 + 0.25 = 0.7890625 = 1 − 0.75³·0.5
        assert_eq!(r.alpha(), 0.7890625);
        assert_eq!(r.target(), 0.515625 * L, "RT = RC before the third cut");
        assert_eq!(r.cnps_received, 3);
    }

    #[test]
    fn alpha_before_cut_uses_the_new_alpha() {
        // ns3-rdma's order: α = 0.75·0.5 + 0.25 = 0.625 first, then RC = L·(1 − 0.3125) = 0.6875 L.
        let mut r = rp(RpParams { g: 0.25, alpha_init: 0.5, alpha_before_cut: true, ..std() });
        r.on_cnp(0);
        assert_eq!((r.rate(), r.alpha()), (0.6875 * L, 0.625));
    }

    #[test]
    fn alpha_decays_every_k_without_a_cnp() {
        // g = 1/4, T out of the way: the timer carries only α.
        let mut r = rp(RpParams { g: 0.25, timer_period: NEVER, ..std() });
        assert_eq!(r.on_cnp(0), TimerAction::Arm(55 * US)); // α = 1
        assert_eq!(r.on_timer(55 * US), TimerAction::Arm(110 * US));
        assert_eq!(r.alpha(), 0.75); // (1 − 1/4)·1
        assert_eq!(r.on_timer(110 * US), TimerAction::Arm(165 * US));
        assert_eq!(r.alpha(), 0.5625); // 0.75²
        assert_eq!(r.rate(), L / 2.0, "α ticks leave the rate alone");
        // A CNP restarts the α period: next decay 55 µs after it.
        assert_eq!(r.on_cnp(130 * US), TimerAction::Arm(185 * US));
        // The cut used α = 0.5625: RC = L/2 · (1 − 0.28125) = 0.359375 L; α = 0.75·0.5625 + 0.25.
        assert_eq!((r.rate(), r.alpha()), (0.359375 * L, 0.671875));
    }

    /// Two CNPs at t = 0 (α stays 1): RT = L/2 = 20 Gb/s, RC = 10 Gb/s; the α timer out of the way.
    fn after_two_cuts(p: RpParams) -> ReactionPoint {
        let mut r = rp(RpParams { alpha_interval: NEVER, ..p });
        r.on_cnp(0);
        r.on_cnp(0);
        assert_eq!((r.target(), r.rate()), (20e9, 10e9));
        r
    }

    #[test]
    fn fast_recovery_then_additive_increase_from_the_timer() {
        let mut r = after_two_cuts(std());
        // Five timer events of fast recovery, RC = (RT + RC)/2 with RT = 20 Gb/s:
        // 15, 17.5, 18.75, 19.375, 19.6875 Gb/s.
        for (i, rc) in [15e9, 17.5e9, 18.75e9, 19.375e9, 19.6875e9].into_iter().enumerate() {
            let t = (i as Time + 1) * 55 * US;
            assert_eq!(r.on_timer(t), TimerAction::Arm(t + 55 * US));
            assert_eq!((r.target(), r.rate()), (20e9, rc), "event {}", i + 1);
        }
        // Sixth: timer count 6 > F, byte count 0 ≤ F → AI. RT = 20.04 Gb/s,
        // RC = (20.04 + 19.6875)/2 = 19.86375 Gb/s.
        r.on_timer(330 * US);
        assert_eq!((r.target(), r.rate()), (20.04e9, 19.86375e9));
        assert_eq!((r.fast_recoveries, r.additive_increases, r.hyper_increases), (5, 1, 0));
    }

    #[test]
    fn hyper_increase_needs_both_counters_past_f() {
        // B = 1000 B so that each 1000-B frame is one byte-counter event.
        let mut r = after_two_cuts(RpParams { byte_counter: 1_000, ..std() });
        for i in 1..=6 {
            r.on_timer(i * 55 * US); // 5 FR, then AI: RT = 20.04 Gb/s (previous test)
        }
        // Byte events 1–5: byte count ≤ F, timer count 6 > F → AI each: RT = 20.04 + 5·0.04 = 20.24 Gb/s.
        for _ in 0..5 {
            assert!(r.on_sent(1_000, 0).rate_changed);
        }
        assert_eq!(r.target(), 20.24e9);
        // Byte event 6: min(6, 6) = 6 > F → HAI with i = 6 − 5 = 1: RT = 20.24 + 0.4 = 20.64 Gb/s.
        let rc = r.rate();
        r.on_sent(1_000, 0);
        assert_eq!(r.target(), 20.64e9);
        assert_eq!(r.rate(), (20.64e9 + rc) / 2.0);
        // Byte event 7: min(7, 6) = 6 → i = 1 again: RT = 21.04 Gb/s.
        r.on_sent(1_000, 0);
        assert_eq!(r.target(), 21.04e9);
        // Timer event 7: min(7, 7) = 7 → i = 2: RT = 21.04 + 0.8 = 21.84 Gb/s.
        r.on_timer(7 * 55 * US);
        assert_eq!(r.target(), 21.84e9);
        assert_eq!((r.fast_recoveries, r.additive_increases, r.hyper_increases), (5, 6, 3));
    }

    #[test]
    fn byte_counter_counts_exactly_every_b_bytes() {
        let mut r = after_two_cuts(RpParams { byte_counter: 3_000, timer_period: NEVER, ..std() });
        // 1500-B frames: events on the 2nd and 4th frame (3000 and 6000 B), none in between.
        let moved: Vec<bool> = (0..4).map(|_| r.on_sent(1_500, 0).rate_changed).collect();
        assert_eq!(moved, vec![false, true, false, true]);
        // Two FR events: RC = (20 + 10)/2 = 15, then (20 + 15)/2 = 17.5 Gb/s.
        assert_eq!(r.rate(), 17.5e9);
        // One 7000-B send crosses B twice (7000 = 2·3000 + 1000 carried): 18.75, 19.375 Gb/s.
        r.on_sent(7_000, 0);
        assert_eq!(r.rate(), 19.375e9);
        // The carried 1000 B + 2000 B completes the next count: 19.6875 Gb/s.
        assert!(r.on_sent(2_000, 0).rate_changed);
        assert_eq!(r.rate(), 19.6875e9);
    }

    #[test]
    fn nothing_before_the_first_cnp() {
        let mut r = rp(RpParams { byte_counter: 1, ..std() });
        assert_eq!(r.on_sent(1_500, 0), Sent { timer: TimerAction::None, rate_changed: false });
        assert_eq!((r.rate(), r.target(), r.deadline()), (L, L, None));
    }

    #[test]
    fn rates_are_capped_at_line_rate_and_the_rate_timer_stops_there() {
        // 1 Gb/s link, R_AI = 600 Mb/s so that one AI step would overshoot; α timer out of the way.
        let l = 1e9;
        let mut r = rp(RpParams { r_ai: 600e6, alpha_interval: NEVER, ..RpParams::standard(l) });
        r.on_cnp(0); // RT = 1 Gb/s, RC = 0.5 Gb/s
        let mut t = 0;
        for _ in 0..5 {
            t += 55 * US;
            r.on_timer(t); // FR: RC → 1 − 0.5/2⁵ = 0.984375 Gb/s
        }
        assert_eq!(r.rate(), 0.984375e9);
        t += 55 * US;
        r.on_timer(t); // AI: RT = min(1 + 0.6, 1) = 1 Gb/s; RC = (1 + 0.984375)/2 = 0.9921875 Gb/s
        assert_eq!((r.target(), r.rate()), (l, 0.9921875e9));
        // RC approaches L by halving the gap; it reaches L exactly once the gap is below half an ulp.
        let mut last = TimerAction::None;
        for _ in 0..200 {
            t += 55 * US;
            last = r.on_timer(t);
            if r.rate() >= l {
                break;
            }
        }
        assert_eq!((r.target(), r.rate()), (l, l));
        // With RC = RT = L the rate timer stops; the α timer (at NEVER) is the one left.
        assert_eq!(last, TimerAction::Arm(NEVER));
        assert_eq!(r.deadline(), Some(NEVER));
        // A new CNP starts the rate timer again.
        assert_eq!(r.on_cnp(t), TimerAction::Arm(t + 55 * US));
    }

    #[test]
    fn min_rate_floor() {
        let mut r = rp(std());
        for t in 0..20 {
            r.on_cnp(t); // 40 Gb/s / 2²⁰ ≈ 38 kb/s without the floor
        }
        assert_eq!(r.rate(), 100e6);
    }

    #[test]
    fn one_timer_takes_the_earlier_deadline() {
        // K = 55 µs, T = 100 µs.
        let mut r = rp(RpParams { timer_period: 100 * US, ..std() });
        assert_eq!(r.on_cnp(0), TimerAction::Arm(55 * US)); // α first
        let a0 = r.alpha();
        assert_eq!(r.on_timer(55 * US), TimerAction::Arm(100 * US)); // α ran; next the rate timer
        assert!(r.alpha() < a0);
        assert_eq!(r.fast_recoveries, 0);
        assert_eq!(r.on_timer(100 * US), TimerAction::Arm(110 * US)); // rate ran; next α at 110
        assert_eq!(r.fast_recoveries, 1);
        // A CNP at 105 µs moves both: α to 160 µs, rate to 205 µs.
        assert_eq!(r.on_cnp(105 * US), TimerAction::Arm(160 * US));
        // A byte-counter event moves the rate, not the deadline: no timer action.
        let mut r2 = rp(RpParams { byte_counter: 1_000, ..std() });
        r2.on_cnp(0);
        assert_eq!(r2.on_sent(1_000, 1), Sent { timer: TimerAction::None, rate_changed: true });
    }

    #[test]
    fn coinciding_deadlines_run_together() {
        // K = T = 55 µs (the paper's): one expiry decays α and runs one FR event.
        let mut r = rp(RpParams { g: 0.25, ..std() });
        r.on_cnp(0); // RT = L, RC = L/2, α = 1
        assert_eq!(r.on_timer(55 * US), TimerAction::Arm(110 * US));
        assert_eq!((r.alpha(), r.rate(), r.fast_recoveries), (0.75, 0.75 * L, 1));
    }

    #[test]
    fn qcn_target_rule_keeps_the_older_target_across_a_burst() {
        // clamp_target = false: the second CNP comes before any increase event, so RT stays L.
        let mut r = rp(RpParams { clamp_target: false, alpha_interval: NEVER, ..std() });
        r.on_cnp(0); // RC was L: RT = L, RC = L/2
        r.on_cnp(1); // no increase since: RT stays L, RC = L/4
        assert_eq!((r.target(), r.rate()), (L, L / 4.0));
        r.on_timer(55 * US + 1); // one FR event: RC = (L + L/4)/2 = 0.625 L
        r.on_cnp(2 * 55 * US); // an increase happened: RT = RC = 0.625 L, RC = 0.3125 L
        assert_eq!((r.target(), r.rate()), (0.625 * L, 0.3125 * L));
    }
}
