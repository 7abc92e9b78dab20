//! EMcast's scenario table (Nakauchi & Kobayashi 2006; `[[mcast_receiver]]` with `cc = { emcast = …
//! }`). The scenario's multicast receiver slot names it (`scenario/slots.rs`, from the registry);
//! every field has a documented default (docs/scenarios.md) and unknown keys are errors. It builds
//! the receiver (`FromSpec`), with range checks whose messages name the key.

use super::{AddStep, Emcast, EmcastParams};
use crate::core::time::to_secs;
use crate::slots::spec::{FromSpec, McastCx};
use crate::units::{Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_interval: Duration = Duration(200_000_000_000);
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
    #[serde(default = "d_interval")]
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

/// `cc = { emcast = … }` → the receiver, its channel `cx.level` of `cx.levels`.
impl FromSpec for Emcast {
    type Spec = EmcastSpec;
    type Cx = McastCx;
    fn from_spec(s: &EmcastSpec, cx: &McastCx) -> Result<Emcast, String> {
        if !(s.c3.is_finite() && s.c3 > 0.0) {
            return Err(format!("emcast.c3 must be positive, got {}", s.c3));
        }
        if !(s.ratio >= 1.0 && s.ratio <= 16.0) {
            return Err(format!("emcast.ratio must be in [1, 16], got {}", s.ratio));
        }
        for (key, zero, v) in [("interval", s.interval.0 == 0, s.interval.to_string()), ("rtt", s.rtt.0 == 0, s.rtt.to_string()), ("mtu", s.mtu.0 == 0, s.mtu.to_string()), ("base_rate", s.base_rate.0 == 0, s.base_rate.to_string())] {
            if zero {
                return Err(format!("emcast.{key} must be positive, got {v}"));
            }
        }
        let p = EmcastParams {
            rates: (0..cx.levels).map(|i| s.base_rate.0 as f64 * s.ratio.powi(i as i32)).collect(),
            interval: s.interval.0,
            c3: s.c3,
            rtt: to_secs(s.rtt.0),
            mtu_bits: s.mtu.0 as f64 * 8.0,
            add: if s.add == EmcastAddSpec::One { AddStep::One } else { AddStep::While },
            own_rate_added: s.own_rate_added,
        };
        Ok(Emcast::new(p, cx.level))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::mcast::McastMachine;

    #[test]
    fn the_table_builds_a_simulcast_receiver_that_needs_the_available_bandwidth() {
        let e = Emcast::from_spec(&toml::from_str("").unwrap(), &McastCx { levels: 3, level: 2 }).unwrap();
        assert_eq!(e.p.rates, [100e3, 200e3, 400e3]);
        assert_eq!((e.level, e.tick(), e.cumulative(), e.needs_available_bandwidth()), (2, 200_000_000_000, false, true));
        let bad: EmcastSpec = toml::from_str("ratio = 0.5").unwrap();
        assert!(Emcast::from_spec(&bad, &McastCx { levels: 3, level: 1 }).unwrap_err().starts_with("emcast.ratio"));
    }
}
