//! IEEE 802.1Qau Quantized Congestion Notification: congestion point (CP) and reaction point (RP).
//! Sources: docs/protocols.md §2–§4; seed Mliki et al. 2016a §2; seed Mliki et al. 2016b §2;
//! the QCN pseudo-code v2.2 as public implementations read it.

pub mod spec;

pub mod cp;
pub mod probe;
pub mod rp;
pub mod slot;
pub mod wire;
mod register;
mod summary;
pub use register::PROTOCOL;

pub use cp::{CongestionPoint, CpParams, Sample, Sampling};
pub use rp::{ReactionPoint, RpParams, RpVariant};
pub use probe::{Answer, Probe, ProbeMode, Prober};
pub use wire::Cnm;

/// Largest quantized feedback: Fb is carried in 6 bits (802.1Qau; Mliki et al. 2016a §2.1).
pub const QNTZ_FB_MAX: u8 = 63;

use crate::slots::metrics::Metric;

/// What QCN (and E-QCN) report per reaction point and per congestion point.
pub const METRICS: &[Metric] = &[
    Metric { scope: "frames", name: "cnm_sent", unit: "frames", kind: "counter", doc: "CNMs sent by QCN congestion points (probe answers are counted in probe_answered)" },
    Metric { scope: "frames", name: "cnm_received", unit: "frames", kind: "counter", doc: "CNMs that reached their flow's source" },
    Metric { scope: "rps", name: "cr_mean_bps", unit: "bit/s", kind: "time-average", doc: "current rate CR, time-averaged over the window (line rate while no limiter is in place)" },
    Metric { scope: "rps", name: "cr_std_bps", unit: "bit/s", kind: "time-average", doc: "standard deviation of CR over the window" },
    Metric { scope: "rps", name: "cr_min_bps", unit: "bit/s", kind: "gauge", doc: "lowest CR in the window" },
    Metric { scope: "rps", name: "cr_final_bps", unit: "bit/s", kind: "gauge", doc: "CR at the end of the run" },
    Metric { scope: "rps", name: "tr_final_bps", unit: "bit/s", kind: "gauge", doc: "target rate TR at the end of the run" },
    Metric { scope: "rps", name: "first_cnm_s", unit: "s", kind: "time", doc: "arrival of the first CNM with QntzFb > 0 (\"RP start time of congestion detection\", Mliki et al. 2016a)" },
    Metric { scope: "rps", name: "limiters_created", unit: "count", kind: "counter", doc: "rate limiters put in place (Roeck 2007)" },
    Metric { scope: "rps", name: "fb_hat", unit: "QntzFb", kind: "gauge", doc: "E-QCN: the saved largest feedback F̂b at the end (Mliki et al. 2016b Algorithm 1)" },
    Metric { scope: "queues", name: "cp_samples", unit: "frames", kind: "counter", doc: "data frames the QCN CP evaluated (sampled)" },
    Metric { scope: "queues", name: "cp_samples_window", unit: "frames", kind: "counter-window", doc: "data frames the QCN CP evaluated in the window" },
    Metric { scope: "queues", name: "cp_fb_negative", unit: "frames", kind: "counter", doc: "samples with Fb < 0, whether or not a CNM went out (none when QntzFb = 0, unless cp.qcn.cnm_on_any_negative_fb)" },
    Metric { scope: "queues", name: "cp_fb_negative_window", unit: "frames", kind: "counter-window", doc: "samples with Fb < 0 in the window" },
    Metric { scope: "queues", name: "qeq_frames", unit: "frames", kind: "gauge", doc: "the CP's Qeq in frames of simulation.frame_size" },
    Metric { scope: "rps", name: "probes_sent", unit: "frames", kind: "counter", doc: "QCN probes the RP sent (Roeck 2007's -P, -SP, -PP variants)" },
    Metric { scope: "rps", name: "probe_positive", unit: "frames", kind: "counter", doc: "positive probe answers acted on" },
    Metric { scope: "rps", name: "probe_negative", unit: "frames", kind: "counter", doc: "negative probe answers acted on" },
    Metric { scope: "frames", name: "probe_sent", unit: "frames", kind: "counter", doc: "probe frames sent by reaction points" },
    Metric { scope: "frames", name: "probe_answered", unit: "frames", kind: "counter", doc: "probes answered (by a CP, or returned by the destination); each answer is a feedback frame counted in feedback_sent" },
    Metric { scope: "frames", name: "probe_unanswered", unit: "frames", kind: "counter", doc: "probes that reached their destination without an answer" },
    Metric { scope: "frames", name: "probe_dropped", unit: "frames", kind: "counter", doc: "probes dropped by a full queue" },
    Metric { scope: "frames", name: "probe_in_flight", unit: "frames", kind: "gauge", doc: "probes in queues and on wires at the end" },
    Metric { scope: "series", name: "rp_cr_bps.FLOW", unit: "bit/s", kind: "series", doc: "current rate CR of a flow's RP" },
    Metric { scope: "series", name: "rp_tr_bps.FLOW", unit: "bit/s", kind: "series", doc: "target rate TR of a flow's RP" },
    Metric { scope: "series", name: "session_cr_bps.SOURCE", unit: "bit/s", kind: "series", doc: "session rate min over the source's RPs (multiple unicast, Mliki et al. 2016a §3)" },
];
