//! ECM's scenario tables (Roeck 2007): `[cp.ecm]` and `rp = { ecm = … }`. Composed into the
//! scenario model (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors.

use crate::protocols::bcn::spec::AssociationSpec;
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
    #[serde(default = "crate::defaults::d_cnm_size")]
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
