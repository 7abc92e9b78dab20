//! HPCC, High Precision Congestion Control (Li, Miao, Liu, Zhuang, Feng, Tang, Cao, Zhang, Kim,
//! Alizadeh, Yu: "HPCC: High Precision Congestion Control", SIGCOMM 2019): a window-based,
//! rate-paced RDMA sender whose switches push in-band telemetry (INT) into every data packet —
//! each egress port's time, transmitted bytes, queue length and link rate (§3.1) — which the
//! receiver echoes in its ACK. The sender computes each link's normalised inflight bytes from two
//! successive records and steers its window so that the bottleneck's stays at the target
//! utilisation η (§3.2, Algorithm 1; `control.rs`).
//!
//! Sources for the parameters, where each is cited: the paper's evaluation settings (η = 95 %,
//! maxStage = 5); the authors' results page (hpcc-group.github.io, "Settings": the paper's
//! simulations ran with maxStage = 0, "the maxStage=5 in the paper is due to a typo"); the
//! authors' ns-3 artifact (alibaba-edu/High-Precision-Congestion-Control: `run.py`'s additive
//! increase, `mix/config_doc.txt`'s minimum rate, the INT header's five hops and 1000-B payloads).
//! The in-band telemetry is the engine's (`net::telemetry`), which this protocol asks for in its
//! registration.

pub mod control;
pub mod receiver;
mod register;
pub mod sender;
pub mod slot;
pub mod spec;
pub mod wire;

pub use register::PROTOCOL;

use crate::core::time::{Time, PS_PER_S};
use crate::slots::metrics::Metric;

/// Bytes of a data frame's headers on the wire: Ethernet 14 and 802.1Q 4, IPv4 20, UDP 8,
/// InfiniBand BTH 12 (RoCEv2), and the INT stack: a 2-byte hop count and 8 bytes per hop for
/// `net::telemetry::MAX_HOPS` hops (the artifact's `IntHeader`, carried whatever the path's length).
pub const DATA_HEADER_BYTES: u32 = 18 + 20 + 8 + 12 + INT_BYTES;
/// An acknowledgement: Ethernet and 802.1Q, IPv4, UDP, BTH, the 4-byte AETH and the echoed INT
/// stack.
pub const ACK_BYTES: u32 = 18 + 20 + 8 + 12 + 4 + INT_BYTES;
/// The INT stack's bytes on the wire.
pub const INT_BYTES: u32 = 2 + 8 * crate::net::telemetry::MAX_HOPS as u32;

/// One sender's parameters (the scenario table's, resolved for its flow).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Target utilisation η: 0.95 (§5.1; the authors' results page: "in our paper we evaluate
    /// η=95% because other proposals typically use 95%").
    pub eta: f64,
    /// Additive stages before a multiplicative step is forced, maxStage: 5 as the paper states
    /// (the artifact's simulations used 0: see the module's sources).
    pub max_stage: u32,
    /// Additive increase `W_AI`, bytes.
    pub w_ai: f64,
    /// The base RTT `T` (ps): the window that fills the path at line rate is `B·T`.
    pub base_rtt: Time,
    /// The sender's line rate `B` (b/s): `W_init = B·T`, the largest window.
    pub line_rate: f64,
    /// The smallest pacing rate (b/s): the artifact's `MIN_RATE` (100 Mb/s in `config_doc.txt`).
    pub min_rate: f64,
    /// Payload bytes of a full data frame: 1000, the artifact's `PACKET_PAYLOAD_SIZE`.
    pub mss: u32,
    /// Header bytes of a data frame (`DATA_HEADER_BYTES`).
    pub header_bytes: u32,
    /// Retransmission timeout (go-back-N from the first unacknowledged byte), for a loss no NACK
    /// reports (the last frames of a transfer). Neither the paper nor the artifact has one (its
    /// receivers NACK every gap); a parameter with a documented default in the scenario table.
    pub rto: Time,
}

impl Params {
    /// `W_init = B·T`, bytes: a new flow starts at line rate (§3.2).
    pub fn w_init(&self) -> f64 {
        self.line_rate / 8.0 * self.base_rtt as f64 / PS_PER_S as f64
    }

    /// The window of the minimum rate, bytes.
    pub fn w_min(&self) -> f64 {
        (self.min_rate / 8.0 * self.base_rtt as f64 / PS_PER_S as f64).min(self.w_init())
    }

    /// The artifact's additive increase: `run.py` gives HPCC `RATE_AI = 10·bw/25` Mb/s at a `bw`
    /// Gb/s NIC, i.e. `R_AI = B/2500`, so `W_AI = R_AI·T = W_init/2500`.
    pub fn artifact_w_ai(line_rate: f64, base_rtt: Time) -> f64 {
        line_rate / 2500.0 / 8.0 * base_rtt as f64 / PS_PER_S as f64
    }

    /// A 100 Gb/s sender on a 10 µs path with the defaults (unit tests).
    #[cfg(test)]
    pub fn test() -> Self {
        let (line_rate, base_rtt) = (100e9, 10_000_000);
        Params { eta: 0.95, max_stage: 5, w_ai: Self::artifact_w_ai(line_rate, base_rtt), base_rtt, line_rate, min_rate: 100e6, mss: 1000, header_bytes: DATA_HEADER_BYTES, rto: 1_000_000_000 }
    }
}

/// What HPCC reports per flow (`HpccFlow::report`) and records (`HpccFlow::SERIES`).
pub const METRICS: &[Metric] = &[
    Metric { scope: "flows", name: "hpcc_goodput_bps", unit: "bit/s", kind: "counter-window", doc: "bytes cumulatively acknowledged at the HPCC sender in the window × 8 / window_s (headers and retransmissions excluded)" },
    Metric { scope: "flows", name: "hpcc_bytes_acked", unit: "B", kind: "counter", doc: "bytes cumulatively acknowledged at the HPCC sender" },
    Metric { scope: "flows", name: "hpcc_window_bytes", unit: "B", kind: "gauge", doc: "the sender's window W at the end of the run (Li et al. 2019 Algorithm 1)" },
    Metric { scope: "flows", name: "hpcc_rate_bps", unit: "bit/s", kind: "gauge", doc: "the sender's pacing rate W/T at the end of the run" },
    Metric { scope: "flows", name: "hpcc_u", unit: "1", kind: "gauge", doc: "the sender's estimate U of its bottleneck's normalised inflight bytes at the end of the run" },
    Metric { scope: "flows", name: "hpcc_base_rtt_s", unit: "s", kind: "parameter", doc: "the base RTT T the sender computes with" },
    Metric { scope: "flows", name: "hpcc_wc_updates", unit: "events", kind: "counter", doc: "moves of the reference window Wc (at most one per RTT)" },
    Metric { scope: "flows", name: "hpcc_reactions", unit: "events", kind: "counter", doc: "ACKs whose telemetry recomputed the window" },
    Metric { scope: "flows", name: "hpcc_retransmitted_bytes", unit: "B", kind: "counter", doc: "payload bytes sent again after a NACK or a timeout (go-back-N)" },
    Metric { scope: "flows", name: "hpcc_nacks", unit: "events", kind: "counter", doc: "NACKs that rewound the sender" },
    Metric { scope: "flows", name: "hpcc_timeouts", unit: "events", kind: "counter", doc: "retransmission timer expiries" },
    Metric { scope: "flows", name: "hpcc_int_truncated", unit: "ACKs", kind: "counter", doc: "ACKs whose path had more forwarding ports than a stack records (net::telemetry::MAX_HOPS)" },
    Metric { scope: "series", name: "hpcc_window_bytes.FLOW", unit: "B", kind: "series", doc: "the HPCC sender's window W" },
    Metric { scope: "series", name: "hpcc_rate_bps.FLOW", unit: "bit/s", kind: "series", doc: "the HPCC sender's pacing rate W/T" },
    Metric { scope: "series", name: "hpcc_u_ratio.FLOW", unit: "1", kind: "series", doc: "the HPCC sender's utilisation estimate U" },
];
