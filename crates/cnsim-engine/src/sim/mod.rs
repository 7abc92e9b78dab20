//! The event loop. It knows frames, ports, hosts, timers and the protocol *slots*; each protocol's
//! behaviour stays in its module (docs/architecture.md). Split by concern:
//! `host.rs` (traffic sources, rate limiters, delivery), `switch.rs` (forwarding, queues,
//! transmitters), `record.rs` (series, window, accounting), `membership.rs` (group joins and
//! leaves), and the event-loop side of the slots that own timers or frames of their own
//! (`transport.rs`, `flow_control.rs`, `mcast.rs`) and of the taps (`hooks.rs`). What a protocol
//! does at these points is a call on its slot's enum (`crate::registry`).

mod flow_control;
mod hooks;
mod host;
mod mcast;
mod membership;
mod record;
mod switch;
mod transport;

pub use host::{NOT_DEFERRED, STALLED};
pub use record::{Probe, Series};

use crate::core::arena::Arena;
use crate::core::event::EventQueue;
use crate::core::time::Time;
use crate::core::timer::{TimerId, TimerStep, Timers};
use crate::net::flow::{Sender, Session};
use crate::net::frame::{Frame, FrameId, Proto};
use crate::net::node::Node;
use crate::net::routing::{McastTable, Routes};
use crate::registry::flow_control::FcGen;
use crate::slots::transport::TransportTimer;
use crate::registry::{Endpoint, Flow, Port};

/// Small `Copy` events that refer to entities by index; no allocation per event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The traffic generator of a sender produces its next frame.
    AppTick { sender: u32 },
    /// A sender's rate limiter may release its next frame.
    Release { sender: u32 },
    /// A port's transmitter is free (or may be): send the next frame if there is one.
    TxDone { port: u32 },
    /// A frame finishes arriving at the far end of `port`'s link.
    Arrive { port: u32, frame: FrameId },
    /// A timer of the timer service; stale when `gen` no longer matches.
    Timer { id: TimerId, gen: u32 },
    /// A feedback frame reaches its flow's RP after the host's processing latency.
    FeedbackDue { frame: FrameId },
    /// Periodic recording of the series.
    Record,
    /// Start of the measurement window: counters are snapshotted.
    WindowStart,
    /// A member of a group asks to join or leave (`member | MEMBERSHIP_REQUEST`, with
    /// `MEMBERSHIP_JOIN` for a join), or its request's latency ran out (the bare member index).
    Membership { group: u32, member: u32 },
}

pub const MEMBERSHIP_REQUEST: u32 = 1 << 31;
pub const MEMBERSHIP_JOIN: u32 = 1 << 30;

/// Who a timer belongs to: an entity and its slot, never a protocol by name.
#[derive(Clone, Copy, Debug)]
pub enum TimerOwner {
    /// A flow's reaction point.
    FlowRp(u32),
    /// A switch port's flow-control generator (refresh).
    PortFc(u32),
    /// A port's transmitter: a received hold runs out.
    PortResume(u32),
    /// A port's oscillating service rate changes.
    PortRate(u32),
    /// A flow's transport connection: which of its timers.
    FlowTransport(u32, TransportTimer),
    /// A multi-rate multicast receiver's evaluation tick.
    Endpoint(u32),
}

/// Whole-run frame counters (docs/architecture.md §6: conservation is checked on them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    pub data_generated: u64,
    pub data_source_dropped: u64,
    pub data_injected: u64,
    pub data_replicated: u64,
    pub data_delivered: u64,
    pub data_dropped: u64,
    pub feedback_sent: u64,
    pub feedback_delivered: u64,
    pub feedback_dropped: u64,
    /// Feedback frames sent and delivered, by tag-area owner (`Proto`'s byte; owners from 16 on
    /// are counted in the totals only).
    pub feedback_sent_by: [u64; 16],
    pub feedback_delivered_by: [u64; 16],
    pub ctrl_sent: u64,
    pub ctrl_delivered: u64,
    pub ack_sent: u64,
    pub ack_delivered: u64,
    pub ack_dropped: u64,
    /// Path control frames (`FrameKind::PathControl`): sent by reaction points, answered by a
    /// congestion point or the destination, reaching the destination unanswered, dropped.
    pub path_control_sent: u64,
    pub path_control_answered: u64,
    pub path_control_unanswered: u64,
    pub path_control_dropped: u64,
    /// Frames routers dropped because their TTL reached 0 (also counted in `*_dropped`).
    pub ttl_expired: u64,
}

impl Counters {
    /// A feedback frame of owner `proto` was sent (`sent`) or delivered to its flow's source.
    #[inline]
    pub fn feedback(&mut self, proto: Proto, sent: bool) {
        let (total, by) = if sent { (&mut self.feedback_sent, &mut self.feedback_sent_by) } else { (&mut self.feedback_delivered, &mut self.feedback_delivered_by) };
        *total += 1;
        if let Some(n) = by.get_mut(proto.0 as usize) {
            *n += 1;
        }
    }
}

pub struct Sim {
    pub now: Time,
    pub duration: Time,
    pub measure_from: Time,
    pub record_interval: Time,
    pub max_events: u64,
    /// Wall-clock limit in ns (0 = none) and the wall time used by earlier `run_until` calls.
    pub max_wall_ns: u64,
    pub wall_used_ns: u64,
    /// Series memory limit in bytes (0 = none).
    pub max_series_bytes: u64,
    /// Frames alive at once (arena + limiter buffers: `frames_alive`) before the run stops (0 = none).
    pub max_frames: u64,
    pub seed: u64,
    /// Size of a "frame" where amounts are given in frames (for reporting Qeq in frames).
    pub frame_size: u64,
    pub events: u64,
    pub stopped_by: Option<String>,
    pub queue: EventQueue<Event>,
    pub frames: Arena<Frame>,
    pub timers: Timers,
    pub timer_owner: Vec<TimerOwner>,
    pub nodes: Vec<Node>,
    pub ports: Vec<Port>,
    /// The ports with `lazy_rx`, in id order: the only ones `deliver_all` visits.
    pub lazy_ports: Vec<u32>,
    pub senders: Vec<Sender>,
    pub flows: Vec<Flow>,
    pub sessions: Vec<Session>,
    pub routes: Routes,
    pub mcast: McastTable,
    /// Multicast groups and their run-time membership.
    pub groups: Vec<crate::net::group::Group>,
    /// Multi-rate multicast receivers.
    pub endpoints: Vec<Endpoint>,
    /// Link-level flow control on switch ports, when configured.
    pub fc: Option<FcGen>,
    /// Frames waiting in rate limiters (one per sender buffer entry).
    pub limited: u64,
    pub c: Counters,
    pub c_w0: Counters,
    pub series: Series,
    pub scenario_path: String,
    pub resolved_toml: String,
    /// Wall time the build took, in seconds (reported, not used).
    pub build_s: f64,
    /// Likely mistakes the build found in the scenario's tables, each with the file:line of the
    /// table (`lint` reports them first).
    pub build_warnings: Vec<String>,
    /// Packet capture and event trace (crate::tap), None unless enabled.
    pub tap: Option<Box<crate::tap::Tap>>,
    /// In-band telemetry (`net::telemetry`), None unless a protocol of the run registers it.
    pub telemetry: Option<Box<crate::net::telemetry::Telemetry>>,
}

impl Sim {
    /// Advance to `min(t, duration)`, processing at most `max_events` events when non-zero.
    /// Returns true when the run is over (end reached or a guard stopped it).
    pub fn run_until(&mut self, t: Time, max_events: u64) -> bool {
        let end = t.min(self.duration);
        let mut n = 0u64;
        let mut chunk_done = false;
        // Events this call may process: the chunk's and the run's limits, whichever comes first
        // (`u64::MAX`: no limit). Reaching it is handled off the hot path, below.
        let run_left = if self.max_events > 0 { self.max_events.saturating_sub(self.events) } else { u64::MAX };
        let limit = run_left.min(if max_events > 0 { max_events } else { u64::MAX });
        let t0 = std::time::Instant::now();
        while self.stopped_by.is_none() {
            // Guards are read once every 2^16 events: cheap enough to leave on.
            if n & 0xFFFF == 0 && self.check_guards(t0) {
                break;
            }
            if n >= limit {
                // A limit is reached: it stops the run (or ends the chunk) only if an event is due.
                match self.queue.peek_time() {
                    Some(tn) if tn <= end => {
                        if n >= run_left {
                            self.stopped_by = Some(format!("max_events ({})", self.max_events));
                        } else {
                            chunk_done = true;
                        }
                    }
                    _ => self.now = self.now.max(end),
                }
                break;
            }
            let Some((time, ev)) = self.queue.pop_due(end) else {
                self.now = self.now.max(end);
                break;
            };
            self.now = time;
            self.events += 1;
            n += 1;
            self.dispatch(ev);
        }
        // Deferred generations up to now count as made (the caller may read the counts).
        self.catch_up_all(self.now);
        self.wall_used_ns += t0.elapsed().as_nanos() as u64;
        !chunk_done && self.finished()
    }

    /// Wall-time and memory guards; true when one tripped (the run then stops cleanly).
    fn check_guards(&mut self, t0: std::time::Instant) -> bool {
        if self.max_wall_ns > 0 {
            let used = self.wall_used_ns + t0.elapsed().as_nanos() as u64;
            if used >= self.max_wall_ns {
                self.stopped_by = Some(format!("max_wall_time ({} s)", self.max_wall_ns as f64 / 1e9));
                return true;
            }
        }
        if self.max_frames > 0 && self.frames_alive() > self.max_frames {
            self.stopped_by = Some(format!("max_frames ({} frames alive)", self.max_frames));
            return true;
        }
        false
    }

    /// Frames held: in the arena and in limiter buffers. A frame on its way to a passive receiver
    /// (lazy delivery) is a 16-byte record, no longer a frame, and is not counted: a wire holds at
    /// most its delay ÷ the frame time of them, whatever the input (and a sum over every port
    /// here would cost a large fabric a scan of all its ports every 2^16 events).
    fn frames_alive(&self) -> u64 {
        self.frames.live() as u64 + self.limited
    }

    pub fn finished(&self) -> bool {
        self.stopped_by.is_some() || self.now >= self.duration
    }

    #[inline(always)]
    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::AppTick { sender } => self.on_app_tick(sender),
            Event::Release { sender } => self.on_release(sender),
            Event::TxDone { port } => self.on_tx_done(port),
            Event::Arrive { port, frame } => self.on_arrive(port, frame),
            Event::Timer { id, gen } => match self.timers.on_event(id, gen, self.now) {
                TimerStep::Fire => self.on_timer(self.timer_owner[id as usize]),
                TimerStep::Queue(t, g) => self.queue.push_slow(t, Event::Timer { id, gen: g }),
                TimerStep::Idle => {}
            },
            Event::FeedbackDue { frame } => self.on_feedback(frame),
            Event::Record => self.on_record(),
            Event::WindowStart => self.on_window_start(),
            Event::Membership { group, member } => self.on_membership(group, member),
        }
    }

    fn on_timer(&mut self, owner: TimerOwner) {
        match owner {
            TimerOwner::FlowRp(f) => self.on_rp_timer(f),
            TimerOwner::PortFc(p) => self.on_fc_refresh(p),
            TimerOwner::PortResume(p) => self.on_hold_end(p),
            TimerOwner::PortRate(p) => self.on_port_rate(p),
            TimerOwner::FlowTransport(f, t) => self.on_transport_timer(f, t),
            TimerOwner::Endpoint(e) => self.on_endpoint_tick(e),
        }
    }

    /// Arm timer `id` for `at`, queueing an event only when the service needs one.
    #[inline]
    pub(crate) fn arm(&mut self, id: TimerId, at: Time) {
        if let TimerStep::Queue(t, gen) = self.timers.arm(id, at) {
            self.queue.push_slow(t, Event::Timer { id, gen });
        }
    }
}
