//! BCN's frames on the wire, for packet capture (docs/protocols.md §10). Jiang & Jain 2007 name the
//! message's fields (CPID, e, C, the STOP flag) and the rate-regulator tag, not their encoding: both
//! are written in cnsim's shim (subtypes 4 and 3), all fields big-endian.

use super::{rrt, Message};
use crate::net::frame::Frame;
use crate::slots::wire::{be32, be64, eth_vlan, shim, Ctx, SUB_BCN, SUB_BCN_RRT};

/// The BCN message `f`'s bytes, appended to `b` (`cpid_of` maps the engine's CPID to the wire's
/// 8-byte CPID); returns its length on the wire (without FCS). Ethernet, 802.1Q, shim subtype 4:
/// CPID (8 B), e (IEEE 754 single), C in kb/s (4 B, saturated), STOP (1 B). A feedback frame that is
/// no BCN message gets its Ethernet and 802.1Q header only.
pub fn pcap(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    if let Some(m) = Message::read(f) {
        shim(b, SUB_BCN, 0);
        be64(b, cpid_of(m.cpid));
        be32(b, m.e.to_bits());
        be32(b, (m.capacity_bps / 1000).min(u32::MAX as u64) as u32);
        b.push(m.stop as u8);
    }
    (f.size as usize).max(b.len() - start)
}

/// A data frame's rate-regulator tag, if `f` carries one: shim subtype 3, `next` the EtherType that
/// follows, then the CPID of the regulator's CP (8 B). Returns whether it wrote the tag.
pub fn rrt_tag(f: &Frame, next: u16, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> bool {
    let Some(cpid) = rrt(f) else { return false };
    shim(b, SUB_BCN_RRT, next);
    be64(b, cpid_of(cpid));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};
    use crate::slots::wire::{cpid, mac};

    fn ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), ..Default::default() }
    }

    #[test]
    fn a_bcn_message_in_the_shim() {
        let data = Frame::new(FrameKind::Data, 1500, 2, Dest::Node(9), 7, 0);
        let f = Message { cpid: 3, e: -1.5, capacity_bps: 10_000_000_000, stop: true }.frame(&data, 1, 64, 0);
        let mut b = vec![];
        assert_eq!(pcap(&f, &ctx(), &|p| cpid(1, p), &mut b), 64);
        assert_eq!(&b[16..22], &[0x88, 0xB5, SUB_BCN, 1, 0, 0]); // shim, version 1, nothing follows
        assert_eq!(&b[22..30], &[0x02, 0xC5, 0, 0, 0, 1, 0, 3]); // CPID
        assert_eq!(&b[30..34], &(-1.5f32).to_bits().to_be_bytes());
        assert_eq!(&b[34..38], &10_000_000u32.to_be_bytes()); // kb/s
        assert_eq!((b[38], b.len()), (1, 39));
    }

}
