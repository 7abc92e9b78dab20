//! E-QCN's data-frame tag on the wire, for packet capture (docs/protocols.md §10): the RP's saved
//! F̂b and the CPID that set it (Mliki et al. 2016b, Algorithm 1), in cnsim's shim (subtype 2).

use super::read_tag;
use crate::net::frame::Frame;
use crate::tap::wire::{be64, shim, SUB_EQCN};

/// A data frame's E-QCN tag, if `f` carries one: shim subtype 2, `next` the EtherType that follows,
/// F̂b (1 B), the CPID (8 B, through `cpid_of`). Returns whether it wrote the tag.
pub fn tag(f: &Frame, next: u16, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> bool {
    let Some((fb_hat, cpid)) = read_tag(f) else { return false };
    shim(b, SUB_EQCN, next);
    b.push(fb_hat);
    be64(b, cpid_of(cpid));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, FrameKind};
    use crate::slots::Proto;
    use crate::tap::wire::{build, cpid, mac, Ctx};

    #[test]
    fn a_data_frame_carries_fb_hat_and_its_cpid_after_the_cn_tag() {
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Group(0), 7, 0);
        f.proto = Proto::Eqcn;
        f.tag = [45, 3, 0, 0];
        let c = Ctx { src: mac(1), dst: mac(2), rpid: Some(7), ..Default::default() };
        let mut b = vec![];
        build(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(&b[16..20], &[0x22, 0xE9, 0, 7]); // CN-TAG
        assert_eq!(&b[20..26], &[0x88, 0xB5, SUB_EQCN, 1, 0x88, 0xB5]); // next: the data header
        assert_eq!(b[26], 45); // F̂b
        assert_eq!(&b[27..35], &[0x02, 0xC5, 0, 0, 0, 1, 0, 3]);
        let mut other = f;
        other.proto = Proto::Qcn;
        assert!(!tag(&other, 0, &|p| cpid(1, p), &mut b));
    }
}
