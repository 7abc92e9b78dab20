//! DCQCN's three roles in the engine's slots: the marking CP as a queue-management protocol
//! (`slots::aqm`), the NP at each receiver (`slots::np`), the RP at the source (`slots::rp`).

use super::{wire, Marking, NotificationPoint, ReactionPoint};
use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{ce, Frame, NodeId, ECN_ECT0};
use crate::slots::aqm::AqmMachine;
use crate::slots::np::NpMachine;
use crate::slots::rp::RpMachine;
use crate::slots::{QueueView, Sent, TimerAction, Verdict};
use serde_json::{json, Value};

/// The CP: marking with its random stream.
pub struct MarkingAqm {
    pub m: Marking,
    pub rng: Rng,
}

impl AqmMachine for MarkingAqm {
    /// Marks on the bytes waiting when the frame arrives (§3.1: RED on the instantaneous queue);
    /// never drops: a RoCEv2 fabric is lossless under PFC, and the drop-tail capacity still applies.
    #[inline]
    fn on_arrival(&mut self, q: QueueView, _idle: Option<Time>, ect: bool) -> Verdict {
        if self.m.on_arrival(q.bytes, ect, &mut self.rng) { Verdict::Mark } else { Verdict::Enqueue }
    }
    fn report(&self) -> Value {
        json!({"aqm": "dcqcn", "dcqcn_marks": self.m.marks, "dcqcn_arrivals": self.m.arrivals})
    }
}

/// The NP of one receiver, with its CNPs' size and class.
#[derive(Clone)]
pub struct Np {
    pub np: NotificationPoint,
    pub cnp_size: u32,
    /// The CNPs' priority; None: the data frame's.
    pub cnp_prio: Option<u8>,
}

impl NpMachine for Np {
    #[inline]
    fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
        self.np.on_data(ce(f.ecn), now).then(|| wire::cnp(f, node, self.cnp_size, self.cnp_prio.unwrap_or(f.prio), now))
    }
    fn report(&self) -> Value {
        json!({"dcqcn_ce_frames": self.np.ce_frames, "dcqcn_cnps_sent": self.np.cnps_sent})
    }
}

impl RpMachine for ReactionPoint {
    /// The limiter paces at RC once a CNP has put it in place (a flow starts at line rate, §3.3).
    #[inline]
    fn limit(&self) -> Option<f64> {
        self.active().then(|| self.rate())
    }
    #[inline]
    fn rate(&self) -> f64 {
        ReactionPoint::rate(self)
    }
    fn target(&self) -> f64 {
        ReactionPoint::target(self)
    }
    fn feedback_received(&self) -> u64 {
        self.cnps_received
    }
    /// Only a marking queue cuts DCQCN's rate (its CNPs answer marks): `rp = dcqcn`.
    fn cut_by_marks_only(&self) -> Option<&'static str> {
        Some("dcqcn")
    }
    /// RoCEv2 data frames are ECN-capable (ECT(0)), so that the CP can mark them.
    #[inline]
    fn stamp(&mut self, f: &mut Frame, _now: Time) {
        f.ecn |= ECN_ECT0;
    }
    #[inline]
    fn on_sent(&mut self, len: u32, _queue_empty: bool, _rng: &mut Rng) -> Sent {
        let s = ReactionPoint::on_sent(self, len, 0);
        Sent { timer: s.timer, limit: RpMachine::limit(self), rate_changed: s.rate_changed, path_control_due: false }
    }
    fn on_feedback(&mut self, f: &Frame, now: Time, _rng: &mut Rng) -> TimerAction {
        if wire::is_cnp(f) { self.on_cnp(now) } else { TimerAction::None }
    }
    fn on_timer(&mut self, now: Time, _queue_empty: bool, _rng: &mut Rng) -> TimerAction {
        ReactionPoint::on_timer(self, now)
    }
    fn report(&self) -> Value {
        json!({
            "protocol": "dcqcn", "rate_final_bps": self.rate(), "tr_final_bps": self.target(),
            "feedback_received": self.cnps_received, "dcqcn_alpha_final": self.alpha(),
            "dcqcn_fast_recoveries": self.fast_recoveries, "dcqcn_additive_increases": self.additive_increases,
            "dcqcn_hyper_increases": self.hyper_increases,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind, ECN_CE};
    use crate::protocols::dcqcn::{MarkingParams, NpParams, RpParams};

    /// A CE-marked frame makes the NP answer with a CNP, and that CNP cuts the RP: RC = L·(1 − α/2)
    /// with α = 1, i.e. L/2, and the limiter then paces at it.
    #[test]
    fn a_marked_frame_comes_back_as_a_cut() {
        let mut cp = MarkingAqm { m: Marking::new(MarkingParams { kmin: 0, kmax: 0, pmax: 1.0 }), rng: Rng::stream(1, "t", "cp") };
        let mut data = Frame::new(FrameKind::Data, 1000, 1, Dest::Node(2), 5, 0);
        let mut rp = ReactionPoint::new(RpParams::standard(40e9));
        RpMachine::stamp(&mut rp, &mut data, 0);
        let q = QueueView { bytes: 1, frames: 1, rate_bps: 40_000_000_000 };
        assert_eq!(cp.on_arrival(q, None, data.ecn & ECN_ECT0 != 0), Verdict::Mark, "above Kmax = 0: every ECT frame");
        data.ecn |= ECN_CE;
        let mut np = Np { np: NotificationPoint::new(NpParams::standard()), cnp_size: 64, cnp_prio: None };
        let c = np.on_data(&data, 2, 1_000).expect("a CNP");
        assert!(np.on_data(&data, 2, 2_000).is_none(), "one CNP per 50 µs");
        assert_eq!(RpMachine::limit(&rp), None, "no limiter before a CNP");
        let mut rng = Rng::stream(1, "t", "rp");
        rp.on_feedback(&c, 3_000, &mut rng);
        assert_eq!(RpMachine::limit(&rp), Some(20e9));
    }
}
