//! RLM's scenario table (McCanne et al. 1996, as Nakauchi & Kobayashi 2006 run it; `cc = { rlm = …
//! }`). Composed into the scenario model (`scenario/model.rs`), which re-exports it; every field
//! has a documented default (docs/scenarios.md) and unknown keys are errors.

use crate::units::Duration;
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_join_timer: Duration = Duration(3_000_000_000_000);
    d_max_join_timer: Duration = Duration(600_000_000_000_000);
    d_detection_timer: Duration = Duration(4_000_000_000_000);
    d_rlm_loss: f64 = 0.1;
    d_beta: f64 = 0.75;
    d_gain: f64 = 0.25;
    d_tick: Duration = Duration(500_000_000_000);
}

/// `cc = { rlm = { … } }`: Nakauchi & Kobayashi 2006 §3.3's settings by default.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RlmSpec {
    #[serde(default = "d_join_timer")]
    pub join_timer: Duration,
    #[serde(default = "d_max_join_timer")]
    pub max_join_timer: Duration,
    #[serde(default = "d_detection_timer")]
    pub detection_timer: Duration,
    #[serde(default = "d_rlm_loss")]
    pub loss_threshold: f64,
    #[serde(default = "crate::defaults::d_w")]
    pub alpha: f64,
    #[serde(default = "d_beta")]
    pub beta: f64,
    /// Gains g1 = g2 of the detection-time estimate, default 0.25.
    #[serde(default = "d_gain")]
    pub gain: f64,
    /// Loss measurement period, default 0.5 s [assumed].
    #[serde(default = "d_tick")]
    pub tick: Duration,
}
