//! TCP's scenario table (a flow's `tcp`). Composed into the scenario model (`scenario/model.rs`),
//! which re-exports it; every field has a documented default (docs/scenarios.md) and unknown keys
//! are errors.

use crate::units::{Bytes, Duration};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_mss: Bytes = Bytes(1460);
    d_init_cwnd: u32 = 3;
    d_rwnd: u32 = 44;
    d_dupacks: u32 = 3;
    d_min_rto: Duration = Duration(200_000_000_000);
    d_max_rto: Duration = Duration(60_000_000_000_000);
    d_initial_rto: Duration = Duration(1_000_000_000_000);
    d_delack: Duration = Duration(100_000_000_000);
    d_dctcp_g: f64 = 1.0 / 16.0;
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TcpVariantSpec {
    #[default]
    Reno,
    Newreno,
}

/// `[flow.tcp]`: defaults from `protocols::tcp::TcpParams::default()` (each cited there).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    #[serde(default)]
    pub variant: TcpVariantSpec,
    #[serde(default = "crate::defaults::d_true")]
    pub sack: bool,
    /// Payload bytes per segment, default 1460 B (1500-B packets).
    #[serde(default = "d_mss")]
    pub mss: Bytes,
    #[serde(default = "d_init_cwnd")]
    pub init_cwnd: u32,
    /// Receiver window in segments, default 44 (Jiang & Jain 2007 §VI.A).
    #[serde(default = "d_rwnd")]
    pub rwnd: u32,
    #[serde(default = "d_dupacks")]
    pub dupack_threshold: u32,
    #[serde(default = "crate::defaults::d_true")]
    pub limited_transmit: bool,
    /// RTO clamps and initial value: default 200 ms, 60 s, 1 s (Jiang & Jain 2007 uses max_rto = "1ms").
    #[serde(default = "d_min_rto")]
    pub min_rto: Duration,
    #[serde(default = "d_max_rto")]
    pub max_rto: Duration,
    #[serde(default = "d_initial_rto")]
    pub initial_rto: Duration,
    #[serde(default)]
    pub delayed_ack: bool,
    #[serde(default = "d_delack")]
    pub delack_timeout: Duration,
    /// Size of an ACK frame, default 64 B (a minimum Ethernet frame carrying 40 B of IP/TCP).
    #[serde(default = "crate::defaults::d_cnm_size")]
    pub ack_size: Bytes,
    /// ECN at both ends: "off" (default), "classic" (RFC 3168) or "dctcp" (RFC 8257).
    #[serde(default)]
    pub ecn: TcpEcnSpec,
    /// DCTCP's gain g, default 1/16 (RFC 8257 §4.2).
    #[serde(default = "d_dctcp_g")]
    pub dctcp_g: f64,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TcpEcnSpec {
    #[default]
    Off,
    Classic,
    Dctcp,
}
impl Default for TcpSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
