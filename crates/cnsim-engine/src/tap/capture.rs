//! Packet capture: which transmissions to keep (ports, frame kinds), their on-wire bytes up to a
//! snap length, and a bound on the bytes kept. Python writes the file (pcapng, one interface per
//! captured port).

use crate::net::frame::{Frame, FrameKind};
use crate::slots::Proto;

/// Frame kinds, as filter bits (16 bits: room for kinds to come).
pub const DATA: u16 = 1;
pub const CNM: u16 = 2;
pub const BCN: u16 = 4;
pub const PAUSE: u16 = 8;
pub const ACK: u16 = 16;
pub const ECM: u16 = 32;
pub const PROBE: u16 = 64;
/// DCQCN's congestion notification packet (RoCEv2 CNP).
pub const CNP: u16 = 128;

/// Names of the kind bits, in bit order (the CLI's `kind=` filter).
pub const KIND_NAMES: [&str; 8] = ["data", "cnm", "bcn", "pause", "ack", "ecm", "probe", "cnp"];

/// Bytes a pcapng Enhanced Packet Block adds to a packet's data (header, trailer, padding).
pub const PACKET_OVERHEAD: u64 = 36;

#[inline]
pub fn kind_bit(f: &Frame) -> u16 {
    match f.kind {
        FrameKind::Data => DATA,
        FrameKind::Feedback if f.proto == Proto::Bcn => BCN,
        FrameKind::Feedback if f.proto == Proto::Ecm => ECM,
        FrameKind::Feedback if f.proto == Proto::Dcqcn => CNP,
        FrameKind::Feedback => CNM,
        FrameKind::MacControl => PAUSE,
        FrameKind::Ack => ACK,
        FrameKind::PathControl => PROBE,
    }
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
        assert!(c.wants(1, DATA) && !c.wants(0, DATA) && !c.wants(1, CNM));
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

    #[test]
    fn kind_bits_are_distinct_and_named_in_order() {
        use crate::net::frame::Dest;
        let bits = [DATA, CNM, BCN, PAUSE, ACK, ECM, PROBE, CNP];
        assert!(bits.iter().enumerate().all(|(i, &b)| b == 1 << i) && bits.len() == KIND_NAMES.len());
        let data = Frame::new(FrameKind::Data, 1000, 3, Dest::Node(9), 42, 0);
        let cnp = crate::protocols::dcqcn::wire::cnp(&data, 9, 64, 6, 0);
        assert_eq!((kind_bit(&data), kind_bit(&cnp)), (DATA, CNP));
        let c = Capture::new(1, &[0], CNP, 100, 0).unwrap();
        assert!(c.wants(0, CNP) && !c.wants(0, CNM));
    }
}
