//! The router-feedback slot's enums, built from the registered occupants (`protocols.rs`), each
//! dispatched to its `slots::router_feedback` trait with a `match`: a router port's link meter, a
//! flow source's request writer, a receiver's table of the path's measurements.

use crate::core::time::Time;
use crate::net::frame::Frame;
use crate::protocols::*;
use crate::slots::router_feedback::{MeterMachine, PortView, RfSenderMachine, RfTableMachine};
use super::protocols::occupants;
use super::slot::slot;
use serde_json::Value;

/// Writes the meter's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! meter {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        slot! {
            /// A router output port's link meter: one variant per protocol.
            #[derive(Clone, Debug)]
            pub enum Meter: MeterMachine { $($variant($ty),)+ }
            #[inline] fn on_offer(&mut self, f: &mut Frame, port: PortView, dropped: bool);
            #[inline] fn on_tx(&mut self, now: Time, wire: Time);
            fn report(&self) -> Value;
        }
    };
}
occupants!(Meter => meter);

/// Writes the request writer's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! rf_sender {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        slot! {
            /// The router-feedback request writer of a flow's source: one variant per protocol.
            #[derive(Clone, Debug)]
            pub enum RfSender: RfSenderMachine { $($variant($ty),)+ }
            #[inline] fn stamp(&mut self, f: &mut Frame);
        }
    };
}
occupants!(RfSender => rf_sender);

/// Writes the table's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! rf_table {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        slot! {
            /// A receiver's table of its path's router feedback: one variant per protocol.
            #[derive(Clone, Debug)]
            pub enum RfTable: RfTableMachine { $($variant($ty),)+ }
            #[inline] fn on_frame(&mut self, f: &Frame, now: Time);
            fn available_bps(&self, now: Time) -> Option<f64>;
            fn report(&self, now: Time) -> Value;
        }
    };
}
occupants!(RfTable => rf_table);
