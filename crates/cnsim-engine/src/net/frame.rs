//! Frames: one fixed-size header that carries what every protocol of docs/protocols.md needs, so that
//! adding a protocol never grows it (docs/architecture.md §2). Protocol fields live in a 16-byte tag area
//! that each protocol reads and writes through its own typed view (e.g. `qcn::Cnm`); larger
//! control payloads belong in a side table keyed by frame id.

use crate::core::arena::Arena;
use crate::core::time::Time;

pub type FrameId = u32;
pub type NodeId = u32;
pub type FlowId = u32;

/// No such entity (port, flow, CPID …).
pub const NONE: u32 = u32::MAX;

/// What a frame is, as far as forwarding is concerned. The protocol it belongs to is in `proto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// Application data of a flow.
    Data,
    /// Congestion feedback addressed to a flow's reaction point (QCN CNM, later BCN/ECM messages).
    /// Routed like data to the flow's source host.
    Feedback,
    /// MAC control (802.3x PAUSE, 802.1Qbb PFC): one hop, consumed by the receiving port, never
    /// queued behind data and never paused itself.
    MacControl,
    /// A transport acknowledgement (TCP): routed like data to the flow's source, delivered to its
    /// transport endpoint. Not sampled by congestion points.
    Ack,
    /// A reaction point's control frame along its flow's path (QCN's probes, Roeck 2007, are the
    /// one kind today; its protocol is in `proto`): routed like data towards the flow's
    /// destination; congestion points on the way may stamp it or answer it (and consume it).
    PathControl,
}

/// ECN codepoints in the two low bits of `Frame::ecn` (RFC 3168 §5).
pub const ECN_ECT0: u8 = 0b10;
pub const ECN_CE: u8 = 0b11;

/// Whether a frame's `ecn` byte says Congestion Experienced (its two IP ECN bits; the transport's
/// flags above them do not count).
#[inline]
pub fn ce(ecn: u8) -> bool {
    ecn & 0b11 == ECN_CE
}

/// Which protocol wrote a frame's tag area (0: none). The engine only carries it; the protocols'
/// values are listed with the slots' shared vocabulary (`slots::Proto`'s constants).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Proto(pub u8);

#[allow(non_upper_case_globals)]
impl Proto {
    /// No protocol wrote the tag area.
    pub const None: Proto = Proto(0);
}

/// Destination: a host or a multicast group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Node(NodeId),
    Group(u32),
}

#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub kind: FrameKind,
    pub proto: Proto,
    /// 802.1p priority 0–7 (the PFC class).
    pub prio: u8,
    /// IP ECN bits and TTL, for the IP-layer protocols.
    pub ecn: u8,
    pub ttl: u8,
    pub size: u32,
    pub src: NodeId,
    pub dst: Dest,
    /// Data: the flow (CN-TAG flow id = RPID). Feedback: the flow whose RP it addresses.
    pub flow: FlowId,
    /// Sequence and acknowledgement numbers (transport protocols).
    pub seq: u32,
    pub ack: u32,
    /// At a switch: the port through which the frame entered (ingress accounting for PFC).
    pub ingress: u32,
    pub created: Time,
    /// Protocol tag area; see the protocol modules for its layouts.
    pub tag: [u32; 4],
}

impl Frame {
    /// A frame with every optional field empty.
    pub fn new(kind: FrameKind, size: u32, src: NodeId, dst: Dest, flow: FlowId, created: Time) -> Self {
        Frame { kind, proto: Proto::None, prio: 0, ecn: 0, ttl: 64, size, src, dst, flow, seq: 0, ack: 0, ingress: NONE, created, tag: [0; 4] }
    }
}

pub type Frames = Arena<Frame>;

#[cfg(test)]
mod tests {
    #[test]
    fn header_stays_small() {
        assert!(std::mem::size_of::<super::Frame>() <= 64);
    }
}
