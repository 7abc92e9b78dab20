//! The notification-point slot: a flow's receiver answers arriving data frames with feedback to
//! the flow's source (a frame the engine routes back like any feedback). Each protocol implements
//! [`NpMachine`] in its own module; the enum lists them (one line each) and dispatches with a
//! `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::dcqcn;
use serde_json::Value;

/// What the engine asks of a notification point.
pub trait NpMachine {
    /// Data frame `f` reached the receiver at `node`: the feedback frame to send, if any.
    fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame>;
    /// The protocol's fields of the receiver's statistics (declared in its `METRICS`).
    fn report(&self) -> Value;
}

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
