//! E-QCN's reaction point from its scenario table, `rp = { eqcn = … }` (Mliki et al. 2016b
//! Algorithm 1). The table is QCN's with three keys more (`protocols::qcn::spec::EqcnRpSpec`);
//! its QCN keys are checked as QCN's, under `rp.eqcn`.

use super::{Decrease, EqcnReactionPoint, EqcnRp, Reset};
use crate::protocols::qcn::spec::{rp_params, rp_warnings, EqcnDecrease, EqcnRpSpec, FbHatReset, ProbeSpec, PROBES_NEED_UNICAST};
use crate::protocols::qcn::ReactionPoint;
use crate::slots::spec::{FlowCx, FromSpec};

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
