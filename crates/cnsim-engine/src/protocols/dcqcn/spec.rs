//! DCQCN's scenario tables and their build: `queue = { discipline = "dcqcn", dcqcn = { … } }` for
//! the CP, `rp = { dcqcn = { … } }` on a flow for its RP and, at every receiver of the flow, its
//! NP. Defaults are `MarkingParams::standard`, `RpParams::standard` and `NpParams::standard`
//! (the paper's values, cited there); units are checked here.

use super::slot::{MarkingAqm, Np};
use super::{CnpPacing, Marking, MarkingParams, NotificationPoint, NpParams, ReactionPoint, RpParams};
use crate::core::rng::Rng;
use crate::core::time::MAX_TIME;
use crate::slots::spec::{FlowCx, FromSpec, QueueCx};
use crate::units::{Amount, Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

fn d_kmin() -> Bytes {
    Bytes(MarkingParams::standard().kmin)
}
fn d_kmax() -> Bytes {
    Bytes(MarkingParams::standard().kmax)
}
fn d_pmax() -> f64 {
    MarkingParams::standard().pmax
}

/// `queue.dcqcn`: the CP's marking on the instantaneous queue (bytes).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MarkingSpec {
    /// No mark at or below Kmin; default 5 KB.
    #[serde(default = "d_kmin")]
    pub kmin: Bytes,
    /// Every ECN-capable frame marked above Kmax; default 200 KB.
    #[serde(default = "d_kmax")]
    pub kmax: Bytes,
    /// Marking probability at Kmax; default 0.01.
    #[serde(default = "d_pmax")]
    pub pmax: f64,
}

/// The standard RP's values, for the table's defaults (the line rate plays no part in them).
fn std_rp() -> RpParams {
    RpParams::standard(1.0)
}
fn d_g() -> f64 {
    std_rp().g
}
fn d_alpha_init() -> f64 {
    std_rp().alpha_init
}
fn d_alpha_interval() -> Duration {
    Duration(std_rp().alpha_interval)
}
fn d_timer() -> Duration {
    Duration(std_rp().timer_period)
}
fn d_byte_counter() -> Bytes {
    Bytes(std_rp().byte_counter)
}
fn d_fast_recovery() -> u32 {
    std_rp().fast_recovery_th
}
fn d_r_ai() -> Rate {
    Rate(std_rp().r_ai as u64)
}
fn d_r_hai() -> Rate {
    Rate(std_rp().r_hai as u64)
}
fn d_min_rate() -> Rate {
    Rate(std_rp().min_rate as u64)
}
fn d_true() -> bool {
    true
}
fn d_cnp_interval() -> Duration {
    Duration(NpParams::standard().cnp_interval)
}
fn d_cnp_size() -> Bytes {
    Bytes(64)
}

/// `rp.dcqcn.cnp_pacing`.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CnpPacingSpec {
    #[default]
    SinceLast,
    Window,
}

/// `rp = { dcqcn = { … } }`: the flow's RP (§3.3) and its receivers' NP (§3.2).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RpSpec {
    /// g, the α gain; default 1/256.
    #[serde(default = "d_g")]
    pub g: f64,
    /// α before the first CNP; default 1.
    #[serde(default = "d_alpha_init")]
    pub alpha_init: f64,
    /// Update α before the cut (ns3-rdma's order); default false (the paper's Eq. 1 order).
    #[serde(default)]
    pub alpha_before_cut: bool,
    /// K, the α decay period; default 55 µs.
    #[serde(default = "d_alpha_interval")]
    pub alpha_interval: Duration,
    /// T, the rate-increase timer; default 55 µs.
    #[serde(default = "d_timer")]
    pub timer: Duration,
    /// B, bytes per byte-counter increase event; default 10 MB.
    #[serde(default = "d_byte_counter")]
    pub byte_counter: Bytes,
    /// F, fast-recovery events before additive increase; default 5.
    #[serde(default = "d_fast_recovery")]
    pub fast_recovery: u32,
    /// R_AI; default 40 Mb/s.
    #[serde(default = "d_r_ai")]
    pub r_ai: Rate,
    /// R_HAI; default 400 Mb/s [assumed: the paper gives none].
    #[serde(default = "d_r_hai")]
    pub r_hai: Rate,
    /// RC's floor (at most the source's line rate); default 100 Mb/s [assumed: the paper gives none].
    #[serde(default = "d_min_rate")]
    pub min_rate: Rate,
    /// RT := RC at every CNP (the paper's Eq. 1); false: QCN's rule. Default true.
    #[serde(default = "d_true")]
    pub clamp_target: bool,
    /// N, at most one CNP per flow and receiver in this interval; default 50 µs.
    #[serde(default = "d_cnp_interval")]
    pub cnp_interval: Duration,
    /// "since-last" (default: a mark is answered when no CNP went out in the last N, §3.2) or
    /// "window" (the first mark of each N-window: the fluid model's counting, §5).
    #[serde(default)]
    pub cnp_pacing: CnpPacingSpec,
    /// CNP frame size; default 64 B (a minimum Ethernet frame; the paper gives none).
    #[serde(default = "d_cnp_size")]
    pub cnp_size: Bytes,
    /// CNPs' priority 0–7; default: the data frame's.
    pub cnp_priority: Option<u8>,
}

/// The CP of an output queue (`spec` None: the defaults).
pub fn aqm(spec: Option<&MarkingSpec>, seed: u64, name: &str) -> Result<MarkingAqm, String> {
    let d = MarkingSpec { kmin: d_kmin(), kmax: d_kmax(), pmax: d_pmax() };
    let s = spec.unwrap_or(&d);
    if s.kmin.0 > s.kmax.0 {
        return Err(format!("queue.dcqcn.kmin = {} B must not be above queue.dcqcn.kmax = {} B", s.kmin.0, s.kmax.0));
    }
    if !(0.0..=1.0).contains(&s.pmax) {
        return Err(format!("queue.dcqcn.pmax must be in [0, 1], got {}", s.pmax));
    }
    let p = MarkingParams { kmin: s.kmin.0, kmax: s.kmax.0, pmax: s.pmax };
    p.validate().map_err(|e| format!("queue.dcqcn: {e}"))?;
    Ok(MarkingAqm { m: Marking::new(p), rng: Rng::stream(seed, "dcqcn", name) })
}

/// The RP of a flow whose source link runs at `line_rate` bit/s.
pub fn rp(s: &RpSpec, line_rate: f64) -> Result<ReactionPoint, String> {
    // The default floor may exceed a slow link's rate (it is then that rate); a floor the scenario
    // sets above the line rate could never be reached by a cut: refused.
    if s.min_rate != d_min_rate() && s.min_rate.0 as f64 > line_rate {
        return Err(format!(
            "rp.dcqcn.min_rate = {} b/s is above the line rate of the flow's source link ({line_rate} b/s): it must lie in (0, line rate]",
            s.min_rate.0
        ));
    }
    if !(s.g > 0.0 && s.g <= 1.0) {
        return Err(format!("rp.dcqcn.g must be in (0, 1], got {}", s.g));
    }
    if !(0.0..=1.0).contains(&s.alpha_init) {
        return Err(format!("rp.dcqcn.alpha_init must be in [0, 1], got {}", s.alpha_init));
    }
    for (key, d) in [("alpha_interval", s.alpha_interval), ("timer", s.timer)] {
        if d.0 == 0 || d.0 > MAX_TIME {
            return Err(format!("rp.dcqcn.{key} must be positive (and at most the simulator's largest time), got {d}"));
        }
    }
    if s.byte_counter.0 == 0 {
        return Err(format!("rp.dcqcn.byte_counter must be at least 1 B, got {}", s.byte_counter));
    }
    if s.min_rate.0 == 0 {
        return Err(format!("rp.dcqcn.min_rate must be positive, got {}", s.min_rate));
    }
    let p = RpParams {
        line_rate,
        min_rate: (s.min_rate.0 as f64).min(line_rate), // a floor above a slow link's rate is the link's rate
        g: s.g,
        alpha_init: s.alpha_init,
        alpha_before_cut: s.alpha_before_cut,
        alpha_interval: s.alpha_interval.0,
        timer_period: s.timer.0,
        byte_counter: s.byte_counter.0,
        fast_recovery_th: s.fast_recovery,
        r_ai: s.r_ai.0 as f64,
        r_hai: s.r_hai.0 as f64,
        clamp_target: s.clamp_target,
    };
    p.validate().map_err(|e| format!("rp.dcqcn: {e}"))?;
    Ok(ReactionPoint::new(p))
}

/// The NP at each receiver of the flow.
pub fn np(s: &RpSpec) -> Result<Np, String> {
    let pacing = match s.cnp_pacing {
        CnpPacingSpec::SinceLast => CnpPacing::SinceLast,
        CnpPacingSpec::Window => CnpPacing::Window,
    };
    let p = NpParams { cnp_interval: s.cnp_interval.0, pacing };
    p.validate().map_err(|e| format!("rp.dcqcn: {e}"))?;
    if s.cnp_priority.is_some_and(|c| c > 7) {
        return Err(format!("rp.dcqcn.cnp_priority must be 0–7, got {}", s.cnp_priority.unwrap_or(0)));
    }
    let size = u32::try_from(s.cnp_size.0).ok().filter(|&b| (64..=9216).contains(&b));
    let cnp_size = size.ok_or_else(|| format!("rp.dcqcn.cnp_size must be 64 B–9216 B, got {}", s.cnp_size))?;
    Ok(Np { np: NotificationPoint::new(p), cnp_size, cnp_prio: s.cnp_priority })
}

/// `discipline = "dcqcn"` with its table (`None`: the defaults) → the marking CP in front of the
/// queue of the port `cx.name`.
impl FromSpec for MarkingAqm {
    type Spec = Option<MarkingSpec>;
    type Cx = QueueCx;
    fn from_spec(spec: &Option<MarkingSpec>, cx: &QueueCx) -> Result<MarkingAqm, String> {
        if let Some(s) = spec {
            if s.kmin.0 >= capacity_bytes(cx) {
                return Err(format!("queue.dcqcn.kmin = {} B is not below the queue's capacity of {}: the queue would drop before it marks", s.kmin.0, capacity_words(cx)));
            }
        }
        aqm(spec.as_ref(), cx.seed, &cx.name)
    }
    /// Kmax at or above the capacity: marking never reaches Pmax and 1 before the queue drops.
    fn warnings(spec: &Option<MarkingSpec>, cx: &QueueCx) -> Vec<String> {
        let cap = capacity_bytes(cx);
        match spec {
            Some(s) if s.kmax.0 >= cap && s.kmin.0 < cap => vec![format!(
                "queue.dcqcn.kmax = {} B is not below the queue's capacity of {}: the queue drops before marking reaches pmax",
                s.kmax.0,
                capacity_words(cx)
            )],
            _ => vec![],
        }
    }
}

/// The queue's capacity in bytes (a frame counts `cx.frame` bytes): Kmin and Kmax are in bytes.
fn capacity_bytes(cx: &QueueCx) -> u64 {
    cx.capacity.bytes(cx.frame)
}

/// The capacity as the scenario gives it, with its bytes when it is given in frames.
fn capacity_words(cx: &QueueCx) -> String {
    match cx.capacity {
        Amount::Bytes(b) => format!("{b} B"),
        Amount::Frames(_) => format!("{} ({} B at simulation.frame_size = {} B)", cx.capacity, capacity_bytes(cx), cx.frame),
    }
}

/// `rp = { dcqcn = … }` → the flow's RP.
impl FromSpec for ReactionPoint {
    type Spec = RpSpec;
    type Cx = FlowCx;
    fn from_spec(spec: &RpSpec, cx: &FlowCx) -> Result<ReactionPoint, String> {
        rp(spec, cx.line_rate)
    }
    /// An increase step (R_AI, R_HAI) set above the line rate takes the rate to the line rate in
    /// one step (the defaults are not: they are for 40 Gb/s, and a slow link is the scenario's
    /// choice).
    fn warnings(s: &RpSpec, cx: &FlowCx) -> Vec<String> {
        [("r_ai", s.r_ai, d_r_ai()), ("r_hai", s.r_hai, d_r_hai())]
            .into_iter()
            .filter(|(_, r, d)| r != d && r.0 as f64 > cx.line_rate)
            .map(|(k, r, _)| format!("rp.dcqcn.{k} = {} b/s is above the line rate of the flow's source link ({} b/s): one increase takes the rate to the line rate", r.0, cx.line_rate))
            .collect()
    }
}

/// `rp = { dcqcn = … }` → the NP at each receiver of the flow.
impl FromSpec for Np {
    type Spec = RpSpec;
    type Cx = ();
    fn from_spec(spec: &RpSpec, _: &()) -> Result<Np, String> {
        np(spec)
    }
}
