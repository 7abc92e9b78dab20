//! HPCC's frames on the wire, for packet capture (docs/observing.md): RoCEv2 (InfiniBand
//! Architecture Specification Vol. 1, Annex A17; the BTH and AETH of its §9.2, §9.3), as the
//! paper's NICs send them, with the INT stack after the BTH (the artifact's `IntHeader`: a hop
//! count and `MAX_HOPS` records of 8 bytes, §3.1 of the paper). A capture writes the stack's bytes
//! as zeros: the records live in the engine's side table (`net::telemetry`), which a capture
//! writer does not see; the trace and the flow's series show what the sender read.
//!
//! | bytes after 802.1Q | data frame | ACK |
//! |---|---|---|
//! | IPv4 (20) | protocol UDP, ECN field = `Frame::ecn` | same |
//! | UDP (8) | source port 49152 + flow mod 16384, destination 4791 | source 4791, destination the flow's port |
//! | BTH (12) | opcode 0x04 (RC SEND Only), P_Key 0xFFFF, destination QP = 2 + the flow (24 bits), PSN = byte offset ÷ payload bytes | opcode 0x11 (RC Acknowledge), PSN = the last packet received in order |
//! | AETH (4) | — | syndrome 0x1F (ACK, unlimited credit) or 0x60 (NAK: PSN sequence error), MSN 0 |
//! | INT (42) | zeros | zeros |
//! | payload | zeros (written: Wireshark reads a RoCE packet's length from the bytes captured) | — |

use super::{INT_BYTES, DATA_HEADER_BYTES};
use crate::net::frame::Frame;
use crate::slots::wire::{be16, be32, eth_vlan, ipv4_header, Ctx, ETH_IPV4, IP_UDP};

/// RoCEv2's UDP destination port (IANA; IBA Vol. 1 Annex A17).
pub const ROCEV2_PORT: u16 = 4791;
const OPCODE_SEND_ONLY: u8 = 0x04;
const OPCODE_ACK: u8 = 0x11;
const AETH_ACK: u8 = 0x1F;
const AETH_NAK_PSN: u8 = 0x60;

/// A data frame from its IPv4 header on (`slots::wire::Segment`): IPv4, UDP, BTH, the INT stack
/// and the payload, all written (zeros after the BTH); returns 0, the bytes left unwritten.
pub fn segment(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> u32 {
    let payload = f.size.saturating_sub(DATA_HEADER_BYTES);
    let udp = 8 + 12 + INT_BYTES + payload;
    ipv4_header(b, c, f, IP_UDP, udp);
    be16(b, 49152 + (f.flow % 16384) as u16);
    be16(b, ROCEV2_PORT);
    be16(b, udp as u16);
    be16(b, 0);
    bth(b, OPCODE_SEND_ONLY, f.flow, psn(f.seq, c));
    // The payload's zeros too: Wireshark's InfiniBand dissector reads a RoCE packet's length from
    // the bytes captured (a capture keeps `snaplen` of them).
    b.resize(b.len() + INT_BYTES as usize + payload as usize, 0);
    0
}

/// An ACK's bytes, Ethernet on, appended to `b`; returns its length on the wire (without FCS).
pub fn pcap_ack(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    be16(b, ETH_IPV4);
    let udp = 8 + 12 + 4 + INT_BYTES;
    ipv4_header(b, c, f, IP_UDP, udp);
    be16(b, ROCEV2_PORT);
    be16(b, 49152 + (f.flow % 16384) as u16);
    be16(b, udp as u16);
    be16(b, 0);
    let nack = f.tag[0] & 1 != 0;
    let expected = psn(f.ack, c);
    bth(b, OPCODE_ACK, f.flow, if nack { expected } else { expected.wrapping_sub(1) & 0x00FF_FFFF });
    b.push(if nack { AETH_NAK_PSN } else { AETH_ACK });
    b.extend_from_slice(&[0, 0, 0]); // MSN
    b.resize(b.len() + INT_BYTES as usize, 0);
    (f.size as usize).max(b.len() - start)
}

/// The packet sequence number of byte offset `seq` (24 bits).
fn psn(seq: u32, c: &Ctx) -> u32 {
    (seq / c.mss.max(1)) & 0x00FF_FFFF
}

/// A BTH: `opcode`, SE/M/PadCnt/TVer 0, P_Key 0xFFFF, destination QP = 2 + the flow (QPs 0 and 1
/// are InfiniBand's management QPs, which Wireshark decodes as MADs), A = 0, `psn`.
fn bth(b: &mut Vec<u8>, opcode: u8, flow: u32, psn: u32) {
    b.push(opcode);
    b.push(0);
    be16(b, 0xFFFF);
    be32(b, flow.wrapping_add(2) & 0x00FF_FFFF);
    be32(b, psn);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};
    use crate::slots::wire::{ipv4, mac};

    fn ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), ip_src: ipv4(1), ip_dst: ipv4(2), mss: 1000, ..Default::default() }
    }

    #[test]
    fn a_data_frame_is_rocev2_send_with_its_psn_and_room_for_the_int_stack() {
        let mut f = Frame::new(FrameKind::Data, 1000 + DATA_HEADER_BYTES, 1, Dest::Node(2), 0x0102_0304, 0);
        f.seq = 5000;
        let mut b = vec![];
        assert_eq!(segment(&f, &ctx(), &mut b), 0);
        assert_eq!(b.len(), 20 + 8 + 12 + INT_BYTES as usize + 1000);
        assert_eq!(b[9], 17); // UDP
        assert_eq!(&b[22..24], &ROCEV2_PORT.to_be_bytes());
        assert_eq!(u16::from_be_bytes([b[24], b[25]]) as u32, 8 + 12 + INT_BYTES + 1000);
        assert_eq!(&b[28..40], &[0x04, 0, 0xFF, 0xFF, 0, 0x02, 0x03, 0x06, 0, 0, 0, 5]); // QP: 24 bits of 2 + the flow; PSN 5
    }

    #[test]
    fn an_ack_is_rocev2_acknowledge_and_a_nack_a_psn_sequence_error() {
        let mut f = Frame::new(FrameKind::Ack, super::super::ACK_BYTES, 2, Dest::Node(1), 7, 0);
        f.ack = 3000;
        let mut b = vec![];
        assert_eq!(pcap_ack(&f, &ctx(), &mut b), super::super::ACK_BYTES as usize);
        let bth = 18 + 20 + 8;
        assert_eq!((b[bth], &b[bth + 4..bth + 12], b[bth + 12]), (OPCODE_ACK, &[0, 0, 0, 9, 0, 0, 0, 2][..], AETH_ACK));
        f.tag[0] = 1;
        let mut b = vec![];
        pcap_ack(&f, &ctx(), &mut b);
        assert_eq!((&b[bth + 8..bth + 12], b[bth + 12]), (&[0, 0, 0, 3][..], AETH_NAK_PSN));
    }
}
