//! HPCC's sender: a window `W` of bytes in flight and a pacing rate `R = W/T` (Li et al. 2019
//! §3.2: "HPCC is a window-based CC scheme … the sender also paces at rate W/T"), set by the
//! control law (`control.rs`) on each acknowledgement. Loss recovery is go-back-N, as RoCE NICs
//! do (the artifact's `L2_BACK_TO_ZERO 0`): a NACK or the retransmission timeout rewinds the next
//! sequence number to the first unacknowledged byte. Sequence numbers are byte offsets, 64-bit
//! here and their low 32 bits on the wire.

use super::control::Control;
use super::Params;
use crate::core::time::{pace_time, Time};
use crate::net::telemetry::Hop;

/// One data frame the sender may send now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Its first byte's offset.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
}

#[derive(Clone, Debug)]
pub struct HpccSender {
    pub cc: Control,
    /// Bytes the application has handed over (`u64::MAX`: always more).
    pub app_bytes: u64,
    /// Next byte to send and first unacknowledged byte.
    pub snd_nxt: u64,
    pub snd_una: u64,
    /// Highest byte ever sent (retransmissions below it are counted as such).
    pub high: u64,
    /// The pacer lets the next frame go at this time.
    pub next_at: Time,
    /// Size of the last frame sent (to re-pace it when the rate changes).
    last_size: u32,
    last_sent: Time,
    /// The retransmission deadline while bytes are in flight.
    rto_at: Option<Time>,
    pub retransmitted_bytes: u64,
    pub timeouts: u64,
    pub nacks: u64,
}

impl HpccSender {
    pub fn new(p: Params) -> Self {
        HpccSender { cc: Control::new(p), app_bytes: 0, snd_nxt: 0, snd_una: 0, high: 0, next_at: 0, last_size: 0, last_sent: 0, rto_at: None, retransmitted_bytes: 0, timeouts: 0, nacks: 0 }
    }

    /// The application hands over `bytes` more.
    pub fn push(&mut self, bytes: u64) {
        self.app_bytes = self.app_bytes.saturating_add(bytes);
    }

    /// Bytes in flight.
    pub fn inflight(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    /// The frame that may go now: data left, the window open (`inflight < W`: a frame may take the
    /// window past `W`, as the artifact's window check does) and the pacer's time come.
    pub fn poll_send(&mut self, now: Time) -> Option<Segment> {
        let p = &self.cc.p;
        if self.snd_nxt >= self.app_bytes || now < self.next_at || self.inflight() as f64 >= self.cc.w {
            return None;
        }
        let len = (self.app_bytes - self.snd_nxt).min(p.mss as u64) as u32;
        let seg = Segment { seq: self.snd_nxt, len };
        if self.snd_nxt < self.high {
            self.retransmitted_bytes += len as u64;
        }
        self.snd_nxt += len as u64;
        self.high = self.high.max(self.snd_nxt);
        let size = len + p.header_bytes;
        self.last_size = size;
        self.last_sent = now;
        self.next_at = now + pace_time(size as u64, self.cc.rate_bps());
        if self.rto_at.is_none() {
            self.rto_at = Some(now + p.rto);
        }
        Some(seg)
    }

    /// When the pacer next lets a frame go, if one is waiting for it (None: nothing to send, or
    /// the window is closed and an acknowledgement must open it); asked when `poll_send` gave none.
    pub fn pacing_timer(&self) -> Option<Time> {
        let waiting = self.snd_nxt < self.app_bytes && (self.inflight() as f64) < self.cc.w;
        waiting.then_some(self.next_at)
    }

    /// An acknowledgement of every byte below `ack` (`nack`: the receiver asks for `ack` again)
    /// echoing `hops` arrived.
    pub fn on_ack(&mut self, ack: u64, nack: bool, hops: &[Hop], now: Time) {
        if ack > self.snd_una && ack <= self.high {
            self.snd_una = ack;
            self.snd_nxt = self.snd_nxt.max(ack);
            self.rto_at = (self.snd_una < self.snd_nxt).then(|| now + self.cc.p.rto);
        }
        if nack && ack == self.snd_una && self.snd_nxt > ack {
            self.nacks += 1;
            self.snd_nxt = ack;
        }
        let before = self.cc.rate_bps();
        if self.cc.on_ack(ack, hops, self.snd_nxt) && self.last_size > 0 {
            let r = self.cc.rate_bps();
            if r != before {
                // The frame last sent is paced at the new rate (the artifact's `ChangeRate`).
                self.next_at = self.last_sent + pace_time(self.last_size as u64, r);
            }
        }
    }

    /// The retransmission deadline (None: nothing in flight).
    pub fn rto_timer(&self) -> Option<Time> {
        self.rto_at
    }

    /// The retransmission timer fired: go back to the first unacknowledged byte.
    pub fn on_timeout(&mut self, now: Time) {
        if self.snd_una >= self.snd_nxt {
            self.rto_at = None;
            return;
        }
        self.timeouts += 1;
        self.snd_nxt = self.snd_una;
        self.next_at = now;
        self.rto_at = Some(now + self.cc.p.rto);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Params {
        Params { mss: 1000, header_bytes: 100, ..Params::test() }
    }

    #[test]
    fn the_window_and_the_pacer_both_hold_frames_back() {
        let p = params();
        let mut s = HpccSender::new(p);
        s.push(10_000);
        // W_init = 100 Gb/s × 10 µs = 125 000 B: the pacer, at line rate, spaces 1100-B frames
        // by 88 ns.
        assert_eq!(s.poll_send(0), Some(Segment { seq: 0, len: 1000 }));
        assert_eq!(s.poll_send(87_999), None);
        assert_eq!(s.pacing_timer(), Some(88_000));
        assert_eq!(s.poll_send(88_000), Some(Segment { seq: 1000, len: 1000 }));
        s.cc.w = 1500.0; // 2000 B in flight: the window is closed
        assert_eq!(s.poll_send(1_000_000), None);
        assert_eq!(s.pacing_timer(), None);
    }

    #[test]
    fn a_nack_and_a_timeout_go_back_to_the_first_unacknowledged_byte() {
        let mut s = HpccSender::new(params());
        s.push(3000);
        for t in [0, 100_000, 200_000] {
            s.poll_send(t).expect("paced");
        }
        s.on_ack(1000, false, &[], 300_000);
        s.on_ack(1000, true, &[], 300_000);
        assert_eq!((s.snd_una, s.snd_nxt, s.nacks), (1000, 1000, 1));
        assert_eq!(s.poll_send(400_000), Some(Segment { seq: 1000, len: 1000 }));
        assert_eq!(s.retransmitted_bytes, 1000);
        let at = s.rto_timer().expect("bytes in flight");
        s.on_timeout(at);
        assert_eq!((s.snd_nxt, s.timeouts), (1000, 1));
        s.on_ack(3000, false, &[], at + 1);
        assert_eq!((s.inflight(), s.rto_timer()), (0, None));
    }
}
