//! BCN's registration (`slots::register`): its tag-area owner, metrics, BCN messages as a capture
//! selects and writes them, the rate-regulator tag of its data frames, and its trace rows (a BCN
//! message sent by a CP and received at the flow's source).

use super::{wire, METRICS};
use crate::net::frame::{Frame, FrameKind, Proto};
use crate::slots::register::{Counted, CaptureKind, DataTag, FrameEvents, Protocol, TraceKind};
use crate::slots::trace::{field, Field, Fields, Slot, Type, CPID};

#[allow(non_upper_case_globals)]
impl Proto {
    /// A BCN message, or a data frame carrying a rate-regulator tag (`Rrt`).
    pub const Bcn: Proto = Proto(4);
}

const BCN_SENT: u8 = 2;
const BCN_RECEIVED: u8 = 3;
const FIELDS: &[Field] = &[field("stop", Slot::A, Type::Int), field("e", Slot::X, Type::Float), CPID];

pub const PROTOCOL: Protocol = Protocol {
    owners: &[("bcn", Proto::Bcn)],
    metrics: METRICS,
    frames: &[CaptureKind { name: "bcn", bit: 2, kind: FrameKind::Feedback, owners: &[Proto::Bcn], pcap: Some(wire::pcap) }],
    data_tags: &[DataTag { owner: Proto::Bcn, write: wire::rrt_tag }],
    events: &[TraceKind { name: "bcn_sent", bit: BCN_SENT, fields: FIELDS }, TraceKind { name: "bcn_received", bit: BCN_RECEIVED, fields: FIELDS }],
    frame_events: &[FrameEvents {
        kind: FrameKind::Feedback,
        owners: &[Proto::Bcn],
        sent: Some(BCN_SENT),
        received: Some(BCN_RECEIVED),
        sent_fields: Some(sent),
        received_fields: Some(received),
    }],
    counted: &[Counted { name: "bcn", owners: &[Proto::Bcn] }],
    ..Protocol::named("bcn")
};

/// A BCN message sent by its CP: STOP, the CP's e.
fn sent(fb: &Frame, cpid: u64, x: f64) -> Fields {
    Fields { a: fb.tag[3] as i64, cpid, x, ..Default::default() }
}

/// A BCN message at its flow's source: STOP, e, and its CP.
fn received(fb: &Frame) -> (Fields, u32) {
    (Fields { a: fb.tag[3] as i64, x: f32::from_bits(fb.tag[1]) as f64, ..Default::default() }, fb.tag[0])
}
