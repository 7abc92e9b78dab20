//! Protocol slots (docs/architecture.md). Each protocol is one module holding a sans-IO state
//! machine: it is given a frame, a timer expiry or a send opportunity with the current time (and
//! owns its random stream), and answers with what the engine must do — a frame to send, a timer
//! to arm — never touching the event loop. The engine reaches a protocol only through the slot
//! enums below (static dispatch, no `dyn` on the hot path):
//!
//! | slot | where | variants |
//! |---|---|---|
//! | congestion point `Cp` | a switch output queue | QCN (with E-QCN's Algorithm 2 for E-QCN frames), BCN, ECM |
//! | reaction point `Rp` | a flow's rate limiter at its source | QCN, E-QCN, BCN, ECM |
//! | flow control `pause::PauseCfg` + `pause::PauseGen` | every switch port | 802.3x PAUSE, 802.1Qbb PFC |
//! | endpoint / traffic `traffic::TrafficGen` | a flow's source | CBR, Poisson, Bernoulli |
//! | active queue management `Aqm` | an output queue, before its drop-tail check | RED (`red.rs`), step marking (`threshold.rs`) |
//! | router feedback `sirens::LinkMeter` | a router output port | SIRENS (`sirens.rs`) |
//!
//! Adding a protocol = its module, a variant here (and its arms), its scenario table
//! (`scenario/model.rs`) and its build step (`build/protocols.rs`).

pub mod bcn;
pub mod dcqcn;
pub mod ecm;
pub mod emcast;
pub mod eqcn;
pub mod metrics;
pub mod pause;
pub mod qcn;
pub mod red;
pub mod rlm;
pub mod sirens;
pub mod tcp;
pub mod threshold;

use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, NodeId};
use qcn::{Answer, Cnm, CongestionPoint, Probe, ReactionPoint, TimerAction};
use serde_json::{json, Value};

/// The congestion point of one output queue.
pub enum Cp {
    Qcn(QcnCp),
    Bcn(BcnCp),
    Ecm(EcmCp),
}

/// The queue a CP watches, as it is right after a frame was offered to it.
#[derive(Clone, Copy, Debug)]
pub struct QueueView {
    pub bytes: u64,
    pub frames: u64,
    /// Rate of the port's link (BCN's capacity field).
    pub rate_bps: u64,
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

/// Active queue management in front of an output queue's drop-tail check (docs/architecture.md:
/// the queue-discipline slot).
pub enum Aqm {
    Red(red::Red, Rng),
    Threshold(threshold::Threshold),
}

impl Aqm {
    /// A data frame is offered with `q` frames waiting; `idle` = how long the port has been idle.
    #[inline]
    pub fn on_arrival(&mut self, q: u64, idle: Option<Time>, ect: bool) -> red::Verdict {
        match self {
            Aqm::Red(r, rng) => r.on_arrival(q, idle, ect, rng),
            Aqm::Threshold(t) => t.on_arrival(q, ect),
        }
    }
    /// The protocol's fields of the port's statistics (declared in `red::METRICS`).
    pub fn report(&self) -> Value {
        match self {
            Aqm::Red(r, _) => json!({"aqm": "red", "red_avg_packets": r.avg, "red_early_drops": r.early_drops,
                                      "red_forced_drops": r.forced_drops, "red_marks": r.marks}),
            Aqm::Threshold(t) => json!({"aqm": "threshold", "threshold_marks": t.marks, "threshold_drops": t.drops}),
        }
    }
}

/// The congestion control of a multi-rate multicast receiver (`net::endpoint::Endpoint`).
pub enum McastCc {
    Emcast(emcast::Emcast),
    Rlm(rlm::Rlm),
}

impl McastCc {
    pub fn level(&self) -> usize {
        match self {
            McastCc::Emcast(e) => e.level,
            McastCc::Rlm(r) => r.level,
        }
    }
    pub fn name(&self) -> &'static str {
        match self {
            McastCc::Emcast(_) => "emcast",
            McastCc::Rlm(_) => "rlm",
        }
    }
    /// (adds, drops) so far.
    pub fn changes(&self) -> (u64, u64) {
        match self {
            McastCc::Emcast(e) => (e.adds, e.drops),
            McastCc::Rlm(r) => (r.joins, r.drops + r.failed),
        }
    }
}

/// What an RP answers when its limiter has sent a frame (`Rp::on_sent`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sent {
    /// What to do with the RP's timer.
    pub timer: TimerAction,
    /// The limiter's rate (bit/s) while it limits (0 while a BCN STOP holds it), else None.
    pub limit: Option<f64>,
    /// The rate moved (QCN: at the end of a byte-counter cycle, or the limiter went away).
    pub rate_changed: bool,
    /// A probe is due (`Rp::take_probe` makes it).
    pub probe_due: bool,
}

impl Sent {
    #[inline(always)]
    fn qcn(r: &ReactionPoint, timer: TimerAction, before: f64) -> Sent {
        Sent { timer, limit: r.active.then_some(r.cr), rate_changed: r.cr != before, probe_due: r.prober.is_due() }
    }
}

/// The reaction point of one flow: the rate controller of its source's rate limiter.
pub enum Rp {
    Qcn(ReactionPoint),
    Eqcn(ReactionPoint, eqcn::EqcnRp),
    Bcn(bcn::ReactionPoint),
    Ecm(ecm::ReactionPoint),
}

impl Rp {
    /// The limiter's current rate (bit/s) when it limits (0 while a BCN STOP holds it), else None.
    #[inline]
    pub fn limit(&self) -> Option<f64> {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r.active.then_some(r.cr),
            Rp::Bcn(b) => b.limit(),
            Rp::Ecm(e) => e.limit(),
        }
    }
    /// The current rate (QCN's CR; line rate when no limiter is in place).
    #[inline]
    pub fn rate(&self) -> f64 {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r.cr,
            Rp::Bcn(b) => b.rate,
            Rp::Ecm(e) => e.rate,
        }
    }
    /// The target rate (QCN's TR; BCN has none and reports its rate).
    pub fn target(&self) -> f64 {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r.tr,
            Rp::Bcn(b) => b.rate,
            Rp::Ecm(e) => e.rate,
        }
    }
    /// Do the flow's data frames carry an 802.1Qau CN-TAG (pcap export)?
    pub fn cn_tagged(&self) -> bool {
        matches!(self, Rp::Qcn(_) | Rp::Eqcn(..))
    }
    /// E-QCN's representative CP (the CPID behind F̂b), for the event trace; None for others.
    pub fn representative(&self) -> Option<(u8, u32)> {
        match self {
            Rp::Eqcn(_, e) => Some((e.fb_hat, e.cpid)),
            _ => None,
        }
    }
    pub fn feedback_received(&self) -> u64 {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r.cnms_received,
            Rp::Bcn(b) => b.messages,
            Rp::Ecm(e) => e.messages,
        }
    }

    /// Tag a data frame about to leave at `now` (E-QCN carries F̂b, BCN the rate-regulator tag).
    #[inline]
    pub fn stamp(&mut self, f: &mut Frame, now: Time) {
        match self {
            Rp::Qcn(_) => {}
            Rp::Eqcn(_, e) => e.stamp(f, now),
            Rp::Bcn(b) => b.stamp(f, now),
            Rp::Ecm(e) => e.stamp(f, now),
        }
    }

    /// The limiter sent a frame of `len` bytes; `queue_empty` says whether frames still wait.
    /// Everything the sender needs to know next comes back from this one dispatch (it runs for
    /// every frame a limited source sends).
    #[inline]
    pub fn on_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> Sent {
        match self {
            Rp::Qcn(r) => {
                let before = r.cr;
                let timer = r.on_frame_sent(len, queue_empty, rng);
                Sent::qcn(r, timer, before)
            }
            Rp::Eqcn(r, e) => {
                let before = r.cr;
                let timer = Self::released(r.on_frame_sent(len, queue_empty, rng), e);
                Sent::qcn(r, timer, before)
            }
            Rp::Bcn(b) => {
                let before = b.rate;
                let timer = b.on_sent(queue_empty);
                Sent { timer, limit: b.limit(), rate_changed: b.rate != before, probe_due: false }
            }
            Rp::Ecm(e) => {
                let before = e.rate;
                let timer = e.on_sent(queue_empty);
                Sent { timer, limit: e.limit(), rate_changed: e.rate != before, probe_due: false }
            }
        }
    }

    /// E-QCN: tell Algorithm 1's state when QCN released the limiter (a `Cancel`).
    fn released(act: TimerAction, e: &mut eqcn::EqcnRp) -> TimerAction {
        if act == TimerAction::Cancel {
            e.on_release();
        }
        act
    }

    /// A feedback frame for this flow arrived at its source.
    pub fn on_feedback(&mut self, f: &Frame, now: Time, rng: &mut Rng) -> TimerAction {
        match self {
            Rp::Bcn(b) => return bcn::Message::read(f).map_or(TimerAction::None, |m| b.on_message(&m, now, rng)),
            Rp::Ecm(e) => return ecm::Message::read(f).map_or(TimerAction::None, |m| e.on_message(&m, now)),
            _ => {}
        }
        if let Some(a) = Answer::read(f) {
            return match self {
                Rp::Qcn(r) => r.on_answer(a, now),
                // QCN-HP: a negative answer goes through F̂b (Mliki et al. 2016b Algorithm 1) like a CNM.
                Rp::Eqcn(r, e) if a.fb < 0 => {
                    r.prober.on_answer(a, r.active);
                    let fb = e.on_cnm((-a.fb).min(63) as u8, a.cpid, now);
                    r.on_cnm(fb, now)
                }
                Rp::Eqcn(r, _) => r.on_answer(a, now),
                _ => TimerAction::None,
            };
        }
        let Some(cnm) = Cnm::read(f) else { return TimerAction::None };
        match self {
            Rp::Qcn(r) => {
                r.prober.on_cnm(cnm.cpid);
                r.on_cnm(cnm.qntz_fb, now)
            }
            Rp::Eqcn(r, e) => {
                r.prober.on_cnm(cnm.cpid);
                let fb = e.on_cnm(cnm.qntz_fb, cnm.cpid, now);
                r.on_cnm(fb, now)
            }
            Rp::Bcn(_) | Rp::Ecm(_) => TimerAction::None,
        }
    }

    /// The probe frame the RP wants to send now from `src` to `dst` (QCN with probes, after a
    /// rate-increase cycle).
    #[inline]
    pub fn take_probe(&mut self, src: NodeId, dst: Dest, flow: u32, prio: u8, now: Time) -> Option<Frame> {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r.prober.take().map(|p| {
                let mut f = p.frame(src, dst, flow, r.p.probe_size, now);
                f.prio = prio;
                f
            }),
            _ => None,
        }
    }

    pub fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        match self {
            Rp::Qcn(r) => r.on_timer(now, queue_empty, rng),
            Rp::Eqcn(r, e) => Self::released(r.on_timer(now, queue_empty, rng), e),
            Rp::Bcn(b) => b.on_timer(now),
            Rp::Ecm(e) => e.on_timer(now, queue_empty),
        }
    }

    /// The protocol's own fields of the run's statistics (declared in `qcn::METRICS` and
    /// `bcn::METRICS`).
    pub fn report(&self) -> Value {
        let to_s = |t: Option<Time>| t.map(crate::core::time::to_secs);
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => {
                let (proto, fb_hat) = match self {
                    Rp::Eqcn(_, e) => ("eqcn", Some(e.fb_hat)),
                    _ => ("qcn", None),
                };
                json!({
                    "protocol": proto, "fb_hat": fb_hat, "cr_final_bps": r.cr, "tr_final_bps": r.tr,
                    "first_cnm_s": to_s(r.first_cnm),
                    "cnms_received": r.cnms_received, "limiters_created": r.limiters_created,
                    "probes_sent": r.prober.sent, "probe_positive": r.prober.positive,
                    "probe_negative": r.prober.negative, "false_positives": r.prober.false_positives,
                    "cpid_changes": r.prober.cpid_changes,
                })
            }
            Rp::Bcn(b) => json!({
                "protocol": "bcn", "rate_final_bps": b.rate, "bcn_messages": b.messages, "bcn_stops": b.stops,
                "regulators_created": b.regulators_created, "first_message_s": to_s(b.first_message),
                "cnms_received": b.messages,
            }),
            Rp::Ecm(e) => json!({
                "protocol": "ecm", "rate_final_bps": e.rate, "cnms_received": e.messages,
                "limiters_created": e.limiters_created, "first_message_s": to_s(e.first_message),
                "ecm_positive": e.positive, "ecm_negative": e.negative, "ecm_rtt_dropped": e.rtt_dropped,
                "false_positives": e.false_positives, "rtt_estimate_s": to_s(e.rtt_estimate),
                "cpid_changes": e.cpid_changes,
            }),
        }
    }
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

    /// `Rp::on_sent` answers the sender's per-frame questions (timer, limit, rate moved, probe
    /// due) in one call; each answer checked against QCN's byte counter by hand.
    #[test]
    fn on_sent_answers_per_frame() {
        const G: f64 = 1e9;
        let p = qcn::RpParams { jitter: false, probe: qcn::ProbeMode::Cp, ..qcn::RpParams::standard(G) };
        let mut rp = Rp::Qcn(ReactionPoint::new(p));
        let mut rng = Rng::stream(0, "t", "rp");
        let idle = Sent { timer: TimerAction::None, limit: None, rate_changed: false, probe_due: false };
        assert_eq!(rp.on_sent(1500, false, &mut rng), idle, "no limiter before a CNM");
        let Rp::Qcn(r) = &mut rp else { unreachable!() };
        r.prober.on_cnm(5);
        r.on_cnm(63, 0); // CR = G · 65/128, byte counter reset to BC_LIMIT = 150 000 B
        let cut = G * 65.0 / 128.0;
        // 100 frames of 1500 B bring the counter to 0: no cycle ends, the rate holds.
        for _ in 0..100 {
            let s = rp.on_sent(1500, false, &mut rng);
            assert_eq!(s, Sent { limit: Some(cut), ..idle });
        }
        // The 101st ends the first cycle: fast recovery, CR = (CR + TR) / 2, and a probe is due
        // to CP 5 (`ProbeMode::Cp`).
        let s = rp.on_sent(1500, false, &mut rng);
        assert_eq!(s, Sent { timer: TimerAction::None, limit: Some((cut + G) / 2.0), rate_changed: true, probe_due: true });
        assert!(rp.take_probe(1, Dest::Node(2), 0, 0, 0).is_some());
        assert!(!rp.on_sent(1500, false, &mut rng).probe_due, "the probe was taken");
    }
}
