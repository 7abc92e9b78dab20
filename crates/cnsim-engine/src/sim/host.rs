//! Hosts: traffic generators, the rate limiter in front of a sender's copies (paced by its
//! reaction points), back-pressure from a full output queue, and delivery to receivers and RPs.

use super::{Event, Sim};
use crate::core::time::pace_time;
use crate::net::frame::{Frame, FrameId, FrameKind, NONE};
use crate::core::time::Time;
use crate::slots::TimerAction;

/// `Sender::next_allowed` of a limiter held at rate 0.
pub const STALLED: Time = Time::MAX;

/// `Sender::deferred` when the next generation is queued as an event (or there is none).
pub const NOT_DEFERRED: Time = Time::MAX;

impl Sim {
    pub(crate) fn on_app_tick(&mut self, s: u32) {
        let now = self.now;
        if now >= self.senders[s as usize].stop {
            return;
        }
        let snd = &self.senders[s as usize];
        let next = if snd.buf.is_empty() && snd.buf_cap > 0 && !snd.release_pending && !snd.blocked && !snd.closed_loop && now >= snd.next_allowed {
            // The frame would enter the empty buffer and leave it at once: it skips the buffer
            // (the same as `generate` then `release`, without the round trip).
            let next = self.count_generation(s, now);
            if self.blocked_by_port(s) {
                self.senders[s as usize].buf.push_back(now);
                self.limited += 1;
            } else {
                self.send(s, now);
            }
            next
        } else {
            let next = self.generate(s, now);
            let snd = &mut self.senders[s as usize];
            if !snd.release_pending && !snd.blocked && snd.next_allowed != STALLED {
                if now >= snd.next_allowed {
                    self.release(s);
                } else {
                    snd.release_pending = true;
                    let at = snd.next_allowed;
                    self.queue.push_slow(at, Event::Release { sender: s });
                }
            }
            next
        };
        if let Some(next) = next {
            let snd = &mut self.senders[s as usize];
            if snd.release_pending && !snd.closed_loop {
                snd.deferred = next; // the queued release will replay it (`catch_up`)
            } else {
                self.queue.push_slow_run(next, Event::AppTick { sender: s });
            }
        }
    }

    /// The traffic process makes one frame at `t`: count it and put it in the limiter's buffer, or
    /// drop it at the source when the buffer is full. Returns the next generation time, if any.
    #[inline(always)]
    fn generate(&mut self, s: u32, t: Time) -> Option<Time> {
        let next = self.count_generation(s, t);
        let snd = &mut self.senders[s as usize];
        if snd.admit(t) {
            self.limited += 1;
        } else {
            self.c.data_source_dropped += snd.flows.len() as u64;
            if self.tap.is_some() {
                self.tap_limiter_drop(s, t);
            }
        }
        next
    }

    /// The trace records a frame of sender `s` made at `t` and dropped at its full limiter.
    #[inline(never)]
    fn tap_limiter_drop(&mut self, s: u32, t: Time) {
        let snd = &self.senders[s as usize];
        let (host, flow) = (snd.host, if snd.flows.is_empty() { NONE } else { snd.flows.start });
        self.tap_drop_at(t, host, NONE, None, flow, crate::tap::trace::LIMITER_BUFFER);
    }

    /// Count sender `s`'s generation at `t`; returns the next generation time, if any.
    #[inline(always)]
    fn count_generation(&mut self, s: u32, t: Time) -> Option<Time> {
        let snd = &mut self.senders[s as usize];
        self.c.data_generated += snd.flows.len() as u64; // one per copy the sender will send
        snd.count_generation(t)
    }

    /// Replay sender `s`'s deferred generations up to `t` (inclusive: a frame made at the instant
    /// of a release is there for it). Cheap when nothing is due; called before every read of the
    /// buffer and before the counts are read.
    #[inline]
    pub(crate) fn catch_up(&mut self, s: u32, t: Time) {
        // `generate` for each due generation, the sender looked up once (again only after a
        // traced drop): a throttled source replays about one generation per release.
        let mut snd = &mut self.senders[s as usize];
        let copies = snd.flows.len() as u64;
        while snd.deferred <= t {
            let at = snd.deferred;
            self.c.data_generated += copies;
            snd.deferred = snd.count_generation(at).unwrap_or(NOT_DEFERRED);
            if snd.admit(at) {
                self.limited += 1;
            } else {
                self.c.data_source_dropped += copies;
                if self.tap.is_some() {
                    self.tap_limiter_drop(s, at);
                    snd = &mut self.senders[s as usize];
                }
            }
        }
    }

    /// Everything handled lazily caught up to `t` (before counts are read: window start, record,
    /// end of a run): every sender's generations and every port's deliveries.
    pub(crate) fn catch_up_all(&mut self, t: Time) {
        for s in 0..self.senders.len() as u32 {
            self.catch_up(s, t);
        }
        self.deliver_all(t);
    }

    /// A queued release fires: replay the generations it was standing in for, release, and when
    /// no further release is queued, queue the next generation again.
    pub(crate) fn on_release(&mut self, s: u32) {
        let now = self.now;
        self.catch_up(s, now);
        self.senders[s as usize].release_pending = false;
        self.release(s);
        let snd = &mut self.senders[s as usize];
        if !snd.release_pending && snd.deferred != NOT_DEFERRED {
            let next = std::mem::replace(&mut snd.deferred, NOT_DEFERRED);
            self.queue.push_slow_run(next, Event::AppTick { sender: s });
        }
    }

    /// Would every copy find room in its first-hop queue? If not, wait for the port (a host
    /// blocks rather than drop: Jiang & Jain 2007 §IV, "the source is eventually blocked").
    #[inline(always)]
    pub(crate) fn blocked_by_port(&mut self, s: u32) -> bool {
        let snd = &self.senders[s as usize];
        // The common case first: one copy, and nothing waits at its port.
        if snd.flows.len() == 1 && self.ports[self.flows[snd.flows.start as usize].first_port as usize].qdisc.is_empty() {
            return false;
        }
        self.blocked_by_any_port(s)
    }

    #[inline(never)]
    fn blocked_by_any_port(&mut self, s: u32) -> bool {
        let snd = &self.senders[s as usize];
        let copies = snd.flows.len() as u64;
        for f in snd.flows.clone() {
            let p = self.flows[f as usize].first_port;
            let port = &self.ports[p as usize];
            if port.qdisc.is_empty() {
                continue; // the common case: nothing waits at the source's port
            }
            if port.qdisc.room(snd.prio, snd.frame) < copies {
                self.ports[p as usize].blocked.push(s);
                self.senders[s as usize].blocked = true;
                return true;
            }
        }
        false
    }

    /// The rate limiter lets the oldest waiting frame go: one copy per flow of the sender.
    pub(crate) fn release(&mut self, s: u32) {
        if self.senders[s as usize].closed_loop {
            return self.transport_release(s);
        }
        if self.senders[s as usize].buf.is_empty() || self.blocked_by_port(s) {
            return;
        }
        let Some(created) = self.senders[s as usize].buf.pop_front() else { return };
        self.limited -= 1;
        self.send(s, created);
    }

    /// One copy per flow of sender `s` of the frame made at `created` leaves now; the limiter
    /// then waits for the rate its RPs allow.
    #[inline(always)]
    fn send(&mut self, s: u32, created: Time) {
        let now = self.now;
        let snd = &self.senders[s as usize];
        let (host, size, prio, flows, empty) = (snd.host, snd.frame, snd.prio, snd.flows.clone(), snd.buf.is_empty());
        let mut rate = f64::INFINITY;
        for f in flows {
            let fl = &mut self.flows[f as usize];
            let mut frame = Frame::new(FrameKind::Data, size, host, fl.dst, f, created);
            frame.prio = prio;
            frame.seq = fl.injected as u32; // per-flow sequence (receivers measure loss from gaps)
            if let Some(rp) = &mut fl.rp {
                rp.stamp(&mut frame, now);
            }
            if let Some(s) = &mut fl.rf {
                s.stamp(&mut frame);
            }
            fl.injected += 1;
            self.c.data_injected += 1;
            let out = fl.src_port;
            let fid = self.frames.alloc(frame);
            if out != NONE {
                self.enqueue(out, fid); // the route `forward` would look up, made once at build
            } else {
                self.forward(host, fid, NONE);
            }
            let fl = &mut self.flows[f as usize];
            if let Some(rp) = &mut fl.rp {
                let sent = rp.on_sent(size, empty, &mut fl.rp_rng);
                if let Some(r) = sent.limit {
                    rate = rate.min(r);
                }
                let pc = if sent.path_control_due { rp.take_path_control(host, fl.dst, f, prio, now) } else { None };
                self.apply_timer(f, sent.timer);
                if let Some(p) = pc {
                    self.send_path_control(host, p);
                }
                if sent.rate_changed {
                    self.note_rate(f);
                }
            }
        }
        let snd = &mut self.senders[s as usize];
        snd.next_allowed = match rate {
            r if r.is_infinite() => now,
            r if r > 0.0 => {
                if r != snd.pace_rate {
                    snd.pace_rate = r;
                    snd.pace = pace_time(size as u64, r);
                }
                now + snd.pace
            }
            _ => STALLED, // held at rate 0 (a BCN STOP) until an RP raises the rate
        };
        if !snd.buf.is_empty() && snd.next_allowed != STALLED {
            snd.release_pending = true;
            let at = snd.next_allowed.max(now);
            self.queue.push_slow(at, Event::Release { sender: s });
        }
    }

    /// Room appeared in host port `port`: its blocked senders may release again.
    pub(crate) fn wake_senders(&mut self, port: u32) {
        let now = self.now;
        for s in std::mem::take(&mut self.ports[port as usize].blocked) {
            let snd = &mut self.senders[s as usize];
            snd.blocked = false;
            if !snd.release_pending && !snd.buf.is_empty() {
                snd.release_pending = true;
                let at = snd.next_allowed.max(now);
                self.queue.push_slow(at, Event::Release { sender: s });
            }
        }
    }

    /// Flow `f`'s CR may have changed: update its statistics and its session's rate (min over the
    /// session's RPs), and wake its limiter if the rate that paces it left 0.
    pub(crate) fn note_rate(&mut self, f: u32) {
        if self.tap.is_some() {
            self.tap_rp(f);
        }
        let now = self.now;
        if self.flows[f as usize].note_cr(now).is_none() {
            return;
        }
        let min_rate = |flows: &std::ops::Range<u32>| {
            self.flows[flows.start as usize..flows.end as usize]
                .iter()
                .filter_map(|fl| fl.rp.as_ref().map(|r| r.rate()))
                .fold(f64::INFINITY, f64::min)
        };
        let sess = &self.sessions[self.flows[f as usize].session as usize];
        let cr = min_rate(&sess.flows);
        let s = self.flows[f as usize].sender;
        let paced = min_rate(&self.senders[s as usize].flows);
        let sess = &mut self.sessions[self.flows[f as usize].session as usize];
        if cr != sess.cr.value() {
            sess.cr.set(now, cr);
        }
        let snd = &mut self.senders[s as usize];
        if snd.next_allowed == STALLED && paced > 0.0 {
            // The rate left 0: the limiter may send again (a TCP source has no buffer here but
            // may well have data: let it look).
            snd.next_allowed = now;
            if (snd.closed_loop || !snd.buf.is_empty()) && !snd.release_pending && !snd.blocked {
                snd.release_pending = true;
                self.queue.push_slow(now, Event::Release { sender: s });
            }
        }
    }

    /// Carry out an RP's timer action (most frames' action is none: inline, the rest out of line).
    #[inline(always)]
    pub(crate) fn apply_timer(&mut self, f: u32, act: TimerAction) {
        if !matches!(act, TimerAction::None) {
            self.apply_timer_action(f, act);
        }
    }

    #[inline(never)]
    fn apply_timer_action(&mut self, f: u32, act: TimerAction) {
        let id = self.flows[f as usize].timer;
        match act {
            TimerAction::None => {}
            TimerAction::Cancel => self.timers.cancel(id),
            TimerAction::Arm(t) => self.arm(id, t),
        }
    }

    pub(crate) fn on_rp_timer(&mut self, f: u32) {
        let now = self.now;
        self.catch_up(self.flows[f as usize].sender, now);
        let fl = &mut self.flows[f as usize];
        let snd = &self.senders[fl.sender as usize];
        let (empty, prio, src) = (snd.buf.is_empty(), snd.prio, fl.src);
        if let Some(rp) = &mut fl.rp {
            let act = rp.on_timer(now, empty, &mut fl.rp_rng);
            let pc = rp.take_path_control(src, fl.dst, f, prio, now);
            self.apply_timer(f, act);
            self.note_rate(f);
            if let Some(p) = pc {
                self.send_path_control(src, p);
            }
        }
    }

    /// A reaction point's path control frame leaves its host.
    fn send_path_control(&mut self, host: u32, frame: Frame) {
        self.c.path_control_sent += 1;
        let id = self.frames.alloc(frame);
        self.forward(host, id, NONE);
    }

    /// A feedback frame is handed to its flow's RP (on arrival, or after `feedback_latency`).
    /// The flow whose RP regulates flow `f`: itself, or for TCP connections sharing their
    /// source's regulator the sender's first connection.
    fn regulator(&self, f: u32) -> u32 {
        let fl = &self.flows[f as usize];
        if fl.rp.is_some() || fl.transport.is_none() { f } else { self.senders[fl.sender as usize].flows.start }
    }

    pub(crate) fn on_feedback(&mut self, fid: FrameId) {
        let f = *self.frames.get(fid);
        self.frames.release(fid);
        let r = self.regulator(f.flow);
        let fl = &mut self.flows[r as usize];
        if let Some(rp) = &mut fl.rp {
            let act = rp.on_feedback(&f, self.now, &mut fl.rp_rng);
            self.apply_timer(r, act);
            self.note_rate(r);
        }
    }

    /// A receiver's notification point answered a data frame: its feedback leaves `node`.
    #[inline(never)]
    fn send_feedback(&mut self, node: u32, fb: Frame) {
        self.c.feedback(fb.proto, true);
        if self.tap.is_some() {
            self.tap_np_sent(node, &fb);
        }
        let id = self.frames.alloc(fb);
        self.forward(node, id, NONE);
    }

    /// A data frame of `size` bytes of flow `fl` reached its receiver at `node` at time `at`: count
    /// it, and complete an open-loop transfer with its last byte (None: `node` is no receiver of
    /// the flow).
    #[inline(always)]
    pub(crate) fn count_delivery<'a>(fl: &'a mut crate::registry::Flow, c: &mut super::Counters, node: u32, size: u32, at: Time) -> Option<&'a mut crate::registry::Receiver> {
        let r = fl.receivers.iter_mut().find(|r| r.host == node)?;
        r.frames += 1;
        r.bytes += size as u64;
        c.data_delivered += 1;
        if r.bytes >= fl.complete_bytes {
            fl.completed = fl.completed.min(at);
        }
        Some(r)
    }

    /// A data, feedback or ACK frame reached host `node`.
    pub(crate) fn on_host_arrive(&mut self, node: u32, fid: FrameId) {
        let f = *self.frames.get(fid);
        match f.kind {
            FrameKind::Data => {
                let fl = &mut self.flows[f.flow as usize];
                let Some(r) = Self::count_delivery(fl, &mut self.c, node, f.size, self.now) else {
                    return self.discard(fid); // not a receiver of this flow: cannot happen with built routes
                };
                let endpoint = r.endpoint;
                if let Some(t) = &mut r.rf {
                    t.on_frame(&f, self.now);
                }
                let feedback = r.np.as_mut().and_then(|np| np.on_data(&f, node, self.now));
                let closed_loop = fl.transport.is_some();
                if closed_loop {
                    // The frame's telemetry, read while its slot is still its own.
                    if let Some(t) = &mut self.telemetry {
                        t.on_data(fid, f.flow);
                    }
                }
                self.frames.release(fid);
                if let Some(fb) = feedback {
                    self.send_feedback(node, fb);
                }
                if closed_loop {
                    self.on_transport_data(node, f.flow, &f);
                }
                if endpoint != NONE {
                    self.on_endpoint_data(endpoint, f.flow, node, &f);
                }
            }
            FrameKind::Feedback => {
                if self.tap.is_some() {
                    self.tap_feedback(node, &f);
                }
                self.c.feedback(f.proto, false);
                let lat = self.flows[f.flow as usize].feedback_latency;
                if lat > 0 {
                    self.queue.push(self.now + lat, Event::FeedbackDue { frame: fid });
                } else {
                    self.on_feedback(fid);
                }
            }
            FrameKind::Ack => self.on_transport_ack(fid),
            FrameKind::MacControl => self.discard(fid), // consumed on arrival; never routed here
            FrameKind::PathControl => {
                self.frames.release(fid);
                match crate::registry::rp::path_control_at_destination(&f, node, self.now) {
                    Some(ans) => {
                        self.c.path_control_answered += 1;
                        self.c.feedback(ans.proto, true);
                        let id = self.frames.alloc(ans);
                        self.forward(node, id, NONE);
                    }
                    None => self.c.path_control_unanswered += 1,
                }
            }
        }
    }
}
