//! The taps' hooks (`crate::tap`): called from the event loop only when `Sim::tap` is on, kept out
//! of line so the hot functions stay small. What a protocol's frame says is read in `tap/`.

use super::Sim;
use crate::net::frame::{Dest, Frame, FrameId, FrameKind, NONE};
use crate::tap::trace::{self, Fields};
use crate::tap::{capture, wire};

impl Sim {
    /// The 8-byte CPID of the CP at port `p` (0 for none): its switch's MAC and the port's index there.
    pub fn wire_cpid(&self, p: u32) -> u64 {
        let Some(port) = self.ports.get(p as usize) else { return 0 };
        let index = self.nodes[port.node as usize].ports.iter().position(|&q| q == p).unwrap_or(0);
        wire::cpid(port.node, index as u32)
    }

    /// A transmission of `fid` starts on `port`.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_tx(&mut self, port: u32, fid: FrameId) {
        let Some(mut cap) = self.tap.as_mut().and_then(|t| t.capture.take()) else { return };
        let f = *self.frames.get(fid);
        if cap.wants(port, capture::kind_bit(&f)) {
            if cap.bound_at.is_some() {
                cap.missed += 1;
            } else {
                let ctx = self.wire_ctx(&f, port);
                let from = cap.data.len();
                let len = wire::build(&f, &ctx, &|p| if p == NONE { 0 } else { self.wire_cpid(p) }, &mut cap.data);
                cap.commit(self.now, port, from, len);
            }
        }
        if let Some(t) = self.tap.as_mut() {
            t.capture = Some(cap);
        }
    }

    fn wire_ctx(&self, f: &Frame, port: u32) -> wire::Ctx {
        let fl = self.flows.get(f.flow as usize);
        let node_mac = wire::mac(self.ports[port as usize].node);
        let dst = match f.dst {
            Dest::Node(NONE) => node_mac,
            Dest::Node(d) => wire::mac(d),
            Dest::Group(g) => wire::group_mac(g),
        };
        let mut c = wire::Ctx { src: wire::mac(f.src), dst, ip_src: wire::ipv4(f.src), ..Default::default() };
        if let Dest::Node(d) = f.dst {
            c.ip_dst = wire::ipv4(d);
        }
        if f.kind == FrameKind::MacControl {
            c.src = node_mac;
        }
        let Some(fl) = fl else { return c };
        if fl.rp.as_ref().is_some_and(|r| r.cn_tagged()) {
            c.rpid = Some(f.flow as u16);
        }
        if let Some(t) = &fl.transport {
            wire::transport_ctx(&mut c, t);
        }
        c.encap_da = match fl.dst {
            Dest::Node(d) => wire::mac(d),
            Dest::Group(g) => wire::group_mac(g),
        };
        c.encap_len = self.senders[fl.sender as usize].frame.saturating_sub(18).min(u16::MAX as u32) as u16;
        c
    }

    fn trace_push(&mut self, kind: u16, node: u32, port: u32, flow: u32, fields: Fields) {
        self.trace_push_at(self.now, kind, node, port, flow, fields);
    }

    fn trace_push_at(&mut self, at: u64, kind: u16, node: u32, port: u32, flow: u32, fields: Fields) {
        if let Some(t) = self.tap.as_mut().and_then(|t| t.trace.as_mut()) {
            t.push(at, kind, node, port, flow, fields);
        }
    }

    /// A source drop at time `at` (a deferred generation replayed later: `host.rs`, `catch_up`).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_drop_at(&mut self, at: u64, node: u32, port: u32, fid: Option<FrameId>, flow: u32, reason: i64) {
        let kind = fid.map_or(0, |id| capture::kind_bit(self.frames.get(id)) as i64);
        self.trace_push_at(at, trace::DROP, node, port, flow, Fields { a: reason, b: kind, ..Default::default() });
    }

    /// A frame is dropped at `node` (`port`: the queue or wire, NONE at a source) for `reason`.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_drop(&mut self, node: u32, port: u32, fid: Option<FrameId>, flow: u32, reason: i64) {
        let kind = fid.map_or(0, |id| capture::kind_bit(self.frames.get(id)) as i64);
        self.trace_push(trace::DROP, node, port, flow, Fields { a: reason, b: kind, ..Default::default() });
    }

    /// The CP at `port` sent feedback frame `fb`: its protocol's row (`trace::frame_sent`).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_feedback_sent(&mut self, port: u32, fb: &Frame) {
        let node = self.ports[port as usize].node;
        let x = self.ports[port as usize].cp.as_ref().map_or(f64::NAN, |cp| cp.feedback_value(fb));
        if let Some((kind, fields)) = trace::frame_sent(fb, self.wire_cpid(port), x) {
            self.trace_push(kind, node, port, fb.flow, fields);
        }
    }

    /// A receiver's notification point at `node` sent feedback frame `fb`: its protocol's row.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_np_sent(&mut self, node: u32, fb: &Frame) {
        if let Some((kind, fields)) = trace::frame_sent(fb, 0, f64::NAN) {
            self.trace_push(kind, node, NONE, fb.flow, fields);
        }
    }

    /// Feedback frame `fb` reached its flow's source `node`, before the RP reads it: its
    /// protocol's row (`trace::frame_received`).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_feedback(&mut self, node: u32, fb: &Frame) {
        if let Some((kind, mut fields, cpid_port)) = trace::frame_received(fb) {
            fields.cpid = self.wire_cpid(cpid_port);
            self.trace_push(kind, node, NONE, fb.flow, fields);
        }
    }

    /// Flow `f`'s RP may have changed: a limiter created or released, a new E-QCN representative.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_rp(&mut self, f: u32) {
        let fl = &self.flows[f as usize];
        let Some(rp) = &fl.rp else { return };
        let (limit, rep, node) = (rp.limit(), rp.representative(), fl.src);
        let Some(t) = self.tap.as_mut().and_then(|t| t.trace.as_mut()) else { return };
        let limiting = limit.is_some();
        if t.limiting[f as usize] != limiting {
            t.limiting[f as usize] = limiting;
            let kind = if limiting { trace::LIMITER_CREATED } else { trace::LIMITER_RELEASED };
            self.trace_push(kind, node, NONE, f, Fields { x: limit.unwrap_or(f64::NAN), ..Default::default() });
        }
        if let Some((fb_hat, cpid)) = rep {
            let Some(t) = self.tap.as_mut().and_then(|t| t.trace.as_mut()) else { return };
            if t.representative[f as usize] != cpid {
                t.representative[f as usize] = cpid;
                let wire = if cpid == NONE { 0 } else { self.wire_cpid(cpid) };
                self.trace_push(trace::REPRESENTATIVE, node, NONE, f, Fields { a: fb_hat as i64, cpid: wire, ..Default::default() });
            }
        }
    }

    /// A flow-control frame (PAUSE/PFC) was sent on (`sent`) or received through `port`: its class
    /// mask and quanta.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_fc(&mut self, port: u32, sent: bool, mask: u8, quanta: u16) {
        let node = self.ports[port as usize].node;
        let (on_send, on_receive) = trace::flow_control_kinds();
        let Some(kind) = (if sent { on_send } else { on_receive }) else { return };
        self.trace_push(kind, node, port, NONE, Fields { a: quanta as i64, b: mask as i64, ..Default::default() });
    }
}

impl Sim {
    /// Names of the ports ("NODE>PEER", as the stats' queues), by port id.
    pub fn port_names(&self) -> Vec<String> {
        self.ports.iter().map(|p| format!("{}>{}", self.nodes[p.node as usize].name, self.nodes[p.peer_node as usize].name)).collect()
    }

    /// Capture the transmissions of frame kinds `kinds` (`capture` bits) on `ports`, keeping at most
    /// `snaplen` bytes of each and `max_bytes` in all (0 = no bound). Call before the run.
    pub fn enable_capture(&mut self, ports: &[u32], kinds: u16, snaplen: u32, max_bytes: u64) -> Result<(), String> {
        let cap = capture::Capture::new(self.ports.len(), ports, kinds, snaplen, max_bytes)?;
        self.tap.get_or_insert_with(Default::default).capture = Some(cap);
        Ok(())
    }

    /// Record the protocol events of `kinds` (`trace` bits). Call before the run.
    pub fn enable_trace(&mut self, kinds: u16) {
        let mut t = trace::Trace::new(kinds, self.flows.len());
        for (i, f) in self.flows.iter().enumerate() {
            if let Some(rp) = &f.rp {
                t.limiting[i] = rp.limit().is_some();
                t.representative[i] = rp.representative().map_or(NONE, |r| r.1);
            }
        }
        self.tap.get_or_insert_with(Default::default).trace = Some(t);
    }
}
