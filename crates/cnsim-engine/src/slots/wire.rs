//! The shared writers of cnsim's on-wire bytes (pcap export, docs/protocols.md §10): Ethernet and
//! 802.1Q, the cnsim shim and data header, IPv4 and its checksum, node and group addresses, and the
//! shim's subtypes (one list, so that no two protocols share one). Each protocol writes its own
//! frames with them in its folder (`protocols/*/wire.rs`); `tap/wire.rs` hands each frame to its
//! protocol's writer.

use crate::net::frame::Frame;

pub const ETH_VLAN: u16 = 0x8100;
/// CN-TAG (IEEE 802.1Qau-2010 §33.3).
pub const ETH_CN_TAG: u16 = 0x22E9;
pub const ETH_IPV4: u16 = 0x0800;
/// IEEE 802 Local Experimental EtherType 1: cnsim's own shim.
pub const ETH_CNSIM: u16 = 0x88B5;
/// IP protocol numbers.
pub const IP_TCP: u8 = 6;
pub const IP_UDP: u8 = 17;

/// Subtypes of the cnsim shim (one list, so that no two protocols share one).
pub const SUB_DATA: u8 = 1;
pub const SUB_EQCN: u8 = 2;
pub const SUB_BCN_RRT: u8 = 3;
pub const SUB_BCN: u8 = 4;
pub const SUB_ECM: u8 = 5;
pub const SUB_PROBE: u8 = 6;
const SHIM_VERSION: u8 = 1;

pub fn mac(node: u32) -> [u8; 6] {
    let b = node.to_be_bytes();
    [0x02, 0xC5, b[0], b[1], b[2], b[3]]
}

pub fn group_mac(group: u32) -> [u8; 6] {
    let b = group.to_be_bytes();
    [0x03, 0xC5, b[0], b[1], b[2], b[3]]
}

pub fn ipv4(node: u32) -> u32 {
    0x0A00_0000u32.wrapping_add(node).wrapping_add(1)
}

/// The 8-byte CPID of the CP at the port `index` (its position among the switch's ports) of `node`.
pub fn cpid(node: u32, index: u32) -> u64 {
    let m = mac(node);
    let mut b = [0u8; 8];
    b[..6].copy_from_slice(&m);
    b[6..].copy_from_slice(&(index.min(u16::MAX as u32) as u16).to_be_bytes());
    u64::from_be_bytes(b)
}

/// Writes a transport's data frame `f` from its IPv4 header on (IPv4, then the transport's header,
/// appended to `b`); returns the payload bytes that follow on the wire (zeros, not written).
pub type Segment = fn(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> u32;

/// What the frame header does not say, looked up by the engine for one frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ctx {
    pub src: [u8; 6],
    pub dst: [u8; 6],
    /// IPv4 addresses (TCP frames).
    pub ip_src: u32,
    pub ip_dst: u32,
    /// CN-TAG Flow ID, when the flow's source has a QCN/E-QCN reaction point.
    pub rpid: Option<u16>,
    /// A transport's bytes per segment (sequence numbers are segment indices in the engine).
    pub mss: u32,
    /// A transport's data frames: the writer of their headers after Ethernet, 802.1Q and the tags
    /// (`TransportMachine::wire`); None: the cnsim data header.
    pub segment: Option<Segment>,
    /// CNM: the sampled frame's DA, its MSDU length and its first MSDU bytes.
    pub encap_da: [u8; 6],
    pub encap_len: u16,
}

pub fn be16(b: &mut Vec<u8>, v: u16) {
    b.extend_from_slice(&v.to_be_bytes());
}
pub fn be32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_be_bytes());
}
pub fn be64(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(&v.to_be_bytes());
}

/// The cnsim shim: EtherType 0x88B5, subtype, version, `next` (the EtherType that follows, 0 = none).
pub fn shim(b: &mut Vec<u8>, sub: u8, next: u16) {
    be16(b, ETH_CNSIM);
    b.push(sub);
    b.push(SHIM_VERSION);
    be16(b, next);
}

pub fn eth_vlan(b: &mut Vec<u8>, c: &Ctx, prio: u8) {
    b.extend_from_slice(&c.dst);
    b.extend_from_slice(&c.src);
    be16(b, ETH_VLAN);
    be16(b, ((prio as u16 & 7) << 13) | 1);
}

/// The cnsim data header (after EtherType 0x88B5): subtype, version, next = 0, flow, and the
/// frame's creation time at its source in ps (for one-way delays).
pub fn data_header(f: &Frame, b: &mut Vec<u8>) {
    b.push(SUB_DATA);
    b.push(SHIM_VERSION);
    be16(b, 0);
    be32(b, f.flow);
    be64(b, f.created);
}

/// An IPv4 header (20 B, no options, don't fragment, checksum set) from `c`'s addresses, carrying
/// `proto` and `payload` bytes after it; its ECN field is the frame's (`Frame::ecn`, low 2 bits).
pub fn ipv4_header(b: &mut Vec<u8>, c: &Ctx, f: &Frame, proto: u8, payload: u32) {
    let ip_start = b.len();
    b.push(0x45);
    b.push(f.ecn & 3);
    be16(b, (20 + payload).min(u16::MAX as u32) as u16);
    be16(b, 0); // identification
    be16(b, 0x4000); // don't fragment
    b.push(f.ttl);
    b.push(proto);
    be16(b, 0);
    be32(b, c.ip_src);
    be32(b, c.ip_dst);
    let sum = checksum(&b[ip_start..]);
    b[ip_start + 10..ip_start + 12].copy_from_slice(&sum.to_be_bytes());
}

pub fn checksum(h: &[u8]) -> u16 {
    let mut s: u32 = h.chunks(2).map(|w| u16::from_be_bytes([w[0], *w.get(1).unwrap_or(&0)]) as u32).sum();
    while s > 0xFFFF {
        s = (s & 0xFFFF) + (s >> 16);
    }
    !(s as u16)
}


/// What a TCP-shaped header carries (a transport that borrows TCP's layout so Wireshark decodes it).
pub struct SegmentHeader {
    /// Header bytes from IPv4 on: 20 (IPv4) + 20 (TCP) + its options.
    pub header_bytes: u32,
    /// The transport's well-known port (the data frames' destination, the ACKs' source).
    pub port: u16,
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    /// The timestamps option's TSval and TSecr (RFC 7323 §3).
    pub ts: (u32, u32),
}

/// IPv4 (checksum set) and a TCP-shaped header ending with the timestamps option (NOP, NOP, kind
/// 8); further options (`h.header_bytes` − 52 bytes) are the caller's to append.
pub fn segment_header(b: &mut Vec<u8>, c: &Ctx, f: &Frame, payload: u32, h: &SegmentHeader) {
    debug_assert!((52..=80).contains(&h.header_bytes), "TCP's data offset holds 20 to 60 B of header");
    ipv4_header(b, c, f, IP_TCP, h.header_bytes - 20 + payload);
    let sport = 49152 + (f.flow % 16384) as u16;
    let (sp, dp) = if f.kind == crate::net::frame::FrameKind::Ack { (h.port, sport) } else { (sport, h.port) };
    be16(b, sp);
    be16(b, dp);
    be32(b, h.seq);
    be32(b, h.ack);
    b.push(((h.header_bytes - 20) / 4) as u8 * 16);
    b.push(h.flags);
    be16(b, 0xFFFF); // window
    be16(b, 0); // checksum (not computed)
    be16(b, 0); // urgent pointer
    b.extend_from_slice(&[1, 1, 8, 10]); // NOP, NOP, timestamps, length 10
    be32(b, h.ts.0);
    be32(b, h.ts.1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};

    #[test]
    fn an_ipv4_header_checksums_to_zero() {
        let f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        let c = Ctx { src: mac(1), dst: mac(2), rpid: Some(7), ip_src: ipv4(1), ip_dst: ipv4(2), ..Default::default() };
        let mut b = vec![];
        ipv4_header(&mut b, &c, &f, IP_UDP, 100);
        assert_eq!((b.len(), checksum(&b), u16::from_be_bytes([b[2], b[3]])), (20, 0, 120));
    }
}
