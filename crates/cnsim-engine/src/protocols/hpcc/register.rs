//! HPCC's registration (`slots::register`): its tag-area owner, metrics, its ACKs as a capture
//! writes them, and that its flows' data frames
//! collect in-band telemetry at every forwarding port (`net::telemetry`), echoed in the ACKs.

use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{CaptureKind, Fabric, Protocol};

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
    // HPCC on every flow, its base RTT T the fabric's longest (the artifact's `GLOBAL_T 1`):
    // a full data frame (the default payload and HPCC's headers) out and an ACK back.
    fabrics: &[Fabric {
        name: "hpcc",
        doc: "HPCC (Li et al. 2019): every flow's transport, T the fabric's longest base RTT; in-band telemetry at every port",
        toml: r#"[flow]
traffic = { kind = "bulk" }
transport = { hpcc = { base_rtt = "{base_rtt}" } }
[workload.transport.hpcc]
base_rtt = "{base_rtt}"
"#,
        rtt_frames: Some((MSS + super::DATA_HEADER_BYTES, super::ACK_BYTES)),
    }],
    ..Protocol::named("hpcc")
};

/// The default payload of a full data frame (`spec::HpccSpec::mss`), as its fabric's base RTT counts it.
const MSS: u32 = 1000;

#[cfg(test)]
mod tests {
    #[test]
    fn the_fabrics_data_frame_is_the_default_payload() {
        assert_eq!(super::MSS as u64, super::super::spec::HpccSpec::default().mss.0);
    }
}
