//! On-wire bytes of cnsim's frames, for pcap export (docs/protocols.md §10). Built only when a capture
//! is on, from the frame header and the protocol's own typed view of its tag area. This file holds
//! the shared writers (Ethernet and 802.1Q, CN-TAG, the cnsim shim and data header, IPv4) and
//! `build`, which hands each frame to its protocol's writer, in that protocol's folder:
//!
//! | frame | layout | written by |
//! |---|---|---|
//! | data | Ethernet, 802.1Q tag (PCP = priority, VID 1), CN-TAG 0x22E9 (Flow ID = RPID, when the flow has a QCN/E-QCN reaction point), the cnsim shim 0x88B5 for E-QCN's (F̂b, CPID) or BCN's rate-regulator tag, then either IPv4 + TCP (TCP flows) or the cnsim data header 0x88B5 | here; tags `protocols/eqcn/wire.rs`, `protocols/bcn/wire.rs`; TCP `protocols/tcp/wire.rs` |
//! | CNM | Ethernet (DA = the sampled frame's SA, SA = the CP's MAC), 802.1Q, CN-TAG (the sampled frame's Flow ID), 0x22E7: Version (4 bits) · ReservedV (6 bits) · QntzFb (6 bits), CPID (8 B), cnmQOffset, cnmQDelta (2 B each, in units of 64 B), encapsulated priority (2 B), encapsulated DA (6 B), encapsulated MSDU length (2 B), encapsulated MSDU (up to 64 B) | `protocols/qcn/wire.rs` |
//! | probe | Ethernet, 802.1Q, cnsim shim 0x88B5 subtype 6: mode, target CPID, worst Fb and its CPID | `protocols/qcn/wire.rs` |
//! | PAUSE / PFC | DA 01-80-C2-00-00-01, 0x8808, opcode 0x0001 + pause time, or 0x0101 + class-enable vector + 8 times (802.3 Annex 31B, 802.1Qbb) | `protocols/pause/wire.rs` |
//! | BCN message | Ethernet, 802.1Q, cnsim shim 0x88B5 subtype 4: CPID, e (f32), C (kb/s), STOP flag | `protocols/bcn/wire.rs` |
//! | ECM message | Ethernet, 802.1Q, cnsim shim 0x88B5 subtype 5: CPID, Fb (f32), echoed send time | `protocols/ecm/wire.rs` |
//! | TCP ACK | Ethernet, 802.1Q, IPv4, TCP with ACK and SACK blocks | `protocols/tcp/wire.rs` |
//! | DCQCN CNP | RoCEv2: Ethernet, 802.1Q, IPv4, UDP to port 4791, InfiniBand BTH (opcode 0x81, destination QP = the flow), 16 reserved bytes, ICRC | `protocols/dcqcn/wire.rs` |
//!
//! 0x88B5 is IEEE 802's Local Experimental EtherType 1: cnsim's shim is `subtype (1 B), version
//! (1 B), next EtherType (2 B)`, then the subtype's fields (all big-endian); a decoder follows
//! `next` (0 = nothing follows). The Lua dissector `python/cnsim/wireshark/cnsim.lua` decodes it,
//! CN-TAG and CNM. Addresses: node n has MAC 02:C5:nn:nn:nn:nn (locally administered) and IPv4
//! 10.x.y.z = 10.0.0.0 + n + 1; group g has MAC 03:C5:gg:gg:gg:gg. The CPID is the CP switch's MAC
//! followed by the port's index at that switch (docs/protocols.md §2: "switch MAC + port/queue index").
//! Payload bytes are zeros; the FCS is not written. Where the CNM needs the sampled frame (its DA,
//! its MSDU) cnsim rebuilds it from the flow: the sampled frame's creation time is not kept (0).

use crate::net::frame::{Frame, FrameKind};
use crate::slots::Proto;
use crate::protocols::{bcn, dcqcn, ecm, eqcn, pause, qcn, tcp};

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
    /// TCP: bytes per segment (sequence numbers are segment indices in the engine).
    pub mss: u32,
    /// A TCP flow (its data frames carry IPv4 + TCP).
    pub tcp: bool,
    /// CNM: the sampled frame's DA, its MSDU length and its first MSDU bytes.
    pub encap_da: [u8; 6],
    pub encap_len: u16,
}

pub(crate) fn be16(b: &mut Vec<u8>, v: u16) {
    b.extend_from_slice(&v.to_be_bytes());
}
pub(crate) fn be32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_be_bytes());
}
pub(crate) fn be64(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(&v.to_be_bytes());
}

/// The cnsim shim: EtherType 0x88B5, subtype, version, `next` (the EtherType that follows, 0 = none).
pub(crate) fn shim(b: &mut Vec<u8>, sub: u8, next: u16) {
    be16(b, ETH_CNSIM);
    b.push(sub);
    b.push(SHIM_VERSION);
    be16(b, next);
}

pub(crate) fn eth_vlan(b: &mut Vec<u8>, c: &Ctx, prio: u8) {
    b.extend_from_slice(&c.dst);
    b.extend_from_slice(&c.src);
    be16(b, ETH_VLAN);
    be16(b, ((prio as u16 & 7) << 13) | 1);
}

/// The bytes of frame `f` up to its payload, appended to `b` (`cpid_of` maps the engine's CPID,
/// a port id, to the wire's 8-byte CPID); returns the frame's length on the
/// wire (header plus zero payload, without FCS).
pub fn build(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    let total = match f.kind {
        FrameKind::MacControl => pause::wire::pcap(f, c, b),
        FrameKind::Feedback => match f.proto {
            Proto::Qcn => qcn::wire::pcap_cnm(f, c, cpid_of, b),
            Proto::Dcqcn => dcqcn::wire::pcap(f, c, b),
            Proto::Bcn => bcn::wire::pcap(f, c, cpid_of, b),
            Proto::Ecm => ecm::wire::pcap(f, c, cpid_of, b),
            // Probe answers and the rest: their Ethernet and 802.1Q header, zeros after it.
            _ => {
                eth_vlan(b, c, f.prio);
                f.size as usize
            }
        },
        FrameKind::Probe => qcn::wire::pcap_probe(f, c, cpid_of, b),
        FrameKind::Data => {
            eth_vlan(b, c, f.prio);
            let next = if c.tcp { ETH_IPV4 } else { ETH_CNSIM };
            tags(f, c, cpid_of, next, b);
            if c.tcp {
                let payload = tcp::wire::segment(f, c, b);
                b.len() - start + payload as usize
            } else {
                data_header(f, b);
                f.size as usize
            }
        }
        FrameKind::Ack => tcp::wire::pcap_ack(f, c, b),
    };
    total.max(b.len() - start)
}

/// The rate-regulation tags of a data frame (CN-TAG, then E-QCN's F̂b or BCN's RRT), then `next`.
fn tags(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, next: u16, b: &mut Vec<u8>) {
    if let Some(id) = c.rpid {
        be16(b, ETH_CN_TAG);
        be16(b, id);
    }
    let tagged = match f.proto {
        Proto::Eqcn => eqcn::wire::tag(f, next, cpid_of, b),
        Proto::Bcn => bcn::wire::rrt_tag(f, next, cpid_of, b),
        _ => false,
    };
    if !tagged {
        be16(b, next);
    }
}

/// The cnsim data header (after EtherType 0x88B5): subtype, version, next = 0, flow, and the
/// frame's creation time at its source in ps (for one-way delays).
pub(crate) fn data_header(f: &Frame, b: &mut Vec<u8>) {
    b.push(SUB_DATA);
    b.push(SHIM_VERSION);
    be16(b, 0);
    be32(b, f.flow);
    be64(b, f.created);
}

/// An IPv4 header (20 B, no options, don't fragment, checksum set) from `c`'s addresses, carrying
/// `proto` and `payload` bytes after it; its ECN field is the frame's (`Frame::ecn`, low 2 bits).
pub(crate) fn ipv4_header(b: &mut Vec<u8>, c: &Ctx, f: &Frame, proto: u8, payload: u32) {
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

pub(crate) fn checksum(h: &[u8]) -> u16 {
    let mut s: u32 = h.chunks(2).map(|w| u16::from_be_bytes([w[0], *w.get(1).unwrap_or(&0)]) as u32).sum();
    while s > 0xFFFF {
        s = (s & 0xFFFF) + (s >> 16);
    }
    !(s as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::Dest;

    fn ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), rpid: Some(7), ..Default::default() }
    }

    #[test]
    fn a_data_frame_carries_its_cn_tag_then_the_cnsim_data_header() {
        let f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 0x0A0B_0C0D, 5);
        let mut b = vec![];
        let len = build(&f, &ctx(), &|p| cpid(1, p), &mut b);
        assert_eq!(&b[12..16], &[0x81, 0x00, 0, 1]); // 802.1Q, PCP 0, VID 1
        assert_eq!(&b[16..22], &[0x22, 0xE9, 0, 7, 0x88, 0xB5]); // CN-TAG, then the shim
        assert_eq!(&b[22..26], &[SUB_DATA, SHIM_VERSION, 0, 0]);
        assert_eq!(&b[26..30], &[0x0A, 0x0B, 0x0C, 0x0D]); // flow
        assert_eq!(&b[30..38], &5u64.to_be_bytes()); // creation time
        assert_eq!((b.len(), len), (38, 1500));
    }

    #[test]
    fn an_ipv4_header_checksums_to_zero() {
        let f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        let c = Ctx { ip_src: ipv4(1), ip_dst: ipv4(2), ..ctx() };
        let mut b = vec![];
        ipv4_header(&mut b, &c, &f, IP_UDP, 100);
        assert_eq!((b.len(), checksum(&b), u16::from_be_bytes([b[2], b[3]])), (20, 0, 120));
    }
}
