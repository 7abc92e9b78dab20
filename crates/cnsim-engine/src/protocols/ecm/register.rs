//! ECM's registration (`slots::register`): its tag-area owner, metrics, ECM messages as a capture
//! selects and writes them, and its trace rows (an ECM message sent by a CP and received at the
//! flow's source).

use super::{wire, Message, METRICS};
use crate::net::frame::{Frame, FrameKind, Proto, NONE};
use crate::slots::register::{Counted, CaptureKind, FrameEvents, Protocol, TraceKind};
use crate::slots::trace::{field, Field, Fields, Slot, Type, CPID};

#[allow(non_upper_case_globals)]
impl Proto {
    /// An ECM congestion message (`Message`).
    pub const Ecm: Proto = Proto(5);
}

const ECM_SENT: u8 = 10;
const ECM_RECEIVED: u8 = 11;
const FIELDS: &[Field] = &[field("fb", Slot::X, Type::Float), CPID];

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("ecm", Proto::Ecm)],
    metrics: METRICS,
    frames: &[CaptureKind { name: "ecm", bit: 5, kind: FrameKind::Feedback, owners: &[Proto::Ecm], pcap: Some(wire::pcap) }],
    events: &[TraceKind { name: "ecm_sent", bit: ECM_SENT, fields: FIELDS }, TraceKind { name: "ecm_received", bit: ECM_RECEIVED, fields: FIELDS }],
    frame_events: &[FrameEvents {
        kind: FrameKind::Feedback,
        owners: &[Proto::Ecm],
        sent: Some(ECM_SENT),
        received: Some(ECM_RECEIVED),
        sent_fields: Some(sent),
        received_fields: Some(received),
    }],
    counted: &[Counted { name: "ecm", owners: &[Proto::Ecm] }],
    ..Protocol::named("ecm")
};

/// An ECM message sent by its CP: the Fb it carries.
fn sent(fb: &Frame, cpid: u64, _x: f64) -> Fields {
    Fields { x: Message::read(fb).map_or(f64::NAN, |m| m.fb as f64), cpid, ..Default::default() }
}

/// An ECM message at its flow's source: its Fb and its CP.
fn received(fb: &Frame) -> (Fields, u32) {
    let m = Message::read(fb);
    (Fields { x: m.map_or(f64::NAN, |m| m.fb as f64), ..Default::default() }, m.map_or(NONE, |m| m.cpid))
}
