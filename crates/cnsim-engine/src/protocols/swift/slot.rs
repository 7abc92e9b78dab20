//! Swift in the closed-loop transport slot (`slots::transport`): a connection's window-clocked
//! (or, below one packet, paced) sender and its receiver, which acknowledges every data frame with
//! the frame's send time, its own endpoint delay and the path's hop count.

use super::wire::{self, Echo, HEADER_BYTES};
use super::{Swift, SwiftParams};
use crate::core::time::{to_secs, Time};
use crate::net::frame::Frame;
use crate::slots::reliable::Reliable;
use crate::slots::transport::{Acked, App, AppRun, Data, TransportMachine, TransportTimer};
use crate::slots::wire::Ctx;
use serde_json::{json, Value};

/// One Swift connection: both ends, its windows and its application.
#[derive(Clone, Debug)]
pub struct SwiftFlow {
    pub cc: Swift,
    pub rel: Reliable,
    pub app: AppRun,
    pub ack_size: u32,
    /// Below one packet of window: the next frame may go at this time.
    next_send: Time,
    /// The receiver: what the acknowledgement due echoes, and when its data frame arrived.
    echo: Echo,
    arrived: Time,
    goodput_w0: u64,
    /// Fabric delay and target summed over the ACKs since the window started, and their count.
    delay_sum: f64,
    target_sum: f64,
    samples: u64,
}

impl SwiftFlow {
    pub fn new(p: SwiftParams, init_cwnd: f64, mss: u32, rto: Time, app: App, ack_size: u32) -> Self {
        SwiftFlow {
            cc: Swift::new(p, init_cwnd),
            rel: Reliable::new(mss, rto),
            app: AppRun::new(app),
            ack_size,
            next_send: 0,
            echo: Echo::default(),
            arrived: 0,
            goodput_w0: 0,
            delay_sum: 0.0,
            target_sum: 0.0,
            samples: 0,
        }
    }

    /// Whether the window lets a frame go now (at or above one packet: fewer in flight than the
    /// window; below: one at a time, paced).
    fn window_open(&self, now: Time) -> bool {
        let w = self.cc.cwnd();
        if w >= 1.0 { (self.rel.in_flight() as f64) < w } else { self.rel.in_flight() == 0 && now >= self.next_send }
    }
}

impl TransportMachine for SwiftFlow {
    const SERIES: &'static [&'static str] = &super::SERIES;

    #[inline]
    fn poll_send(&mut self, now: Time) -> Option<Data> {
        if !self.rel.can_send() || !self.window_open(now) {
            return None;
        }
        let (seq, payload) = self.rel.send(now);
        if let Some(gap) = self.cc.pacing_gap() {
            self.next_send = now.saturating_add(gap);
        }
        Some(Data { seq, size: payload + HEADER_BYTES, ecn: 0 })
    }
    #[inline]
    fn stamp(&mut self, f: &mut Frame, now: Time) {
        wire::stamp(f, now);
    }
    /// Every data frame is acknowledged at once (in order or not: the ACK says what is expected).
    #[inline]
    fn on_data(&mut self, f: &Frame, now: Time) -> Option<bool> {
        let (sent, hops) = wire::read_data(f)?;
        self.rel.receive(f.seq, f.size.saturating_sub(HEADER_BYTES));
        self.echo = Echo { sent, endpoint_delay: 0, hops };
        self.arrived = now;
        Some(true)
    }
    fn on_delayed_ack(&mut self, _now: Time) -> bool {
        false
    }
    /// The endpoint delay is the time the receiver held the data frame before this ACK.
    #[inline]
    fn write_ack(&mut self, f: &mut Frame, now: Time) {
        f.size = self.ack_size;
        let e = Echo { endpoint_delay: now.saturating_sub(self.arrived), ..self.echo };
        wire::write_ack(f, self.rel.expected(), e);
    }
    #[inline]
    fn on_ack(&mut self, f: &Frame, now: Time) -> Acked {
        let Some((expected, e)) = wire::read_ack(f) else { return Acked::default() };
        let bytes = self.rel.on_ack(expected, now);
        let acked = bytes as f64 / self.rel.mss as f64;
        self.cc.on_ack(now, now.saturating_sub(e.sent), e.endpoint_delay, e.hops, acked);
        if let Some(d) = self.cc.delay {
            self.delay_sum += d as f64;
            self.target_sum += self.cc.target;
            self.samples += 1;
        }
        self.app.on_acked(self.rel.bytes_acked(), now)
    }
    fn on_timeout(&mut self, now: Time) {
        self.cc.on_timeout(now);
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
            // Paced only below one packet, and only while nothing is in flight (an ACK reopens it).
            TransportTimer::Pace => (self.rel.can_send() && self.cc.cwnd() < 1.0 && self.rel.in_flight() == 0).then_some(self.next_send),
            TransportTimer::DelAck | TransportTimer::App => None,
        }
    }
    fn series(&self, k: usize) -> f64 {
        match k {
            0 => self.cc.cwnd(),
            _ => self.cc.delay.map_or(f64::NAN, to_secs),
        }
    }
    fn start_window(&mut self) {
        self.goodput_w0 = self.rel.delivered();
        (self.delay_sum, self.target_sum, self.samples) = (0.0, 0.0, 0);
    }
    /// The fields declared in `swift::METRICS`.
    fn report(&self, in_window: bool, window_s: f64) -> Value {
        let good = if in_window && window_s > 0.0 { (self.rel.delivered() - self.goodput_w0) as f64 * 8.0 / window_s } else { 0.0 };
        let mean = |sum: f64| (in_window && self.samples > 0).then(|| sum / self.samples as f64 / 1e12);
        json!({
            "swift_cwnd": self.cc.cwnd(), "swift_fcwnd": self.cc.fcwnd, "swift_target_s": self.cc.target / 1e12,
            "swift_hops": self.cc.hops, "swift_delay_mean_s": mean(self.delay_sum), "swift_target_mean_s": mean(self.target_sum),
            "swift_goodput_bps": good, "swift_bytes_acked": self.rel.bytes_acked(),
            "swift_decreases": self.cc.decreases, "swift_timeouts": self.rel.timeouts,
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
