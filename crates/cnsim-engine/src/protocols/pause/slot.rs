//! PAUSE/PFC in the flow-control slot (`slots::flow_control`): a port's generator with the
//! fabric's settings and its output queue's hysteresis (the egress trigger's).

use super::{egress_crossing, pause_time, PauseCfg, PauseGen, PauseMsg, Trigger};
use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::slots::flow_control::{FcLoad, FcMachine, FcMsg, FcPort};
use serde_json::{json, Value};

/// One port's PAUSE/PFC generator.
#[derive(Clone, Debug)]
pub struct PauseFc {
    pub cfg: PauseCfg,
    pub gen: PauseGen,
    /// Egress trigger: this port's output queue is congested, per class.
    pub egress_high: [bool; 8],
}

impl PauseFc {
    pub fn new(cfg: PauseCfg) -> Self {
        PauseFc { cfg, gen: PauseGen::default(), egress_high: [false; 8] }
    }
}

fn msg(m: PauseMsg) -> FcMsg {
    FcMsg { mask: m.mask, quanta: m.quanta }
}

impl FcMachine for PauseFc {
    fn name(&self) -> &'static str {
        if self.cfg.pfc { "pfc" } else { "pause" }
    }
    #[inline]
    fn load(&self) -> FcLoad {
        match self.cfg.trigger {
            Trigger::Ingress => FcLoad::Ingress,
            Trigger::Egress => FcLoad::Egress,
        }
    }
    #[inline]
    fn class(&self, prio: u8) -> u8 {
        PauseGen::class(&self.cfg, prio)
    }
    #[inline]
    fn per_class(&self) -> bool {
        self.cfg.per_class()
    }
    #[inline]
    fn on_ingress(&mut self, class: u8, add: bool, bytes: u64) -> Option<FcMsg> {
        self.gen.on_ingress(&self.cfg, class, add, bytes).map(msg)
    }
    #[inline]
    fn on_queue(&mut self, class: u8, bytes: u64) -> Option<bool> {
        egress_crossing(&self.cfg, &mut self.egress_high[class as usize], bytes)
    }
    fn on_congested(&mut self, class: u8, more: bool) -> Option<FcMsg> {
        self.gen.on_congested(&self.cfg, class, more).map(msg)
    }
    fn on_refresh(&mut self) -> Option<FcMsg> {
        self.gen.on_refresh(&self.cfg).map(msg)
    }
    fn refresh_period(&self, rate_bps: u64) -> Time {
        PauseGen::refresh_period(&self.cfg, rate_bps)
    }
    fn holding_off(&self) -> bool {
        self.gen.xoff != 0
    }
    fn frame(&self, m: FcMsg, node: NodeId, now: Time) -> Frame {
        PauseMsg { mask: m.mask, quanta: m.quanta }.frame(&self.cfg, node, now)
    }
    fn read(&self, f: &Frame) -> Option<FcMsg> {
        PauseMsg::read(f).map(msg)
    }
    fn hold_time(&self, m: FcMsg, rate_bps: u64) -> Time {
        pause_time(m.quanta, rate_bps)
    }
    fn counts(&self) -> (u64, u64) {
        (self.gen.sent_xoff, self.gen.sent_xon)
    }
    fn frames_name(&self) -> &'static str {
        "pause"
    }
    /// Declared in `METRICS` (`ports`).
    fn port_report(&self, p: &FcPort) -> Value {
        let (xoff, xon) = self.counts();
        json!({"pause_sent": p.sent, "xoff_sent": xoff, "xon_sent": xon,
               "pause_received": p.received, "paused_s": p.held_s, "paused_s_window": p.held_s_window})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(pfc: bool, trigger: Trigger) -> PauseCfg {
        PauseCfg { pfc, trigger, xoff: 30_000, xon: 15_000, quanta: 0xFFFF, refresh: None, classes: 0xFF, frame_size: 64 }
    }

    #[test]
    fn a_port_keeps_each_class_s_queue_hysteresis() {
        let mut g = PauseFc::new(cfg(true, Trigger::Egress));
        assert_eq!(g.load(), FcLoad::Egress);
        assert_eq!(g.on_queue(3, 31_000), Some(true));
        assert_eq!(g.on_queue(5, 31_000), Some(true)); // another class: its own state
        assert_eq!(g.on_queue(3, 20_000), None);
        assert_eq!(g.on_queue(3, 15_000), Some(false));
        assert_eq!(g.on_queue(5, 20_000), None);
    }

    #[test]
    fn messages_round_trip_through_frames_and_hold_by_quanta() {
        let g = PauseFc::new(cfg(false, Trigger::Ingress));
        assert_eq!((g.name(), g.load(), g.class(5), g.per_class()), ("pause", FcLoad::Ingress, 0, false));
        let m = FcMsg { mask: 0xFF, quanta: 2 };
        assert_eq!(g.read(&g.frame(m, 4, 7)), Some(m));
        assert_eq!(g.hold_time(m, 10_000_000_000), 2 * 51_200);
        assert_eq!(PauseFc::new(cfg(true, Trigger::Ingress)).name(), "pfc");
    }

    #[test]
    fn refresh_runs_while_a_class_is_held_off() {
        let mut g = PauseFc::new(cfg(true, Trigger::Ingress));
        assert!(!g.holding_off());
        assert_eq!(g.on_ingress(2, true, 40_000), Some(FcMsg { mask: 1 << 2, quanta: 0xFFFF }));
        assert!(g.holding_off());
        assert_eq!(g.on_refresh(), Some(FcMsg { mask: 1 << 2, quanta: 0xFFFF }));
        assert_eq!(g.on_ingress(2, false, 40_000), Some(FcMsg { mask: 1 << 2, quanta: 0 }));
        assert!(!g.holding_off());
        assert_eq!(g.counts(), (2, 1));
        let p = FcPort { sent: 3, received: 4, held_s: [0.5; 8], held_s_window: [0.25; 8] };
        let r = g.port_report(&p);
        assert_eq!((r["pause_sent"].as_u64(), r["xoff_sent"].as_u64(), r["xon_sent"].as_u64()), (Some(3), Some(2), Some(1)));
        assert_eq!((r["pause_received"].as_u64(), r["paused_s"][7].as_f64(), r["paused_s_window"][0].as_f64()), (Some(4), Some(0.5), Some(0.25)));
    }
}
