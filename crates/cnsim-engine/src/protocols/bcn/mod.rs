//! Backward Congestion Notification, enhanced form with the capacity field (seed
//! Jiang & Jain 2007 §IV; docs/protocols.md §6).
//!
//! Congestion point (§IV.A, §IV.E): each arriving data frame is sampled with probability Pm. For a
//! sampled frame, with q the queue in frames and e = (Qeq − q) − W·(q_a − q_d) (eq. 1). A frame is
//! `simulation.frame_size` bytes, as for every queue length in frames (docs/scenarios.md): q is
//! the queued bytes ÷ frame_size, so 64-B messages or ACKs in the queue count for what they hold.
//!
//! | sampled frame | q ≤ Qeq | Qeq < q ≤ Qsc | q > Qsc |
//! |---|---|---|---|
//! | no rate-regulator tag (RRT) | nothing | normal BCN(e) | STOP |
//! | RRT with this CP's CPID | positive BCN(e) | normal BCN(e) | STOP |
//! | RRT with another CPID | nothing | normal BCN(e) | STOP |
//!
//! q_a − q_d, the frames that arrived minus those served since the last sample, is the change of
//! the queue length since the last sample (arrivals counted when the queue accepts them). The seed
//! writes "q < Qeq" and "Qeq < q"; q = Qeq falls in the first column here.
//!
//! Source (§IV.B–D): the first BCN message creates the flow's rate regulator (at the line rate);
//! every frame through it carries the RRT with the regulator's CPID. A message with e > 0 adds
//! Gi·e·Ru, one with e < 0 multiplies the rate by (1 + Gd·e) (eq. 2); Ru is a fixed rate or, in the
//! enhanced BCN, a fraction of the capacity C the message carries (§VI.B: 0.8 Mb/s at 1 Gb/s and
//! 8 Mb/s at 10 Gb/s). STOP sets the rate to 0 for a random time U[0, Tmax], then to C/100.
//! Open points, made parameters: which CPID the regulator keeps (default: that of the latest
//! negative message), the rate's floor (default 1 Mb/s), the largest cut one message makes (eq. 2's
//! factor 1 + Gd·e is negative for e < −1/Gd; default: at most halve, as QCN) and when the
//! regulator goes away (default: back at line rate with nothing waiting, as QCN's limiter).

pub mod spec;
pub mod wire;
mod register;
pub use register::PROTOCOL;

use crate::core::rng::Rng;
use crate::core::time::{Time, PS_PER_S};
use crate::net::frame::{Dest, Frame, FrameKind, NodeId, NONE};
use crate::slots::Proto;
use crate::slots::metrics::Metric;
use crate::slots::cp::CpMachine;
use crate::slots::rp::RpMachine;
use crate::slots::QueueView;
use crate::slots::{Sent, TimerAction};
use serde_json::{json, Value};

/// BCN congestion point parameters, in frames as the seed gives them.
#[derive(Clone, Copy, Debug)]
pub struct CpParams {
    /// Sampling probability Pm (Jiang & Jain 2007 §VI.A: 0.01 by default in docs/protocols.md §6).
    pub pm: f64,
    /// Equilibrium queue Qeq and STOP threshold Qsc, in frames (16 and 80, §VI.A).
    pub qeq: f64,
    pub qsc: f64,
    /// Bytes of one frame of the thresholds (`simulation.frame_size`).
    pub frame: u32,
    /// Weight of the queue change, W = 2.
    pub w: f64,
    /// Size of a BCN message on the wire (64 B: the seed gives none).
    pub msg_size: u32,
}

/// What a BCN message says (tag area: [CPID, e as f32 bits, C in kb/s, STOP flag]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Message {
    pub cpid: u32,
    pub e: f32,
    /// Capacity of the congested link, bit/s (kept in kb/s on the wire).
    pub capacity_bps: u64,
    pub stop: bool,
}

impl Message {
    pub fn frame(self, data: &Frame, node: NodeId, size: u32, now: Time) -> Frame {
        let mut f = Frame::new(FrameKind::Feedback, size, node, Dest::Node(data.src), data.flow, now);
        f.proto = Proto::Bcn;
        f.prio = data.prio;
        let kbps = (self.capacity_bps / 1000).min(u32::MAX as u64) as u32;
        f.tag = [self.cpid, self.e.to_bits(), kbps, self.stop as u32];
        f
    }
    pub fn read(f: &Frame) -> Option<Self> {
        (f.proto == Proto::Bcn && f.kind == FrameKind::Feedback).then(|| Message {
            cpid: f.tag[0],
            e: f32::from_bits(f.tag[1]),
            capacity_bps: f.tag[2] as u64 * 1000,
            stop: f.tag[3] != 0,
        })
    }
}

/// The rate-regulator tag (RRT) of a data frame: the CPID of the regulator it went through and
/// when it left the source. BCN and its successor ECM share it (Roeck 2007 §"Simulated protocols":
/// ECM keeps BCN's tags with CPID association and echoes the send time back to measure the RTT).
/// Tag area: [CPID, sent low 32 bits, sent high 32 bits, 0].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rrt {
    pub cpid: u32,
    pub sent: Time,
}

impl Rrt {
    #[inline]
    pub fn write(self, f: &mut Frame) {
        f.proto = Proto::Bcn;
        f.tag = [self.cpid, self.sent as u32, (self.sent >> 32) as u32, 0];
    }
    #[inline]
    pub fn read(f: &Frame) -> Option<Self> {
        (f.proto == Proto::Bcn && f.kind == FrameKind::Data)
            .then(|| Rrt { cpid: f.tag[0], sent: f.tag[1] as Time | (f.tag[2] as Time) << 32 })
    }
}

/// The CPID a data frame's rate-regulator tag carries, if it has one.
#[inline]
pub fn rrt(f: &Frame) -> Option<u32> {
    Rrt::read(f).map(|t| t.cpid)
}

/// The feedback values e of the BCN messages a CP sent (normal, positive and STOP), since the
/// measurement window started (Jiang & Jain 2007 §VI.E compares e's size with one and four sources).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeedbackStats {
    pub n: u64,
    pub sum: f64,
    pub sum_abs: f64,
    pub min: f64,
    pub max: f64,
}

impl Default for FeedbackStats {
    fn default() -> Self {
        FeedbackStats { n: 0, sum: 0.0, sum_abs: 0.0, min: f64::INFINITY, max: f64::NEG_INFINITY }
    }
}

impl FeedbackStats {
    fn add(&mut self, e: f64) {
        self.n += 1;
        self.sum += e;
        self.sum_abs += e.abs();
        self.min = self.min.min(e);
        self.max = self.max.max(e);
    }
    /// (mean e, mean |e|, min, max), None without a message.
    pub fn summary(&self) -> Option<(f64, f64, f64, f64)> {
        (self.n > 0).then(|| (self.sum / self.n as f64, self.sum_abs / self.n as f64, self.min, self.max))
    }
}

/// BCN at one output queue.
#[derive(Clone, Debug)]
pub struct CongestionPoint {
    pub p: CpParams,
    q_last: f64,
    /// e of the messages sent since `start_window` (since the start before it).
    pub e_window: FeedbackStats,
}

impl CongestionPoint {
    pub fn new(p: CpParams) -> Self {
        CongestionPoint { p, q_last: 0.0, e_window: FeedbackStats::default() }
    }

    /// The measurement window starts: forget the feedback values seen so far.
    pub fn start_window(&mut self) {
        self.e_window = FeedbackStats::default();
    }

    /// A data frame was offered to the queue, which now holds `q_bytes`; `cpid` identifies this
    /// CP and `capacity_bps` its link. Returns the message to send to the frame's source, if any.
    pub fn on_arrival(&mut self, f: &Frame, q_bytes: u64, cpid: u32, capacity_bps: u64, rng: &mut Rng) -> Option<Message> {
        if !rng.bernoulli(self.p.pm) {
            return None;
        }
        let q = q_bytes as f64 / self.p.frame as f64;
        let e = (self.p.qeq - q) - self.p.w * (q - self.q_last);
        self.q_last = q;
        let stop = if q > self.p.qsc {
            true
        } else if q > self.p.qeq || rrt(f) == Some(cpid) {
            // Normal feedback above Qeq; below it, positive feedback only to a regulator that is
            // associated with this CP.
            false
        } else {
            return None;
        };
        let m = Message { cpid, e: e as f32, capacity_bps, stop };
        self.e_window.add(m.e as f64); // the value the message carries
        Some(m)
    }
}

/// Which CPID a regulator keeps (the tag its frames carry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Association {
    /// The CPID of the message that created the regulator, for good.
    First,
    /// The CPID of the latest negative message (the CP that last asked for a decrease).
    LatestNegative,
}

#[derive(Clone, Copy, Debug)]
pub struct RpParams {
    pub line_rate: f64,
    pub gi: f64,
    pub gd: f64,
    /// Fixed rate unit Ru (bit/s), used when `ru_fraction` is None.
    pub ru: f64,
    /// Enhanced BCN: Ru = ru_fraction × C from the message.
    pub ru_fraction: Option<f64>,
    /// Floor of the regulated rate (bit/s) outside STOP.
    pub min_rate: f64,
    /// Smallest factor one negative message may multiply the rate by: eq. 2's 1 + Gd·e turns
    /// negative for e < −1/Gd (−81 frames at Gd 0.0124), which the seed does not address; 0.5
    /// by default, as QCN's MIN_DEC_FACTOR.
    pub min_dec_factor: f64,
    /// STOP lasts U[0, stop_max].
    pub stop_max: Time,
    pub association: Association,
}

/// The source side: one rate regulator per flow.
#[derive(Clone, Debug)]
pub struct ReactionPoint {
    pub p: RpParams,
    pub rate: f64,
    /// The regulator exists (frames are tagged) and its CPID.
    pub active: bool,
    pub cpid: u32,
    /// In a STOP: rate 0 until the timer fires, then C/100.
    stopped_until: Option<(Time, f64)>,
    pub messages: u64,
    pub stops: u64,
    pub regulators_created: u64,
    pub first_message: Option<Time>,
}

impl ReactionPoint {
    pub fn new(p: RpParams) -> Self {
        ReactionPoint { p, rate: p.line_rate, active: false, cpid: NONE, stopped_until: None, messages: 0, stops: 0, regulators_created: 0, first_message: None }
    }

    /// The regulator's rate when it limits (0 during a STOP).
    #[inline]
    pub fn limit(&self) -> Option<f64> {
        self.active.then_some(self.rate)
    }

    /// Tag a data frame leaving at `now` with the RRT when the regulator exists.
    #[inline]
    pub fn stamp(&self, f: &mut Frame, now: Time) {
        if self.active {
            Rrt { cpid: self.cpid, sent: now }.write(f);
        }
    }

    /// A BCN message arrived at `now`.
    pub fn on_message(&mut self, m: &Message, now: Time, rng: &mut Rng) -> TimerAction {
        self.messages += 1;
        self.first_message.get_or_insert(now);
        if !self.active {
            self.active = true;
            self.regulators_created += 1;
            self.rate = self.p.line_rate;
            self.cpid = m.cpid;
        }
        if m.stop {
            self.stops += 1;
            let recover = m.capacity_bps as f64 / 100.0;
            let until = now + (self.p.stop_max as f64 * rng.uniform()) as Time;
            self.stopped_until = Some((until, recover));
            self.rate = 0.0;
            return TimerAction::Arm(until);
        }
        if self.stopped_until.is_some() {
            return TimerAction::None; // a STOP runs its course; its end sets the rate
        }
        let e = m.e as f64;
        if e > 0.0 {
            let ru = self.p.ru_fraction.map_or(self.p.ru, |k| k * m.capacity_bps as f64);
            self.rate += self.p.gi * e * ru;
        } else if e < 0.0 {
            self.rate *= (1.0 + self.p.gd * e).max(self.p.min_dec_factor);
            if self.p.association == Association::LatestNegative {
                self.cpid = m.cpid;
            }
        }
        self.rate = self.rate.clamp(self.p.min_rate.min(self.p.line_rate), self.p.line_rate);
        TimerAction::None
    }

    /// The STOP timer fired: restart at C/100.
    pub fn on_timer(&mut self, now: Time) -> TimerAction {
        if let Some((until, recover)) = self.stopped_until {
            if now >= until {
                self.stopped_until = None;
                self.rate = recover.clamp(self.p.min_rate.min(self.p.line_rate), self.p.line_rate);
            }
        }
        TimerAction::None
    }

    /// The regulator sent a frame; it goes away back at line rate with nothing waiting.
    pub fn on_sent(&mut self, queue_empty: bool) -> TimerAction {
        if self.active && queue_empty && self.stopped_until.is_none() && self.rate >= self.p.line_rate {
            self.active = false;
            self.cpid = NONE;
        }
        TimerAction::None
    }
}

/// Default STOP length bound: the seed gives none; 1 ms is about 800 frame times at 10 Gb/s.
pub const DEFAULT_STOP_MAX: Time = PS_PER_S / 1000;

/// What BCN reports (declared once).
pub const METRICS: &[Metric] = &[
    Metric { scope: "frames", name: "bcn_sent", unit: "frames", kind: "counter", doc: "BCN messages sent by congestion points" },
    Metric { scope: "frames", name: "bcn_received", unit: "frames", kind: "counter", doc: "BCN messages that reached their flow's source" },
    Metric { scope: "rps", name: "bcn_messages", unit: "frames", kind: "counter", doc: "BCN messages received by the source (normal, positive and STOP)" },
    Metric { scope: "rps", name: "bcn_stops", unit: "frames", kind: "counter", doc: "BCN STOP messages received" },
    Metric { scope: "rps", name: "regulators_created", unit: "count", kind: "counter", doc: "rate regulators created (one per CPID association)" },
    Metric { scope: "rps", name: "first_message_s", unit: "s", kind: "time", doc: "arrival of the first BCN message at the source" },
    Metric { scope: "rps", name: "rate_final_bps", unit: "bit/s", kind: "gauge", doc: "the regulator's rate at the end of the run" },
    Metric { scope: "queues", name: "bcn_e_mean", unit: "frames", kind: "gauge", doc: "mean feedback e = (Qeq − q) − W·(q_a − q_d) of the BCN messages this CP sent in the window (normal, positive and STOP; absent without one)" },
    Metric { scope: "queues", name: "bcn_e_abs_mean", unit: "frames", kind: "gauge", doc: "mean |e| of the BCN messages this CP sent in the window" },
    Metric { scope: "queues", name: "bcn_e_min", unit: "frames", kind: "gauge", doc: "most negative e of a BCN message this CP sent in the window" },
    Metric { scope: "queues", name: "bcn_e_max", unit: "frames", kind: "gauge", doc: "largest e of a BCN message this CP sent in the window" },
];

/// BCN's rate regulator in the engine's reaction-point slot (`slots::rp`).
impl RpMachine for ReactionPoint {
    /// Only a CP's negative BCN messages create and cut the regulator (Jiang & Jain 2007 §IV.C): `rp = bcn`.
    fn cut_by_cp_only(&self) -> Option<&'static str> {
        Some("bcn")
    }
    #[inline]
    fn limit(&self) -> Option<f64> {
        ReactionPoint::limit(self)
    }
    #[inline]
    fn rate(&self) -> f64 {
        self.rate
    }
    fn feedback_received(&self) -> u64 {
        self.messages
    }
    /// The rate-regulator tag (§IV.C).
    #[inline]
    fn stamp(&mut self, f: &mut Frame, now: Time) {
        ReactionPoint::stamp(self, f, now)
    }
    #[inline]
    fn on_sent(&mut self, _len: u32, queue_empty: bool, _rng: &mut Rng) -> Sent {
        let before = self.rate;
        let timer = ReactionPoint::on_sent(self, queue_empty);
        Sent { timer, limit: ReactionPoint::limit(self), rate_changed: self.rate != before, path_control_due: false }
    }
    fn on_feedback(&mut self, f: &Frame, now: Time, rng: &mut Rng) -> TimerAction {
        Message::read(f).map_or(TimerAction::None, |m| self.on_message(&m, now, rng))
    }
    fn on_timer(&mut self, now: Time, _queue_empty: bool, _rng: &mut Rng) -> TimerAction {
        ReactionPoint::on_timer(self, now)
    }
    fn report(&self) -> Value {
        json!({
            "protocol": "bcn", "rate_final_bps": self.rate, "bcn_messages": self.messages, "bcn_stops": self.stops,
            "regulators_created": self.regulators_created, "first_message_s": self.first_message.map(crate::core::time::to_secs),
            "feedback_received": self.messages,
        })
    }
}

/// A BCN congestion point with its random stream, in the engine's congestion-point slot.
pub struct BcnCp {
    pub cp: CongestionPoint,
    pub rng: Rng,
}

impl CpMachine for BcnCp {
    #[inline]
    fn on_data(&mut self, f: &Frame, _accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        let m = self.cp.on_arrival(f, q.bytes, cpid, q.rate_bps, &mut self.rng)?;
        Some(m.frame(f, node, self.cp.p.msg_size, now))
    }
    /// e, in frames.
    fn feedback_value(&self, fb: &Frame) -> f64 {
        Message::read(fb).map_or(f64::NAN, |m| m.e as f64)
    }
    fn start_window(&mut self) {
        self.cp.start_window()
    }
    fn report(&self, in_window: bool) -> Value {
        match self.cp.e_window.summary().filter(|_| in_window) {
            Some((mean, abs_mean, min, max)) => json!({"bcn_e_mean": mean, "bcn_e_abs_mean": abs_mean, "bcn_e_min": min, "bcn_e_max": max}),
            None => json!({}),
        }
    }
    /// Qeq is given in frames: in bytes of `frame`.
    fn qeq(&self, frame: u64) -> u64 {
        (self.cp.p.qeq * frame as f64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPID: u32 = 7;

    fn cp() -> CongestionPoint {
        // Jiang & Jain 2007 §VI.A: Qeq 16, Qsc 80, W 2; sample every frame to test the table.
        CongestionPoint::new(CpParams { pm: 1.0, qeq: 16.0, qsc: 80.0, w: 2.0, msg_size: 64, frame: 1000 })
    }
    fn data(tag: Option<u32>) -> Frame {
        let mut f = Frame::new(FrameKind::Data, 1500, 3, Dest::Node(9), 5, 0);
        if let Some(c) = tag {
            f.proto = Proto::Bcn;
            f.tag = [c, 0, 0, 0];
        }
        f
    }
    fn rng() -> Rng {
        Rng::stream(1, "t", "bcn")
    }

    #[test]
    fn message_choice_for_every_case_of_the_table() {
        let r = &mut rng();
        let c = 10_000_000_000;
        // Below Qeq: untagged → nothing; tagged by this CP → positive; tagged by another → nothing.
        let mut a = cp();
        assert_eq!(a.on_arrival(&data(None), 10_000, CPID, c, r), None);
        let m = a.on_arrival(&data(Some(CPID)), 10_000, CPID, c, r).unwrap();
        assert_eq!((m.e, m.stop), (6.0, false)); // (16 − 10) − 2·(10 − 10)
        assert_eq!(a.on_arrival(&data(Some(CPID + 1)), 10_000, CPID, c, r), None);
        // Between Qeq and Qsc: normal BCN for every frame. q 10 → 30: e = (16 − 30) − 2·20 = −54.
        let m = a.on_arrival(&data(None), 30_000, CPID, c, r).unwrap();
        assert_eq!((m.e, m.stop, m.cpid, m.capacity_bps), (-54.0, false, CPID, c));
        assert!(a.on_arrival(&data(Some(CPID + 1)), 30_000, CPID, c, r).is_some());
        // Above Qsc: STOP, tagged or not.
        assert!(a.on_arrival(&data(None), 81_000, CPID, c, r).unwrap().stop);
        assert!(a.on_arrival(&data(Some(CPID)), 90_000, CPID, c, r).unwrap().stop);
        // At Qsc exactly: still normal.
        assert!(!a.on_arrival(&data(None), 80_000, CPID, c, r).unwrap().stop);
    }

    #[test]
    fn the_queue_counts_in_frames_of_frame_size() {
        // 15 data frames of 1000 B and 10 ACKs of 64 B: 15.64 frames, below Qeq = 16 (counted
        // physically, 25 frames, it would have been above).
        let (mut a, r) = (cp(), &mut rng());
        assert_eq!(a.on_arrival(&data(None), 15 * 1000 + 10 * 64, CPID, 1, r), None);
        // 16 data frames and one 64-B message: 16.064 frames, just above Qeq.
        let m = a.on_arrival(&data(None), 16 * 1000 + 64, CPID, 1, r).unwrap();
        assert!((m.e - (-0.064 - 2.0 * 0.424)).abs() < 1e-4, "{}", m.e);
    }

    #[test]
    fn feedback_statistics_of_the_messages_sent_in_the_window() {
        let (mut a, r) = (cp(), &mut rng());
        a.on_arrival(&data(None), 30_000, CPID, 1, r); // before the window: e = −14 − 2·30 = −74
        a.start_window();
        assert_eq!(a.e_window.summary(), None);
        // q 30 → 20: e = (16 − 20) − 2·(20 − 30) = 16; 20 → 20: e = −4; below Qeq untagged: no
        // message, not counted (its e would be 16 − 10 + 20 = 26); q 10 → 12, tagged: e = 4 − 4 = 0.
        assert_eq!(a.on_arrival(&data(None), 20_000, CPID, 1, r).unwrap().e, 16.0);
        assert_eq!(a.on_arrival(&data(None), 20_000, CPID, 1, r).unwrap().e, -4.0);
        assert_eq!(a.on_arrival(&data(None), 10_000, CPID, 1, r), None);
        assert_eq!(a.on_arrival(&data(Some(CPID)), 12_000, CPID, 1, r).unwrap().e, 0.0);
        // above Qsc: STOP with q 12 → 90, e = −74 − 156 = −230
        assert!(a.on_arrival(&data(None), 90_000, CPID, 1, r).unwrap().stop);
        let (mean, abs_mean, min, max) = a.e_window.summary().unwrap();
        assert_eq!((a.e_window.n, min, max), (4, -230.0, 16.0));
        assert_eq!((mean, abs_mean), ((16.0 - 4.0 + 0.0 - 230.0) / 4.0, (16.0 + 4.0 + 230.0) / 4.0));
    }

    #[test]
    fn sampling_probability() {
        let mut a = CongestionPoint::new(CpParams { pm: 0.01, ..cp().p });
        let r = &mut rng();
        let n = (0..200_000).filter(|_| a.on_arrival(&data(None), 40_000, CPID, 1, r).is_some()).count();
        assert!((1800..2200).contains(&n), "{n}");
    }

    #[test]
    fn message_round_trips_through_the_tag_area() {
        let m = Message { cpid: 4, e: -12.5, capacity_bps: 10_000_000_000, stop: true };
        let f = m.frame(&data(None), 2, 64, 1);
        assert_eq!((f.dst, f.flow, f.kind, f.size), (Dest::Node(3), 5, FrameKind::Feedback, 64));
        assert_eq!(Message::read(&f), Some(m));
        assert_eq!(rrt(&data(Some(4))), Some(4));
        assert_eq!(rrt(&f), None);
        let mut g = data(None);
        Rrt { cpid: 4, sent: (5 << 32) + 7 }.write(&mut g);
        assert_eq!(Rrt::read(&g), Some(Rrt { cpid: 4, sent: (5 << 32) + 7 }));
    }

    fn rp() -> ReactionPoint {
        // Jiang & Jain 2007 §VI.A: Gi 4, Gd 0.0124, Ru 4 Mb/s, 10 Gb/s sources.
        ReactionPoint::new(RpParams {
            line_rate: 10e9,
            gi: 4.0,
            gd: 0.0124,
            ru: 4e6,
            ru_fraction: None,
            min_rate: 1e6,
            min_dec_factor: 0.0,
            stop_max: DEFAULT_STOP_MAX,
            association: Association::LatestNegative,
        })
    }
    fn msg(e: f32, cpid: u32) -> Message {
        Message { cpid, e, capacity_bps: 10_000_000_000, stop: false }
    }

    #[test]
    fn rate_update_by_hand() {
        let mut s = rp();
        let r = &mut rng();
        let mut f = data(None);
        s.stamp(&mut f, 0);
        assert_eq!(rrt(&f), None); // no regulator yet
        // e = −54: r = 10 Gb/s · (1 − 0.0124·54) = 10 Gb/s · 0.3304.
        s.on_message(&msg(-54.0, CPID), 5, r);
        assert!((s.rate - 3.304e9).abs() < 1.0, "{}", s.rate);
        assert_eq!((s.active, s.cpid, s.regulators_created, s.first_message), (true, CPID, 1, Some(5)));
        s.stamp(&mut f, 0);
        assert_eq!(rrt(&f), Some(CPID));
        // e = +6: r += 4 · 6 · 4 Mb/s = 96 Mb/s.
        s.on_message(&msg(6.0, CPID), 6, r);
        assert!((s.rate - 3.4e9).abs() < 1.0, "{}", s.rate);
        // Enhanced BCN: Ru = 8e-4 × C = 8 Mb/s at 10 Gb/s → += 4 · 6 · 8 Mb/s.
        s.p.ru_fraction = Some(8e-4);
        s.on_message(&msg(6.0, CPID), 7, r);
        assert!((s.rate - 3.592e9).abs() < 1.0, "{}", s.rate);
        // A negative message from another CP moves the association (default) …
        s.on_message(&msg(-1.0, CPID + 1), 8, r);
        assert_eq!(s.cpid, CPID + 1);
        // … a positive one does not.
        s.on_message(&msg(1.0, CPID), 9, r);
        assert_eq!(s.cpid, CPID + 1);
        // Never below the floor, never above the line rate.
        s.on_message(&msg(-1000.0, CPID), 10, r);
        assert_eq!(s.rate, 1e6);
        // With the default largest cut, e = −1000 only halves.
        let mut h = ReactionPoint { rate: 5e9, active: true, ..rp() };
        h.p.min_dec_factor = 0.5;
        h.on_message(&msg(-1000.0, CPID), 12, r);
        assert_eq!(h.rate, 2.5e9);
        s.on_message(&msg(1e6, CPID), 11, r);
        assert_eq!(s.rate, 10e9);
    }

    #[test]
    fn stop_then_restart_at_c_over_100() {
        let mut s = rp();
        let r = &mut rng();
        let TimerAction::Arm(until) = s.on_message(&Message { stop: true, ..msg(-70.0, CPID) }, 1000, r) else { panic!() };
        assert!((1000..=1000 + DEFAULT_STOP_MAX).contains(&until));
        assert_eq!((s.rate, s.limit(), s.stops), (0.0, Some(0.0), 1));
        s.on_message(&msg(5.0, CPID), 1001, r); // ignored during the STOP
        assert_eq!(s.rate, 0.0);
        assert_eq!(s.on_sent(true), TimerAction::None);
        assert!(s.active); // not released while stopped
        s.on_timer(until);
        assert_eq!(s.rate, 1e8); // C/100 = 100 Mb/s
    }

    #[test]
    fn regulator_released_back_at_line_rate() {
        let mut s = rp();
        let r = &mut rng();
        s.on_message(&msg(-1.0, CPID), 0, r);
        s.on_sent(false);
        assert!(s.active);
        s.on_message(&msg(1e6, CPID), 1, r);
        s.on_sent(true);
        assert!(!s.active && s.limit().is_none());
    }
}
