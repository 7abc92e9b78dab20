//! PAUSE and PFC's scenario table (`[flow_control.pause]`, `[flow_control.pfc]`). Composed into the
//! scenario model (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors.

use crate::units::{Amount, Bytes, Duration};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_xoff: Amount = Amount::Frames(20);
    d_xon: Amount = Amount::Frames(10);
    d_quanta: u16 = 0xFFFF;
    d_all_prios: Vec<u8> = (0..8).collect();
    d_pause_size: Bytes = Bytes(64);
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TriggerSpec {
    /// Bytes buffered in the switch that entered through the port (per class), as real switches.
    #[default]
    Ingress,
    /// An output queue above XOFF pauses every upstream neighbour (Jiang & Jain 2007 §IV).
    Egress,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PauseSpec {
    #[serde(default)]
    pub trigger: TriggerSpec,
    /// XOFF above this load, default 20 frames (an assumption: the seeds give no value).
    #[serde(default = "d_xoff")]
    pub xoff: Amount,
    /// XON at or below this load, default 10 frames.
    #[serde(default = "d_xon")]
    pub xon: Amount,
    /// Pause time sent with XOFF in quanta of 512 bit times, default 65535.
    #[serde(default = "d_quanta")]
    pub quanta: u16,
    /// Re-send XOFF this often while congested; default half the pause time at the link rate.
    pub refresh: Option<Duration>,
    /// PFC: the flow-controlled (lossless) priorities, default all eight.
    #[serde(default = "d_all_prios")]
    pub priorities: Vec<u8>,
    /// PAUSE frame size, default 64 B.
    #[serde(default = "d_pause_size")]
    pub frame_size: Bytes,
}
