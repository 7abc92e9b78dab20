//! DCQCN's registration (`slots::register`): its tag-area owner, metrics, its congestion
//! notification packets (CNPs, RoCEv2) as a capture selects and writes them, and its trace rows (a
//! CNP sent by the flow's notification point, received by its reaction point). A CNP says which
//! flow it is about and nothing else (Zhu et al. 2015 §3.2): its rows have no field beyond the
//! row's node and flow.

use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{Counted, CaptureKind, Fabric, FrameEvents, Protocol, TraceKind};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A DCQCN congestion notification packet (Zhu et al. 2015 §3.2; `wire::cnp`).
    pub const Dcqcn: Proto = Proto(9);
}

const CNP_SENT: u8 = 12;
const CNP_RECEIVED: u8 = 13;

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("dcqcn", Proto::Dcqcn)],
    metrics: METRICS,
    frames: &[CaptureKind { name: "cnp", bit: 7, kind: FrameKind::Feedback, owners: &[Proto::Dcqcn], pcap: Some(|f, c, _, b| wire::pcap(f, c, b)) }],
    events: &[TraceKind { name: "cnp_sent", bit: CNP_SENT, fields: &[] }, TraceKind { name: "cnp_received", bit: CNP_RECEIVED, fields: &[] }],
    frame_events: &[FrameEvents {
        kind: FrameKind::Feedback,
        owners: &[Proto::Dcqcn],
        sent: Some(CNP_SENT),
        received: Some(CNP_RECEIVED),
        sent_fields: None,
        received_fields: None,
    }],
    counted: &[Counted { name: "cnp", owners: &[Proto::Dcqcn] }],
    // A RoCEv2 fabric (Zhu et al. 2015 §2–3): DCQCN's marking on every queue, its RP and NP on
    // every flow, and PFC, the lossless fabric DCQCN runs on.
    fabrics: &[Fabric {
        name: "dcqcn",
        doc: "DCQCN (Zhu et al. 2015): RED-like ECN marking on every queue, RP and NP on every flow, PFC",
        toml: "[queue]\ndiscipline = \"dcqcn\"\n[tables.flow_control.pfc]\n[flow.rp.dcqcn]\n[workload.rp.dcqcn]\n",
        rtt_frames: None,
    }],
    ..Protocol::named("dcqcn")
};
