//! Observation taps, off by default: packet capture (`capture`, with the on-wire bytes of
//! `wire`) and the protocol event trace (`trace`). `Sim::tap` is `None` unless one is enabled, so
//! a run without them pays one `Option` check per transmission and per (rare) protocol event;
//! the hooks' bodies live in `sim/hooks.rs`, out of line.

pub mod capture;
pub mod trace;
pub mod wire;

#[derive(Default)]
pub struct Tap {
    pub capture: Option<capture::Capture>,
    pub trace: Option<trace::Trace>,
}
