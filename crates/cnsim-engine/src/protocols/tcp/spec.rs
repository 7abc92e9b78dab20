//! TCP's scenario table (a flow's `tcp`). Composed into the scenario model (`scenario/model.rs`),
//! which re-exports it; every field has a documented default (docs/scenarios.md) and unknown keys
//! are errors. The table builds the TCP state machines' parameters here, with range checks whose
//! messages name the key.

use super::slot::TcpFlow;
use super::{EcnMode, TcpParams, Variant, HEADER_BYTES};
use crate::slots::spec::{frame_size, FromSpec, MAX_FRAME};
use crate::slots::transport::TransportCx;
use crate::units::{Bytes, Duration};
use serde::{Deserialize, Serialize};

/// The largest window TCP can advertise, in bytes: 2^16 − 1 shifted by the largest window scale, 14
/// (RFC 7323 §2.3), rounded up to 2^30. `rwnd` segments of `mss` bytes must fit in it.
pub const MAX_WINDOW_BYTES: u64 = 1 << 30;

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
    #[serde(default = "crate::defaults::d_min_frame")]
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

/// `transport = { tcp = … }` (or `[flow.tcp]`) → one connection, its application given.
impl FromSpec for TcpFlow {
    type Spec = TcpSpec;
    type Cx = TransportCx;
    fn from_spec(spec: &TcpSpec, cx: &TransportCx) -> Result<TcpFlow, String> {
        Ok(TcpFlow::new(params(spec)?, cx.app, spec.ack_size.0 as u32))
    }
    /// The receiver's window and its SACK history (`receiver.rs`); the sender's queues start empty.
    fn heap(spec: &TcpSpec) -> (usize, usize) {
        (super::receiver::TcpReceiver::heap_bytes(spec.rwnd), 2)
    }
}

/// `[flow.tcp]` → the TCP state machines' parameters.
pub fn params(spec: &TcpSpec) -> Result<TcpParams, String> {
    let mss = frame_size(spec.mss, "tcp.mss")?;
    frame_size(spec.ack_size, "tcp.ack_size")?;
    if mss as u64 + HEADER_BYTES as u64 > MAX_FRAME {
        return Err(format!("tcp.mss = {} must leave room for {HEADER_BYTES} B of headers in {MAX_FRAME} B: at most {} B", spec.mss, MAX_FRAME - HEADER_BYTES as u64));
    }
    for (key, n) in [("init_cwnd", spec.init_cwnd), ("rwnd", spec.rwnd), ("dupack_threshold", spec.dupack_threshold)] {
        if n == 0 {
            return Err(format!("tcp.{key} must be at least 1 segment, got {n}"));
        }
    }
    if spec.rwnd as u64 * mss as u64 > MAX_WINDOW_BYTES {
        return Err(format!(
            "tcp.rwnd = {} segments of {mss} B is above TCP's largest window, {MAX_WINDOW_BYTES} B (RFC 7323 §2.3): at most {} segments",
            spec.rwnd,
            MAX_WINDOW_BYTES / mss as u64
        ));
    }
    if !(spec.dctcp_g > 0.0 && spec.dctcp_g <= 1.0) {
        return Err(format!("tcp.dctcp_g must be in (0, 1], got {}", spec.dctcp_g));
    }
    for (key, d) in [("min_rto", spec.min_rto), ("max_rto", spec.max_rto), ("initial_rto", spec.initial_rto), ("delack_timeout", spec.delack_timeout)] {
        if d.0 == 0 {
            return Err(format!("tcp.{key} must be positive, got {d}"));
        }
    }
    Ok(TcpParams {
        variant: match spec.variant {
            TcpVariantSpec::Reno => Variant::Reno,
            TcpVariantSpec::Newreno => Variant::NewReno,
        },
        sack: spec.sack,
        mss,
        init_cwnd: spec.init_cwnd,
        rwnd: spec.rwnd,
        dupack_threshold: spec.dupack_threshold,
        limited_transmit: spec.limited_transmit,
        min_rto: spec.min_rto.0,
        max_rto: spec.max_rto.0,
        initial_rto: spec.initial_rto.0,
        delayed_ack: spec.delayed_ack,
        delack_timeout: spec.delack_timeout.0,
        ecn: match spec.ecn {
            TcpEcnSpec::Off => EcnMode::Off,
            TcpEcnSpec::Classic => EcnMode::Classic,
            TcpEcnSpec::Dctcp => EcnMode::Dctcp,
        },
        dctcp_g: spec.dctcp_g,
        ..TcpParams::default()
    })
}
