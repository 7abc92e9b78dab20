//! E-QCN's reaction point from its scenario table, `rp = { eqcn = … }` (Mliki et al. 2016b
//! Algorithm 1). The table is QCN's with three keys more (`EqcnRpSpec`, written with QCN's
//! `qcn_rp_spec!`); its QCN keys are checked as QCN's, under `rp.eqcn`. And its key in QCN's
//! congestion-point table, `cp.qcn.eqcn_tie_break` (`QcnCpSpec`, written with QCN's
//! `qcn_cp_spec!`): E-QCN has no congestion point of its own, QCN's runs Algorithm 2 on E-QCN's
//! frames (`Protocol::elects`).

use super::{Decrease, EqcnReactionPoint, EqcnRp, Reset};
use crate::protocols::qcn::spec::{qcn_cp_spec, qcn_rp_spec, rp_params, rp_warnings, ProbeSpec, QcnRpSpec, PROBES_NEED_UNICAST};
use crate::protocols::qcn::ReactionPoint;
use crate::slots::spec::{FlowCx, FromSpec};
use crate::units::Duration;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EqcnDecrease {
    /// Decrease with the saved F̂b, as Algorithm 1's pseudo-code reads.
    #[default]
    Saved,
    /// Decrease with the Fb of the CNM just received.
    Received,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum FbHatReset {
    #[default]
    #[serde(rename = "at-63")]
    At63,
    OnRelease,
    Expire,
}

qcn_cp_spec!(QcnCpSpec, tie_break: eqcn_tie_break {
    /// E-QCN frames: on equal |Fb| only the CP whose CPID the RP selected sends (Mliki et al. 2016b §4),
    /// default true.
    #[serde(default = "crate::defaults::d_true")]
    pub eqcn_tie_break: bool,
});

qcn_rp_spec!(EqcnRpSpec {
    /// Which value the decrease uses (Mliki et al. 2016b Algorithm 1 leaves it open), default "saved".
    #[serde(default)]
    pub decrease: EqcnDecrease,
    /// When F̂b is cleared besides the reset at 63: "at-63" (Algorithm 1 as written, default),
    /// "on-release" (also when the limiter is released) or "expire" (also after `fb_hat_expiry`
    /// without a CNM).
    #[serde(default)]
    pub fb_hat_reset: FbHatReset,
    /// With `fb_hat_reset = "expire"`: default 10 ms (the RP timer period T).
    #[serde(default = "crate::protocols::qcn::spec::d_timer")]
    pub fb_hat_expiry: Duration,
});

impl EqcnRpSpec {
    /// The QCN keys of an E-QCN table.
    pub fn qcn(&self) -> QcnRpSpec {
        QcnRpSpec {
            variant: self.variant,
            bc_limit: self.bc_limit,
            timer: self.timer,
            fast_recovery_th: self.fast_recovery_th,
            r_ai: self.r_ai,
            r_hai: self.r_hai,
            gd: self.gd,
            min_dec_factor: self.min_dec_factor,
            min_rate: self.min_rate,
            extra_fast_recovery: self.extra_fast_recovery,
            jitter: self.jitter,
            ai_cycles: self.ai_cycles,
            drift_factor: self.drift_factor,
            probe: self.probe,
            probe_size: self.probe_size,
        }
    }
}

impl FromSpec for EqcnReactionPoint {
    type Spec = EqcnRpSpec;
    type Cx = FlowCx;
    fn from_spec(s: &EqcnRpSpec, cx: &FlowCx) -> Result<EqcnReactionPoint, String> {
        if s.fb_hat_reset == FbHatReset::Expire && s.fb_hat_expiry.0 == 0 {
            return Err(format!("rp.eqcn.fb_hat_expiry must be positive with fb_hat_reset = \"expire\", got {}", s.fb_hat_expiry));
        }
        let decrease = match s.decrease {
            EqcnDecrease::Saved => Decrease::Saved,
            EqcnDecrease::Received => Decrease::Received,
        };
        let reset = match s.fb_hat_reset {
            FbHatReset::At63 => Reset::At63,
            FbHatReset::OnRelease => Reset::OnRelease,
            FbHatReset::Expire => Reset::Expire(s.fb_hat_expiry.0),
        };
        let params = rp_params(&s.qcn(), cx.line_rate, "rp.eqcn")?;
        Ok(EqcnReactionPoint { r: ReactionPoint::new(params), e: EqcnRp::with_reset(decrease, reset) })
    }
    fn warnings(s: &EqcnRpSpec, cx: &FlowCx) -> Vec<String> {
        rp_warnings(&s.qcn(), cx.line_rate, "rp.eqcn")
    }
    fn needs_unicast(s: &EqcnRpSpec) -> Option<&'static str> {
        (s.probe != ProbeSpec::None).then_some(PROBES_NEED_UNICAST)
    }
}

#[cfg(test)]
mod tests {
    use super::QcnCpSpec;

    #[test]
    fn qcns_cp_table_holds_the_tie_break_key_in_its_place() {
        assert!(QcnCpSpec::default().eqcn_tie_break);
        assert!(!toml::from_str::<QcnCpSpec>("eqcn_tie_break = false").unwrap().eqcn_tie_break);
        // still one table with unknown keys refused, the key among QCN's in its place
        let err = toml::from_str::<QcnCpSpec>("qe = 1").unwrap_err().to_string();
        assert!(err.contains("`sample_dropped`, `eqcn_tie_break`, `cnm_on_any_negative_fb`"), "{err}");
    }
}
