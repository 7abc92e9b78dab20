//! The congestion-point slot: the protocol watching a switch output queue, given each data frame
//! offered to it (and probes on their way), answering with a feedback frame to send. Each protocol
//! implements [`CpMachine`] in its own module; `registry::cp` lists them.

use super::QueueView;
use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use serde_json::{json, Value};

/// What the engine asks of a congestion point.
pub trait CpMachine {
    /// A data frame `f` was offered to the CP's queue (`accepted` or dropped); `q` is the queue
    /// right after the offer; `cpid` the port. Returns the feedback frame to send, if any.
    fn on_data(&mut self, f: &Frame, accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame>;
    /// A path control frame `f` reaches this CP's queue: it may stamp it (in place) or answer it;
    /// returns the answer frame, and `f` is then consumed.
    fn on_path_control(&mut self, _f: &mut Frame, _q: QueueView, _cpid: u32, _node: NodeId, _now: Time) -> Option<Frame> {
        None
    }
    /// The unquantized feedback of a feedback frame this CP sent, for the event trace.
    fn feedback_value(&self, fb: &Frame) -> f64;
    /// The measurement window starts: keep the counters' values.
    fn start_window(&mut self) {}
    /// The protocol's fields of the port's statistics (declared in its `METRICS`).
    fn report(&self, _in_window: bool) -> Value {
        json!({})
    }
    /// Qeq in bytes (frames of `frame` bytes for protocols that count frames), for reports.
    fn qeq(&self, frame: u64) -> u64;
}
