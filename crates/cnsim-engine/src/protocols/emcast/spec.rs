//! EMcast's scenario table (Nakauchi & Kobayashi 2006; `[[mcast_receiver]]` with `cc = { emcast = …
//! }`). Composed into the scenario model (`scenario/model.rs`), which re-exports it; every field
//! has a documented default (docs/scenarios.md) and unknown keys are errors.

use crate::units::{Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_c3: f64 = 0.8;
    d_rtt: Duration = Duration(60_000_000_000);
    d_base_rate: Rate = Rate(100_000);
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EmcastAddSpec {
    #[default]
    While,
    One,
}

/// `cc = { emcast = { … } }`: Nakauchi & Kobayashi 2006 §3.2–3.3 by default.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EmcastSpec {
    /// Evaluation interval, default 0.2 s (Nakauchi & Kobayashi 2006).
    #[serde(default = "crate::defaults::d_sirens_window")]
    pub interval: Duration,
    #[serde(default = "d_c3")]
    pub c3: f64,
    /// The receiver's RTT estimate in R_i, default 60 ms [assumed: twice Nakauchi & Kobayashi 2006's 30 ms delay].
    #[serde(default = "d_rtt")]
    pub rtt: Duration,
    /// MTU in R_i, default 1500 B.
    #[serde(default = "crate::defaults::d_frame")]
    pub mtu: Bytes,
    /// Channel i's rate is base_rate·ratio^(i−1): default 100 kb/s and 2 (Nakauchi & Kobayashi 2006 §3.3).
    #[serde(default = "d_base_rate")]
    pub base_rate: Rate,
    #[serde(default = "crate::defaults::d_w")]
    pub ratio: f64,
    #[serde(default)]
    pub add: EmcastAddSpec,
    /// T counts the receiver's own channel as room (T + T_i), default false.
    #[serde(default)]
    pub own_rate_added: bool,
}
