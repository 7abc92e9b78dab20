//! Flow-completion time of finite transfers and the ideal it is compared with (docs/scenarios.md,
//! workloads). FCT = completion − start: the last byte at the receiver (open loop) or its ACK at the
//! source (TCP). The ideal FCT is what the flow would take alone on the network, computed from the
//! route the engine built (Python never recomputes routes):
//!
//! with hops i = 1..h on the path (the source's link first), wire times `full_i` of a full frame
//! and `last_i` of the last one (frame plus link overhead at the link's rate), propagation delays
//! `d_i`, and frames made `gap` apart at the source (0 for TCP: its window is the only limit), the
//! last of n frames arrives (store and forward, every hop a deterministic server) at
//!
//! ```text
//! L_0 = (n − 1)·gap;  L_i = max(L_{i−1}, S_i + (n − 2)·M_i) + last_i + d_i     (n ≥ 2; n = 1: L_{i−1} + last_i + d_i)
//! S_i = Σ_{j≤i} full_j + Σ_{j<i} d_j,   M_i = max(gap, max_{j≤i} full_j)
//! ```
//!
//! (the frame before the last leaves hop i at S_i + (n − 2)·M_i). With every frame full this is
//! Σ_i (full_i + d_i) + (n − 1)·max(gap, max_i full_i): the propagation delays, the size serialized
//! at the slowest link (or the source's rate, when slower), and one frame's store-and-forward at
//! every other hop. A TCP transfer adds its last ACK's way back: Σ over the reverse path of the
//! ACK frame's wire time and the delay. Slow start, delayed ACKs and losses are what a TCP flow
//! loses against this ideal.

use crate::core::time::Time;
use crate::net::frame::{Dest, NONE};
use crate::sim::Sim;
use crate::traffic::TrafficGen;

/// One hop: wire times of a full and of the last frame, and the propagation delay.
#[derive(Clone, Copy, Debug)]
pub struct Hop {
    pub full: Time,
    pub last: Time,
    pub delay: Time,
}

/// When the last of `n` ≥ 1 frames, made `gap` apart, arrives at the end of `hops` (module doc).
pub fn ideal(hops: &[Hop], n: u64, gap: Time) -> Time {
    let n = n.max(1);
    let (mut s, mut m) = (0 as Time, gap);
    let mut last = (n - 1).saturating_mul(gap);
    for h in hops {
        s = s.saturating_add(h.full);
        m = m.max(h.full);
        if n >= 2 {
            last = last.max(s.saturating_add((n - 2).saturating_mul(m)));
        }
        last = last.saturating_add(h.last).saturating_add(h.delay);
        s = s.saturating_add(h.delay);
    }
    last
}

impl Sim {
    /// The ports from `src` to `dst` on flow `f`'s route (None: no route).
    fn path(&self, src: u32, dst: u32, f: u32) -> Option<Vec<u32>> {
        let (mut node, mut out) = (src, vec![]);
        while node != dst {
            let p = self.routes.next_port(node as usize, dst as usize, f);
            if p == NONE || out.len() > self.nodes.len() {
                return None;
            }
            out.push(p);
            node = self.ports[p as usize].peer_node;
        }
        Some(out)
    }

    /// Flow `f`'s ideal FCT, for a unicast transfer with a route.
    pub fn ideal_fct(&self, f: u32) -> Option<Time> {
        let fl = &self.flows[f as usize];
        let Dest::Node(dst) = fl.dst else { return None };
        if fl.size_bytes == 0 {
            return None;
        }
        let snd = &self.senders[fl.sender as usize];
        let path = self.path(fl.src, dst, f)?;
        let hops = |full: u32, last: u32| -> Vec<Hop> {
            path.iter().map(|&p| {
                let port = &self.ports[p as usize];
                Hop { full: port.wire_time(full), last: port.wire_time(last), delay: port.delay }
            }).collect()
        };
        match &fl.transport {
            None => {
                let gap = match snd.gen { TrafficGen::Cbr { gap } => gap, _ => 0 };
                let n = fl.size_bytes.div_ceil(snd.frame as u64);
                Some(ideal(&hops(snd.frame, snd.frame), n, gap))
            }
            Some(t) => {
                let (payload, head) = t.segment_bytes();
                let mss = payload as u64;
                let n = fl.size_bytes.div_ceil(mss);
                let tail = (fl.size_bytes - (n - 1) * mss) as u32;
                let data = ideal(&hops(payload + head, tail + head), n, 0);
                let back = self.path(dst, fl.src, f)?;
                let ack: Time = back.iter().map(|&p| self.ports[p as usize].wire_time(t.ack_bytes()) + self.ports[p as usize].delay).sum();
                Some(data + ack)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_frame_is_the_sum_of_its_hops() {
        // 1 frame: (12 + 1) + (1.2 + 1) us over a 1 Gb/s then a 10 Gb/s hop (1500 B: 12 us, 1.2 us).
        let h = [Hop { full: 12_000_000, last: 12_000_000, delay: 1_000_000 }, Hop { full: 1_200_000, last: 1_200_000, delay: 1_000_000 }];
        assert_eq!(ideal(&h, 1, 12_000_000), 15_200_000);
    }

    #[test]
    fn full_frames_pay_the_bottleneck() {
        // 10 frames, 10 Gb/s then 1 Gb/s (1.2 us, 12 us per frame), gap 1.2 us, delays 1 us each:
        // Σ(full + d) + 9 · max(gap, 12 us) = 1.2 + 1 + 12 + 1 + 108 = 123.2 us.
        let h = [Hop { full: 1_200_000, last: 1_200_000, delay: 1_000_000 }, Hop { full: 12_000_000, last: 12_000_000, delay: 1_000_000 }];
        assert_eq!(ideal(&h, 10, 1_200_000), 123_200_000);
        // Paced slower than the bottleneck (gap 20 us): 1.2 + 1 + 12 + 1 + 9 · 20 = 195.2 us.
        assert_eq!(ideal(&h, 10, 20_000_000), 195_200_000);
    }

    #[test]
    fn a_short_last_frame() {
        // 2 frames back to back (gap 0) over one 1 Gb/s hop, the second 500 B (4 us), delay 1 us:
        // the first is done at 12 us, the second at 16 us, arrives at 17 us.
        let h = [Hop { full: 12_000_000, last: 4_000_000, delay: 1_000_000 }];
        assert_eq!(ideal(&h, 2, 0), 17_000_000);
        // Two hops at 1 Gb/s: frame 1 leaves hop 2 at 12 + 1 + 12 = 25 us; the last reaches hop 2
        // at 16 + 1 = 17 us, waits for it, is done at 29 us, arrives at 30 us.
        let h2 = [h[0], h[0]];
        assert_eq!(ideal(&h2, 2, 0), 30_000_000);
    }
}
