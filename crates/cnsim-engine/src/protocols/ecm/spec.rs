//! ECM's scenario tables (Roeck 2007): `[cp.ecm]` and `rp = { ecm = … }`. Composed into the
//! scenario model (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors. Each table builds its slot's state here
//! (`FromSpec`), with range checks whose messages name the key.

use super::{CongestionPoint, CpParams, EcmCp, ReactionPoint, RpParams};
use crate::core::rng::Rng;
use crate::protocols::bcn::spec::AssociationSpec;
use crate::slots::spec::{frame_size, FlowCx, FromSpec, PortCx, MAX_FRAME, MAX_QUEUE_BYTES};
use crate::units::{Amount, Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_ecm_qeq: Amount = Amount::Bytes(375 * 64);
    d_ecm_qsc: Amount = Amount::Bytes(1600 * 64);
    d_ecm_qmc: Amount = Amount::Bytes(2400 * 64);
    d_ecm_unit: Bytes = Bytes(64);
    d_ecm_gi: f64 = 0.53333;
    d_ecm_gd: f64 = 0.00026667;
    d_mbps: Rate = Rate(1_000_000);
    d_ms: Duration = Duration(1_000_000_000);
}

/// `[cp.ecm]`: Roeck 2007's backup slide "Simulation Parameters - ECM", read in 64-B units
/// (`protocols::ecm` explains the reading).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EcmCpSpec {
    /// Qeq, default 375 × 64 B = 24000 B.
    #[serde(default = "d_ecm_qeq")]
    pub qeq: Amount,
    /// Mild congestion above Qsc, default 1600 × 64 B = 102400 B.
    #[serde(default = "d_ecm_qsc")]
    pub qsc: Amount,
    /// Severe congestion above Qmc, default 2400 × 64 B = 153600 B.
    #[serde(default = "d_ecm_qmc")]
    pub qmc: Amount,
    /// W, default 2.
    #[serde(default = "crate::defaults::d_w")]
    pub w: f64,
    /// Bytes per unit of Fb, default 64 B (an assumed reading of the slide's unit-less values).
    #[serde(default = "d_ecm_unit")]
    pub unit: Bytes,
    /// samplingInterval, default 150000 B.
    #[serde(default = "crate::defaults::d_sample_base")]
    pub sample_interval: Amount,
    /// U(0.85, 1.15) jitter on each sampling interval, default true (as QCN's [impl]).
    #[serde(default = "crate::defaults::d_true")]
    pub jitter: bool,
    /// CM message size, default 64 B (the seed gives none).
    #[serde(default = "crate::defaults::d_min_frame")]
    pub msg_size: Bytes,
}

/// `rp = { ecm = { ... } }`: Roeck 2007's backup slide "Simulation Parameters - ECM".
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EcmRpSpec {
    /// Gi, default 0.53333 (per 64-B unit of Fb).
    #[serde(default = "d_ecm_gi")]
    pub gi: f64,
    /// Gd, default 0.00026667.
    #[serde(default = "d_ecm_gd")]
    pub gd: f64,
    /// Ru, default 1 Mb/s.
    #[serde(default = "d_mbps")]
    pub ru: Rate,
    /// Drift: + Rd every Td without feedback, default 1 Mb/s every 1 ms.
    #[serde(default = "d_mbps")]
    pub rd: Rate,
    #[serde(default = "d_ms")]
    pub td: Duration,
    /// Rmin, default 1 Mb/s.
    #[serde(default = "d_mbps")]
    pub min_rate: Rate,
    /// Largest cut of one message, default 0.5 (the seed is silent; as QCN's MIN_DEC_FACTOR).
    #[serde(default = "crate::defaults::d_min_dec")]
    pub min_dec_factor: f64,
    /// Which CPID the regulator keeps, default "latest-negative".
    #[serde(default)]
    pub association: AssociationSpec,
    /// RTT-triggered CM drops: accept at most one message per RTT from one CPID, default false
    /// (the slide's "ECM" runs; the seed adds the drops for large latencies).
    #[serde(default)]
    pub rtt_drop: bool,
    /// The RTT for the drops; absent = measured from the send time echoed by each message.
    pub rtt: Option<Duration>,
}

/// `[cp.ecm]` → the congestion point of the port `cx.name`: thresholds in bytes, Fb in units of
/// `unit` bytes.
impl FromSpec for EcmCp {
    type Spec = EcmCpSpec;
    type Cx = PortCx;
    fn from_spec(spec: &EcmCpSpec, cx: &PortCx) -> Result<EcmCp, String> {
        let frame = cx.frame;
        let (qeq, qsc, qmc) = (spec.qeq.bytes(frame), spec.qsc.bytes(frame), spec.qmc.bytes(frame));
        // 0 < Qeq < Qsc ≤ Qmc ≤ 2^50 B: mild congestion above Qsc, severe above Qmc (Roeck 2007).
        if qeq == 0 {
            return Err(format!("cp.ecm.qeq must be positive, got {}", spec.qeq));
        }
        if qsc <= qeq {
            return Err(format!("cp.ecm.qsc must be above cp.ecm.qeq = {}, got {}", spec.qeq, spec.qsc));
        }
        if qmc < qsc || qmc > MAX_QUEUE_BYTES {
            return Err(format!("cp.ecm.qmc must be in [cp.ecm.qsc = {}, {MAX_QUEUE_BYTES} B], got {}", spec.qsc, spec.qmc));
        }
        // Qeq is the queue the CP steers to (Roeck 2007): a queue that cannot hold it drops first.
        if let Some(cap) = cx.capacity.filter(|c| qeq >= c.bytes(frame)) {
            return Err(format!("cp.ecm.qeq = {} is not below the queue's capacity of {cap}: the queue would drop before it reaches Qeq", spec.qeq));
        }
        if !(spec.w >= 0.0 && spec.w.is_finite() && spec.w <= 1e6) {
            return Err(format!("cp.ecm.w must be a number in [0, 1e6], got {}", spec.w));
        }
        if spec.unit.0 == 0 || spec.unit.0 > MAX_FRAME {
            return Err(format!("cp.ecm.unit must be between 1 B and {MAX_FRAME} B, got {}", spec.unit));
        }
        let sample_interval = spec.sample_interval.bytes(frame);
        if sample_interval == 0 || sample_interval > i64::MAX as u64 / 2 {
            return Err(format!("cp.ecm.sample_interval must be 1 B – 2^62 B, got {}", spec.sample_interval));
        }
        let p = CpParams {
            qeq,
            qsc,
            qmc,
            w: spec.w,
            unit: spec.unit.0,
            sample_interval,
            jitter: spec.jitter,
            msg_size: frame_size(spec.msg_size, "cp.ecm.msg_size")?,
        };
        Ok(EcmCp { cp: CongestionPoint::new(p), rng: Rng::stream(cx.seed, "cp", &cx.name) })
    }
}

/// `rp = { ecm = … }` → the rate regulator of a flow.
impl FromSpec for ReactionPoint {
    type Spec = EcmRpSpec;
    type Cx = FlowCx;
    fn from_spec(spec: &EcmRpSpec, cx: &FlowCx) -> Result<ReactionPoint, String> {
        if !(spec.gi > 0.0 && spec.gi.is_finite()) {
            return Err(format!("rp.ecm.gi must be positive (and finite), got {}", spec.gi));
        }
        if !(spec.gd > 0.0 && spec.gd < 1.0) {
            return Err(format!("rp.ecm.gd must be in (0, 1), got {}", spec.gd));
        }
        // Rmin is the floor of a cut (Roeck 2007): above the line rate, no cut could reach it.
        if spec.min_rate.0 == 0 || spec.min_rate.0 as f64 > cx.line_rate {
            return Err(format!(
                "rp.ecm.min_rate = {} b/s must lie in (0, line rate of the flow's source link ({} b/s)]",
                spec.min_rate.0, cx.line_rate
            ));
        }
        if spec.td.0 == 0 {
            return Err(format!("rp.ecm.td must be positive, got {}", spec.td));
        }
        if !(spec.min_dec_factor >= 0.0 && spec.min_dec_factor < 1.0) {
            return Err(format!("rp.ecm.min_dec_factor must be in [0, 1), got {}", spec.min_dec_factor));
        }
        if spec.rtt.is_some_and(|d| d.0 == 0) {
            return Err(format!("rp.ecm.rtt must be positive (leave it out to measure it), got {}", spec.rtt.unwrap_or_default()));
        }
        Ok(ReactionPoint::new(RpParams {
            line_rate: cx.line_rate,
            gi: spec.gi,
            gd: spec.gd,
            ru: spec.ru.0 as f64,
            rd: spec.rd.0 as f64,
            td: spec.td.0,
            min_rate: spec.min_rate.0 as f64,
            min_dec_factor: spec.min_dec_factor,
            association: spec.association.association(),
            rtt_drop: spec.rtt_drop,
            rtt: spec.rtt.map(|d| d.0),
        }))
    }
    /// A rate step (Ru per unit of positive feedback, Rd per Td of drift) above the line rate takes
    /// the rate to the line rate in one step.
    fn warnings(spec: &EcmRpSpec, cx: &FlowCx) -> Vec<String> {
        [("ru", spec.ru), ("rd", spec.rd)]
            .into_iter()
            .filter(|(_, r)| r.0 as f64 > cx.line_rate)
            .map(|(k, r)| format!("rp.ecm.{k} = {} b/s is above the line rate of the flow's source link ({} b/s): one step takes the rate to the line rate", r.0, cx.line_rate))
            .collect()
    }
}
