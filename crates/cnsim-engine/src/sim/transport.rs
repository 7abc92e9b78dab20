//! The event loop's side of the closed-loop transport slot (`registry::transport`): a source
//! sends whenever its transport, its rate limiter (if an RP regulates it) and its output queue all
//! allow; data segments and ACKs are real frames in both directions; the retransmission,
//! delayed-ACK and application timers come from the timer service.

use super::{Event, Sim};
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameId, FrameKind, NodeId, NONE};
use crate::registry::transport::{Ack, App, Segment, TransportTimer, NO_TXN};

impl Sim {
    /// Timer `t` of flow `f`'s connection fired.
    pub(crate) fn on_transport_timer(&mut self, f: u32, t: TransportTimer) {
        match t {
            TransportTimer::Rto => self.on_transport_rto(f),
            TransportTimer::DelAck => self.on_transport_delack(f),
            TransportTimer::App => self.on_transport_app(f),
        }
    }

    /// Sender `s` (its TCP connections, behind one regulator: the first connection's RP) sends
    /// what it may now; the connections take turns (round robin) for the regulator.
    pub(crate) fn transport_release(&mut self, s: u32) {
        let now = self.now;
        let conns = self.senders[s as usize].flows.clone();
        let reg = conns.start;
        loop {
            let snd = &mut self.senders[s as usize];
            if snd.next_allowed > now {
                if !snd.release_pending && snd.next_allowed != super::STALLED {
                    snd.release_pending = true;
                    self.queue.push_slow(snd.next_allowed, Event::Release { sender: s });
                }
                return;
            }
            if self.blocked_by_port(s) {
                return;
            }
            let (host, prio) = (self.senders[s as usize].host, self.senders[s as usize].prio);
            let Some((f, seg)) = self.next_segment(s, conns.clone(), now) else { return };
            let fl = &mut self.flows[f as usize];
            let conn = fl.transport.as_mut().expect("a TCP connection");
            let (rto, rto_timer) = (conn.snd.timer(), conn.rto_timer);
            let mut frame = Frame::new(FrameKind::Data, 0, host, fl.dst, f, now);
            seg.write(&mut frame);
            frame.prio = prio;
            fl.injected += 1;
            if let Some(rp) = &mut self.flows[reg as usize].rp {
                rp.stamp(&mut frame, now);
            }
            self.c.data_generated += 1;
            self.c.data_injected += 1;
            self.senders[s as usize].generated += 1;
            self.set_timer(rto_timer, rto);
            let size = frame.size;
            let fid = self.frames.alloc(frame);
            self.forward(host, fid, NONE);
            self.pace_after_send(s, reg, size);
        }
    }

    /// The next segment of sender `s`'s connections `conns`: the first connection, from the one
    /// whose turn it is, that TCP lets send now.
    fn next_segment(&mut self, s: u32, conns: std::ops::Range<u32>, now: Time) -> Option<(u32, Segment)> {
        let n = conns.len() as u32;
        let first = self.senders[s as usize].next_conn;
        for i in 0..n {
            let k = (first + i) % n;
            let f = conns.start + k;
            if let Some(seg) = self.flows[f as usize].transport.as_mut().and_then(|t| t.snd.poll_send(now)) {
                self.senders[s as usize].next_conn = (k + 1) % n;
                return Some((f, seg));
            }
        }
        None
    }

    /// The regulator (flow `f`'s RP) saw a frame of `size` bytes go: pace the next by its limit.
    fn pace_after_send(&mut self, s: u32, f: u32, size: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let Some(rp) = &mut fl.rp else { return };
        // A TCP source always has more to send: its limiter is never idle while TCP runs.
        let sent = rp.on_sent(size, false, &mut fl.rp_rng);
        self.apply_timer(f, sent.timer);
        if sent.rate_changed {
            self.note_rate(f);
        }
        let snd = &mut self.senders[s as usize];
        snd.next_allowed = match sent.limit {
            None => now,
            Some(r) if r > 0.0 => now + crate::core::time::pace_time(size as u64, r),
            Some(_) => super::STALLED,
        };
    }

    /// Let the TCP source of flow `f` send if nothing is scheduled for it yet.
    fn transport_pump(&mut self, f: u32) {
        let s = self.flows[f as usize].sender;
        let snd = &self.senders[s as usize];
        if !snd.release_pending && !snd.blocked {
            self.transport_release(s);
        }
    }

    /// Arm timer `id` for `at`, or cancel it for None.
    fn set_timer(&mut self, id: u32, at: Option<Time>) {
        match at {
            Some(t) => self.arm(id, t),
            None => self.timers.cancel(id),
        }
    }

    /// A data segment of TCP flow `f` reached its receiver at `node`.
    pub(crate) fn on_transport_data(&mut self, node: NodeId, f: u32, frame: &Frame) {
        let now = self.now;
        let Some(conn) = self.flows[f as usize].transport.as_mut() else { return };
        let Some(seg) = Segment::read(frame) else { return };
        let ack = conn.rcv.on_segment_ecn(seg.seq, seg.len, seg.ecn, now);
        let (timer, at) = (conn.ack_timer, conn.rcv.timer());
        self.set_timer(timer, at);
        if let Some(a) = ack {
            self.send_ack(node, f, a, frame.prio);
        }
    }

    fn send_ack(&mut self, node: NodeId, f: u32, ack: Ack, prio: u8) {
        let fl = &self.flows[f as usize];
        let size = fl.transport.as_ref().map_or(64, |t| t.ack_size);
        let mut frame = Frame::new(FrameKind::Ack, size, node, Dest::Node(fl.src), f, self.now);
        ack.write(&mut frame);
        frame.prio = prio;
        self.c.ack_sent += 1;
        let id = self.frames.alloc(frame);
        self.forward(node, id, NONE);
    }

    /// An ACK of flow `f` reached its source.
    pub(crate) fn on_transport_ack(&mut self, fid: FrameId) {
        let now = self.now;
        let frame = *self.frames.get(fid);
        self.frames.release(fid);
        self.c.ack_delivered += 1;
        let f = frame.flow;
        let Some(conn) = self.flows[f as usize].transport.as_mut() else { return };
        if let Some(a) = Ack::read(&frame) {
            conn.snd.on_ack(&a, now);
        }
        let (timer, at) = (conn.rto_timer, conn.snd.timer());
        // A transaction ends when its last byte is acknowledged; the next starts after `idle`.
        // A transfer is one transaction that is never followed by another.
        let mut next_txn = None;
        let mut completed = false;
        if let App::Transactions { .. } | App::Transfer { .. } = conn.app {
            if conn.txn_end > 0 && conn.snd.bytes_acked >= conn.txn_end && conn.txn_start != NO_TXN {
                conn.txns += 1;
                conn.txn_latency += now - conn.txn_start;
                conn.txn_start = NO_TXN;
                match conn.app {
                    App::Transactions { idle, .. } => next_txn = Some((conn.app_timer, now + idle)),
                    _ => completed = true,
                }
            }
        }
        if completed {
            self.flows[f as usize].completed = now;
        }
        self.set_timer(timer, at);
        if let Some((t, at)) = next_txn {
            self.arm(t, at);
        }
        self.transport_pump(f);
    }

    fn on_transport_rto(&mut self, f: u32) {
        let now = self.now;
        let Some(conn) = self.flows[f as usize].transport.as_mut() else { return };
        conn.snd.on_timeout(now);
        let (timer, at) = (conn.rto_timer, conn.snd.timer());
        self.set_timer(timer, at);
        self.transport_pump(f);
    }

    fn on_transport_delack(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let Some(conn) = fl.transport.as_mut() else { return };
        let ack = conn.rcv.on_delack_timeout(now);
        let (timer, at) = (conn.ack_timer, conn.rcv.timer());
        let (node, prio) = (fl.receivers[0].host, self.senders[fl.sender as usize].prio);
        self.set_timer(timer, at);
        if let Some(a) = ack {
            self.send_ack(node, f, a, prio);
        }
    }

    /// The application of flow `f` starts (bulk) or starts a transaction.
    fn on_transport_app(&mut self, f: u32) {
        let now = self.now;
        let Some(conn) = self.flows[f as usize].transport.as_mut() else { return };
        match conn.app {
            App::Bulk => conn.snd.push(u64::MAX),
            App::Transactions { size, .. } | App::Transfer { size } => {
                conn.snd.push(size);
                conn.txn_start = now;
                conn.txn_end += size;
            }
        }
        self.transport_pump(f);
    }
}
