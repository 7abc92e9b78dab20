//! PAUSE/PFC's registration (`slots::register`): its tag-area owner, metrics, its MAC control
//! frames as a capture selects and writes them, and its trace rows (a PAUSE sent by a port,
//! received by its neighbour; their fields come from the flow-control slot: quanta and classes).

use super::summary::SUMMARIES;
use super::{wire, METRICS};
use crate::net::frame::{FrameKind, Proto};
use crate::slots::metrics::Mechanism;
use crate::slots::register::{CaptureKind, FrameEvents, Protocol, TraceKind};
use crate::slots::trace::{field, Field, Slot, Type};

#[allow(non_upper_case_globals)]
impl Proto {
    /// An 802.3x PAUSE or 802.1Qbb PFC frame (`PauseMsg`).
    pub const Pause: Proto = Proto(3);
}

const PAUSE_SENT: u8 = 7;
const PAUSE_RECEIVED: u8 = 8;
const FIELDS: &[Field] = &[field("quanta", Slot::A, Type::Int), field("classes", Slot::B, Type::Int)];

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("pause", Proto::Pause)],
    metrics: METRICS,
    summaries: SUMMARIES,
    frames: &[CaptureKind { name: "pause", bit: 3, kind: FrameKind::MacControl, owners: &[], pcap: Some(|f, c, _, b| wire::pcap(f, c, b)) }],
    events: &[TraceKind { name: "pause_sent", bit: PAUSE_SENT, fields: FIELDS }, TraceKind { name: "pause_received", bit: PAUSE_RECEIVED, fields: FIELDS }],
    frame_events: &[FrameEvents {
        kind: FrameKind::MacControl,
        owners: &[],
        sent: Some(PAUSE_SENT),
        received: Some(PAUSE_RECEIVED),
        sent_fields: None,
        received_fields: None,
    }],
    mechanisms: &[Mechanism { name: "pause", doc: "PAUSE/PFC flow control: `ports`", marks: "ports", implied_by: &[], marker: None }],
    ..Protocol::named("pause")
};
