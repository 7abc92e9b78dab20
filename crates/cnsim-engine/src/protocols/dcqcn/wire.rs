//! DCQCN's congestion notification packet (CNP) as a cnsim frame: a feedback frame from the
//! receiver (NP) to the flow's source (RP), carrying nothing but the flow it is about (RoCEv2's CNP
//! names the queue pair; here the flow id). Zhu et al. 2015 §3.2.

use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameKind, NodeId};
use crate::slots::Proto;

/// The CNP answering data frame `data` at its receiver `node`, `size` bytes in class `prio`.
pub fn cnp(data: &Frame, node: NodeId, size: u32, prio: u8, now: Time) -> Frame {
    let mut f = Frame::new(FrameKind::Feedback, size, node, Dest::Node(data.src), data.flow, now);
    f.proto = Proto::Dcqcn;
    f.prio = prio;
    f
}

/// Is `f` a CNP?
#[inline]
pub fn is_cnp(f: &Frame) -> bool {
    f.kind == FrameKind::Feedback && f.proto == Proto::Dcqcn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cnp_goes_back_to_the_data_frames_source_for_its_flow() {
        let mut data = Frame::new(FrameKind::Data, 1000, 3, Dest::Node(9), 42, 0);
        data.prio = 3;
        let c = cnp(&data, 9, 64, 6, 7);
        assert_eq!((c.src, c.dst, c.flow, c.size, c.prio, c.created), (9, Dest::Node(3), 42, 64, 6, 7));
        assert!(is_cnp(&c) && !is_cnp(&data));
    }
}
