//! The router-feedback slot: routers measure their output links and stamp the measurements into
//! passing frames that carry a request; the receiver keeps what arrives in a table (SIRENS,
//! Nakauchi & Kobayashi 2006 §2.2). One protocol fills it today, so the slot is its types; the
//! router side runs in `aqm::offer` and at each transmission.

use crate::protocols::sirens;

/// A router's measurements of one output link.
pub type Meter = sirens::LinkMeter;
/// The request writer of a flow's source.
pub type RfSender = sirens::Sender;
/// A receiver's table of the path's measurements.
pub type RfTable = sirens::Table;
