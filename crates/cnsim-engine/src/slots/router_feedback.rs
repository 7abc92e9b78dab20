//! The router-feedback slot: routers measure their output links and write what they measure into
//! passing frames; a flow's source asks for it in its frames, and each receiver keeps what arrives
//! (SIRENS, Nakauchi & Kobayashi 2006 §2.2; in-band network telemetry works the same way). Three
//! traits, one per place the slot is held: [`MeterMachine`] at a router's output port,
//! [`RfSenderMachine`] at a flow's source, [`RfTableMachine`] at each receiver. Each protocol
//! implements them in its own module; `registry::rf` lists them.

use crate::core::time::Time;
use crate::net::frame::Frame;
use serde_json::Value;

/// A router output port as a meter sees it when a data frame is offered to its queue: the port's
/// own state, read by the engine, so that any protocol stamping at egress reads the same numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortView {
    /// The link's rate (bit/s).
    pub rate_bps: u64,
    /// The output queue before the offer.
    pub queue_bytes: u64,
    pub queue_frames: u64,
    /// The link's propagation delay.
    pub delay: Time,
    /// The link's configured random loss probability (its error rate), 0 without one.
    pub loss: f64,
    pub now: Time,
}

/// What the engine asks of a router port's link meter.
pub trait MeterMachine {
    /// A data frame `f` is offered to the port's queue as `port` describes it; `dropped`: the
    /// queue management or the drop-tail check refuses it. The meter counts the offer and may
    /// write its measurements into `f` (its IP TTL already decremented by this router).
    fn on_offer(&mut self, f: &mut Frame, port: PortView, dropped: bool);
    /// The transmitter starts a frame that takes `wire` on the link.
    fn on_tx(&mut self, now: Time, wire: Time);
    /// The protocol's fields of the port's statistics (declared in its `METRICS`).
    fn report(&self) -> Value;
}

/// What the engine asks of a flow source's request writer.
pub trait RfSenderMachine {
    /// Write the request into data frame `f` as the source makes it.
    fn stamp(&mut self, f: &mut Frame);
}

/// What the engine asks of a receiver's table of the path's measurements.
pub trait RfTableMachine {
    /// A data frame of the flow arrived.
    fn on_frame(&mut self, f: &Frame, now: Time);
    /// The path's available bandwidth (bit/s): the smallest fresh value over its hops, None while
    /// no hop is known or the table measures something else.
    fn available_bps(&self, now: Time) -> Option<f64>;
    /// The protocol's fields of the receiver's statistics at `now` (declared in its `METRICS`).
    fn report(&self, now: Time) -> Value;
}
