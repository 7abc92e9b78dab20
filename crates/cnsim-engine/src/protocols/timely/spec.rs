//! TIMELY's scenario table, a flow's `transport = { timely = {…} }` (or `[flow.transport.timely]`,
//! and a workload's). Every key has a documented default; unknown keys are errors; the range checks
//! name the key.

use super::slot::TimelyFlow;
use super::wire::HEADER_BYTES;
use super::{TimelyParams, Variant};
use crate::slots::spec::{frame_size, FromSpec, MAX_FRAME};
use crate::slots::transport::TransportCx;
use crate::units::{Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_alpha: f64 = 0.875;
    d_beta: f64 = 0.8;
    d_delta: Rate = Rate(10_000_000);
    d_t_low: Duration = Duration(50_000_000);
    d_t_high: Duration = Duration(500_000_000);
    d_min_rtt: Duration = Duration(20_000_000);
    d_hai_threshold: u32 = 5;
    d_hai_factor: f64 = 5.0;
    d_segment: Bytes = Bytes(16_384);
    d_min_rate: Rate = Rate(10_000_000);
    d_patched_beta: f64 = 0.008;
    d_mss: Bytes = Bytes(1448);
    d_ack_size: Bytes = Bytes(64);
    d_rto: Duration = Duration(1_000_000_000);
}

/// Which rate law: Mittal et al. 2015's Algorithm 1 or Zhu et al. 2016's patch.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum VariantSpec {
    #[default]
    Timely,
    Patched,
}

/// `transport = { timely = {…} }`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TimelySpec {
    /// "timely" (default: Mittal et al. 2015, Algorithm 1) or "patched" (Zhu et al. 2016 §5).
    #[serde(default)]
    pub variant: VariantSpec,
    /// EWMA weight α of the RTT difference, default 0.875: the HPCC authors' public ns-3 simulator
    /// (`RdmaHw`'s `TimelyAlpha`). Algorithm 1 names α; the TIMELY authors' published code snippet
    /// recommends 0.02 for its own time-scaled variant.
    #[serde(default = "d_alpha")]
    pub alpha: f64,
    /// Multiplicative decrease factor β, default 0.8: the TIMELY authors' published code snippet
    /// (`decreaseFactor`) and the HPCC ns-3 simulator (`TimelyBeta`).
    #[serde(default = "d_beta")]
    pub beta: f64,
    /// Additive increment δ, default 10 Mb/s: the TIMELY authors' code snippet (`additiveIncrement`,
    /// "10Mbps for 10Gbps line rate").
    #[serde(default = "d_delta")]
    pub delta: Rate,
    /// T_low, default 50 µs: the HPCC ns-3 simulator (`TimelyTLow`); the authors' snippet
    /// recommends 50 µs with per-64-KB pacing and 0 with per-packet pacing.
    #[serde(default = "d_t_low")]
    pub t_low: Duration,
    /// T_high, default 500 µs: the HPCC ns-3 simulator (`TimelyTHigh`); the authors' snippet
    /// recommends 1 ms.
    #[serde(default = "d_t_high")]
    pub t_high: Duration,
    /// The minimum RTT normalizing the gradient, default 20 µs: the HPCC ns-3 simulator
    /// (`TimelyMinRtt`); Algorithm 1 takes the fabric's minimum RTT.
    #[serde(default = "d_min_rtt")]
    pub min_rtt: Duration,
    /// Hyper-active increase: after this many completion events in a row with g ≤ 0 the increase is
    /// `hai_factor`·δ; defaults 5 and 5 (Mittal et al. 2015 Algorithm 1: N = 5 after five completion
    /// events with a negative gradient; the authors' snippet's `HAI_Thresh` = 5).
    #[serde(default = "d_hai_threshold")]
    pub hai_threshold: u32,
    #[serde(default = "d_hai_factor")]
    pub hai_factor: f64,
    /// Payload bytes per completion event (one rate update each), default 16 KiB (Mittal et al.
    /// 2015 §4: segments of 16 to 64 KB; Zhu et al. 2016 §4 analyse 16 KB).
    #[serde(default = "d_segment")]
    pub segment: Bytes,
    /// The rate at start, default the source's line rate (Mittal et al. 2015 start at line rate;
    /// Zhu et al. 2016 §4 start flows at different rates to show the many fixed points).
    pub init_rate: Option<Rate>,
    /// The lowest rate, default 10 Mb/s (Algorithm 1 is silent; a parameter of cnsim's, one δ).
    #[serde(default = "d_min_rate")]
    pub min_rate: Rate,
    /// Patched TIMELY's β', default 0.008 (the value of csg-htsim's patched TIMELY; cnsim could not
    /// read the paper's §5 value).
    #[serde(default = "d_patched_beta")]
    pub patched_beta: f64,
    /// Patched TIMELY's reference RTT, default T_low (as csg-htsim's patched TIMELY).
    pub rtt_ref: Option<Duration>,
    /// Payload bytes per frame, default 1448 B (1500-B frames with the 52 B of headers).
    #[serde(default = "d_mss")]
    pub mss: Bytes,
    /// Size of an acknowledgement frame, default 64 B.
    #[serde(default = "d_ack_size")]
    pub ack_size: Bytes,
    /// Retransmission timeout (go-back-N), default 1 ms (the papers run over lossless RoCE; a
    /// parameter of cnsim's for lossy fabrics).
    #[serde(default = "d_rto")]
    pub rto: Duration,
}

impl Default for TimelySpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

/// `transport = { timely = … }` → TIMELY's parameters, at a source whose link runs at `line_rate`.
pub fn params(s: &TimelySpec, line_rate: f64) -> Result<TimelyParams, String> {
    let unit = |x: f64, key: &str| if x > 0.0 && x <= 1.0 { Ok(()) } else { Err(format!("timely.{key} must be in (0, 1], got {x}")) };
    unit(s.alpha, "alpha")?;
    unit(s.beta, "beta")?;
    unit(s.patched_beta, "patched_beta")?;
    if s.delta.0 == 0 {
        return Err(format!("timely.delta must be positive, got {}", s.delta));
    }
    // The rate never falls below min_rate and never rises above the line rate (Algorithm 1).
    if s.min_rate.0 == 0 || s.min_rate.0 as f64 > line_rate {
        return Err(format!("timely.min_rate = {} b/s must lie in (0, line rate of the flow's source link ({line_rate} b/s)]", s.min_rate.0));
    }
    if s.min_rtt.0 == 0 {
        return Err(format!("timely.min_rtt must be positive, got {}", s.min_rtt));
    }
    if s.t_low.0 >= s.t_high.0 {
        return Err(format!("timely.t_low = {} must be below timely.t_high = {}", s.t_low, s.t_high));
    }
    if s.hai_threshold == 0 {
        return Err(format!("timely.hai_threshold must be at least 1, got {}", s.hai_threshold));
    }
    if !(s.hai_factor >= 1.0 && s.hai_factor <= 1000.0) {
        return Err(format!("timely.hai_factor must be in [1, 1000], got {}", s.hai_factor));
    }
    if s.segment.0 == 0 {
        return Err(format!("timely.segment must be positive, got {}", s.segment));
    }
    if s.rto.0 == 0 {
        return Err(format!("timely.rto must be positive, got {}", s.rto));
    }
    let rtt_ref = s.rtt_ref.map_or(s.t_low.0, |d| d.0);
    if rtt_ref == 0 {
        return Err("timely.rtt_ref must be positive (it defaults to timely.t_low, which is 0 here)".into());
    }
    Ok(TimelyParams {
        variant: match s.variant {
            VariantSpec::Timely => Variant::Timely,
            VariantSpec::Patched => Variant::Patched,
        },
        alpha: s.alpha,
        beta: s.beta,
        delta: s.delta.0 as f64,
        t_low: s.t_low.0,
        t_high: s.t_high.0,
        min_rtt: s.min_rtt.0,
        hai_threshold: s.hai_threshold,
        hai_factor: s.hai_factor,
        segment: s.segment.0,
        min_rate: s.min_rate.0 as f64,
        max_rate: line_rate,
        patched_beta: s.patched_beta,
        rtt_ref,
    })
}

/// `transport = { timely = … }` → one connection running the application `cx.app`.
impl FromSpec for TimelyFlow {
    type Spec = TimelySpec;
    type Cx = TransportCx;
    fn from_spec(s: &TimelySpec, cx: &TransportCx) -> Result<TimelyFlow, String> {
        let p = params(s, cx.line_rate)?;
        let mss = frame_size(s.mss, "timely.mss")?;
        frame_size(s.ack_size, "timely.ack_size")?;
        if mss as u64 + HEADER_BYTES as u64 > MAX_FRAME {
            return Err(format!("timely.mss = {} must leave room for {HEADER_BYTES} B of headers in {MAX_FRAME} B: at most {} B", s.mss, MAX_FRAME - HEADER_BYTES as u64));
        }
        let init = s.init_rate.map_or(cx.line_rate, |r| r.0 as f64);
        if init <= 0.0 {
            return Err(format!("timely.init_rate must be positive, got {init} b/s"));
        }
        Ok(TimelyFlow::new(p, init, mss, s.rto.0, cx.app, s.ack_size.0 as u32))
    }
    /// A start rate outside [min_rate, line rate] starts at the nearer bound (the rate never leaves
    /// it).
    fn warnings(s: &TimelySpec, cx: &TransportCx) -> Vec<String> {
        let line = cx.line_rate;
        match s.init_rate.map(|r| r.0 as f64) {
            Some(r) if r > line || r < s.min_rate.0 as f64 => vec![format!(
                "timely.init_rate = {r} b/s is outside [timely.min_rate, line rate of the flow's source link] = [{}, {line}] b/s: the flow starts at the nearer bound",
                s.min_rate.0
            )],
            _ => vec![],
        }
    }
}
