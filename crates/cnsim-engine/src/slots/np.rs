//! The notification-point slot: a flow's receiver answers arriving data frames with feedback to
//! the flow's source (a frame the engine routes back like any feedback).

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use serde_json::{json, Value};

/// The notification point of one receiver of a flow. No protocol fills it yet.
pub enum Np {}

impl Np {
    /// Data frame `f` reached the receiver at `node`: the feedback frame to send, if any.
    #[inline]
    pub fn on_data(&mut self, f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
        let _ = (f, node, now);
        match *self {}
    }

    /// The protocol's fields of the receiver's statistics.
    pub fn report(&self) -> Value {
        let _ = json!({});
        match *self {}
    }
}
