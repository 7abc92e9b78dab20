//! The network's entities as the engine holds them: ports (with their output queue and optional
//! congestion point), nodes, senders (traffic generator + rate limiter) and flows (with their RP).

use crate::frame::{Dest, FrameId, NodeId};
use crate::protocols::eqcn::EqcnRp;
use crate::protocols::qcn::{CongestionPoint, ReactionPoint};
use crate::rng::Rng;
use crate::stats::TimeAvg;
use crate::time::Time;
use crate::traffic::TrafficGen;
use crate::units::Amount;
use std::collections::VecDeque;
use std::ops::Range;

pub const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Host,
    Switch,
}

pub struct Node {
    pub name: String,
    pub kind: NodeKind,
    pub ports: Vec<u32>,
}

/// A congestion point attached to a port, with its random stream and CNM size.
pub struct CpState {
    pub cp: CongestionPoint,
    pub rng: Rng,
    pub cnm_size: u32,
    pub sample_dropped: bool,
    /// E-QCN: equal |Fb| is broken by the CPID the RP selected (seed 001 §4).
    pub eqcn_tie_break: bool,
}

/// Counters of one output queue (whole run; `*_w0` hold the values at window start).
#[derive(Clone, Copy, Debug, Default)]
pub struct PortCounters {
    pub arrivals: u64,
    pub drops: u64,
    pub cnms_sent: u64,
}

/// One direction of a full-duplex link: the output port of `node` towards `peer_node`.
pub struct Port {
    pub node: NodeId,
    pub peer_node: NodeId,
    pub peer_port: u32,
    pub rate_bps: u64,
    pub delay: Time,
    pub overhead: u32,
    pub capacity: Amount,
    /// Frames waiting (the frame on the wire is not in the queue).
    pub queue: VecDeque<FrameId>,
    pub qbytes: u64,
    /// The transmitter is busy until this time.
    pub busy_until: Time,
    /// A TxDone event is scheduled.
    pub txdone_pending: bool,
    pub cp: Option<CpState>,
    pub c: PortCounters,
    pub c_w0: PortCounters,
    /// Queue length in frames, time-weighted over the window.
    pub q: TimeAvg,
    pub busy_window: Time,
    /// Largest queue seen over the whole run, in frames and bytes (capacity invariant).
    pub peak_frames: u64,
    pub peak_bytes: u64,
}

impl Port {
    #[inline]
    pub fn fits(&self, size: u32) -> bool {
        match self.capacity {
            Amount::Frames(n) => (self.queue.len() as u64) < n,
            Amount::Bytes(b) => self.qbytes + size as u64 <= b,
        }
    }
}

/// A traffic source and the rate limiter in front of its copies (one sender per flow, or one per
/// multiple-unicast session paced at the session rate).
pub struct Sender {
    pub host: NodeId,
    pub flows: Range<u32>,
    pub gen: TrafficGen,
    pub frame: u32,
    pub start: Time,
    pub stop: Time,
    /// Creation times of frames waiting in the limiter.
    pub buf: VecDeque<Time>,
    pub buf_cap: usize,
    pub next_allowed: Time,
    pub release_pending: bool,
    pub rng: Rng,
    pub generated: u64,
    pub generated_w0: u64,
    pub source_dropped: u64,
    /// Session rate CR = min over the sender's RPs (seed 000 §3), time-weighted over the window.
    pub cr: TimeAvg,
}

pub struct Receiver {
    pub host: NodeId,
    pub frames: u64,
    pub bytes: u64,
    pub bytes_w0: u64,
}

pub struct Flow {
    pub name: String,
    pub sender: u32,
    pub src: NodeId,
    pub dst: Dest,
    pub mode: &'static str,
    pub group: Option<String>,
    pub receivers: Vec<Receiver>,
    pub rp: Option<ReactionPoint>,
    /// E-QCN state (Algorithm 1) when the flow's RP runs E-QCN.
    pub eqcn: Option<EqcnRp>,
    pub rp_rng: Rng,
    /// RP timer: its deadline, and the time of the one RpTimer event kept in the queue for it (a
    /// re-armed timer moves the deadline; the event re-queues itself instead of piling up).
    pub timer_gen: u32,
    pub timer_at: Option<Time>,
    pub timer_event_at: Option<Time>,
    pub cr: TimeAvg,
    pub cnms_w0: u64,
    /// Data frame copies of this flow put on a wire at its source, and dropped anywhere.
    pub injected: u64,
    pub dropped: u64,
    pub injected_w0: u64,
    pub dropped_w0: u64,
    /// Extra copies of this flow's frames made at multicast branching points.
    pub replicated: u64,
    pub replicated_w0: u64,
}

impl Flow {
    /// Record the RP's current rate into the window statistics; its CR, if it has an RP.
    #[inline]
    pub fn note_cr(&mut self, now: Time) -> Option<f64> {
        let cr = self.rp.as_ref()?.cr;
        if cr != self.cr.value() {
            self.cr.set(now, cr);
        }
        Some(cr)
    }
}
