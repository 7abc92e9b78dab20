//! Protocol slots: the boundary between the protocol-free engine (`core/`, `net/`, `sim/`) and
//! the protocols' sans-IO state machines (`protocols/`). The engine holds a slot's enum in a port,
//! flow or host and calls it at fixed points (a frame offered to a queue, sent, delivered; a timer;
//! a MAC-control frame); the enum dispatches to the protocol with a `match`, never `dyn`. Each slot
//! file holds its enum and the wiring that carries out what the protocols answer.
//!
//! | slot | file | held by | variants |
//! |---|---|---|---|
//! | congestion point `Cp` | `cp.rs` | `Port::cp` (switch output queue) | QCN (E-QCN's Algorithm 2 for E-QCN frames), BCN, ECM |
//! | reaction point `Rp` | `rp.rs` | `Flow::rp` (source rate limiter) | QCN, E-QCN, BCN, ECM |
//! | notification point `Np` | `np.rs` | `Receiver::np` (a flow's receiver) | none yet |
//! | active queue management `Aqm` | `aqm.rs` | `Port::aqm` (before the drop-tail check) | RED, step marking |
//! | router feedback | `rf.rs` | `Port::meter`, `Flow::rf`, `Receiver::rf`, `Endpoint::rf` | SIRENS |
//! | flow control | `flow_control.rs` | `Sim::fc`, `Port::fc` | 802.3x PAUSE, 802.1Qbb PFC |
//! | closed-loop transport | `transport.rs` | `Flow::transport` | TCP (Reno/NewReno, SACK, ECN, DCTCP) |
//! | multi-rate multicast receiver `McastCc` | `mcast.rs` | `Sim::endpoints` | EMcast, RLM |
//!
//! This module also owns the vocabulary every slot shares: [`TimerAction`], [`Sent`],
//! [`QueueView`], [`Verdict`] and the tag-area owner [`Proto`].

pub mod aqm;
pub mod cp;
pub mod flow_control;
pub mod mcast;
pub mod np;
pub mod rf;
pub mod rp;
pub mod transport;

pub use aqm::Aqm;
pub use cp::Cp;
pub use mcast::McastCc;
pub use np::Np;
pub use rp::Rp;

use crate::core::time::Time;

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
    /// A probe is due (`Rp::take_probe` makes it).
    pub probe_due: bool,
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

/// Which protocol wrote a frame's tag area (so a reader never misreads another protocol's
/// fields); `Frame::proto`. One byte in the header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    #[default]
    None,
    Qcn,
    Eqcn,
    Pause,
    Bcn,
    Ecm,
    QcnProbe,
    Tcp,
    /// The SIRENS header (Nakauchi & Kobayashi 2006; `protocols::sirens`).
    Sirens,
    /// A DCQCN congestion notification packet (Zhu et al. 2015 §3.2; `protocols::dcqcn`).
    Dcqcn,
}
