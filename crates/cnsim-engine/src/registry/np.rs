//! The notification-point slot's enum, built from the registered occupants (`protocols.rs`), each dispatched to its
//! `slots::np::NpMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::*;
use crate::slots::np::NpMachine;
use super::protocols::occupants;
use super::slot::slot;
use serde_json::Value;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! np {
    ($($variant:ident($ty:ty),)+) => {
        slot! {
            /// The notification point of one receiver of a flow: one variant per protocol.
            pub enum Np: NpMachine { $($variant($ty),)+ }
            #[inline] fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame>;
            fn report(&self) -> Value;
        }
    };
}
occupants!(Np => np);

