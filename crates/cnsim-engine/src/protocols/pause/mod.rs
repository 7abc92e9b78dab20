//! Link-level flow control: IEEE 802.3x PAUSE and 802.1Qbb PFC (docs/protocols.md §6; Jiang & Jain 2007 §IV).
//!
//! A switch port whose buffered load crosses XOFF sends a PAUSE frame (quanta in units of 512 bit
//! times) to the neighbour at the other end of that port's link, re-sends it every `refresh` while
//! the load stays above XON, and sends XON (pause time 0) once the load falls to XON or below. The
//! neighbour's transmitter finishes the frame in flight, then holds the paused classes until the
//! pause time runs out or XON arrives. PAUSE acts on the whole link; PFC on each priority class.
//!
//! What "load" is depends on the trigger:
//! - `Ingress` (default; as real switches do it): the bytes buffered in this switch that entered
//!   through this port, per class — each upstream neighbour is paused for its own backlog, and
//!   the buffer above XOFF is the headroom that absorbs what is still in flight;
//! - `Egress` (Jiang & Jain 2007 §IV: "when the queue length is larger than Q_st, the switch sends
//!   PAUSE/OFF to ask all its uplink neighbors to stop"): an output queue above XOFF pauses every
//!   other port's neighbour; the port's load is the number of such congested output queues.
//!
//! Sans-IO: `PauseGen` takes load changes and refresh ticks and returns the frames to send;
//! `pause_time` turns received quanta into a duration. The engine owns ports, timers and frames.

pub mod slot;
pub mod spec;
pub mod wire;
mod register;
mod summary;
pub use register::PROTOCOL;

use crate::core::time::{tx_time, Time};
use crate::net::frame::{Dest, Frame, FrameKind, NodeId, NONE};
use crate::slots::Proto;

/// 802.3 Annex 31B: a quantum is 512 bit times at the link's rate.
pub const QUANTUM_BITS: u64 = 512;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    Ingress,
    Egress,
}

#[derive(Clone, Copy, Debug)]
pub struct PauseCfg {
    /// Per-priority (802.1Qbb PFC) rather than whole-link (802.3x PAUSE).
    pub pfc: bool,
    pub trigger: Trigger,
    /// Load thresholds in bytes: XOFF when above `xoff`, XON at or below `xon`.
    pub xoff: u64,
    pub xon: u64,
    /// Pause time sent with XOFF, in quanta (0xFFFF, the usual XOFF value, by default).
    pub quanta: u16,
    /// Re-send XOFF this often while congested; None = half the pause time at the port's rate.
    pub refresh: Option<Time>,
    /// PFC: the priorities that are flow-controlled (bit p = priority p); others are never paused.
    pub classes: u8,
    /// Size of a PAUSE frame on the wire (64 B, a minimum Ethernet frame).
    pub frame_size: u32,
}

impl PauseCfg {
    /// Whether the load is counted per priority class (PFC) rather than for the whole link.
    pub fn per_class(&self) -> bool {
        self.pfc
    }
}

/// The duration a received `quanta` pauses a transmitter running at `rate_bps`.
pub fn pause_time(quanta: u16, rate_bps: u64) -> Time {
    tx_time(quanta as u64 * QUANTUM_BITS / 8, rate_bps)
}

/// A PAUSE/PFC message: the classes it acts on (bit p = priority p; 0xFF for 802.3x PAUSE) and
/// the pause time in quanta (0 = XON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseMsg {
    pub mask: u8,
    pub quanta: u16,
}

impl PauseMsg {
    /// As a MAC control frame from `node` (tag layout: [mask, quanta, 0, 0]).
    pub fn frame(self, cfg: &PauseCfg, node: NodeId, now: Time) -> Frame {
        let mut f = Frame::new(FrameKind::MacControl, cfg.frame_size, node, Dest::Node(NONE), NONE, now);
        f.proto = Proto::Pause;
        f.tag = [self.mask as u32, self.quanta as u32, 0, 0];
        f
    }
    /// Read a received PAUSE frame.
    pub fn read(f: &Frame) -> Option<Self> {
        (f.proto == Proto::Pause).then(|| PauseMsg { mask: f.tag[0] as u8, quanta: f.tag[1] as u16 })
    }
}

/// The sending side of one switch port.
#[derive(Clone, Debug, Default)]
pub struct PauseGen {
    /// Load per class (index 0 only, for 802.3x PAUSE).
    level: [u64; 8],
    /// Classes in the XOFF state (XOFF sent, XON not yet).
    pub xoff: u8,
    pub sent_xoff: u64,
    pub sent_xon: u64,
}

impl PauseGen {
    /// The class a frame of priority `prio` counts in: itself under PFC, 0 under PAUSE.
    #[inline]
    pub fn class(cfg: &PauseCfg, prio: u8) -> u8 {
        if cfg.pfc { prio & 7 } else { 0 }
    }

    fn mask(cfg: &PauseCfg, class: u8) -> u8 {
        if cfg.pfc { 1 << class } else { 0xFF }
    }

    pub fn level(&self, class: u8) -> u64 {
        self.level[class as usize]
    }

    /// The load of `class` is now `level`; `hi`/`lo` are the XOFF/XON thresholds in the same unit.
    pub fn set_level(&mut self, cfg: &PauseCfg, class: u8, level: u64, hi: u64, lo: u64) -> Option<PauseMsg> {
        self.level[class as usize] = level;
        let bit = 1u8 << class;
        if cfg.pfc && cfg.classes & bit == 0 {
            return None; // not a lossless class
        }
        if self.xoff & bit == 0 && level > hi {
            self.xoff |= bit;
            self.sent_xoff += 1;
            return Some(PauseMsg { mask: Self::mask(cfg, class), quanta: cfg.quanta });
        }
        if self.xoff & bit != 0 && level <= lo {
            self.xoff &= !bit;
            self.sent_xon += 1;
            return Some(PauseMsg { mask: Self::mask(cfg, class), quanta: 0 });
        }
        None
    }

    /// Ingress trigger: `bytes` of class `class` entered (+) or left (−) the switch through this port.
    pub fn on_ingress(&mut self, cfg: &PauseCfg, class: u8, add: bool, bytes: u64) -> Option<PauseMsg> {
        let l = self.level[class as usize];
        let level = if add { l + bytes } else { l.saturating_sub(bytes) };
        self.set_level(cfg, class, level, cfg.xoff, cfg.xon)
    }

    /// Egress trigger: one more (or one fewer) congested output queue of this class on the switch.
    pub fn on_congested(&mut self, cfg: &PauseCfg, class: u8, more: bool) -> Option<PauseMsg> {
        let l = self.level[class as usize];
        let level = if more { l + 1 } else { l.saturating_sub(1) };
        self.set_level(cfg, class, level, 0, 0)
    }

    /// The refresh timer fired: re-send XOFF for every class still in XOFF.
    pub fn on_refresh(&mut self, cfg: &PauseCfg) -> Option<PauseMsg> {
        if self.xoff == 0 {
            return None;
        }
        self.sent_xoff += 1;
        Some(PauseMsg { mask: if cfg.pfc { self.xoff } else { 0xFF }, quanta: cfg.quanta })
    }

    /// The refresh period at a port of `rate_bps`.
    pub fn refresh_period(cfg: &PauseCfg, rate_bps: u64) -> Time {
        cfg.refresh.unwrap_or_else(|| (pause_time(cfg.quanta, rate_bps) / 2).max(1))
    }
}

/// Egress trigger: hysteresis of one output queue. Returns Some(true) when the queue becomes
/// congested (above XOFF), Some(false) when it recovers (at or below XON).
pub fn egress_crossing(cfg: &PauseCfg, high: &mut bool, bytes: u64) -> Option<bool> {
    if !*high && bytes > cfg.xoff {
        *high = true;
        Some(true)
    } else if *high && bytes <= cfg.xon {
        *high = false;
        Some(false)
    } else {
        None
    }
}

use crate::slots::metrics::Metric;

/// What PAUSE/PFC report: their frames in the stats' `frames` (the flow-control slot's counts,
/// under `FcMachine::frames_name`), and per port (`ports`; priorities 0–7).
pub const METRICS: &[Metric] = &[
    Metric { scope: "frames", name: "pause_sent", unit: "frames", kind: "counter", doc: "PAUSE/PFC frames sent (with flow control only)" },
    Metric { scope: "frames", name: "pause_delivered", unit: "frames", kind: "counter", doc: "PAUSE/PFC frames received by the link's other end (with flow control only)" },
    Metric { scope: "frames", name: "pause_in_flight", unit: "frames", kind: "gauge", doc: "PAUSE/PFC frames in queues or on wires at the end (with flow control only)" },
    Metric { scope: "ports", name: "pause_sent", unit: "frames", kind: "counter", doc: "PAUSE/PFC frames sent by this port (XOFF, refreshes and XON)" },
    Metric { scope: "ports", name: "xoff_sent", unit: "frames", kind: "counter", doc: "XOFF frames sent, refreshes included" },
    Metric { scope: "ports", name: "xon_sent", unit: "frames", kind: "counter", doc: "XON frames (pause time 0) sent" },
    Metric { scope: "ports", name: "pause_received", unit: "frames", kind: "counter", doc: "PAUSE/PFC frames received for this port's transmitter" },
    Metric { scope: "ports", name: "paused_s", unit: "s", kind: "counter", doc: "time this port's transmitter was paused, per priority (list of 8)" },
    Metric { scope: "ports", name: "paused_s_window", unit: "s", kind: "counter-window", doc: "time paused in the window, per priority (list of 8)" },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(pfc: bool) -> PauseCfg {
        PauseCfg { pfc, trigger: Trigger::Ingress, xoff: 30_000, xon: 15_000, quanta: 0xFFFF, refresh: None, classes: 0xFF, frame_size: 64 }
    }

    #[test]
    fn quanta_arithmetic() {
        // 0xFFFF quanta · 512 bit = 33 553 920 bit: 33.55392 ms at 1 Gb/s, 3.355392 ms at 10 Gb/s.
        assert_eq!(pause_time(0xFFFF, 1_000_000_000), 33_553_920_000);
        assert_eq!(pause_time(0xFFFF, 10_000_000_000), 3_355_392_000);
        // One quantum at 10 Gb/s = 51.2 ns; none = no pause.
        assert_eq!(pause_time(1, 10_000_000_000), 51_200);
        assert_eq!(pause_time(0, 10_000_000_000), 0);
        assert_eq!(PauseGen::refresh_period(&cfg(false), 10_000_000_000), 1_677_696_000);
    }

    #[test]
    fn xoff_above_xon_at_or_below_with_hysteresis() {
        let c = cfg(false);
        let mut g = PauseGen::default();
        assert_eq!(g.on_ingress(&c, 0, true, 30_000), None); // at XOFF: not above yet
        assert_eq!(g.on_ingress(&c, 0, true, 1500), Some(PauseMsg { mask: 0xFF, quanta: 0xFFFF }));
        assert_eq!(g.on_ingress(&c, 0, true, 1500), None); // already paused
        assert_eq!(g.on_ingress(&c, 0, false, 10_000), None); // 23 000 B: between the thresholds
        assert_eq!(g.on_ingress(&c, 0, false, 8_000), Some(PauseMsg { mask: 0xFF, quanta: 0 })); // 15 000 B = XON
        assert_eq!(g.on_ingress(&c, 0, false, 5_000), None);
        assert_eq!((g.sent_xoff, g.sent_xon), (1, 1));
    }

    #[test]
    fn refresh_repeats_xoff_while_congested() {
        let c = cfg(true);
        let mut g = PauseGen::default();
        assert_eq!(g.on_refresh(&c), None);
        g.on_ingress(&c, 3, true, 40_000);
        g.on_ingress(&c, 5, true, 40_000);
        assert_eq!(g.on_refresh(&c), Some(PauseMsg { mask: 0b0010_1000, quanta: 0xFFFF }));
        g.on_ingress(&c, 3, false, 40_000);
        assert_eq!(g.on_refresh(&c), Some(PauseMsg { mask: 0b0010_0000, quanta: 0xFFFF }));
    }

    #[test]
    fn pfc_acts_per_class_and_only_on_lossless_classes() {
        let c = PauseCfg { classes: 0b0000_1000, ..cfg(true) };
        let mut g = PauseGen::default();
        assert_eq!(PauseGen::class(&c, 3), 3);
        assert_eq!(PauseGen::class(&cfg(false), 3), 0);
        assert_eq!(g.on_ingress(&c, 3, true, 40_000), Some(PauseMsg { mask: 1 << 3, quanta: 0xFFFF }));
        assert_eq!(g.on_ingress(&c, 1, true, 40_000), None); // class 1 is not lossless
    }

    #[test]
    fn egress_trigger_counts_congested_queues() {
        let c = PauseCfg { trigger: Trigger::Egress, ..cfg(false) };
        let (mut h1, mut h2) = (false, false);
        let mut g = PauseGen::default();
        assert_eq!(egress_crossing(&c, &mut h1, 31_000), Some(true));
        assert_eq!(g.on_congested(&c, 0, true), Some(PauseMsg { mask: 0xFF, quanta: 0xFFFF }));
        assert_eq!(egress_crossing(&c, &mut h2, 31_000), Some(true));
        assert_eq!(g.on_congested(&c, 0, true), None);
        assert_eq!(egress_crossing(&c, &mut h1, 20_000), None);
        assert_eq!(egress_crossing(&c, &mut h1, 15_000), Some(false));
        assert_eq!(g.on_congested(&c, 0, false), None); // the other queue is still congested
        assert_eq!(egress_crossing(&c, &mut h2, 0), Some(false));
        assert_eq!(g.on_congested(&c, 0, false), Some(PauseMsg { mask: 0xFF, quanta: 0 }));
    }

    #[test]
    fn frames_round_trip() {
        let c = cfg(true);
        let m = PauseMsg { mask: 0b101, quanta: 77 };
        let f = m.frame(&c, 4, 9);
        assert_eq!((f.kind, f.size, f.src), (FrameKind::MacControl, 64, 4));
        assert_eq!(PauseMsg::read(&f), Some(m));
    }
}
