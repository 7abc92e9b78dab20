//! The protocol event trace: one row per event a researcher asks about when a number looks wrong
//! (each protocol's frames sent and received, drops with their reason, rate limiters created and
//! released, E-QCN representative changes). Columns are typed vectors; each kind names the fields
//! its rows fill (`slots::trace::Field`), and Python builds its columns from them
//! (`cnsim.trace`). The engine's own kinds are here; a protocol registers the kinds of its
//! frames' rows (`slots::register`), collected from the registry.

use crate::net::frame::{Frame, FrameKind};
use crate::registry::PROTOCOLS;
use crate::slots::register::{FrameEvents, TraceKind};
pub use crate::slots::trace::{Field, Fields, Slot, Type};
use crate::slots::trace::{field, CPID};

/// The engine's own kinds, as filter bits (bit i is `1 << i`; the protocols' are in their
/// registrations).
pub const DROP: u16 = 1 << 4;
pub const LIMITER_CREATED: u16 = 1 << 5;
pub const LIMITER_RELEASED: u16 = 1 << 6;
pub const REPRESENTATIVE: u16 = 1 << 9;

/// The engine's own kinds and their fields, as `hooks.rs` writes them.
const ENGINE: &[TraceKind] = &[
    TraceKind { name: "drop", bit: 4, fields: &[field("reason", Slot::A, Type::Reason), field("frame_kind", Slot::B, Type::FrameKind)] },
    TraceKind { name: "limiter_created", bit: 5, fields: &[field("rate_bps", Slot::X, Type::Float)] },
    TraceKind { name: "limiter_released", bit: 6, fields: &[] },
    TraceKind { name: "representative", bit: 9, fields: &[field("fb_hat", Slot::A, Type::Int), CPID] },
];

/// Every kind: the engine's, then the protocols' in the registry's order.
pub fn declarations() -> impl Iterator<Item = &'static TraceKind> {
    ENGINE.iter().chain(PROTOCOLS.iter().flat_map(|p| p.events))
}

/// The kinds in bit order (bit i is `1 << i`): `kind_names()[i]` names bit i.
fn by_bit() -> Vec<Option<&'static TraceKind>> {
    let mut kinds = vec![None; declarations().map(|k| k.bit as usize + 1).max().unwrap_or(0)];
    for k in declarations() {
        kinds[k.bit as usize] = Some(k);
    }
    kinds
}

/// Names of the kind bits, in bit order.
pub fn kind_names() -> Vec<&'static str> {
    by_bit().iter().map(|k| k.map_or("", |k| k.name)).collect()
}

/// The fields each kind fills (`fields()[i]` for `kind_names()[i]`); the others stay at their
/// defaults.
pub fn fields() -> Vec<&'static [Field]> {
    by_bit().iter().map(|k| k.map_or(&[][..], |k| k.fields)).collect()
}

/// The rows a protocol registered for frame `f` (the first declaration whose owners include its
/// tag-area owner, else the first of its kind that lists no owner).
fn frame_events(kind: FrameKind, f: Option<&Frame>) -> Option<&'static FrameEvents> {
    let all = || PROTOCOLS.iter().flat_map(|p| p.frame_events).filter(move |e| e.kind == kind);
    f.and_then(|f| all().find(|e| e.owners.contains(&f.proto))).or_else(|| all().find(|e| e.owners.is_empty()))
}

/// Frame `f` was sent (`cpid`: the wire CPID of the CP that sent it, or 0; `x`: that CP's
/// unquantized feedback, or NaN): its row's kind and fields, if its protocol registered one.
pub fn frame_sent(f: &Frame, cpid: u64, x: f64) -> Option<(u16, Fields)> {
    let e = frame_events(f.kind, Some(f))?;
    Some((1 << e.sent?, e.sent_fields.map_or_else(Fields::default, |g| g(f, cpid, x))))
}

/// Frame `f` reached the entity it addresses: its row's kind, fields and the engine's CPID (a
/// port, or `NONE`) whose wire CPID fills the `cpid` field, if its protocol registered one.
pub fn frame_received(f: &Frame) -> Option<(u16, Fields, u32)> {
    let e = frame_events(f.kind, Some(f))?;
    let (fields, cpid) = e.received_fields.map_or((Fields::default(), crate::net::frame::NONE), |g| g(f));
    Some((1 << e.received?, fields, cpid))
}

/// The rows of the flow-control frames (sent, received): the kinds registered for MAC control
/// frames.
pub fn flow_control_kinds() -> (Option<u16>, Option<u16>) {
    let e = frame_events(FrameKind::MacControl, None);
    (e.and_then(|e| e.sent).map(|b| 1 << b), e.and_then(|e| e.received).map(|b| 1 << b))
}

/// Why a frame was dropped (the `a` field of a DROP row); `REASON_NAMES[r]` names reason r.
pub const QUEUE_FULL: i64 = 0;
pub const LIMITER_BUFFER: i64 = 1;
pub const WIRE_LOSS: i64 = 2;
pub const UNROUTABLE: i64 = 3;
/// Dropped by active queue management (RED's early or forced drop) before the drop-tail check.
pub const AQM: i64 = 4;
/// An IP router decremented the TTL to 0.
pub const TTL: i64 = 5;
pub const REASON_NAMES: [&str; 6] = ["queue_full", "limiter_buffer", "wire_loss", "unroutable", "aqm", "ttl"];

#[derive(Default)]
pub struct Trace {
    pub kinds: u16,
    pub t: Vec<u64>,
    pub kind: Vec<u16>,
    pub node: Vec<u32>,
    pub port: Vec<u32>,
    pub flow: Vec<u32>,
    pub a: Vec<i64>,
    pub b: Vec<i64>,
    pub c: Vec<i64>,
    pub cpid: Vec<u64>,
    pub x: Vec<f64>,
    /// Per flow: the limiter state and E-QCN representative last recorded.
    pub limiting: Vec<bool>,
    pub representative: Vec<u32>,
}

impl Trace {
    pub fn new(kinds: u16, n_flows: usize) -> Self {
        Trace { kinds, limiting: vec![false; n_flows], representative: vec![u32::MAX; n_flows], ..Default::default() }
    }

    #[inline]
    pub fn wants(&self, kind: u16) -> bool {
        self.kinds & kind != 0
    }

    pub fn push(&mut self, t: u64, kind: u16, node: u32, port: u32, flow: u32, f: Fields) {
        if !self.wants(kind) {
            return;
        }
        self.t.push(t);
        self.kind.push(kind);
        self.node.push(node);
        self.port.push(port);
        self.flow.push(flow);
        self.a.push(f.a);
        self.b.push(f.b);
        self.c.push(f.c);
        self.cpid.push(f.cpid);
        self.x.push(f.x);
    }

    pub fn len(&self) -> usize {
        self.t.len()
    }
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_sits_in_a_column_of_its_type_and_keeps_one_type_across_kinds() {
        let mut seen: Vec<(&str, Type)> = vec![];
        for fields in fields() {
            for (i, a) in fields.iter().enumerate() {
                let fits = match a.slot {
                    Slot::A | Slot::B | Slot::C => matches!(a.ty, Type::Int | Type::Reason | Type::FrameKind),
                    Slot::Cpid => a.ty == Type::Unsigned,
                    Slot::X => a.ty == Type::Float,
                };
                assert!(fits, "{} in {:?} as {:?}", a.name, a.slot, a.ty);
                assert!(fields[..i].iter().all(|b| b.slot != a.slot && b.name != a.name), "{} twice", a.name);
                match seen.iter().find(|s| s.0 == a.name) {
                    Some(s) => assert_eq!(s.1, a.ty, "{} has two types", a.name),
                    None => seen.push((a.name, a.ty)),
                }
            }
        }
        assert_eq!(fields()[DROP.trailing_zeros() as usize][0].ty, Type::Reason);
    }

    #[test]
    fn kinds_keep_their_bits_and_every_bit_is_named_once() {
        // Stored traces are read by bit: the kinds there were keep theirs.
        let names = kind_names();
        let kept = ["cnm_sent", "cnm_received", "bcn_sent", "bcn_received", "drop", "limiter_created", "limiter_released", "pause_sent", "pause_received", "representative"];
        assert_eq!(names[..kept.len()], kept);
        assert!(names.iter().all(|n| !n.is_empty()) && names.len() <= 16);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(declarations().filter(|k| k.name == *n).count(), 1, "{n} declared twice");
            assert_eq!(declarations().find(|k| k.name == *n).unwrap().bit as usize, i);
        }
        for k in ["drop", "limiter_created", "limiter_released", "representative"] {
            let bit = 1 << names.iter().position(|n| *n == k).unwrap();
            assert!([DROP, LIMITER_CREATED, LIMITER_RELEASED, REPRESENTATIVE].contains(&bit), "{k}");
        }
    }

    #[test]
    fn each_protocols_frames_are_traced_under_its_own_name() {
        use crate::net::frame::{Dest, Proto};
        let names = kind_names();
        let name = |bit: u16| names[bit.trailing_zeros() as usize];
        let data = Frame::new(FrameKind::Data, 1000, 3, Dest::Node(9), 42, 0);
        let cnp = crate::protocols::dcqcn::wire::cnp(&data, 9, 64, 6, 0);
        let (sent, fields) = frame_sent(&cnp, 0, f64::NAN).unwrap();
        let (received, _, cpid) = frame_received(&cnp).unwrap();
        assert_eq!((name(sent), name(received), fields.cpid, cpid), ("cnp_sent", "cnp_received", 0, crate::net::frame::NONE));
        let cnm = crate::protocols::qcn::Cnm { qntz_fb: 5, cpid: 3, qoff: -6400, qdelta: 128 }.frame(&data, 9, 64, 0);
        let (sent, f) = frame_sent(&cnm, 77, -1.5).unwrap();
        assert_eq!((name(sent), f.a, f.b, f.c, f.cpid, f.x), ("cnm_sent", 5, -6400, 128, 77, -1.5));
        let (received, f, cpid) = frame_received(&cnm).unwrap();
        assert_eq!((name(received), f.a, cpid), ("cnm_received", 5, 3));
        let ecm = crate::protocols::ecm::Message { cpid: 4, fb: -20.0, echo: None }.frame(&data, 9, 64, 0);
        let (sent, f) = frame_sent(&ecm, 77, f64::NAN).unwrap();
        let (received, g, cpid) = frame_received(&ecm).unwrap();
        assert_eq!((name(sent), f.x, name(received), g.x, cpid), ("ecm_sent", -20.0, "ecm_received", -20.0, 4));
        let mut other = data;
        other.kind = FrameKind::Feedback;
        other.proto = Proto(200);
        assert!(frame_sent(&other, 0, 0.0).is_none() && frame_sent(&data, 0, 0.0).is_none());
        let (s, r) = flow_control_kinds();
        assert_eq!((name(s.unwrap()), name(r.unwrap())), ("pause_sent", "pause_received"));
    }
}
