//! ECM's congestion message on the wire, for packet capture (docs/protocols.md §10). Roeck 2007's
//! slides give the message's contents, not an encoding: cnsim writes it in its shim (subtype 5).

use super::Message;
use crate::net::frame::Frame;
use crate::slots::wire::{be32, be64, eth_vlan, shim, Ctx, SUB_ECM};

/// The ECM message `f`'s bytes, appended to `b` (`cpid_of` maps the engine's CPID to the wire's
/// 8-byte CPID); returns its length on the wire (without FCS). Ethernet, 802.1Q, shim subtype 5:
/// CPID (8 B), Fb (IEEE 754 single), the echoed send time of the sampled frame in ps (8 B, all ones
/// when none). A feedback frame that is no ECM message gets its Ethernet and 802.1Q header only.
pub fn pcap(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    if let Some(m) = Message::read(f) {
        shim(b, SUB_ECM, 0);
        be64(b, cpid_of(m.cpid));
        be32(b, m.fb.to_bits());
        be64(b, m.echo.unwrap_or(u64::MAX));
    }
    (f.size as usize).max(b.len() - start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};
    use crate::slots::wire::{cpid, mac};

    #[test]
    fn an_ecm_message_in_the_shim_with_and_without_an_echo() {
        let c = Ctx { src: mac(1), dst: mac(2), ..Default::default() };
        let data = Frame::new(FrameKind::Data, 1500, 2, Dest::Node(9), 7, 0);
        let mut b = vec![];
        let f = Message { cpid: 3, fb: -20.0, echo: Some(0x0102_0304_0506) }.frame(&data, 1, 64, 0);
        assert_eq!(pcap(&f, &c, &|p| cpid(1, p), &mut b), 64);
        assert_eq!(&b[16..22], &[0x88, 0xB5, SUB_ECM, 1, 0, 0]);
        assert_eq!(&b[22..30], &[0x02, 0xC5, 0, 0, 0, 1, 0, 3]);
        assert_eq!(&b[30..34], &(-20.0f32).to_bits().to_be_bytes());
        assert_eq!(&b[34..42], &0x0102_0304_0506u64.to_be_bytes());
        assert_eq!(b.len(), 42);
        b.clear();
        let f = Message { cpid: 3, fb: 1.0, echo: None }.frame(&data, 1, 64, 0);
        pcap(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(&b[34..42], &[0xFF; 8]);
    }
}
