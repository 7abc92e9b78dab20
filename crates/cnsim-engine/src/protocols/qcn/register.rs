//! QCN's registration (`slots::register`): its tag-area owners, metrics, CNM and probe frames as a
//! capture selects and writes them, and its trace rows (CNM sent by a CP, CNM received at the
//! flow's source); and its part in the fixed benchmark, the congestion control it runs with.

use super::summary::SUMMARIES;
use super::{wire, METRICS};
use crate::net::frame::{Frame, FrameKind, Proto};
use crate::slots::metrics::{Mechanism, Renamed};
use crate::slots::register::{AtDestination, Bench, Counted, CaptureKind, Fabric, FrameEvents, OldKey, Protocol, TraceKind};
use crate::slots::trace::{field, Fields, Slot, Type, CPID};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A CNM (IEEE 802.1Qau-2010 §33.4; `wire::Cnm`).
    pub const Qcn: Proto = Proto(1);
    /// A probe and its answer (Roeck 2007; `probe.rs`).
    pub const QcnProbe: Proto = Proto(6);
}

const CNM_SENT: u8 = 0;
const CNM_RECEIVED: u8 = 1;

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("qcn", Proto::Qcn), ("qcn_probe", Proto::QcnProbe)],
    metrics: METRICS,
    summaries: SUMMARIES,
    frames: &[
        CaptureKind { name: "cnm", bit: 1, kind: FrameKind::Feedback, owners: &[Proto::Qcn], pcap: Some(wire::pcap_cnm) },
        // A probe's answer is feedback too: its Ethernet and 802.1Q headers only.
        CaptureKind { name: "cnm", bit: 1, kind: FrameKind::Feedback, owners: &[Proto::QcnProbe], pcap: None },
        CaptureKind { name: "probe", bit: 6, kind: FrameKind::PathControl, owners: &[Proto::QcnProbe], pcap: Some(wire::pcap_probe) },
    ],
    events: &[
        TraceKind {
            name: "cnm_sent",
            bit: CNM_SENT,
            fields: &[field("qntz_fb", Slot::A, Type::Int), field("qoff_bytes", Slot::B, Type::Int),
                      field("qdelta_bytes", Slot::C, Type::Int), field("fb", Slot::X, Type::Float), CPID],
        },
        TraceKind { name: "cnm_received", bit: CNM_RECEIVED, fields: &[field("qntz_fb", Slot::A, Type::Int), CPID] },
    ],
    frame_events: &[FrameEvents {
        kind: FrameKind::Feedback,
        owners: &[Proto::Qcn, Proto::QcnProbe],
        sent: Some(CNM_SENT),
        received: Some(CNM_RECEIVED),
        sent_fields: Some(cnm_sent),
        received_fields: Some(cnm_received),
    }],
    counted: &[Counted { name: "cnm", owners: &[Proto::Qcn] }],
    at_destination: &[AtDestination { owner: Proto::QcnProbe, answer: super::slot::probe_at_destination }],
    old_keys: &[
        OldKey { table: "cp", key: "protocol", hint: "`[cp] protocol = ...` is the old syntax: put the CP's keys under its protocol's table, e.g. `[cp.qcn]` with `qeq = \"25 frames\"`, or write `cp = \"none\"` (docs/scenarios.md)" },
        OldKey { table: "port.cp", key: "protocol", hint: "`[[port]] cp = { protocol = ... }` is the old syntax: write `cp = { qcn = { ... } }` or `cp = \"none\"` (docs/scenarios.md)" },
        OldKey { table: "flow.rp", key: "protocol", hint: OLD_RP },
        OldKey { table: "flow.rp", key: "buffer", hint: OLD_RP },
        OldKey { table: "flow.rp", key: "copy_rate", hint: OLD_RP },
    ],
    // A fabric under QCN (IEEE 802.1Qau): a congestion point on every port, a reaction point on
    // every flow, each with its defaults.
    fabrics: &[Fabric {
        name: "qcn",
        doc: "QCN (IEEE 802.1Qau): a congestion point on every port, a reaction point on every flow",
        toml: "[tables.cp.qcn]\n[flow.rp.qcn]\n[workload.rp.qcn]\n",
        rtt_frames: None,
    }],
    mechanisms: &[Mechanism {
        name: "qcn",
        doc: "a QCN congestion point (its Fb samples): a queue with `cp_fb_negative_window`",
        marks: "queues.cp_fb_negative_window",
        implied_by: &[],
        marker: Some("fb_negative_samples_pct"),
    }],
    // Before each protocol counted its own feedback frames, these counters of `frames` and
    // `window` counted every protocol's under QCN's word; `feedback_*` do now.
    renamed: &[
        Renamed { document: "stats", scope: "frames", old: "cnm_sent", new: "feedback_sent" },
        Renamed { document: "stats", scope: "frames", old: "cnm_delivered", new: "feedback_delivered" },
        Renamed { document: "stats", scope: "frames", old: "cnm_dropped", new: "feedback_dropped" },
        Renamed { document: "stats", scope: "frames", old: "cnm_in_flight", new: "feedback_in_flight" },
    ],
    // The fixed benchmark of docs/performance.md is "with and without QCN", at its defaults.
    bench: Some(Bench::Control { cp: "{}", rp: "{}" }),
    ..Protocol::named("qcn")
};

/// cnsim 0.1's reaction point, QCN's, held the limiter's keys.
const OLD_RP: &str = "`rp = { {key} = ... }` is the old syntax: the reaction point is `rp = { qcn = { ... } }`, and the limiter's `buffer` and `copy_rate` moved to `limiter = { buffer = 100, copy_rate = \"session-min\" }` (docs/scenarios.md)";

/// A CNM sent by its CP: QntzFb, cnmQOffset and cnmQDelta in bytes, the CP's Fb.
fn cnm_sent(fb: &Frame, cpid: u64, x: f64) -> Fields {
    Fields { a: fb.tag[0] as i64, b: fb.tag[2] as i32 as i64, c: fb.tag[3] as i32 as i64, cpid, x }
}

/// A CNM (or a probe's answer) at its flow's source: QntzFb (the answer's Fb) and its CP.
fn cnm_received(fb: &Frame) -> (Fields, u32) {
    (Fields { a: fb.tag[0] as i64, x: f64::NAN, ..Default::default() }, fb.tag[1])
}
