//! The protocols: one module (or folder) each, holding a sans-IO state machine. It is given a
//! frame, a timer expiry or a send opportunity with the current time (and owns its random
//! stream), and answers with what the engine must do — a frame to send, a timer to arm — never
//! touching the event loop. Each implements the traits of its slots
//! (`crate::slots`); the engine reaches it only through the slot enums of `crate::registry`
//! (static dispatch, no `dyn` on the hot path); docs/architecture.md says how to
//! add one.

pub mod bcn;
pub mod dcqcn;
pub mod ecm;
pub mod emcast;
pub mod eqcn;
pub mod hpcc;
pub mod pause;
pub mod qcn;
pub mod red;
pub mod rlm;
pub mod sirens;
pub mod swift;
pub mod tcp;
pub mod threshold;
pub mod timely;

