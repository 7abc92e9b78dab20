//! TIMELY's fields in cnsim frames and on the wire. A data frame carries its send time (ps, in the
//! tag area's first two words); the acknowledgement of it echoes that time and says the next
//! segment the receiver expects (`Frame::ack`). Both are written under `Proto::Timely`.
//!
//! In a capture they are IPv4 + a TCP-shaped header with the timestamps option (RFC 7323 §3), so
//! that Wireshark shows the sequence numbers and the echoed time: data frames carry TSval = their
//! send time, ACKs TSval = their own send time and TSecr = the echoed send time (nanoseconds of
//! simulated time, modulo 2³²). Destination port 5002 (TIMELY's receiver; the source's port is
//! 49152 + flow mod 16384). Sequence and acknowledgement numbers are segment indices × the
//! payload bytes per segment (`Ctx::mss`).

use crate::core::time::Time;
use crate::net::frame::{Frame, FrameKind};
use crate::slots::wire::{be16, eth_vlan, segment_header, Ctx, SegmentHeader, ETH_IPV4};
use crate::slots::Proto;

/// IPv4, the TCP-shaped header and its timestamps option (NOP, NOP, kind 8, length 10).
pub const HEADER_BYTES: u32 = 20 + 20 + 12;
/// TIMELY's receiver port.
pub const PORT: u16 = 5002;
/// TCP's flags the header sets (RFC 9293 §3.1).
const ACK: u8 = 0x10;
const PSH: u8 = 0x08;

/// Write `t` into the tag area's first two words.
fn put_time(f: &mut Frame, t: Time) {
    f.tag[0] = (t >> 32) as u32;
    f.tag[1] = t as u32;
}

fn time(f: &Frame) -> Time {
    ((f.tag[0] as u64) << 32) | f.tag[1] as u64
}

/// A data frame of TIMELY's: stamp its send time.
pub fn stamp(f: &mut Frame, now: Time) {
    f.proto = Proto::Timely;
    put_time(f, now);
}

/// The send time a TIMELY data frame carries.
pub fn sent_at(f: &Frame) -> Option<Time> {
    (f.kind == FrameKind::Data && f.proto == Proto::Timely).then(|| time(f))
}

/// Make `f` TIMELY's acknowledgement: the next segment expected and the echoed send time.
pub fn write_ack(f: &mut Frame, expected: u32, echo: Time) {
    f.proto = Proto::Timely;
    f.ack = expected;
    put_time(f, echo);
}

/// A TIMELY acknowledgement: (next segment expected, echoed send time).
pub fn read_ack(f: &Frame) -> Option<(u32, Time)> {
    (f.kind == FrameKind::Ack && f.proto == Proto::Timely).then(|| (f.ack, time(f)))
}

/// Nanoseconds modulo 2³², the timestamps option's clock.
fn ts(t: Time) -> u32 {
    (t / 1000) as u32
}

/// A data frame's headers from IPv4 on (its `Ctx::segment` writer); returns its payload bytes.
pub fn segment(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> u32 {
    let payload = f.size.saturating_sub(HEADER_BYTES);
    headers(b, c, f, payload, (f.seq.wrapping_mul(c.mss), 0), ACK | PSH, (ts(time(f)), 0));
    payload
}

/// An acknowledgement's bytes (Ethernet, 802.1Q, IPv4, the TCP-shaped header); returns its length
/// on the wire (without FCS).
pub fn pcap_ack(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    be16(b, ETH_IPV4);
    headers(b, c, f, 0, (0, f.ack.wrapping_mul(c.mss)), ACK, (ts(f.created), ts(time(f))));
    (f.size as usize).max(b.len() - start)
}

/// IPv4 (checksum set) and the TCP-shaped header with the timestamps option.
fn headers(b: &mut Vec<u8>, c: &Ctx, f: &Frame, payload: u32, (seq, ack): (u32, u32), flags: u8, ts: (u32, u32)) {
    segment_header(b, c, f, payload, &SegmentHeader { header_bytes: HEADER_BYTES, port: PORT, seq, ack, flags, ts });
}
