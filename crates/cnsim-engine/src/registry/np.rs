//! The notification-point slot's occupants: one variant per protocol, each dispatched to its
//! `slots::np::NpMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::dcqcn;
use crate::slots::np::NpMachine;
use serde_json::Value;

/// The notification point of one receiver of a flow: one variant per protocol.
pub enum Np {
    Dcqcn(dcqcn::slot::Np),
}

impl Np {
    #[inline]
    pub fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
        match self {
            Np::Dcqcn(n) => NpMachine::on_data(n, f, node, now),
        }
    }
    pub fn report(&self) -> Value {
        match self {
            Np::Dcqcn(n) => NpMachine::report(n),
        }
    }
}
