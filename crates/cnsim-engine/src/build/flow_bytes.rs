//! What one flow costs in memory once built, from the sizes of the structures the build makes for
//! it: the scenario's estimate (`estimate.rs`, before anything is allocated) and the build's charge
//! (`traffic.rs`, before each flow is made) both count a flow with [`bytes`]. The figure follows the
//! structures (`size_of`) and adds the system allocator's overhead per heap allocation
//! ([`chunk`]); tests/flow_bytes.rs measures builds against it with a counting allocator.

use crate::core::event::EventQueue;
use crate::core::time::Time;
use crate::core::timer::Timers;
use crate::net::flow::{Sender, Session};
use crate::net::telemetry::Stack;
use crate::registry::rf::{RfSender, RfTable};
use crate::registry::transport::Transport;
use crate::registry::{Flow, Np, Receiver};
use crate::scenario::{RpSlot, TransportSlot};
use crate::sim::{Event, Probe, TimerOwner};
use std::mem::size_of;
use std::ops::Range;

/// Bytes the system allocator takes for a request of `n` bytes: glibc's malloc puts an 8 B header
/// before each block, rounds to 16 B and never makes a block under 32 B (on 64-bit Linux; other
/// allocators are close to it). Requests of 128 kB or more are mapped pages, touched only as used.
pub const fn chunk(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        let c = (n + 8 + 15) & !15;
        if c < 32 {
            32
        } else {
            c
        }
    }
}

/// What one allocation adds at most to its request: `chunk(n) <= n + ALLOC_OVERHEAD`.
pub const ALLOC_OVERHEAD: usize = 32;

/// The shape of one flow, as far as its memory goes.
pub struct Shape<'a> {
    /// Receivers (1 for unicast; the group's members but the source for multicast).
    pub receivers: usize,
    /// Bytes of its name (at most: a bound is enough).
    pub name: usize,
    /// Bytes of its receivers' names (the longest; for its series' names).
    pub host_name: usize,
    /// Entries its limiter's buffer is made with (`Sender::buf`).
    pub ring: usize,
    pub transport: Option<&'a TransportSlot>,
    pub rp: &'a RpSlot,
    /// Its receivers run a notification point (the RP's protocol has one).
    pub np: bool,
    /// Router feedback: a request writer at the source, a table at each receiver.
    pub rf: bool,
    /// Bytes of its group's name (multicast and multiple unicast keep it per flow; 0: none).
    pub group: usize,
    /// Its name is kept a second time, in the build's set of names (a `[[flow]]` table's flows;
    /// a workload's names are unique by construction).
    pub name_set: bool,
    /// The scenario records series (`simulation.record_interval` > 0).
    pub series: bool,
}

/// A vector the build fills by pushing holds up to twice its entries (it doubles when full).
const GROWN: usize = 2;
/// A timer (the RP's one, a transport connection's `TIMERS`): its slot and its owner, each in a
/// vector filled by pushing.
const TIMER: usize = GROWN * (Timers::SLOT_BYTES + size_of::<TimerOwner>());

/// The memory one built flow holds, in bytes: the flow and its receivers, its name, its sender and
/// session (one per flow at most), its limiter's buffer, its transport connection and RP with their
/// timers and first event, its multicast-table row, routing needs and span, its telemetry echo and
/// the names and probes of its series. (Series samples are counted apart: they grow with the run.)
pub fn bytes(s: &Shape) -> usize {
    let recv = s.receivers.max(1);
    let mut b = size_of::<Flow>() + chunk(s.name) + chunk(recv * size_of::<Receiver>()) + chunk(s.group);
    b += size_of::<Sender>() + chunk(s.ring * size_of::<Time>()) + size_of::<Session>();
    // Its span, its unicast pairs and end points (`traffic::Needs`), its row of the multicast table.
    b += size_of::<Range<usize>>() + recv * (size_of::<(usize, usize, Range<usize>)>() + size_of::<usize>()) + size_of::<usize>();
    b += size_of::<(u32, u32)>() + size_of::<Vec<(u32, Vec<u32>)>>();
    // The first event of its sender (an application tick or the connection's application timer).
    b += EventQueue::<Event>::ENTRY_BYTES;
    if s.np {
        b += recv * chunk(size_of::<Np>());
    }
    if s.rf {
        b += chunk(size_of::<RfSender>()) + recv * chunk(size_of::<RfTable>());
    }
    let mut series = recv; // rx_bps.NAME>HOST per receiver
    if !matches!(s.rp, RpSlot::None) {
        b += TIMER;
        series += 2; // rp_cr_bps, rp_tr_bps
    }
    if let Some(t) = s.transport {
        b += chunk(size_of::<Transport>()) + super::protocols::transport_heap(t) + crate::slots::transport::TIMERS * TIMER;
        if super::protocols::transport_telemetry(t) {
            b += size_of::<Stack>() + size_of::<bool>();
        }
        series += super::protocols::transport_series(t);
    }
    if s.name_set {
        // A hash set's entry (the string and its control byte, at most 8/7 full) and its copy of the name.
        b += (size_of::<String>() + 1) * 8 / 7 + 1 + chunk(s.name);
    }
    if s.series {
        // Each series' name (QUANTITY_UNIT.NAME>HOST, the quantity at most 24 B) and probe, in
        // vectors filled by pushing, and its previous value (`sim::Series`).
        b += series * (GROWN * (size_of::<String>() + size_of::<Probe>()) + chunk(24 + s.name + 1 + s.host_name) + size_of::<f64>());
    }
    b
}

/// A workload's draw of one flow, held from the draw until its table's flows are made (`workload.rs`).
pub const DRAW_BYTES: usize = size_of::<(usize, usize, u64, Time)>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_is_glibc_s() {
        assert_eq!([chunk(0), chunk(1), chunk(24), chunk(25), chunk(40), chunk(1024)], [0, 32, 32, 48, 48, 1040]);
    }
}
