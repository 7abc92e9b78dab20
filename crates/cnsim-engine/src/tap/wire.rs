//! On-wire bytes of cnsim's frames, for pcap export (docs/protocols.md §10). Built only when a capture
//! is on, from the frame header and the protocol's own typed view of its tag area.
//!
//! | frame | layout |
//! |---|---|
//! | data | Ethernet, 802.1Q tag (PCP = priority, VID 1), CN-TAG 0x22E9 (Flow ID = RPID, when the flow has a QCN/E-QCN reaction point), the cnsim shim 0x88B5 for E-QCN's (F̂b, CPID) or BCN's rate-regulator tag, then either IPv4 + TCP (TCP flows) or the cnsim data header 0x88B5 |
//! | CNM | Ethernet (DA = the sampled frame's SA, SA = the CP's MAC), 802.1Q, CN-TAG (the sampled frame's Flow ID), 0x22E7: Version (4 bits) · ReservedV (6 bits) · QntzFb (6 bits), CPID (8 B), cnmQOffset, cnmQDelta (2 B each, in units of 64 B), encapsulated priority (2 B), encapsulated DA (6 B), encapsulated MSDU length (2 B), encapsulated MSDU (up to 64 B) |
//! | PAUSE / PFC | DA 01-80-C2-00-00-01, 0x8808, opcode 0x0001 + pause time, or 0x0101 + class-enable vector + 8 times (802.3 Annex 31B, 802.1Qbb) |
//! | BCN message | Ethernet, 802.1Q, cnsim shim 0x88B5 subtype 4: CPID, e (f32), C (kb/s), STOP flag |
//! | TCP ACK | Ethernet, 802.1Q, IPv4, TCP with ACK and SACK blocks |
//! | DCQCN CNP | RoCEv2: Ethernet, 802.1Q, IPv4, UDP to port 4791, InfiniBand BTH (opcode 0x81, destination QP = the flow), 16 reserved bytes, ICRC (written by `protocols/dcqcn/wire.rs`) |
//!
//! 0x88B5 is IEEE 802's Local Experimental EtherType 1: cnsim's shim is `subtype (1 B), version
//! (1 B), next EtherType (2 B)`, then the subtype's fields (all big-endian); a decoder follows
//! `next` (0 = nothing follows). The Lua dissector `python/cnsim/wireshark/cnsim.lua` decodes it,
//! CN-TAG and CNM. Addresses: node n has MAC 02:C5:nn:nn:nn:nn (locally administered) and IPv4
//! 10.x.y.z = 10.0.0.0 + n + 1; group g has MAC 03:C5:gg:gg:gg:gg. The CPID is the CP switch's MAC
//! followed by the port's index at that switch (docs/protocols.md §2: "switch MAC + port/queue index").
//! Payload bytes are zeros; the FCS is not written. Where the CNM needs the sampled frame (its DA,
//! its MSDU) cnsim rebuilds it from the flow: the sampled frame's creation time is not kept (0).

use crate::net::frame::{Frame, FrameKind};
use crate::slots::Proto;
use crate::protocols::{bcn, dcqcn, ecm, eqcn, pause::PauseMsg, qcn::{Cnm, Probe}, tcp};

pub const ETH_VLAN: u16 = 0x8100;
pub const ETH_CN_TAG: u16 = 0x22E9;
pub const ETH_CNM: u16 = 0x22E7;
pub const ETH_MAC_CONTROL: u16 = 0x8808;
pub const ETH_IPV4: u16 = 0x0800;
/// IEEE 802 Local Experimental EtherType 1: cnsim's own shim.
pub const ETH_CNSIM: u16 = 0x88B5;
/// IP protocol numbers.
pub const IP_TCP: u8 = 6;
pub const IP_UDP: u8 = 17;
pub const PAUSE_DA: [u8; 6] = [0x01, 0x80, 0xC2, 0x00, 0x00, 0x01];

/// Subtypes of the cnsim shim.
pub const SUB_DATA: u8 = 1;
pub const SUB_EQCN: u8 = 2;
pub const SUB_BCN_RRT: u8 = 3;
pub const SUB_BCN: u8 = 4;
pub const SUB_ECM: u8 = 5;
pub const SUB_PROBE: u8 = 6;
const SHIM_VERSION: u8 = 1;

/// TCP port of a flow's receiver; the source uses 49152 + flow mod 16384.
pub const TCP_SINK_PORT: u16 = 5001;
/// Unit of cnmQOffset and cnmQDelta on the wire, in bytes.
pub const CNM_Q_UNIT: i64 = 64;
/// Encapsulated MSDU bytes a CNM carries at most.
pub const CNM_MSDU_MAX: usize = 64;

pub fn mac(node: u32) -> [u8; 6] {
    let b = node.to_be_bytes();
    [0x02, 0xC5, b[0], b[1], b[2], b[3]]
}

pub fn group_mac(group: u32) -> [u8; 6] {
    let b = group.to_be_bytes();
    [0x03, 0xC5, b[0], b[1], b[2], b[3]]
}

pub fn ipv4(node: u32) -> u32 {
    0x0A00_0000u32.wrapping_add(node).wrapping_add(1)
}

/// The 8-byte CPID of the CP at the port `index` (its position among the switch's ports) of `node`.
pub fn cpid(node: u32, index: u32) -> u64 {
    let m = mac(node);
    let mut b = [0u8; 8];
    b[..6].copy_from_slice(&m);
    b[6..].copy_from_slice(&(index.min(u16::MAX as u32) as u16).to_be_bytes());
    u64::from_be_bytes(b)
}

/// What the frame header does not say, looked up by the engine for one frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ctx {
    pub src: [u8; 6],
    pub dst: [u8; 6],
    /// IPv4 addresses (TCP frames).
    pub ip_src: u32,
    pub ip_dst: u32,
    /// CN-TAG Flow ID, when the flow's source has a QCN/E-QCN reaction point.
    pub rpid: Option<u16>,
    /// TCP: bytes per segment (sequence numbers are segment indices in the engine).
    pub mss: u32,
    /// A TCP flow (its data frames carry IPv4 + TCP).
    pub tcp: bool,
    /// CNM: the sampled frame's DA, its MSDU length and its first MSDU bytes.
    pub encap_da: [u8; 6],
    pub encap_len: u16,
}

pub(crate) fn be16(b: &mut Vec<u8>, v: u16) {
    b.extend_from_slice(&v.to_be_bytes());
}
pub(crate) fn be32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_be_bytes());
}
fn be64(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(&v.to_be_bytes());
}

fn shim(b: &mut Vec<u8>, sub: u8, next: u16) {
    be16(b, ETH_CNSIM);
    b.push(sub);
    b.push(SHIM_VERSION);
    be16(b, next);
}

pub(crate) fn eth_vlan(b: &mut Vec<u8>, c: &Ctx, prio: u8) {
    b.extend_from_slice(&c.dst);
    b.extend_from_slice(&c.src);
    be16(b, ETH_VLAN);
    be16(b, ((prio as u16 & 7) << 13) | 1);
}

/// The bytes of frame `f` up to its payload, appended to `b` (`cpid_of` maps the engine's CPID,
/// a port id, to the wire's 8-byte CPID); returns the frame's length on the
/// wire (header plus zero payload, without FCS).
pub fn build(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize {
    let start = b.len();
    let total = match f.kind {
        FrameKind::MacControl => {
            let Some(m) = PauseMsg::read(f) else { return 0 };
            b.extend_from_slice(&PAUSE_DA);
            b.extend_from_slice(&c.src);
            be16(b, ETH_MAC_CONTROL);
            if m.mask == 0xFF {
                be16(b, 0x0001);
                be16(b, m.quanta);
            } else {
                be16(b, 0x0101);
                be16(b, m.mask as u16);
                for p in 0..8 {
                    be16(b, if m.mask & (1 << p) != 0 { m.quanta } else { 0 });
                }
            }
            f.size as usize
        }
        FrameKind::Feedback if dcqcn::wire::is_cnp(f) => dcqcn::wire::pcap(f, c, b),
        FrameKind::Feedback => {
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
            } else if let Some(m) = bcn::Message::read(f) {
                shim(b, SUB_BCN, 0);
                be64(b, cpid_of(m.cpid));
                be32(b, m.e.to_bits());
                be32(b, (m.capacity_bps / 1000).min(u32::MAX as u64) as u32);
                b.push(m.stop as u8);
            } else if let Some(m) = ecm::Message::read(f) {
                shim(b, SUB_ECM, 0);
                be64(b, cpid_of(m.cpid));
                be32(b, m.fb.to_bits());
                be64(b, m.echo.unwrap_or(u64::MAX));
            }
            f.size as usize
        }
        FrameKind::Probe => {
            eth_vlan(b, c, f.prio);
            if let Some(p) = Probe::read(f) {
                shim(b, SUB_PROBE, 0);
                b.push(p.mode.code() as u8);
                be64(b, cpid_of(p.target));
                let (fb, by) = p.worst.map_or((0, u64::MAX), |(fb, cp)| (fb, cpid_of(cp)));
                be32(b, fb as u32);
                be64(b, by);
            }
            f.size as usize
        }
        FrameKind::Data => {
            eth_vlan(b, c, f.prio);
            let next = if c.tcp { ETH_IPV4 } else { ETH_CNSIM };
            tags(f, c, cpid_of, next, b);
            if c.tcp {
                let payload = f.size.saturating_sub(tcp::HEADER_BYTES);
                let cwr = if f.ecn & tcp::CWR != 0 { 0x80 } else { 0 };
                ip_tcp(b, c, f, payload, f.seq.wrapping_mul(c.mss), 0x18 | cwr, &[]);
                b.len() - start + payload as usize
            } else {
                data_header(f, b);
                f.size as usize
            }
        }
        FrameKind::Ack => {
            eth_vlan(b, c, f.prio);
            let a = tcp::Ack::read(f).unwrap_or_default();
            let blocks: Vec<(u32, u32)> = a.blocks().map(|(s, e)| (s.wrapping_mul(c.mss), e.wrapping_mul(c.mss))).collect();
            ip_tcp(b, c, f, 0, 0, if a.ece { 0x50 } else { 0x10 }, &blocks);
            let _ = a;
            b.len() - start
        }
    };
    total.max(b.len() - start)
}

/// The rate-regulation tags of a data frame (CN-TAG, E-QCN's F̂b, BCN's RRT), then `next`.
fn tags(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, next: u16, b: &mut Vec<u8>) {
    let tag = match f.proto {
        Proto::Eqcn => eqcn::read_tag(f).map(|(fb_hat, cpid)| (SUB_EQCN, Some(fb_hat), cpid)),
        Proto::Bcn => bcn::rrt(f).map(|cpid| (SUB_BCN_RRT, None, cpid)),
        _ => None,
    };
    if let Some(id) = c.rpid {
        be16(b, ETH_CN_TAG);
        be16(b, id);
    }
    match tag {
        Some((sub, fb_hat, cpid)) => {
            shim(b, sub, next);
            if let Some(v) = fb_hat {
                b.push(v);
            }
            be64(b, cpid_of(cpid));
        }
        None => be16(b, next),
    }
}

/// The cnsim data header (after EtherType 0x88B5): subtype, version, next = 0, flow, and the
/// frame's creation time at its source in ps (for one-way delays).
fn data_header(f: &Frame, b: &mut Vec<u8>) {
    b.push(SUB_DATA);
    b.push(SHIM_VERSION);
    be16(b, 0);
    be32(b, f.flow);
    be64(b, f.created);
}

/// The MSDU of the data frame a CNM was sent for, rebuilt from its flow: what follows its 802.1Q tag.
fn sampled_msdu(cnm: &Frame, c: &Ctx, b: &mut Vec<u8>) {
    if let Some(id) = c.rpid {
        be16(b, ETH_CN_TAG);
        be16(b, id);
    }
    if c.tcp {
        be16(b, ETH_IPV4);
    } else {
        be16(b, ETH_CNSIM);
        let mut d = *cnm;
        d.created = 0; // not kept
        data_header(&d, b);
    }
}

/// IPv4 (20 B, checksum set) and TCP (20 B + SACK option) headers, with `payload` bytes following.
fn ip_tcp(b: &mut Vec<u8>, c: &Ctx, f: &Frame, payload: u32, seq: u32, flags: u8, sack: &[(u32, u32)]) {
    let opt_len = if sack.is_empty() { 0 } else { 4 + 8 * sack.len() };
    let tcp_len = 20 + opt_len;
    ipv4_header(b, c, f, IP_TCP, tcp_len as u32 + payload);
    let sport = 49152 + (f.flow % 16384) as u16;
    let (sp, dp) = if f.kind == FrameKind::Ack { (TCP_SINK_PORT, sport) } else { (sport, TCP_SINK_PORT) };
    be16(b, sp);
    be16(b, dp);
    be32(b, seq);
    be32(b, f.ack.wrapping_mul(c.mss));
    b.push(((tcp_len / 4) as u8) << 4);
    b.push(flags);
    be16(b, 0xFFFF); // window
    be16(b, 0); // checksum (not computed)
    be16(b, 0);
    if !sack.is_empty() {
        b.extend_from_slice(&[1, 1, 5, (2 + 8 * sack.len()) as u8]);
        for &(s, e) in sack {
            be32(b, s);
            be32(b, e);
        }
    }
}

/// An IPv4 header (20 B, no options, don't fragment, checksum set) from `c`'s addresses, carrying
/// `proto` and `payload` bytes after it; its ECN field is the frame's (`Frame::ecn`, low 2 bits).
pub(crate) fn ipv4_header(b: &mut Vec<u8>, c: &Ctx, f: &Frame, proto: u8, payload: u32) {
    let ip_start = b.len();
    b.push(0x45);
    b.push(f.ecn & 3);
    be16(b, (20 + payload).min(u16::MAX as u32) as u16);
    be16(b, 0); // identification
    be16(b, 0x4000); // don't fragment
    b.push(f.ttl);
    b.push(proto);
    be16(b, 0);
    be32(b, c.ip_src);
    be32(b, c.ip_dst);
    let sum = checksum(&b[ip_start..]);
    b[ip_start + 10..ip_start + 12].copy_from_slice(&sum.to_be_bytes());
}

pub(crate) fn checksum(h: &[u8]) -> u16 {
    let mut s: u32 = h.chunks(2).map(|w| u16::from_be_bytes([w[0], *w.get(1).unwrap_or(&0)]) as u32).sum();
    while s > 0xFFFF {
        s = (s & 0xFFFF) + (s >> 16);
    }
    !(s as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::frame::{Dest, NONE};
    use crate::protocols::pause::PauseCfg;
    use crate::protocols::pause::Trigger;

    fn ctx() -> Ctx {
        Ctx { src: mac(1), dst: mac(2), rpid: Some(7), encap_da: mac(9), encap_len: 1482, mss: 1460, ..Default::default() }
    }

    #[test]
    fn cnm_layout_follows_protocols_10() {
        let data = Frame::new(FrameKind::Data, 1500, 2, Dest::Node(9), 7, 0);
        let cnm = Cnm { qntz_fb: 45, cpid: 3, qoff: 6400, qdelta: -128 }.frame(&data, 1, 64, 0);
        let mut b = vec![];
        let len = build(&cnm, &ctx(), &|p| cpid(1, p), &mut b);
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
        assert_eq!(b.len(), 46 + 64);
        assert_eq!(len, b.len()); // longer than the 64-B CNM the engine counts
    }

    #[test]
    fn pause_and_pfc_layouts() {
        let cfg = PauseCfg { pfc: false, trigger: Trigger::Ingress, xoff: 1, xon: 0, quanta: 0xFFFF, refresh: None, classes: 0xFF, frame_size: 64 };
        let mut b = vec![];
        let f = PauseMsg { mask: 0xFF, quanta: 300 }.frame(&cfg, 1, 0);
        assert_eq!(build(&f, &ctx(), &|p| cpid(1, p), &mut b), 64);
        assert_eq!(&b[..6], &PAUSE_DA);
        assert_eq!(&b[12..18], &[0x88, 0x08, 0x00, 0x01, 0x01, 0x2C]);
        b.clear();
        let f = PauseMsg { mask: 0b1000_0010, quanta: 5 }.frame(&cfg, 1, 0);
        build(&f, &ctx(), &|p| cpid(1, p), &mut b);
        assert_eq!(&b[12..18], &[0x88, 0x08, 0x01, 0x01, 0x00, 0x82]);
        assert_eq!(&b[18..22], &[0, 0, 0, 5]); // class 0: 0, class 1: 5
        assert_eq!(&b[32..34], &[0, 5]); // class 7
        assert_eq!(f.dst, Dest::Node(NONE));
    }

    #[test]
    fn tcp_segment_has_a_valid_ip_header() {
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        f.seq = 2;
        let c = Ctx { rpid: None, tcp: true, ip_src: ipv4(1), ip_dst: ipv4(2), ..ctx() };
        let mut b = vec![];
        let len = build(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(&b[16..18], &[0x08, 0x00]);
        assert_eq!(checksum(&b[18..38]), 0);
        assert_eq!(u32::from_be_bytes([b[42], b[43], b[44], b[45]]), 2 * 1460);
        assert_eq!(len, 18 + 1500);
    }

    #[test]
    fn tcp_ecn_bits_and_flags() {
        let c = Ctx { rpid: None, tcp: true, ip_src: ipv4(1), ip_dst: ipv4(2), ..ctx() };
        let mut f = Frame::new(FrameKind::Data, 1500, 1, Dest::Node(2), 3, 0);
        f.ecn = crate::net::frame::ECN_CE | tcp::CWR;
        let mut b = vec![];
        build(&f, &c, &|p| cpid(1, p), &mut b);
        assert_eq!(b[19], 0b11); // IP ECN field: CE, nothing above it
        assert_eq!(b[18 + 20 + 13], 0x98); // CWR + ACK + PSH
        let mut a = Frame::new(FrameKind::Ack, 64, 2, Dest::Node(1), 3, 0);
        tcp::Ack { ack: 5, sack: [(0, 0); 2], ece: true }.write(&mut a);
        let mut b = vec![];
        build(&a, &c, &|p| cpid(1, p), &mut b);
        // The ACK's IP header follows the VLAN tag at byte 16 (no EtherType is written before it).
        assert_eq!((b[16], b[17], b[16 + 20 + 13]), (0x45, 0, 0x50)); // Not-ECT; ECE + ACK
    }
}
