//! The closed-loop transport slot: a connection's two ends and its application. The engine makes
//! the frames, routes them and keeps the connection's timers; the protocol decides what each data
//! frame and acknowledgement carries and when its timers are due. Each protocol implements
//! [`TransportMachine`] in its own module; `registry::transport` lists them.

use crate::core::time::Time;
use crate::net::frame::Frame;
use crate::net::telemetry::Stack;
use serde_json::Value;

/// What a connection's application does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum App {
    /// Always has data (FTP).
    Bulk,
    /// `size` bytes, then `idle`, again; a transaction ends when its last byte is acknowledged.
    Transactions { size: u64, idle: Time },
    /// `size` bytes once; the flow completes when the last byte is acknowledged.
    Transfer { size: u64 },
}

/// Which of a connection's timers fired (`sim::TimerOwner::FlowTransport`); the engine keeps one
/// of each per connection (`net::flow::Flow::transport_timers`, indexed by this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportTimer {
    /// The sender's retransmission timeout.
    Rto = 0,
    /// The receiver's delayed acknowledgement.
    DelAck = 1,
    /// The application's next transaction.
    App = 2,
}

/// What a data frame carries for its transport: the header fields the transport decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Data {
    /// Sequence number (`Frame::seq`).
    pub seq: u32,
    /// Bytes on the wire, payload and headers (`Frame::size`).
    pub size: u32,
    /// The ECN byte: the IP ECN codepoint and the transport's flags above it (`Frame::ecn`).
    pub ecn: u8,
}

/// What an acknowledgement arriving at the source leads to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acked {
    /// The application's next transaction starts at this time (arm `TransportTimer::App`).
    pub next_app: Option<Time>,
    /// The application's transfer is complete (the flow's completion time is now).
    pub completed: bool,
}

/// What the engine asks of a closed-loop transport connection.
pub trait TransportMachine {
    /// Source: the data frame that may go now, if any.
    fn poll_send(&mut self, now: Time) -> Option<Data>;
    /// Receiver: data frame `f` arrived. None if it carries none of this protocol's data (nothing
    /// changes); else whether an acknowledgement is due now (`write_ack` makes it).
    fn on_data(&mut self, f: &Frame, now: Time) -> Option<bool>;
    /// Receiver: the delayed-acknowledgement timer fired; whether an acknowledgement is due.
    fn on_delayed_ack(&mut self, now: Time) -> bool;
    /// Make `f` (an acknowledgement of the flow, from its receiver to its source) the
    /// acknowledgement due: its size and fields.
    fn write_ack(&mut self, f: &mut Frame);
    /// Source: acknowledgement frame `f` arrived.
    fn on_ack(&mut self, f: &Frame, now: Time) -> Acked;
    /// Source: the in-band telemetry the acknowledgement about to be handed to `on_ack` echoes
    /// (only when its protocol registers `telemetry`: `net::telemetry`).
    fn on_telemetry(&mut self, _stack: &Stack, _now: Time) {}
    /// Source: the retransmission timer fired.
    fn on_timeout(&mut self, now: Time);
    /// The application starts (bulk) or starts a transaction.
    fn on_app(&mut self, now: Time);
    /// When timer `t` is due now (None: not armed), asked after each input that may move it.
    fn timer(&self, t: TransportTimer) -> Option<Time>;
    /// The value of its recorded series `k` now (the protocol names them, `SERIES`).
    fn series(&self, k: usize) -> f64;
    /// The measurement window starts: keep the counts' values.
    fn start_window(&mut self);
    /// The protocol's fields of the flow's statistics (declared in its `METRICS`).
    fn report(&self, in_window: bool, window_s: f64) -> Value;
    /// Bytes of a full data frame's payload and of its headers (the ideal completion time, pcap).
    fn segment_bytes(&self) -> (u32, u32);
    /// Bytes of an acknowledgement frame.
    fn ack_bytes(&self) -> u32;
}
