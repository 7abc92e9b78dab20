//! TCP, counted in segments as ns-2's TCP agents count it (docs/protocols.md §8; Jiang & Jain 2007 §VI.A ran
//! ns-2 "TCP Reno with Selective Acknowledgements (SACK)", 1 ms maximum timeout, a 44-packet
//! receive window and 1500-byte packets).
//!
//! Sans-IO, like every protocol here (docs/architecture.md): [`TcpSender`] and [`TcpReceiver`] are
//! plain structs fed with inputs and the current time, answering with what the engine must do.
//!
//! * Sender (`sender.rs`): Reno (RFC 5681 §3) and NewReno (RFC 6582) loss recovery, or SACK-based
//!   loss recovery (RFC 6675: scoreboard, `IsLost`, `SetPipe`, `NextSeg`) when `sack` is on;
//!   slow start and congestion avoidance (RFC 5681 §3.1), fast retransmit after
//!   `dupack_threshold` duplicate ACKs and fast recovery (RFC 5681 §3.2), the retransmission
//!   timer of RFC 6298 (SRTT/RTTVAR, Karn's rule, exponential back-off, min/max clamps), the
//!   receiver window as a fixed sender-side limit (ns-2's `window_`).
//! * Receiver (`receiver.rs`): cumulative ACK of the next expected segment, out-of-order buffer,
//!   up to two SACK blocks per ACK (RFC 2018 §4), optional delayed ACK (RFC 1122 §4.2.3.2,
//!   RFC 5681 §4.2).
//!
//! Sequence numbers are segment indices (`u32`), as in ns-2; every segment carries `mss` payload
//! bytes except the last segment of an application message, which may be shorter, so goodput is
//! exact in bytes.
//!
//! # Choices and simplifications
//!
//! * No connection set-up or teardown (ns-2's one-way agents): data flows from segment 0.
//! * The receiver window is a fixed sender-side limit (ns-2's `window_`); ACKs carry no window
//!   field (the tag area holds the two SACK blocks). cwnd does not grow beyond it.
//! * One RTT measurement at a time (ns-2/BSD, no timestamps); any retransmission abandons it.
//! * Reno applies the `recover` guard only after a timeout (ns-2's `bugFix_` with
//!   `last_cwnd_action_`); NewReno and SACK always (RFC 6582 §3.2, RFC 6675 §5.1).
//! * The RTO timer restarts on fast retransmit (ns-2's `reset_rtx_timer`), and during NewReno
//!   recovery only on the first partial ACK (RFC 6582 "Impatient").
//! * After a timeout the SACK scoreboard is cleared (RFC 2018 §8); going back N, segments SACKed
//!   since are skipped but still counted in the window (conservative). No rescue retransmission
//!   (RFC 6675 NextSeg rule 4), no D-SACK, no F-RTO.
//! * ECN (`ecn`, off by default): classic RFC 3168 or DCTCP (RFC 8257), see [`EcnMode`]. No ECN
//!   negotiation (both ends are configured alike); the TCP header's ECE and CWR flags travel in
//!   bits of `Frame::ecn` above the two IP ECN bits ([`ECE`], [`CWR`]).
//! * Sequence numbers do not wrap: a bulk flow stops at 2³² − 1 segments (≈ 80 min at 10 Gb/s).
//!
//! # Engine wiring (for the lead)
//!
//! * Source: whenever the flow's port can take a frame, and after every ACK or timeout, call
//!   [`TcpSender::poll_send`] until it returns `None`; build one data frame per [`Segment`]
//!   (`Segment::write`, frame size = `len` + [`HEADER_BYTES`] + link framing, `ecn` = ECT(0) and
//!   CWR as the sender set them). Arm the flow's RTO
//!   timer at [`TcpSender::timer`] after each call into the sender (cancel it on `None`), and call
//!   [`TcpSender::on_timeout`] when it fires (a stale firing is ignored).
//! * Sink: [`TcpReceiver::on_segment_ecn`] for each data frame (with `Segment::ecn`, the frame's
//!   ECN byte); send the returned [`Ack`]
//!   (`Ack::write`, an ACK frame of [`HEADER_BYTES`] + framing) back to the source; arm the
//!   delayed-ACK timer at [`TcpReceiver::timer`] and call [`TcpReceiver::on_delack_timeout`] when
//!   it fires.

pub mod slot;
pub mod spec;
pub mod wire;

mod receiver;
mod sender;
mod register;
mod summary;
pub use register::PROTOCOL;

pub use receiver::TcpReceiver;
pub use sender::TcpSender;

use crate::slots::metrics::Metric;
use crate::core::time::Time;
use crate::net::frame::{Frame, FrameKind};
use crate::slots::Proto;

/// Picoseconds per millisecond, for the defaults below.
const MS: Time = 1_000_000_000;

/// IPv4 + TCP header bytes without options (RFC 791, RFC 9293 §3.1): 20 + 20. ns-2 adds the same
/// 40 bytes (`tcpip_base_hdr_size_`) to every TCP packet, data or ACK.
pub const HEADER_BYTES: u32 = 40;

/// Which loss recovery runs when SACK is off (with `sack` on, RFC 6675 recovery runs and the
/// variant only names the congestion-control base, as ns-2's `Agent/TCP/Sack1` is "Reno + SACK").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// RFC 5681 §3.2: any new ACK ends fast recovery (cwnd deflated to ssthresh).
    Reno,
    /// RFC 6582: a partial ACK retransmits the next hole and stays in fast recovery until
    /// `recover` is acknowledged.
    NewReno,
}

/// Explicit Congestion Notification at the TCP ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcnMode {
    /// Not ECN-capable: data frames are Not-ECT, ACKs never carry ECE.
    Off,
    /// RFC 3168: new data is ECT(0); the receiver latches ECE from a CE segment until a segment
    /// with CWR arrives (§6.1.3); the sender halves cwnd at most once per window of data, as for
    /// a loss but without retransmitting, and sets CWR on the next new segment (§6.1.2).
    Classic,
    /// DCTCP (RFC 8257): new data is ECT(0); the receiver's ECE follows the CE bit of the
    /// segments it acknowledges, with an immediate ACK when that bit changes while an ACK is
    /// delayed (§3.2); the sender estimates the marked fraction α once per window of data
    /// (§3.3) and cuts cwnd ← cwnd·(1 − α/2) at most once per window (§3.4).
    Dctcp,
}

pub use crate::net::frame::ce;

/// TCP's ECN-Echo flag, carried on an ACK frame in `Frame::ecn` above the IP ECN bits.
pub const ECE: u8 = 0b0100;
/// TCP's Congestion Window Reduced flag, carried on a data frame in `Frame::ecn` above the IP ECN
/// bits (a switch marking CE keeps it).
pub const CWR: u8 = 0b1000;

/// TCP settings. Counts are in segments, times in picoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpParams {
    /// Default `Reno`: Jiang & Jain 2007 §VI.A ("TCP Reno with Selective Acknowledgements").
    pub variant: Variant,
    /// Default `true`: Jiang & Jain 2007 §VI.A runs SACK (RFC 2018 option, RFC 6675 recovery).
    pub sack: bool,
    /// Payload bytes per segment. Default 1460: Ethernet's 1500-byte MTU (RFC 894) less the
    /// 40 bytes of IPv4 and TCP headers (RFC 879 §1 / RFC 9293 §3.7.1); Jiang & Jain 2007 §VI.A's
    /// "all packets are 1500 bytes".
    pub mss: u32,
    /// Initial window (segments). Default 3: RFC 5681 §3.1 eq. (1) IW = min(4·SMSS,
    /// max(2·SMSS, 4380 B)) = 3 segments for SMSS = 1460 B.
    pub init_cwnd: u32,
    /// Initial slow-start threshold (segments). Default `u32::MAX`: RFC 5681 §3.1, "SHOULD be set
    /// arbitrarily high"; ns-2's `ssthresh_` parameter.
    pub init_ssthresh: u32,
    /// Receiver window (segments); the sender never has more than this outstanding and the
    /// receiver buffers no further ahead. Default 44: Jiang & Jain 2007 §VI.A ("the maximum receive window
    /// is set to 44 packets, which is approximately equivalent to a window of 64 kB" — 65 535 B /
    /// 1460 B = 44, the largest window without window scaling, RFC 7323 §2).
    pub rwnd: u32,
    /// Duplicate ACKs that trigger fast retransmit. Default 3: RFC 5681 §3.2 (DupThresh of
    /// RFC 6675 §2).
    pub dupack_threshold: u32,
    /// Limited transmit: one new segment on each of the first two duplicate ACKs, cwnd unchanged
    /// (RFC 3042; RFC 5681 §3.2 step 1, "SHOULD"; RFC 6675 §5 step 3). Default `true`: ns-2's
    /// `Agent/TCP set singledup_ 1` ("default changed on 2001/11/28", ns-default.tcl).
    pub limited_transmit: bool,
    /// Lower clamp of the RTO. Default 200 ms: ns-2's `Agent/TCP set minrto_ 0.2` and Linux's
    /// `TCP_RTO_MIN` (RFC 6298 §2.4 asks for 1 s; docs/protocols.md §8 "200 ms classic").
    pub min_rto: Time,
    /// Upper clamp of the RTO, applied last (after back-off), as ns-2's `maxrto_`. Default 60 s:
    /// RFC 6298 §2.5 (a maximum "MAY be placed on RTO provided it is at least 60 seconds").
    /// Jiang & Jain 2007 §VI.A sets it to 1 ms ([`TcpParams::seed002`]).
    pub max_rto: Time,
    /// RTO before the first RTT sample. Default 1 s: RFC 6298 §2.1.
    pub initial_rto: Time,
    /// Clock granularity G of RFC 6298 §2.2–2.3 (RTO = SRTT + max(G, 4·RTTVAR)). Default 0: the
    /// simulator's clock is exact (picoseconds); ns-2's `tcp_tick_` is 10 ms.
    pub granularity: Time,
    /// Delayed ACKs at the receiver. Default `false`: ns-2's `Agent/TCPSink/Sack1` ACKs every
    /// segment (the delayed-ACK sink is a separate agent, `Agent/TCPSink/DelAck`).
    pub delayed_ack: bool,
    /// Longest an ACK is delayed. Default 100 ms: ns-2's `Agent/TCPSink/DelAck set interval_
    /// 100ms` (RFC 5681 §4.2: "MUST be generated within 500 ms").
    pub delack_timeout: Time,
    /// ECN at both ends. Default [`EcnMode::Off`] (ns-2's `Agent/TCP set ecn_ 0`).
    pub ecn: EcnMode,
    /// DCTCP's estimation gain g in α ← (1 − g)·α + g·F. Default 1/16: RFC 8257 §4.2 and
    /// Alizadeh et al. 2010 §3.4 (g = 1/16 at 10 Gb/s).
    pub dctcp_g: f64,
}

impl Default for TcpParams {
    fn default() -> Self {
        TcpParams {
            variant: Variant::Reno,
            sack: true,
            mss: 1460,
            init_cwnd: 3,
            init_ssthresh: u32::MAX,
            rwnd: 44,
            dupack_threshold: 3,
            limited_transmit: true,
            min_rto: 200 * MS,
            max_rto: 60_000 * MS,
            initial_rto: 1000 * MS,
            granularity: 0,
            delayed_ack: false,
            delack_timeout: 100 * MS,
            ecn: EcnMode::Off,
            dctcp_g: 1.0 / 16.0,
        }
    }
}

impl TcpParams {
    /// Jiang & Jain 2007 §VI.A: ns-2 TCP Reno with SACK, 1500-byte packets (MSS 1460), receive window 44
    /// packets, "maximum timeout for TCP is tuned to 1 ms" (`maxrto_` = 1 ms; with ns-2's
    /// `minrto_` of 200 ms every RTO is then exactly 1 ms).
    pub fn seed002() -> Self {
        TcpParams { max_rto: MS, ..TcpParams::default() }
    }
}

/// A segment the sender wants on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Segment index (0, 1, 2 … in the order of the application's bytes).
    pub seq: u32,
    /// Payload bytes (≤ mss).
    pub len: u32,
    /// Sent before (fast retransmit, NewReno partial ACK, SACK `NextSeg`, or go-back-N after an RTO).
    pub retransmission: bool,
    /// The frame's `ecn` byte: the IP ECN codepoint (`frame::ECN_ECT0` on new data with ECN on,
    /// `frame::ECN_CE` once a switch marked it) and the [`CWR`] flag.
    pub ecn: u8,
}

impl Segment {
    /// Make `f` this data segment: `f.seq` = seq and `f.size` = payload + headers. The tag area and
    /// `proto` stay free for the rate-regulation protocol below TCP (E-QCN's F̂b, BCN's RRT).
    pub fn write(&self, f: &mut Frame) {
        f.kind = FrameKind::Data;
        f.seq = self.seq;
        f.size = self.len + HEADER_BYTES;
        f.ecn = self.ecn;
    }
    /// The segment a data frame carries (a retransmission looks like any other on the wire).
    pub fn read(f: &Frame) -> Option<Self> {
        (f.kind == FrameKind::Data && f.size >= HEADER_BYTES).then_some(Segment { seq: f.seq, len: f.size - HEADER_BYTES, retransmission: false, ecn: f.ecn })
    }
    /// The IP header says Congestion Experienced.
    pub fn ce(&self) -> bool {
        ce(self.ecn)
    }
}

/// An acknowledgement: the cumulative ACK and up to two SACK blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ack {
    /// The next segment the receiver expects (all below it are received).
    pub ack: u32,
    /// SACK blocks `[start, end)` of segments held above `ack`, the block holding the most recently
    /// received segment first (RFC 2018 §4); `(0, 0)` for none (a real block starts above `ack`).
    /// Two blocks fill the frame's 16-byte tag area.
    pub sack: [(u32, u32); 2],
    /// ECN-Echo (RFC 3168 §6.1.3, RFC 8257 §3.2).
    pub ece: bool,
}

impl Ack {
    /// The blocks in use.
    pub fn blocks(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.sack.iter().copied().filter(|&(s, e)| e > s)
    }
    /// Make `f` this ACK: `f.ack`, tag = [start₁, end₁, start₂, end₂]. ACKs are `FrameKind::Ack`:
    /// routed like data to the flow's source, delivered to its transport endpoint.
    pub fn write(&self, f: &mut Frame) {
        f.kind = FrameKind::Ack;
        f.proto = Proto::Tcp;
        f.ack = self.ack;
        f.tag = [self.sack[0].0, self.sack[0].1, self.sack[1].0, self.sack[1].1];
        f.ecn = if self.ece { ECE } else { 0 };
    }
    pub fn read(f: &Frame) -> Option<Self> {
        (f.proto == Proto::Tcp && f.kind == FrameKind::Ack).then_some(Ack { ack: f.ack, sack: [(f.tag[0], f.tag[1]), (f.tag[2], f.tag[3])], ece: f.ecn & ECE != 0 })
    }
}

/// What TCP reports per flow (collected by `metrics::all()`).
pub const METRICS: &[Metric] = &[
    Metric { scope: "flows", name: "tcp_goodput_bps", unit: "bit/s", kind: "counter-window", doc: "application bytes delivered in order to the TCP receiver in the window × 8 / window_s (retransmissions and headers excluded)" },
    Metric { scope: "flows", name: "tcp_bytes_acked", unit: "B", kind: "counter", doc: "application bytes cumulatively acknowledged at the TCP sender" },
    Metric { scope: "flows", name: "tcp_retransmissions", unit: "segments", kind: "counter", doc: "segments sent again (fast retransmit, partial-ACK and SACK retransmissions, go-back-N after a timeout)" },
    Metric { scope: "flows", name: "tcp_fast_retransmits", unit: "events", kind: "counter", doc: "entries into fast retransmit / fast recovery" },
    Metric { scope: "flows", name: "tcp_timeouts", unit: "events", kind: "counter", doc: "retransmission timer expiries (RFC 6298 §5.4)" },
    Metric { scope: "flows", name: "tcp_cwnd", unit: "segments", kind: "gauge", doc: "congestion window at the end of the run" },
    Metric { scope: "flows", name: "tcp_ssthresh", unit: "segments", kind: "gauge", doc: "slow-start threshold at the end of the run" },
    Metric { scope: "flows", name: "tcp_srtt_s", unit: "s", kind: "gauge", doc: "smoothed RTT (RFC 6298) at the end of the run; null before the first sample" },
    Metric { scope: "flows", name: "tcp_rto_s", unit: "s", kind: "gauge", doc: "retransmission timeout at the end of the run, clamped and backed off" },
    Metric { scope: "flows", name: "tcp_ecn_reductions", unit: "events", kind: "counter", doc: "window reductions in response to ECN-Echo (RFC 3168 halvings or DCTCP cuts, at most one per window of data)" },
    Metric { scope: "flows", name: "tcp_dctcp_alpha", unit: "1", kind: "gauge", doc: "DCTCP's estimate α of the fraction of marked bytes (RFC 8257 §3.3) at the end of the run; null unless ecn = \"dctcp\"" },
    Metric { scope: "flows", name: "tcp_transactions_window", unit: "count", kind: "counter-window", doc: "transactions completed in the window (last byte acknowledged)" },
    Metric { scope: "flows", name: "tcp_transactions_per_s", unit: "1/s", kind: "counter-window", doc: "transactions completed per second in the window (Jiang & Jain 2007 Table I, tps)" },
    Metric { scope: "flows", name: "tcp_transaction_latency_s", unit: "s", kind: "time-average", doc: "mean time from a transaction's start to its last byte acknowledged, in the window" },
    Metric { scope: "series", name: "tcp_cwnd_segments.FLOW", unit: "segments", kind: "series", doc: "congestion window of a TCP flow's sender" },
    Metric { scope: "series", name: "tcp_srtt_s.FLOW", unit: "s", kind: "series", doc: "smoothed RTT of a TCP flow's sender (NaN before the first RTT sample)" },
];

/// The series a TCP flow records (`TcpSender::series` gives their values), each named
/// `NAME.FLOW` and declared in `METRICS`.
pub const SERIES: [&str; 2] = ["tcp_cwnd_segments", "tcp_srtt_s"];

#[cfg(test)]
mod tests;
