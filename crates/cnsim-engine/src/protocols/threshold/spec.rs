//! Step marking's scenario table (`queue.threshold`). Composed into the scenario model
//! (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors. The table builds the marker here (`FromSpec`).

use super::Threshold;
use crate::slots::spec::{FromSpec, QueueCx};
use crate::units::Amount;
use serde::{Deserialize, Serialize};

/// `queue.threshold`: instantaneous step marking (Alizadeh et al. 2010 §3.1; RFC 8257 §3.1).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ThresholdSpec {
    /// The marking threshold K in frames ("65 frames"; no default: Alizadeh et al. 2010 §3.5
    /// recommend K = 65 packets at 10 Gb/s, 20 at 1 Gb/s).
    pub k: Amount,
}

/// `discipline = "threshold"` with its (required) table → step marking in front of the queue.
impl FromSpec for Threshold {
    type Spec = Option<ThresholdSpec>;
    type Cx = QueueCx;
    fn from_spec(spec: &Option<ThresholdSpec>, cx: &QueueCx) -> Result<Threshold, String> {
        let Some(t) = spec else {
            return Err("queue.discipline = \"threshold\" needs queue.threshold = { k = \"… frames\" }".into());
        };
        match (t.k, cx.capacity) {
            (Amount::Frames(k), Amount::Frames(cap)) if k >= cap => Err(format!(
                "queue.threshold.k = {k} frames is not below the queue's capacity of {cap} frames: the queue would drop before it marks"
            )),
            // A capacity in bytes holds `cap / frame` frames of simulation.frame_size.
            (Amount::Frames(k), Amount::Bytes(cap)) if k.saturating_mul(cx.frame) >= cap => Err(format!(
                "queue.threshold.k = {k} frames ({} B at simulation.frame_size = {} B) is not below the queue's capacity of {cap} B: the queue would drop before it marks",
                k.saturating_mul(cx.frame),
                cx.frame
            )),
            (Amount::Frames(k), _) => Ok(Threshold::new(k)),
            (Amount::Bytes(_), _) => Err("queue.threshold.k must be given in frames (\"65 frames\")".into()),
        }
    }
}
