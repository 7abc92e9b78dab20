//! Packet capture: which transmissions to keep (ports, frame kinds), their on-wire bytes up to a
//! snap length, and a bound on the bytes kept. Python writes the file (pcapng, one interface per
//! captured port). The frame kinds are the engine's own (data) and those each protocol registers
//! (`slots::register::CaptureKind`), collected from the registry.

use crate::net::frame::{Frame, FrameKind};
use crate::registry::PROTOCOLS;
use crate::slots::register::CaptureKind;

/// Data frames' kind bit (the engine's own kind; the protocols' are in their registrations).
pub const DATA: u16 = 1;

/// The engine's own frame kinds: data (its bytes are written by `wire::build`).
const ENGINE: &[CaptureKind] = &[CaptureKind { name: "data", bit: 0, kind: FrameKind::Data, owners: &[], pcap: None }];

/// Every frame kind declaration: the engine's, then the protocols' in the registry's order.
pub fn declarations() -> impl Iterator<Item = &'static CaptureKind> {
    ENGINE.iter().chain(PROTOCOLS.iter().flat_map(|p| p.frames))
}

/// The declaration frame `f` falls under: the first whose owners include its tag-area owner,
/// else the first of its kind that lists no owner.
pub fn declaration(f: &Frame) -> Option<&'static CaptureKind> {
    declarations()
        .find(|d| d.kind == f.kind && d.owners.contains(&f.proto))
        .or_else(|| declarations().find(|d| d.kind == f.kind && d.owners.is_empty()))
}

/// Names of the kind bits, in bit order (the CLI's `kind=` filter; bit i is `1 << i`).
pub fn kind_names() -> Vec<&'static str> {
    let mut names = vec![""; declarations().map(|d| d.bit as usize + 1).max().unwrap_or(0)];
    for d in declarations() {
        names[d.bit as usize] = d.name;
    }
    names
}

/// Bytes a pcapng Enhanced Packet Block adds to a packet's data (header, trailer, padding).
pub const PACKET_OVERHEAD: u64 = 36;

/// Frame `f`'s kind bit (0: no declared kind; such a frame is never captured).
#[inline]
pub fn kind_bit(f: &Frame) -> u16 {
    declaration(f).map_or(0, |d| 1 << d.bit)
}

pub struct Capture {
    /// Captured ports (by port id) and kinds.
    ports: Vec<bool>,
    kinds: u16,
    pub snaplen: u32,
    /// Captured data plus per-packet overhead may not exceed this (0 = no bound).
    pub max_bytes: u64,
    used: u64,
    /// The bound was reached: nothing after `bound_at` was captured.
    pub bound_at: Option<u64>,
    /// Transmissions the filter selected after the bound was reached.
    pub missed: u64,
    pub t: Vec<u64>,
    pub port: Vec<u32>,
    pub orig_len: Vec<u32>,
    /// Packet i's bytes are data[start[i]..start[i+1]] (start has one more entry).
    pub start: Vec<u64>,
    pub data: Vec<u8>,
}

impl Capture {
    pub fn new(n_ports: usize, ports: &[u32], kinds: u16, snaplen: u32, max_bytes: u64) -> Result<Self, String> {
        let mut sel = vec![false; n_ports];
        for &p in ports {
            *sel.get_mut(p as usize).ok_or_else(|| format!("capture: no port {p} (the network has {n_ports})"))? = true;
        }
        if snaplen < 14 {
            return Err(format!("capture: snap length {snaplen} B is shorter than an Ethernet header (14 B)"));
        }
        Ok(Capture { ports: sel, kinds, snaplen, max_bytes, used: 0, bound_at: None, missed: 0, t: vec![], port: vec![], orig_len: vec![], start: vec![0], data: vec![] })
    }

    /// Is a transmission of a frame of kind `bit` on `port` captured?
    #[inline]
    pub fn wants(&self, port: u32, bit: u16) -> bool {
        self.kinds & bit != 0 && self.ports[port as usize]
    }

    /// Keep a packet whose bytes were appended to `data` from `from` on (`orig_len` on the wire).
    /// Past the bound the bytes are taken back and the capture stops.
    pub fn commit(&mut self, t: u64, port: u32, from: usize, orig_len: usize) {
        let kept = (self.data.len() - from).min(self.snaplen as usize);
        self.data.truncate(from + kept);
        let cost = kept as u64 + PACKET_OVERHEAD;
        if self.bound_at.is_some() || (self.max_bytes > 0 && self.used + cost > self.max_bytes) {
            self.data.truncate(from);
            self.bound_at.get_or_insert(t);
            self.missed += 1;
            return;
        }
        self.used += cost;
        self.t.push(t);
        self.port.push(port);
        self.orig_len.push(orig_len.min(u32::MAX as usize) as u32);
        self.start.push(self.data.len() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_stops_the_capture_cleanly() {
        let mut c = Capture::new(2, &[1], DATA, 100, 2 * (50 + PACKET_OVERHEAD)).unwrap();
        assert!(c.wants(1, DATA) && !c.wants(0, DATA) && !c.wants(1, bit("cnm")));
        for i in 0..4u64 {
            let from = c.data.len();
            c.data.extend_from_slice(&[7u8; 150]);
            c.commit(i, 1, from, 1500);
        }
        // 100 B kept per packet (snap length): only the first packet fits, then the capture stops.
        assert_eq!((c.t.len(), c.data.len(), c.bound_at, c.missed), (1, 100, Some(1), 3));
        assert_eq!(c.start, vec![0, 100]);
        assert!(Capture::new(2, &[2], DATA, 100, 0).is_err());
    }

    fn bit(name: &str) -> u16 {
        1 << kind_names().iter().position(|&n| n == name).unwrap()
    }

    #[test]
    fn kind_bits_keep_their_names_and_every_bit_is_named() {
        // Stored traces record a drop's frame kind by bit: these never move.
        let names = ["data", "cnm", "bcn", "pause", "ack", "ecm", "probe", "cnp"];
        assert_eq!(kind_names(), names);
        assert!(kind_names().len() <= 16);
        for d in declarations() {
            let same_bit: Vec<_> = declarations().filter(|e| e.bit == d.bit).collect();
            assert!(same_bit.iter().all(|e| e.name == d.name), "bit {} has two names", d.bit);
            let same_owner = declarations().filter(|e| e.kind == d.kind && (e.owners.iter().any(|o| d.owners.contains(o)) || e.owners.is_empty() && d.owners.is_empty()));
            assert_eq!(same_owner.count(), 1, "{}: claimed twice", d.name);
        }
    }

    #[test]
    fn frames_fall_under_their_protocols_kinds() {
        use crate::net::frame::{Dest, Proto};
        let data = Frame::new(FrameKind::Data, 1000, 3, Dest::Node(9), 42, 0);
        let cnp = crate::protocols::dcqcn::wire::cnp(&data, 9, 64, 6, 0);
        let cnm = crate::protocols::qcn::Cnm::default().frame(&data, 9, 64, 0);
        let mut answer = cnm;
        answer.proto = Proto::QcnProbe;
        let mut ack = data;
        ack.kind = FrameKind::Ack;
        assert_eq!((kind_bit(&data), kind_bit(&cnp), kind_bit(&cnm), kind_bit(&answer)), (DATA, bit("cnp"), bit("cnm"), bit("cnm")));
        assert_eq!(kind_bit(&ack), bit("ack"));
        let c = Capture::new(1, &[0], bit("cnp"), 100, 0).unwrap();
        assert!(c.wants(0, bit("cnp")) && !c.wants(0, bit("cnm")));
    }
}
