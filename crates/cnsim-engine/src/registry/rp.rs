//! The reaction-point slot's enum, built from the registered occupants (`protocols.rs`), each dispatched to its
//! `slots::rp::RpMachine` with a `match`.

use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, NodeId};
use crate::protocols::*;
use crate::slots::rp::RpMachine;
use crate::slots::{Sent, TimerAction};
use super::protocols::occupants;
use super::slot::slot;
use serde_json::Value;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! rp {
    ($($variant:ident($ty:ty),)+) => {
        slot! {
            /// The reaction point of one flow: one variant per protocol.
            pub enum Rp: RpMachine { $($variant($ty),)+ }
            #[inline] fn limit(&self) -> Option<f64>;
            #[inline] fn rate(&self) -> f64;
            fn target(&self) -> f64;
            fn cn_tagged(&self) -> bool;
            fn representative(&self) -> Option<(u8, u32)>;
            fn feedback_received(&self) -> u64;
            fn cut_by_marks_only(&self) -> Option<&'static str>;
            fn cut_by_cp_only(&self) -> Option<&'static str>;
            #[inline] fn stamp(&mut self, f: &mut Frame, now: Time);
            #[inline] fn on_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> Sent;
            fn on_feedback(&mut self, f: &Frame, now: Time, rng: &mut Rng) -> TimerAction;
            #[inline] fn take_path_control(&mut self, src: NodeId, dst: Dest, flow: u32, prio: u8, now: Time) -> Option<Frame>;
            fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction;
            fn report(&self) -> Value;
        }
    };
}
occupants!(Rp => rp);

/// A path control frame reached its destination host `node`: the answer to send back, if the
/// protocol that wrote it (`Frame::proto`) registers one (`Protocol::at_destination`).
pub fn path_control_at_destination(f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
    let at = super::PROTOCOLS.iter().flat_map(|p| p.at_destination).find(|d| d.owner == f.proto)?;
    (at.answer)(f, node, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::Dest;
    use crate::slots::Proto;
    use crate::protocols::qcn::ReactionPoint;

    /// `Rp::on_sent` answers the sender's per-frame questions (timer, limit, rate moved, probe
    /// due) in one call; each answer checked against QCN's byte counter by hand.
    #[test]
    fn on_sent_answers_per_frame() {
        const G: f64 = 1e9;
        let p = qcn::RpParams { jitter: false, probe: qcn::ProbeMode::Cp, ..qcn::RpParams::standard(G) };
        let mut rp = Rp::Qcn(ReactionPoint::new(p));
        let mut rng = Rng::stream(0, "t", "rp");
        let idle = Sent { timer: TimerAction::None, limit: None, rate_changed: false, path_control_due: false };
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
        assert_eq!(s, Sent { timer: TimerAction::None, limit: Some((cut + G) / 2.0), rate_changed: true, path_control_due: true });
        assert!(rp.take_path_control(1, Dest::Node(2), 0, 0, 0).is_some());
        assert!(!rp.on_sent(1500, false, &mut rng).path_control_due, "the probe was taken");
    }

    /// A path control frame at its destination is answered by the protocol that registered its
    /// owner (QCN's path probe, with its stamp), and by nothing when no protocol registers it.
    #[test]
    fn a_path_control_frame_is_answered_by_its_registration() {
        let probe = qcn::Probe { mode: qcn::ProbeMode::Path, target: 0, worst: Some((-9, 5)) };
        let f = probe.frame(1, Dest::Node(2), 7, 64, 0);
        let ans = path_control_at_destination(&f, 2, 10).expect("a path probe is answered");
        assert_eq!((ans.proto, ans.src, ans.dst, ans.flow, ans.tag[0] as i32, ans.tag[1]), (Proto::QcnProbe, 2, Dest::Node(1), 7, -9, 5));
        let mut other = f;
        other.proto = Proto(15);
        assert!(path_control_at_destination(&other, 2, 10).is_none());
    }
}
