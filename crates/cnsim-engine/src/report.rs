//! The run's statistics as a JSON document (schema: docs/internals/core-api.md). Protocol fields
//! come from each protocol slot's `report()`; every field is declared once, in `METRICS` here for
//! the engine's own and in the protocol modules for theirs (`registry::metrics`).

use crate::core::time::to_secs;
use crate::registry::PROTOCOLS;
use crate::slots::flow_control::FcPort;
use crate::slots::metrics::{Mechanism, Metric, Renamed, Summary};
use crate::slots::register::Protocol;
use crate::sim::{Counters, Sim};
use serde_json::{json, Value};

mod entry;
use entry::{Entry, Field};

/// The engine's own metrics (run, time, frames, queues, flows, receivers, sessions). `window`
/// holds the `frames` counters again, counted inside the window; it is declared under `frames`.
pub const METRICS: &[Metric] = &[
    Metric { scope: "run", name: "events", unit: "count", kind: "counter", doc: "events the engine processed (a delivery to a receiver that only counts is not one: docs/performance.md)" },
    Metric { scope: "run", name: "seed", unit: "1", kind: "parameter", doc: "the run's random seed" },
    Metric { scope: "run", name: "frame_size_bytes", unit: "B", kind: "parameter", doc: "simulation.frame_size: the size of one frame wherever a queue length or threshold is in frames" },
    Metric { scope: "time", name: "end_s", unit: "s", kind: "time", doc: "simulated time at the end (duration_s, or earlier when a guard stopped the run)" },
    Metric { scope: "time", name: "duration_s", unit: "s", kind: "parameter", doc: "simulation.duration" },
    Metric { scope: "time", name: "measure_from_s", unit: "s", kind: "parameter", doc: "simulation.measure_from: start of the window" },
    Metric { scope: "time", name: "window_s", unit: "s", kind: "time", doc: "length of the window: end_s − measure_from_s" },
    Metric { scope: "frames", name: "data_generated", unit: "frames", kind: "counter", doc: "data frame copies the applications generated (one per copy a sender will send)" },
    Metric { scope: "frames", name: "data_source_dropped", unit: "frames", kind: "counter", doc: "copies lost in full rate-limiter buffers at the sources" },
    Metric { scope: "frames", name: "data_injected", unit: "frames", kind: "counter", doc: "copies put on a wire at their source" },
    Metric { scope: "frames", name: "data_replicated", unit: "frames", kind: "counter", doc: "extra copies made at multicast branching points" },
    Metric { scope: "frames", name: "data_delivered", unit: "frames", kind: "counter", doc: "copies received by a receiver of their flow" },
    Metric { scope: "frames", name: "data_dropped", unit: "frames", kind: "counter", doc: "copies dropped by a full queue (or unroutable)" },
    Metric { scope: "frames", name: "feedback_sent", unit: "frames", kind: "counter", doc: "feedback frames sent, whatever their protocol: by congestion points (CNMs, BCN and ECM messages, probe answers), notification points (CNPs) and destinations (probe answers); each protocol's own in its NAME_sent" },
    Metric { scope: "frames", name: "feedback_delivered", unit: "frames", kind: "counter", doc: "feedback frames that reached their source; each protocol's own in its NAME_received" },
    Metric { scope: "frames", name: "feedback_dropped", unit: "frames", kind: "counter", doc: "feedback frames dropped by a full queue" },
    Metric { scope: "frames", name: "data_in_flight", unit: "frames", kind: "gauge", doc: "data frames in queues or on wires at the end, counted physically" },
    Metric { scope: "frames", name: "feedback_in_flight", unit: "frames", kind: "gauge", doc: "feedback frames in queues or on wires at the end" },
    Metric { scope: "frames", name: "ack_sent", unit: "frames", kind: "counter", doc: "transport ACK frames sent by receivers" },
    Metric { scope: "frames", name: "ack_delivered", unit: "frames", kind: "counter", doc: "transport ACK frames that reached their source" },
    Metric { scope: "frames", name: "ack_dropped", unit: "frames", kind: "counter", doc: "transport ACK frames dropped by a full queue" },
    Metric { scope: "frames", name: "ack_in_flight", unit: "frames", kind: "gauge", doc: "transport ACK frames in queues or on wires at the end" },
    Metric { scope: "frames", name: "ttl_expired", unit: "frames", kind: "counter", doc: "frames routers dropped because their IP TTL reached 0 (with routers only; also in the *_dropped counters)" },
    Metric { scope: "queues", name: "aqm", unit: "name", kind: "parameter", doc: "the queue management in front of the port's queue, by its discipline's name, when configured" },
    Metric { scope: "groups", name: "joins", unit: "count", kind: "counter", doc: "membership joins that took effect (after the join latency)" },
    Metric { scope: "groups", name: "leaves", unit: "count", kind: "counter", doc: "membership leaves that took effect (after the leave latency): branches pruned" },
    Metric { scope: "groups", name: "members_joined", unit: "hosts", kind: "gauge", doc: "members joined at the end (with run-time membership only)" },
    Metric { scope: "frames", name: "data_in_limiters", unit: "frames", kind: "gauge", doc: "copies waiting in rate limiters at the end" },
    Metric { scope: "queues", name: "q_mean_frames", unit: "frames", kind: "time-average", doc: "queued bytes ÷ simulation.frame_size, time-averaged over the window" },
    Metric { scope: "queues", name: "q_std_frames", unit: "frames", kind: "time-average", doc: "standard deviation of queued bytes ÷ simulation.frame_size over the window" },
    Metric { scope: "queues", name: "q_max_frames", unit: "frames", kind: "gauge", doc: "largest queued bytes ÷ simulation.frame_size in the window" },
    Metric { scope: "queues", name: "arrivals", unit: "frames", kind: "counter", doc: "data frames offered to the queue" },
    Metric { scope: "queues", name: "arrivals_window", unit: "frames", kind: "counter-window", doc: "data frames offered to the queue in the window" },
    Metric { scope: "queues", name: "drops", unit: "frames", kind: "counter", doc: "data frames the full queue dropped" },
    Metric { scope: "queues", name: "drops_window", unit: "frames", kind: "counter-window", doc: "data frames the full queue dropped in the window" },
    Metric { scope: "queues", name: "rate_bps", unit: "bit/s", kind: "parameter", doc: "line rate of the port" },
    Metric { scope: "queues", name: "feedback_sent", unit: "frames", kind: "counter", doc: "feedback frames the port's congestion point sent, whatever its protocol (0 without one)" },
    Metric { scope: "queues", name: "feedback_sent_window", unit: "frames", kind: "counter-window", doc: "feedback frames the port's congestion point sent in the window" },
    Metric { scope: "rps", name: "feedback_received", unit: "frames", kind: "counter", doc: "feedback frames the RP acted on, whatever its protocol (reported by each RP protocol)" },
    Metric { scope: "rps", name: "feedback_received_window", unit: "frames", kind: "counter-window", doc: "feedback frames the RP acted on in the window" },
    Metric { scope: "queues", name: "busy_s_window", unit: "s", kind: "counter-window", doc: "time the transmitter was sending in the window" },
    Metric { scope: "queues", name: "peak_frames", unit: "frames", kind: "gauge", doc: "most frames queued at once over the whole run, counted physically whatever their size (as a capacity in frames counts them; capacity invariant)" },
    Metric { scope: "queues", name: "peak_bytes", unit: "B", kind: "gauge", doc: "largest queue in bytes over the whole run" },
    Metric { scope: "flows", name: "frames_generated", unit: "frames", kind: "counter", doc: "frames the flow's sender generated (once per frame, whatever the copies)" },
    Metric { scope: "flows", name: "frames_generated_window", unit: "frames", kind: "counter-window", doc: "frames the flow's sender generated in the window" },
    Metric { scope: "flows", name: "injected", unit: "frames", kind: "counter", doc: "copies of this flow put on a wire at its source" },
    Metric { scope: "flows", name: "injected_window", unit: "frames", kind: "counter-window", doc: "copies of this flow put on a wire at its source in the window" },
    Metric { scope: "flows", name: "replicated", unit: "frames", kind: "counter", doc: "extra copies of this flow made at multicast branching points" },
    Metric { scope: "flows", name: "replicated_window", unit: "frames", kind: "counter-window", doc: "extra copies of this flow made in the window" },
    Metric { scope: "flows", name: "dropped", unit: "frames", kind: "counter", doc: "copies of this flow dropped anywhere" },
    Metric { scope: "flows", name: "dropped_window", unit: "frames", kind: "counter-window", doc: "copies of this flow dropped in the window" },
    Metric { scope: "flows", name: "source_dropped", unit: "frames", kind: "counter", doc: "frames of the flow's sender lost in its rate-limiter buffer" },
    Metric { scope: "flows", name: "feedback_received_window", unit: "frames", kind: "counter-window", doc: "feedback frames the flow's RP received in the window (0 without an RP)" },
    Metric { scope: "flows", name: "size_bytes", unit: "B", kind: "parameter", doc: "a transfer's size (transfer traffic only)" },
    Metric { scope: "flows", name: "fct_s", unit: "s", kind: "time", doc: "a transfer's flow-completion time: completion − start, null while incomplete (src/fct.rs)" },
    Metric { scope: "flows", name: "fct_ideal_s", unit: "s", kind: "parameter", doc: "the transfer's FCT alone on the network, from its route (src/fct.rs; docs/scenarios.md)" },
    Metric { scope: "receivers", name: "frames", unit: "frames", kind: "counter", doc: "data frames of the flow this receiver received" },
    Metric { scope: "receivers", name: "bytes_window", unit: "B", kind: "counter-window", doc: "data bytes of the flow this receiver received in the window" },
    Metric { scope: "receivers", name: "throughput_bps", unit: "bit/s", kind: "counter-window", doc: "bytes_window × 8 / window_s" },
    Metric { scope: "sessions", name: "cr_mean_bps", unit: "bit/s", kind: "time-average", doc: "session rate CR = min over the sender's RPs (Mliki et al. 2016a §3), time-averaged" },
    Metric { scope: "sessions", name: "cr_std_bps", unit: "bit/s", kind: "time-average", doc: "standard deviation of the session rate over the window" },
    Metric { scope: "sessions", name: "cr_min_bps", unit: "bit/s", kind: "gauge", doc: "lowest session rate in the window" },
    Metric { scope: "sessions", name: "cr_final_bps", unit: "bit/s", kind: "gauge", doc: "session rate at the end of the run" },
    Metric { scope: "series", name: "q_frames.NODE>PEER", unit: "frames", kind: "series", doc: "queued bytes of a switch output port ÷ simulation.frame_size (all classes)" },
    Metric { scope: "series", name: "rx_bps.FLOW>HOST", unit: "bit/s", kind: "series", doc: "throughput of a receiver over the record interval ending at t (0 at t = 0)" },
];

/// The engine's summary metrics (`Summary`): those of every run, or of a mechanism several
/// protocols share (congestion points, reaction points, transfers). A protocol's own are in its
/// `PROTOCOL.summaries`.
pub const SUMMARIES: &[Summary] = &[
    Summary { scope: "global", name: "feedback_rate_pct", window: "measure", unit: "%", definition: "window.feedback_sent / window.data_injected × 100 (feedback frames of every protocol)", engine: &["window.feedback_sent", "window.data_injected"], needs: Some("feedback"), formula: None },
    Summary { scope: "global", name: "loss_rate_pct", window: "measure", unit: "%", definition: "window.data_dropped / (window.data_injected + window.data_replicated) × 100: every frame copy, including those made at multicast branching points, is delivered, dropped or in flight, so this stays ≤ 100", engine: &["window.data_dropped", "window.data_injected", "window.data_replicated"], needs: None, formula: None },
    Summary { scope: "global", name: "source_loss_pct", window: "measure", unit: "%", definition: "window.data_source_dropped / window.data_generated × 100", engine: &["window.data_source_dropped", "window.data_generated"], needs: None, formula: None },
    Summary { scope: "global", name: "total_loss_pct", window: "measure", unit: "%", definition: "(window.data_source_dropped + window.data_dropped) / (window.data_generated + window.data_replicated) × 100: copies lost in a full rate limiter at the source or in a switch, over the copies the applications generated plus those made at multicast branching points", engine: &["window.data_source_dropped", "window.data_dropped", "window.data_generated", "window.data_replicated"], needs: None, formula: None },
    Summary { scope: "global", name: "feedback_per_cp_frame_pct", window: "measure", unit: "%", definition: "Σ feedback_sent_window / Σ arrivals_window × 100 over the CP queues: feedback relative to the frames arriving at the CPs", engine: &["queues.feedback_sent_window", "queues.arrivals_window"], needs: Some("cp"), formula: None },
    Summary { scope: "global", name: "feedback_busiest_cp_pct", window: "measure", unit: "%", definition: "max over CP queues with arrivals of feedback_sent_window / arrivals_window × 100", engine: &["queues.feedback_sent_window", "queues.arrivals_window"], needs: Some("cp"), formula: None },
    Summary { scope: "global", name: "feedback_per_delivered_pct", window: "measure", unit: "%", definition: "window.feedback_sent / window.data_delivered × 100: feedback frames per data copy received", engine: &["window.feedback_sent", "window.data_delivered"], needs: Some("feedback"), formula: None },
    Summary { scope: "global", name: "cr_mean_mbps", window: "measure", unit: "Mb/s", definition: "mean over sessions of the session CR's time-weighted mean (session CR = min over its RPs, Mliki et al. 2016a §3)", engine: &["sessions.cr_mean_bps", "rps.cr_mean_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "global", name: "cr_std_mbps", window: "measure", unit: "Mb/s", definition: "mean over sessions of the session CR's time-weighted std-dev", engine: &["sessions.cr_std_bps", "rps.cr_std_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "global", name: "cr_spread_mbps", window: "measure", unit: "Mb/s", definition: "population std-dev over sessions of the session CR's mean", engine: &["sessions.cr_mean_bps", "rps.cr_mean_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "global", name: "jain_cr", window: "measure", unit: "1", definition: "Jain index (Σr)²/(k·Σr²) (Mliki et al. 2016a eq. 9) over the sessions' mean CR", engine: &["sessions.cr_mean_bps", "rps.cr_mean_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "global", name: "jain_throughput", window: "measure", unit: "1", definition: "Jain index over `throughput_mbps` of every (flow, receiver)", engine: &["receivers.throughput_bps"], needs: None, formula: None },
    Summary { scope: "global", name: "throughput_mean_mbps", window: "measure", unit: "Mb/s", definition: "mean of `throughput_mbps` over every (flow, receiver)", engine: &["receivers.throughput_bps"], needs: None, formula: None },
    Summary { scope: "global", name: "cr_min_mbps", window: "measure", unit: "Mb/s", definition: "lowest session CR in the window (RP CR where there are no sessions)", engine: &["sessions.cr_min_bps", "rps.cr_min_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "global", name: "main_cp", window: "run", unit: "name", definition: "the CP queue with the most arrivals (whole run)", engine: &["queues.arrivals"], needs: Some("cp"), formula: None },
    Summary { scope: "global", name: "q_mean_frames", window: "measure", unit: "frames", definition: "the main CP's `q_mean_frames` (queue scope)", engine: &["queues.q_mean_frames"], needs: Some("cp"), formula: None },
    Summary { scope: "global", name: "q_std_frames", window: "measure", unit: "frames", definition: "the main CP's `q_std_frames` (queue scope)", engine: &["queues.q_std_frames"], needs: Some("cp"), formula: None },
    Summary { scope: "global", name: "q_dev_from_qeq_frames", window: "measure", unit: "frames", definition: "the main CP's `q_dev_from_qeq_frames` (queue scope)", engine: &["queues.q_mean_frames", "queues.qeq_frames"], needs: Some("cp"), formula: None },
    Summary { scope: "rp", name: "cr_mean_mbps", window: "measure", unit: "Mb/s", definition: "time-weighted mean of CR", engine: &["rps.cr_mean_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "rp", name: "cr_std_mbps", window: "measure", unit: "Mb/s", definition: "time-weighted std-dev of CR", engine: &["rps.cr_std_bps"], needs: Some("rp"), formula: None },
    Summary { scope: "rp", name: "feedback_received", window: "measure", unit: "frames", definition: "feedback frames the RP acted on", engine: &["rps.feedback_received_window"], needs: Some("feedback"), formula: None },
    Summary { scope: "rp", name: "limiters_created", window: "run", unit: "1", definition: "rate limiters the RP created", engine: &["rps.limiters_created", "rps.regulators_created"], needs: Some("rp"), formula: None },
    Summary { scope: "queue", name: "q_mean_frames", window: "measure", unit: "frames", definition: "time-weighted mean queue length: bytes queued ÷ simulation.frame_size", engine: &["queues.q_mean_frames"], needs: None, formula: None },
    Summary { scope: "queue", name: "q_std_frames", window: "measure", unit: "frames", definition: "time-weighted std-dev of the queue length (bytes queued ÷ simulation.frame_size)", engine: &["queues.q_std_frames"], needs: None, formula: None },
    Summary { scope: "queue", name: "q_dev_from_qeq_frames", window: "measure", unit: "frames", definition: "q_mean_frames` − Qeq, both in frames of simulation.frame_size (CP queues only)", engine: &["queues.q_mean_frames", "queues.qeq_frames"], needs: Some("cp"), formula: None },
    Summary { scope: "queue", name: "utilisation", window: "measure", unit: "1", definition: "busy_s_window / window_s", engine: &["queues.busy_s_window", "time.window_s"], needs: None, formula: None },
    Summary { scope: "queue", name: "arrivals", window: "measure", unit: "frames", definition: "frames that arrived at the queue", engine: &["queues.arrivals_window"], needs: None, formula: None },
    Summary { scope: "queue", name: "drops", window: "measure", unit: "frames", definition: "frames dropped at the queue", engine: &["queues.drops_window"], needs: None, formula: None },
    Summary { scope: "queue", name: "feedback_sent", window: "measure", unit: "frames", definition: "feedback frames the queue's congestion point sent", engine: &["queues.feedback_sent_window"], needs: Some("cp"), formula: None },
    Summary { scope: "flow", name: "source_loss_pct", window: "run", unit: "%", definition: "source_dropped / frames_generated × 100", engine: &["flows.source_dropped", "flows.frames_generated"], needs: None, formula: None },
    Summary { scope: "flow", name: "throughput_mbps", window: "measure", unit: "Mb/s", definition: "Σ over the flow's receivers of their `throughput_mbps", engine: &["receivers.throughput_bps"], needs: None, formula: None },
    Summary { scope: "flow", name: "loss_pct", window: "measure", unit: "%", definition: "dropped_window / (injected_window + replicated_window) × 100: the flow's copies dropped in switches", engine: &["flows.dropped_window", "flows.injected_window", "flows.replicated_window"], needs: None, formula: None },
    Summary { scope: "receiver", name: "throughput_mbps", window: "measure", unit: "Mb/s", definition: "data delivered to the receiver (bytes_window × 8 / window_s)", engine: &["receivers.throughput_bps"], needs: None, formula: None },
    Summary { scope: "flow", name: "slowdown", window: "run", unit: "1", definition: "transfers: fct_s / fct_ideal_s (the engine's FCT over its ideal alone on the network, from the route: docs/scenarios.md); null while incomplete, absent for other flows", engine: &["flows.fct_s", "flows.fct_ideal_s"], needs: Some("transfer"), formula: None },
    Summary { scope: "fct bucket", name: "flows", window: "run", unit: "1", definition: "transfers whose size_bytes falls in the bucket (`FCT_BUCKETS`: < 100 KB, 100 KB – 1 MB, 1 – 10 MB, ≥ 10 MB; 1 KB = 1000 B, lower bound included)", engine: &["flows.size_bytes"], needs: Some("transfer"), formula: None },
    Summary { scope: "fct bucket", name: "completed", window: "run", unit: "1", definition: "those of them that completed", engine: &["flows.size_bytes", "flows.fct_s"], needs: Some("transfer"), formula: None },
    Summary { scope: "fct bucket", name: "slowdown_median", window: "run", unit: "1", definition: "median of `slowdown` over the bucket's completed transfers (nearest rank: the ⌈n/2⌉-th smallest)", engine: &["flows.size_bytes", "flows.fct_s", "flows.fct_ideal_s"], needs: Some("transfer"), formula: None },
    Summary { scope: "fct bucket", name: "slowdown_p99", window: "run", unit: "1", definition: "99th percentile of `slowdown` over the bucket's completed transfers (nearest rank: the ⌈0.99·n⌉-th smallest)", engine: &["flows.size_bytes", "flows.fct_s", "flows.fct_ideal_s"], needs: Some("transfer"), formula: None },
];

/// The mechanisms several protocols share, which the engine's summary metrics need (`Mechanism`);
/// a protocol's own are in its `PROTOCOL.mechanisms`.
pub const MECHANISMS: &[Mechanism] = &[
    Mechanism { name: "cp", doc: "a congestion point that sends feedback (QCN, E-QCN, BCN, ECM): a queue with `cp`", marks: "queues.cp", implied_by: &[], marker: Some("main_cp") },
    Mechanism { name: "rp", doc: "reaction points (rate limiters at the sources: QCN, BCN, DCQCN…): `rps`", marks: "rps", implied_by: &[], marker: Some("cr_mean_mbps") },
    Mechanism { name: "transfer", doc: "transfers (flows of a given size, workloads): a flow with `size_bytes`", marks: "flows.size_bytes", implied_by: &[], marker: None },
    // Feedback frames flow wherever there is a congestion point (it sends them) or a reaction
    // point (it reads them: DCQCN's come from notification points).
    Mechanism { name: "feedback", doc: "feedback frames between congestion or notification points and reaction points (CNMs, BCN and ECM messages, CNPs): a congestion point or a reaction point", marks: "", implied_by: &["cp", "rp"], marker: None },
];

/// The engine's renamed outputs (`Renamed`): the series before their names carried their unit, and
/// the entities' feedback counters, which counted every protocol's feedback frames in one
/// protocol's words before `feedback_*` did. A protocol's own are in its `PROTOCOL.renamed`.
pub const RENAMED: &[Renamed] = &[
    Renamed { document: "series", scope: "", old: "q.*", new: "q_frames.*" },
    Renamed { document: "series", scope: "", old: "rx.*", new: "rx_bps.*" },
    Renamed { document: "series", scope: "", old: "rp.*.cr", new: "rp_cr_bps.*" },
    Renamed { document: "series", scope: "", old: "rp.*.tr", new: "rp_tr_bps.*" },
    Renamed { document: "series", scope: "", old: "session.*.cr", new: "session_cr_bps.*" },
    Renamed { document: "series", scope: "", old: "mrx.*", new: "mrx_bps.*" },
    Renamed { document: "series", scope: "", old: "mlost.*", new: "mlost_frames.*" },
    Renamed { document: "stats", scope: "queues", old: "cnms_sent", new: "feedback_sent" },
    Renamed { document: "stats", scope: "queues", old: "cnms_sent_window", new: "feedback_sent_window" },
    Renamed { document: "stats", scope: "rps", old: "cnms_received", new: "feedback_received" },
    Renamed { document: "stats", scope: "rps", old: "cnms_received_window", new: "feedback_received_window" },
    Renamed { document: "stats", scope: "flows", old: "cnms_received_window", new: "feedback_received_window" },
    Renamed { document: "summary", scope: "queue", old: "cnms_sent", new: "feedback_sent" },
    Renamed { document: "summary", scope: "rp", old: "cnms_received", new: "feedback_received" },
];

/// The feedback frames of the protocols in `present`, each under its own name (`NAME_sent`,
/// `NAME_received`: `slots::register::Counted`), into `v`.
fn protocol_counters(v: &mut Value, c: &Counters, present: &[&Protocol]) {
    for counted in present.iter().flat_map(|p| p.counted) {
        let sum = |by: &[u64; 16]| counted.owners.iter().map(|o| by.get(o.0 as usize).copied().unwrap_or(0)).sum::<u64>();
        v[format!("{}_sent", counted.name)] = json!(sum(&c.feedback_sent_by));
        v[format!("{}_received", counted.name)] = json!(sum(&c.feedback_delivered_by));
    }
}

/// `fc`: the word the flow-control slot counts its frames under, with flow control.
fn counters(c: &Counters, fc: Option<&str>, transport: bool, probes: bool) -> Value {
    let mut v = json!({
        "data_generated": c.data_generated,
        "data_source_dropped": c.data_source_dropped,
        "data_injected": c.data_injected,
        "data_replicated": c.data_replicated,
        "data_delivered": c.data_delivered,
        "data_dropped": c.data_dropped,
        "feedback_sent": c.feedback_sent,
        "feedback_delivered": c.feedback_delivered,
        "feedback_dropped": c.feedback_dropped,
    });
    if let Some(w) = fc {
        v[format!("{w}_sent")] = json!(c.ctrl_sent);
        v[format!("{w}_delivered")] = json!(c.ctrl_delivered);
    }
    if transport {
        v["ack_sent"] = json!(c.ack_sent);
        v["ack_delivered"] = json!(c.ack_delivered);
        v["ack_dropped"] = json!(c.ack_dropped);
    }
    if probes {
        // Path control frames keep their first protocol's word in the document (QCN's probes).
        v["probe_sent"] = json!(c.path_control_sent);
        v["probe_answered"] = json!(c.path_control_answered);
        v["probe_unanswered"] = json!(c.path_control_unanswered);
        v["probe_dropped"] = json!(c.path_control_dropped);
    }
    v
}

fn diff(a: &Counters, b: &Counters) -> Counters {
    Counters {
        data_generated: a.data_generated - b.data_generated,
        data_source_dropped: a.data_source_dropped - b.data_source_dropped,
        data_injected: a.data_injected - b.data_injected,
        data_replicated: a.data_replicated - b.data_replicated,
        data_delivered: a.data_delivered - b.data_delivered,
        data_dropped: a.data_dropped - b.data_dropped,
        feedback_sent: a.feedback_sent - b.feedback_sent,
        feedback_delivered: a.feedback_delivered - b.feedback_delivered,
        feedback_dropped: a.feedback_dropped - b.feedback_dropped,
        feedback_sent_by: std::array::from_fn(|i| a.feedback_sent_by[i] - b.feedback_sent_by[i]),
        feedback_delivered_by: std::array::from_fn(|i| a.feedback_delivered_by[i] - b.feedback_delivered_by[i]),
        ctrl_sent: a.ctrl_sent - b.ctrl_sent,
        ctrl_delivered: a.ctrl_delivered - b.ctrl_delivered,
        ack_sent: a.ack_sent - b.ack_sent,
        ack_delivered: a.ack_delivered - b.ack_delivered,
        ack_dropped: a.ack_dropped - b.ack_dropped,
        path_control_sent: a.path_control_sent - b.path_control_sent,
        path_control_answered: a.path_control_answered - b.path_control_answered,
        path_control_unanswered: a.path_control_unanswered - b.path_control_unanswered,
        path_control_dropped: a.path_control_dropped - b.path_control_dropped,
        ttl_expired: a.ttl_expired - b.ttl_expired,
    }
}

impl Sim {
    /// The registered protocols that fill a congestion point, reaction point or notification
    /// point of this run.
    fn protocols_present(&self) -> Vec<&'static Protocol> {
        let cps = self.ports.iter().filter_map(|p| p.cp.as_ref().map(|c| c.protocol()));
        let rps = self.flows.iter().filter_map(|f| f.rp.as_ref().map(|r| r.protocol()));
        let nps = self.flows.iter().flat_map(|f| f.receivers.iter().filter_map(|r| r.np.as_ref().map(|n| n.protocol())));
        let names: Vec<&str> = cps.chain(rps).chain(nps).collect();
        PROTOCOLS.iter().copied().filter(|p| names.iter().any(|n| n.eq_ignore_ascii_case(p.name))).collect()
    }

    /// The statistics document (schema: docs/internals/core-api.md).
    pub fn stats(&self) -> Value {
        let mut doc = self.stats_head();
        for t in TABLES {
            if self.has(t) {
                doc[t.key()] = Value::Array((0..self.rows(t)).filter_map(|i| self.entry(t, i)).map(Entry::into_value).collect());
            }
        }
        doc
    }

    /// The statistics document as JSON text, the same text as `stats().to_string()`, with each
    /// entry of its large tables (flows, queues, ports) written straight into it (`Entry`): neither
    /// the document nor an entry is ever a tree of `Value`s, which takes an order of magnitude more
    /// memory than the text and most of the time.
    pub fn stats_json(&self) -> String {
        String::from_utf8(self.stats_json_cut(usize::MAX).0).expect("serde_json writes UTF-8")
    }

    /// `stats_json`'s text (UTF-8 bytes) and, for each table written, its key and the byte offsets
    /// of its rows' text cut every `rows` rows: `[start, .., end]`, where `start` follows the
    /// table's `[` and `end` is its `]`, and an inner offset is the start of a row (the comma
    /// before it ends the previous chunk). A reader parses the head without the rows, then each
    /// chunk, never the whole text at once (python/cnsim/jsonio.py `loads_tables`).
    pub fn stats_json_cut(&self, rows: usize) -> (Vec<u8>, Vec<(&'static str, Vec<usize>)>) {
        let rows = rows.max(1);
        let mut doc = self.stats_head();
        for t in TABLES {
            if self.has(t) {
                doc[t.key()] = Value::Null; // its place in the document's key order
            }
        }
        let Value::Object(fields) = doc else { unreachable!("the head is an object") };
        let mut out = Vec::new();
        let mut cuts = Vec::new();
        out.push(b'{');
        for (n, (key, value)) in fields.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            write_json(&mut out, &Value::String(key.clone()));
            out.push(b':');
            match TABLES.into_iter().find(|t| t.key() == key) {
                Some(t) => {
                    out.push(b'[');
                    let mut offsets = vec![out.len()];
                    for (m, e) in (0..self.rows(t)).filter_map(|i| self.entry(t, i)).enumerate() {
                        if m > 0 {
                            out.push(b',');
                            if m % rows == 0 {
                                offsets.push(out.len());
                            }
                        }
                        e.write(&mut out);
                    }
                    offsets.push(out.len());
                    out.push(b']');
                    cuts.push((t.key(), offsets));
                }
                None => write_json(&mut out, value),
            }
        }
        out.push(b'}');
        (out, cuts)
    }

    fn has(&self, t: Table) -> bool {
        !matches!(t, Table::Ports) || self.fc.is_some()
    }

    /// Candidates for the table's entries: one per flow or per port.
    fn rows(&self, t: Table) -> usize {
        match t {
            Table::Rps | Table::Flows => self.flows.len(),
            Table::Queues | Table::Ports => self.ports.len(),
        }
    }

    /// Entry `i` of table `t` (None: the flow or port has none there).
    fn entry(&self, t: Table, i: usize) -> Option<Entry<'_>> {
        let now = self.now;
        let in_window = now >= self.measure_from;
        let window_s = to_secs(now.saturating_sub(self.measure_from));
        let name = |i: u32| self.nodes[i as usize].name.as_str();
        let mut v = Entry::default();
        match t {
            Table::Rps => {
                let f = &self.flows[i];
                let rp = f.rp.as_ref()?;
                let (mean, std) = f.cr.mean_std(now);
                v.put("name", f.name.as_str()).put("flow", f.name.as_str()).put("source", name(f.src));
                v.put("cr_mean_bps", mean).put("cr_std_bps", std).put("cr_min_bps", f.cr.min);
                v.put("feedback_received_window", if in_window { rp.feedback_received() - f.feedback_w0 } else { 0 });
                v.merge(rp.report());
                Some(v)
            }
            Table::Queues => {
                if !self.nodes[self.ports[i].node as usize].kind.forwards() {
                    return None;
                }
                let fs = self.frame_size as f64; // queues are kept in bytes: reported in frames of frame_size
                let p = &self.ports[i];
                let (mean, std) = p.q.mean_std(now);
                let w = if in_window { p.c_w0 } else { p.c };
                // In the document's (sorted) order: a million queues need no sorting.
                v.put("arrivals", p.c.arrivals).put("arrivals_window", p.c.arrivals - w.arrivals);
                v.put("busy_s_window", to_secs(p.busy_window)).put("capacity", Field::Shown(&p.qdisc.capacity)).put("cp", p.cp.is_some());
                v.put("drops", p.c.drops).put("drops_window", p.c.drops - w.drops);
                v.put("feedback_sent", p.c.feedback_sent).put("feedback_sent_window", p.c.feedback_sent - w.feedback_sent);
                v.put("name", Field::Pair(name(p.node), name(p.peer_node))).put("node", name(p.node));
                v.put("peak_bytes", p.peak_bytes).put("peak_frames", p.peak_frames).put("peer", name(p.peer_node));
                v.put("q_max_frames", p.q.max / fs).put("q_mean_frames", mean / fs).put("q_std_frames", std / fs);
                v.put("qeq_frames", p.cp.as_ref().map(|c| c.qeq(self.frame_size) as f64 / fs)).put("rate_bps", p.rate_bps);
                if let Some(c) = &p.cp {
                    v.merge(c.report(in_window));
                }
                if let Some(a) = &p.aqm {
                    v.merge(a.report());
                }
                if let Some(m) = &p.meter {
                    v.merge(m.report());
                }
                Some(v)
            }
            Table::Flows => {
                let f = &self.flows[i];
                let s = &self.senders[f.sender as usize];
                let gw = if in_window { s.generated - s.generated_w0 } else { 0 };
                let receivers: Vec<Value> = f
                    .receivers
                    .iter()
                    .map(|r| {
                        let bw = if in_window { r.bytes - r.bytes_w0 } else { 0 };
                        let mut v = Entry::default();
                        v.put("host", name(r.host)).put("frames", r.frames).put("bytes_window", bw);
                        v.put("throughput_bps", if window_s > 0.0 { bw as f64 * 8.0 / window_s } else { 0.0 });
                        if let Some(t) = &r.rf {
                            v.merge(t.report(now));
                        }
                        if let Some(np) = &r.np {
                            v.merge(np.report());
                        }
                        v.into_value()
                    })
                    .collect();
                // In the document's (sorted) order, as the queues'.
                v.put("dropped", f.dropped).put("dropped_window", if in_window { f.dropped - f.dropped_w0 } else { 0 });
                v.put("feedback_received_window", f.rp.as_ref().map_or(0, |r| if in_window { r.feedback_received() - f.feedback_w0 } else { 0 }));
                v.put("frames_generated", s.generated).put("frames_generated_window", gw).put("group", f.group.as_deref());
                v.put("injected", f.injected).put("injected_window", if in_window { f.injected - f.injected_w0 } else { 0 });
                v.put("mode", f.mode).put("name", f.name.as_str()).put("receivers", Value::Array(receivers));
                v.put("replicated", f.replicated).put("replicated_window", if in_window { f.replicated - f.replicated_w0 } else { 0 });
                v.put("source", name(f.src)).put("source_dropped", s.source_dropped);
                if let Some(t) = &f.transport {
                    v.merge(t.report(in_window, window_s));
                }
                if f.size_bytes > 0 {
                    let fct = (f.completed != crate::core::time::Time::MAX).then(|| to_secs(f.completed - f.started));
                    v.put("size_bytes", f.size_bytes).put("fct_s", fct).put("fct_ideal_s", self.ideal_fct(i as u32).map(to_secs));
                }
                Some(v)
            }
            Table::Ports => {
                let fabric = self.fc.as_ref()?;
                let p = &self.ports[i];
                let measured = FcPort {
                    sent: p.c.ctrl_sent,
                    received: p.c.ctrl_received,
                    held_s: std::array::from_fn(|c| to_secs(p.hold.held(c, now))),
                    held_s_window: std::array::from_fn(|c| if in_window { to_secs(p.hold.held_window(c, now)) } else { 0.0 }),
                };
                let gen = p.fc.as_ref().map_or(fabric, |f| &f.gen);
                v.put("name", Field::Pair(name(p.node), name(p.peer_node))).put("node", name(p.node));
                v.merge(gen.port_report(&measured));
                Some(v)
            }
        }
    }

    /// The document without its tables (`TABLES`).
    fn stats_head(&self) -> Value {
        let now = self.now;
        let in_window = now >= self.measure_from;
        let w0 = if in_window { self.c_w0 } else { self.c };
        let window_s = to_secs(now.saturating_sub(self.measure_from));
        let name = |i: u32| self.nodes[i as usize].name.clone();
        // Sessions with RPs; the session rate is min over its RPs (Mliki et al. 2016a §3).
        let sessions: Vec<Value> = self
            .sessions
            .iter()
            .filter(|s| self.flows[s.flows.start as usize].rp.is_some())
            .map(|s| {
                let (mean, std) = s.cr.mean_std(now);
                let flows: Vec<&str> = (s.flows.clone()).map(|f| self.flows[f as usize].name.as_str()).collect();
                json!({"name": flows.join("+"), "source": name(s.host), "flows": flows,
                       "cr_mean_bps": mean, "cr_std_bps": std, "cr_min_bps": s.cr.min, "cr_final_bps": s.cr.value()})
            })
            .collect();
        let fc = self.fc.as_ref().map(|g| g.frames_name());
        let transport = self.flows.iter().any(|f| f.transport.is_some());
        let probes = self.c.path_control_sent > 0;
        let mut frames = counters(&self.c, fc, transport, probes);
        let (data, fb, ctrl, acks, probe) = self.in_flight();
        if probes {
            frames["probe_in_flight"] = json!(probe);
        }
        frames["data_in_flight"] = json!(data);
        frames["feedback_in_flight"] = json!(fb);
        let present = self.protocols_present();
        protocol_counters(&mut frames, &self.c, &present);
        let mut window = counters(&diff(&self.c, &w0), fc, transport, probes);
        protocol_counters(&mut window, &diff(&self.c, &w0), &present);
        if let Some(w) = fc {
            frames[format!("{w}_in_flight")] = json!(ctrl);
        }
        if transport {
            frames["ack_in_flight"] = json!(acks);
        }
        let waiting: u64 = self.senders.iter().map(|s| (s.buf.len() * s.flows.len()) as u64).sum();
        frames["data_in_limiters"] = json!(waiting);
        if self.nodes.iter().any(|n| n.kind == crate::net::node::NodeKind::Router) {
            frames["ttl_expired"] = json!(self.c.ttl_expired);
        }
        let mut doc = json!({
            "version": env!("CARGO_PKG_VERSION"),
            "seed": self.seed,
            "frame_size_bytes": self.frame_size,
            "scenario": self.scenario_path,
            "time": {"end_s": to_secs(now), "duration_s": to_secs(self.duration),
                     "measure_from_s": to_secs(self.measure_from), "window_s": window_s},
            "events": self.events,
            "stopped_by": self.stopped_by,
            "frames": frames,
            "window": window,
            "sessions": sessions,
        });
        if !self.endpoints.is_empty() {
            let eps: Vec<Value> = self
                .endpoints
                .iter()
                .map(|e| {
                    let (mean, _) = e.level.mean_std(now);
                    let (adds, drops) = e.cc.changes();
                    let bw = if in_window { e.bytes - e.bytes_w0 } else { 0 };
                    json!({"name": name(e.host), "protocol": e.cc.name(), "level_final": e.cc.level(), "level_mean": mean,
                           "adds": adds, "drops": drops, "lost": e.lost_total + e.lost, "received": e.received_total + e.received,
                           "throughput_bps": if window_s > 0.0 { bw as f64 * 8.0 / window_s } else { 0.0 }})
                })
                .collect();
            doc["endpoints"] = json!(eps);
        }
        // Groups whose membership changed or is partial (a static, fully joined group adds nothing).
        if self.groups.iter().any(|g| g.joins + g.leaves > 0 || g.joined.contains(&false)) {
            let groups: Vec<Value> = self
                .groups
                .iter()
                .map(|g| {
                    let joined: Vec<String> = g.members.iter().zip(&g.joined).filter(|(_, &j)| j).map(|(&h, _)| name(h)).collect();
                    json!({"name": g.name, "joins": g.joins, "leaves": g.leaves, "members_joined": joined.len(), "joined": joined})
                })
                .collect();
            doc["groups"] = json!(groups);
        }
        doc
    }
}

/// The document's tables that grow with the network, made one entry at a time (`Sim::entry`); ports
/// only with flow control (per port, hosts' too: its flow control's frames and the time its
/// transmitter held each priority class, in the words of the port's generator, the fabric's at a host).
#[derive(Clone, Copy)]
enum Table {
    Rps,
    Queues,
    Flows,
    Ports,
}

const TABLES: [Table; 4] = [Table::Rps, Table::Queues, Table::Flows, Table::Ports];

impl Table {
    fn key(self) -> &'static str {
        match self {
            Table::Rps => "rps",
            Table::Queues => "queues",
            Table::Flows => "flows",
            Table::Ports => "ports",
        }
    }
}

fn write_json(out: &mut Vec<u8>, v: &Value) {
    serde_json::to_writer(out, v).expect("a Value always serialises");
}
