//! The multi-rate multicast receiver slot's enum, built from the registered occupants
//! (`protocols.rs`), each dispatched to its `slots::mcast::McastMachine` with a `match`.

use crate::core::time::Time;
use crate::protocols::*;
use crate::slots::mcast::McastMachine;
use super::protocols::occupants;
use super::slot::slot;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! mcast {
    ($($variant:ident($ty:ty),)+) => {
        slot! {
            /// The congestion control of a multi-rate multicast receiver (`net::endpoint::Endpoint`):
            /// one variant per protocol.
            pub enum McastCc: McastMachine { $($variant($ty),)+ }
            fn level(&self) -> usize;
            fn name(&self) -> &'static str;
            fn changes(&self) -> (u64, u64);
            fn tick(&self) -> Time;
            fn cumulative(&self) -> bool;
            fn needs_available_bandwidth(&self) -> bool;
            fn on_tick(&mut self, now: Time, loss: f64, avail: Option<f64>) -> Option<usize>;
            fn on_peer_experiment(&mut self, level: usize, now: Time);
        }
    };
}
occupants!(McastCc => mcast);
