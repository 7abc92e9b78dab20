//! TCP segments and ACKs on the wire, for packet capture (docs/protocols.md §10): IPv4 (RFC 791)
//! and TCP (RFC 9293) headers, the SACK option (RFC 2018) on ACKs, the ECN bits (RFC 3168).
//! Sequence numbers are the engine's segment indices times the flow's MSS.

use super::{Ack, CWR, HEADER_BYTES};
use crate::net::frame::{Frame, FrameKind};
use crate::slots::wire::{be16, be32, eth_vlan, ipv4_header, Ctx, IP_TCP};

/// TCP port of a flow's receiver; the source uses 49152 + flow mod 16384.
pub const TCP_SINK_PORT: u16 = 5001;
/// TCP flags.
const ACK: u8 = 0x10;
const PSH: u8 = 0x08;
const ECE: u8 = 0x40;
const CWR_FLAG: u8 = 0x80;

/// A data segment's IPv4 and TCP headers (ACK + PSH, CWR when the sender set it), appended to `b`
/// after the frame's Ethernet header and tags; returns the payload bytes that follow on the wire
/// (zeros, not written).
pub fn segment(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> u32 {
    let payload = f.size.saturating_sub(HEADER_BYTES);
    let cwr = if f.ecn & CWR != 0 { CWR_FLAG } else { 0 };
    ip_tcp(b, c, f, payload, f.seq.wrapping_mul(c.mss), ACK | PSH | cwr, &[]);
    payload
}

/// The ACK `f`'s bytes, appended to `b`: Ethernet, 802.1Q, IPv4, TCP with ACK (and ECE when it
/// echoes congestion) and its SACK blocks; returns its length on the wire (without FCS).
pub fn pcap_ack(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    let a = Ack::read(f).unwrap_or_default();
    let blocks: Vec<(u32, u32)> = a.blocks().map(|(s, e)| (s.wrapping_mul(c.mss), e.wrapping_mul(c.mss))).collect();
    ip_tcp(b, c, f, 0, 0, if a.ece { ECE | ACK } else { ACK }, &blocks);
    b.len() - start
}

/// IPv4 (20 B, checksum set) and TCP (20 B + SACK option) headers, with `payload` bytes following.
fn ip_tcp(b: &mut Vec<u8>, c: &Ctx, f: &Frame, payload: u32, seq: u32, flags: u8, sack: &[(u32, u32)]) {
    let opt_len = if sack.is_empty() { 0 } else { 4 + 8 * sack.len() };
    let tcp_len = 20 + opt_len;
    ipv4_header(b, c, f, IP_TCP, tcp_len as u32 + payload);
    let sport = 49152 + (f.flow % 16384) as u16;
    let (sp, dp) = if f.kind == FrameKind::Ack { (TCP_SINK_PORT, sport) } else { (sport, TCP_SINK_PORT) };
    be16(b, sp);
    be16(b, dp);
    be32(b, seq);
    be32(b, f.ack.wrapping_mul(c.mss));
    b.push(((tcp_len / 4) as u8) << 4);
    b.push(flags);
    be16(b, 0xFFFF); // window
    be16(b, 0); // checksum (not computed)
    be16(b, 0);
    if !sack.is_empty() {
        b.extend_from_slice(&[1, 1, 5, (2 + 8 * sack.len()) as u8]); // NOP, NOP, SACK, length
        for &(s, e) in sack {
            be32(b, s);
            be32(b, e);
        }
    }
}
