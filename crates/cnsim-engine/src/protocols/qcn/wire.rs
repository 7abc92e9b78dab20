//! QCN's fields in the frame header's tag area (docs/protocols.md §10 gives the on-wire CNM layout;
//! pcap export writes that layout from these fields).

use super::cp::Sample;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameKind, NodeId};
use crate::slots::Proto;

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
}
