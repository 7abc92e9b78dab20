//! Swift's registration (`slots::register`): its tag-area owner, metrics, and its acknowledgements
//! as a capture selects and writes them (under the capture kind `ack`, which every transport's
//! acknowledgements share); its data frames are written by its `Ctx::segment` writer (`wire.rs`).

use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{CaptureKind, Fabric, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A Swift data frame (its send time) or acknowledgement (the echo): `wire.rs`.
    pub const Swift: Proto = Proto(12);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("swift", Proto::Swift)],
    metrics: METRICS,
    frames: &[CaptureKind { name: "ack", bit: 4, kind: FrameKind::Ack, owners: &[Proto::Swift], pcap: Some(|f, c, _, b| wire::pcap_ack(f, c, b)) }],
    // Swift with its defaults on every flow.
    fabrics: &[Fabric {
        name: "swift",
        doc: "Swift (Kumar et al. 2020): every flow's transport, with its defaults",
        toml: "[flow]\ntraffic = { kind = \"bulk\" }\ntransport = { swift = {} }\n[workload.transport.swift]\n",
        rtt_frames: None,
    }],
    ..Protocol::named("swift")
};
