//! The protocol-agnostic core: integer time, the event queue, timers, the arena, per-entity random
//! streams and time-weighted statistics. Nothing here names a protocol (docs/architecture.md).

pub mod arena;
pub mod event;
pub mod ring;
pub mod rng;
pub mod stats;
pub mod time;
pub mod timer;
