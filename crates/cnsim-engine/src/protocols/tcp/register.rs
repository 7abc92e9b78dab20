//! TCP's registration (`slots::register`): its tag-area owner, metrics, its ACKs as a capture
//! selects and writes them (its data segments' headers: `TransportMachine::wire`), and the
//! benchmark case it runs.

use super::summary::{SUMMARIES, TALLIES};
use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::metrics::{Mechanism, Renamed};
use crate::slots::register::{Bench, CaptureKind, Fabric, Protocol};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A TCP ACK (`Ack`).
    pub const Tcp: Proto = Proto(7);
}

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("tcp", Proto::Tcp)],
    metrics: METRICS,
    summaries: SUMMARIES,
    tallies: TALLIES,
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
    mechanisms: &[Mechanism { name: "tcp", doc: "TCP flows: a flow with `tcp_goodput_bps`", marks: "flows.tcp_goodput_bps", implied_by: &[], marker: None }],
    // Its series before their names carried their unit.
    renamed: &[
        Renamed { document: "series", scope: "", old: "tcp.*.cwnd", new: "tcp_cwnd_segments.*" },
        Renamed { document: "series", scope: "", old: "tcp.*.srtt", new: "tcp_srtt_s.*" },
    ],
    // The benchmark's TCP case: Jiang & Jain 2007's ns-2 TCP defaults (`TcpSpec`'s), max RTO
    // 1 ms as in their §VI.A.
    bench: Some(Bench::Transport { table: "{ max_rto = \"1ms\" }" }),
    ..Protocol::named("tcp")
};
