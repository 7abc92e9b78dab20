//! The protocol event trace: one row per event a researcher asks about when a number looks wrong
//! (CNM sent and received, drops with their reason, rate limiters created and released, PAUSE
//! sent and received, E-QCN representative changes). Columns are typed vectors; `FIELDS` names,
//! per kind, the fields a row fills, and Python builds its columns from it (`cnsim.trace`).

use crate::net::frame::Frame;
use crate::slots::Proto;

/// Event kinds, as filter bits; `KIND_NAMES[i]` names bit i.
pub const CNM_SENT: u16 = 1;
pub const CNM_RECEIVED: u16 = 2;
pub const BCN_SENT: u16 = 4;
pub const BCN_RECEIVED: u16 = 8;
pub const DROP: u16 = 16;
pub const LIMITER_CREATED: u16 = 32;
pub const LIMITER_RELEASED: u16 = 64;
pub const PAUSE_SENT: u16 = 128;
pub const PAUSE_RECEIVED: u16 = 256;
pub const REPRESENTATIVE: u16 = 512;
/// Flow control's rows under the slot's name (one protocol fills it).
pub const FC_SENT: u16 = PAUSE_SENT;
pub const FC_RECEIVED: u16 = PAUSE_RECEIVED;
pub const KIND_NAMES: [&str; 10] = [
    "cnm_sent", "cnm_received", "bcn_sent", "bcn_received", "drop", "limiter_created", "limiter_released",
    "pause_sent", "pause_received", "representative",
];

/// A CP sent feedback frame `fb` (`cpid`: its wire CPID, `x`: its unquantized feedback): the
/// row's kind and fields (QntzFb, Qoff, Qdelta, Fb; BCN: STOP and e).
pub fn feedback_sent(fb: &Frame, cpid: u64, x: f64) -> (u16, Fields) {
    let fields = Fields { a: fb.tag[0] as i64, b: fb.tag[2] as i32 as i64, c: fb.tag[3] as i32 as i64, cpid, x };
    if fb.proto == Proto::Bcn {
        (BCN_SENT, Fields { a: fb.tag[3] as i64, b: 0, c: 0, ..fields })
    } else {
        (CNM_SENT, fields)
    }
}

/// Feedback frame `fb` reached its flow's source: the row's kind, its `a` field, the engine's CPID
/// (a port) and `x`.
pub fn feedback_received(fb: &Frame) -> (u16, i64, u32, f64) {
    match fb.proto {
        Proto::Bcn => (BCN_RECEIVED, fb.tag[3] as i64, fb.tag[0], f32::from_bits(fb.tag[1]) as f64),
        _ => (CNM_RECEIVED, fb.tag[0] as i64, fb.tag[1], f64::NAN),
    }
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

/// The column of a row a field is kept in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    A,
    B,
    C,
    Cpid,
    X,
}

/// How a field reads: a signed integer, a float, an unsigned 64-bit integer (the wire's CPID), a
/// drop reason (index into `REASON_NAMES`) or a frame kind (a `capture` kind bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Float,
    Unsigned,
    Reason,
    FrameKind,
}

/// One named field of a kind's rows.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub slot: Slot,
    pub ty: Type,
}

impl Slot {
    pub const fn column(self) -> &'static str {
        match self {
            Slot::A => "a",
            Slot::B => "b",
            Slot::C => "c",
            Slot::Cpid => "cpid",
            Slot::X => "x",
        }
    }
}

impl Type {
    pub const fn name(self) -> &'static str {
        match self {
            Type::Int => "int",
            Type::Float => "float",
            Type::Unsigned => "unsigned",
            Type::Reason => "reason",
            Type::FrameKind => "frame_kind",
        }
    }
}

const fn f(name: &'static str, slot: Slot, ty: Type) -> Field {
    Field { name, slot, ty }
}
const CPID: Field = f("cpid", Slot::Cpid, Type::Unsigned);
const BCN_FIELDS: &[Field] = &[f("stop", Slot::A, Type::Int), f("e", Slot::X, Type::Float), CPID];
const PAUSE_FIELDS: &[Field] = &[f("quanta", Slot::A, Type::Int), f("classes", Slot::B, Type::Int)];

/// The fields each kind fills (`FIELDS[i]` for `KIND_NAMES[i]`), as `hooks.rs` writes them; the
/// others stay at their defaults (0, or NaN for `x`).
pub const FIELDS: [&[Field]; KIND_NAMES.len()] = [
    &[f("qntz_fb", Slot::A, Type::Int), f("qoff_bytes", Slot::B, Type::Int), f("qdelta_bytes", Slot::C, Type::Int),
      f("fb", Slot::X, Type::Float), CPID],
    &[f("qntz_fb", Slot::A, Type::Int), CPID],
    BCN_FIELDS,
    BCN_FIELDS,
    &[f("reason", Slot::A, Type::Reason), f("frame_kind", Slot::B, Type::FrameKind)],
    &[f("rate_bps", Slot::X, Type::Float)],
    &[],
    PAUSE_FIELDS,
    PAUSE_FIELDS,
    &[f("fb_hat", Slot::A, Type::Int), CPID],
];

/// Fields of one row (their names per kind: `FIELDS`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fields {
    pub a: i64,
    pub b: i64,
    pub c: i64,
    pub cpid: u64,
    pub x: f64,
}

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
        for fields in FIELDS {
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
        assert_eq!(FIELDS[DROP.trailing_zeros() as usize][0].ty, Type::Reason);
    }
}
