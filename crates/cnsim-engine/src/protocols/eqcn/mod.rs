//! Enhanced QCN for multicast: a representative congestion point per multicast source
//! (seed Mliki et al. 2016b §3, Algorithms 1 and 2; docs/protocols.md §5). Data frames carry the
//! RP's saved feedback `fb_hat` and the CPID that set it; only the CP whose quantized |Fb| is at
//! least `fb_hat` (the representative) sends CNMs.

pub mod spec;
pub mod wire;
mod register;
pub use register::PROTOCOL;

use crate::core::time::Time;
use crate::core::rng::Rng;
use crate::net::frame::{Dest, Frame, NodeId};
use crate::protocols::qcn::{Answer, Cnm, ReactionPoint};
use crate::slots::rp::RpMachine;
use crate::slots::{Sent, TimerAction};
use serde_json::Value;
use crate::slots::Proto;
use crate::protocols::qcn::QNTZ_FB_MAX;

/// No representative chosen yet.
pub const NO_CPID: u32 = u32::MAX;

/// Which feedback value the RP's decrease uses ("Adjust the data rate (F̂b)", Algorithm 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decrease {
    /// The saved largest value F̂b, as the pseudo-code reads (default).
    Saved,
    /// The value carried by the CNM just received.
    Received,
}

/// When F̂b is cleared besides Algorithm 1's reset at 63. The seed resets only at 63 and is silent
/// on what happens once the limiter is released, so an RP can keep an F̂b above anything a CP can
/// still produce and no CP is representative again (the lock-out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reset {
    /// Only at 63, as Algorithm 1 is written (default).
    At63,
    /// Also when the rate limiter is released.
    OnRelease,
    /// Also when no CNM arrived for this long.
    Expire(Time),
}

/// Algorithm 1 at the reaction point: keep the largest feedback seen, reset at 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EqcnRp {
    pub fb_hat: u8,
    /// CPID of the CNM that set `fb_hat` (the tie-break of §4).
    pub cpid: u32,
    pub decrease: Decrease,
    pub reset: Reset,
    last_cnm: Time,
}

impl EqcnRp {
    pub fn new(decrease: Decrease) -> Self {
        Self::with_reset(decrease, Reset::At63)
    }
    pub fn with_reset(decrease: Decrease, reset: Reset) -> Self {
        EqcnRp { fb_hat: 0, cpid: NO_CPID, decrease, reset, last_cnm: 0 }
    }

    fn clear(&mut self) {
        self.fb_hat = 0;
        self.cpid = NO_CPID;
    }

    /// The rate limiter was released.
    pub fn on_release(&mut self) {
        if self.reset == Reset::OnRelease {
            self.clear();
        }
    }

    /// A CNM with quantized feedback `fb` from `cpid` at `now`: returns the value to decrease the
    /// rate with.
    pub fn on_cnm(&mut self, fb: u8, cpid: u32, now: Time) -> u8 {
        self.last_cnm = now;
        if self.fb_hat < fb {
            self.fb_hat = fb;
            self.cpid = cpid;
        }
        let dec = match self.decrease {
            Decrease::Saved => self.fb_hat,
            Decrease::Received => fb,
        };
        if self.fb_hat == QNTZ_FB_MAX {
            // "reset the selection process of the representative congestion point" (§3)
            self.fb_hat = 0;
            self.cpid = NO_CPID;
        }
        dec
    }
}

impl EqcnRp {
    /// Tag a data frame leaving at `now` with F̂b and its CPID (tag = [F̂b, CPID, 0, 0]).
    #[inline]
    pub fn stamp(&mut self, f: &mut Frame, now: Time) {
        if let Reset::Expire(t) = self.reset {
            if self.fb_hat > 0 && now.saturating_sub(self.last_cnm) >= t {
                self.clear();
            }
        }
        f.proto = Proto::Eqcn;
        f.tag = [self.fb_hat as u32, self.cpid, 0, 0];
    }
}

/// The (F̂b, CPID) an E-QCN data frame carries; None for frames of other protocols.
#[inline]
pub fn read_tag(f: &Frame) -> Option<(u8, u32)> {
    (f.proto == Proto::Eqcn).then(|| (f.tag[0] as u8, f.tag[1]))
}

/// Algorithm 2 at a CP: is this CP (`cpid`, quantized |Fb| = `fb`) the representative for a frame
/// carrying (`fb_hat`, `frame_cpid`)? "|Fb| ≥ F̂b"; on equal values only the CP whose CPID the RP
/// selected is (§4), when `tie_break` is on and the RP has selected one.
pub fn is_representative(fb: u8, cpid: u32, fb_hat: u8, frame_cpid: u32, tie_break: bool) -> bool {
    match fb.cmp(&fb_hat) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => !tie_break || frame_cpid == NO_CPID || frame_cpid == cpid,
    }
}

/// An E-QCN reaction point in the engine's reaction-point slot (`slots::rp`): QCN's RP with
/// Algorithm 1's F̂b in front of its rate decrease.
#[derive(Clone)]
pub struct EqcnReactionPoint {
    pub r: ReactionPoint,
    pub e: EqcnRp,
}

impl EqcnReactionPoint {
    /// Tell Algorithm 1's state when QCN released the limiter (a `Cancel`).
    fn released(&mut self, act: TimerAction) -> TimerAction {
        if act == TimerAction::Cancel {
            self.e.on_release();
        }
        act
    }
}

impl RpMachine for EqcnReactionPoint {
    /// Only a CP's CNMs cut the rate (Mliki et al. 2016b Algorithm 1): `rp = eqcn`.
    fn cut_by_cp_only(&self) -> Option<&'static str> {
        Some("eqcn")
    }
    #[inline]
    fn limit(&self) -> Option<f64> {
        self.r.limit()
    }
    #[inline]
    fn rate(&self) -> f64 {
        self.r.cr
    }
    fn target(&self) -> f64 {
        self.r.tr
    }
    fn cn_tagged(&self) -> bool {
        true
    }
    /// The representative CP (the CPID behind F̂b), for the event trace.
    fn representative(&self) -> Option<(u8, u32)> {
        Some((self.e.fb_hat, self.e.cpid))
    }
    fn feedback_received(&self) -> u64 {
        self.r.cnms_received
    }
    /// E-QCN frames carry F̂b (Mliki et al. 2016b §4).
    #[inline]
    fn stamp(&mut self, f: &mut Frame, now: Time) {
        self.e.stamp(f, now)
    }
    #[inline]
    fn on_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> Sent {
        let before = self.r.cr;
        let act = self.r.on_frame_sent(len, queue_empty, rng);
        let timer = self.released(act);
        self.r.sent(timer, before)
    }
    fn on_feedback(&mut self, f: &Frame, now: Time, _rng: &mut Rng) -> TimerAction {
        let r = &mut self.r;
        if let Some(a) = Answer::read(f) {
            if a.fb < 0 {
                // QCN-HP: a negative answer goes through F̂b (Mliki et al. 2016b Algorithm 1) like a CNM.
                r.prober.on_answer(a, r.active);
                let fb = self.e.on_cnm((-a.fb).min(63) as u8, a.cpid, now);
                return r.on_cnm(fb, now);
            }
            return r.on_answer(a, now);
        }
        let Some(cnm) = Cnm::read(f) else { return TimerAction::None };
        r.prober.on_cnm(cnm.cpid);
        let fb = self.e.on_cnm(cnm.qntz_fb, cnm.cpid, now);
        r.on_cnm(fb, now)
    }
    #[inline]
    fn take_path_control(&mut self, src: NodeId, dst: Dest, flow: u32, prio: u8, now: Time) -> Option<Frame> {
        self.r.take_path_control(src, dst, flow, prio, now)
    }
    fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        let act = self.r.on_timer(now, queue_empty, rng);
        self.released(act)
    }
    fn report(&self) -> Value {
        self.r.report_as("eqcn", Some(self.e.fb_hat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cps_only_the_larger_keeps_sending() {
        let mut rp = EqcnRp::new(Decrease::Saved);
        // Frames start with fb_hat 0: both CPs (|Fb| 20 at CP 1, 35 at CP 2) are representative.
        assert!(is_representative(20, 1, rp.fb_hat, rp.cpid, true));
        assert!(is_representative(35, 2, rp.fb_hat, rp.cpid, true));
        assert_eq!(rp.on_cnm(20, 1, 0), 20);
        assert_eq!(rp.on_cnm(35, 2, 0), 35);
        assert_eq!((rp.fb_hat, rp.cpid), (35, 2));
        // Now frames carry 35: CP 1 stays silent, CP 2 keeps sending.
        assert!(!is_representative(20, 1, rp.fb_hat, rp.cpid, true));
        assert!(is_representative(35, 2, rp.fb_hat, rp.cpid, true));
        // A later, smaller CNM from CP 2 is decreased with the saved 35 (the pseudo-code) …
        assert_eq!(rp.on_cnm(10, 2, 0), 35);
        // … or with the received 10 when the option says so.
        let mut r2 = EqcnRp { decrease: Decrease::Received, ..rp };
        assert_eq!(r2.on_cnm(10, 2, 0), 10);
    }

    #[test]
    fn reset_after_63() {
        let mut rp = EqcnRp::new(Decrease::Saved);
        rp.on_cnm(40, 1, 0);
        assert_eq!(rp.on_cnm(63, 2, 0), 63); // the decrease uses 63, then the selection restarts
        assert_eq!((rp.fb_hat, rp.cpid), (0, NO_CPID));
        assert!(is_representative(5, 1, rp.fb_hat, rp.cpid, true));
    }

    #[test]
    fn tag_round_trips() {
        use crate::net::frame::{Dest, FrameKind};
        let mut f = Frame::new(FrameKind::Data, 1500, 0, Dest::Group(0), 0, 0);
        assert_eq!(read_tag(&f), None);
        EqcnRp { fb_hat: 41, cpid: 6, ..EqcnRp::new(Decrease::Saved) }.stamp(&mut f, 0);
        assert_eq!(read_tag(&f), Some((41, 6)));
    }

    #[test]
    fn lock_out_options_clear_fb_hat() {
        // At 63 only (Algorithm 1 as written): a saved 40 outlives the limiter and any silence.
        let mut rp = EqcnRp::new(Decrease::Saved);
        rp.on_cnm(40, 1, 0);
        rp.on_release();
        let mut f = crate::net::frame::Frame::new(crate::net::frame::FrameKind::Data, 1500, 0, crate::net::frame::Dest::Group(0), 0, 0);
        rp.stamp(&mut f, 1_000_000_000_000);
        assert_eq!((rp.fb_hat, read_tag(&f)), (40, Some((40, 1))));
        // On release: cleared with the limiter.
        let mut rp = EqcnRp::with_reset(Decrease::Saved, Reset::OnRelease);
        rp.on_cnm(40, 1, 0);
        rp.on_release();
        assert_eq!((rp.fb_hat, rp.cpid), (0, NO_CPID));
        // Expiry after 10 ms without a CNM: still there at 9 ms, gone at 10 ms.
        let mut rp = EqcnRp::with_reset(Decrease::Saved, Reset::Expire(10_000_000_000));
        rp.on_cnm(40, 1, 5_000_000_000);
        rp.stamp(&mut f, 14_000_000_000);
        assert_eq!(read_tag(&f), Some((40, 1)));
        rp.stamp(&mut f, 15_000_000_000);
        assert_eq!(read_tag(&f), Some((0, NO_CPID)));
    }

    #[test]
    fn cpid_breaks_ties() {
        // Two queues with equal |Fb| = 30; the RP selected CP 7.
        assert!(is_representative(30, 7, 30, 7, true));
        assert!(!is_representative(30, 8, 30, 7, true));
        assert!(is_representative(30, 8, 30, 7, false)); // without the tie-break both send
        assert!(is_representative(30, 8, 30, NO_CPID, true));
    }
}
