//! BCN's scenario tables (Jiang & Jain 2007): `[cp.bcn]` and `rp = { bcn = … }`; the CPID
//! association ECM shares. Composed into the scenario model (`scenario/model.rs`), which re-exports
//! it; every field has a documented default (docs/scenarios.md) and unknown keys are errors.

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
    #[serde(default = "crate::defaults::d_cnm_size")]
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
