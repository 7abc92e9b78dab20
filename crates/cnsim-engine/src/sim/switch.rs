//! Forwarding, output queues, transmitters and congestion points: what happens to a frame between
//! the node that sends it and the node that receives it.

use super::{Event, Sim};
use crate::net::frame::{Dest, FrameId, FrameKind, NodeId, NONE};
use crate::net::node::NodeKind;
use crate::net::port::Delivery;
use crate::slots::QueueView;
use crate::core::time::Time;
use crate::tap::trace;

impl Sim {
    /// Send frame `fid`, now at `node` (arrived through `in_port`, or NONE at its source), on.
    pub(crate) fn forward(&mut self, node: NodeId, fid: FrameId, in_port: u32) {
        let f = self.frames.get(fid);
        match f.dst {
            Dest::Node(d) => {
                let p = self.routes.next_port(node as usize, d as usize, f.flow);
                if p == NONE {
                    if self.tap.is_some() {
                        self.tap_drop(node, NONE, Some(fid), self.frames.get(fid).flow, trace::UNROUTABLE);
                    }
                    self.discard(fid); // validated away at build time; kept for safety
                } else {
                    self.enqueue(p, fid);
                }
            }
            Dest::Group(_) => {
                let f = *self.frames.get(fid);
                let range = self.mcast.range(f.flow as usize, node);
                let mut first = true;
                for i in range {
                    let p = self.mcast.port(i);
                    if p == in_port || !self.mcast.active(i) {
                        continue;
                    }
                    let id = if first {
                        first = false;
                        fid
                    } else {
                        self.c.data_replicated += 1;
                        self.flows[f.flow as usize].replicated += 1;
                        self.frames.alloc(f)
                    };
                    self.enqueue(p, id);
                }
                if first {
                    self.discard(fid);
                }
            }
        }
    }

    pub(crate) fn discard(&mut self, fid: FrameId) {
        let f = self.frames.get(fid);
        match f.kind {
            FrameKind::Data => {
                self.c.data_dropped += 1;
                self.flows[f.flow as usize].dropped += 1;
            }
            FrameKind::Feedback => self.c.feedback_dropped += 1,
            FrameKind::Ack => self.c.ack_dropped += 1,
            FrameKind::MacControl => {}
            FrameKind::PathControl => self.c.path_control_dropped += 1,
        }
        self.frames.release(fid);
    }

    /// Offer a frame to an output port's queue; the port's CP samples data frames and its flow
    /// control accounts for what the queue holds.
    #[inline(always)]
    pub(crate) fn enqueue(&mut self, port: u32, fid: FrameId) {
        let now = self.now;
        let (kind, prio, size) = {
            let f = self.frames.get(fid);
            (f.kind, f.prio, f.size)
        };
        if kind == FrameKind::PathControl && self.path_control_at_cp(port, fid) {
            return;
        }
        // Active queue management (and a router's link meter) before the drop-tail check, out of
        // line: most ports have neither.
        let p = &self.ports[port as usize];
        let early_drop = kind == FrameKind::Data && (p.aqm.is_some() || p.meter.is_some()) && crate::registry::aqm::offer(&mut self.ports[port as usize], self.frames.get_mut(fid), now);
        let p = &mut self.ports[port as usize];
        let accepted;
        if early_drop {
            accepted = false;
            p.c.drops += 1;
            if self.tap.is_some() {
                let (node, flow) = (self.ports[port as usize].node, self.frames.get(fid).flow);
                self.tap_drop(node, port, Some(fid), flow, trace::AQM);
            }
            self.discard(fid);
        } else if p.qdisc.is_empty() && now >= p.busy_until && p.ctrl.is_empty() && p.hold.mask(now) & (1 << prio) == 0 {
            accepted = true;
            self.start_tx(port, fid);
        } else if p.qdisc.fits(prio, size) {
            accepted = true;
            p.qdisc.push(fid, prio, size);
            p.q.set(now, p.qdisc.bytes() as f64);
            p.peak_frames = p.peak_frames.max(p.qdisc.len() as u64);
            p.peak_bytes = p.peak_bytes.max(p.qdisc.bytes());
            if !p.txdone_pending {
                p.txdone_pending = true;
                let at = p.busy_until.max(now);
                self.queue.push(at, Event::TxDone { port });
            }
            if self.fc.is_some() {
                self.fc_buffered(port, fid, true);
            }
        } else {
            accepted = false;
            if kind == FrameKind::Data {
                p.c.drops += 1;
            }
            if self.tap.is_some() {
                let (node, flow) = (self.ports[port as usize].node, self.frames.get(fid).flow);
                self.tap_drop(node, port, Some(fid), flow, trace::QUEUE_FULL);
            }
            // The slot is freed but not reused before the CP below has read the frame.
            self.discard(fid);
        }
        if kind != FrameKind::Data {
            return;
        }
        let p = &mut self.ports[port as usize];
        p.c.arrivals += 1;
        let node = p.node;
        let Some(cp) = &mut p.cp else { return };
        let q = QueueView { bytes: p.qdisc.class_bytes(prio), frames: p.qdisc.class_len(prio), rate_bps: p.rate_bps };
        if let Some(fb) = cp.on_data(self.frames.get(fid), accepted, q, port, node, now) {
            p.c.feedback_sent += 1;
            self.c.feedback(fb.proto, true);
            if self.tap.is_some() {
                self.tap_feedback_sent(port, &fb);
            }
            let id = self.frames.alloc(fb);
            self.forward(node, id, NONE);
        }
    }

    /// A path control frame is about to enter `port`'s queue: its CP may stamp it or answer it.
    /// True when it was answered (and consumed).
    fn path_control_at_cp(&mut self, port: u32, fid: FrameId) -> bool {
        let now = self.now;
        let p = &mut self.ports[port as usize];
        let node = p.node;
        let Some(cp) = &mut p.cp else { return false };
        let prio = self.frames.get(fid).prio;
        let q = QueueView { bytes: p.qdisc.class_bytes(prio), frames: p.qdisc.class_len(prio), rate_bps: p.rate_bps };
        let Some(ans) = cp.on_path_control(self.frames.get_mut(fid), q, port, node, now) else { return false };
        p.c.feedback_sent += 1;
        self.c.feedback(ans.proto, true);
        self.c.path_control_answered += 1;
        self.frames.release(fid);
        let id = self.frames.alloc(ans);
        self.forward(node, id, NONE);
        true
    }

    pub(crate) fn start_tx(&mut self, port: u32, fid: FrameId) {
        if self.tap.is_some() {
            self.tap_tx(port, fid);
        }
        if self.telemetry.is_some() {
            self.telemetry_tx(port, fid);
        }
        let now = self.now;
        let (size, kind, flow) = {
            let f = self.frames.get(fid);
            (f.size, f.kind, f.flow)
        };
        let p = &mut self.ports[port as usize];
        let ser = p.wire_time(size);
        p.busy_until = now + ser;
        if let Some(m) = &mut p.meter {
            m.on_tx(now, ser);
        }
        if now >= self.measure_from {
            p.busy_window += ser;
        }
        let at = now + ser + p.delay;
        if p.lazy_rx && kind == FrameKind::Data && self.flows[flow as usize].passive_rx {
            // Lazy delivery: a passive receiver only counts, so the arrival needs no event; it is
            // applied at the port's next transmission or when counts are read (`deliver_due`).
            // Usually one is due (the frame sent before the last one): counted here, inline; the
            // loop (`deliver_due`) only for more. Inlining the loop itself measured +1.5 % instructions.
            if let Some(&d) = p.deliveries.front() {
                if d.at <= now {
                    p.deliveries.pop_front();
                    Self::count_delivery(&mut self.flows[d.flow as usize], &mut self.c, p.peer_node, d.size, d.at);
                    if p.deliveries.front().is_some_and(|d| d.at <= now) {
                        self.deliver_due(port, now);
                    }
                }
            }
            let p = &mut self.ports[port as usize];
            // The frame itself is not needed any more: only its flow and size are counted.
            p.deliveries.push_back(Delivery { at, flow, size });
            self.frames.release(fid);
            self.queue.skip();
        } else {
            self.queue.push(at, Event::Arrive { port, frame: fid });
        }
    }

    /// Port `port` starts sending frame `fid`: in-band telemetry counts its bytes and, at a
    /// forwarding node, pushes the port's record into a data frame that collects.
    #[inline(never)]
    fn telemetry_tx(&mut self, port: u32, fid: FrameId) {
        let f = self.frames.get(fid);
        let p = &self.ports[port as usize];
        let wire = f.size as u64 + p.overhead as u64;
        let Some(t) = &mut self.telemetry else { return };
        t.on_tx(port, fid, f.flow, f.kind == FrameKind::Data, wire, p.qdisc.bytes(), p.rate_bps, self.now);
    }

    /// Every port's lazy deliveries up to `t` (before receiver counts are read).
    pub(crate) fn deliver_all(&mut self, t: Time) {
        for i in 0..self.lazy_ports.len() {
            let p = self.lazy_ports[i];
            if !self.ports[p as usize].deliveries.is_empty() {
                self.deliver_due(p, t);
            }
        }
    }

    /// Apply the lazy deliveries of `port` that arrived by `t` (inclusive), in arrival order.
    #[inline(never)]
    pub(crate) fn deliver_due(&mut self, port: u32, t: Time) {
        let p = &mut self.ports[port as usize];
        let node = p.peer_node;
        while let Some(&d) = p.deliveries.front() {
            if d.at > t {
                break;
            }
            p.deliveries.pop_front();
            // Passive flows only: the receiver is there and only counts (`on_host_arrive`).
            Self::count_delivery(&mut self.flows[d.flow as usize], &mut self.c, node, d.size, d.at);
        }
    }

    /// The transmitter is free: MAC control first, then the next data frame of a class that is
    /// not paused (a paused port waits for its resume timer or an XON).
    pub(crate) fn on_tx_done(&mut self, port: u32) {
        let now = self.now;
        let p = &mut self.ports[port as usize];
        p.txdone_pending = false;
        if now < p.busy_until {
            // Kicked while a frame is still on the wire: come back when it is done.
            p.txdone_pending = true;
            let at = p.busy_until;
            self.queue.push(at, Event::TxDone { port });
            return;
        }
        if let Some(fid) = p.ctrl.pop_front() {
            self.start_tx(port, fid);
        } else {
            let held = p.hold.mask(now);
            let Some((fid, _)) = p.qdisc.pop(held) else { return };
            p.q.set(now, p.qdisc.bytes() as f64);
            self.start_tx(port, fid);
            if self.fc.is_some() {
                self.fc_buffered(port, fid, false);
            }
            if !self.ports[port as usize].blocked.is_empty() {
                self.wake_senders(port);
            }
        }
        let p = &mut self.ports[port as usize];
        if !p.qdisc.is_empty() || !p.ctrl.is_empty() {
            p.txdone_pending = true;
            self.queue.push(p.busy_until, Event::TxDone { port });
        }
    }

    /// An oscillating port changes its service rate (from its next frame on).
    pub(crate) fn on_port_rate(&mut self, port: u32) {
        let now = self.now;
        let p = &mut self.ports[port as usize];
        let Some(o) = &mut p.osc else { return };
        let (rate, next) = o.on_timer(now);
        p.set_rate(rate);
        if let Some(t) = next {
            let id = p.osc_timer;
            self.arm(id, t);
        }
    }

    /// Make sure a transmitter with something to send will look at it.
    pub(crate) fn kick(&mut self, port: u32) {
        let now = self.now;
        let p = &mut self.ports[port as usize];
        if !p.txdone_pending && (!p.qdisc.is_empty() || !p.ctrl.is_empty()) {
            p.txdone_pending = true;
            let at = p.busy_until.max(now);
            self.queue.push(at, Event::TxDone { port });
        }
    }

    /// The last bit of a frame sent on `port` reaches the node at the other end.
    pub(crate) fn on_arrive(&mut self, port: u32, fid: FrameId) {
        let (node, in_port, kind_at) = {
            let p = &self.ports[port as usize];
            (p.peer_node, p.peer_port, p.peer_kind)
        };
        let kind = self.frames.get(fid).kind;
        if kind == FrameKind::MacControl {
            self.on_mac_control(in_port, fid);
            return;
        }
        if let Some((p, rng)) = &mut self.ports[port as usize].loss {
            if kind == FrameKind::Data && rng.bernoulli(*p) {
                if self.tap.is_some() {
                    let (from, flow) = (self.ports[port as usize].node, self.frames.get(fid).flow);
                    self.tap_drop(from, port, Some(fid), flow, trace::WIRE_LOSS);
                }
                return self.discard(fid); // lost on the wire
            }
        }
        if kind_at == NodeKind::Router {
            // IP forwarding: decrement the TTL; a frame whose TTL reaches 0 is dropped (RFC 791, 1812 §5.3.1).
            let f = self.frames.get_mut(fid);
            f.ttl = f.ttl.saturating_sub(1);
            if f.ttl == 0 {
                self.c.ttl_expired += 1;
                if self.tap.is_some() {
                    let flow = self.frames.get(fid).flow;
                    self.tap_drop(node, in_port, Some(fid), flow, trace::TTL);
                }
                return self.discard(fid);
            }
            self.forward(node, fid, in_port);
            return;
        }
        if kind_at == NodeKind::Switch {
            if self.fc.is_some() {
                self.frames.get_mut(fid).ingress = in_port;
            }
            self.forward(node, fid, in_port);
            return;
        }
        self.on_host_arrive(node, fid);
    }
}
