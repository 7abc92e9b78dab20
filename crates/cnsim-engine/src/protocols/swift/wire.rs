//! Swift's fields in cnsim frames and on the wire. A data frame carries its send time (ps, the tag
//! area's first two words); its acknowledgement echoes that time, the receiver's endpoint delay (ps,
//! third word, saturating) and the path's hop count (fourth word: 64 − the data frame's TTL on
//! arrival), and says the next segment the receiver expects (`Frame::ack`). Both are written under
//! `Proto::Swift`.
//!
//! In a capture they are IPv4 + a TCP-shaped header whose options Wireshark decodes: the timestamps
//! option (RFC 7323 §3: data frames TSval = their send time; ACKs TSval = their own send time, TSecr =
//! the echoed send time; nanoseconds of simulated time modulo 2³²) and an experimental option (RFC
//! 6994: kind 253, length 10, ExID 0x5357 "SW", then the endpoint delay in ns (4 bytes) and the hop
//! count (1 byte), one zero byte), padded by two NOPs. Destination port 5003 (Swift's receiver; the
//! source's port is 49152 + flow mod 16384). Sequence and acknowledgement numbers are segment
//! indices × the payload bytes per segment (`Ctx::mss`).

use crate::core::time::Time;
use crate::net::frame::{Frame, FrameKind};
use crate::slots::wire::{be16, be32, eth_vlan, segment_header, Ctx, SegmentHeader, ETH_IPV4};
use crate::slots::Proto;

/// IPv4, the TCP-shaped header, the timestamps option (12 B with its NOPs) and the experimental
/// option (10 B, 2 NOPs).
pub const HEADER_BYTES: u32 = 20 + 20 + 12 + 12;
/// Swift's receiver port.
pub const PORT: u16 = 5003;
/// The experimental option's ExID ("SW").
pub const EXID: u16 = 0x5357;
/// The TTL a data frame leaves its source with (`Frame::new`).
pub const INITIAL_TTL: u8 = 64;
const ACK: u8 = 0x10;
const PSH: u8 = 0x08;

fn time(f: &Frame) -> Time {
    ((f.tag[0] as u64) << 32) | f.tag[1] as u64
}

/// A data frame of Swift's: stamp its send time.
pub fn stamp(f: &mut Frame, now: Time) {
    f.proto = Proto::Swift;
    f.tag = [(now >> 32) as u32, now as u32, 0, 0];
}

/// A Swift data frame's send time and the hops it crossed (64 − its TTL now).
pub fn read_data(f: &Frame) -> Option<(Time, u32)> {
    (f.kind == FrameKind::Data && f.proto == Proto::Swift).then(|| (time(f), INITIAL_TTL.saturating_sub(f.ttl) as u32))
}

/// What an acknowledgement carries back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Echo {
    pub sent: Time,
    pub endpoint_delay: Time,
    pub hops: u32,
}

/// Make `f` Swift's acknowledgement: the next segment expected and the echo.
pub fn write_ack(f: &mut Frame, expected: u32, e: Echo) {
    f.proto = Proto::Swift;
    f.ack = expected;
    f.tag = [(e.sent >> 32) as u32, e.sent as u32, u32::try_from(e.endpoint_delay).unwrap_or(u32::MAX), e.hops];
}

/// A Swift acknowledgement: (next segment expected, its echo).
pub fn read_ack(f: &Frame) -> Option<(u32, Echo)> {
    (f.kind == FrameKind::Ack && f.proto == Proto::Swift).then(|| (f.ack, Echo { sent: time(f), endpoint_delay: f.tag[2] as Time, hops: f.tag[3] }))
}

fn ns(t: Time) -> u32 {
    (t / 1000) as u32
}

/// A data frame's headers from IPv4 on (its `Ctx::segment` writer); returns its payload bytes.
pub fn segment(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> u32 {
    let payload = f.size.saturating_sub(HEADER_BYTES);
    headers(b, c, f, payload, (f.seq.wrapping_mul(c.mss), 0), ACK | PSH, (ns(time(f)), 0), (0, 0));
    payload
}

/// An acknowledgement's bytes (Ethernet, 802.1Q, IPv4, the TCP-shaped header); returns its length
/// on the wire (without FCS).
pub fn pcap_ack(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    be16(b, ETH_IPV4);
    let e = read_ack(f).map_or(Echo::default(), |(_, e)| e);
    headers(b, c, f, 0, (0, f.ack.wrapping_mul(c.mss)), ACK, (ns(f.created), ns(e.sent)), (ns(e.endpoint_delay), e.hops.min(255) as u8));
    (f.size as usize).max(b.len() - start)
}

/// IPv4 (checksum set) and the TCP-shaped header with its two options.
#[allow(clippy::too_many_arguments)]
fn headers(b: &mut Vec<u8>, c: &Ctx, f: &Frame, payload: u32, (seq, ack): (u32, u32), flags: u8, (tsval, tsecr): (u32, u32), (delay_ns, hops): (u32, u8)) {
    segment_header(b, c, f, payload, &SegmentHeader { header_bytes: HEADER_BYTES, port: PORT, seq, ack, flags, ts: (tsval, tsecr) });
    b.extend_from_slice(&[1, 1, 253, 10]); // NOP, NOP, experimental (RFC 6994), length 10
    be16(b, EXID);
    be32(b, delay_ns);
    b.push(hops);
    b.push(0);
}
