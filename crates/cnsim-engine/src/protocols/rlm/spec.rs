//! RLM's scenario table (McCanne et al. 1996, as Nakauchi & Kobayashi 2006 run it; `cc = { rlm = …
//! }`). The scenario's multicast receiver slot names it (`scenario/slots.rs`, from the registry);
//! every field has a documented default (docs/scenarios.md) and unknown keys are errors. It builds
//! the receiver (`FromSpec`), with range checks whose messages name the key.

use super::{Rlm, RlmParams};
use crate::core::time::to_secs;
use crate::slots::spec::{FromSpec, McastCx};
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

/// `cc = { rlm = … }` → the receiver, `cx.level` of `cx.levels` layers joined.
impl FromSpec for Rlm {
    type Spec = RlmSpec;
    type Cx = McastCx;
    fn from_spec(s: &RlmSpec, cx: &McastCx) -> Result<Rlm, String> {
        if !(s.loss_threshold > 0.0 && s.loss_threshold <= 1.0) {
            return Err(format!("rlm.loss_threshold must be in (0, 1], got {}", s.loss_threshold));
        }
        if !(1.0..=100.0).contains(&s.alpha) {
            return Err(format!("rlm.alpha must be in [1, 100], got {}", s.alpha));
        }
        if !(s.beta > 0.0 && s.beta <= 1.0) {
            return Err(format!("rlm.beta must be in (0, 1], got {}", s.beta));
        }
        if !(s.gain > 0.0 && s.gain <= 1.0) {
            return Err(format!("rlm.gain must be in (0, 1], got {}", s.gain));
        }
        for (key, d) in [("join_timer", s.join_timer), ("detection_timer", s.detection_timer), ("tick", s.tick)] {
            if d.0 == 0 {
                return Err(format!("rlm.{key} must be positive, got {d}"));
            }
        }
        if s.max_join_timer.0 < s.join_timer.0 {
            return Err(format!("rlm.max_join_timer must be at least rlm.join_timer = {}, got {}", s.join_timer, s.max_join_timer));
        }
        let p = RlmParams {
            layers: cx.levels,
            join_timer: to_secs(s.join_timer.0),
            max_join_timer: to_secs(s.max_join_timer.0),
            detection_timer: to_secs(s.detection_timer.0),
            loss_threshold: s.loss_threshold,
            alpha: s.alpha,
            beta: s.beta,
            g1: s.gain,
            g2: s.gain,
            tick: s.tick.0,
        };
        Ok(Rlm::new(p, cx.level, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::mcast::McastMachine;

    #[test]
    fn the_table_builds_a_layered_receiver_ticking_at_its_tick() {
        let r = Rlm::from_spec(&toml::from_str("tick = \"250ms\"").unwrap(), &McastCx { levels: 4, level: 3 }).unwrap();
        assert_eq!((r.p.layers, r.level, r.tick(), r.cumulative(), r.needs_available_bandwidth()), (4, 3, 250_000_000_000, true, false));
        let bad: RlmSpec = toml::from_str("loss_threshold = 0").unwrap();
        assert!(Rlm::from_spec(&bad, &McastCx { levels: 4, level: 1 }).unwrap_err().starts_with("rlm.loss_threshold"));
    }
}
