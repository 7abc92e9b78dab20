//! TIMELY in the closed-loop transport slot (`slots::transport`): a connection's paced sender and
//! its receiver, which acknowledges every data frame with the frame's send time echoed.

use super::wire::{self, HEADER_BYTES};
use super::{Timely, TimelyParams, METRICS};
use crate::core::time::{to_secs, Time};
use crate::net::frame::Frame;
use crate::slots::reliable::Reliable;
use crate::slots::transport::{Acked, App, AppRun, Data, TransportMachine, TransportTimer};
use crate::slots::wire::Ctx;
use serde_json::{json, Value};

/// One TIMELY connection: both ends, its rate and its application.
#[derive(Clone, Debug)]
pub struct TimelyFlow {
    pub cc: Timely,
    pub rel: Reliable,
    pub app: AppRun,
    pub ack_size: u32,
    /// The sender may send its next frame at this time (its rate's pacing).
    next_send: Time,
    /// The receiver: the send time the acknowledgement due echoes.
    echo: Time,
    goodput_w0: u64,
}

impl TimelyFlow {
    /// A connection starting at `init_rate` (bit/s), `mss` payload bytes per frame.
    pub fn new(p: TimelyParams, init_rate: f64, mss: u32, rto: Time, app: App, ack_size: u32) -> Self {
        TimelyFlow { cc: Timely::new(p, init_rate), rel: Reliable::new(mss, rto), app: AppRun::new(app), ack_size, next_send: 0, echo: 0, goodput_w0: 0 }
    }
}

impl TransportMachine for TimelyFlow {
    const SERIES: &'static [&'static str] = &super::SERIES;

    /// The next segment, when the rate's pacing lets it go.
    #[inline]
    fn poll_send(&mut self, now: Time) -> Option<Data> {
        if !self.rel.can_send() || now < self.next_send {
            return None;
        }
        let (seq, payload) = self.rel.send(now);
        let size = payload + HEADER_BYTES;
        self.next_send = now.saturating_add(self.cc.gap(size));
        Some(Data { seq, size, ecn: 0 })
    }
    #[inline]
    fn stamp(&mut self, f: &mut Frame, now: Time) {
        wire::stamp(f, now);
    }
    /// Every data frame is acknowledged at once (in order or not: the ACK says what is expected).
    #[inline]
    fn on_data(&mut self, f: &Frame, _now: Time) -> Option<bool> {
        let sent = wire::sent_at(f)?;
        self.rel.receive(f.seq, f.size.saturating_sub(HEADER_BYTES));
        self.echo = sent;
        Some(true)
    }
    fn on_delayed_ack(&mut self, _now: Time) -> bool {
        false
    }
    #[inline]
    fn write_ack(&mut self, f: &mut Frame, _now: Time) {
        f.size = self.ack_size;
        wire::write_ack(f, self.rel.expected(), self.echo);
    }
    /// The ACK's echoed send time gives the RTT sample; the acknowledged bytes count toward the
    /// next completion event.
    #[inline]
    fn on_ack(&mut self, f: &Frame, now: Time) -> Acked {
        let Some((expected, sent)) = wire::read_ack(f) else { return Acked::default() };
        let bytes = self.rel.on_ack(expected, now);
        self.cc.on_ack(bytes, now.saturating_sub(sent));
        self.app.on_acked(self.rel.bytes_acked(), now)
    }
    fn on_timeout(&mut self, now: Time) {
        self.rel.on_timeout(now);
    }
    fn on_app(&mut self, now: Time) {
        let bytes = self.app.start(now);
        self.rel.push(bytes);
    }
    #[inline]
    fn timer(&self, t: TransportTimer) -> Option<Time> {
        match t {
            TransportTimer::Rto => self.rel.rto_at(),
            TransportTimer::Pace => self.rel.can_send().then_some(self.next_send),
            TransportTimer::DelAck | TransportTimer::App => None,
        }
    }
    fn series(&self, k: usize) -> f64 {
        match k {
            0 => self.cc.rate,
            _ => self.cc.last_rtt.map_or(f64::NAN, to_secs),
        }
    }
    fn start_window(&mut self) {
        self.goodput_w0 = self.rel.delivered();
    }
    /// The fields declared in `timely::METRICS`.
    fn report(&self, in_window: bool, window_s: f64) -> Value {
        debug_assert!(METRICS.iter().any(|m| m.name == "timely_rate_bps"));
        let good = if in_window && window_s > 0.0 { (self.rel.delivered() - self.goodput_w0) as f64 * 8.0 / window_s } else { 0.0 };
        json!({
            "timely_rate_bps": self.cc.rate, "timely_rtt_s": self.cc.last_rtt.map(to_secs),
            "timely_updates": self.cc.updates, "timely_goodput_bps": good,
            "timely_bytes_acked": self.rel.bytes_acked(), "timely_retransmissions": self.rel.retransmissions,
            "timely_timeouts": self.rel.timeouts,
        })
    }
    fn segment_bytes(&self) -> (u32, u32) {
        (self.rel.mss, HEADER_BYTES)
    }
    fn ack_bytes(&self) -> u32 {
        self.ack_size
    }
    /// Its data frames carry IPv4 and a TCP-shaped header with the send time (`wire::segment`).
    fn wire(&self, c: &mut Ctx) {
        c.segment = Some(wire::segment);
        c.mss = self.rel.mss;
    }
}
