//! The congestion-point slot: the protocol watching a switch output queue, given each data frame
//! offered to it (and probes on their way), answering with a feedback frame to send.

use super::QueueView;
use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::qcn::{self, Cnm, CongestionPoint, Probe};
use crate::protocols::{bcn, ecm, eqcn};
use serde_json::{json, Value};

/// The congestion point of one output queue.
pub enum Cp {
    Qcn(QcnCp),
    Bcn(BcnCp),
    Ecm(EcmCp),
}

/// A BCN congestion point with its random stream.
pub struct BcnCp {
    pub cp: bcn::CongestionPoint,
    pub rng: Rng,
}

/// An ECM congestion point with its random stream (Roeck 2007).
pub struct EcmCp {
    pub cp: ecm::CongestionPoint,
    pub rng: Rng,
}

/// An 802.1Qau CP with its random stream and CNM settings.
pub struct QcnCp {
    pub cp: CongestionPoint,
    pub rng: Rng,
    pub cnm_size: u32,
    /// Also evaluate data frames the full queue drops.
    pub sample_dropped: bool,
    /// E-QCN frames: on equal |Fb| only the CP whose CPID the RP selected sends (Mliki et al. 2016b §4).
    pub eqcn_tie_break: bool,
    /// The CP's counters at window start.
    pub c_w0: qcn::cp::CpCounters,
}

impl Cp {
    /// A data frame `f` was offered to the CP's queue (`accepted` or dropped); `q` is the queue
    /// right after the offer. Returns the feedback frame to send, if any.
    #[inline]
    pub fn on_data(&mut self, f: &Frame, accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        match self {
            Cp::Bcn(c) => {
                let m = c.cp.on_arrival(f, q.bytes, cpid, q.rate_bps, &mut c.rng)?;
                Some(m.frame(f, node, c.cp.p.msg_size, now))
            }
            Cp::Ecm(c) => {
                let m = c.cp.on_arrival(f, q.bytes, cpid, &mut c.rng)?;
                Some(m.frame(f, node, c.cp.p.msg_size, now))
            }
            Cp::Qcn(c) => {
                if !accepted && !c.sample_dropped {
                    return None;
                }
                // E-QCN frames: only the representative CP notifies (Mliki et al. 2016b Algorithm 2).
                let s = c.cp.on_arrival(f.size, q.bytes, &mut c.rng)?;
                let rep = match eqcn::read_tag(f) {
                    Some((fb_hat, sel)) => eqcn::is_representative(s.qntz_fb, cpid, fb_hat, sel, c.eqcn_tie_break),
                    None => true,
                };
                if s.qntz_fb == 0 || !rep {
                    return None;
                }
                c.cp.feedback_generated(q.bytes);
                Some(Cnm::from_sample(&s, cpid).frame(f, node, c.cnm_size, now))
            }
        }
    }

    /// A probe frame `f` reaches this CP's queue `q` (Roeck 2007; `qcn::probe`): it may stamp it
    /// (in place) or answer it; returns the answer frame, and the probe is then consumed.
    pub fn on_probe(&mut self, f: &mut Frame, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        let Cp::Qcn(c) = self else { return None };
        let mut p = Probe::read(f)?;
        let ans = p.at_cp(cpid, c.cp.probe_fb(q.bytes));
        p.write(f);
        ans.map(|a| a.frame(f, node, c.cnm_size, now))
    }

    /// The unquantized feedback of a feedback frame this CP sent (QCN's Fb in bytes, from the CNM's
    /// Qoff and Qdelta; BCN's e in frames), for the event trace.
    pub fn feedback_value(&self, fb: &Frame) -> f64 {
        match self {
            Cp::Qcn(c) => Cnm::read(fb).map_or(f64::NAN, |m| -(m.qoff as f64 + c.cp.p.w * m.qdelta as f64)),
            Cp::Bcn(_) => bcn::Message::read(fb).map_or(f64::NAN, |m| m.e as f64),
            Cp::Ecm(_) => ecm::Message::read(fb).map_or(f64::NAN, |m| m.fb as f64),
        }
    }

    /// The measurement window starts: keep the counters' values.
    pub fn start_window(&mut self) {
        match self {
            Cp::Qcn(c) => c.c_w0 = c.cp.c,
            Cp::Bcn(c) => c.cp.start_window(),
            Cp::Ecm(_) => {}
        }
    }

    /// The protocol's fields of the port's statistics (declared in `qcn::METRICS`, `bcn::METRICS`).
    pub fn report(&self, in_window: bool) -> Value {
        match self {
            Cp::Qcn(c) => {
                let w = if in_window { c.c_w0 } else { c.cp.c };
                json!({"cp_samples": c.cp.c.samples, "cp_samples_window": c.cp.c.samples - w.samples,
                       "cp_fb_negative": c.cp.c.fb_negative, "cp_fb_negative_window": c.cp.c.fb_negative - w.fb_negative})
            }
            Cp::Bcn(c) => match c.cp.e_window.summary().filter(|_| in_window) {
                Some((mean, abs_mean, min, max)) => {
                    json!({"bcn_e_mean": mean, "bcn_e_abs_mean": abs_mean, "bcn_e_min": min, "bcn_e_max": max})
                }
                None => json!({}),
            },
            Cp::Ecm(_) => json!({}),
        }
    }

    /// Qeq in bytes (frames of `frame` bytes for protocols that count frames), for reports.
    pub fn qeq(&self, frame: u64) -> u64 {
        match self {
            Cp::Qcn(c) => c.cp.p.qeq,
            Cp::Bcn(c) => (c.cp.p.qeq * frame as f64) as u64,
            Cp::Ecm(c) => c.cp.p.qeq,
        }
    }
}

/// A probe reached the destination host `node`: the answer to send back, if any (path probes).
pub fn probe_at_destination(f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
    let ans = Probe::read(f)?.at_destination()?;
    Some(ans.frame(f, node, f.size, now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};
    use crate::protocols::qcn::{CpParams, Sampling};

    fn qcn_cp() -> Cp {
        let p = CpParams { qeq: 25 * 1500, w: 2.0, sampling: Sampling::EveryFrame, sample_base: 150_000, jitter: false, oversampling: true, qold_on_feedback: true, cnm_on_any_negative_fb: false };
        Cp::Qcn(QcnCp { cp: CongestionPoint::new(p), rng: Rng::stream(0, "t", "cp"), cnm_size: 64, sample_dropped: true, eqcn_tie_break: true, c_w0: Default::default() })
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

}
