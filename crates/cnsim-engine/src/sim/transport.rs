//! The event loop's side of the closed-loop transport slot (`slots::transport`): a source
//! sends whenever its transport, its rate limiter (if an RP regulates it) and its output queue all
//! allow; data segments and ACKs are real frames in both directions; the retransmission,
//! delayed-ACK, application and pacing timers come from the timer service (a paced connection that
//! may not send yet is asked again when its pacing timer fires).

use super::{Event, Sim};
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameId, FrameKind, NodeId, NONE};
use crate::slots::transport::{Data, Poll, TransportTimer};

impl Sim {
    /// Timer `t` of flow `f`'s connection fired.
    pub(crate) fn on_transport_timer(&mut self, f: u32, t: TransportTimer) {
        match t {
            TransportTimer::Rto => self.on_transport_rto(f),
            TransportTimer::DelAck => self.on_transport_delack(f),
            TransportTimer::App => self.on_transport_app(f),
            TransportTimer::Pace => self.transport_pump(f),
        }
    }

    /// Sender `s` (its transport connections, behind one regulator: the first connection's RP) sends
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
            let Some((f, d, rto)) = self.next_segment(s, conns.clone(), now) else { return };
            let fl = &mut self.flows[f as usize];
            let rto_timer = fl.transport_timers[TransportTimer::Rto as usize];
            let mut frame = Frame::new(FrameKind::Data, d.size, host, fl.dst, f, now);
            frame.seq = d.seq;
            frame.ecn = d.ecn;
            frame.prio = prio;
            if let Some(t) = fl.transport.as_mut() {
                t.stamp(&mut frame, now);
            }
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
            if let Some(t) = &mut self.telemetry {
                t.start(fid, f);
            }
            self.forward(host, fid, NONE);
            self.pace_after_send(s, reg, size);
        }
    }

    /// The connection of sender `s`'s connections `conns` that sends next: the first, from the one
    /// whose turn it is, that its transport lets send now, with its retransmission deadline after
    /// it. A paced connection that may not send yet has its pacing timer armed for when it may.
    fn next_segment(&mut self, s: u32, conns: std::ops::Range<u32>, now: Time) -> Option<(u32, Data, Option<Time>)> {
        let n = conns.len() as u32;
        let first = self.senders[s as usize].next_conn;
        for i in 0..n {
            let k = (first + i) % n;
            let f = conns.start + k;
            let fl = &mut self.flows[f as usize];
            let Some(t) = fl.transport.as_mut() else { continue };
            match t.poll(now) {
                Poll::Send { data, rto } => {
                    self.senders[s as usize].next_conn = (k + 1) % n;
                    return Some((f, data, rto));
                }
                Poll::Wait { pace: Some(at) } => {
                    let id = fl.transport_timers[TransportTimer::Pace as usize];
                    self.arm(id, at);
                }
                Poll::Wait { pace: None } => {}
            }
        }
        None
    }

    /// The regulator (flow `f`'s RP) saw a frame of `size` bytes go: pace the next by its limit.
    fn pace_after_send(&mut self, s: u32, f: u32, size: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let Some(rp) = &mut fl.rp else { return };
        // A closed-loop source always has more to send: its limiter is never idle while it runs.
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

    /// Let the source of flow `f` send if nothing is scheduled for it yet.
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

    /// A data frame of flow `f` (`frame`, a copy: its slot is released, its telemetry already
    /// read) reached its receiver at `node`.
    pub(crate) fn on_transport_data(&mut self, node: NodeId, f: u32, frame: &Frame) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let timer = fl.transport_timers[TransportTimer::DelAck as usize];
        let mut ack = Frame::new(FrameKind::Ack, 0, node, Dest::Node(fl.src), f, now);
        let Some(conn) = fl.transport.as_mut() else { return };
        let Some(r) = conn.receive(frame, &mut ack, now) else { return };
        self.set_timer(timer, r.delack);
        if r.ack_due {
            self.send_ack_frame(node, f, ack, frame.prio);
        }
    }

    /// Send the acknowledgement flow `f`'s transport has due, from its receiver at `node`.
    fn send_ack(&mut self, node: NodeId, f: u32, prio: u8) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let mut frame = Frame::new(FrameKind::Ack, 0, node, Dest::Node(fl.src), f, now);
        if let Some(conn) = fl.transport.as_mut() {
            conn.write_ack(&mut frame, now);
        }
        self.send_ack_frame(node, f, frame, prio);
    }

    /// Send `frame`, the acknowledgement flow `f`'s transport wrote, from its receiver at `node`.
    fn send_ack_frame(&mut self, node: NodeId, f: u32, mut frame: Frame, prio: u8) {
        frame.prio = prio;
        self.c.ack_sent += 1;
        let id = self.frames.alloc(frame);
        if let Some(t) = &mut self.telemetry {
            t.echo(id, f);
        }
        self.forward(node, id, NONE);
    }

    /// An ACK of flow `f` reached its source.
    pub(crate) fn on_transport_ack(&mut self, fid: FrameId) {
        let now = self.now;
        let frame = *self.frames.get(fid);
        self.frames.release(fid);
        self.c.ack_delivered += 1;
        let f = frame.flow;
        let fl = &mut self.flows[f as usize];
        let timers = fl.transport_timers;
        let Some(conn) = fl.transport.as_mut() else { return };
        let stack = self.telemetry.as_ref().filter(|t| t.collects(f)).map(|t| t.stack(fid));
        let (acked, at) = conn.acked(&frame, stack.as_ref(), now);
        if acked.completed {
            self.flows[f as usize].completed = now;
        }
        self.set_timer(timers[TransportTimer::Rto as usize], at);
        if let Some(at) = acked.next_app {
            self.arm(timers[TransportTimer::App as usize], at);
        }
        self.transport_pump(f);
    }

    fn on_transport_rto(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let timer = fl.transport_timers[TransportTimer::Rto as usize];
        let Some(conn) = fl.transport.as_mut() else { return };
        conn.on_timeout(now);
        let at = conn.timer(TransportTimer::Rto);
        self.set_timer(timer, at);
        self.transport_pump(f);
    }

    fn on_transport_delack(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let timer = fl.transport_timers[TransportTimer::DelAck as usize];
        let Some(conn) = fl.transport.as_mut() else { return };
        let ack_due = conn.on_delayed_ack(now);
        let at = conn.timer(TransportTimer::DelAck);
        let (node, prio) = (fl.receivers[0].host, self.senders[fl.sender as usize].prio);
        self.set_timer(timer, at);
        if ack_due {
            self.send_ack(node, f, prio);
        }
    }

    /// The application of flow `f` starts (bulk) or starts a transaction.
    fn on_transport_app(&mut self, f: u32) {
        let now = self.now;
        let Some(conn) = self.flows[f as usize].transport.as_mut() else { return };
        conn.on_app(now);
        self.transport_pump(f);
    }
}
