//! ECM, the Ethernet Congestion Manager: BCN's successor in the 802.1Qau debate, as Roeck 2007
//! (Roeck 2007, "Simulated protocols" and the backup slide "Simulation Parameters -
//! ECM") simulates it; docs/protocols.md §7. It keeps BCN's rate-regulator tag (RRT) with CPID
//! association (`bcn::Rrt`, shared, not copied) and adds positive feedback computed from the
//! queue, a drift, two congestion levels and RTT-triggered drops of CM messages.
//!
//! **Units.** The backup slide gives Qeq 375, Qsc 1600, Qmc 2400, Gi 0.53333, Gd 0.00026667 without
//! units. Read in 64-byte units they fit every other figure of the seed: Qeq = 375 × 64 B = 24 kB,
//! QCN's Qeq on the slide before; Fbmax = Qeq·(2W+1) = 1875 units, so Gd·Fbmax = 0.5 (the largest
//! cut halves the rate, as QCN's GD·63 ≈ ½) and Gi·Fbmax·Ru = 1 Gb/s with Ru = 1 Mb/s. Fb is
//! therefore computed in units of `unit` bytes (default 64) and clamped to [−Fbmax, Fbmax]
//! [assumed reading, a parameter].
//!
//! **Congestion point.** A byte counter samples one frame every `sample_interval` bytes
//! (samplingInterval 150 000 B ≈ 1 % of 1500-B frames), jittered U(0.85, 1.15) as QCN's [impl].
//! With q the queue after the offer, Qoff = q − Qeq, Qdelta = q − q_old (q_old = q at the last
//! sample), Fb = −(Qoff + W·Qdelta)/unit. The message for a sampled frame:
//!
//! | q | Fb < 0 | Fb > 0 |
//! |---|---|---|
//! | q ≤ Qeq | only to a frame tagged with this CPID | only to a frame tagged with this CPID |
//! | Qeq < q ≤ Qsc | to every frame | to every tagged frame (any CPID) |
//! | mild congestion, Qsc < q ≤ Qmc | Fb := min(Fb, −Qoff/unit), to every frame | — |
//! | severe congestion, q > Qmc | Fb := −Fbmax, to every frame | — |
//!
//! Negative feedback thus needs Qoff > 0 unless the frame is associated with this CP — the
//! property the seed credits for ECM's few spurious rate limiters ("protocols using Qoff to
//! determine if to send negative feedback"). The seed names the two levels' thresholds but not
//! their action; the reading above (above Qsc the draining term no longer softens the cut, above
//! Qmc the cut is the largest) is [assumed]. Qsat is "disabled" on the slide and not modelled.
//!
//! **Reaction point.** The first negative message creates the regulator at line rate. Negative
//! Fb: r ← r·max(min_dec_factor, 1 + Gd·Fb); the association moves to the sender's CPID
//! (`bcn::Association`, default latest negative). Positive Fb: r ← r + Gi·Fb·Ru; a positive
//! message from a CP other than the associated one is counted as a **false positive** (Roeck 2007,
//! 20-stage hotspot: "positive feedback from unexpected CP"). Drift: every Td without an accepted
//! message, r ← r + Rd. Floor Rmin, ceiling the line rate; the regulator goes away back at line
//! rate with nothing waiting (as BCN's and QCN's). **RTT-triggered CM drops** (Roeck 2007, "accept
//! only one RL packet per RTT from the same CPID"): with `rtt_drop` on, a message from a CPID whose
//! last accepted message is less than one RTT old is dropped; the RTT is `rtt` when given, else
//! measured as now − the send time the message echoes from the sampled frame's RRT (latest sample).

pub mod spec;
pub mod wire;
mod register;
pub use register::PROTOCOL;

use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameKind, NodeId, NONE};
use crate::slots::Proto;
use crate::protocols::bcn::{Association, Rrt};
use crate::slots::metrics::Metric;
use crate::slots::cp::CpMachine;
use crate::slots::rp::RpMachine;
use crate::slots::QueueView;
use crate::slots::{Sent, TimerAction};
use serde_json::{json, Value};

/// ECM congestion point parameters; queue amounts in bytes.
#[derive(Clone, Copy, Debug)]
pub struct CpParams {
    /// Qeq, Qsc (mild congestion above), Qmc (severe congestion above): 375, 1600, 2400 units.
    pub qeq: u64,
    pub qsc: u64,
    pub qmc: u64,
    /// W = 2.0.
    pub w: f64,
    /// Bytes per unit of Fb (64 B, see the module doc).
    pub unit: u64,
    /// samplingInterval, 150 000 B.
    pub sample_interval: u64,
    /// U(0.85, 1.15) on each sampling interval.
    pub jitter: bool,
    /// CM message size on the wire (64 B: the seed gives none).
    pub msg_size: u32,
}

impl CpParams {
    /// Fbmax = Qeq·(2W+1) in units.
    pub fn fb_max(&self) -> f64 {
        self.qeq as f64 / self.unit as f64 * (2.0 * self.w + 1.0)
    }
}

/// The congestion level of a sampled queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// q ≤ Qsc.
    Normal,
    /// Qsc < q ≤ Qmc.
    Mild,
    /// q > Qmc.
    Severe,
}

/// A CM message: tag area [CPID, Fb as f32 bits, echoed send time low, high] (`NO_ECHO` when the
/// sampled frame carried no RRT).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Message {
    pub cpid: u32,
    /// Feedback in units (negative: decrease).
    pub fb: f32,
    /// When the sampled frame left its source (from its RRT).
    pub echo: Option<Time>,
}

const NO_ECHO: Time = Time::MAX;

impl Message {
    pub fn frame(self, data: &Frame, node: NodeId, size: u32, now: Time) -> Frame {
        let mut f = Frame::new(FrameKind::Feedback, size, node, Dest::Node(data.src), data.flow, now);
        f.proto = Proto::Ecm;
        f.prio = data.prio;
        let e = self.echo.unwrap_or(NO_ECHO);
        f.tag = [self.cpid, self.fb.to_bits(), e as u32, (e >> 32) as u32];
        f
    }
    pub fn read(f: &Frame) -> Option<Self> {
        (f.proto == Proto::Ecm && f.kind == FrameKind::Feedback).then(|| {
            let e = f.tag[2] as Time | (f.tag[3] as Time) << 32;
            Message { cpid: f.tag[0], fb: f32::from_bits(f.tag[1]), echo: (e != NO_ECHO).then_some(e) }
        })
    }
}

/// ECM at one output queue.
#[derive(Clone, Debug)]
pub struct CongestionPoint {
    pub p: CpParams,
    q_old: u64,
    time_to_mark: i64,
}

impl CongestionPoint {
    pub fn new(p: CpParams) -> Self {
        CongestionPoint { p, q_old: 0, time_to_mark: p.sample_interval as i64 }
    }

    pub fn level(&self, q: u64) -> Level {
        if q > self.p.qmc {
            Level::Severe
        } else if q > self.p.qsc {
            Level::Mild
        } else {
            Level::Normal
        }
    }

    /// Fb in units for a sample at queue `q` bytes (updates q_old), with the congestion levels applied.
    pub fn feedback(&mut self, q: u64) -> f64 {
        let qoff = q as f64 - self.p.qeq as f64;
        let qdelta = q as f64 - self.q_old as f64;
        self.q_old = q;
        let u = self.p.unit as f64;
        let fb_max = self.p.fb_max();
        let fb = (-(qoff + self.p.w * qdelta) / u).clamp(-fb_max, fb_max);
        match self.level(q) {
            Level::Normal => fb,
            Level::Mild => fb.min((-qoff / u).max(-fb_max)),
            Level::Severe => -fb_max,
        }
    }

    /// A data frame `f` was offered to the queue, which now holds `q` bytes; `cpid` names this CP.
    /// Returns the message for the frame's source, if any.
    pub fn on_arrival(&mut self, f: &Frame, q: u64, cpid: u32, rng: &mut Rng) -> Option<Message> {
        self.time_to_mark -= f.size as i64;
        if self.time_to_mark > 0 {
            return None;
        }
        let j = if self.p.jitter { rng.range(0.85, 1.15) } else { 1.0 };
        self.time_to_mark = (self.p.sample_interval as f64 * j) as i64;
        let fb = self.feedback(q);
        let tag = Rrt::read(f);
        let own = tag.is_some_and(|t| t.cpid == cpid);
        let send = if q <= self.p.qeq {
            own && fb != 0.0
        } else if fb < 0.0 {
            true
        } else {
            fb > 0.0 && tag.is_some()
        };
        send.then(|| Message { cpid, fb: fb as f32, echo: tag.map(|t| t.sent) })
    }
}

#[derive(Clone, Copy, Debug)]
pub struct RpParams {
    pub line_rate: f64,
    /// Gi 0.53333, Gd 0.00026667 (per unit of Fb).
    pub gi: f64,
    pub gd: f64,
    /// Ru 1 Mb/s: rate per unit of positive Fb·Gi.
    pub ru: f64,
    /// Drift: + Rd (1 Mb/s) every Td (1 ms) without an accepted message.
    pub rd: f64,
    pub td: Time,
    /// Rmin, 1 Mb/s.
    pub min_rate: f64,
    /// Largest cut one message makes (0.5: with Fb ≥ −Fbmax and the slide's Gd it binds only by
    /// the slide's rounding, 1 − 0.00026667·1875 = 0.49999375).
    pub min_dec_factor: f64,
    pub association: Association,
    /// Accept at most one message per RTT from one CPID.
    pub rtt_drop: bool,
    /// The RTT used for the drops; None = measured from echoed send times.
    pub rtt: Option<Time>,
}

/// CPIDs remembered for RTT-triggered drops (the most recent ones; fixed size, no allocation).
const RECENT: usize = 4;

/// The source side of ECM: one rate regulator per flow.
#[derive(Clone, Debug)]
pub struct ReactionPoint {
    pub p: RpParams,
    pub rate: f64,
    pub active: bool,
    /// The associated CPID (the one its frames' RRT carries).
    pub cpid: u32,
    /// Last accepted message time per CPID, most recent first.
    recent: [(u32, Time); RECENT],
    /// Latest RTT sample.
    pub rtt_estimate: Option<Time>,
    pub messages: u64,
    pub positive: u64,
    pub negative: u64,
    pub rtt_dropped: u64,
    pub false_positives: u64,
    /// Times the association moved to another CP (CPID thrashing, Roeck 2007).
    pub cpid_changes: u64,
    pub limiters_created: u64,
    pub first_message: Option<Time>,
}

impl ReactionPoint {
    pub fn new(p: RpParams) -> Self {
        ReactionPoint {
            p,
            rate: p.line_rate,
            active: false,
            cpid: NONE,
            recent: [(NONE, 0); RECENT],
            rtt_estimate: None,
            messages: 0,
            positive: 0,
            negative: 0,
            rtt_dropped: 0,
            false_positives: 0,
            cpid_changes: 0,
            limiters_created: 0,
            first_message: None,
        }
    }

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

    /// Is a message from `cpid` at `now` within one RTT of the last accepted one from it?
    fn within_rtt(&self, cpid: u32, now: Time) -> bool {
        let Some(rtt) = self.p.rtt.or(self.rtt_estimate) else { return false };
        self.recent.iter().any(|&(c, t)| c == cpid && now.saturating_sub(t) < rtt)
    }

    fn remember(&mut self, cpid: u32, now: Time) {
        let i = self.recent.iter().position(|&(c, _)| c == cpid).unwrap_or(RECENT - 1);
        self.recent.copy_within(0..i, 1);
        self.recent[0] = (cpid, now);
    }

    /// A CM message arrived at `now`.
    pub fn on_message(&mut self, m: &Message, now: Time) -> TimerAction {
        self.messages += 1;
        self.first_message.get_or_insert(now);
        if let Some(sent) = m.echo.filter(|&s| s <= now) {
            self.rtt_estimate = Some(now - sent);
        }
        if self.p.rtt_drop {
            if self.within_rtt(m.cpid, now) {
                self.rtt_dropped += 1;
                return TimerAction::None;
            }
            self.remember(m.cpid, now);
        }
        let fb = m.fb as f64;
        if fb < 0.0 {
            self.negative += 1;
            if !self.active {
                self.active = true;
                self.limiters_created += 1;
                self.rate = self.p.line_rate;
                self.cpid = m.cpid;
            }
            self.rate *= (1.0 + self.p.gd * fb).max(self.p.min_dec_factor);
            if self.p.association == Association::LatestNegative && self.cpid != m.cpid {
                self.cpid_changes += 1;
                self.cpid = m.cpid;
            }
        } else if fb > 0.0 {
            if !self.active {
                return TimerAction::None; // nothing to raise
            }
            self.positive += 1;
            if m.cpid != self.cpid {
                self.false_positives += 1;
            }
            self.rate += self.p.gi * fb * self.p.ru;
        }
        if !self.active {
            return TimerAction::None;
        }
        self.rate = self.rate.clamp(self.p.min_rate.min(self.p.line_rate), self.p.line_rate);
        TimerAction::Arm(now + self.p.td)
    }

    /// Td passed without an accepted message: drift up by Rd (and go away at line rate with
    /// nothing waiting).
    pub fn on_timer(&mut self, now: Time, queue_empty: bool) -> TimerAction {
        if !self.active {
            return TimerAction::None;
        }
        self.rate = (self.rate + self.p.rd).min(self.p.line_rate);
        match self.maybe_release(queue_empty) {
            TimerAction::Cancel => TimerAction::Cancel,
            _ => TimerAction::Arm(now + self.p.td),
        }
    }

    /// The regulator sent a frame.
    pub fn on_sent(&mut self, queue_empty: bool) -> TimerAction {
        self.maybe_release(queue_empty)
    }

    fn maybe_release(&mut self, queue_empty: bool) -> TimerAction {
        if self.active && queue_empty && self.rate >= self.p.line_rate {
            self.active = false;
            self.cpid = NONE;
            return TimerAction::Cancel;
        }
        TimerAction::None
    }
}

/// What ECM reports besides the names it shares with BCN and QCN (`rate_final_bps`,
/// `first_message_s`, `feedback_received`, `limiters_created`).
pub const METRICS: &[Metric] = &[
    Metric { scope: "frames", name: "ecm_sent", unit: "frames", kind: "counter", doc: "ECM messages sent by congestion points" },
    Metric { scope: "frames", name: "ecm_received", unit: "frames", kind: "counter", doc: "ECM messages that reached their flow's source" },
    Metric { scope: "rps", name: "ecm_positive", unit: "frames", kind: "counter", doc: "ECM: positive CM messages accepted" },
    Metric { scope: "rps", name: "ecm_negative", unit: "frames", kind: "counter", doc: "ECM: negative CM messages accepted" },
    Metric { scope: "rps", name: "ecm_rtt_dropped", unit: "frames", kind: "counter", doc: "ECM: CM messages dropped because one from the same CPID was accepted less than one RTT earlier (Roeck 2007)" },
    Metric { scope: "rps", name: "false_positives", unit: "frames", kind: "counter", doc: "positive feedback from a CP other than the one the flow's regulator is associated with (Roeck 2007)" },
    Metric { scope: "rps", name: "cpid_changes", unit: "count", kind: "counter", doc: "times the CP limiting the flow changed (ECM: the association; QCN: the CPID of successive CNMs) — CPID thrashing (Roeck 2007)" },
    Metric { scope: "rps", name: "rtt_estimate_s", unit: "s", kind: "gauge", doc: "ECM: the latest RTT sample (now − echoed send time of the sampled frame)" },
];

/// ECM's rate regulator in the engine's reaction-point slot (`slots::rp`).
impl RpMachine for ReactionPoint {
    /// Only a CP's negative messages cut the rate; without them it only drifts up (Roeck 2007): `rp = ecm`.
    fn cut_by_cp_only(&self) -> Option<&'static str> {
        Some("ecm")
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
    fn on_feedback(&mut self, f: &Frame, now: Time, _rng: &mut Rng) -> TimerAction {
        Message::read(f).map_or(TimerAction::None, |m| self.on_message(&m, now))
    }
    fn on_timer(&mut self, now: Time, queue_empty: bool, _rng: &mut Rng) -> TimerAction {
        ReactionPoint::on_timer(self, now, queue_empty)
    }
    fn report(&self) -> Value {
        let to_s = |t: Option<Time>| t.map(crate::core::time::to_secs);
        json!({
            "protocol": "ecm", "rate_final_bps": self.rate, "feedback_received": self.messages,
            "limiters_created": self.limiters_created, "first_message_s": to_s(self.first_message),
            "ecm_positive": self.positive, "ecm_negative": self.negative, "ecm_rtt_dropped": self.rtt_dropped,
            "false_positives": self.false_positives, "rtt_estimate_s": to_s(self.rtt_estimate),
            "cpid_changes": self.cpid_changes,
        })
    }
}

/// An ECM congestion point with its random stream, in the engine's congestion-point slot.
pub struct EcmCp {
    pub cp: CongestionPoint,
    pub rng: Rng,
}

impl CpMachine for EcmCp {
    #[inline]
    fn on_data(&mut self, f: &Frame, _accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        let m = self.cp.on_arrival(f, q.bytes, cpid, &mut self.rng)?;
        Some(m.frame(f, node, self.cp.p.msg_size, now))
    }
    fn feedback_value(&self, fb: &Frame) -> f64 {
        Message::read(fb).map_or(f64::NAN, |m| m.fb as f64)
    }
    fn qeq(&self, _frame: u64) -> u64 {
        self.cp.p.qeq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPID: u32 = 7;
    const US: Time = 1_000_000;
    const MS: Time = 1_000 * US;

    /// The backup slide's values, in bytes with 64-B units; sampling every frame (interval 1 B).
    fn cp() -> CongestionPoint {
        CongestionPoint::new(CpParams {
            qeq: 375 * 64,
            qsc: 1600 * 64,
            qmc: 2400 * 64,
            w: 2.0,
            unit: 64,
            sample_interval: 1,
            jitter: false,
            msg_size: 64,
        })
    }
    fn data(tag: Option<u32>, sent: Time) -> Frame {
        let mut f = Frame::new(FrameKind::Data, 1500, 3, Dest::Node(9), 5, 0);
        if let Some(c) = tag {
            Rrt { cpid: c, sent }.write(&mut f);
        }
        f
    }
    fn rng() -> Rng {
        Rng::stream(1, "t", "ecm")
    }

    #[test]
    fn fb_max_matches_the_slide_gains() {
        let c = cp();
        assert_eq!(c.p.fb_max(), 1875.0); // 375 · (2·2 + 1)
        assert!((0.00026667 * c.p.fb_max() - 0.5).abs() < 1e-4); // Gd·Fbmax = ½
        assert!((0.53333 * c.p.fb_max() * 1e6 - 1e9).abs() < 1e4); // Gi·Fbmax·Ru = 1 Gb/s
    }

    #[test]
    fn message_choice_below_and_above_qeq() {
        let r = &mut rng();
        let mut c = cp();
        // q = 320 units = 20 480 B ≤ Qeq, first sample: Qoff = −55 u, Qdelta = 320 u → Fb = −(−55 + 640) = −585.
        assert_eq!(c.on_arrival(&data(None, 0), 20_480, CPID, r), None); // untagged: nothing
        // Same queue again: Qdelta 0 → Fb = +55. Tagged by another CP: nothing; by this CP: positive.
        assert_eq!(c.on_arrival(&data(Some(CPID + 1), 0), 20_480, CPID, r), None);
        let m = c.on_arrival(&data(Some(CPID), 42), 20_480, CPID, r).unwrap();
        assert_eq!(m, Message { cpid: CPID, fb: 55.0, echo: Some(42) });
        // Own-tagged below Qeq but growing: q 320 → 370 u: Fb = −(−5 + 100) = −95, negative to it.
        assert_eq!(c.on_arrival(&data(Some(CPID), 1), 370 * 64, CPID, r).unwrap().fb, -95.0);
        // Above Qeq, growing: q 370 → 400 u: Fb = −(25 + 60) = −85 → to every frame, untagged too.
        let m = c.on_arrival(&data(None, 0), 400 * 64, CPID, r).unwrap();
        assert_eq!((m.fb, m.echo), (-85.0, None));
        // Above Qeq, draining: q 400 → 380 u: Fb = −(5 − 40) = +35 → to any tagged frame (even
        // another CP's: the source counts it as a false positive), not to an untagged one.
        assert_eq!(c.on_arrival(&data(None, 0), 380 * 64, CPID, r), None);
        c.q_old = 400 * 64;
        assert_eq!(c.on_arrival(&data(Some(CPID + 1), 0), 380 * 64, CPID, r).unwrap().fb, 35.0);
        // Fb = 0 exactly: nothing.
        c.q_old = 375 * 64;
        assert_eq!(c.on_arrival(&data(Some(CPID), 0), 375 * 64, CPID, r), None);
    }

    #[test]
    fn the_two_congestion_levels() {
        let mut c = cp();
        assert_eq!((c.level(1600 * 64), c.level(1600 * 64 + 1), c.level(2400 * 64 + 1)), (Level::Normal, Level::Mild, Level::Severe));
        // Mild, draining fast: q_old 2300 u → q 1700 u: raw Fb = −(1325 − 1200) = −125; the level
        // makes it at least −Qoff = −1325.
        c.q_old = 2300 * 64;
        assert_eq!(c.feedback(1700 * 64), -1325.0);
        // Mild, draining so fast that raw Fb > 0 (q_old 2400 → 1700: −(1325 − 1400) = +75) → −1325.
        c.q_old = 2400 * 64;
        assert_eq!(c.feedback(1700 * 64), -1325.0);
        // Mild, growing: raw Fb = −(1325 + 2·100) = −1525 is already below −Qoff → kept.
        c.q_old = 1600 * 64;
        assert_eq!(c.feedback(1700 * 64), -1525.0);
        // Severe: −Fbmax whatever the change (here the queue did not move).
        c.q_old = 2500 * 64;
        assert_eq!(c.feedback(2500 * 64), -1875.0);
        // The normal band clamps at Fbmax: q 0 → 1500 u: −(1125 + 3000) → −1875.
        c.q_old = 0;
        assert_eq!(c.feedback(1500 * 64), -1875.0);
        // A mild or severe sample reaches every frame, tagged or not.
        let r = &mut rng();
        c.q_old = 2400 * 64;
        assert_eq!(c.on_arrival(&data(None, 0), 1700 * 64, CPID, r).unwrap().fb, -1325.0);
    }

    #[test]
    fn byte_counter_sampling() {
        let mut c = CongestionPoint::new(CpParams { sample_interval: 150_000, ..cp().p });
        let r = &mut rng();
        // Growing queue above Qeq → every sample sends; one sample per 100 frames of 1500 B.
        let sent: Vec<u64> = (1..=300u64).filter(|&i| c.on_arrival(&data(None, 0), 30_000 + i * 100, CPID, r).is_some()).collect();
        assert_eq!(sent, vec![100, 200, 300]);
    }

    #[test]
    fn message_round_trips() {
        let m = Message { cpid: 4, fb: -12.5, echo: Some((3 << 32) + 9) };
        let f = m.frame(&data(None, 0), 2, 64, 1);
        assert_eq!((f.dst, f.flow, f.kind, f.size), (Dest::Node(3), 5, FrameKind::Feedback, 64));
        assert_eq!(Message::read(&f), Some(m));
        let n = Message { echo: None, ..m };
        assert_eq!(Message::read(&n.frame(&data(None, 0), 2, 64, 1)), Some(n));
        assert_eq!(Message::read(&data(Some(4), 0)), None);
    }

    fn rp() -> ReactionPoint {
        ReactionPoint::new(RpParams {
            line_rate: 10e9,
            gi: 0.53333,
            gd: 0.00026667,
            ru: 1e6,
            rd: 1e6,
            td: MS,
            min_rate: 1e6,
            min_dec_factor: 0.5,
            association: Association::LatestNegative,
            rtt_drop: false,
            rtt: None,
        })
    }
    fn msg(fb: f32, cpid: u32) -> Message {
        Message { cpid, fb, echo: None }
    }

    #[test]
    fn rate_update_by_hand() {
        let mut s = rp();
        // Positive feedback without a regulator does nothing.
        assert_eq!(s.on_message(&msg(100.0, CPID), 0), TimerAction::None);
        assert!(!s.active && s.rate == 10e9);
        // Fb = −1875 (severe): 1 − 0.00026667·1875 = 0.49999375, held at MIN_DEC_FACTOR 0.5.
        assert_eq!(s.on_message(&msg(-1875.0, CPID), 5), TimerAction::Arm(5 + MS));
        assert_eq!(s.rate, 5e9);
        assert_eq!((s.active, s.cpid, s.limiters_created, s.first_message), (true, CPID, 1, Some(0)));
        let mut f = data(None, 0);
        s.stamp(&mut f, 77);
        assert_eq!(Rrt::read(&f), Some(Rrt { cpid: CPID, sent: 77 }));
        // Fb = +55 from the associated CP: r += 0.53333 · 55 · 1 Mb/s = 29.33315 Mb/s.
        s.on_message(&msg(55.0, CPID), 6);
        assert!((s.rate - (5e9 + 29.33315e6)).abs() < 1.0, "{}", s.rate);
        assert_eq!(s.false_positives, 0);
        // Negative from another CP moves the association; a positive from the old CP is then a false positive.
        s.on_message(&msg(-10.0, CPID + 1), 7);
        assert_eq!((s.cpid, s.cpid_changes), (CPID + 1, 1));
        s.on_message(&msg(10.0, CPID), 8);
        assert_eq!((s.false_positives, s.positive, s.negative), (1, 2, 2));
        // Floor and ceiling.
        for t in 0..40 {
            s.on_message(&msg(-1875.0, CPID), 10 + t);
        }
        assert_eq!(s.rate, 1e6);
        s.on_message(&msg(1875.0, CPID), 100);
        assert!((s.rate - (1e6 + 0.53333 * 1875.0 * 1e6)).abs() < 1.0);
    }

    #[test]
    fn drift_without_feedback_then_release() {
        let mut s = rp();
        s.on_message(&msg(-1.0, CPID), 0);
        let r0 = s.rate; // 10 Gb/s · (1 − 0.00026667) = 9 997 333 300 b/s
        assert!((r0 - 9_997_333_300.0).abs() < 1.0);
        // Td later: + Rd = 1 Mb/s, timer re-armed Td later.
        assert_eq!(s.on_timer(MS, false), TimerAction::Arm(2 * MS));
        assert!((s.rate - (r0 + 1e6)).abs() < 1e-3);
        // 1.6667 Mb/s short: the second drift leaves 0.6667 Mb/s, the third reaches the line rate;
        // with frames still waiting the regulator stays, and the next send with an empty queue
        // releases it.
        assert_eq!(s.on_timer(2 * MS, false), TimerAction::Arm(3 * MS));
        assert!(s.rate < 10e9);
        assert_eq!(s.on_timer(3 * MS, false), TimerAction::Arm(4 * MS));
        assert_eq!(s.rate, 10e9);
        assert!(s.active);
        assert_eq!(s.on_sent(false), TimerAction::None);
        assert_eq!(s.on_sent(true), TimerAction::Cancel);
        assert!(!s.active && s.limit().is_none() && s.cpid == NONE);
    }

    #[test]
    fn rtt_triggered_drops() {
        let mut s = ReactionPoint { p: RpParams { rtt_drop: true, ..rp().p }, ..rp() };
        // No RTT known yet: every message is accepted. The first echoes a send time 200 µs ago.
        let m = |fb: f32, cpid, echo| Message { cpid, fb, echo };
        s.on_message(&m(-100.0, CPID, Some(0)), 200 * US);
        assert_eq!(s.rtt_estimate, Some(200 * US));
        let r1 = s.rate;
        // 150 µs later from the same CPID: within one RTT → dropped, rate unchanged, no re-arm.
        assert_eq!(s.on_message(&m(-100.0, CPID, None), 350 * US), TimerAction::None);
        assert_eq!((s.rtt_dropped, s.rate), (1, r1));
        // From another CPID at the same time: accepted.
        s.on_message(&m(-100.0, CPID + 1, None), 350 * US);
        assert!(s.rate < r1);
        // From the first CPID one RTT after its last accepted message (400 µs ≥ 200 + 200): accepted.
        let r2 = s.rate;
        s.on_message(&m(-100.0, CPID, None), 400 * US);
        assert!(s.rate < r2);
        assert_eq!((s.messages, s.rtt_dropped), (4, 1));
        // A fixed RTT overrides the estimate: 1 ms.
        s.p.rtt = Some(MS);
        assert_eq!(s.on_message(&m(50.0, CPID, None), 900 * US), TimerAction::None);
        assert_eq!(s.rtt_dropped, 2);
        // Without rtt_drop the same message is accepted.
        s.p.rtt_drop = false;
        assert!(matches!(s.on_message(&m(50.0, CPID, None), 900 * US), TimerAction::Arm(_)));
    }
}
