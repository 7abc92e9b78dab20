//! ECM's congestion message on the wire, for packet capture (docs/protocols.md §10). Roeck 2007's
//! slides give the message's contents, not an encoding: cnsim writes it in its shim (subtype 5).

use super::Message;
use crate::net::frame::Frame;
use crate::tap::wire::{be32, be64, eth_vlan, shim, Ctx, SUB_ECM};

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
