//! In-band network telemetry (INT): each forwarding node's output port, as it starts sending a
//! frame that asks for telemetry, pushes one record of its link's state into the frame — the
//! time, the bytes the port has sent so far, the bytes left in its output queue and its link rate
//! (the per-hop metadata of the P4 INT specification's "INT-MD" mode: hop latency aside, the
//! egress timestamp, egress port tx count and queue occupancy; Li et al., SIGCOMM 2019 §3.1 use
//! the same four fields). The receiver of a data frame echoes its records in the acknowledgement
//! it sends, and the source reads them there.
//!
//! The frame header is fixed-size (`frame.rs`), so the records are kept in a side table indexed
//! by frame id: one [`Stack`] per arena slot, allocated only in runs where a registered protocol
//! asks for telemetry (`slots::register::Protocol::telemetry`). A stack holds at most
//! [`MAX_HOPS`] records: a frame crossing more forwarding ports keeps the first `MAX_HOPS` and
//! counts the others in [`Stack::missed`], so a reader can tell a truncated path from a short one.
//! Nothing here names a protocol: which flows collect is decided at build time.

use super::frame::{FlowId, FrameId};
use crate::core::time::Time;

/// Records a frame carries at most: five, as the HPCC artifact's INT header (`IntHeader::maxHop`
/// in alibaba-edu/High-Precision-Congestion-Control), enough for the longest path of a three-tier
/// fat tree (ToR, aggregation, core, aggregation, ToR egress ports).
pub const MAX_HOPS: usize = 5;

/// One forwarding port's state as it started sending the frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hop {
    /// When the port started sending the frame.
    pub ts: Time,
    /// Bytes the port had sent before this frame, on the wire (frame size plus the link's
    /// per-frame overhead), since the start of the run.
    pub tx_bytes: u64,
    /// Bytes waiting in the port's output queue (all classes) behind the frame.
    pub qlen: u64,
    /// The link's rate, b/s.
    pub rate_bps: u64,
}

/// The records one frame carries, in path order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stack {
    hops: [Hop; MAX_HOPS],
    n: u8,
    /// Forwarding ports the frame crossed after the stack was full (not recorded).
    pub missed: u8,
}

impl Stack {
    /// The recorded hops, first hop first.
    #[inline]
    pub fn hops(&self) -> &[Hop] {
        &self.hops[..self.n as usize]
    }

    /// Push one record; a full stack counts it in `missed` instead.
    #[inline]
    pub fn push(&mut self, h: Hop) {
        match self.hops.get_mut(self.n as usize) {
            Some(slot) => {
                *slot = h;
                self.n += 1;
            }
            None => self.missed = self.missed.saturating_add(1),
        }
    }
}

/// The run's telemetry: which flows' frames collect, each frame slot's stack, each receiver's
/// last received stack (echoed in its next acknowledgement), and each port's sent bytes.
#[derive(Clone, Debug, Default)]
pub struct Telemetry {
    /// Flows whose data frames and acknowledgements carry a stack.
    collects: Vec<bool>,
    /// Ports that push a record (the output ports of forwarding nodes).
    pushes: Vec<bool>,
    /// Bytes each port has sent, on the wire.
    tx_bytes: Vec<u64>,
    /// By frame id (grown to the arena's footprint as frames are sent).
    stacks: Vec<Stack>,
    /// By flow: the stack of the data frame its receiver got last.
    echo: Vec<Stack>,
}

impl Telemetry {
    /// Telemetry for the flows of `collects` (by flow id) over the ports of `pushes` (by port id).
    pub fn new(collects: Vec<bool>, pushes: Vec<bool>) -> Self {
        let (flows, ports) = (collects.len(), pushes.len());
        Telemetry { collects, pushes, tx_bytes: vec![0; ports], stacks: Vec::new(), echo: vec![Stack::default(); flows] }
    }

    /// Whether flow `f`'s frames carry a stack.
    #[inline]
    pub fn collects(&self, f: FlowId) -> bool {
        self.collects.get(f as usize).copied().unwrap_or(false)
    }

    /// Frame `id` of flow `f` leaves its source: its stack starts empty (when the flow collects).
    pub fn start(&mut self, id: FrameId, f: FlowId) {
        if self.collects(f) {
            *self.slot(id) = Stack::default();
        }
    }

    /// Port `port` starts sending frame `id` of flow `f` (`collect`: a frame kind that collects,
    /// data or acknowledgement) of `wire_bytes` on the wire, with `qlen` bytes left in its queue.
    #[inline]
    pub fn on_tx(&mut self, port: u32, id: FrameId, f: FlowId, collect: bool, wire_bytes: u64, qlen: u64, rate_bps: u64, now: Time) {
        let p = port as usize;
        let before = self.tx_bytes[p];
        self.tx_bytes[p] = before.saturating_add(wire_bytes);
        if collect && self.pushes[p] && self.collects(f) {
            self.slot(id).push(Hop { ts: now, tx_bytes: before, qlen, rate_bps });
        }
    }

    /// The receiver of flow `f` got data frame `id`: its stack is the one the next
    /// acknowledgement echoes.
    pub fn on_data(&mut self, id: FrameId, f: FlowId) {
        if self.collects(f) {
            self.echo[f as usize] = self.stack(id);
        }
    }

    /// Acknowledgement `id` of flow `f` leaves its receiver: it carries the echoed stack, and
    /// collects nothing more on its way (its own hops are not the data path's).
    pub fn echo(&mut self, id: FrameId, f: FlowId) {
        if self.collects(f) {
            let s = self.echo[f as usize];
            *self.slot(id) = s;
        }
    }

    /// The stack of frame `id` (empty if it carries none).
    #[inline]
    pub fn stack(&self, id: FrameId) -> Stack {
        self.stacks.get(id as usize).copied().unwrap_or_default()
    }

    /// Bytes port `port` has sent, on the wire.
    pub fn tx_bytes(&self, port: u32) -> u64 {
        self.tx_bytes[port as usize]
    }

    /// Frame stacks the table holds (its footprint: one per arena slot ever used by a collecting
    /// frame, up to the largest such id).
    pub fn capacity(&self) -> usize {
        self.stacks.len()
    }

    fn slot(&mut self, id: FrameId) -> &mut Stack {
        let i = id as usize;
        if i >= self.stacks.len() {
            self.stacks.resize(i + 1, Stack::default());
        }
        &mut self.stacks[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(ts: Time) -> Hop {
        Hop { ts, tx_bytes: ts * 10, qlen: ts, rate_bps: 1 }
    }

    #[test]
    fn a_full_stack_keeps_its_first_hops_and_counts_the_rest() {
        let mut s = Stack::default();
        for t in 0..MAX_HOPS as u64 + 2 {
            s.push(hop(t));
        }
        assert_eq!(s.hops().len(), MAX_HOPS);
        assert_eq!(s.hops()[MAX_HOPS - 1], hop(MAX_HOPS as u64 - 1));
        assert_eq!(s.missed, 2);
    }

    #[test]
    fn forwarding_ports_push_for_collecting_flows_and_every_port_counts_its_bytes() {
        // Flow 0 collects, flow 1 does not; port 0 is a host's, ports 1 and 2 a switch's.
        let mut t = Telemetry::new(vec![true, false], vec![false, true, true]);
        t.start(7, 0);
        t.on_tx(0, 7, 0, true, 100, 0, 10, 1); // the host's port: counts, no record
        t.on_tx(1, 3, 1, true, 50, 0, 10, 2); // another flow's frame: counts, no record
        t.on_tx(1, 7, 0, true, 100, 400, 10, 3);
        t.on_tx(2, 7, 0, false, 100, 0, 10, 4); // a kind that does not collect
        assert_eq!(t.stack(7).hops(), &[Hop { ts: 3, tx_bytes: 50, qlen: 400, rate_bps: 10 }]);
        assert_eq!((t.tx_bytes(0), t.tx_bytes(1), t.tx_bytes(2)), (100, 150, 100));
        assert_eq!(t.stack(3), Stack::default());
    }

    #[test]
    fn an_acknowledgement_echoes_the_last_data_frames_stack_and_a_resent_slot_starts_empty() {
        let mut t = Telemetry::new(vec![true], vec![true]);
        t.start(0, 0);
        t.on_tx(0, 0, 0, true, 10, 5, 8, 9);
        t.on_data(0, 0);
        t.echo(4, 0);
        assert_eq!(t.stack(4).hops(), t.stack(0).hops());
        assert_eq!(t.stack(4).hops().len(), 1);
        t.start(4, 0);
        assert!(t.stack(4).hops().is_empty());
    }
}
