//! PAUSE/PFC in the flow-control slot (`slots::flow_control`): a port's generator with the
//! fabric's settings and its output queue's hysteresis (the egress trigger's).

use super::{egress_crossing, pause_time, PauseCfg, PauseGen, PauseMsg, Trigger};
use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::slots::flow_control::{FcLoad, FcMachine, FcMsg};

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
}
