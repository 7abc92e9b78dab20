//! TCP's registration (`slots::register`): its tag-area owner, metrics, its ACKs as a capture
//! selects and writes them (its data segments' headers: `TransportMachine::wire`).

use super::{wire, METRICS, SUMMARIES};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{CaptureKind, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A TCP ACK (`Ack`).
    pub const Tcp: Proto = Proto(7);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("tcp", Proto::Tcp)],
    metrics: METRICS,
    summaries: SUMMARIES,
    frames: &[CaptureKind { name: "ack", bit: 4, kind: FrameKind::Ack, owners: &[], pcap: Some(|f, c, _, b| wire::pcap_ack(f, c, b)) }],
    ..Protocol::named("tcp")
};
