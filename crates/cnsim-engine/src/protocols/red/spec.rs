//! RED's scenario table (`queue.red`). Composed into the scenario model (`scenario/model.rs`),
//! which re-exports it; every field has a documented default (docs/scenarios.md) and unknown keys
//! are errors. The table builds RED's state here (`FromSpec`), with range checks whose messages
//! name the key.

use super::{Red, RedAqm, RedParams};
use crate::core::rng::Rng;
use crate::slots::spec::{frame_size, FromSpec, QueueCx};
use crate::units::{Amount, Bytes};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_min_th: f64 = 5.0;
    d_max_th: f64 = 15.0;
    d_w_q: f64 = 0.002;
    d_max_p: f64 = 0.1;
    d_red_pkt: Bytes = Bytes(500);
}

/// `queue.red`: Floyd & Jacobson's RED; defaults are ns-2's (`Queue/RED`), thresholds in frames.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RedSpec {
    /// Default 5 frames (ns-2 `thresh_`); Nakauchi & Kobayashi 2006 uses 50.
    #[serde(default = "d_min_th")]
    pub min_th: f64,
    /// Default 15 frames (ns-2 `maxthresh_`).
    #[serde(default = "d_max_th")]
    pub max_th: f64,
    /// EWMA weight w_q, default 0.002 (FJ93 §11).
    #[serde(default = "d_w_q")]
    pub w_q: f64,
    /// Drop probability at max_th, default 0.1 (ns-2 `linterm_` = 10).
    #[serde(default = "d_max_p")]
    pub max_p: f64,
    /// "gentle" ramp from max_p to 1 between max_th and 2·max_th, default true (ns-2).
    #[serde(default = "crate::defaults::d_true")]
    pub gentle: bool,
    /// Mark ECN-capable frames instead of dropping them early, default false.
    #[serde(default)]
    pub ecn: bool,
    /// Packet size s of the idle-time correction m = idle / (s at the link rate), default 500 B
    /// (ns-2 `mean_pktsize_`).
    #[serde(default = "d_red_pkt")]
    pub mean_pktsize: Bytes,
}
impl Default for RedSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

/// `discipline = "red"` with its table (`None`: the defaults) → RED in front of the queue of the
/// port `cx.name`, with its random stream.
impl FromSpec for RedAqm {
    type Spec = Option<RedSpec>;
    type Cx = QueueCx;
    fn from_spec(spec: &Option<RedSpec>, cx: &QueueCx) -> Result<RedAqm, String> {
        let spec = spec.clone().unwrap_or_default();
        let ok = |x: f64| x.is_finite() && x >= 0.0;
        // 0 ≤ min_th < max_th ≤ 1e9 packets (Floyd & Jacobson 1993 §4).
        if !ok(spec.min_th) || spec.min_th >= spec.max_th {
            return Err(format!("queue.red.min_th must be in [0, queue.red.max_th = {}), got {}", spec.max_th, spec.min_th));
        }
        if !(ok(spec.max_th) && spec.max_th <= 1e9) {
            return Err(format!("queue.red.max_th must be in (queue.red.min_th, 1e9] packets, got {}", spec.max_th));
        }
        if !(spec.w_q > 0.0 && spec.w_q <= 1.0) {
            return Err(format!("queue.red.w_q must be in (0, 1], got {}", spec.w_q));
        }
        if !(spec.max_p > 0.0 && spec.max_p <= 1.0) {
            return Err(format!("queue.red.max_p must be in (0, 1], got {}", spec.max_p));
        }
        let s = frame_size(spec.mean_pktsize, "queue.red.mean_pktsize")?;
        // RED acts on an average above min_th: a queue that holds no more than min_th packets drops
        // before RED ever marks or drops early (Floyd & Jacobson 1993 §4: min_th < max_th < the
        // buffer). A capacity in bytes holds a number of packets that depends on their sizes: not
        // checked.
        if let Amount::Frames(n) = cx.capacity {
            if spec.min_th >= n as f64 {
                return Err(format!(
                    "queue.red.min_th = {} packets is not below the queue's capacity of {n} frames: the queue would drop before RED acts",
                    spec.min_th
                ));
            }
        }
        let p = RedParams {
            min_th: spec.min_th,
            max_th: spec.max_th,
            w_q: spec.w_q,
            max_p: spec.max_p,
            gentle: spec.gentle,
            ecn: spec.ecn,
            idle_pkt_time: crate::core::time::tx_time(s as u64, cx.rate_bps).max(1),
        };
        Ok(RedAqm { red: Red::new(p), rng: Rng::stream(cx.seed, "red", &cx.name) })
    }
}
