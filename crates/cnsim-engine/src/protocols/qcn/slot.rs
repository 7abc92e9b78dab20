//! QCN in the engine's slots: its CP (`slots::cp`: sampling, the check of a data frame's tag that
//! elects the CP to answer it, probes on their way) and its RP (`slots::rp`: which frames it reads, its probes), with their statistics.

use super::{cp::CpCounters, Answer, Cnm, CongestionPoint, Probe, ReactionPoint};
use crate::core::rng::Rng;
use crate::core::time::{to_secs, Time};
use crate::net::frame::{Dest, Frame, NodeId};
use crate::slots::cp::CpMachine;
use crate::slots::register::Protocol;
use crate::slots::rp::RpMachine;
use crate::slots::{QueueView, Sent, TimerAction};
use serde_json::{json, Value};

/// An 802.1Qau CP with its random stream and CNM settings.
pub struct QcnCp {
    pub cp: CongestionPoint,
    pub rng: Rng,
    pub cnm_size: u32,
    /// Also evaluate data frames the full queue drops.
    pub sample_dropped: bool,
    /// Frames whose tag elects the CP to answer them (`Protocol::elects`): on equal feedback only
    /// the CP the frame names answers.
    pub tie_break: bool,
    /// Every protocol's registration, for the tags that elect a CP.
    pub protocols: &'static [&'static Protocol],
    /// The CP's counters at window start.
    pub c_w0: CpCounters,
}

impl CpMachine for QcnCp {
    #[inline]
    fn on_data(&mut self, f: &Frame, accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        if !accepted && !self.sample_dropped {
            return None;
        }
        // A frame whose tag elects the CP to answer it (E-QCN's, Mliki et al. 2016b Algorithm 2):
        // only the elected CP notifies.
        let s = self.cp.on_arrival(f.size, q.bytes, &mut self.rng)?;
        if s.qntz_fb == 0 || !self.elected(f, s.qntz_fb, cpid) {
            return None;
        }
        self.cp.feedback_generated(q.bytes);
        Some(Cnm::from_sample(&s, cpid).frame(f, node, self.cnm_size, now))
    }
    /// Roeck 2007's probes (`probe.rs`): stamped or answered here.
    fn on_path_control(&mut self, f: &mut Frame, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        let mut p = Probe::read(f)?;
        let ans = p.at_cp(cpid, self.cp.probe_fb(q.bytes));
        p.write(f);
        ans.map(|a| a.frame(f, node, self.cnm_size, now))
    }
    /// Fb in bytes, from the CNM's Qoff and Qdelta.
    fn feedback_value(&self, fb: &Frame) -> f64 {
        Cnm::read(fb).map_or(f64::NAN, |m| -(m.qoff as f64 + self.cp.p.w * m.qdelta as f64))
    }
    fn start_window(&mut self) {
        self.c_w0 = self.cp.c;
    }
    fn report(&self, in_window: bool) -> Value {
        let (c, w) = (self.cp.c, if in_window { self.c_w0 } else { self.cp.c });
        json!({"cp_samples": c.samples, "cp_samples_window": c.samples - w.samples,
               "cp_fb_negative": c.fb_negative, "cp_fb_negative_window": c.fb_negative - w.fb_negative})
    }
    fn qeq(&self, _frame: u64) -> u64 {
        self.cp.p.qeq
    }
}

impl QcnCp {
    /// Whether this CP answers `f`, as the tag it carries elects (every CP, for an untagged frame).
    fn elected(&self, f: &Frame, qntz_fb: u8, cpid: u32) -> bool {
        let elect = self.protocols.iter().flat_map(|p| p.elects).find(|e| e.owner == f.proto);
        elect.is_none_or(|e| (e.answers)(f, qntz_fb, cpid, self.tie_break))
    }
}

/// A probe reached the destination host `node`: the answer to send back, if any (path probes).
pub fn probe_at_destination(f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
    let ans = Probe::read(f)?.at_destination()?;
    Some(ans.frame(f, node, f.size, now))
}

impl ReactionPoint {
    /// `Sent` after a send that moved the rate from `before`, with `timer` to carry out.
    #[inline(always)]
    pub fn sent(&self, timer: TimerAction, before: f64) -> Sent {
        Sent { timer, limit: self.active.then_some(self.cr), rate_changed: self.cr != before, path_control_due: self.prober.is_due() }
    }

    /// The statistics of a QCN RP under protocol name `proto` (E-QCN adds its F̂b).
    pub fn report_as(&self, proto: &str, fb_hat: Option<u8>) -> Value {
        json!({
            "protocol": proto, "fb_hat": fb_hat, "cr_final_bps": self.cr, "tr_final_bps": self.tr,
            "first_cnm_s": self.first_cnm.map(to_secs),
            "feedback_received": self.cnms_received, "limiters_created": self.limiters_created,
            "probes_sent": self.prober.sent, "probe_positive": self.prober.positive,
            "probe_negative": self.prober.negative, "false_positives": self.prober.false_positives,
            "cpid_changes": self.prober.cpid_changes,
        })
    }
}

impl RpMachine for ReactionPoint {
    /// Only a CP's CNMs cut QCN's rate (IEEE 802.1Qau §32.9; probes only ask a CP or the destination): `rp = qcn`.
    fn cut_by_cp_only(&self) -> Option<&'static str> {
        Some("qcn")
    }
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
    fn take_path_control(&mut self, src: NodeId, dst: Dest, flow: u32, prio: u8, now: Time) -> Option<Frame> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::FrameKind;
    use crate::protocols::eqcn;
    use crate::protocols::qcn::{CpParams, Sampling};

    fn qcn_cp() -> QcnCp {
        let p = CpParams { qeq: 25 * 1500, w: 2.0, sampling: Sampling::EveryFrame, sample_base: 150_000, jitter: false, oversampling: true, qold_on_feedback: true, cnm_on_any_negative_fb: false };
        QcnCp { cp: CongestionPoint::new(p), rng: Rng::stream(0, "t", "cp"), cnm_size: 64, sample_dropped: true, tie_break: true, protocols: &[&eqcn::PROTOCOL], c_w0: Default::default() }
    }
    fn view(bytes: u64) -> QueueView {
        QueueView { bytes, frames: bytes / 1500, rate_bps: 1_000_000_000 }
    }

    /// A CNM that E-QCN's representative check suppresses is never generated, so
    /// Qold ("the queue size when the last feedback message was generated") must not move.
    #[test]
    fn suppressed_cnm_leaves_qold() {
        let mut cp = qcn_cp();
        let mut tagged = Frame::new(FrameKind::Data, 1500, 1, Dest::Group(0), 0, 0);
        let mut rp = eqcn::EqcnRp::new(eqcn::Decrease::Saved);
        rp.on_cnm(62, 9, 0);
        rp.stamp(&mut tagged, 0); // F̂b 62 from CP 9
        // q = 30 frames: QntzFb 32 (see cp.rs), below the frame's F̂b 62 → not representative.
        assert!(cp.on_data(&tagged, true, view(45_000), 1, 0, 0).is_none());
        // An untagged frame at the same queue: Qold is still 0, so Qdelta = 45 000 and QntzFb 32
        // (had Qold moved to 45 000, Qdelta would be 0 and QntzFb 2).
        let plain = Frame::new(FrameKind::Data, 1500, 1, Dest::Group(0), 0, 0);
        let cnm = Cnm::read(&cp.on_data(&plain, true, view(45_000), 1, 0, 0).unwrap()).unwrap();
        assert_eq!(cnm.qntz_fb, 32);
        // That CNM was generated: now Qold = 45 000.
        let cnm = Cnm::read(&cp.on_data(&plain, true, view(45_000), 1, 0, 0).unwrap()).unwrap();
        assert_eq!(cnm.qntz_fb, 2);
    }

    /// The election is the tag's owner's registration: a CP given no registration answers the
    /// tagged frame the registered one suppresses.
    #[test]
    fn the_tag_elects_through_its_registration() {
        let mut tagged = Frame::new(FrameKind::Data, 1500, 1, Dest::Group(0), 0, 0);
        let mut rp = eqcn::EqcnRp::new(eqcn::Decrease::Saved);
        rp.on_cnm(62, 9, 0);
        rp.stamp(&mut tagged, 0);
        assert!(qcn_cp().on_data(&tagged, true, view(45_000), 1, 0, 0).is_none());
        let mut bare = QcnCp { protocols: &[], ..qcn_cp() };
        assert!(bare.on_data(&tagged, true, view(45_000), 1, 0, 0).is_some());
    }

}
