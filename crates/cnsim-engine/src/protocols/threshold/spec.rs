//! Step marking's scenario table (`queue.threshold`). Composed into the scenario model
//! (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors.

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
