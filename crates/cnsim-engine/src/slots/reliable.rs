//! Reliable delivery a window- or rate-based transport can share: a connection's segments, their
//! cumulative acknowledgement and go-back-N retransmission after a timeout, as RoCE NICs recover
//! (a receiver keeps only in-order segments and acknowledges the next one it expects; the sender
//! sends again from the first unacknowledged one when its timer runs out). Sans-IO: the transport
//! asks it which segment goes next and tells it what was acknowledged; it decides nothing about
//! when a segment may go (the transport's window or rate does).
//!
//! Segments are numbered from 0 and carry `mss` payload bytes (the last of a transfer fewer); the
//! application's bytes are handed over with `push`.

use crate::core::time::Time;

/// Both ends' delivery state of one connection.
#[derive(Clone, Debug)]
pub struct Reliable {
    /// Payload bytes per full segment.
    pub mss: u32,
    /// Retransmission timeout (fixed: no backoff, as RoCE's NIC timers).
    pub rto: Time,
    /// Bytes the application has handed over (saturating: a bulk application hands over `u64::MAX`).
    pushed: u64,
    /// The next segment to send and the first not acknowledged.
    next: u32,
    una: u32,
    /// One past the highest segment ever sent (a segment below it sent again is a retransmission).
    high: u32,
    /// When the retransmission timer runs out (None: nothing in flight).
    rto_at: Option<Time>,
    /// The receiver: the next segment it expects, and the payload bytes it delivered in order.
    expected: u32,
    delivered: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
}

impl Reliable {
    pub fn new(mss: u32, rto: Time) -> Self {
        Reliable { mss: mss.max(1), rto, pushed: 0, next: 0, una: 0, high: 0, rto_at: None, expected: 0, delivered: 0, retransmissions: 0, timeouts: 0 }
    }

    /// The application hands over `bytes` more.
    pub fn push(&mut self, bytes: u64) {
        self.pushed = self.pushed.saturating_add(bytes);
    }

    /// Segments the application's bytes make (at most `u32::MAX`).
    fn segments(&self) -> u32 {
        u32::try_from(self.pushed.div_ceil(self.mss as u64)).unwrap_or(u32::MAX)
    }

    /// Payload bytes of segment `seq`.
    pub fn payload(&self, seq: u32) -> u32 {
        let start = seq as u64 * self.mss as u64;
        self.pushed.saturating_sub(start).min(self.mss as u64) as u32
    }

    /// Whether a segment is waiting to be sent.
    pub fn can_send(&self) -> bool {
        self.next < self.segments()
    }

    /// Segments sent and not yet acknowledged.
    pub fn in_flight(&self) -> u32 {
        self.next - self.una
    }

    /// The next segment goes at `now`: its number and payload bytes (call only when `can_send`).
    pub fn send(&mut self, now: Time) -> (u32, u32) {
        let seq = self.next;
        self.next += 1;
        if seq < self.high {
            self.retransmissions += 1;
        }
        self.high = self.high.max(self.next);
        self.rto_at.get_or_insert(now.saturating_add(self.rto));
        (seq, self.payload(seq))
    }

    /// An acknowledgement saying the receiver expects segment `next_expected` arrived at `now`:
    /// the payload bytes it newly acknowledges.
    pub fn on_ack(&mut self, next_expected: u32, now: Time) -> u64 {
        if next_expected <= self.una || next_expected > self.high {
            return 0;
        }
        let before = self.bytes_acked();
        self.una = next_expected;
        self.next = self.next.max(self.una);
        self.rto_at = (self.una < self.high).then(|| now.saturating_add(self.rto));
        self.bytes_acked() - before
    }

    /// The retransmission timer ran out at `now`: send again from the first unacknowledged segment.
    pub fn on_timeout(&mut self, now: Time) {
        if self.una >= self.high {
            self.rto_at = None;
            return;
        }
        self.timeouts += 1;
        self.next = self.una;
        self.rto_at = Some(now.saturating_add(self.rto));
    }

    /// When the retransmission timer runs out.
    pub fn rto_at(&self) -> Option<Time> {
        self.rto_at
    }

    /// Payload bytes acknowledged.
    pub fn bytes_acked(&self) -> u64 {
        (self.una as u64 * self.mss as u64).min(self.pushed)
    }

    /// The receiver: segment `seq` with `len` payload bytes arrived; whether it was the one expected
    /// (then it is delivered). Either way the acknowledgement says `expected()`.
    pub fn receive(&mut self, seq: u32, len: u32) -> bool {
        if seq != self.expected {
            return false;
        }
        self.expected += 1;
        self.delivered += len as u64;
        true
    }

    /// The next segment the receiver expects (what its acknowledgements carry).
    pub fn expected(&self) -> u32 {
        self.expected
    }

    /// Payload bytes the receiver delivered in order.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_is_cut_into_segments_the_last_one_short() {
        let mut r = Reliable::new(1000, 50);
        r.push(2500);
        assert_eq!((r.segments(), r.payload(0), r.payload(2), r.payload(3)), (3, 1000, 500, 0));
        let sent: Vec<_> = std::iter::from_fn(|| r.can_send().then(|| r.send(7))).collect();
        assert_eq!(sent, vec![(0, 1000), (1, 1000), (2, 500)]);
        assert_eq!((r.in_flight(), r.rto_at()), (3, Some(57)));
        assert_eq!(r.on_ack(2, 20), 2000);
        assert_eq!(r.rto_at(), Some(70)); // restarted by progress
        assert_eq!(r.on_ack(3, 30), 500);
        assert_eq!((r.bytes_acked(), r.rto_at(), r.in_flight()), (2500, None, 0));
    }

    #[test]
    fn a_timeout_goes_back_to_the_first_unacknowledged_segment() {
        let mut r = Reliable::new(100, 10);
        r.push(1000);
        for _ in 0..4 {
            r.send(0);
        }
        assert_eq!(r.on_ack(1, 5), 100);
        r.on_timeout(15);
        assert_eq!((r.timeouts, r.in_flight(), r.rto_at()), (1, 0, Some(25)));
        assert_eq!(r.send(15), (1, 100));
        assert_eq!(r.retransmissions, 1);
        // An old acknowledgement moves nothing; one beyond what was sent is ignored.
        assert_eq!((r.on_ack(1, 16), r.on_ack(9, 16)), (0, 0));
    }

    #[test]
    fn the_receiver_keeps_only_in_order_segments() {
        let mut r = Reliable::new(100, 10);
        assert!(r.receive(0, 100));
        assert!(!r.receive(2, 100)); // a gap: dropped, the acknowledgement still asks for 1
        assert_eq!((r.expected(), r.delivered()), (1, 100));
        assert!(r.receive(1, 60));
        assert_eq!((r.expected(), r.delivered()), (2, 160));
    }
}
