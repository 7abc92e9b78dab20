//! EMcast, explicit multi-rate multicast (Nakauchi & Kobayashi 2006 §3.2, Fig. 2; docs/protocols.md §8): a simulcast
//! receiver subscribed to exactly one channel i (rate T_i) that
//! - drops one level when the measured loss rate r_i ≥ R_i, where R_i solves the TCP throughput
//!   model T_i = 1.3·MTU / (RTT·√R_i), i.e. R_i = (1.3·MTU / (RTT·T_i))²;
//! - otherwise adds levels while T_{i+1} < T·C3, T the available bandwidth SIRENS reports for the
//!   path (C3 = 0.8).
//!
//! Where the seed is silent or ambiguous, parameters (docs/modelling.md):
//! - Fig. 2 runs "for each arriving explicit notification" once t − t0 ≥ Interval but only moves t0
//!   on an add; r_i is not defined over any period. Here the receiver evaluates once per Interval
//!   (0.2 s) with r_i the loss rate over that Interval, as docs/protocols.md words it ("every Interval").
//! - `add`: "while" adds levels as long as T_{i+1} < T·C3 (Fig. 2's loop, default), "one" adds at
//!   most one level per Interval (docs/protocols.md's wording).
//! - `own_rate`: whether T counts the receiver's own channel as room, T' = T + T_i ("added"), or T
//!   is SIRENS's available bandwidth as is ("excluded", default: the seed compares T_{i+1} with T).
//! - RTT is the receiver's estimate, a parameter (a receiver-driven scheme has no ACK clock).

pub mod slot;
pub mod spec;

use crate::core::time::Time;
use crate::slots::metrics::Metric;

/// How many levels an evaluation may add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddStep {
    While,
    One,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EmcastParams {
    /// Channel rates T_1 < T_2 < … in bit/s (level i = index i − 1).
    pub rates: Vec<f64>,
    /// Interval between evaluations (Nakauchi & Kobayashi 2006: 0.2 s).
    pub interval: Time,
    pub c3: f64,
    /// Round-trip time estimate, s.
    pub rtt: f64,
    /// MTU in bits (1500 B = 12 000 bits).
    pub mtu_bits: f64,
    pub add: AddStep,
    pub own_rate_added: bool,
}

#[derive(Clone, Debug)]
pub struct Emcast {
    pub p: EmcastParams,
    /// Current level, 1-based.
    pub level: usize,
    pub adds: u64,
    pub drops: u64,
}

impl Emcast {
    pub fn new(p: EmcastParams, level: usize) -> Self {
        let level = level.clamp(1, p.rates.len());
        Emcast { p, level, adds: 0, drops: 0 }
    }

    pub fn rate(&self, level: usize) -> f64 {
        self.p.rates[level - 1]
    }

    /// R_i = (1.3·MTU / (RTT·T_i))² (Floyd & Fall 1999, Nakauchi & Kobayashi 2006 §3.2).
    pub fn loss_threshold(&self, level: usize) -> f64 {
        let x = 1.3 * self.p.mtu_bits / (self.p.rtt * self.rate(level));
        x * x
    }

    /// One Interval's evaluation: `loss` = r_i over the Interval, `avail` = SIRENS's path
    /// available bandwidth (None when no hop is known). Returns the new level when it changes.
    pub fn evaluate(&mut self, loss: f64, avail: Option<f64>) -> Option<usize> {
        let i = self.level;
        if loss >= self.loss_threshold(i) {
            if i > 1 {
                self.level -= 1;
                self.drops += 1;
                return Some(self.level);
            }
            return None;
        }
        let t = avail?;
        let room = if self.p.own_rate_added { t + self.rate(i) } else { t } * self.p.c3;
        while self.level < self.p.rates.len() && self.rate(self.level + 1) < room {
            self.level += 1;
            if self.p.add == AddStep::One {
                break;
            }
        }
        if self.level == i {
            return None;
        }
        self.adds += 1;
        Some(self.level)
    }
}

pub const METRICS: &[Metric] = &[
    Metric { scope: "endpoints", name: "level_final", unit: "level", kind: "gauge", doc: "subscription level at the end (EMcast: the channel; RLM: layers joined)" },
    Metric { scope: "endpoints", name: "level_mean", unit: "level", kind: "time-average", doc: "subscription level, time-averaged over the window" },
    Metric { scope: "endpoints", name: "adds", unit: "count", kind: "counter", doc: "times the receiver raised its level (EMcast adds; RLM successful or attempted joins)" },
    Metric { scope: "endpoints", name: "drops", unit: "count", kind: "counter", doc: "times the receiver lowered its level" },
    Metric { scope: "endpoints", name: "lost", unit: "frames", kind: "counter", doc: "frames of the subscribed channels/layers missing from the sequence numbers" },
    Metric { scope: "endpoints", name: "received", unit: "frames", kind: "counter", doc: "frames of the subscribed channels/layers received" },
    Metric { scope: "endpoints", name: "throughput_bps", unit: "bit/s", kind: "counter-window", doc: "bytes of all its channels/layers received in the window × 8 / window" },
    Metric { scope: "series", name: "level.HOST", unit: "level", kind: "series", doc: "subscription level of a multi-rate multicast receiver" },
    Metric { scope: "series", name: "mlost_frames.HOST", unit: "frames", kind: "series", doc: "frames of its subscribed channels/layers a multi-rate multicast receiver found missing so far (a cumulative count, not a rate)" },
    Metric { scope: "series", name: "mrx_bps.HOST", unit: "bit/s", kind: "series", doc: "throughput of a multi-rate multicast receiver over the record interval ending at t, all its channels/layers (0 at t = 0)" },
];


/// EMcast's registration (`slots::register`): its metrics.
pub const PROTOCOL: crate::slots::register::Protocol = crate::slots::register::Protocol { metrics: METRICS, ..crate::slots::register::Protocol::named("emcast") };

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> EmcastParams {
        EmcastParams {
            rates: (0..10).map(|i| 100e3 * 2f64.powi(i)).collect(),
            interval: 200_000_000_000,
            c3: 0.8,
            rtt: 0.06,
            mtu_bits: 12_000.0,
            add: AddStep::While,
            own_rate_added: false,
        }
    }

    #[test]
    fn loss_threshold_follows_the_tcp_model() {
        let e = Emcast::new(params(), 7); // 6.4 Mb/s
        // 1.3 × 12000 / (0.06 × 6.4e6) = 0.040625 → R = 0.00165
        assert!((e.loss_threshold(7) - 0.040625f64.powi(2)).abs() < 1e-12);
        assert!(e.loss_threshold(1) > e.loss_threshold(2));
    }

    #[test]
    fn adds_while_the_next_channel_fits_in_c3_of_the_room() {
        // Empty 50 Mb/s path: 0.8 × 50 = 40 Mb/s; channel 9 (25.6) fits, 10 (51.2) does not.
        let mut e = Emcast::new(params(), 1);
        assert_eq!(e.evaluate(0.0, Some(50e6)), Some(9));
        assert_eq!(e.adds, 1);
        // 24.4 Mb/s left beside its own 25.6: 19.5 < 51.2, stay.
        assert_eq!(e.evaluate(0.0, Some(24.4e6)), None);
        // One level at a time.
        let mut e = Emcast::new(EmcastParams { add: AddStep::One, ..params() }, 1);
        assert_eq!(e.evaluate(0.0, Some(50e6)), Some(2));
        // Own rate added: (24.4 + 25.6) × 0.8 = 40 < 51.2, still 9.
        let mut e = Emcast::new(EmcastParams { own_rate_added: true, ..params() }, 9);
        assert_eq!(e.evaluate(0.0, Some(24.4e6)), None);
        let mut e = Emcast::new(EmcastParams { own_rate_added: true, ..params() }, 8);
        // (40 + 12.8) × 0.8 = 42.24 ≥ 25.6 → 9; 51.2 no.
        assert_eq!(e.evaluate(0.0, Some(40e6)), Some(9));
        // Nothing known: no add.
        assert_eq!(Emcast::new(params(), 3).evaluate(0.0, None), None);
    }

    #[test]
    fn drops_one_level_when_loss_reaches_r_i() {
        let mut e = Emcast::new(params(), 7);
        let r = e.loss_threshold(7);
        assert_eq!(e.evaluate(r * 0.99, Some(0.0)), None);
        assert_eq!(e.evaluate(r, Some(100e6)), Some(6)); // loss wins over room
        assert_eq!(e.drops, 1);
        let mut e = Emcast::new(params(), 1);
        assert_eq!(e.evaluate(1.0, None), None); // lowest level stays
    }
}
