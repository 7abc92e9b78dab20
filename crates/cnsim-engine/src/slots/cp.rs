//! The congestion-point slot: the protocol watching a switch output queue, given each data frame
//! offered to it (and probes on their way), answering with a feedback frame to send. Each protocol
//! implements [`CpMachine`] in its own module; the enum lists them (one line each) and dispatches
//! with a `match`.

use super::QueueView;
use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::{bcn, ecm, qcn};
use serde_json::{json, Value};

/// What the engine asks of a congestion point.
pub trait CpMachine {
    /// A data frame `f` was offered to the CP's queue (`accepted` or dropped); `q` is the queue
    /// right after the offer; `cpid` the port. Returns the feedback frame to send, if any.
    fn on_data(&mut self, f: &Frame, accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame>;
    /// A probe frame `f` reaches this CP's queue: it may stamp it (in place) or answer it; returns
    /// the answer frame, and the probe is then consumed.
    fn on_probe(&mut self, _f: &mut Frame, _q: QueueView, _cpid: u32, _node: NodeId, _now: Time) -> Option<Frame> {
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

/// The congestion point of one output queue: one variant per protocol.
pub enum Cp {
    Qcn(qcn::slot::QcnCp),
    Bcn(bcn::BcnCp),
    Ecm(ecm::EcmCp),
}

/// `$body` with `$c` bound to the protocol's state, whichever variant `$cp` holds.
macro_rules! each {
    ($cp:expr, $c:ident => $body:expr) => {
        match $cp {
            Cp::Qcn($c) => $body,
            Cp::Bcn($c) => $body,
            Cp::Ecm($c) => $body,
        }
    };
}

impl Cp {
    #[inline]
    pub fn on_data(&mut self, f: &Frame, accepted: bool, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        each!(self, c => CpMachine::on_data(c, f, accepted, q, cpid, node, now))
    }
    pub fn on_probe(&mut self, f: &mut Frame, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        each!(self, c => CpMachine::on_probe(c, f, q, cpid, node, now))
    }
    pub fn feedback_value(&self, fb: &Frame) -> f64 {
        each!(self, c => CpMachine::feedback_value(c, fb))
    }
    pub fn start_window(&mut self) {
        each!(self, c => CpMachine::start_window(c))
    }
    pub fn report(&self, in_window: bool) -> Value {
        each!(self, c => CpMachine::report(c, in_window))
    }
    pub fn qeq(&self, frame: u64) -> u64 {
        each!(self, c => CpMachine::qeq(c, frame))
    }
}

/// A probe reached the destination host `node`: the answer to send back, if any (the path probes
/// of Roeck 2007's QCN variants, `protocols::qcn::probe`).
pub fn probe_at_destination(f: &Frame, node: NodeId, now: Time) -> Option<Frame> {
    qcn::slot::probe_at_destination(f, node, now)
}
