//! Protocol slots: the boundary between the protocol-free engine (`core/`, `net/`, `sim/`) and
//! the protocols' sans-IO state machines (`protocols/`). This layer sits between the two: it holds
//! what every protocol of a slot implements — the trait the engine calls it through — and the
//! vocabulary the slots share; it lists no protocol's state. The enums that list each slot's
//! protocols and dispatch to them with a `match` (never `dyn`) are the layer above the
//! protocols, `registry/`.
//!
//! | slot | trait | occupants (`registry/`) |
//! |---|---|---|
//! | congestion point | `cp.rs`: `CpMachine` | `registry::Cp` |
//! | reaction point | `rp.rs`: `RpMachine` | `registry::Rp` |
//! | notification point | `np.rs`: `NpMachine` | `registry::Np` |
//! | active queue management | `aqm.rs`: `AqmMachine` | `registry::Aqm` |
//! | closed-loop transport | `transport.rs`: `TransportMachine` | `registry::Transport` |
//! | link-level flow control | `flow_control.rs`: `FcMachine` | `registry::FcGen` |
//! | multi-rate multicast receiver | `mcast.rs`: `McastMachine` | `registry::McastCc` |
//!
//! This module also owns the vocabulary every slot shares: [`TimerAction`], [`Sent`],
//! [`QueueView`], [`Verdict`], metric declarations (`metrics.rs`), the shared writers of the on-wire
//! bytes (`wire.rs`), the trace's rows (`trace.rs`), what a protocol registers once, in its
//! folder (`register.rs`: its tag-area owners — [`Proto`]'s constants —, metrics, capture and
//! trace kinds), and how a protocol's scenario table builds its slot's state (`spec.rs`:
//! `FromSpec` and the contexts it builds in).

pub mod aqm;
pub mod cp;
pub mod flow_control;
pub mod mcast;
pub mod metrics;
pub mod np;
pub mod register;
pub mod reliable;
pub mod rp;
pub mod spec;
pub mod trace;
pub mod transport;
pub mod wire;

use crate::core::time::Time;
pub use crate::net::frame::Proto;

/// What the engine must do with a protocol's timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerAction {
    None,
    /// (Re)arm to fire at this absolute time; any earlier arming is void.
    Arm(Time),
    Cancel,
}

/// What an RP answers when its limiter has sent a frame (`Rp::on_sent`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sent {
    /// What to do with the RP's timer.
    pub timer: TimerAction,
    /// The limiter's rate (bit/s) while it limits (0 while a BCN STOP holds it), else None.
    pub limit: Option<f64>,
    /// The rate moved (QCN: at the end of a byte-counter cycle, or the limiter went away).
    pub rate_changed: bool,
    /// A path control frame is due (`Rp::take_path_control` makes it).
    pub path_control_due: bool,
}

/// The queue a CP or an AQM watches, as it is when a frame is offered to it.
#[derive(Clone, Copy, Debug)]
pub struct QueueView {
    pub bytes: u64,
    pub frames: u64,
    /// Rate of the port's link (BCN's capacity field).
    pub rate_bps: u64,
}

/// What an AQM does with an arriving frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Queue it (the drop-tail capacity may still refuse it).
    Enqueue,
    /// Queue it with the ECN CE codepoint set.
    Mark,
    /// An early (probabilistic) drop.
    EarlyDrop,
    /// A forced drop: the average is above the region where RED drops at random.
    ForcedDrop,
}
