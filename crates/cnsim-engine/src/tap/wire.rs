//! On-wire bytes of cnsim's frames, for pcap export (docs/protocols.md §10). Built only when a capture
//! is on, from the frame header and the protocol's own typed view of its tag area. This file holds
//! `build`, which hands each frame to the writer its protocol registered (`slots::register`, in
//! that protocol's folder); the shared
//! writers (Ethernet and 802.1Q, the cnsim shim and data header, IPv4) are `slots/wire.rs`:
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

use super::capture;
use crate::net::frame::{Frame, FrameKind};
use crate::registry::PROTOCOLS;
pub use crate::slots::wire::*;

/// What a transport connection's frames need in `c` (its data frames' header writer, bytes per
/// segment), as the transport says (`TransportMachine::wire`).
pub fn transport_ctx(c: &mut Ctx, t: &crate::registry::transport::Transport) {
    t.wire(c);
}

/// The bytes of frame `f` up to its payload, appended to `b` (`cpid_of` maps the engine's CPID,
/// a port id, to the wire's 8-byte CPID); returns the frame's length on the
/// wire (header plus zero payload, without FCS). A frame is written by the writer its kind's
/// declaration names (`capture::declaration`); data frames by `data` here.
pub fn build(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    let total = match f.kind {
        FrameKind::Data => data(f, c, cpid_of, b),
        _ => match capture::declaration(f).and_then(|d| d.pcap) {
            Some(pcap) => pcap(f, c, cpid_of, b),
            // Their Ethernet and 802.1Q header, zeros after it.
            None => {
                eth_vlan(b, c, f.prio);
                f.size as usize
            }
        },
    };
    total.max(b.len() - start)
}

/// A data frame: Ethernet, 802.1Q, its tags, then its transport's headers from IPv4 on (its
/// `segment` writer) or the cnsim data header.
fn data(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    let next = if c.segment.is_some() { ETH_IPV4 } else { ETH_CNSIM };
    tags(f, c, cpid_of, next, b);
    if let Some(segment) = c.segment {
        let payload = segment(f, c, b);
        b.len() - start + payload as usize
    } else {
        data_header(f, b);
        f.size as usize
    }
}

/// The rate-regulation tags of a data frame (CN-TAG, then the tag its owner registered: E-QCN's
/// F̂b, BCN's RRT), then `next`.
fn tags(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, next: u16, b: &mut Vec<u8>) {
    if let Some(id) = c.rpid {
        be16(b, ETH_CN_TAG);
        be16(b, id);
    }
    let tag = PROTOCOLS.iter().flat_map(|p| p.data_tags).find(|t| t.owner == f.proto);
    if !tag.is_some_and(|t| (t.write)(f, next, cpid_of, b)) {
        be16(b, next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, Proto};
    use crate::protocols::{bcn, eqcn, tcp};

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
        assert_eq!(&b[22..26], &[SUB_DATA, 1, 0, 0]); // subtype, shim version 1
        assert_eq!(&b[26..30], &[0x0A, 0x0B, 0x0C, 0x0D]); // flow
        assert_eq!(&b[30..38], &5u64.to_be_bytes()); // creation time
        assert_eq!((b.len(), len), (38, 1500));
    }

    fn tcp_ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), tcp: true, segment: Some(tcp::wire::segment), ip_src: ipv4(1), ip_dst: ipv4(2), mss: 1460, ..Default::default() }
    }

    #[test]
    fn tcp_segment_has_a_valid_ip_header() {
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        f.seq = 2;
        let mut b = vec![];
        let len = build(&f, &tcp_ctx(), &|p| cpid(1, p), &mut b);
        assert_eq!(&b[16..18], &[0x08, 0x00]);
        assert_eq!(checksum(&b[18..38]), 0);
        assert_eq!(u32::from_be_bytes([b[42], b[43], b[44], b[45]]), 2 * 1460);
        assert_eq!(len, 18 + 1500);
    }

    #[test]
    fn tcp_ecn_bits_and_flags() {
        let c = tcp_ctx();
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        f.ecn = crate::net::frame::ECN_CE | tcp::CWR;
        let mut b = vec![];
        build(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(b[19], 0b11); // IP ECN field: CE, nothing above it
        assert_eq!(b[18 + 20 + 13], 0x98); // tcp::CWR + ACK + PSH
        let mut a = Frame::new(FrameKind::Ack, 64, 2, Dest::Node(1), 3, 0);
        tcp::Ack { ack: 5, sack: [(0, 0); 2], ece: true }.write(&mut a);
        let mut b = vec![];
        build(&a, &c, &|p| cpid(1, p), &mut b);
        // The ACK's IP header follows the VLAN tag at byte 16 (no EtherType is written before it).
        assert_eq!((b[16], b[17], b[16 + 20 + 13]), (0x45, 0, 0x50)); // Not-ECT; ECE + ACK
    }

    #[test]
    fn a_data_frame_carries_fb_hat_and_its_cpid_after_the_cn_tag() {
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Group(0), 7, 0);
        f.proto = Proto::Eqcn;
        f.tag = [45, 3, 0, 0];
        let c = Ctx { src: mac(1), dst: mac(2), rpid: Some(7), ..Default::default() };
        let mut b = vec![];
        build(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(&b[16..20], &[0x22, 0xE9, 0, 7]); // CN-TAG
        assert_eq!(&b[20..26], &[0x88, 0xB5, crate::slots::wire::SUB_EQCN, 1, 0x88, 0xB5]); // next: the data header
        assert_eq!(b[26], 45); // F̂b
        assert_eq!(&b[27..35], &[0x02, 0xC5, 0, 0, 0, 1, 0, 3]);
        let mut other = f;
        other.proto = Proto::Qcn;
        assert!(!eqcn::wire::tag(&other, 0, &|p| cpid(1, p), &mut b));
    }

    #[test]
    fn a_data_frame_carries_its_rate_regulator_tag_before_the_data_header() {
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 7, 0);
        bcn::Rrt { cpid: 4, sent: 9 }.write(&mut f);
        let mut b = vec![];
        build(&f, &Ctx { src: mac(1), dst: mac(2), ..Default::default() }, &|p| cpid(1, p), &mut b);
        assert_eq!(&b[16..22], &[0x88, 0xB5, SUB_BCN_RRT, 1, 0x88, 0xB5]); // next: the data header
        assert_eq!(&b[22..30], &[0x02, 0xC5, 0, 0, 0, 1, 0, 4]);
        assert_eq!(&b[30..32], &[SUB_DATA, 1]);
    }
}
