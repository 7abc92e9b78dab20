//! HPCC's control law (Li et al., SIGCOMM 2019 §3.2, Algorithm 1): from two successive in-band
//! telemetry stacks of its path, a sender estimates each link's normalised inflight bytes
//! (`MeasureInflight`), keeps the bottleneck's in an EWMA over the base RTT, and sets its window
//! from a reference window `Wc` that moves once per RTT (`ComputeWind`): multiplicatively towards
//! the target utilisation η when the path is at or above it (or after `max_stage` additive
//! stages), additively by `W_AI` otherwise. The rate is `W / T`.
//!
//! Sans-IO: the sender hands each acknowledgement's stack, its cumulative acknowledgement number
//! and its own next sequence number in; the window comes out.

use super::Params;
use crate::core::time::{Time, PS_PER_S};
use crate::net::telemetry::{Hop, MAX_HOPS};

/// The control state of one sender.
#[derive(Clone, Debug)]
pub struct Control {
    pub p: Params,
    /// Current window `W` and reference window `Wc`, bytes.
    pub w: f64,
    pub wc: f64,
    /// The EWMA of the bottleneck's normalised inflight bytes `U`.
    pub u: f64,
    /// Additive-increase stages since the last multiplicative step.
    pub inc_stage: u32,
    /// `Wc` moves when an acknowledgement covers this sequence number (one RTT after the last
    /// move): `lastUpdateSeq`.
    pub last_update_seq: u64,
    /// The path's previous records `L` (none before the first stack).
    prev: [Hop; MAX_HOPS],
    prev_n: usize,
    /// Reference-window updates and per-acknowledgement reactions so far.
    pub updates: u64,
    pub reactions: u64,
}

impl Control {
    /// A sender at line rate: `W = Wc = W_init = B·T` (§3.2: "a new flow starts at line rate").
    pub fn new(p: Params) -> Self {
        let w = p.w_init();
        Control { p, w, wc: w, u: 0.0, inc_stage: 0, last_update_seq: 0, prev: [Hop::default(); MAX_HOPS], prev_n: 0, updates: 0, reactions: 0 }
    }

    /// The pacing rate `R = W / T`, b/s.
    pub fn rate_bps(&self) -> f64 {
        self.w * 8.0 * PS_PER_S as f64 / self.p.base_rtt as f64
    }

    /// Algorithm 1's `NewAck`: an acknowledgement up to `ack` echoes `hops`; `snd_nxt` is the
    /// sender's next sequence number. The first stack of a path (or of a path whose length
    /// changed) only becomes `L`. Returns whether the window was recomputed.
    pub fn on_ack(&mut self, ack: u64, hops: &[Hop], snd_nxt: u64) -> bool {
        if hops.is_empty() {
            return false;
        }
        if self.prev_n != hops.len() {
            self.remember(hops);
            self.last_update_seq = snd_nxt;
            return false;
        }
        let Some(u) = self.measure_inflight(hops) else {
            return false;
        };
        let update = ack > self.last_update_seq;
        self.w = self.compute_wind(u, update);
        if update {
            self.last_update_seq = snd_nxt;
            self.updates += 1;
        }
        self.reactions += 1;
        self.remember(hops);
        true
    }

    /// `MeasureInflight`: each link's `u' = min(qlen, qlen_prev)/(B·T) + txRate/B`, the largest
    /// one's interval `τ` (at most `T`) weighting it into `U`. None when no hop moved in time (two
    /// acknowledgements echoing one stack).
    pub fn measure_inflight(&mut self, hops: &[Hop]) -> Option<f64> {
        let t = self.p.base_rtt as f64;
        let mut best: Option<(f64, Time)> = None;
        for (h, l) in hops.iter().zip(&self.prev[..self.prev_n]) {
            let Some(dt) = h.ts.checked_sub(l.ts).filter(|&d| d > 0) else { continue };
            if h.rate_bps == 0 {
                continue;
            }
            let bytes = h.tx_bytes.saturating_sub(l.tx_bytes) as f64;
            let b = h.rate_bps as f64;
            let tx_rate = bytes * 8.0 * PS_PER_S as f64 / dt as f64;
            let q = h.qlen.min(l.qlen) as f64 * 8.0 * PS_PER_S as f64;
            let u = q / (b * t) + tx_rate / b;
            if best.is_none_or(|(m, _)| u > m) {
                best = Some((u, dt));
            }
        }
        let (u, tau) = best?;
        let w = tau.min(self.p.base_rtt) as f64 / t;
        self.u = (1.0 - w) * self.u + w * u;
        Some(self.u)
    }

    /// `ComputeWind`: `W = Wc / (U/η) + W_AI` when `U ≥ η` or after `max_stage` additive stages,
    /// else `W = Wc + W_AI`; `Wc` takes `W` only when `update_wc`. `W` stays within
    /// [`Params::w_min`, `Params::w_init`] (the artifact bounds the rate by its minimum and the
    /// line rate).
    pub fn compute_wind(&mut self, u: f64, update_wc: bool) -> f64 {
        let p = &self.p;
        let multiplicative = u >= p.eta || self.inc_stage >= p.max_stage;
        let w = if multiplicative { self.wc / (u / p.eta) + p.w_ai } else { self.wc + p.w_ai };
        let w = w.clamp(p.w_min(), p.w_init());
        if update_wc {
            self.inc_stage = if multiplicative { 0 } else { self.inc_stage + 1 };
            self.wc = w;
        }
        w
    }

    fn remember(&mut self, hops: &[Hop]) {
        let n = hops.len().min(MAX_HOPS);
        self.prev[..n].copy_from_slice(&hops[..n]);
        self.prev_n = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Params::test(): B = 100 Gb/s, T = 10 µs, so W_init = 125 000 B and W_AI = 50 B.
    fn hop(ts: Time, tx_bytes: u64, qlen: u64) -> Hop {
        Hop { ts, tx_bytes, qlen, rate_bps: 100_000_000_000 }
    }

    #[test]
    fn the_defaults_give_the_windows_of_a_100g_path() {
        let p = Params::test();
        assert_eq!((p.w_init(), p.w_ai, p.w_min()), (125_000.0, 50.0, 125.0));
        assert_eq!(Control::new(p).rate_bps(), 100e9);
    }

    #[test]
    fn inflight_is_the_most_loaded_links_weighted_by_its_interval() {
        let mut c = Control::new(Params::test());
        c.on_ack(1, &[hop(0, 0, 10_000), hop(0, 0, 0)], 0);
        // Link 0 over 5 µs: 62 500 B sent (100 Gb/s, txRate/B = 1) and min(10 000, 25 000) B
        // queued (10 000·8 / (100 Gb/s · 10 µs) = 0.08): u = 1.08. Link 1: 12 500 B, u = 0.2.
        // τ = 5 µs = T/2: U = 0.5·0 + 0.5·1.08.
        let u = c.measure_inflight(&[hop(5_000_000, 62_500, 25_000), hop(5_000_000, 12_500, 0)]);
        assert!((u.unwrap() - 0.54).abs() < 1e-12, "{u:?}");
        // A stack no hop of which moved in time gives no reading.
        c.remember(&[hop(5_000_000, 62_500, 25_000), hop(5_000_000, 12_500, 0)]);
        assert_eq!(c.measure_inflight(&[hop(5_000_000, 62_500, 0), hop(5_000_000, 12_500, 0)]), None);
        // An interval longer than T weighs the reading fully: 125 000 B over 20 µs on 100 Gb/s
        // and no queue give U = u = 0.5.
        let u = c.measure_inflight(&[hop(25_000_000, 62_500 + 125_000, 0), hop(25_000_000, 12_500, 0)]);
        assert!((u.unwrap() - 0.5).abs() < 1e-12, "{u:?}");
    }

    #[test]
    fn the_window_grows_additively_below_eta_and_cuts_to_eta_above_it() {
        let mut c = Control::new(Params::test());
        c.wc = 100_000.0;
        // U = 0.54 < η, stage 0 < 5: W = Wc + W_AI, and Wc follows with a stage more.
        assert_eq!(c.compute_wind(0.54, true), 100_050.0);
        assert_eq!((c.wc, c.inc_stage), (100_050.0, 1));
        // Without the per-RTT update Wc and the stage stay.
        assert_eq!(c.compute_wind(0.54, false), 100_100.0);
        assert_eq!((c.wc, c.inc_stage), (100_050.0, 1));
        // U = 1.9 = 2η: W = Wc/2 + W_AI, the stage count restarts.
        assert!((c.compute_wind(1.9, true) - 50_075.0).abs() < 1e-9);
        assert!((c.wc - 50_075.0).abs() < 1e-9 && c.inc_stage == 0);
        // After maxStage additive stages the step is multiplicative even below η:
        // W = 10 000 / (0.5/0.95) + 50 = 19 050.
        c.wc = 10_000.0;
        c.inc_stage = 5;
        assert!((c.compute_wind(0.5, true) - 19_050.0).abs() < 1e-9);
        assert_eq!(c.inc_stage, 0);
        // The window stays within [W_min, W_init].
        c.wc = 124_990.0;
        assert_eq!(c.compute_wind(0.1, false), 125_000.0);
        c.wc = 100.0;
        assert_eq!(c.compute_wind(100.0, false), 125.0);
    }

    #[test]
    fn the_reference_window_moves_once_per_rtt_and_every_ack_reacts() {
        let mut c = Control::new(Params::test());
        c.wc = 100_000.0;
        // The first stack only becomes L; the next RTT ends when byte 5000 is acknowledged.
        assert!(!c.on_ack(1000, &[hop(0, 0, 0)], 5000));
        assert_eq!(c.last_update_seq, 5000);
        // Within the RTT (ack 3000 ≤ 5000): W reacts (U = 0.5·1.0 = 0.5 < η: W = Wc + W_AI),
        // Wc does not move.
        assert!(c.on_ack(3000, &[hop(5_000_000, 62_500, 0)], 8000));
        assert_eq!((c.w, c.wc, c.inc_stage, c.last_update_seq), (100_050.0, 100_000.0, 0, 5000));
        // The ACK covering byte 5000 moves Wc and starts the next RTT at snd_nxt.
        assert!(c.on_ack(6000, &[hop(10_000_000, 125_000, 0)], 9000));
        assert_eq!((c.wc, c.inc_stage, c.last_update_seq, c.updates, c.reactions), (100_050.0, 1, 9000, 1, 2));
        // A path whose length changes starts over from its first stack.
        assert!(!c.on_ack(10_000, &[hop(11_000_000, 0, 0), hop(11_000_000, 0, 0)], 12_000));
    }
}
