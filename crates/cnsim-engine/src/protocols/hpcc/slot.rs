//! HPCC in the closed-loop transport slot (`slots::transport`): a connection's sender and
//! receiver, its application and its counts. The in-band telemetry an ACK echoes reaches the
//! sender through `on_telemetry`, just before the ACK itself (`on_ack`).

use super::receiver::{Ack, HpccReceiver};
use super::sender::HpccSender;
use super::{Params, ACK_BYTES, DATA_HEADER_BYTES};
use crate::core::time::{to_secs, Time};
use crate::net::frame::{Frame, FrameKind, Proto};
use crate::net::telemetry::Stack;
use crate::slots::transport::{Acked, App, AppRun, Data, TransportMachine, TransportTimer};
use crate::slots::wire::Ctx;
use serde_json::{json, Value};

/// The NACK flag in an ACK's tag area (`tag[0]`).
const NACK: u32 = 1;

/// An HPCC connection: both ends' state machines, its application and its counts.
pub struct HpccFlow {
    pub snd: HpccSender,
    pub rcv: HpccReceiver,
    pub app: AppRun,
    /// The acknowledgement `on_data` decided, until the engine has its frame.
    ack: Option<Ack>,
    /// The telemetry of the ACK about to arrive (`on_telemetry`, then `on_ack`).
    stack: Option<Stack>,
    /// ACKs whose stack had hops beyond `net::telemetry::MAX_HOPS` (not recorded).
    pub truncated: u64,
    bytes_acked_w0: u64,
}

impl HpccFlow {
    pub fn new(p: Params, app: App) -> Self {
        HpccFlow { snd: HpccSender::new(p), rcv: HpccReceiver::default(), app: AppRun::new(app), ack: None, stack: None, truncated: 0, bytes_acked_w0: 0 }
    }
}

impl TransportMachine for HpccFlow {
    const SERIES: &'static [&'static str] = &["hpcc_window_bytes", "hpcc_rate_bps", "hpcc_u_ratio"];

    #[inline]
    fn poll_send(&mut self, now: Time) -> Option<Data> {
        let s = self.snd.poll_send(now)?;
        Some(Data { seq: s.seq as u32, size: s.len + self.snd.cc.p.header_bytes, ecn: 0 })
    }
    #[inline]
    fn stamp(&mut self, f: &mut Frame, _now: Time) {
        f.proto = Proto::Hpcc;
    }
    #[inline]
    fn on_data(&mut self, f: &Frame, _now: Time) -> Option<bool> {
        let head = self.snd.cc.p.header_bytes;
        if f.kind != FrameKind::Data || f.proto != Proto::Hpcc || f.size < head {
            return None;
        }
        self.ack = self.rcv.on_data(f.seq, f.size - head);
        Some(self.ack.is_some())
    }
    fn on_delayed_ack(&mut self, _now: Time) -> bool {
        false
    }
    #[inline]
    fn write_ack(&mut self, f: &mut Frame, _now: Time) {
        f.size = ACK_BYTES;
        f.proto = Proto::Hpcc;
        if let Some(a) = self.ack.take() {
            f.ack = a.ack as u32;
            f.tag[0] = if a.nack { NACK } else { 0 };
        }
    }
    fn on_telemetry(&mut self, stack: &Stack, _now: Time) {
        self.stack = Some(*stack);
    }
    /// A transfer completes, and a transaction ends, when its last byte is acknowledged.
    #[inline]
    fn on_ack(&mut self, f: &Frame, now: Time) -> Acked {
        let stack = self.stack.take().unwrap_or_default();
        if f.kind == FrameKind::Ack && f.proto == Proto::Hpcc {
            let una = self.snd.snd_una;
            let ack = una.saturating_add_signed(f.ack.wrapping_sub(una as u32) as i32 as i64);
            self.truncated += (stack.missed > 0) as u64;
            self.snd.on_ack(ack, f.tag[0] & NACK != 0, stack.hops(), now);
        }
        self.app.on_acked(self.snd.snd_una, now)
    }
    fn on_timeout(&mut self, now: Time) {
        self.snd.on_timeout(now);
    }
    fn on_app(&mut self, now: Time) {
        let bytes = self.app.start(now);
        self.snd.push(bytes);
    }
    #[inline]
    fn timer(&self, t: TransportTimer) -> Option<Time> {
        match t {
            TransportTimer::Rto => self.snd.rto_timer(),
            TransportTimer::Pace => self.snd.pacing_timer(),
            TransportTimer::DelAck | TransportTimer::App => None,
        }
    }
    /// `SERIES`: the window W (bytes), the pacing rate W/T (b/s), the utilisation estimate U.
    fn series(&self, k: usize) -> f64 {
        match k {
            0 => self.snd.cc.w,
            1 => self.snd.cc.rate_bps(),
            _ => self.snd.cc.u,
        }
    }
    fn start_window(&mut self) {
        self.bytes_acked_w0 = self.snd.snd_una;
    }
    /// The fields declared in `hpcc::METRICS`.
    fn report(&self, in_window: bool, window_s: f64) -> Value {
        let acked = if in_window { self.snd.snd_una - self.bytes_acked_w0 } else { 0 };
        let c = &self.snd.cc;
        json!({
            "hpcc_goodput_bps": if window_s > 0.0 { acked as f64 * 8.0 / window_s } else { 0.0 },
            "hpcc_bytes_acked": self.snd.snd_una, "hpcc_window_bytes": c.w, "hpcc_rate_bps": c.rate_bps(),
            "hpcc_u": c.u, "hpcc_base_rtt_s": to_secs(c.p.base_rtt), "hpcc_wc_updates": c.updates,
            "hpcc_reactions": c.reactions, "hpcc_retransmitted_bytes": self.snd.retransmitted_bytes,
            "hpcc_nacks": self.snd.nacks, "hpcc_timeouts": self.snd.timeouts, "hpcc_int_truncated": self.truncated,
        })
    }
    fn segment_bytes(&self) -> (u32, u32) {
        (self.snd.cc.p.mss, DATA_HEADER_BYTES)
    }
    fn ack_bytes(&self) -> u32 {
        ACK_BYTES
    }
    fn wire(&self, c: &mut Ctx) {
        c.segment = Some(super::wire::segment);
        c.mss = self.snd.cc.p.mss;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::Dest;
    use crate::net::telemetry::Hop;

    /// Runs a connection's two ends back to back through one telemetry hop whose record the test
    /// writes, until nothing moves; returns what the ACKs led to.
    fn exchange(c: &mut HpccFlow, mut now: Time) -> Vec<Acked> {
        let mut out = vec![];
        let mut tx = 0u64;
        loop {
            let Some(d) = c.poll_send(now).or_else(|| c.timer(TransportTimer::Pace).and_then(|t| { now = t; c.poll_send(now) })) else { return out };
            let mut f = Frame::new(FrameKind::Data, d.size, 0, Dest::Node(1), 0, now);
            f.seq = d.seq;
            c.stamp(&mut f, now);
            assert_eq!(c.on_data(&f, now), Some(true), "every data frame is acknowledged");
            let mut a = Frame::new(FrameKind::Ack, 0, 1, Dest::Node(0), 0, now);
            c.write_ack(&mut a, now);
            assert_eq!(a.size, ACK_BYTES);
            let mut s = Stack::default();
            s.push(Hop { ts: now, tx_bytes: tx, qlen: 0, rate_bps: 100_000_000_000 });
            tx += d.size as u64;
            c.on_telemetry(&s, now);
            out.push(c.on_ack(&a, now));
        }
    }

    #[test]
    fn a_transfer_completes_when_its_last_byte_is_acknowledged_and_every_ack_reacts() {
        let mut c = HpccFlow::new(Params::test(), App::Transfer { size: 5500 });
        c.on_app(0);
        let acked = exchange(&mut c, 0);
        assert_eq!(acked.len(), 6);
        assert!(acked.last().is_some_and(|a| a.completed) && acked.iter().filter(|a| a.completed).count() == 1);
        assert_eq!((c.snd.snd_una, c.snd.cc.reactions), (5500, 5));
        assert_eq!(c.segment_bytes(), (1000, DATA_HEADER_BYTES));
    }

    #[test]
    fn frames_of_another_protocol_are_not_its_data() {
        let mut c = HpccFlow::new(Params::test(), App::Bulk);
        let f = Frame::new(FrameKind::Data, 1100, 0, Dest::Node(1), 0, 0);
        assert_eq!(c.on_data(&f, 0), None);
    }
}
