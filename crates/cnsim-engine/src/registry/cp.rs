//! The congestion-point slot's occupants: one variant per protocol, each dispatched to its
//! `slots::cp::CpMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use crate::protocols::{bcn, ecm, qcn};
use crate::slots::cp::CpMachine;
use crate::slots::QueueView;
use serde_json::Value;

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
    pub fn on_path_control(&mut self, f: &mut Frame, q: QueueView, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        each!(self, c => CpMachine::on_path_control(c, f, q, cpid, node, now))
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
