//! The flow-control slot's enum, built from the registered occupants (`protocols.rs`), each
//! dispatched to its `slots::flow_control::FcMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::*;
use crate::slots::flow_control::{FcLoad, FcMachine, FcMsg, FcPort};
use serde_json::Value;
use super::protocols::occupants;
use super::slot::slot;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! flow_control {
    ($($variant:ident($ty:ty),)+) => {
        slot! {
            /// A switch port's generator of flow-control frames (`net::port::FlowControl`), and the
            /// fabric's (`Sim::fc`): one variant per protocol.
            #[derive(Clone, Debug)]
            pub enum FcGen: FcMachine { $($variant($ty),)+ }
            fn name(&self) -> &'static str;
            #[inline] fn load(&self) -> FcLoad;
            #[inline] fn class(&self, prio: u8) -> u8;
            #[inline] fn per_class(&self) -> bool;
            #[inline] fn on_ingress(&mut self, class: u8, add: bool, bytes: u64) -> Option<FcMsg>;
            #[inline] fn on_queue(&mut self, class: u8, bytes: u64) -> Option<bool>;
            fn on_congested(&mut self, class: u8, more: bool) -> Option<FcMsg>;
            fn on_refresh(&mut self) -> Option<FcMsg>;
            fn refresh_period(&self, rate_bps: u64) -> Time;
            fn holding_off(&self) -> bool;
            fn frame(&self, m: FcMsg, node: NodeId, now: Time) -> Frame;
            fn read(&self, f: &Frame) -> Option<FcMsg>;
            fn hold_time(&self, m: FcMsg, rate_bps: u64) -> Time;
            fn counts(&self) -> (u64, u64);
            fn frames_name(&self) -> &'static str;
            fn port_report(&self, p: &FcPort) -> Value;
        }
    };
}
occupants!(FcGen => flow_control);
