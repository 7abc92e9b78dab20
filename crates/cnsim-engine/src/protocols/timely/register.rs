//! TIMELY's registration (`slots::register`): its tag-area owner, metrics, and its acknowledgements
//! as a capture selects and writes them (under the capture kind `ack`, which every transport's
//! acknowledgements share); its data frames are written by its `Ctx::segment` writer (`wire.rs`).

use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{CaptureKind, Fabric, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A TIMELY data frame (its send time) or acknowledgement (the echoed send time): `wire.rs`.
    pub const Timely: Proto = Proto(11);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("timely", Proto::Timely)],
    metrics: METRICS,
    frames: &[CaptureKind { name: "ack", bit: 4, kind: FrameKind::Ack, owners: &[Proto::Timely], pcap: Some(|f, c, _, b| wire::pcap_ack(f, c, b)) }],
    // TIMELY with its defaults on every flow.
    fabrics: &[Fabric {
        name: "timely",
        doc: "TIMELY (Mittal et al. 2015): every flow's transport, with its defaults",
        toml: "[flow]\ntraffic = { kind = \"bulk\" }\ntransport = { timely = {} }\n[workload.transport.timely]\n",
        rtt_frames: None,
    }],
    ..Protocol::named("timely")
};
