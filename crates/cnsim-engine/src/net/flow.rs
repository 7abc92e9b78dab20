//! Traffic entities of the hosts: senders (traffic generator + rate limiter in front of a flow's
//! copies), flows (with their reaction point) and receivers.

use super::frame::{Dest, NodeId};
use crate::core::rng::Rng;
use crate::core::stats::TimeAvg;
use crate::core::time::Time;
use crate::core::timer::TimerId;
use super::Slots;
use crate::traffic::TrafficGen;
use crate::core::ring::Ring;
use std::ops::Range;

/// Timers of a transport connection (`Flow::transport_timers`; `slots::transport::TransportTimer`
/// names them).
pub const TRANSPORT_TIMERS: usize = 4;

/// A traffic source and the rate limiter in front of its copies (one sender per flow, or one per
/// multiple-unicast session paced at the session rate).
pub struct Sender {
    pub host: NodeId,
    pub flows: Range<u32>,
    pub gen: TrafficGen,
    pub frame: u32,
    /// Its flows are closed-loop transport connections: it sends when the transport lets it
    /// (`sim/transport.rs`).
    pub closed_loop: bool,
    pub prio: u8,
    pub start: Time,
    pub stop: Time,
    /// Creation times of frames waiting in the limiter.
    pub buf: Ring<Time>,
    pub buf_cap: usize,
    pub next_allowed: Time,
    /// The gap between frames at the limiting rate, cached: the rate changes about once per
    /// byte-counter cycle, the division would run on every frame.
    pub pace_rate: f64,
    pub pace: Time,
    pub release_pending: bool,
    /// The next generation, when it is deferred rather than queued as an `AppTick` (`NEVER`
    /// otherwise): while a release is queued, generations only fill the limiter's buffer, so
    /// they are replayed in time order when the buffer is next read (`sim/host.rs`, `catch_up`).
    pub deferred: Time,
    /// Waiting for room in the host's output queue (back-pressure).
    pub blocked: bool,
    /// Transport connections sharing this sender's regulator: the one (offset in `flows`) asked first
    /// next time, so that they take turns.
    pub next_conn: u32,
    pub rng: Rng,
    pub generated: u64,
    pub generated_w0: u64,
    pub source_dropped: u64,
}

impl Sender {
    /// Count a generation at `t`; the next generation time, if the source makes one before `stop`.
    #[inline(always)]
    pub fn count_generation(&mut self, t: Time) -> Option<Time> {
        self.generated += 1;
        let next = t + self.gen.next_gap(&mut self.rng);
        (next < self.stop).then_some(next)
    }

    /// The frame made at `t` enters the limiter's buffer; false when the buffer is full (the frame
    /// is dropped at the source and counted here).
    #[inline(always)]
    pub fn admit(&mut self, t: Time) -> bool {
        if self.buf.len() >= self.buf_cap {
            self.source_dropped += 1;
            return false;
        }
        self.buf.push_back(t);
        true
    }
}

/// A source's session: every flow (copy) one `[[flow]]` table makes from one source — all the
/// receivers of a multicast or multiple-unicast session, however its copies are paced. Its rate is
/// CR = min over the copies' RPs (Mliki et al. 2016a §3), time-weighted over the window.
pub struct Session {
    pub host: NodeId,
    pub flows: Range<u32>,
    pub cr: TimeAvg,
}

pub struct Receiver<S: Slots> {
    pub host: NodeId,
    /// The receiver's table of router feedback, when the flow's frames carry requests.
    pub rf: Option<Box<S::RfTable>>,
    /// The receiver's notification point (it answers data frames with feedback to the source).
    pub np: Option<Box<S::Np>>,
    /// The multi-rate multicast endpoint this host runs for the flow (NONE: none), and the next
    /// sequence number it expects (NONE: not known since it joined).
    pub endpoint: u32,
    pub next_seq: u32,
    pub frames: u64,
    pub bytes: u64,
    pub bytes_w0: u64,
}

pub struct Flow<S: Slots> {
    pub name: String,
    pub sender: u32,
    pub session: u32,
    pub src: NodeId,
    pub dst: Dest,
    /// The first-hop port at the source.
    pub first_port: u32,
    /// Where the source's routing sends this unicast flow's frames (NONE for a group): routes are
    /// static, so the lookup is made once, at the end of the build, not per frame.
    pub src_port: u32,
    pub mode: &'static str,
    pub group: Option<String>,
    pub receivers: Vec<Receiver<S>>,
    /// Every receiver only counts what arrives (no transport, notification point, multi-rate
    /// endpoint or router-feedback table):
    /// its deliveries need no event (`sim/switch.rs`, lazy delivery). Set at the end of the build.
    pub passive_rx: bool,
    pub rp: Option<S::Rp>,
    /// The router-feedback request writer of the flow's source, when configured.
    pub rf: Option<Box<S::RfSender>>,
    /// A transport connection (closed-loop flows); None for open-loop generators.
    pub transport: Option<Box<S::Transport>>,
    /// Its connection's timers: retransmission, delayed acknowledgement, application
    /// (`slots::transport::TransportTimer` indexes them).
    pub transport_timers: [TimerId; TRANSPORT_TIMERS],
    pub rp_rng: Rng,
    /// Feedback frames reach the RP this long after they arrive at the source host.
    pub feedback_latency: Time,
    pub timer: TimerId,
    pub cr: TimeAvg,
    pub feedback_w0: u64,
    /// Data frame copies of this flow put on a wire at its source, and dropped anywhere.
    pub injected: u64,
    pub dropped: u64,
    pub injected_w0: u64,
    pub dropped_w0: u64,
    /// Extra copies of this flow's frames made at multicast branching points.
    pub replicated: u64,
    pub replicated_w0: u64,
    /// A finite transfer (docs/scenarios.md, workloads): its size in bytes (0: not a transfer),
    /// its start, and when it completed (`Time::MAX` while it has not).
    pub size_bytes: u64,
    pub started: Time,
    pub completed: Time,
    /// Bytes its receiver must have for an open-loop transfer to complete (`u64::MAX` for any
    /// other flow, TCP included: a TCP transfer completes on its last ACK).
    pub complete_bytes: u64,
}
