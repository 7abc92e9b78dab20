//! RED, Random Early Detection (Floyd & Jacobson, "Random Early Detection Gateways for Congestion
//! Avoidance", IEEE/ACM ToN 1(4), 1993, Fig. 2), with the "gentle" variant (Floyd, "Recommendation
//! on using the gentle_ variant of RED", 2000) and optional ECN marking (RFC 3168 §7). docs/protocols.md
//! §8; Nakauchi & Kobayashi 2006 §3.3 uses RED on 100-packet queues with min_th = 50 packets.
//!
//! A sans-IO state machine: the engine calls [`Red::on_arrival`] for every data frame offered to the
//! port, with the instantaneous queue length (frames waiting, the arriving one excluded) and, when
//! the port is idle, the time it has been idle. It answers with a [`Verdict`]; the queue's own
//! drop-tail capacity still applies to frames RED admits.
//!
//! Per arrival (FJ93 Fig. 2):
//! - queue non-empty: avg ← (1 − w_q)·avg + w_q·q;
//! - queue empty (idle-time correction): avg ← (1 − w_q)^m·avg, m = idle / s, where s is the
//!   transmission time of a typical small packet (`idle_pkt_time`, ns-2's `mean_pktsize` at the
//!   link rate). m is taken as a real number (FJ93: "f(t) a linear function of the time t").
//! - min_th ≤ avg < max_th: count += 1; p_b = max_p·(avg − min_th)/(max_th − min_th);
//!   p_a = p_b / (1 − count·p_b) (1 once count·p_b ≥ 1); with probability p_a mark and count ← 0.
//! - gentle, max_th ≤ avg < 2·max_th: the same with p_b = max_p + (1 − max_p)·(avg − max_th)/max_th
//!   (ns-2 applies the count to this region too; so does this model).
//! - above (avg ≥ max_th, or ≥ 2·max_th when gentle): forced drop, count ← 0.
//! - below min_th: count ← −1.
//!
//! "Mark" means drop, unless ECN is on and the frame is ECN-capable: then the frame is marked CE
//! and queued. Forced drops are drops even with ECN (RFC 3168 §7; ns-2's `setbit`).

pub mod spec;

use crate::slots::aqm::AqmMachine;
use crate::slots::{QueueView, Verdict};
use serde_json::{json, Value};
use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::slots::metrics::Metric;

/// RED's parameters, thresholds in packets (frames counted whatever their size: packet mode).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedParams {
    pub min_th: f64,
    pub max_th: f64,
    pub w_q: f64,
    pub max_p: f64,
    pub gentle: bool,
    pub ecn: bool,
    /// s of the idle-time correction: m = idle / s (> 0).
    pub idle_pkt_time: Time,
}

/// One RED queue's state.
#[derive(Clone, Debug)]
pub struct Red {
    pub p: RedParams,
    pub avg: f64,
    /// Frames since the last mark while in the random region (−1: below min_th).
    pub count: i64,
    pub early_drops: u64,
    pub forced_drops: u64,
    pub marks: u64,
}

impl Red {
    pub fn new(p: RedParams) -> Self {
        Red { p, avg: 0.0, count: -1, early_drops: 0, forced_drops: 0, marks: 0 }
    }

    /// FJ93's average: `q` frames waiting; `idle` = how long the port has been idle (None when busy).
    pub fn update_avg(&mut self, q: u64, idle: Option<Time>) {
        let w = self.p.w_q;
        match idle {
            Some(t) if q == 0 => {
                let m = t as f64 / self.p.idle_pkt_time as f64;
                self.avg *= (1.0 - w).powf(m);
            }
            _ => self.avg = (1.0 - w) * self.avg + w * q as f64,
        }
    }

    /// p_b at the current average: None below min_th, Some(1.0) in the forced region.
    pub fn p_b(&self) -> Option<f64> {
        let (a, lo, hi, mp) = (self.avg, self.p.min_th, self.p.max_th, self.p.max_p);
        if a < lo {
            None
        } else if a < hi {
            Some(mp * (a - lo) / (hi - lo))
        } else if self.p.gentle && a < 2.0 * hi {
            Some(mp + (1.0 - mp) * (a - hi) / hi)
        } else {
            Some(1.0)
        }
    }

    /// p_a = p_b / (1 − count·p_b), 1 once count·p_b ≥ 1.
    pub fn p_a(p_b: f64, count: i64) -> f64 {
        let d = 1.0 - count as f64 * p_b;
        if d <= p_b { 1.0 } else { (p_b / d).min(1.0) }
    }

    /// A data frame arrives; `ect` says whether it is ECN-capable.
    pub fn on_arrival(&mut self, q: u64, idle: Option<Time>, ect: bool, rng: &mut Rng) -> Verdict {
        self.update_avg(q, idle);
        let Some(pb) = self.p_b() else {
            self.count = -1;
            return Verdict::Enqueue;
        };
        if pb >= 1.0 {
            self.count = 0;
            self.forced_drops += 1;
            return Verdict::ForcedDrop;
        }
        self.count += 1;
        let pa = Self::p_a(pb, self.count);
        if !rng.bernoulli(pa) {
            return Verdict::Enqueue;
        }
        self.count = 0;
        if self.p.ecn && ect {
            self.marks += 1;
            Verdict::Mark
        } else {
            self.early_drops += 1;
            Verdict::EarlyDrop
        }
    }
}

pub const METRICS: &[Metric] = &[
    Metric { scope: "queues", name: "red_avg_packets", unit: "packets", kind: "gauge", doc: "RED's average queue (FJ93 EWMA) at the end of the run" },
    Metric { scope: "queues", name: "red_early_drops", unit: "frames", kind: "counter", doc: "frames RED dropped at random (min_th ≤ avg, below the forced region)" },
    Metric { scope: "queues", name: "red_forced_drops", unit: "frames", kind: "counter", doc: "frames RED dropped because avg ≥ max_th (2·max_th with gentle)" },
    Metric { scope: "queues", name: "red_marks", unit: "frames", kind: "counter", doc: "ECN-capable frames RED marked CE instead of dropping" },
];

/// A RED queue with its random stream, in the engine's queue-management slot (`slots::aqm`).
pub struct RedAqm {
    pub red: Red,
    pub rng: Rng,
}

impl AqmMachine for RedAqm {
    /// RED averages the queue in frames.
    #[inline]
    fn on_arrival(&mut self, q: QueueView, idle: Option<Time>, ect: bool) -> Verdict {
        self.red.on_arrival(q.frames, idle, ect, &mut self.rng)
    }
    fn report(&self) -> Value {
        let r = &self.red;
        json!({"aqm": "red", "red_avg_packets": r.avg, "red_early_drops": r.early_drops,
               "red_forced_drops": r.forced_drops, "red_marks": r.marks})
    }
}


/// RED's registration (`slots::register`): its metrics.
pub const PROTOCOL: crate::slots::register::Protocol = crate::slots::register::Protocol { metrics: METRICS, ..crate::slots::register::Protocol::named("red") };

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> RedParams {
        RedParams { min_th: 5.0, max_th: 15.0, w_q: 0.002, max_p: 0.1, gentle: true, ecn: false, idle_pkt_time: 1000 }
    }

    #[test]
    fn average_is_the_ewma() {
        let mut r = Red::new(params());
        r.update_avg(10, None);
        assert!((r.avg - 0.02).abs() < 1e-12); // 0.002 × 10
        r.update_avg(10, None);
        assert!((r.avg - (0.998 * 0.02 + 0.02)).abs() < 1e-12);
        // A busy port with an empty queue (frame on the wire) is not idle: a normal update with q = 0.
        r.avg = 10.0;
        r.update_avg(0, None);
        assert!((r.avg - 9.98).abs() < 1e-12);
    }

    #[test]
    fn idle_time_correction_decays_the_average() {
        let mut r = Red::new(params());
        r.avg = 10.0;
        // Idle for 500 packet times: avg = 10 × 0.998^500 = 3.6751…
        r.update_avg(0, Some(500_000));
        assert!((r.avg - 10.0 * 0.998f64.powi(500)).abs() < 1e-9);
        assert!((r.avg - 3.6751).abs() < 1e-3);
        // Half a packet time: m = 0.5.
        r.avg = 10.0;
        r.update_avg(0, Some(500));
        assert!((r.avg - 10.0 * 0.998f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn drop_probability_and_count() {
        let mut r = Red::new(params());
        r.avg = 4.999;
        assert_eq!(r.p_b(), None);
        r.avg = 10.0; // half-way: p_b = 0.05
        assert!((r.p_b().unwrap() - 0.05).abs() < 1e-12);
        // p_a = 0.05 / (1 − count·0.05): count 1 → 0.0526…, count 10 → 0.1, count 19 → 1.
        assert!((Red::p_a(0.05, 1) - 0.05 / 0.95).abs() < 1e-12);
        assert!((Red::p_a(0.05, 10) - 0.1).abs() < 1e-12);
        assert_eq!(Red::p_a(0.05, 19), 1.0);
        assert_eq!(Red::p_a(0.05, 25), 1.0);
        // Fig. 2 increments count before computing p_a, so the 19th arrival after a drop is dropped
        // for sure (count·p_b = 0.95, p_a = 1); every arrival keeps avg at 10 (q = 10).
        let mut rng = Rng::stream(1, "t", "red");
        let mut r = Red::new(params());
        r.avg = 10.0;
        let mut gaps = vec![];
        let mut since = 0;
        for _ in 0..20_000 {
            since += 1;
            if r.on_arrival(10, None, false, &mut rng) == Verdict::EarlyDrop {
                gaps.push(since);
                since = 0;
            }
        }
        assert!(gaps.iter().all(|&g| (1..=19).contains(&g)), "gap beyond 1/p_b − 1");
        // P(gap = n) = Π_{k<n}(1 − p_a(k))·p_a(n) telescopes to p_b/(1 − p_b): uniform on
        // 1..=1/p_b − 1 = 19, mean 10 (FJ93 §7's "uniform on 1..1/p_b", with Fig. 2's count).
        let mean = gaps.iter().sum::<i32>() as f64 / gaps.len() as f64;
        assert!((mean - 10.0).abs() < 0.3, "mean gap {mean}");
        let n19 = gaps.iter().filter(|&&g| g == 19).count() as f64 / gaps.len() as f64;
        assert!((n19 - 1.0 / 19.0).abs() < 0.015, "share of gap 19: {n19}");
    }

    #[test]
    fn gentle_region_and_forced_drops() {
        let mut r = Red::new(params());
        r.avg = 15.0;
        assert!((r.p_b().unwrap() - 0.1).abs() < 1e-12);
        r.avg = 22.5; // max_p + 0.9 × 7.5/15 = 0.55
        assert!((r.p_b().unwrap() - 0.55).abs() < 1e-12);
        r.avg = 30.0;
        assert_eq!(r.p_b(), Some(1.0));
        let mut rng = Rng::stream(1, "t", "red");
        assert_eq!(r.on_arrival(30, None, true, &mut rng), Verdict::ForcedDrop);
        assert_eq!(r.count, 0);
        // Without gentle, max_th is the edge.
        let mut r = Red::new(RedParams { gentle: false, ..params() });
        r.avg = 15.0;
        assert_eq!(r.p_b(), Some(1.0));
    }

    #[test]
    fn ecn_marks_instead_of_early_drops() {
        let mut rng = Rng::stream(1, "t", "red");
        let mut r = Red::new(RedParams { ecn: true, ..params() });
        r.avg = 14.9;
        let v: Vec<Verdict> = (0..200).map(|_| r.on_arrival(15, None, true, &mut rng)).collect();
        assert!(v.contains(&Verdict::Mark) && !v.contains(&Verdict::EarlyDrop));
        // Not ECN-capable: dropped.
        r.avg = 14.9;
        let v: Vec<Verdict> = (0..200).map(|_| r.on_arrival(15, None, false, &mut rng)).collect();
        assert!(v.contains(&Verdict::EarlyDrop) && !v.contains(&Verdict::Mark));
    }

    /// A long M/D/1 run at offered load ρ = 1.2 through RED (min 50, max 100, max_p 0.2, the
    /// queue never full): the queue stays busy, so RED must drop the excess, 1 − 1/ρ = 1/6 of the
    /// arrivals; with inter-drop gaps uniform on 1..1/p_b − 1 the drop fraction is ≈ 2·p_b — so the
    /// average settles where p_b = 1/12, avg = 50 + 50·(1/12)/0.2 ≈ 70.8, between the thresholds.
    #[test]
    fn poisson_overload_settles_between_the_thresholds() {
        let p = RedParams { min_th: 50.0, max_th: 100.0, w_q: 0.002, max_p: 0.2, gentle: true, ecn: false, idle_pkt_time: 1000 };
        let mut r = Red::new(p);
        let mut rng = Rng::stream(7, "t", "poisson");
        let service = 1000.0; // time units per frame
        let (mut t, mut q, mut busy_until) = (0.0f64, std::collections::VecDeque::<f64>::new(), 0.0f64);
        let (mut arrivals, mut dropped, mut avg_sum, mut n_avg) = (0u64, 0u64, 0.0, 0u64);
        for _ in 0..400_000 {
            t += rng.exp(service / 1.2);
            // Serve what finished before t.
            while busy_until <= t {
                match q.pop_front() {
                    Some(_) => busy_until += service,
                    None => break,
                }
            }
            let waiting = q.len() as u64;
            let idle = (waiting == 0 && busy_until <= t).then(|| (t - busy_until) as Time);
            arrivals += 1;
            match r.on_arrival(waiting, idle, false, &mut rng) {
                Verdict::Enqueue | Verdict::Mark => {
                    if busy_until <= t && q.is_empty() {
                        busy_until = t + service;
                    } else {
                        q.push_back(t);
                    }
                }
                _ => dropped += 1,
            }
            if arrivals > 100_000 {
                avg_sum += r.avg;
                n_avg += 1;
            }
        }
        let frac = dropped as f64 / arrivals as f64;
        let avg = avg_sum / n_avg as f64;
        assert!((frac - 1.0 / 6.0).abs() < 0.01, "drop fraction {frac}");
        assert!(avg > 50.0 && avg < 100.0, "avg {avg}");
        assert!((avg - 70.8).abs() < 5.0, "avg {avg}");
        assert_eq!(r.forced_drops, 0);
    }
}
