//! QCN's reaction point in the engine's reaction-point slot (`slots::rp`): which frames it reads
//! (CNMs, probe answers), its probes, and its statistics.

use super::{Answer, Cnm, ReactionPoint};
use crate::core::rng::Rng;
use crate::core::time::{to_secs, Time};
use crate::net::frame::{Dest, Frame, NodeId};
use crate::slots::rp::RpMachine;
use crate::slots::{Sent, TimerAction};
use serde_json::{json, Value};

impl ReactionPoint {
    /// `Sent` after a send that moved the rate from `before`, with `timer` to carry out.
    #[inline(always)]
    pub fn sent(&self, timer: TimerAction, before: f64) -> Sent {
        Sent { timer, limit: self.active.then_some(self.cr), rate_changed: self.cr != before, probe_due: self.prober.is_due() }
    }

    /// The statistics of a QCN RP under protocol name `proto` (E-QCN adds its F̂b).
    pub fn report_as(&self, proto: &str, fb_hat: Option<u8>) -> Value {
        json!({
            "protocol": proto, "fb_hat": fb_hat, "cr_final_bps": self.cr, "tr_final_bps": self.tr,
            "first_cnm_s": self.first_cnm.map(to_secs),
            "cnms_received": self.cnms_received, "limiters_created": self.limiters_created,
            "probes_sent": self.prober.sent, "probe_positive": self.prober.positive,
            "probe_negative": self.prober.negative, "false_positives": self.prober.false_positives,
            "cpid_changes": self.prober.cpid_changes,
        })
    }
}

impl RpMachine for ReactionPoint {
    #[inline]
    fn limit(&self) -> Option<f64> {
        self.active.then_some(self.cr)
    }
    #[inline]
    fn rate(&self) -> f64 {
        self.cr
    }
    fn target(&self) -> f64 {
        self.tr
    }
    fn cn_tagged(&self) -> bool {
        true
    }
    fn feedback_received(&self) -> u64 {
        self.cnms_received
    }
    #[inline]
    fn on_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> Sent {
        let before = self.cr;
        let timer = self.on_frame_sent(len, queue_empty, rng);
        self.sent(timer, before)
    }
    fn on_feedback(&mut self, f: &Frame, now: Time, _rng: &mut Rng) -> TimerAction {
        if let Some(a) = Answer::read(f) {
            return self.on_answer(a, now);
        }
        let Some(cnm) = Cnm::read(f) else { return TimerAction::None };
        self.prober.on_cnm(cnm.cpid);
        self.on_cnm(cnm.qntz_fb, now)
    }
    /// The probe due after a rate-increase cycle (Roeck 2007's probing variants).
    #[inline]
    fn take_probe(&mut self, src: NodeId, dst: Dest, flow: u32, prio: u8, now: Time) -> Option<Frame> {
        self.prober.take().map(|p| {
            let mut f = p.frame(src, dst, flow, self.p.probe_size, now);
            f.prio = prio;
            f
        })
    }
    fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        ReactionPoint::on_timer(self, now, queue_empty, rng)
    }
    fn report(&self) -> Value {
        self.report_as("qcn", None)
    }
}
