//! The vocabulary of the protocol event trace (`tap::trace`) a protocol declares its rows in: a
//! row's typed columns (`Fields`) and the named fields each kind of row fills (`Field`). Python
//! builds its columns from these declarations (`cnsim.trace`).

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
/// drop reason (index into `tap::trace::REASON_NAMES`) or a frame kind (a `tap::capture` kind bit).
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

/// A field named `name`, kept in column `slot`, read as `ty`.
pub const fn field(name: &'static str, slot: Slot, ty: Type) -> Field {
    Field { name, slot, ty }
}

/// The 8-byte CPID as on the wire (the CP switch's MAC, then the port's index there).
pub const CPID: Field = field("cpid", Slot::Cpid, Type::Unsigned);

/// Fields of one row (their names per kind: the kind's `Field`s); the others stay at their
/// defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fields {
    pub a: i64,
    pub b: i64,
    pub c: i64,
    pub cpid: u64,
    pub x: f64,
}
