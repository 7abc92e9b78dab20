//! PAUSE and PFC frames on the wire, for packet capture (docs/protocols.md §10).

use super::PauseMsg;
use crate::net::frame::Frame;
use crate::slots::wire::{be16, Ctx};

/// EtherType of MAC control frames (IEEE 802.3 Clause 31).
pub const ETH_MAC_CONTROL: u16 = 0x8808;
/// The MAC control multicast address PAUSE and PFC frames go to (802.3 Annex 31B).
pub const PAUSE_DA: [u8; 6] = [0x01, 0x80, 0xC2, 0x00, 0x00, 0x01];
/// MAC control opcodes: PAUSE (802.3 Annex 31B) and PFC (802.1Qbb's priority-based flow control).
pub const OPCODE_PAUSE: u16 = 0x0001;
pub const OPCODE_PFC: u16 = 0x0101;

/// The PAUSE or PFC frame `f`'s bytes, appended to `b`; returns its length on the wire (without
/// FCS), or 0 with nothing written when `f` is not a PAUSE message. A message for all eight classes
/// is a PAUSE (DA 01-80-C2-00-00-01, 0x8808, opcode 0x0001, pause time); any other class set is a
/// PFC (opcode 0x0101, class-enable vector, then eight pause times, 0 for the classes not enabled).
pub fn pcap(f: &Frame, c: &Ctx, b: &mut Vec<u8>) -> usize {
    let Some(m) = PauseMsg::read(f) else { return 0 };
    let start = b.len();
    b.extend_from_slice(&PAUSE_DA);
    b.extend_from_slice(&c.src);
    be16(b, ETH_MAC_CONTROL);
    if m.mask == 0xFF {
        be16(b, OPCODE_PAUSE);
        be16(b, m.quanta);
    } else {
        be16(b, OPCODE_PFC);
        be16(b, m.mask as u16);
        for p in 0..8 {
            be16(b, if m.mask & (1 << p) != 0 { m.quanta } else { 0 });
        }
    }
    (f.size as usize).max(b.len() - start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind, NONE};
    use crate::protocols::pause::{PauseCfg, Trigger};
    use crate::slots::wire::mac;

    fn ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), ..Default::default() }
    }

    #[test]
    fn pause_and_pfc_layouts() {
        let cfg = PauseCfg { pfc: false, trigger: Trigger::Ingress, xoff: 1, xon: 0, quanta: 0xFFFF, refresh: None, classes: 0xFF, frame_size: 64 };
        let mut b = vec![];
        let f = PauseMsg { mask: 0xFF, quanta: 300 }.frame(&cfg, 1, 0);
        assert_eq!(pcap(&f, &ctx(), &mut b), 64);
        assert_eq!(&b[..6], &PAUSE_DA);
        assert_eq!(&b[6..12], &mac(1));
        assert_eq!(&b[12..18], &[0x88, 0x08, 0x00, 0x01, 0x01, 0x2C]);
        b.clear();
        let f = PauseMsg { mask: 0b1000_0010, quanta: 5 }.frame(&cfg, 1, 0);
        pcap(&f, &ctx(), &mut b);
        assert_eq!(&b[12..18], &[0x88, 0x08, 0x01, 0x01, 0x00, 0x82]);
        assert_eq!(&b[18..22], &[0, 0, 0, 5]); // class 0: 0, class 1: 5
        assert_eq!(&b[32..34], &[0, 5]); // class 7
        assert_eq!(f.dst, Dest::Node(NONE));
    }

    #[test]
    fn a_frame_that_is_no_pause_message_writes_nothing() {
        let f = Frame::new(FrameKind::MacControl, 64, 1, Dest::Node(NONE), NONE, 0);
        let mut b = vec![];
        assert_eq!((pcap(&f, &ctx(), &mut b), b.len()), (0, 0));
    }
}
