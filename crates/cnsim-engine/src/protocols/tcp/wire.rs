//! TCP segments and ACKs on the wire, for packet capture (docs/protocols.md §10): IPv4 (RFC 791)
//! and TCP (RFC 9293) headers, the SACK option (RFC 2018) on ACKs, the ECN bits (RFC 3168).
//! Sequence numbers are the engine's segment indices times the flow's MSS.

use super::{Ack, CWR, HEADER_BYTES};
use crate::net::frame::{Frame, FrameKind};
use crate::tap::wire::{be16, be32, eth_vlan, ipv4_header, Ctx, IP_TCP};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::Dest;
    use crate::tap::wire::{build, checksum, cpid, ipv4, mac};

    fn ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), tcp: true, ip_src: ipv4(1), ip_dst: ipv4(2), mss: 1460, ..Default::default() }
    }

    #[test]
    fn tcp_segment_has_a_valid_ip_header() {
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        f.seq = 2;
        let mut b = vec![];
        let len = build(&f, &ctx(), &|p| cpid(1, p), &mut b);
        assert_eq!(&b[16..18], &[0x08, 0x00]);
        assert_eq!(checksum(&b[18..38]), 0);
        assert_eq!(u32::from_be_bytes([b[42], b[43], b[44], b[45]]), 2 * 1460);
        assert_eq!(len, 18 + 1500);
    }

    #[test]
    fn tcp_ecn_bits_and_flags() {
        let c = ctx();
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        f.ecn = crate::net::frame::ECN_CE | CWR;
        let mut b = vec![];
        build(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(b[19], 0b11); // IP ECN field: CE, nothing above it
        assert_eq!(b[18 + 20 + 13], 0x98); // CWR + ACK + PSH
        let mut a = Frame::new(FrameKind::Ack, 64, 2, Dest::Node(1), 3, 0);
        Ack { ack: 5, sack: [(0, 0); 2], ece: true }.write(&mut a);
        let mut b = vec![];
        build(&a, &c, &|p| cpid(1, p), &mut b);
        // The ACK's IP header follows the VLAN tag at byte 16 (no EtherType is written before it).
        assert_eq!((b[16], b[17], b[16 + 20 + 13]), (0x45, 0, 0x50)); // Not-ECT; ECE + ACK
    }
}
