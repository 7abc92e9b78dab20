//! RED's scenario table (`queue.red`). Composed into the scenario model (`scenario/model.rs`),
//! which re-exports it; every field has a documented default (docs/scenarios.md) and unknown keys
//! are errors.

use crate::units::Bytes;
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_min_th: f64 = 5.0;
    d_max_th: f64 = 15.0;
    d_w_q: f64 = 0.002;
    d_max_p: f64 = 0.1;
    d_red_pkt: Bytes = Bytes(500);
}

/// `queue.red`: Floyd & Jacobson's RED; defaults are ns-2's (`Queue/RED`), thresholds in frames.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RedSpec {
    /// Default 5 frames (ns-2 `thresh_`); Nakauchi & Kobayashi 2006 uses 50.
    #[serde(default = "d_min_th")]
    pub min_th: f64,
    /// Default 15 frames (ns-2 `maxthresh_`).
    #[serde(default = "d_max_th")]
    pub max_th: f64,
    /// EWMA weight w_q, default 0.002 (FJ93 §11).
    #[serde(default = "d_w_q")]
    pub w_q: f64,
    /// Drop probability at max_th, default 0.1 (ns-2 `linterm_` = 10).
    #[serde(default = "d_max_p")]
    pub max_p: f64,
    /// "gentle" ramp from max_p to 1 between max_th and 2·max_th, default true (ns-2).
    #[serde(default = "crate::defaults::d_true")]
    pub gentle: bool,
    /// Mark ECN-capable frames instead of dropping them early, default false.
    #[serde(default)]
    pub ecn: bool,
    /// Packet size s of the idle-time correction m = idle / (s at the link rate), default 500 B
    /// (ns-2 `mean_pktsize_`).
    #[serde(default = "d_red_pkt")]
    pub mean_pktsize: Bytes,
}
impl Default for RedSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
