//! TIMELY: RTT-gradient rate control for the datacenter (Mittal et al., "TIMELY: RTT-based
//! Congestion Control for the Datacenter", SIGCOMM 2015), and the patched TIMELY of Zhu et al.
//! ("ECN or Delay: Lessons Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016, §4–5).
//!
//! A TIMELY sender is paced at a rate, updated once per *completion event* (an acknowledged
//! segment of `segment` bytes, Mittal et al. §4) from that event's RTT sample (Algorithm 1):
//!
//! ```text
//! new_rtt_diff = new_rtt − prev_rtt;  prev_rtt = new_rtt
//! rtt_diff     = (1 − α)·rtt_diff + α·new_rtt_diff        EWMA of the RTT difference
//! g            = rtt_diff / minRTT                         normalized gradient
//! new_rtt < T_low  → rate += δ
//! new_rtt > T_high → rate ·= 1 − β·(1 − T_high/new_rtt)
//! g ≤ 0            → rate += N·δ   (N = 5 after five completion events with g ≤ 0 in a row: HAI)
//! otherwise        → rate ·= 1 − β·g
//! ```
//!
//! Zhu et al. §4 show that this law has no unique fixed point: between T_low and T_high the
//! gradient only says whether the queue grows, not how long it is, so any split of the link whose
//! sum holds the queue still is a fixed point, and where flows end depends on where they started.
//! Their patch (§5) makes the update depend on the RTT itself, weighted by the gradient:
//!
//! ```text
//! w(g) = 0 for g ≤ −1/4,  2g + 1/2 for −1/4 < g < 1/4,  1 for g ≥ 1/4
//! rate = δ·(1 − w) + rate·(1 − β'·w·(new_rtt − RTT_ref)/RTT_ref)
//! ```
//!
//! (the T_low and T_high rules stay), whose one fixed point gives every flow the same rate.
//!
//! The connection's delivery is `slots::reliable` (cumulative ACKs, go-back-N after a timeout);
//! every data frame carries its send time in the tag area and its acknowledgement echoes it
//! (`wire.rs`), so each ACK gives an RTT sample.

pub mod register;
pub mod slot;
pub mod spec;
pub mod wire;
#[cfg(test)]
mod tests;

pub use register::PROTOCOL;

use crate::core::time::{Time, PS_PER_S};
use crate::slots::metrics::Metric;

/// Which law updates the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Mittal et al. 2015, Algorithm 1.
    Timely,
    /// Zhu et al. 2016 §5: the gradient weights an update toward a reference RTT.
    Patched,
}

/// TIMELY's parameters; rates in bit/s, times in ps. Defaults in `spec.rs`, each cited there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimelyParams {
    pub variant: Variant,
    /// EWMA weight α of the RTT difference.
    pub alpha: f64,
    /// Multiplicative decrease factor β (Algorithm 1).
    pub beta: f64,
    /// Additive increment δ (bit/s).
    pub delta: f64,
    pub t_low: Time,
    pub t_high: Time,
    /// The minimum RTT the gradient is normalized by.
    pub min_rtt: Time,
    /// Completion events with g ≤ 0 in a row after which the increase is `hai_factor`·δ.
    pub hai_threshold: u32,
    pub hai_factor: f64,
    /// Payload bytes per completion event (one rate update per `segment` bytes acknowledged).
    pub segment: u64,
    /// The rate's bounds (bit/s): `max_rate` is the source's line rate.
    pub min_rate: f64,
    pub max_rate: f64,
    /// Patched TIMELY: β' and RTT_ref.
    pub patched_beta: f64,
    pub rtt_ref: Time,
}

/// One sender's rate: Algorithm 1's state.
#[derive(Clone, Debug)]
pub struct Timely {
    pub p: TimelyParams,
    /// The sending rate (bit/s).
    pub rate: f64,
    prev_rtt: Option<Time>,
    /// EWMA of the RTT difference (ps).
    rtt_diff: f64,
    /// Completion events in a row with g ≤ 0.
    negative: u32,
    /// Bytes acknowledged since the last completion event.
    pending: u64,
    /// The last RTT sample (ps) and the number of rate updates.
    pub last_rtt: Option<Time>,
    pub updates: u64,
}

impl Timely {
    pub fn new(p: TimelyParams, rate: f64) -> Self {
        Timely { p, rate: rate.clamp(p.min_rate, p.max_rate), prev_rtt: None, rtt_diff: 0.0, negative: 0, pending: 0, last_rtt: None, updates: 0 }
    }

    /// An acknowledgement of `bytes` newly acknowledged payload bytes came with RTT sample `rtt`:
    /// a completion event when `segment` bytes have been acknowledged since the last one (then the
    /// rate is updated from this sample). True when it updated.
    pub fn on_ack(&mut self, bytes: u64, rtt: Time) -> bool {
        self.last_rtt = Some(rtt);
        self.pending = self.pending.saturating_add(bytes);
        if self.pending < self.p.segment {
            return false;
        }
        self.pending = 0;
        self.on_completion(rtt);
        true
    }

    /// One completion event with RTT `new_rtt`: Algorithm 1 (or the patched law).
    pub fn on_completion(&mut self, new_rtt: Time) {
        let p = self.p;
        let prev = self.prev_rtt.unwrap_or(new_rtt);
        self.prev_rtt = Some(new_rtt);
        let new_rtt_diff = new_rtt as f64 - prev as f64;
        self.rtt_diff = (1.0 - p.alpha) * self.rtt_diff + p.alpha * new_rtt_diff;
        let g = self.rtt_diff / p.min_rtt as f64;
        let rtt = new_rtt as f64;
        self.updates += 1;
        let rate = if new_rtt < p.t_low {
            self.negative = 0;
            self.rate + p.delta
        } else if new_rtt > p.t_high {
            self.negative = 0;
            self.rate * (1.0 - p.beta * (1.0 - p.t_high as f64 / rtt))
        } else {
            match p.variant {
                Variant::Timely if g <= 0.0 => {
                    self.negative += 1;
                    let n = if self.negative >= p.hai_threshold { p.hai_factor } else { 1.0 };
                    self.rate + n * p.delta
                }
                Variant::Timely => {
                    self.negative = 0;
                    self.rate * (1.0 - p.beta * g)
                }
                Variant::Patched => {
                    let w = (2.0 * g + 0.5).clamp(0.0, 1.0);
                    let error = (rtt - p.rtt_ref as f64) / p.rtt_ref as f64;
                    p.delta * (1.0 - w) + self.rate * (1.0 - p.patched_beta * w * error)
                }
            }
        };
        self.rate = if rate.is_finite() { rate.clamp(p.min_rate, p.max_rate) } else { p.min_rate };
    }

    /// Gap after a frame of `bytes` at the current rate (ps, at least 1).
    pub fn gap(&self, bytes: u32) -> Time {
        let ps = bytes as f64 * 8.0 * PS_PER_S as f64 / self.rate;
        if ps.is_finite() && ps >= 1.0 { ps.min(u64::MAX as f64 / 4.0) as Time } else { 1 }
    }
}

/// What TIMELY reports per flow (collected by `registry::metrics`).
pub const METRICS: &[Metric] = &[
    Metric { scope: "flows", name: "timely_rate_bps", unit: "bit/s", kind: "gauge", doc: "TIMELY's sending rate at the end of the run" },
    Metric { scope: "flows", name: "timely_rtt_s", unit: "s", kind: "gauge", doc: "the last RTT sample (send time echoed in an ACK); null before the first" },
    Metric { scope: "flows", name: "timely_updates", unit: "events", kind: "counter", doc: "rate updates (completion events: `segment` bytes acknowledged)" },
    Metric { scope: "flows", name: "timely_goodput_bps", unit: "bit/s", kind: "counter-window", doc: "payload bytes delivered in order to the receiver in the window × 8 / window_s" },
    Metric { scope: "flows", name: "timely_bytes_acked", unit: "B", kind: "counter", doc: "payload bytes cumulatively acknowledged at the sender" },
    Metric { scope: "flows", name: "timely_retransmissions", unit: "segments", kind: "counter", doc: "segments sent again (go-back-N after a timeout)" },
    Metric { scope: "flows", name: "timely_timeouts", unit: "events", kind: "counter", doc: "retransmission timer expiries" },
    Metric { scope: "series", name: "timely_rate_bps.FLOW", unit: "bit/s", kind: "series", doc: "TIMELY's sending rate of a flow" },
    Metric { scope: "series", name: "timely_rtt_s.FLOW", unit: "s", kind: "series", doc: "the last RTT sample of a TIMELY flow (NaN before the first)" },
];

/// The series a TIMELY flow records (`slot::TimelyFlow::series`), each named `NAME.FLOW`.
pub const SERIES: [&str; 2] = ["timely_rate_bps", "timely_rtt_s"];
