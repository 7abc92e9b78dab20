//! The event loop's side of link-level flow control (`slots::flow_control`): load accounting
//! at switches, flow-control frames out through the MAC control queue, received holds into the
//! transmitter's state, and the refresh and resume timers.

use super::Sim;
use crate::net::frame::{FrameId, NONE};
use crate::net::node::NodeKind;
use crate::slots::flow_control::{FcLoad, FcMsg};

impl Sim {
    /// Frame `fid` entered (`add`) or left output queue `port`: update the switch's flow control.
    pub(crate) fn fc_buffered(&mut self, port: u32, fid: FrameId, add: bool) {
        let Some(fabric) = &self.fc else { return };
        let f = *self.frames.get(fid);
        if self.nodes[self.ports[port as usize].node as usize].kind != NodeKind::Switch {
            return;
        }
        let (load, class, per_class) = (fabric.load(), fabric.class(f.prio), fabric.per_class());
        match load {
            FcLoad::Ingress => {
                if f.ingress == NONE {
                    return; // made at this switch (a CNM): no upstream to pause
                }
                let Some(fc) = &mut self.ports[f.ingress as usize].fc else { return };
                if let Some(msg) = fc.gen.on_ingress(class, add, f.size as u64) {
                    self.send_fc(f.ingress, msg);
                }
            }
            FcLoad::Egress => {
                let p = &mut self.ports[port as usize];
                let bytes = if per_class { p.qdisc.class_bytes(f.prio) } else { p.qdisc.bytes() };
                let Some(fc) = &mut p.fc else { return };
                let Some(up) = fc.gen.on_queue(class, bytes) else { return };
                let node = p.node as usize;
                for i in 0..self.nodes[node].ports.len() {
                    let q = self.nodes[node].ports[i];
                    if q == port {
                        continue;
                    }
                    let Some(fc) = &mut self.ports[q as usize].fc else { continue };
                    if let Some(msg) = fc.gen.on_congested(class, up) {
                        self.send_fc(q, msg);
                    }
                }
            }
        }
    }

    /// Send a flow-control frame on `port` (to its neighbour), ahead of any data.
    fn send_fc(&mut self, port: u32, msg: FcMsg) {
        let now = self.now;
        let p = &mut self.ports[port as usize];
        let Some(fc) = &p.fc else { return };
        let frame = fc.gen.frame(msg, p.node, now);
        p.c.ctrl_sent += 1;
        if self.tap.is_some() {
            self.tap_fc(port, true, msg.mask, msg.quanta);
        }
        let p = &mut self.ports[port as usize];
        self.c.ctrl_sent += 1;
        let rate = p.rate_bps;
        let (timer, still_off, period) = match &p.fc {
            Some(f) => (Some(f.refresh_timer), f.gen.holding_off(), f.gen.refresh_period(rate)),
            None => (None, false, 0),
        };
        let fid = self.frames.alloc(frame);
        self.ports[port as usize].ctrl.push_back(fid);
        self.kick(port);
        if let Some(t) = timer {
            if still_off {
                self.arm(t, now + period);
            } else {
                self.timers.cancel(t);
            }
        }
    }

    pub(crate) fn on_fc_refresh(&mut self, port: u32) {
        let Some(fc) = &mut self.ports[port as usize].fc else { return };
        if let Some(msg) = fc.gen.on_refresh() {
            self.send_fc(port, msg);
        }
    }

    /// A flow-control frame reached the node whose port towards the sender is `port`: that port's
    /// transmitter holds the classes it names (after the frame it is sending, if any).
    pub(crate) fn on_mac_control(&mut self, port: u32, fid: FrameId) {
        let now = self.now;
        let msg = self.fc.as_ref().and_then(|fc| fc.read(self.frames.get(fid)));
        self.frames.release(fid);
        self.c.ctrl_delivered += 1;
        let Some(msg) = msg else { return };
        if self.tap.is_some() {
            self.tap_fc(port, false, msg.mask, msg.quanta);
        }
        let p = &mut self.ports[port as usize];
        p.c.ctrl_received += 1;
        let hold = self.fc.as_ref().map_or(0, |fc| fc.hold_time(msg, p.rate_bps));
        let end = now + hold;
        p.hold.set(msg.mask, now, end);
        let (next, timer) = (p.hold.next_end(now), p.hold_timer);
        match next {
            Some(t) => self.arm(timer, t),
            None => self.timers.cancel(timer),
        }
        self.kick(port);
    }

    /// A received pause ran out: resume, and wait for the next class's end if one is still paused.
    pub(crate) fn on_hold_end(&mut self, port: u32) {
        let now = self.now;
        let p = &self.ports[port as usize];
        if let Some(t) = p.hold.next_end(now) {
            let timer = p.hold_timer;
            self.arm(timer, t);
        }
        self.kick(port);
    }
}
