//! The event loop: wires frames, ports, senders and protocol state machines together.

use crate::event::{Event, EventQueue};
use crate::frame::{Arena, CnmFields, Dest, Frame, FrameId, FrameKind, NodeId};
use crate::net::{Flow, Node, NodeKind, Port, Sender, NONE};
use crate::protocols::eqcn;
use crate::protocols::qcn::{Sample, TimerAction};
use crate::time::{pace_time, tx_time, Time};

/// Whole-run frame counters (DESIGN.md §6: conservation is checked on them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    pub data_generated: u64,
    pub data_source_dropped: u64,
    pub data_injected: u64,
    pub data_replicated: u64,
    pub data_delivered: u64,
    pub data_dropped: u64,
    pub cnm_sent: u64,
    pub cnm_delivered: u64,
    pub cnm_dropped: u64,
}

/// What a recorded series samples.
#[derive(Clone, Copy, Debug)]
pub enum Probe {
    Cr(u32),
    Tr(u32),
    Queue(u32),
    Rx(u32, u32),
    Session(u32),
}

#[derive(Default)]
pub struct Series {
    pub names: Vec<String>,
    pub probes: Vec<Probe>,
    pub idx: Vec<u32>,
    pub t: Vec<f64>,
    pub v: Vec<f64>,
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
    pub seed: u64,
    /// Size of a "frame" where amounts are given in frames (for reporting Qeq in frames).
    pub frame_size: u64,
    pub events: u64,
    pub stopped_by: Option<String>,
    pub queue: EventQueue,
    pub frames: Arena,
    pub nodes: Vec<Node>,
    pub ports: Vec<Port>,
    pub senders: Vec<Sender>,
    pub flows: Vec<Flow>,
    /// Unicast forwarding: `next_port[node * n + dst]`.
    pub next_port: Vec<u32>,
    /// Multicast forwarding: `mcast[flow * n + node]` is a range of `mcast_ports`.
    pub mcast: Vec<(u32, u32)>,
    pub mcast_ports: Vec<u32>,
    pub c: Counters,
    pub c_w0: Counters,
    pub series: Series,
    pub scenario_path: String,
    pub resolved_toml: String,
}

impl Sim {
    /// Advance to `min(t, duration)`, processing at most `max_events` events when non-zero.
    /// Returns true when the run is over (end reached or a guard stopped it).
    pub fn run_until(&mut self, t: Time, max_events: u64) -> bool {
        let end = t.min(self.duration);
        let mut n = 0u64;
        let t0 = std::time::Instant::now();
        while self.stopped_by.is_none() {
            // The wall clock is read once every 2^16 events: cheap enough to leave on.
            if self.max_wall_ns > 0 && n & 0xFFFF == 0 {
                let used = self.wall_used_ns + t0.elapsed().as_nanos() as u64;
                if used >= self.max_wall_ns {
                    self.stopped_by = Some(format!("max_wall_time ({} s)", self.max_wall_ns as f64 / 1e9));
                    break;
                }
            }
            match self.queue.peek_time() {
                Some(tn) if tn <= end => {}
                _ => {
                    self.now = self.now.max(end);
                    break;
                }
            }
            if self.max_events > 0 && self.events >= self.max_events {
                self.stopped_by = Some(format!("max_events ({})", self.max_events));
                break;
            }
            if max_events > 0 && n >= max_events {
                return false;
            }
            let (time, ev) = self.queue.pop().expect("peeked");
            self.now = time;
            self.events += 1;
            n += 1;
            self.dispatch(ev);
        }
        self.wall_used_ns += t0.elapsed().as_nanos() as u64;
        self.finished()
    }

    pub fn finished(&self) -> bool {
        self.stopped_by.is_some() || self.now >= self.duration
    }

    #[inline]
    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::AppTick { sender } => self.on_app_tick(sender),
            Event::Release { sender } => {
                self.senders[sender as usize].release_pending = false;
                self.release(sender);
            }
            Event::TxDone { port } => self.on_tx_done(port),
            Event::Arrive { port, frame } => self.on_arrive(port, frame),
            Event::RpTimer { flow, gen } => self.on_rp_timer(flow, gen),
            Event::Record => self.on_record(),
            Event::WindowStart => self.on_window_start(),
        }
    }

    fn on_app_tick(&mut self, s: u32) {
        let now = self.now;
        let snd = &mut self.senders[s as usize];
        if now >= snd.stop {
            return;
        }
        let copies = snd.flows.len() as u64;
        snd.generated += 1;
        self.c.data_generated += copies; // one per copy the sender will send
        if snd.buf.len() >= snd.buf_cap {
            snd.source_dropped += 1;
            self.c.data_source_dropped += copies;
        } else {
            snd.buf.push_back(now);
        }
        let next = now + snd.gen.next_gap(&mut snd.rng);
        if next < snd.stop {
            self.queue.push(next, Event::AppTick { sender: s });
        }
        if !snd.release_pending {
            if now >= snd.next_allowed {
                self.release(s);
            } else {
                snd.release_pending = true;
                let at = snd.next_allowed;
                self.queue.push(at, Event::Release { sender: s });
            }
        }
    }

    /// The rate limiter lets the oldest waiting frame go: one copy per flow of the sender.
    fn release(&mut self, s: u32) {
        let now = self.now;
        let snd = &mut self.senders[s as usize];
        let Some(created) = snd.buf.pop_front() else { return };
        let (host, size, flows, empty) = (snd.host, snd.frame, snd.flows.clone(), snd.buf.is_empty());
        let mut rate = f64::INFINITY;
        for f in flows {
            let fl = &self.flows[f as usize];
            let frame = Frame {
                kind: FrameKind::Data,
                size,
                src: host,
                dst: fl.dst,
                flow: f,
                created,
                eqcn: fl.eqcn.is_some(),
                fb_hat: fl.eqcn.map_or(0, |e| e.fb_hat),
                fb_hat_cpid: fl.eqcn.map_or(NONE, |e| e.cpid),
                cnm: CnmFields::default(),
            };
            let fid = self.frames.alloc(frame);
            self.c.data_injected += 1;
            self.flows[f as usize].injected += 1;
            self.forward(host, fid, NONE);
            let fl = &mut self.flows[f as usize];
            if let Some(rp) = &mut fl.rp {
                let before = rp.cr;
                let act = rp.on_frame_sent(size, empty, &mut fl.rp_rng);
                if rp.active {
                    rate = rate.min(rp.cr);
                }
                let changed = rp.cr != before; // CR moves only at the end of a byte-counter cycle
                self.apply_timer(f, act);
                if changed {
                    self.note_rate(f);
                }
            }
        }
        let snd = &mut self.senders[s as usize];
        snd.next_allowed = if rate.is_finite() { now + pace_time(size as u64, rate) } else { now };
        if !snd.buf.is_empty() {
            snd.release_pending = true;
            let at = snd.next_allowed.max(now);
            self.queue.push(at, Event::Release { sender: s });
        }
    }

    /// Flow `f`'s CR may have changed: update its statistics and its session's rate (min over the
    /// session's RPs).
    fn note_rate(&mut self, f: u32) {
        let now = self.now;
        if self.flows[f as usize].note_cr(now).is_none() {
            return;
        }
        let snd = &mut self.senders[self.flows[f as usize].sender as usize];
        let session = self.flows[snd.flows.start as usize..snd.flows.end as usize]
            .iter()
            .filter_map(|fl| fl.rp.as_ref().map(|r| r.cr))
            .fold(f64::INFINITY, f64::min);
        if session != snd.cr.value() {
            snd.cr.set(now, session);
        }
    }

    fn apply_timer(&mut self, f: u32, act: TimerAction) {
        let fl = &mut self.flows[f as usize];
        match act {
            TimerAction::None => {}
            TimerAction::Cancel => fl.timer_at = None,
            TimerAction::Arm(t) => {
                fl.timer_at = Some(t);
                match fl.timer_event_at {
                    Some(e) if e <= t => {} // that event will re-queue itself for t
                    _ => {
                        fl.timer_gen = fl.timer_gen.wrapping_add(1); // voids a later pending event
                        fl.timer_event_at = Some(t);
                        self.queue.push(t, Event::RpTimer { flow: f, gen: fl.timer_gen });
                    }
                }
            }
        }
    }

    fn on_rp_timer(&mut self, f: u32, gen: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        if fl.timer_gen != gen {
            return; // superseded by an earlier deadline
        }
        fl.timer_event_at = None;
        match fl.timer_at {
            None => return, // cancelled
            Some(t) if t > now => {
                fl.timer_event_at = Some(t);
                self.queue.push(t, Event::RpTimer { flow: f, gen });
                return;
            }
            Some(_) => fl.timer_at = None,
        }
        let empty = self.senders[fl.sender as usize].buf.is_empty();
        if let Some(rp) = &mut fl.rp {
            let act = rp.on_timer(now, empty, &mut fl.rp_rng);
            self.apply_timer(f, act);
            self.note_rate(f);
        }
    }

    /// Send frame `fid`, now at `node` (arrived through `in_port`, or NONE at its source), on.
    fn forward(&mut self, node: NodeId, fid: FrameId, in_port: u32) {
        let n = self.nodes.len();
        let f = *self.frames.get(fid);
        match f.dst {
            Dest::Node(d) => {
                let p = self.next_port[node as usize * n + d as usize];
                if p == NONE {
                    self.discard(fid); // validated away at build time; kept for safety
                } else {
                    self.enqueue(p, fid);
                }
            }
            Dest::Group(_) => {
                let (start, len) = self.mcast[f.flow as usize * n + node as usize];
                let mut first = true;
                for i in start..start + len {
                    let p = self.mcast_ports[i as usize];
                    if p == in_port {
                        continue;
                    }
                    let id = if first {
                        first = false;
                        fid
                    } else {
                        self.c.data_replicated += 1;
                        self.flows[f.flow as usize].replicated += 1;
                        self.frames.alloc(f)
                    };
                    self.enqueue(p, id);
                }
                if first {
                    self.discard(fid);
                }
            }
        }
    }

    fn discard(&mut self, fid: FrameId) {
        let f = self.frames.get(fid);
        match f.kind {
            FrameKind::Data => {
                self.c.data_dropped += 1;
                self.flows[f.flow as usize].dropped += 1;
            }
            FrameKind::Cnm => self.c.cnm_dropped += 1,
        }
        self.frames.release(fid);
    }

    /// Offer a frame to an output port's drop-tail queue; the port's CP samples data frames.
    fn enqueue(&mut self, port: u32, fid: FrameId) {
        let now = self.now;
        let f = *self.frames.get(fid);
        let p = &mut self.ports[port as usize];
        let is_data = f.kind == FrameKind::Data;
        let accepted;
        if p.queue.is_empty() && now >= p.busy_until {
            accepted = true;
            self.start_tx(port, fid);
        } else if p.fits(f.size) {
            accepted = true;
            p.queue.push_back(fid);
            p.qbytes += f.size as u64;
            p.q.set(now, p.queue.len() as f64);
            p.peak_frames = p.peak_frames.max(p.queue.len() as u64);
            p.peak_bytes = p.peak_bytes.max(p.qbytes);
            if !p.txdone_pending {
                p.txdone_pending = true;
                self.queue.push(p.busy_until, Event::TxDone { port });
            }
        } else {
            accepted = false;
            if is_data {
                p.c.drops += 1;
            }
            self.discard(fid);
        }
        if !is_data {
            return;
        }
        let p = &mut self.ports[port as usize];
        p.c.arrivals += 1;
        let qlen = p.qbytes;
        if let Some(cp) = &mut p.cp {
            if accepted || cp.sample_dropped {
                if let Some(s) = cp.cp.on_arrival(f.size, qlen, &mut cp.rng) {
                    // E-QCN frames: only the representative CP notifies (seed 001 Algorithm 2).
                    let rep = !f.eqcn || eqcn::is_representative(s.qntz_fb, port, f.fb_hat, f.fb_hat_cpid, cp.eqcn_tie_break);
                    if s.qntz_fb > 0 && rep {
                        self.send_cnm(port, &f, s);
                    }
                }
            }
        }
    }

    /// A CP at `port` notifies the source of the sampled frame `f` (802.1Qau CNM).
    fn send_cnm(&mut self, port: u32, f: &Frame, s: Sample) {
        let p = &mut self.ports[port as usize];
        p.c.cnms_sent += 1;
        let size = p.cp.as_ref().map_or(64, |c| c.cnm_size);
        let node = p.node;
        self.c.cnm_sent += 1;
        let cnm = Frame {
            kind: FrameKind::Cnm,
            size,
            src: node,
            dst: Dest::Node(f.src),
            flow: f.flow,
            created: self.now,
            eqcn: false,
            fb_hat: 0,
            fb_hat_cpid: NONE,
            cnm: CnmFields {
                qntz_fb: s.qntz_fb,
                cpid: port,
                qoff: s.qoff.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                qdelta: s.qdelta.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
            },
        };
        let id = self.frames.alloc(cnm);
        self.forward(node, id, NONE);
    }

    fn start_tx(&mut self, port: u32, fid: FrameId) {
        let now = self.now;
        let size = self.frames.get(fid).size;
        let p = &mut self.ports[port as usize];
        let ser = tx_time((size + p.overhead) as u64, p.rate_bps);
        p.busy_until = now + ser;
        if now >= self.measure_from {
            p.busy_window += ser;
        }
        self.queue.push(now + ser + p.delay, Event::Arrive { port, frame: fid });
    }

    fn on_tx_done(&mut self, port: u32) {
        let now = self.now;
        let p = &mut self.ports[port as usize];
        p.txdone_pending = false;
        let Some(fid) = p.queue.pop_front() else { return };
        p.qbytes -= self.frames.get(fid).size as u64;
        p.q.set(now, p.queue.len() as f64);
        self.start_tx(port, fid);
        let p = &mut self.ports[port as usize];
        if !p.queue.is_empty() {
            p.txdone_pending = true;
            self.queue.push(p.busy_until, Event::TxDone { port });
        }
    }

    /// The last bit of a frame sent on `port` reaches the node at the other end.
    fn on_arrive(&mut self, port: u32, fid: FrameId) {
        let (node, in_port) = {
            let p = &self.ports[port as usize];
            (p.peer_node, p.peer_port)
        };
        if self.nodes[node as usize].kind == NodeKind::Switch {
            self.forward(node, fid, in_port);
            return;
        }
        let f = *self.frames.get(fid);
        let fl = &mut self.flows[f.flow as usize];
        match f.kind {
            FrameKind::Data => match fl.receivers.iter_mut().find(|r| r.host == node) {
                Some(r) => {
                    r.frames += 1;
                    r.bytes += f.size as u64;
                    self.c.data_delivered += 1;
                    self.frames.release(fid);
                }
                None => self.discard(fid), // not a receiver of this flow: cannot happen with built routes
            },
            FrameKind::Cnm => {
                self.frames.release(fid);
                self.c.cnm_delivered += 1;
                if let Some(rp) = &mut fl.rp {
                    let fb = match &mut fl.eqcn {
                        Some(e) => e.on_cnm(f.cnm.qntz_fb, f.cnm.cpid),
                        None => f.cnm.qntz_fb,
                    };
                    let act = rp.on_cnm(fb, self.now);
                    self.apply_timer(f.flow, act);
                    self.note_rate(f.flow);
                }
            }
        }
    }

    fn on_record(&mut self) {
        let now = self.now;
        const SAMPLE_BYTES: u64 = 20; // u32 index + f64 time + f64 value
        let after = (self.series.idx.len() + self.series.probes.len()) as u64 * SAMPLE_BYTES;
        if self.max_series_bytes > 0 && after > self.max_series_bytes {
            self.stopped_by = Some(format!("max_series_memory ({} B)", self.max_series_bytes));
            return;
        }
        let t = crate::time::to_secs(now);
        for (i, probe) in self.series.probes.iter().enumerate() {
            let v = match *probe {
                Probe::Cr(f) => self.flows[f as usize].rp.as_ref().map_or(0.0, |r| r.cr),
                Probe::Tr(f) => self.flows[f as usize].rp.as_ref().map_or(0.0, |r| r.tr),
                Probe::Queue(p) => self.ports[p as usize].queue.len() as f64,
                Probe::Rx(f, r) => self.flows[f as usize].receivers[r as usize].bytes as f64,
                Probe::Session(s) => self.senders[s as usize].cr.value(),
            };
            self.series.idx.push(i as u32);
            self.series.t.push(t);
            self.series.v.push(v);
        }
        let next = now + self.record_interval;
        if next <= self.duration {
            self.queue.push(next, Event::Record);
        }
    }

    fn on_window_start(&mut self) {
        let now = self.now;
        self.c_w0 = self.c;
        for p in &mut self.ports {
            p.c_w0 = p.c;
            p.q.reset(now);
            p.busy_window = 0;
        }
        for s in &mut self.senders {
            s.generated_w0 = s.generated;
            s.cr.reset(now);
        }
        for f in &mut self.flows {
            f.cr.reset(now);
            f.cnms_w0 = f.rp.as_ref().map_or(0, |r| r.cnms_received);
            f.injected_w0 = f.injected;
            f.dropped_w0 = f.dropped;
            f.replicated_w0 = f.replicated;
            for r in &mut f.receivers {
                r.bytes_w0 = r.bytes;
            }
        }
    }

    /// Frames physically in queues and on wires, counted independently of the counters.
    pub fn in_flight(&self) -> (u64, u64) {
        let (mut data, mut cnm) = (0, 0);
        let mut count = |fid: FrameId| match self.frames.get(fid).kind {
            FrameKind::Data => data += 1,
            FrameKind::Cnm => cnm += 1,
        };
        for p in &self.ports {
            p.queue.iter().for_each(|&f| count(f));
        }
        self.queue.for_each(|ev| {
            if let Event::Arrive { frame, .. } = ev {
                count(frame)
            }
        });
        (data, cnm)
    }
}
