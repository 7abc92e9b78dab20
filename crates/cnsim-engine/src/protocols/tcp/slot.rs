//! TCP in the closed-loop transport slot (`slots::transport`): a connection's sender and
//! receiver, its application's transactions and its counts.

use super::{Ack, EcnMode, Segment, TcpParams, TcpReceiver, TcpSender, HEADER_BYTES};
use crate::core::time::{to_secs, Time};
use crate::net::frame::Frame;
use crate::slots::transport::{Acked, App, Data, TransportMachine, TransportTimer};
use crate::slots::wire::Ctx;
use serde_json::{json, Value};

/// `txn_start` while no transaction is under way.
const NO_TXN: Time = Time::MAX;

/// A TCP connection: both ends' state machines, its application and its counts.
pub struct TcpFlow {
    pub snd: TcpSender,
    pub rcv: TcpReceiver,
    pub app: App,
    pub ack_size: u32,
    /// The acknowledgement `on_data` / `on_delayed_ack` decided, until the engine has its frame.
    ack: Option<Ack>,
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
    pub fn new(p: TcpParams, app: App, ack_size: u32) -> Self {
        TcpFlow {
            snd: TcpSender::new(p),
            rcv: TcpReceiver::new(p),
            app,
            ack_size,
            ack: None,
            txn_start: 0,
            txn_end: 0,
            txns: 0,
            txn_latency: 0,
            txns_w0: 0,
            txn_latency_w0: 0,
            goodput_w0: 0,
        }
    }
}

impl TransportMachine for TcpFlow {
    const SERIES: &'static [&'static str] = &super::SERIES;
    /// A segment's frame: payload and headers, as `Segment::write` makes it.
    #[inline]
    fn poll_send(&mut self, now: Time) -> Option<Data> {
        self.snd.poll_send(now).map(|s| Data { seq: s.seq, size: s.len + HEADER_BYTES, ecn: s.ecn })
    }
    #[inline]
    fn on_data(&mut self, f: &Frame, now: Time) -> Option<bool> {
        let seg = Segment::read(f)?;
        self.ack = self.rcv.on_segment_ecn(seg.seq, seg.len, seg.ecn, now);
        Some(self.ack.is_some())
    }
    fn on_delayed_ack(&mut self, now: Time) -> bool {
        self.ack = self.rcv.on_delack_timeout(now);
        self.ack.is_some()
    }
    #[inline]
    fn write_ack(&mut self, f: &mut Frame, _now: Time) {
        f.size = self.ack_size;
        if let Some(a) = self.ack.take() {
            a.write(f);
        }
    }
    /// A transaction ends when its last byte is acknowledged; the next starts after `idle`. A
    /// transfer is one transaction that is never followed by another.
    #[inline]
    fn on_ack(&mut self, f: &Frame, now: Time) -> Acked {
        if let Some(a) = Ack::read(f) {
            self.snd.on_ack(&a, now);
        }
        let mut out = Acked::default();
        if let App::Transactions { .. } | App::Transfer { .. } = self.app {
            if self.txn_end > 0 && self.snd.bytes_acked >= self.txn_end && self.txn_start != NO_TXN {
                self.txns += 1;
                self.txn_latency += now - self.txn_start;
                self.txn_start = NO_TXN;
                match self.app {
                    App::Transactions { idle, .. } => out.next_app = Some(now + idle),
                    _ => out.completed = true,
                }
            }
        }
        out
    }
    fn on_timeout(&mut self, now: Time) {
        self.snd.on_timeout(now);
    }
    fn on_app(&mut self, now: Time) {
        match self.app {
            App::Bulk => self.snd.push(u64::MAX),
            App::Transactions { size, .. } | App::Transfer { size } => {
                self.snd.push(size);
                self.txn_start = now;
                self.txn_end += size;
            }
        }
    }
    #[inline]
    fn timer(&self, t: TransportTimer) -> Option<Time> {
        match t {
            TransportTimer::Rto => self.snd.timer(),
            TransportTimer::DelAck => self.rcv.timer(),
            TransportTimer::App | TransportTimer::Pace => None,
        }
    }
    fn series(&self, k: usize) -> f64 {
        self.snd.series(k)
    }
    fn start_window(&mut self) {
        self.goodput_w0 = self.rcv.bytes_delivered();
        self.txns_w0 = self.txns;
        self.txn_latency_w0 = self.txn_latency;
    }
    /// The fields declared in `tcp::METRICS`.
    fn report(&self, in_window: bool, window_s: f64) -> Value {
        let per_s = |x: f64| if window_s > 0.0 { x / window_s } else { 0.0 };
        let good = if in_window { self.rcv.bytes_delivered() - self.goodput_w0 } else { 0 };
        let txns = if in_window { self.txns - self.txns_w0 } else { 0 };
        let lat = if in_window { self.txn_latency - self.txn_latency_w0 } else { 0 };
        let s = &self.snd;
        json!({
            "tcp_goodput_bps": per_s(good as f64 * 8.0), "tcp_bytes_acked": s.bytes_acked,
            "tcp_retransmissions": s.retransmissions, "tcp_fast_retransmits": s.fast_retransmits,
            "tcp_timeouts": s.timeouts, "tcp_cwnd": s.cwnd(), "tcp_ssthresh": s.ssthresh(),
            "tcp_srtt_s": s.srtt().map(to_secs), "tcp_rto_s": to_secs(s.rto()),
            "tcp_ecn_reductions": s.ecn_reductions,
            "tcp_dctcp_alpha": (s.p.ecn == EcnMode::Dctcp).then(|| s.alpha()),
            "tcp_transactions_window": txns, "tcp_transactions_per_s": per_s(txns as f64),
            "tcp_transaction_latency_s": if txns > 0 { Some(to_secs(lat) / txns as f64) } else { None },
        })
    }
    fn segment_bytes(&self) -> (u32, u32) {
        (self.snd.p.mss, HEADER_BYTES)
    }
    fn ack_bytes(&self) -> u32 {
        self.ack_size
    }
    /// With ECN, CE marks cut the window (RFC 3168 §6.1.2; DCTCP by the marked fraction, RFC 8257
    /// §3.4): on a path where no queue marks, only losses do.
    fn cut_by_marks(&self) -> Option<&'static str> {
        match self.snd.p.ecn {
            EcnMode::Off => None,
            EcnMode::Classic => Some("tcp.ecn = \"classic\""),
            EcnMode::Dctcp => Some("tcp.ecn = \"dctcp\""),
        }
    }
    /// Its data frames carry IPv4 + TCP (`wire::segment`), sequence numbers in bytes.
    fn wire(&self, c: &mut Ctx) {
        c.segment = Some(super::wire::segment);
        c.mss = self.snd.p.mss;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};

    /// Runs one connection's two ends back to back (no delay, no loss) until nothing moves;
    /// returns what the acknowledgements led to.
    fn exchange(c: &mut TcpFlow, now: Time) -> Vec<Acked> {
        let mut out = vec![];
        loop {
            let mut acks = vec![];
            while let Some(d) = c.poll_send(now) {
                let mut f = Frame::new(FrameKind::Data, d.size, 0, Dest::Node(1), 0, now);
                (f.seq, f.ecn) = (d.seq, d.ecn);
                let due = c.on_data(&f, now).expect("a TCP segment");
                if !due {
                    if let Some(at) = c.timer(TransportTimer::DelAck) {
                        assert!(c.on_delayed_ack(at));
                    }
                }
                let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, now);
                c.write_ack(&mut a, 0);
                acks.push(a);
            }
            if acks.is_empty() {
                return out;
            }
            out.extend(acks.iter().filter(|a| a.kind == FrameKind::Ack).map(|a| c.on_ack(a, now)));
        }
    }

    #[test]
    fn a_transfer_completes_when_its_last_byte_is_acknowledged() {
        let p = TcpParams::default();
        let mut c = TcpFlow::new(p, App::Transfer { size: 3 * p.mss as u64 + 1 }, 64);
        c.on_app(0);
        assert_eq!(c.segment_bytes(), (p.mss, HEADER_BYTES));
        let acked = exchange(&mut c, 0);
        assert_eq!(acked.iter().filter(|a| a.completed).count(), 1);
        assert!(acked.last().is_some_and(|a| a.completed && a.next_app.is_none()));
        assert_eq!(c.txns, 1);
    }

    #[test]
    fn a_transaction_schedules_the_next_after_its_idle_time() {
        let p = TcpParams::default();
        let idle = 5_000;
        let mut c = TcpFlow::new(p, App::Transactions { size: 1000, idle }, 64);
        c.on_app(10);
        let acked = exchange(&mut c, 20);
        assert_eq!(acked.iter().filter_map(|a| a.next_app).collect::<Vec<_>>(), vec![20 + idle]);
        assert!(acked.iter().all(|a| !a.completed));
        assert_eq!((c.txns, c.txn_latency), (1, 10));
    }

    #[test]
    fn acknowledgements_have_their_configured_size() {
        let mut c = TcpFlow::new(TcpParams::default(), App::Bulk, 80);
        let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, 0);
        c.write_ack(&mut a, 0);
        assert_eq!((a.size, c.ack_bytes()), (80, 80));
    }
}
