//! BCN's scenario tables (Jiang & Jain 2007): `[cp.bcn]` and `rp = { bcn = … }`; the CPID
//! association ECM shares. Composed into the scenario model (`scenario/model.rs`), which re-exports
//! it; every field has a documented default (docs/scenarios.md) and unknown keys are errors.
//! Each table builds its slot's state here (`FromSpec`), with range checks whose messages name
//! the key.

use super::{Association, BcnCp, CongestionPoint, CpParams, ReactionPoint, RpParams};
use crate::core::rng::Rng;
use crate::slots::spec::{frame_size, FlowCx, FromSpec, PortCx, MAX_QUEUE_BYTES};
use crate::units::{Amount, Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_pm: f64 = 0.01;
    d_bcn_qeq: Amount = Amount::Frames(16);
    d_qsc: Amount = Amount::Frames(80);
    d_gi: f64 = 4.0;
    d_gd_bcn: f64 = 0.0124;
    d_ru: Rate = Rate(4_000_000);
    d_bcn_min_rate: Rate = Rate(1_000_000);
    d_stop_max: Duration = Duration(1_000_000_000);
}

/// `[cp.bcn]`: Jiang & Jain 2007 §VI.A's parameters by default.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BcnCpSpec {
    /// Sampling probability Pm, default 0.01 (docs/protocols.md §6).
    #[serde(default = "d_pm")]
    pub pm: f64,
    /// Equilibrium queue Qeq, default 16 frames.
    #[serde(default = "d_bcn_qeq")]
    pub qeq: Amount,
    /// STOP threshold Qsc, default 80 frames.
    #[serde(default = "d_qsc")]
    pub qsc: Amount,
    /// W, default 2.
    #[serde(default = "crate::defaults::d_w")]
    pub w: f64,
    /// BCN message size, default 64 B (the seed gives none).
    #[serde(default = "crate::defaults::d_min_frame")]
    pub msg_size: Bytes,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum AssociationSpec {
    /// The CPID of the latest negative message (the CP that last asked for a decrease).
    #[default]
    LatestNegative,
    /// The CPID of the message that created the regulator.
    First,
}

/// `rp = { bcn = { ... } }`: Jiang & Jain 2007 §VI.A's parameters by default.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BcnRpSpec {
    /// Additive increase gain Gi, default 4.
    #[serde(default = "d_gi")]
    pub gi: f64,
    /// Multiplicative decrease gain Gd, default 0.0124.
    #[serde(default = "d_gd_bcn")]
    pub gd: f64,
    /// Rate unit Ru, default 4 Mb/s.
    #[serde(default = "d_ru")]
    pub ru: Rate,
    /// Enhanced BCN: Ru = ru_fraction × the capacity C a message carries (e.g. 0.0008: 8 Mb/s at
    /// 10 Gb/s, Jiang & Jain 2007 §VI.B). Unset: the fixed `ru`.
    pub ru_fraction: Option<f64>,
    /// Floor of the regulated rate, default 1 Mb/s (an assumption: the seed gives none).
    #[serde(default = "d_bcn_min_rate")]
    pub min_rate: Rate,
    /// Smallest factor one negative message may multiply the rate by, default 0.5 (eq. 2's
    /// 1 + Gd·e is negative for e < −1/Gd; the seed is silent; as QCN's MIN_DEC_FACTOR).
    #[serde(default = "crate::defaults::d_min_dec")]
    pub min_dec_factor: f64,
    /// A STOP lasts U[0, stop_max], default 1 ms (an assumption: "a random period").
    #[serde(default = "d_stop_max")]
    pub stop_max: Duration,
    /// Which CPID the regulator keeps, default "latest-negative".
    #[serde(default)]
    pub association: AssociationSpec,
}

impl AssociationSpec {
    /// The RP's association rule this key names.
    pub fn association(self) -> Association {
        match self {
            AssociationSpec::LatestNegative => Association::LatestNegative,
            AssociationSpec::First => Association::First,
        }
    }
}

/// `[cp.bcn]` → the congestion point of the port `cx.name`: thresholds in frames of `cx.frame` bytes.
impl FromSpec for BcnCp {
    type Spec = BcnCpSpec;
    type Cx = PortCx;
    fn from_spec(spec: &BcnCpSpec, cx: &PortCx) -> Result<BcnCp, String> {
        let frame = cx.frame;
        if !(spec.pm > 0.0 && spec.pm <= 1.0) {
            return Err(format!("cp.bcn.pm must be in (0, 1], got {}", spec.pm));
        }
        if !(spec.w >= 0.0 && spec.w.is_finite() && spec.w <= 1e6) {
            return Err(format!("cp.bcn.w must be a number in [0, 1e6], got {}", spec.w));
        }
        let frames = |a: Amount| a.bytes(frame) as f64 / frame as f64;
        let (qeq, qsc) = (frames(spec.qeq), frames(spec.qsc));
        if !(qeq > 0.0 && qeq < qsc && qsc <= MAX_QUEUE_BYTES as f64) {
            return Err(format!("cp.bcn needs 0 < qeq < qsc, got qeq {} and qsc {}", spec.qeq, spec.qsc));
        }
        // Qeq is the queue the CP steers to (Jiang & Jain 2007 §II): a queue that cannot hold it
        // drops before it reaches it.
        if let Some(cap) = cx.capacity.filter(|c| spec.qeq.bytes(frame) >= c.bytes(frame)) {
            return Err(format!("cp.bcn.qeq = {} is not below the queue's capacity of {cap}: the queue would drop before it reaches Qeq", spec.qeq));
        }
        let p = CpParams { pm: spec.pm, qeq, qsc, w: spec.w, msg_size: frame_size(spec.msg_size, "cp.bcn.msg_size")?, frame: frame as u32 };
        Ok(BcnCp { cp: CongestionPoint::new(p), rng: Rng::stream(cx.seed, "cp", &cx.name) })
    }

    /// Qsc at or above the queue's capacity: the queue drops before it ever sends a STOP (legal: it
    /// turns STOP off, but then say so with a smaller queue or leave Qsc below it).
    fn warnings(spec: &BcnCpSpec, cx: &PortCx) -> Vec<String> {
        match cx.capacity.filter(|c| spec.qsc.bytes(cx.frame) >= c.bytes(cx.frame)) {
            Some(cap) => vec![format!("cp.bcn.qsc = {} is not below the queue's capacity of {cap}: the CP never sends a STOP", spec.qsc)],
            None => vec![],
        }
    }
}

/// `rp = { bcn = … }` → the rate regulator of a flow.
impl FromSpec for ReactionPoint {
    type Spec = BcnRpSpec;
    type Cx = FlowCx;
    fn from_spec(spec: &BcnRpSpec, cx: &FlowCx) -> Result<ReactionPoint, String> {
        let finite_pos = |x: f64| x > 0.0 && x.is_finite();
        if !finite_pos(spec.gi) {
            return Err(format!("rp.bcn.gi must be positive (and finite), got {}", spec.gi));
        }
        if !(spec.gd > 0.0 && spec.gd < 1.0) {
            return Err(format!("rp.bcn.gd must be in (0, 1), got {}", spec.gd));
        }
        if let Some(k) = spec.ru_fraction.filter(|&k| !(finite_pos(k) && k <= 1.0)) {
            return Err(format!("rp.bcn.ru_fraction must be in (0, 1], got {k}"));
        }
        if spec.ru.0 == 0 {
            return Err(format!("rp.bcn.ru must be positive, got {}", spec.ru));
        }
        if spec.min_rate.0 == 0 || spec.min_rate.0 as f64 > cx.line_rate {
            return Err(format!(
                "rp.bcn.min_rate = {} b/s is above the line rate of the flow's source link ({} b/s): it must lie in (0, line rate]",
                spec.min_rate.0, cx.line_rate
            ));
        }
        if !(spec.min_dec_factor >= 0.0 && spec.min_dec_factor < 1.0) {
            return Err(format!("rp.bcn.min_dec_factor must be in [0, 1), got {}", spec.min_dec_factor));
        }
        Ok(ReactionPoint::new(RpParams {
            line_rate: cx.line_rate,
            gi: spec.gi,
            gd: spec.gd,
            ru: spec.ru.0 as f64,
            ru_fraction: spec.ru_fraction,
            min_rate: spec.min_rate.0 as f64,
            min_dec_factor: spec.min_dec_factor,
            stop_max: spec.stop_max.0,
            association: spec.association.association(),
        }))
    }

    /// A rate unit Ru above the line rate: one positive message takes the rate to the line rate.
    fn warnings(spec: &BcnRpSpec, cx: &FlowCx) -> Vec<String> {
        if spec.ru_fraction.is_none() && spec.ru.0 as f64 > cx.line_rate {
            return vec![format!(
                "rp.bcn.ru = {} b/s is above the line rate of the flow's source link ({} b/s): one increase takes the rate to the line rate",
                spec.ru.0, cx.line_rate
            )];
        }
        vec![]
    }
}
