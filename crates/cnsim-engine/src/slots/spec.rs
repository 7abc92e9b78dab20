//! What a protocol's scenario table builds: each slot type a protocol registers
//! (`registry/protocols.rs`) names its table and turns it into its state ([`FromSpec`]), with range
//! checks whose messages name the key. The engine's context a table needs (a port's name and
//! random-stream seed, its queue, a source's line rate) comes in the small structs below, so that
//! a protocol never reads the scenario or the build.

use super::register::Protocol;
use crate::units::{Amount, Bytes};

/// Queue thresholds a CP computes with (Qeq): at most 2^50 B, so Qoff and W·Qdelta stay exact in
/// 64-bit arithmetic.
pub const MAX_QUEUE_BYTES: u64 = 1 << 50;

/// Frame and message sizes a scenario may give: 1 B … 64 KiB (jumbo frames are ~9 kB).
pub const MAX_FRAME: u64 = 65_535;

/// A frame or message size under `key`, checked against [`MAX_FRAME`].
pub fn frame_size(b: Bytes, key: &str) -> Result<u32, String> {
    if b.0 == 0 || b.0 > MAX_FRAME {
        return Err(format!("{key} must be between 1 B and {MAX_FRAME} B, got {b}"));
    }
    Ok(b.0 as u32)
}

/// A slot's state built from its protocol's scenario table.
pub trait FromSpec: Sized {
    /// The protocol's table for this slot (as the scenario file gives it).
    type Spec;
    /// What the engine tells the protocol when it builds the state.
    type Cx;
    /// The state, or a message naming the offending key.
    fn from_spec(spec: &Self::Spec, cx: &Self::Cx) -> Result<Self, String>;
    /// Likely mistakes in a table that builds (legal, but surely not what its author meant): one
    /// sentence each, naming the key. The build reports them as warnings with the table's line.
    fn warnings(_spec: &Self::Spec, _cx: &Self::Cx) -> Vec<String> {
        Vec::new()
    }
    /// A reaction point's table that needs a unicast flow: the message saying so.
    fn needs_unicast(_spec: &Self::Spec) -> Option<&'static str> {
        None
    }
    /// What a state built from `spec` allocates on the heap when it is made (its own buffers):
    /// (bytes requested, allocations). The memory budget counts it before the state is made
    /// (`build/flow_bytes.rs`). Nothing by default.
    fn heap(_spec: &Self::Spec) -> (usize, usize) {
        (0, 0)
    }
}

/// A congestion point's context: its output port.
pub struct PortCx {
    /// Size of one "frame" where amounts are given in frames (`simulation.frame_size`).
    pub frame: u64,
    /// The port's queue capacity (per class under strict priority); None where the table is
    /// checked before it sits on a port (`[cp]` itself, then each switch port with its queue).
    pub capacity: Option<Amount>,
    /// The run's seed and the port's name, which name the CP's random stream.
    pub seed: u64,
    pub name: String,
    /// Every protocol's registration: the data-frame tags a CP may read (`Protocol::elects`).
    pub protocols: &'static [&'static Protocol],
}

/// A queue-management table's context: the queue it sits in front of.
pub struct QueueCx {
    /// The queue's drop-tail capacity.
    pub capacity: Amount,
    /// Size of one "frame" where a threshold and the capacity are in different units
    /// (`simulation.frame_size`).
    pub frame: u64,
    /// The port's link rate (bit/s).
    pub rate_bps: u64,
    /// The run's seed and the port's name, which name the AQM's random stream.
    pub seed: u64,
    pub name: String,
}

/// A reaction point's context: the flow's source.
pub struct FlowCx {
    /// The rate (bit/s) of the source's link.
    pub line_rate: f64,
}

/// A multi-rate multicast receiver's context: its session's levels.
pub struct McastCx {
    /// The levels (groups) of its session.
    pub levels: usize,
    /// Its level at the start, in 1..=levels.
    pub level: usize,
}

/// A flow-control table's context: the fabric, whose every switch port gets the generator it builds.
pub struct FabricCx {
    /// Size of one "frame" where amounts are given in frames (`simulation.frame_size`).
    pub frame: u64,
    /// A switch port's queue capacity the table is checked against (None: the fabric's table
    /// before it sits on a port; it is then checked once for each capacity the switch ports have).
    pub capacity: Option<Amount>,
}

/// A slot table a protocol gives under more than one key of its slot (PAUSE's
/// `[flow_control.pause]` and `[flow_control.pfc]`): an externally tagged serde enum whose
/// variants are spelled `KEYS`. The scenario's slot reads the key, then hands the table to the
/// protocol that registers it (`scenario/keyed.rs`).
pub trait Keys {
    const KEYS: &'static [&'static str];
}
