//! The closed-loop transport slot: a connection's two ends, its application and timers, and its
//! counts. One protocol fills it today (TCP, `protocols/tcp`), so the slot is its types; the
//! event loop's side of it is `sim/transport.rs`.

use crate::core::time::Time;
use crate::core::timer::TimerId;
pub use crate::protocols::tcp::{Ack, Segment, SERIES};
use crate::protocols::tcp::{TcpReceiver, TcpSender};

/// What a TCP connection's application does (the endpoint slot of closed-loop flows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum App {
    /// Always has data (FTP).
    Bulk,
    /// `size` bytes, then `idle`, again; a transaction ends when its last byte is acknowledged.
    Transactions { size: u64, idle: Time },
    /// `size` bytes once; the flow completes when the last byte is acknowledged.
    Transfer { size: u64 },
}

/// A TCP connection: both ends' state machines, its application and timers, and its counts.
pub struct TcpFlow {
    pub snd: TcpSender,
    pub rcv: TcpReceiver,
    pub app: App,
    pub ack_size: u32,
    pub rto_timer: TimerId,
    pub ack_timer: TimerId,
    pub app_timer: TimerId,
    /// The current transaction: its start and the sender's `bytes_acked` at its end.
    pub txn_start: Time,
    pub txn_end: u64,
    pub txns: u64,
    pub txn_latency: Time,
    pub txns_w0: u64,
    pub txn_latency_w0: Time,
    pub goodput_w0: u64,
}

impl TcpFlow {
    /// The value of its series `k` now (`SERIES[k]`).
    pub fn series(&self, k: usize) -> f64 {
        self.snd.series(k)
    }
    /// The measurement window starts: keep the counts' values.
    pub fn start_window(&mut self) {
        self.goodput_w0 = self.rcv.bytes_delivered();
        self.txns_w0 = self.txns;
        self.txn_latency_w0 = self.txn_latency;
    }
}

/// The closed-loop transport of a flow. One protocol fills this slot today.
pub type Transport = TcpFlow;

/// Which of a transport connection's timers fired (`sim::TimerOwner::FlowTransport`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportTimer {
    /// The sender's retransmission timeout.
    Rto,
    /// The receiver's delayed acknowledgement.
    DelAck,
    /// The application's next transaction.
    App,
}

/// `txn_start` while no transaction is under way.
pub const NO_TXN: Time = Time::MAX;
