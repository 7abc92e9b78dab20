//! The link-level flow-control slot: each switch port's generator of MAC-control frames, told of
//! the load it watches (bytes buffered from its ingress, or the switch's congested output queues)
//! and of its refresh timer, answering with the messages to send to its neighbour; a received
//! message becomes a hold of some priority classes of the transmitter it reaches (`net::port::TxHold`,
//! kept by the engine). The fabric's own generator (`Sim::fc`, the one every port's is cloned
//! from) says how the load is counted and reads received messages. Each protocol implements
//! [`FcMachine`] in its own module; `registry::flow_control` lists them.

use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use serde_json::Value;

/// What a port's flow-control load counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FcLoad {
    /// The bytes buffered in the switch that entered through this port, per class.
    Ingress,
    /// The switch's other output queues above their threshold, per class.
    Egress,
}

/// One flow-control message: the priority classes it acts on (bit p = priority p) and the hold it
/// asks for, in the protocol's units (0 releases them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FcMsg {
    pub mask: u8,
    pub quanta: u16,
}

/// What the engine measured of one port's flow control, for its protocol to report in its own
/// words (the stats' `ports`).
#[derive(Clone, Copy, Debug)]
pub struct FcPort {
    /// Flow-control frames the port sent, and those it received for its transmitter.
    pub sent: u64,
    pub received: u64,
    /// Time the port's transmitter held each priority class: over the run, and in the window.
    pub held_s: [f64; 8],
    pub held_s_window: [f64; 8],
}

/// What the engine asks of a port's flow-control generator.
pub trait FcMachine {
    /// The protocol's name as `describe` shows it.
    fn name(&self) -> &'static str;
    /// How the load is counted.
    fn load(&self) -> FcLoad;
    /// The class a frame of priority `prio` counts in.
    fn class(&self, prio: u8) -> u8;
    /// Whether an output queue's bytes are counted per class (else all classes together).
    fn per_class(&self) -> bool;
    /// `FcLoad::Ingress`: `bytes` of `class` entered (`add`) or left the switch through this port.
    fn on_ingress(&mut self, class: u8, add: bool, bytes: u64) -> Option<FcMsg>;
    /// `FcLoad::Egress`: this port's output queue now holds `bytes` (of `class`, or in all): Some(true)
    /// when it becomes congested, Some(false) when it recovers.
    fn on_queue(&mut self, class: u8, bytes: u64) -> Option<bool>;
    /// `FcLoad::Egress`: one more (`more`) or one fewer congested output queue of `class` on the switch.
    fn on_congested(&mut self, class: u8, more: bool) -> Option<FcMsg>;
    /// The refresh timer fired: the message to send again, if classes are still held off.
    fn on_refresh(&mut self) -> Option<FcMsg>;
    /// The refresh timer's period at a port of `rate_bps`.
    fn refresh_period(&self, rate_bps: u64) -> Time;
    /// Some classes are held off (the refresh timer must run).
    fn holding_off(&self) -> bool;
    /// Message `m` as a MAC-control frame sent by `node`.
    fn frame(&self, m: FcMsg, node: NodeId, now: Time) -> Frame;
    /// A received MAC-control frame's message, if it is this protocol's.
    fn read(&self, f: &Frame) -> Option<FcMsg>;
    /// How long message `m` holds a transmitter of `rate_bps`.
    fn hold_time(&self, m: FcMsg, rate_bps: u64) -> Time;
    /// Messages sent so far: (holding classes off, releasing them).
    fn counts(&self) -> (u64, u64);
    /// The word the stats count its frames under: `NAME_sent` and `NAME_delivered` in `frames` and
    /// `window`, `NAME_in_flight` in `frames`.
    fn frames_name(&self) -> &'static str;
    /// One port's entry in the stats' `ports`, beside its name and node: what the engine measured
    /// there (`p`) and this generator's own counts (the fabric's, at a port without one: none).
    fn port_report(&self, p: &FcPort) -> Value;
}
