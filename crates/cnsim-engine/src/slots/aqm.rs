//! The active-queue-management slot: what a router or switch does with a data frame offered to an
//! output queue before the drop-tail check (enqueue, mark CE, drop early). Each protocol
//! implements [`AqmMachine`] in its own module; `registry::aqm` lists them.

use super::{QueueView, Verdict};
use crate::core::time::Time;
use serde_json::Value;

/// What the engine asks of a queue-management protocol.
pub trait AqmMachine {
    /// A data frame is offered to queue `q` (as it is before the offer); `idle` = how long the
    /// port has been idle; `ect` = the frame is ECN-capable.
    fn on_arrival(&mut self, q: QueueView, idle: Option<Time>, ect: bool) -> Verdict;
    /// The protocol's fields of the port's statistics (declared in its `METRICS`).
    fn report(&self) -> Value;
}
