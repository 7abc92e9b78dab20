//! The notification-point slot's occupants: one variant per protocol, each dispatched to its
//! `slots::np::NpMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::dcqcn;
use crate::slots::np::NpMachine;
use super::slot::slot;
use serde_json::Value;

slot! {
    /// The notification point of one receiver of a flow: one variant per protocol.
    pub enum Np: NpMachine {
        Dcqcn(dcqcn::slot::Np),
    }
    #[inline] fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame>;
    fn report(&self) -> Value;
}

