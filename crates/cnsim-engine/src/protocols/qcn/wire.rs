//! QCN's fields in the frame header's tag area, and the bytes pcap export writes from them: the
//! CNM (docs/protocols.md §10; IEEE 802.1Qau-2010 §33.4) and cnsim's probe (shim subtype 6).

use super::cp::Sample;
use super::probe::Probe;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameKind, NodeId};
use crate::slots::Proto;
use crate::slots::wire::{be16, be32, be64, data_header, eth_vlan, shim, Ctx, ETH_CN_TAG, ETH_CNSIM, ETH_IPV4, SUB_PROBE};

/// EtherType of a CNM (802.1Qau-2010 §33.4).
pub const ETH_CNM: u16 = 0x22E7;
/// Unit of cnmQOffset and cnmQDelta on the wire, in bytes.
pub const CNM_Q_UNIT: i64 = 64;
/// Encapsulated MSDU bytes a CNM carries at most.
pub const CNM_MSDU_MAX: usize = 64;

/// A CNM's payload: tag = [QntzFb, CPID, cnmQOffset, cnmQDelta].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cnm {
    pub qntz_fb: u8,
    /// Congestion point identifier (the index of the CP's port).
    pub cpid: u32,
    /// Queue offset and delta in bytes at the sample (saturated to 32 bits).
    pub qoff: i32,
    pub qdelta: i32,
}

impl Cnm {
    pub fn from_sample(s: &Sample, cpid: u32) -> Self {
        let sat = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        Cnm { qntz_fb: s.qntz_fb, cpid, qoff: sat(s.qoff), qdelta: sat(s.qdelta) }
    }
    /// The CNM frame a CP at `node` sends back to the source of the sampled `data` frame.
    pub fn frame(self, data: &Frame, node: NodeId, size: u32, now: Time) -> Frame {
        let mut f = Frame::new(FrameKind::Feedback, size, node, Dest::Node(data.src), data.flow, now);
        f.proto = Proto::Qcn;
        f.prio = data.prio; // CNMs travel in the sampled frame's priority (802.1Qau cnmPriority)
        f.tag = [self.qntz_fb as u32, self.cpid, self.qoff as u32, self.qdelta as u32];
        f
    }
    pub fn read(f: &Frame) -> Option<Self> {
        (f.proto == Proto::Qcn && f.kind == FrameKind::Feedback)
            .then(|| Cnm { qntz_fb: f.tag[0] as u8, cpid: f.tag[1], qoff: f.tag[2] as i32, qdelta: f.tag[3] as i32 })
    }
}

/// The CNM `f`'s bytes, appended to `b` (`cpid_of` maps the engine's CPID, a port id, to the wire's
/// 8-byte CPID); returns its length on the wire (without FCS). Ethernet (DA = the sampled frame's
/// SA, SA = the CP's MAC), 802.1Q, CN-TAG (the sampled frame's Flow ID, when its source has a
/// reaction point), 0x22E7: Version (4 bits, 0) · ReservedV (6 bits, 0) · QntzFb (6 bits), CPID
/// (8 B), cnmQOffset, cnmQDelta (2 B each, in units of 64 B, saturated), encapsulated priority
/// (2 B), encapsulated DA (6 B), encapsulated MSDU length (2 B), encapsulated MSDU (up to 64 B).
/// A feedback frame that is no CNM gets its Ethernet and 802.1Q header only.
pub fn pcap_cnm(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    if let Some(m) = Cnm::read(f) {
        if let Some(id) = c.rpid {
            be16(b, ETH_CN_TAG);
            be16(b, id);
        }
        be16(b, ETH_CNM);
        be16(b, m.qntz_fb as u16 & 0x3F); // Version 0, ReservedV 0
        be64(b, cpid_of(m.cpid));
        let unit = |v: i32| (v as i64 / CNM_Q_UNIT).clamp(i16::MIN as i64, i16::MAX as i64) as i16 as u16;
        be16(b, unit(m.qoff));
        be16(b, unit(m.qdelta));
        be16(b, f.prio as u16);
        b.extend_from_slice(&c.encap_da);
        be16(b, c.encap_len);
        // The sampled frame's MSDU as cnsim would send it (its first bytes, no sequence).
        let mut msdu = Vec::with_capacity(32);
        sampled_msdu(f, c, &mut msdu);
        msdu.resize(msdu.len().max(CNM_MSDU_MAX.min(c.encap_len as usize)), 0);
        msdu.truncate(CNM_MSDU_MAX.min(c.encap_len as usize));
        b.extend_from_slice(&msdu);
    }
    (f.size as usize).max(b.len() - start)
}

/// The MSDU of the data frame a CNM was sent for, rebuilt from its flow: what follows its 802.1Q tag.
fn sampled_msdu(cnm: &Frame, c: &Ctx, b: &mut Vec<u8>) {
    if let Some(id) = c.rpid {
        be16(b, ETH_CN_TAG);
        be16(b, id);
    }
    if c.segment.is_some() {
        be16(b, ETH_IPV4); // a transport's segment starts at its IPv4 header
    } else {
        be16(b, ETH_CNSIM);
        let mut d = *cnm;
        d.created = 0; // not kept
        data_header(&d, b);
    }
}

/// The probe `f`'s bytes, appended to `b`; returns its length on the wire (without FCS). Ethernet,
/// 802.1Q, the cnsim shim subtype 6: mode (1 B), target CPID (8 B), the worst feedback stamped so
/// far (4 B, 0 when none) and the CPID that stamped it (8 B, all ones when none). The probe is
/// cnsim's (Roeck 2007's probing variants name no frame format).
pub fn pcap_probe(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    eth_vlan(b, c, f.prio);
    if let Some(p) = Probe::read(f) {
        shim(b, SUB_PROBE, 0);
        b.push(p.mode.code() as u8);
        be64(b, cpid_of(p.target));
        let (fb, by) = p.worst.map_or((0, u64::MAX), |(fb, cp)| (fb, cpid_of(cp)));
        be32(b, fb as u32);
        be64(b, by);
    }
    (f.size as usize).max(b.len() - start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cnm_round_trips_through_the_tag_area() {
        let data = Frame::new(FrameKind::Data, 1500, 3, Dest::Group(0), 7, 0);
        let s = Sample { fb: -1.0, qoff: -4_000_000_000, qdelta: 1500, qntz_fb: 12 };
        let c = Cnm::from_sample(&s, 9);
        let f = c.frame(&data, 1, 64, 5);
        assert_eq!((f.dst, f.flow, f.src, f.size), (Dest::Node(3), 7, 1, 64));
        assert_eq!(Cnm::read(&f), Some(Cnm { qntz_fb: 12, cpid: 9, qoff: i32::MIN, qdelta: 1500 }));
        assert_eq!(Cnm::read(&data), None);
    }

    #[test]
    fn cnm_layout_follows_protocols_10() {
        use crate::slots::wire::{cpid, mac};
        let c = Ctx { src: mac(1), dst: mac(2), rpid: Some(7), encap_da: mac(9), encap_len: 1482, mss: 1460, ..Default::default() };
        let data = Frame::new(FrameKind::Data, 1500, 2, Dest::Node(9), 7, 0);
        let cnm = Cnm { qntz_fb: 45, cpid: 3, qoff: 6400, qdelta: -128 }.frame(&data, 1, 64, 0);
        let mut b = vec![];
        let len = pcap_cnm(&cnm, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(&b[0..6], &mac(2)); // DA: the sampled frame's source
        assert_eq!(&b[12..14], &[0x81, 0x00]);
        assert_eq!(&b[16..20], &[0x22, 0xE9, 0, 7]); // CN-TAG, Flow ID 7
        assert_eq!(&b[20..22], &[0x22, 0xE7]);
        assert_eq!(u16::from_be_bytes([b[22], b[23]]) & 0x3F, 45);
        assert_eq!(&b[24..32], &[0x02, 0xC5, 0, 0, 0, 1, 0, 3]); // CPID: switch MAC + port index
        assert_eq!(i16::from_be_bytes([b[32], b[33]]), 100); // 6400 B / 64
        assert_eq!(i16::from_be_bytes([b[34], b[35]]), -2);
        assert_eq!(&b[38..44], &mac(9)); // encapsulated DA
        assert_eq!(u16::from_be_bytes([b[44], b[45]]), 1482);
        assert_eq!(&b[46..48], &[0x22, 0xE9]); // the encapsulated MSDU starts with the sampled frame's CN-TAG
        assert_eq!(b.len(), 46 + 64);
        assert_eq!(len, b.len()); // longer than the 64-B CNM the engine counts
    }

    #[test]
    fn a_probe_in_the_shim_with_and_without_a_stamp() {
        use super::super::probe::ProbeMode;
        use crate::slots::wire::{cpid, mac, SUB_PROBE};
        let c = Ctx { src: mac(1), dst: mac(2), ..Default::default() };
        let mut b = vec![];
        let f = Probe { mode: ProbeMode::SubPath, target: 3, worst: Some((-20, 4)) }.frame(1, Dest::Node(2), 7, 64, 0);
        assert_eq!(pcap_probe(&f, &c, &|p| cpid(1, p), &mut b), 64);
        assert_eq!(&b[16..23], &[0x88, 0xB5, SUB_PROBE, 1, 0, 0, 2]); // shim, mode -SP
        assert_eq!(&b[23..31], &[0x02, 0xC5, 0, 0, 0, 1, 0, 3]); // target
        assert_eq!(&b[31..35], &(-20i32).to_be_bytes());
        assert_eq!(&b[35..43], &[0x02, 0xC5, 0, 0, 0, 1, 0, 4]); // stamped by
        b.clear();
        let f = Probe { mode: ProbeMode::Cp, target: 3, worst: None }.frame(1, Dest::Node(2), 7, 64, 0);
        pcap_probe(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!((&b[31..35], &b[35..43]), (&[0u8; 4][..], &[0xFFu8; 8][..]));
    }
}
