//! The reaction-point slot: the rate controller of a flow's rate limiter at its source, told of
//! each frame sent and each feedback frame received, answering with its rate and timer.

use super::{Sent, TimerAction};
use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, NodeId};
use crate::protocols::qcn::{Answer, Cnm, ReactionPoint};
use crate::protocols::{bcn, ecm, eqcn};
use serde_json::{json, Value};

/// `Sent` after a QCN RP's send.
#[inline(always)]
fn qcn_sent(r: &ReactionPoint, timer: TimerAction, before: f64) -> Sent {
    Sent { timer, limit: r.active.then_some(r.cr), rate_changed: r.cr != before, probe_due: r.prober.is_due() }
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
                qcn_sent(r, timer, before)
            }
            Rp::Eqcn(r, e) => {
                let before = r.cr;
                let timer = Self::released(r.on_frame_sent(len, queue_empty, rng), e);
                qcn_sent(r, timer, before)
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
    use crate::net::frame::Dest;
    use crate::protocols::qcn;

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
