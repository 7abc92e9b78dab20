//! DCQCN's congestion notification packet (CNP) as a cnsim frame: a feedback frame from the
//! receiver (NP) to the flow's source (RP), carrying nothing but the flow it is about (RoCEv2's CNP
//! names the queue pair; here the flow id). Zhu et al. 2015 §3.2.

use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameKind, NodeId};
use crate::slots::Proto;
use crate::slots::wire::{be16, be32, eth_vlan, ipv4_header, Ctx, ETH_IPV4, IP_UDP};

/// RoCEv2's UDP destination port (IANA's, IBA Vol. 1 Annex A17 "RoCEv2").
pub const ROCEV2_PORT: u16 = 4791;
/// BTH opcode of a CNP (Annex A17 §A17.9.3).
pub const OPCODE_CNP: u8 = 0x81;
/// The default partition key.
pub const DEFAULT_PKEY: u16 = 0xFFFF;
/// Bytes after the UDP header: BTH (12), reserved (16), ICRC (4).
pub const CNP_UDP_PAYLOAD: u16 = 12 + 16 + 4;

/// The CNP answering data frame `data` at its receiver `node`, `size` bytes in class `prio`.
pub fn cnp(data: &Frame, node: NodeId, size: u32, prio: u8, now: Time) -> Frame {
    let mut f = Frame::new(FrameKind::Feedback, size, node, Dest::Node(data.src), data.flow, now);
    f.proto = Proto::Dcqcn;
    f.prio = prio;
    f
}

/// The CNP's bytes on the wire, for packet capture, appended to `b`; returns its length on the
/// wire (without FCS). RoCEv2 (InfiniBand Architecture Specification Vol. 1 Rel. 1.2.1, Annex A17
/// "RoCEv2", §A17.9.3 for the CNP, §9.2 of the volume for the BTH):
///
/// | bytes | field |
/// |---|---|
/// | 0–17 | Ethernet, 802.1Q (PCP = the CNP's class) |
/// | 18–37 | IPv4, protocol UDP, ECN field = `Frame::ecn` |
/// | 38–45 | UDP: source port 49152 + flow mod 16384 (a flow's entropy, as cnsim's TCP), destination 4791, length 40, checksum 0 (not computed) |
/// | 46–57 | BTH: opcode 0x81, SE/M/PadCnt/TVer 0, P_Key 0xFFFF, F = 0, B = 1 (as in the CNP example NVIDIA publishes), destination QP = the flow id (24 bits), A = 0, PSN 0 |
/// | 58–73 | reserved, zeros |
/// | 74–77 | ICRC, zeros (not computed) |
pub fn pcap(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    be16(b, ETH_IPV4);
    let udp_len = 8 + CNP_UDP_PAYLOAD;
    ipv4_header(b, c, f, IP_UDP, udp_len as u32);
    be16(b, 49152 + (f.flow % 16384) as u16);
    be16(b, ROCEV2_PORT);
    be16(b, udp_len);
    be16(b, 0);
    b.push(OPCODE_CNP);
    b.push(0); // SE, M, PadCnt, TVer
    be16(b, DEFAULT_PKEY);
    be32(b, 0x4000_0000 | (f.flow & 0x00FF_FFFF)); // F = 0, B = 1, reserved, destination QP
    be32(b, 0); // A = 0, reserved, PSN 0
    b.resize(b.len() + 16 + 4, 0); // reserved, ICRC
    (f.size as usize).max(b.len() - start)
}

/// Is `f` a CNP?
#[inline]
pub fn is_cnp(f: &Frame) -> bool {
    f.kind == FrameKind::Feedback && f.proto == Proto::Dcqcn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cnp_goes_back_to_the_data_frames_source_for_its_flow() {
        let mut data = Frame::new(FrameKind::Data, 1000, 3, Dest::Node(9), 42, 0);
        data.prio = 3;
        let c = cnp(&data, 9, 64, 6, 7);
        assert_eq!((c.src, c.dst, c.flow, c.size, c.prio, c.created), (9, Dest::Node(3), 42, 64, 6, 7));
        assert!(is_cnp(&c) && !is_cnp(&data));
    }

    #[test]
    fn pcap_writes_a_rocev2_cnp() {
        use crate::slots::wire::{checksum, ipv4, mac};
        let data = Frame::new(FrameKind::Data, 1000, 3, Dest::Node(9), 0x0102_0304, 0);
        let mut f = cnp(&data, 9, 64, 6, 7);
        f.ecn = crate::net::frame::ECN_CE;
        let c = Ctx { src: mac(9), dst: mac(3), ip_src: ipv4(9), ip_dst: ipv4(3), ..Default::default() };
        let mut b = vec![0xAA];
        assert_eq!(pcap(&f, &c, &mut b), 78);
        let b = &b[1..];
        assert_eq!(b.len(), 78);
        assert_eq!((&b[0..6], &b[6..12]), (&mac(3)[..], &mac(9)[..]));
        assert_eq!(&b[12..18], &[0x81, 0x00, 6 << 5, 1, 0x08, 0x00]); // 802.1Q PCP 6, VID 1; IPv4
        assert_eq!((b[18], b[19] & 3, b[18 + 9]), (0x45, 0b11, 17)); // IPv4, CE, UDP
        assert_eq!(u16::from_be_bytes([b[20], b[21]]), 60);
        assert_eq!(checksum(&b[18..38]), 0);
        assert_eq!(&b[30..38], &[10, 0, 0, 10, 10, 0, 0, 4]);
        assert_eq!(&b[40..44], &[0x12, 0xB7, 0, 40]); // port 4791, length
        assert_eq!(&b[46..58], &[0x81, 0, 0xFF, 0xFF, 0x40, 0x02, 0x03, 0x04, 0, 0, 0, 0]); // QP: 24 bits of the flow
        assert!(b[58..].iter().all(|&x| x == 0));
    }
}
