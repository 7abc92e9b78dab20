//! The congestion-point slot's enum, built from the registered occupants (`protocols.rs`), each dispatched to its
//! `slots::cp::CpMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::*;
use crate::slots::cp::CpMachine;
use crate::slots::QueueView;
use super::protocols::occupants;
use super::slot::slot;
use serde_json::Value;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! cp {
    ($($variant:ident($ty:ty),)+) => {
        slot! {
            /// The congestion point of one output queue: one variant per protocol.
            pub enum Cp: CpMachine { $($variant($ty),)+ }
            #[inline] fn on_data(&mut self, f: &Frame, accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame>;
            fn on_path_control(&mut self, f: &mut Frame, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame>;
            fn feedback_value(&self, fb: &Frame) -> f64;
            fn start_window(&mut self);
            fn report(&self, in_window: bool) -> Value;
            fn qeq(&self, frame: u64) -> u64;
        }
    };
}
occupants!(Cp => cp);

