//! E-QCN's data-frame tag on the wire, for packet capture (docs/protocols.md §10): the RP's saved
//! F̂b and the CPID that set it (Mliki et al. 2016b, Algorithm 1), in cnsim's shim (subtype 2).

use super::read_tag;
use crate::net::frame::Frame;
use crate::slots::wire::{be64, shim, SUB_EQCN};

/// A data frame's E-QCN tag, if `f` carries one: shim subtype 2, `next` the EtherType that follows,
/// F̂b (1 B), the CPID (8 B, through `cpid_of`). Returns whether it wrote the tag.
pub fn tag(f: &Frame, next: u16, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> bool {
    let Some((fb_hat, cpid)) = read_tag(f) else { return false };
    shim(b, SUB_EQCN, next);
    b.push(fb_hat);
    be64(b, cpid_of(cpid));
    true
}
