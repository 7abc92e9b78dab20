//! HPCC's scenario table (a flow's `transport = { hpcc = … }`): every key has a documented default (docs/scenarios.md,
//! each cited in `Params`), unknown keys are errors, and the ranges are checked here with
//! messages that name the key.

use super::slot::HpccFlow;
use super::{Params, DATA_HEADER_BYTES};
use crate::slots::spec::FromSpec;
use crate::slots::transport::TransportCx;
use crate::core::time::Time;
use crate::slots::spec::{frame_size, MAX_FRAME};
use crate::units::{Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_eta: f64 = 0.95;
    d_max_stage: u32 = 5;
    d_min_rate: Rate = Rate(100_000_000);
    d_mss: Bytes = Bytes(1000);
    d_rto: Duration = Duration(1_000_000_000);
}

/// A flow's `transport = { hpcc = … }` (or `[flow.transport.hpcc]`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HpccSpec {
    /// Target utilisation η, in (0, 1]: default 0.95 (Li et al. 2019 §5.1).
    #[serde(default = "d_eta")]
    pub eta: f64,
    /// maxStage: default 5 (the paper; its simulations used 0, the authors' results page says).
    #[serde(default = "d_max_stage")]
    pub max_stage: u32,
    /// Additive increase W_AI; default W_init/2500 (the artifact's `RATE_AI = 10·bw/25` Mb/s).
    #[serde(default)]
    pub w_ai: Option<Bytes>,
    /// The base RTT T, required: the fabric's longest base RTT (the artifact's `GLOBAL_T 1`) or
    /// the flow's own path's (a full data frame's wire time and propagation over each hop, and an
    /// ACK's back, with empty queues).
    #[serde(default)]
    pub base_rtt: Option<Duration>,
    /// The lowest pacing rate: default 100 Mb/s (the artifact's `MIN_RATE`).
    #[serde(default = "d_min_rate")]
    pub min_rate: Rate,
    /// Payload bytes of a full data frame: default 1000 B (the artifact's payload).
    #[serde(default = "d_mss")]
    pub mss: Bytes,
    /// Retransmission timeout (go-back-N) for losses no NACK reports: default 1 ms.
    #[serde(default = "d_rto")]
    pub rto: Duration,
}

impl Default for HpccSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

/// `transport = { hpcc = … }` → one connection, its application given.
impl FromSpec for HpccFlow {
    type Spec = HpccSpec;
    type Cx = TransportCx;
    fn from_spec(spec: &HpccSpec, cx: &TransportCx) -> Result<HpccFlow, String> {
        let Some(t) = spec.base_rtt else {
            return Err("hpcc.base_rtt is required: the path's RTT with empty queues (docs/protocols.md §12)".into());
        };
        Ok(HpccFlow::new(params(spec, cx.line_rate, t.0)?, cx.app))
    }
}

/// The `hpcc` table → a sender's parameters, for a source of `line_rate` b/s on a path whose base
/// RTT is `path_rtt` when the table gives none (the slot's `from_spec` requires `base_rtt` today:
/// the build makes transports before routes, so it knows no path's RTT yet).
pub fn params(spec: &HpccSpec, line_rate: f64, path_rtt: Time) -> Result<Params, String> {
    let mss = frame_size(spec.mss, "hpcc.mss")?;
    if mss as u64 + DATA_HEADER_BYTES as u64 > MAX_FRAME {
        return Err(format!("hpcc.mss = {} must leave room for {DATA_HEADER_BYTES} B of headers in {MAX_FRAME} B: at most {} B", spec.mss, MAX_FRAME - DATA_HEADER_BYTES as u64));
    }
    if !(spec.eta > 0.0 && spec.eta <= 1.0) {
        return Err(format!("hpcc.eta must be in (0, 1], got {}", spec.eta));
    }
    let base_rtt = spec.base_rtt.map_or(path_rtt, |d| d.0);
    if base_rtt == 0 {
        return Err(format!("hpcc.base_rtt must be positive, got {}", crate::units::Duration(base_rtt)));
    }
    if spec.rto.0 == 0 {
        return Err(format!("hpcc.rto must be positive, got {}", spec.rto));
    }
    if !(line_rate > 0.0) {
        return Err("hpcc needs a source with a positive line rate".into());
    }
    if spec.min_rate.0 == 0 || spec.min_rate.0 as f64 > line_rate {
        return Err(format!("hpcc.min_rate = {} b/s must lie in (0, line rate of the flow's source link ({line_rate} b/s)]", spec.min_rate.0));
    }
    let w_ai = match spec.w_ai {
        Some(b) if b.0 == 0 => return Err(format!("hpcc.w_ai must be positive, got {b}")),
        Some(b) => b.0 as f64,
        None => Params::artifact_w_ai(line_rate, base_rtt),
    };
    Ok(Params {
        eta: spec.eta,
        max_stage: spec.max_stage,
        w_ai,
        base_rtt,
        line_rate,
        min_rate: spec.min_rate.0 as f64,
        mss,
        header_bytes: DATA_HEADER_BYTES,
        rto: spec.rto.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_resolve_against_the_flows_path_and_ranges_name_their_key() {
        let p = params(&HpccSpec::default(), 100e9, 10_000_000).unwrap();
        assert_eq!(p, Params::test());
        let spec = |t: &str| toml::from_str::<HpccSpec>(t).unwrap();
        let p = params(&spec("base_rtt = \"20us\"\nw_ai = \"80B\""), 100e9, 10_000_000).unwrap();
        assert_eq!((p.base_rtt, p.w_ai), (20_000_000, 80.0));
        for (t, key) in [("eta = 1.5", "hpcc.eta"), ("base_rtt = \"0s\"", "hpcc.base_rtt"), ("min_rate = \"200Gbps\"", "hpcc.min_rate"), ("mss = \"65535B\"", "hpcc.mss"), ("w_ai = \"0B\"", "hpcc.w_ai")] {
            let e = params(&spec(t), 100e9, 10_000_000).unwrap_err();
            assert!(e.contains(key), "{t}: {e}");
        }
        assert!(toml::from_str::<HpccSpec>("etaa = 0.9").is_err());
    }
}
