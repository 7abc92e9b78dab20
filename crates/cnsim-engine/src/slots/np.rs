//! The notification-point slot: a flow's receiver answers arriving data frames with feedback to
//! the flow's source (a frame the engine routes back like any feedback). Each protocol implements
//! [`NpMachine`] in its own module; `registry::np` lists them.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use serde_json::Value;

/// What the engine asks of a notification point.
pub trait NpMachine {
    /// Data frame `f` reached the receiver at `node`: the feedback frame to send, if any.
    fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame>;
    /// The protocol's fields of the receiver's statistics (declared in its `METRICS`).
    fn report(&self) -> Value;
}
