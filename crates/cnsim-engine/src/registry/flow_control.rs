//! The link-level flow-control slot: a fabric's settings, each switch port's generator of
//! MAC-control frames, the message they carry and how long a received one holds a transmitter.
//! One protocol fills it today (802.3x PAUSE with its 802.1Qbb PFC form, `protocols/pause`), so
//! the slot is its types; the event loop's side of it is `sim/flow_control.rs`.

use crate::protocols::pause;

/// A fabric's flow-control settings (`Sim::fc`).
pub type FcCfg = pause::PauseCfg;
/// A switch port's generator of flow-control frames (`net::port::FlowControl`).
pub type FcGen = pause::PauseGen;
/// One flow-control frame's content: the classes it holds and for how long.
pub type FcMsg = pause::PauseMsg;
/// Whether a port's own ingress load or its neighbours' congestion triggers it.
pub use pause::Trigger;
/// The hold a received message asks for, and the egress trigger's threshold crossings.
pub use pause::{egress_crossing, pause_time as hold_time};
