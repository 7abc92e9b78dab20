//! Swift: delay-based congestion control for the datacenter (Kumar et al., "Swift: Delay is Simple
//! and Effective for Congestion Control in the Datacenter", SIGCOMM 2020, §3 and Algorithm 1).
//!
//! A Swift sender keeps two congestion windows (in packets) and sends under the smaller (§3.2):
//! the fabric window, driven by the fabric delay (the RTT less the receiver's endpoint delay), and
//! the endpoint window, driven by the endpoint delay (how long the receiver held the packet before
//! acknowledging it). On every ACK each window follows Algorithm 1:
//!
//! ```text
//! delay < target  → cwnd += ai/cwnd · num_acked   (cwnd ≥ 1)      additive increase
//!                   cwnd += ai · num_acked         (cwnd < 1)
//! otherwise, at most once per RTT (can_decrease):
//!                   cwnd ·= max(1 − β·(delay − target)/delay, 1 − max_mdf)
//! retransmission timeout: cwnd ·= 1 − max_mdf, or min_cwnd after RETX_RESET_THRESHOLD in a row
//! cwnd < 1        → pace: one packet every rtt/cwnd
//! ```
//!
//! The fabric target grows with the path and shrinks as the window grows (§3.5): target =
//! base_target + hops·h + fs(cwnd), fs(cwnd) = clamp(α/√cwnd + β_fs, 0, fs_range) with
//! α = fs_range / (1/√fs_min_cwnd − 1/√fs_max_cwnd) and β_fs = −α/√fs_max_cwnd, so that small
//! windows (many flows) get more queueing headroom and converge to fairness. The hop count is read
//! from the data packet's IP TTL at the receiver (64 − TTL: routers decrement it; Ethernet
//! switches do not, so a path of switches counts 0 hops) and echoed in the ACK with the endpoint
//! delay and the packet's send time (`wire.rs`).
//!
//! Delivery is `slots::reliable` (cumulative ACKs, go-back-N after a timeout; Swift's SACK-based
//! loss recovery is not modelled).

pub mod register;
pub mod slot;
pub mod spec;
pub mod wire;
#[cfg(test)]
mod tests;

pub use register::PROTOCOL;

use crate::core::time::Time;
use crate::slots::metrics::Metric;

/// Swift's parameters; windows in packets, times in ps. Defaults in `spec.rs`, each with its source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwiftParams {
    pub ai: f64,
    pub beta: f64,
    pub max_mdf: f64,
    pub base_target: Time,
    /// Per-hop target scaling h.
    pub hop_scale: Time,
    pub fs_range: Time,
    pub fs_min_cwnd: f64,
    pub fs_max_cwnd: f64,
    /// The endpoint delay's target.
    pub endpoint_target: Time,
    pub min_cwnd: f64,
    pub max_cwnd: f64,
    pub retx_reset_threshold: u32,
}

impl SwiftParams {
    /// The flow-scaling term fs(cwnd) (ps).
    pub fn flow_scaling(&self, cwnd: f64) -> f64 {
        let range = self.fs_range as f64;
        let alpha = range / (1.0 / self.fs_min_cwnd.sqrt() - 1.0 / self.fs_max_cwnd.sqrt());
        let beta = -alpha / self.fs_max_cwnd.sqrt();
        (alpha / cwnd.max(f64::MIN_POSITIVE).sqrt() + beta).clamp(0.0, range)
    }

    /// The fabric target for a path of `hops` hops at window `cwnd` (ps).
    pub fn fabric_target(&self, hops: u32, cwnd: f64) -> f64 {
        self.base_target as f64 + hops as f64 * self.hop_scale as f64 + self.flow_scaling(cwnd)
    }
}

/// One sender's windows: Algorithm 1's state.
#[derive(Clone, Debug)]
pub struct Swift {
    pub p: SwiftParams,
    pub fcwnd: f64,
    pub ecwnd: f64,
    last_decrease: Option<Time>,
    retransmit_cnt: u32,
    /// The last RTT sample, fabric delay, target and hop count.
    pub rtt: Option<Time>,
    pub delay: Option<Time>,
    pub target: f64,
    pub hops: u32,
    pub decreases: u64,
}

impl Swift {
    pub fn new(p: SwiftParams, init_cwnd: f64) -> Self {
        let w = init_cwnd.clamp(p.min_cwnd, p.max_cwnd);
        Swift { p, fcwnd: w, ecwnd: w, last_decrease: None, retransmit_cnt: 0, rtt: None, delay: None, target: p.fabric_target(0, w), hops: 0, decreases: 0 }
    }

    /// The window the sender uses (packets).
    pub fn cwnd(&self) -> f64 {
        self.fcwnd.min(self.ecwnd)
    }

    /// An ACK of `num_acked` packets arrived at `now` with RTT `rtt`, the receiver's endpoint delay
    /// `endpoint` and the path's `hops`.
    pub fn on_ack(&mut self, now: Time, rtt: Time, endpoint: Time, hops: u32, num_acked: f64) {
        self.retransmit_cnt = 0;
        let fabric = rtt.saturating_sub(endpoint);
        let can_decrease = self.last_decrease.is_none_or(|t| now.saturating_sub(t) >= rtt);
        self.rtt = Some(rtt);
        self.delay = Some(fabric);
        self.hops = hops;
        self.target = self.p.fabric_target(hops, self.fcwnd);
        let p = self.p;
        let (f, fd) = step(&p, self.fcwnd, fabric as f64, self.target, num_acked, can_decrease);
        let (e, ed) = step(&p, self.ecwnd, endpoint as f64, p.endpoint_target as f64, num_acked, can_decrease);
        (self.fcwnd, self.ecwnd) = (f, e);
        if fd || ed {
            self.last_decrease = Some(now);
            self.decreases += 1;
        }
    }

    /// The retransmission timer ran out at `now`.
    pub fn on_timeout(&mut self, now: Time) {
        self.retransmit_cnt += 1;
        let p = self.p;
        if self.retransmit_cnt >= p.retx_reset_threshold {
            (self.fcwnd, self.ecwnd) = (p.min_cwnd, p.min_cwnd);
        } else if self.last_decrease.is_none_or(|t| now.saturating_sub(t) >= self.rtt.unwrap_or(0)) {
            self.fcwnd = (self.fcwnd * (1.0 - p.max_mdf)).clamp(p.min_cwnd, p.max_cwnd);
            self.ecwnd = (self.ecwnd * (1.0 - p.max_mdf)).clamp(p.min_cwnd, p.max_cwnd);
            self.last_decrease = Some(now);
        }
    }

    /// Below one packet the sender paces: the gap between packets (ps), else None.
    pub fn pacing_gap(&self) -> Option<Time> {
        let w = self.cwnd();
        (w < 1.0).then(|| {
            let rtt = self.rtt.unwrap_or(self.p.base_target) as f64;
            (rtt / w).min(u64::MAX as f64 / 4.0) as Time
        })
    }
}

/// One window's Algorithm 1 step: (new window, whether it decreased).
fn step(p: &SwiftParams, cwnd: f64, delay: f64, target: f64, num_acked: f64, can_decrease: bool) -> (f64, bool) {
    let (w, dec) = if delay < target {
        (if cwnd >= 1.0 { cwnd + p.ai / cwnd * num_acked } else { cwnd + p.ai * num_acked }, false)
    } else if can_decrease {
        (cwnd * (1.0 - p.beta * (delay - target) / delay).max(1.0 - p.max_mdf), true)
    } else {
        (cwnd, false)
    };
    (w.clamp(p.min_cwnd, p.max_cwnd), dec)
}

/// What Swift reports per flow (collected by `registry::metrics`).
pub const METRICS: &[Metric] = &[
    Metric { scope: "flows", name: "swift_cwnd", unit: "packets", kind: "gauge", doc: "Swift's window (the smaller of the fabric and endpoint windows) at the end of the run" },
    Metric { scope: "flows", name: "swift_fcwnd", unit: "packets", kind: "gauge", doc: "the fabric window at the end of the run" },
    Metric { scope: "flows", name: "swift_target_s", unit: "s", kind: "gauge", doc: "the fabric target delay at the last ACK: base_target + hops·h + fs(fcwnd)" },
    Metric { scope: "flows", name: "swift_hops", unit: "hops", kind: "gauge", doc: "the path's hop count the last ACK echoed (64 − the data packet's TTL)" },
    Metric { scope: "flows", name: "swift_delay_mean_s", unit: "s", kind: "time-average", doc: "mean fabric delay (RTT less the endpoint delay) of the ACKs in the window; null without one" },
    Metric { scope: "flows", name: "swift_target_mean_s", unit: "s", kind: "time-average", doc: "mean fabric target of the ACKs in the window; null without one" },
    Metric { scope: "flows", name: "swift_goodput_bps", unit: "bit/s", kind: "counter-window", doc: "payload bytes delivered in order to the receiver in the window × 8 / window_s" },
    Metric { scope: "flows", name: "swift_bytes_acked", unit: "B", kind: "counter", doc: "payload bytes cumulatively acknowledged at the sender" },
    Metric { scope: "flows", name: "swift_decreases", unit: "events", kind: "counter", doc: "multiplicative decreases (at most one per RTT)" },
    Metric { scope: "flows", name: "swift_timeouts", unit: "events", kind: "counter", doc: "retransmission timer expiries" },
    Metric { scope: "series", name: "swift_cwnd_packets.FLOW", unit: "packets", kind: "series", doc: "Swift's window of a flow" },
    Metric { scope: "series", name: "swift_delay_s.FLOW", unit: "s", kind: "series", doc: "the last fabric delay sample of a Swift flow (NaN before the first)" },
];

/// The series a Swift flow records (`slot::SwiftFlow::series`), each named `NAME.FLOW`.
pub const SERIES: [&str; 2] = ["swift_cwnd_packets", "swift_delay_s"];
