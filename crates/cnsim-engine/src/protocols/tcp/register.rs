//! TCP's registration (`slots::register`): its tag-area owner, metrics, its ACKs as a capture
//! selects and writes them (its data segments' headers: `TransportMachine::wire`).

use super::{wire, METRICS, SUMMARIES};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::register::{CaptureKind, Fabric, Protocol};

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
    // DCTCP (RFC 8257) is TCP with `ecn = "dctcp"` over step marking: K = 65 frames, Alizadeh et
    // al. 2010 §3.5's value at 10 Gb/s (`queue = { threshold = { k = … } }` sets another).
    fabrics: &[Fabric {
        name: "dctcp",
        doc: "DCTCP (RFC 8257): TCP with ecn = \"dctcp\" on every flow, step marking at K = 65 frames on every queue",
        toml: r#"[queue]
discipline = "threshold"
threshold = { k = "65 frames" }
[flow]
traffic = { kind = "tcp-bulk" }
tcp = { ecn = "dctcp" }
[workload]
traffic = "tcp-transfer"
tcp = { ecn = "dctcp" }
"#,
        rtt_frames: None,
    }],
    ..Protocol::named("tcp")
};
