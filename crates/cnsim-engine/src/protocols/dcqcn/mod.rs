//! DCQCN, the congestion control of RoCEv2 (Zhu et al., "Congestion Control for Large-Scale RDMA
//! Deployments", SIGCOMM 2015; "the paper" below). It keeps QCN's rate-based reaction point but
//! moves the congestion signal to IP ECN, so that commodity switches can produce it:
//!
//! | role | where | module |
//! |---|---|---|
//! | congestion point (CP) | a switch egress queue: RED-style ECN marking on the instantaneous queue (§3.1, Fig. 5) | `marking` |
//! | notification point (NP) | the receiver NIC: a CE-marked data frame makes it send a CNP to the flow's source, at most one per flow every N µs (§3.2) | `np` |
//! | reaction point (RP) | the sender NIC's per-flow rate limiter: cut on a CNP, α estimate, timer and byte-counter increase (§3.3) | `rp` |
//!
//! Each role is a sans-IO state machine (`marking`, `np`, `rp`); `slot` puts them in the engine's
//! slots, `spec` holds their scenario tables, `wire` the CNP frame. Defaults are the
//! paper's; where the paper is silent or the public implementations differ, the choice is a field of
//! the role's parameters and its doc says so. Implementations read for the differences: the
//! first author's ns-3 simulator (github bobzhuyb/ns3-rdma, `qbb-net-device.cc`, `broadcom-node.cc`;
//! "ns3-rdma" below), the HPCC simulator's "Mellanox version" of DCQCN (github
//! alibaba-edu/High-Precision-Congestion-Control, `rdma-hw.cc`; "HPCC sim"), and NVIDIA's DCQCN
//! parameter documentation ("NIC docs").

pub mod marking;
pub mod np;
pub mod rp;
pub mod slot;
pub mod spec;
pub mod wire;
mod register;
pub use register::PROTOCOL;

pub use marking::Marking;
pub use np::NotificationPoint;
pub use rp::{ReactionPoint, Sent};

use crate::core::time::{Time, MAX_TIME};
use crate::slots::metrics::Metric;

/// What DCQCN adds to the stats document.
pub const METRICS: &[Metric] = &[
    Metric { scope: "frames", name: "cnp_sent", unit: "frames", kind: "counter", doc: "CNPs sent by notification points (at the receivers)" },
    Metric { scope: "frames", name: "cnp_received", unit: "frames", kind: "counter", doc: "CNPs that reached their flow's source (its reaction point)" },
    Metric { scope: "rps", name: "dcqcn_alpha_final", unit: "1", kind: "gauge", doc: "the RP's congestion estimate α at the end of the run" },
    Metric { scope: "rps", name: "dcqcn_fast_recoveries", unit: "events", kind: "counter", doc: "rate-increase events in fast recovery (RC halfway to RT)" },
    Metric { scope: "rps", name: "dcqcn_additive_increases", unit: "events", kind: "counter", doc: "rate-increase events in additive increase (RT += R_AI)" },
    Metric { scope: "rps", name: "dcqcn_hyper_increases", unit: "events", kind: "counter", doc: "rate-increase events in hyper increase (RT += i·R_HAI)" },
    Metric { scope: "queues", name: "dcqcn_marks", unit: "frames", kind: "counter", doc: "ECN-capable frames the CP marked CE" },
    Metric { scope: "queues", name: "dcqcn_arrivals", unit: "frames", kind: "counter", doc: "data frames offered to the CP (ECN-capable or not)" },
    Metric { scope: "receivers", name: "dcqcn_ce_frames", unit: "frames", kind: "counter", doc: "CE-marked data frames the NP received" },
    Metric { scope: "receivers", name: "dcqcn_cnps_sent", unit: "frames", kind: "counter", doc: "CNPs the NP sent (at most one per cnp_interval)" },
];

/// One microsecond in picoseconds.
pub const PS_PER_US: Time = 1_000_000;

/// `us` microseconds as a `Time`; an error past `MAX_TIME` (checked, never wraps).
pub fn micros(us: u64) -> Result<Time, String> {
    us.checked_mul(PS_PER_US).filter(|&t| t <= MAX_TIME).ok_or_else(|| format!("{us} µs is longer than the simulator's largest time"))
}

/// The CP: RED-ECN marking on the instantaneous egress queue, in bytes (§3.1, Fig. 5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkingParams {
    /// Kmin, bytes: at or below it no frame is marked. 5 KB [§5, the tuned setting].
    pub kmin: u64,
    /// Kmax, bytes: above it every ECN-capable frame is marked. 200 KB [§5].
    pub kmax: u64,
    /// Pmax: the marking probability at Kmax. 1 % [§5].
    pub pmax: f64,
}

impl MarkingParams {
    /// The paper's tuned marking (§5: Kmin = 5 KB, Kmax = 200 KB, Pmax = 1 %; KB read as 1000 B).
    pub fn standard() -> Self {
        MarkingParams { kmin: 5_000, kmax: 200_000, pmax: 0.01 }
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.kmin > self.kmax {
            return Err(format!("marking: kmin ({} B) must not exceed kmax ({} B)", self.kmin, self.kmax));
        }
        if !(0.0..=1.0).contains(&self.pmax) {
            return Err(format!("marking: pmax must be within [0, 1], got {}", self.pmax));
        }
        Ok(())
    }
}

impl Default for MarkingParams {
    fn default() -> Self {
        Self::standard()
    }
}

/// The NP: CNP pacing per flow (§3.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NpParams {
    /// N: at most one CNP per flow in this interval. 50 µs [§3.2]. (NIC docs: the firmware's
    /// `min_time_between_cnps`, whose default differs by NIC generation.)
    pub cnp_interval: Time,
    /// How "at most one CNP per N" is counted (`np` module doc). Default `SinceLast`: a mark is
    /// answered when no CNP went out in the last N [§3.2]; `Window`: the first mark of each
    /// N-window, the fluid model's counting (§5) and ns3-rdma's.
    pub pacing: CnpPacing,
}

/// The NP's reading of "at most one CNP per flow every N".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CnpPacing {
    SinceLast,
    Window,
}

impl NpParams {
    pub fn standard() -> Self {
        NpParams { cnp_interval: 50 * PS_PER_US, pacing: CnpPacing::SinceLast }
    }
    pub fn validate(&self) -> Result<(), String> {
        if self.cnp_interval > MAX_TIME {
            return Err("np: cnp_interval is longer than the simulator's largest time".into());
        }
        Ok(())
    }
}

impl Default for NpParams {
    fn default() -> Self {
        Self::standard()
    }
}

/// The RP: the per-flow rate controller (§3.3; parameter values §5). Rates in bit/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RpParams {
    /// The source link's rate; RC and RT start here (§3.3: no slow start, a flow starts at line
    /// rate) and never exceed it.
    pub line_rate: f64,
    /// Floor of RC. The paper gives none [assumed]: 100 Mb/s, ns3-rdma's default (the NIC docs'
    /// `rpg_min_rate` default is 1 Mb/s).
    pub min_rate: f64,
    /// g, the gain of the α estimate. 1/256 [§3.3, §5] (ns3-rdma and HPCC sim default to 1/16).
    pub g: f64,
    /// α before the first CNP. The paper starts it at 1 [§3.3]; HPCC sim sets 1 on the first CNP,
    /// the NIC docs' `initial_alpha_value` is 1023/1024, ns3-rdma starts at 0.5.
    pub alpha_init: f64,
    /// Update α before the cut, so the cut uses the new α (ns3-rdma's order). Default false: the
    /// paper's Eq. (1) lists the cut RC·(1 − α/2) before the α update.
    pub alpha_before_cut: bool,
    /// K: α decays, α = (1 − g)·α, every K without a CNP. 55 µs [§3.3] (K must exceed the NP's N).
    pub alpha_interval: Time,
    /// T: the rate-increase timer period. 55 µs [§5] (ns3-rdma and HPCC sim default to 1.5 ms).
    pub timer_period: Time,
    /// B: a rate-increase event every B bytes sent. 10 MB [§5] (ns3-rdma: 150 KB, QCN's).
    pub byte_counter: u64,
    /// F: fast-recovery events before additive increase. 5 [§3.3].
    pub fast_recovery_th: u32,
    /// R_AI: additive-increase step of RT. 40 Mb/s [§5].
    pub r_ai: f64,
    /// R_HAI: hyper-increase step of RT. The paper gives no value [assumed]: 10·R_AI, the ratio of
    /// QCN's and the NIC docs' defaults (5 and 50 Mb/s).
    pub r_hai: f64,
    /// RT := RC at every CNP, as the paper's Eq. (1) says. With false, QCN's rule as ns3-rdma and
    /// HPCC sim implement it by default: RT := RC only if an increase event happened since the last
    /// cut or RC is at line rate (so a burst of CNPs keeps the older, higher target).
    pub clamp_target: bool,
}

impl RpParams {
    /// The paper's values for a source whose link runs at `line_rate` bit/s.
    pub fn standard(line_rate: f64) -> Self {
        RpParams {
            line_rate,
            min_rate: 100e6,
            g: 1.0 / 256.0,
            alpha_init: 1.0,
            alpha_before_cut: false,
            alpha_interval: 55 * PS_PER_US,
            timer_period: 55 * PS_PER_US,
            byte_counter: 10_000_000,
            fast_recovery_th: 5,
            r_ai: 40e6,
            r_hai: 400e6,
            clamp_target: true,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let finite_pos = |x: f64| x.is_finite() && x > 0.0;
        if !finite_pos(self.line_rate) {
            return Err(format!("rp: line_rate must be a positive rate, got {}", self.line_rate));
        }
        if !finite_pos(self.min_rate) || self.min_rate > self.line_rate {
            return Err(format!("rp: min_rate must be within (0, line_rate = {}], got {}", self.line_rate, self.min_rate));
        }
        if !(self.g > 0.0 && self.g <= 1.0) {
            return Err(format!("rp: g must be within (0, 1], got {}", self.g));
        }
        if !(0.0..=1.0).contains(&self.alpha_init) {
            return Err(format!("rp: alpha_init must be within [0, 1], got {}", self.alpha_init));
        }
        for (name, t) in [("alpha_interval", self.alpha_interval), ("timer_period", self.timer_period)] {
            if t == 0 || t > MAX_TIME {
                return Err(format!("rp: {name} must be positive and at most the simulator's largest time"));
            }
        }
        if self.byte_counter == 0 {
            return Err("rp: byte_counter must be at least 1 byte".into());
        }
        for (name, r) in [("r_ai", self.r_ai), ("r_hai", self.r_hai)] {
            if !(r.is_finite() && r >= 0.0) {
                return Err(format!("rp: {name} must be a rate ≥ 0, got {r}"));
            }
        }
        Ok(())
    }
}

impl Default for RpParams {
    /// The paper's testbed links: 40 Gb/s (§1, §6).
    fn default() -> Self {
        Self::standard(40e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate() {
        assert_eq!(MarkingParams::default().validate(), Ok(()));
        assert_eq!(NpParams::default().validate(), Ok(()));
        assert_eq!(RpParams::default().validate(), Ok(()));
    }

    #[test]
    fn ranges_are_checked() {
        assert!(MarkingParams { kmin: 10, kmax: 9, pmax: 0.5 }.validate().is_err());
        assert!(MarkingParams { pmax: 1.5, ..MarkingParams::standard() }.validate().is_err());
        assert!(MarkingParams { pmax: f64::NAN, ..MarkingParams::standard() }.validate().is_err());
        let rp = RpParams::standard(10e9);
        assert!(RpParams { min_rate: 20e9, ..rp }.validate().is_err());
        assert!(RpParams { g: 0.0, ..rp }.validate().is_err());
        assert!(RpParams { timer_period: 0, ..rp }.validate().is_err());
        assert!(RpParams { byte_counter: 0, ..rp }.validate().is_err());
        assert!(RpParams { line_rate: f64::INFINITY, ..rp }.validate().is_err());
        assert!(RpParams { r_hai: -1.0, ..rp }.validate().is_err());
    }

    #[test]
    fn micros_is_checked() {
        assert_eq!(micros(55), Ok(55_000_000));
        assert!(micros(u64::MAX / 2).is_err()); // overflows the multiplication
        assert!(micros(MAX_TIME / PS_PER_US + 1).is_err()); // fits a u64 but not MAX_TIME
    }
}
