//! Swift's scenario table, a flow's `transport = { swift = {…} }` (or `[flow.transport.swift]`, and
//! a workload's). Every key has a documented default; unknown keys are errors; the range checks name
//! the key. Kumar et al. 2020 name every parameter of Algorithm 1 and §3.5; where the text cnsim
//! could read gives no value the default is cnsim's and says so.

use super::slot::SwiftFlow;
use super::wire::HEADER_BYTES;
use super::SwiftParams;
use crate::slots::spec::{frame_size, FromSpec, MAX_FRAME};
use crate::slots::transport::TransportCx;
use crate::units::{Bytes, Duration};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_ai: f64 = 1.0;
    d_beta: f64 = 0.8;
    d_max_mdf: f64 = 0.5;
    d_base_target: Duration = Duration(25_000_000);
    d_hop_scale: Duration = Duration(1_000_000);
    d_fs_range: Duration = Duration(25_000_000);
    d_fs_min_cwnd: f64 = 0.1;
    d_fs_max_cwnd: f64 = 100.0;
    d_endpoint_target: Duration = Duration(10_000_000);
    d_min_cwnd: f64 = 0.001;
    d_max_cwnd: f64 = 1000.0;
    d_init_cwnd: f64 = 10.0;
    d_retx_reset: u32 = 5;
    d_mss: Bytes = Bytes(1436);
    d_ack_size: Bytes = Bytes(64);
    d_rto: Duration = Duration(1_000_000_000);
}

/// `transport = { swift = {…} }`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SwiftSpec {
    /// Additive increment ai (packets per RTT), default 1 (Algorithm 1's ai; cnsim's default).
    #[serde(default = "d_ai")]
    pub ai: f64,
    /// Multiplicative decrease factor β, default 0.8 (Algorithm 1's β; the value csg-htsim-derived
    /// Swift implementations use).
    #[serde(default = "d_beta")]
    pub beta: f64,
    /// The largest cut per decrease, default 0.5 (Algorithm 1's max_mdf; as β).
    #[serde(default = "d_max_mdf")]
    pub max_mdf: f64,
    /// The fabric target's base, default 25 µs (§3.5's base_target; cnsim's default, above the
    /// base RTT of a small 10–100 Gb/s fabric).
    #[serde(default = "d_base_target")]
    pub base_target: Duration,
    /// Per-hop target scaling h, default 1 µs (§3.5's h; cnsim's default).
    #[serde(default = "d_hop_scale")]
    pub hop_scale: Duration,
    /// Flow scaling's range, default 25 µs (§3.5's fs_range; cnsim's default, one base target).
    #[serde(default = "d_fs_range")]
    pub fs_range: Duration,
    /// Flow scaling's window bounds, defaults 0.1 and 100 packets (§3.5's fs_min_cwnd, fs_max_cwnd).
    #[serde(default = "d_fs_min_cwnd")]
    pub fs_min_cwnd: f64,
    #[serde(default = "d_fs_max_cwnd")]
    pub fs_max_cwnd: f64,
    /// The endpoint delay's target, default 10 µs (§3.2; cnsim's default: its hosts acknowledge at
    /// once, so the endpoint delay is 0 unless an ACK waits).
    #[serde(default = "d_endpoint_target")]
    pub endpoint_target: Duration,
    /// The window's bounds and start (packets), defaults 0.001, 1000 and 10 (Algorithm 1's
    /// min_cwnd and max_cwnd; cnsim's defaults).
    #[serde(default = "d_min_cwnd")]
    pub min_cwnd: f64,
    #[serde(default = "d_max_cwnd")]
    pub max_cwnd: f64,
    #[serde(default = "d_init_cwnd")]
    pub init_cwnd: f64,
    /// Timeouts in a row after which the window falls to min_cwnd, default 5 (Algorithm 1's
    /// RETX_RESET_THRESHOLD; cnsim's default).
    #[serde(default = "d_retx_reset")]
    pub retx_reset_threshold: u32,
    /// Payload bytes per frame, default 1436 B (1500-B frames with the 64 B of headers).
    #[serde(default = "d_mss")]
    pub mss: Bytes,
    /// Size of an acknowledgement frame, default 64 B.
    #[serde(default = "d_ack_size")]
    pub ack_size: Bytes,
    /// Retransmission timeout (go-back-N), default 1 ms (cnsim's default).
    #[serde(default = "d_rto")]
    pub rto: Duration,
}

impl Default for SwiftSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

/// `transport = { swift = … }` → Swift's parameters.
pub fn params(s: &SwiftSpec) -> Result<SwiftParams, String> {
    let unit = |x: f64, key: &str| if x > 0.0 && x < 1.0 { Ok(()) } else { Err(format!("swift.{key} must be in (0, 1), got {x}")) };
    unit(s.beta, "beta")?;
    unit(s.max_mdf, "max_mdf")?;
    if !(s.ai > 0.0 && s.ai <= 1000.0) {
        return Err(format!("swift.ai must be in (0, 1000], got {}", s.ai));
    }
    // 0 < min_cwnd ≤ init_cwnd ≤ max_cwnd ≤ 10⁶ packets (Algorithm 1 clamps the window to
    // [min_cwnd, max_cwnd]).
    if !(s.min_cwnd > 0.0 && s.min_cwnd <= s.max_cwnd) {
        return Err(format!("swift.min_cwnd must be in (0, swift.max_cwnd = {}], got {}", s.max_cwnd, s.min_cwnd));
    }
    if !(s.max_cwnd <= 1e6) {
        return Err(format!("swift.max_cwnd must be at most 1e6 packets, got {}", s.max_cwnd));
    }
    if !(s.init_cwnd >= s.min_cwnd && s.init_cwnd <= s.max_cwnd) {
        return Err(format!("swift.init_cwnd must be in [swift.min_cwnd, swift.max_cwnd] = [{}, {}], got {}", s.min_cwnd, s.max_cwnd, s.init_cwnd));
    }
    if !(s.fs_min_cwnd > 0.0) {
        return Err(format!("swift.fs_min_cwnd must be positive, got {}", s.fs_min_cwnd));
    }
    if !(s.fs_max_cwnd > s.fs_min_cwnd && s.fs_max_cwnd.is_finite()) {
        return Err(format!("swift.fs_max_cwnd must be above swift.fs_min_cwnd = {} (and finite), got {}", s.fs_min_cwnd, s.fs_max_cwnd));
    }
    if s.base_target.0 == 0 {
        return Err(format!("swift.base_target must be positive, got {}", s.base_target));
    }
    if s.rto.0 == 0 {
        return Err(format!("swift.rto must be positive, got {}", s.rto));
    }
    if s.retx_reset_threshold == 0 {
        return Err(format!("swift.retx_reset_threshold must be at least 1, got {}", s.retx_reset_threshold));
    }
    Ok(SwiftParams {
        ai: s.ai,
        beta: s.beta,
        max_mdf: s.max_mdf,
        base_target: s.base_target.0,
        hop_scale: s.hop_scale.0,
        fs_range: s.fs_range.0,
        fs_min_cwnd: s.fs_min_cwnd,
        fs_max_cwnd: s.fs_max_cwnd,
        endpoint_target: s.endpoint_target.0,
        min_cwnd: s.min_cwnd,
        max_cwnd: s.max_cwnd,
        retx_reset_threshold: s.retx_reset_threshold,
    })
}

/// `transport = { swift = … }` → one connection running the application `cx.app`.
impl FromSpec for SwiftFlow {
    type Spec = SwiftSpec;
    type Cx = TransportCx;
    fn from_spec(s: &SwiftSpec, cx: &TransportCx) -> Result<SwiftFlow, String> {
        let p = params(s)?;
        let mss = frame_size(s.mss, "swift.mss")?;
        frame_size(s.ack_size, "swift.ack_size")?;
        if mss as u64 + HEADER_BYTES as u64 > MAX_FRAME {
            return Err(format!("swift.mss = {} must leave room for {HEADER_BYTES} B of headers in {MAX_FRAME} B: at most {} B", s.mss, MAX_FRAME - HEADER_BYTES as u64));
        }
        Ok(SwiftFlow::new(p, s.init_cwnd, mss, s.rto.0, cx.app, s.ack_size.0 as u32))
    }
}
