//! The closed-loop transport slot: a connection's two ends and its application. The engine makes
//! the frames, routes them and keeps the connection's timers; the protocol decides what each data
//! frame and acknowledgement carries and when its timers are due. Each protocol implements
//! [`TransportMachine`] in its own module; `registry::transport` lists them, and its scenario table
//! (a flow's `transport = { NAME = {…} }`) builds it (`slots::spec::FromSpec`, with
//! [`TransportCx`]).
//!
//! A window-based sender answers `poll_send` from its window and is clocked by its ACKs; a
//! rate-based one (or a window below one frame) says when its next frame may go with its pacing
//! timer (`timer(TransportTimer::Pace)`), and the engine polls it again then. A transport may write
//! its own fields into its data frames (`stamp`, e.g. a send timestamp) and its ACKs (`write_ack`,
//! e.g. that timestamp echoed, from the receiver's state kept by `on_data`), and read them back in
//! `on_ack`.

use crate::core::time::Time;
use crate::net::frame::Frame;
use crate::net::telemetry::Stack;
use crate::slots::wire::Ctx;
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
    /// The sender's next frame may go (a paced sender: its rate, or a window below one frame).
    Pace = 3,
}

/// How many timers a connection has (`TransportTimer`'s values are below it).
pub const TIMERS: usize = crate::net::flow::TRANSPORT_TIMERS;

/// What the engine tells a transport's table when it builds a connection (`FromSpec::Cx`).
#[derive(Clone, Copy, Debug)]
pub struct TransportCx {
    /// The connection's application.
    pub app: App,
    /// The rate (bit/s) of the source's link.
    pub line_rate: f64,
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

/// What a source's connection answers when the engine asks it to send (`TransportMachine::poll`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Poll {
    /// This data frame goes now; the retransmission timer is then due at `rto` (None: not armed).
    Send { data: Data, rto: Option<Time> },
    /// None may go now; ask again at `pace` (the pacing timer; None: when an input comes).
    Wait { pace: Option<Time> },
}

/// What a data frame arriving at its receiver leads to (`TransportMachine::receive`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Received {
    /// An acknowledgement is due now (`write_ack` makes it).
    pub ack_due: bool,
    /// The delayed-acknowledgement timer is then due at this time (None: not armed).
    pub delack: Option<Time>,
}

/// What the engine asks of a closed-loop transport connection.
///
/// The engine calls the per-frame steps through the sequences at the end (`poll`, `receive`,
/// `acked`), each one call on the slot's enum, so that a frame costs one `match` per event, not
/// one per step; a protocol implements the steps and leaves the sequences as they are.
pub trait TransportMachine {
    /// The names of its recorded series, by index (`series`).
    const SERIES: &'static [&'static str];
    /// Source: the data frame that may go now, if any (when none may go yet, `timer(Pace)` says
    /// when to ask again).
    fn poll_send(&mut self, now: Time) -> Option<Data>;
    /// Source: write its own fields into `f`, the data frame `poll_send` just decided (its tag
    /// area, `Frame::proto`). Nothing by default.
    #[inline]
    fn stamp(&mut self, _f: &mut Frame, _now: Time) {}
    /// Receiver: data frame `f` arrived. None if it carries none of this protocol's data (nothing
    /// changes); else whether an acknowledgement is due now (`write_ack` makes it).
    fn on_data(&mut self, f: &Frame, now: Time) -> Option<bool>;
    /// Receiver: the delayed-acknowledgement timer fired; whether an acknowledgement is due.
    fn on_delayed_ack(&mut self, now: Time) -> bool;
    /// Make `f` (an acknowledgement of the flow, from its receiver to its source, sent at `now`)
    /// the acknowledgement due: its size and fields.
    fn write_ack(&mut self, f: &mut Frame, now: Time);
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
    /// A connection whose congestion control reacts to ECN marks (besides losses): its table's key,
    /// so that a flow whose path has no marking queue is warned about (it falls back to losses).
    fn cut_by_marks(&self) -> Option<&'static str> {
        None
    }
    /// What its frames' on-wire bytes need in a capture (`c.segment`, the writer of its data
    /// frames' headers; `c.mss`). Nothing by default: the cnsim data header.
    fn wire(&self, _c: &mut Ctx) {}

    /// Source: `poll_send`, then the timer that follows it — the retransmission deadline after a
    /// frame (`timer(Rto)`), or the pacing timer when none may go (`timer(Pace)`).
    #[inline]
    fn poll(&mut self, now: Time) -> Poll {
        match self.poll_send(now) {
            Some(data) => Poll::Send { data, rto: self.timer(TransportTimer::Rto) },
            None => Poll::Wait { pace: self.timer(TransportTimer::Pace) },
        }
    }
    /// Receiver: `on_data`, the delayed-acknowledgement timer (`timer(DelAck)`), then, if an
    /// acknowledgement is due, `write_ack` into `ack` (the engine's frame for it, sent only then).
    /// None if the frame carries none of this protocol's data.
    #[inline]
    fn receive(&mut self, f: &Frame, ack: &mut Frame, now: Time) -> Option<Received> {
        let ack_due = self.on_data(f, now)?;
        let delack = self.timer(TransportTimer::DelAck);
        if ack_due {
            self.write_ack(ack, now);
        }
        Some(Received { ack_due, delack })
    }
    /// Source: the acknowledgement's telemetry if it echoes any (`on_telemetry`), `on_ack`, then
    /// the retransmission timer (`timer(Rto)`).
    #[inline]
    fn acked(&mut self, f: &Frame, stack: Option<&Stack>, now: Time) -> (Acked, Option<Time>) {
        if let Some(s) = stack {
            self.on_telemetry(s, now);
        }
        let acked = self.on_ack(f, now);
        (acked, self.timer(TransportTimer::Rto))
    }
}

/// A connection's application as a transport runs it: the bytes it hands over, its transactions
/// and its completion (what `TransportMachine::on_app` and `on_ack` need, for a transport to share).
#[derive(Clone, Copy, Debug)]
pub struct AppRun {
    pub app: App,
    /// The current transaction's start (`Time::MAX`: none under way) and the acknowledged bytes
    /// that end it.
    txn_start: Time,
    txn_end: u64,
    /// Transactions completed and their summed latency.
    pub txns: u64,
    pub txn_latency: Time,
}

impl AppRun {
    pub fn new(app: App) -> Self {
        AppRun { app, txn_start: Time::MAX, txn_end: 0, txns: 0, txn_latency: 0 }
    }

    /// The application starts (bulk) or starts a transaction at `now`: the bytes it hands over.
    pub fn start(&mut self, now: Time) -> u64 {
        match self.app {
            App::Bulk => u64::MAX,
            App::Transactions { size, .. } | App::Transfer { size } => {
                self.txn_start = now;
                self.txn_end = self.txn_end.saturating_add(size);
                size
            }
        }
    }

    /// `acked` bytes are acknowledged in all at `now`: a transaction that ends with them, and what
    /// follows it (the next transaction after `idle`, or the transfer's completion).
    pub fn on_acked(&mut self, acked: u64, now: Time) -> Acked {
        let mut out = Acked::default();
        if self.app == App::Bulk || self.txn_start == Time::MAX || self.txn_end == 0 || acked < self.txn_end {
            return out;
        }
        self.txns += 1;
        self.txn_latency += now - self.txn_start;
        self.txn_start = Time::MAX;
        match self.app {
            App::Transactions { idle, .. } => out.next_app = Some(now.saturating_add(idle)),
            _ => out.completed = true,
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_completes_once_and_transactions_follow_each_other() {
        let mut t = AppRun::new(App::Transfer { size: 3000 });
        assert_eq!(t.start(10), 3000);
        assert_eq!(t.on_acked(2999, 20), Acked::default());
        assert_eq!(t.on_acked(3000, 30), Acked { next_app: None, completed: true });
        assert_eq!((t.txns, t.txn_latency), (1, 20));
        assert_eq!(t.on_acked(3000, 40), Acked::default());
        let mut t = AppRun::new(App::Transactions { size: 100, idle: 5 });
        t.start(0);
        assert_eq!(t.on_acked(100, 7), Acked { next_app: Some(12), completed: false });
        t.start(12);
        assert_eq!(t.on_acked(150, 13), Acked::default());
        assert_eq!(t.on_acked(200, 14).next_app, Some(19));
        let mut b = AppRun::new(App::Bulk);
        assert_eq!(b.start(0), u64::MAX);
        assert_eq!(b.on_acked(1 << 40, 1), Acked::default());
    }
}
