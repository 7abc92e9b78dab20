//! HPCC's registration (`slots::register`): its tag-area owner, metrics, its ACKs as a capture
//! writes them, and that its flows' data frames
//! collect in-band telemetry at every forwarding port (`net::telemetry`), echoed in the ACKs.

use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{CaptureKind, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// HPCC's data frames and ACKs (11 and 12 are TIMELY's and Swift's).
    pub const Hpcc: Proto = Proto(13);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("hpcc", Proto::Hpcc)],
    metrics: METRICS,
    // Its ACKs under the capture kind `ack` (TCP's bit: one name for every transport's ACKs).
    frames: &[CaptureKind { name: "ack", bit: 4, kind: FrameKind::Ack, owners: &[Proto::Hpcc], pcap: Some(|f, c, _, b| wire::pcap_ack(f, c, b)) }],
    telemetry: true,
    ..Protocol::named("hpcc")
};
