//! Wiring of TCP connections (protocols/tcp): a TCP source sends whenever TCP, its rate limiter
//! (if an RP regulates it) and its output queue all allow; data segments and ACKs are real frames
//! in both directions; the RTO, delayed-ACK and application timers come from the timer service.

use crate::sim::{Event, Sim};
use crate::core::time::Time;
use crate::core::timer::TimerId;
use crate::protocols::tcp::{TcpReceiver, TcpSender};
use crate::net::frame::{Dest, Frame, FrameId, FrameKind, NodeId, NONE};
use crate::protocols::tcp::{Ack, Segment};

/// What a TCP connection's application does (the endpoint slot of closed-loop flows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpApp {
    /// Always has data (FTP).
    Bulk,
    /// `size` bytes, then `idle`, again; a transaction ends when its last byte is acknowledged.
    Transactions { size: u64, idle: Time },
    /// `size` bytes once; the flow completes when the last byte is acknowledged.
    Transfer { size: u64 },
}

/// A TCP connection: both ends' state machines, its application and timers, and its counts.
pub struct TcpFlow {
    pub snd: TcpSender,
    pub rcv: TcpReceiver,
    pub app: TcpApp,
    pub ack_size: u32,
    pub rto_timer: TimerId,
    pub ack_timer: TimerId,
    pub app_timer: TimerId,
    /// The current transaction: its start and the sender's `bytes_acked` at its end.
    pub txn_start: Time,
    pub txn_end: u64,
    pub txns: u64,
    pub txn_latency: Time,
    pub txns_w0: u64,
    pub txn_latency_w0: Time,
    pub goodput_w0: u64,
}

impl TcpFlow {
    /// The congestion window in segments (a recorded series).
    pub fn cwnd(&self) -> f64 {
        self.snd.cwnd() as f64
    }
    /// The smoothed RTT in seconds, NaN before the first sample (a recorded series).
    pub fn srtt_s(&self) -> f64 {
        self.snd.srtt().map_or(f64::NAN, crate::core::time::to_secs)
    }
    /// The measurement window starts: keep the counts' values.
    pub fn start_window(&mut self) {
        self.goodput_w0 = self.rcv.bytes_delivered();
        self.txns_w0 = self.txns;
        self.txn_latency_w0 = self.txn_latency;
    }
}

/// The closed-loop transport of a flow. One protocol fills this slot today.
pub type Transport = TcpFlow;

/// Which of a transport connection's timers fired (`sim::TimerOwner::FlowTransport`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportTimer {
    /// The sender's retransmission timeout.
    Rto,
    /// The receiver's delayed acknowledgement.
    DelAck,
    /// The application's next transaction.
    App,
}

impl Sim {
    /// Timer `t` of flow `f`'s connection fired.
    pub(crate) fn on_transport_timer(&mut self, f: u32, t: TransportTimer) {
        match t {
            TransportTimer::Rto => self.on_tcp_rto(f),
            TransportTimer::DelAck => self.on_tcp_delack(f),
            TransportTimer::App => self.on_tcp_app(f),
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
                if !snd.release_pending && snd.next_allowed != crate::sim::STALLED {
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
            let tcp = fl.transport.as_mut().expect("a TCP connection");
            let (rto, rto_timer) = (tcp.snd.timer(), tcp.rto_timer);
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
    fn next_segment(&mut self, s: u32, conns: std::ops::Range<u32>, now: crate::core::time::Time) -> Option<(u32, Segment)> {
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
            Some(_) => crate::sim::STALLED,
        };
    }

    /// Let the TCP source of flow `f` send if nothing is scheduled for it yet.
    fn tcp_pump(&mut self, f: u32) {
        let s = self.flows[f as usize].sender;
        let snd = &self.senders[s as usize];
        if !snd.release_pending && !snd.blocked {
            self.transport_release(s);
        }
    }

    /// Arm timer `id` for `at`, or cancel it for None.
    fn set_timer(&mut self, id: u32, at: Option<crate::core::time::Time>) {
        match at {
            Some(t) => self.arm(id, t),
            None => self.timers.cancel(id),
        }
    }

    /// A data segment of TCP flow `f` reached its receiver at `node`.
    pub(crate) fn on_transport_data(&mut self, node: NodeId, f: u32, frame: &Frame) {
        let now = self.now;
        let Some(tcp) = self.flows[f as usize].transport.as_mut() else { return };
        let Some(seg) = Segment::read(frame) else { return };
        let ack = tcp.rcv.on_segment_ecn(seg.seq, seg.len, seg.ecn, now);
        let (timer, at) = (tcp.ack_timer, tcp.rcv.timer());
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
        let Some(tcp) = self.flows[f as usize].transport.as_mut() else { return };
        if let Some(a) = Ack::read(&frame) {
            tcp.snd.on_ack(&a, now);
        }
        let (timer, at) = (tcp.rto_timer, tcp.snd.timer());
        // A transaction ends when its last byte is acknowledged; the next starts after `idle`.
        // A transfer is one transaction that is never followed by another.
        let mut next_txn = None;
        let mut completed = false;
        if let TcpApp::Transactions { .. } | TcpApp::Transfer { .. } = tcp.app {
            if tcp.txn_end > 0 && tcp.snd.bytes_acked >= tcp.txn_end && tcp.txn_start != NO_TXN {
                tcp.txns += 1;
                tcp.txn_latency += now - tcp.txn_start;
                tcp.txn_start = NO_TXN;
                match tcp.app {
                    TcpApp::Transactions { idle, .. } => next_txn = Some((tcp.app_timer, now + idle)),
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
        self.tcp_pump(f);
    }

    fn on_tcp_rto(&mut self, f: u32) {
        let now = self.now;
        let Some(tcp) = self.flows[f as usize].transport.as_mut() else { return };
        tcp.snd.on_timeout(now);
        let (timer, at) = (tcp.rto_timer, tcp.snd.timer());
        self.set_timer(timer, at);
        self.tcp_pump(f);
    }

    fn on_tcp_delack(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        let Some(tcp) = fl.transport.as_mut() else { return };
        let ack = tcp.rcv.on_delack_timeout(now);
        let (timer, at) = (tcp.ack_timer, tcp.rcv.timer());
        let (node, prio) = (fl.receivers[0].host, self.senders[fl.sender as usize].prio);
        self.set_timer(timer, at);
        if let Some(a) = ack {
            self.send_ack(node, f, a, prio);
        }
    }

    /// The application of flow `f` starts (bulk) or starts a transaction.
    fn on_tcp_app(&mut self, f: u32) {
        let now = self.now;
        let Some(tcp) = self.flows[f as usize].transport.as_mut() else { return };
        match tcp.app {
            TcpApp::Bulk => tcp.snd.push(u64::MAX),
            TcpApp::Transactions { size, .. } | TcpApp::Transfer { size } => {
                tcp.snd.push(size);
                tcp.txn_start = now;
                tcp.txn_end += size;
            }
        }
        self.tcp_pump(f);
    }
}

/// `txn_start` while no transaction is under way.
pub(super) const NO_TXN: crate::core::time::Time = crate::core::time::Time::MAX;
