//! Ports: one direction of a full-duplex link — the output queue (`Qdisc`) of `node` towards
//! `peer_node`, its transmitter (which flow control can hold per priority), and its protocol slots.

use super::frame::{FrameId, NodeId};
use super::node::NodeKind;
use super::qdisc::Qdisc;
use crate::core::stats::TimeAvg;
use crate::core::time::Time;
use crate::core::timer::TimerId;
use super::Slots;
use crate::core::ring::Ring;
use std::collections::VecDeque;

/// Counters of one output queue (whole run; `c_w0` holds the values at window start).
#[derive(Clone, Copy, Debug, Default)]
pub struct PortCounters {
    /// Data frames offered to the queue, and dropped by it.
    pub arrivals: u64,
    pub drops: u64,
    /// Feedback frames (CNMs) the port's CP sent.
    pub feedback_sent: u64,
    /// MAC-control frames (flow control) the port sent and received.
    pub ctrl_sent: u64,
    pub ctrl_received: u64,
}

/// A transmitter's hold per priority (flow control stops a class): held while `until[p] > now`.
#[derive(Clone, Copy, Debug, Default)]
pub struct TxHold {
    pub until: [Time; 8],
    /// Latest of `until`: nothing is held once `now` reaches it (the hot path's only check).
    pub latest: Time,
    /// Held time per priority, counting the current hold up to its scheduled end.
    acc: [Time; 8],
    acc_w0: [Time; 8],
}

impl TxHold {
    /// Bit p set = priority p held at `now`.
    #[inline]
    pub fn mask(&self, now: Time) -> u8 {
        if now >= self.latest {
            return 0;
        }
        (0..8).filter(|&p| self.until[p] > now).fold(0, |m, p| m | (1 << p))
    }

    /// Hold the priorities of `mask` until `end` (`end == now` resumes them).
    pub fn set(&mut self, mask: u8, now: Time, end: Time) {
        for p in (0..8).filter(|p| mask & (1 << p) != 0) {
            let counted = self.until[p].max(now) - now; // future part already in acc
            self.acc[p] = self.acc[p] + (end - now) - counted;
            self.until[p] = end;
        }
        self.latest = self.until.iter().copied().max().unwrap_or(0);
    }

    /// The earliest end of a hold still running at `now`.
    pub fn next_end(&self, now: Time) -> Option<Time> {
        self.until.iter().copied().filter(|&t| t > now).min()
    }

    /// Time priority `p` has been held up to `now`.
    pub fn held(&self, p: usize, now: Time) -> Time {
        self.acc[p] - (self.until[p].max(now) - now)
    }
    pub fn held_window(&self, p: usize, now: Time) -> Time {
        self.held(p, now) - self.acc_w0[p]
    }
    pub fn start_window(&mut self, now: Time) {
        self.acc_w0 = std::array::from_fn(|p| self.held(p, now));
    }
}

/// The flow-control slot of a switch port: the generator of its MAC-control frames towards this
/// port's neighbour, and its refresh timer.
#[derive(Clone, Debug)]
pub struct FlowControl<G> {
    pub gen: G,
    pub refresh_timer: TimerId,
}

/// A data frame on its way to a passive receiver (lazy delivery, `sim/switch.rs`): all that is
/// left to do is count it at `at`, so its flow and size are kept and the frame itself is freed.
#[derive(Clone, Copy, Debug)]
pub struct Delivery {
    pub at: Time,
    pub flow: u32,
    pub size: u32,
}

/// One direction of a full-duplex link: the output port of `node` towards `peer_node`.
pub struct Port<S: Slots> {
    pub node: NodeId,
    pub peer_node: NodeId,
    /// What `peer_node` is (a copy of its node's kind: a frame's arrival reads it beside
    /// `peer_node` and `peer_port`, without loading the node).
    pub peer_kind: NodeKind,
    /// The port of `peer_node` back towards `node`.
    pub peer_port: u32,
    pub rate_bps: u64,
    /// Wire time per byte when the rate divides 8·10^12 exactly (0 otherwise): a multiply instead
    /// of a 128-bit division per frame.
    pub ps_per_byte: u64,
    pub delay: Time,
    pub overhead: u32,
    /// Random loss of data frames on the wire, with its own stream (None: lossless).
    pub loss: Option<(f64, crate::core::rng::Rng)>,
    /// Frames waiting (the frame on the wire is not in the queue).
    pub qdisc: Qdisc,
    /// MAC control frames waiting: sent before any data, never held, outside the capacity.
    pub ctrl: VecDeque<FrameId>,
    /// The transmitter is busy until this time; a TxDone event is scheduled.
    pub busy_until: Time,
    pub txdone_pending: bool,
    /// The peer is a host and the wire loses nothing: data frames of passive flows are delivered
    /// without an `Arrive` event, from `deliveries`, in arrival order.
    pub lazy_rx: bool,
    pub deliveries: Ring<Delivery>,
    pub hold: TxHold,
    /// Fires when a received hold runs out.
    pub hold_timer: TimerId,
    /// Senders of this host waiting for room in this queue (back-pressure).
    pub blocked: Vec<u32>,
    pub cp: Option<S::Cp>,
    pub fc: Option<FlowControl<S::FcGen>>,
    /// Active queue management in front of the drop-tail check.
    pub aqm: Option<S::Aqm>,
    /// A router's measurements of this port's link, stamped into passing frames.
    pub meter: Option<S::Meter>,
    pub c: PortCounters,
    pub c_w0: PortCounters,
    /// Queued bytes (all classes), time-weighted over the window; reported in frames of
    /// `simulation.frame_size` (bytes ÷ frame_size), the unit of the thresholds given in frames.
    pub q: TimeAvg,
    pub busy_window: Time,
    /// Largest queue seen over the whole run: frames counted physically (as a capacity in frames
    /// counts them) and bytes (capacity invariant).
    pub peak_frames: u64,
    pub peak_bytes: u64,
    /// An oscillating service rate and its timer.
    pub osc: Option<crate::traffic::oscillation::Oscillation>,
    pub osc_timer: TimerId,
}

impl<S: Slots> Port<S> {
    /// Serve at `rate_bps` from the next frame on (an oscillating port).
    pub fn set_rate(&mut self, rate_bps: u64) {
        self.rate_bps = rate_bps;
        let ps = 8 * crate::core::time::PS_PER_S;
        self.ps_per_byte = if ps.is_multiple_of(rate_bps) { ps / rate_bps } else { 0 };
    }

    /// Wire time of a frame of `size` bytes, overhead included.
    #[inline]
    pub fn wire_time(&self, size: u32) -> Time {
        let bytes = (size + self.overhead) as u64;
        if self.ps_per_byte > 0 {
            bytes * self.ps_per_byte
        } else {
            crate::core::time::tx_time(bytes, self.rate_bps)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_time_follows_refreshes_and_release() {
        let mut s = TxHold::default();
        assert_eq!(s.mask(0), 0);
        s.set(1 << 3, 10, 110); // held 10..110
        assert_eq!((s.mask(50), s.mask(110)), (1 << 3, 0));
        assert_eq!(s.held(3, 50), 40);
        s.set(1 << 3, 60, 160); // refresh at 60: now until 160
        assert_eq!(s.held(3, 100), 90);
        s.set(1 << 3, 100, 100); // released at 100
        assert_eq!((s.held(3, 100), s.held(3, 500), s.mask(100)), (90, 90, 0));
        s.start_window(200);
        s.set(0xFF, 300, 350);
        assert_eq!((s.held(3, 400), s.held_window(3, 400), s.held(0, 400)), (140, 50, 50));
        assert_eq!(s.next_end(320), Some(350));
    }
}
