//! QCN's scenario tables (IEEE 802.1Qau): `[cp.qcn]` and `rp = { qcn = … }`, whose keys a protocol
//! extending QCN's reaction point takes over (`qcn_rp_spec!`). Composed into the scenario model
//! (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors. Each table builds its slot's state here
//! (`FromSpec`), with range checks whose messages name the key.

use super::{ProbeMode, ReactionPoint, RpParams, RpVariant};
use crate::slots::spec::{frame_size, FlowCx, FromSpec};
use crate::units::{Amount, Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_qeq: Amount = Amount::Bytes(26_000);
    d_bc_limit: Bytes = Bytes(150_000);
    d_timer: Duration = Duration(10_000_000_000);
    d_fr_th: u32 = 5;
    d_r_ai: Rate = Rate(5_000_000);
    d_r_hai: Rate = Rate(50_000_000);
    d_gd: f64 = 1.0 / 128.0;
    d_min_rate: Rate = Rate(10_000_000);
    d_ai_cycles: u32 = 5;
    d_one: f64 = 1.0;
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SamplingSpec {
    /// 802.1Qau sampling table (byte counter), the standard's behaviour.
    #[default]
    Table,
    /// Evaluate every arriving data frame (Mliki et al. 2016b §2.1).
    EveryFrame,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum QoldSpec {
    /// Qold := qlen at every sample, CNM or not [impl].
    #[default]
    EverySample,
    /// Qold := qlen only when a CNM is sent ("the queue size when the last feedback message was
    /// generated", Mliki et al. 2016a §2.1).
    OnFeedback,
}

/// QCN's congestion-point table, `[cp.qcn]`, with `$extra`: the keys of a protocol whose data
/// frames' tags elect the CP to answer them (`Protocol::elects`), among them `$tie_break`, the
/// tie-break on equal feedback (`QcnCp::tie_break`), placed after `sample_dropped`. The table is
/// written once, where those keys are declared (E-QCN's folder, whose frames QCN's CP answers by
/// Mliki et al. 2016b Algorithm 2), as a protocol extending QCN's reaction point writes its table
/// with `qcn_rp_spec!`; with it, `FromSpec for QcnCp`.
macro_rules! qcn_cp_spec {
    ($(#[$m:meta])* $name:ident, tie_break: $tie_break:ident { $($extra:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, serde::Deserialize, serde::Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Equilibrium queue Qeq, default 26000 B (802.1Qau); the seeds use 25/50/75 frames.
            #[serde(default = "crate::protocols::qcn::spec::d_qeq")]
            pub qeq: $crate::units::Amount,
            /// W, default 2.
            #[serde(default = "crate::defaults::d_w")]
            pub w: f64,
            #[serde(default)]
            pub sampling: $crate::protocols::qcn::spec::SamplingSpec,
            /// Bytes between samples at QntzFb = 0 (table sampling), default 150000 B.
            #[serde(default = "crate::defaults::d_sample_base")]
            pub sample_base: $crate::units::Amount,
            /// U(0.85, 1.15) jitter on sampling intervals, default true.
            #[serde(default = "crate::defaults::d_true")]
            pub jitter: bool,
            #[serde(default)]
            pub qold: $crate::protocols::qcn::spec::QoldSpec,
            /// CNM frame size, default 64 B (a minimum-size Ethernet frame: the seeds do not give it; a CNM
            /// with 64 B of encapsulated MSDU would be 106 B — set it here).
            #[serde(default = "crate::defaults::d_min_frame")]
            pub cnm_size: $crate::units::Bytes,
            /// Shorten the sampling interval as QntzFb grows (the 802.1Qau table), default true; false:
            /// always `sample_base` (Roeck 2007: "Oversampling disabled").
            #[serde(default = "crate::defaults::d_true")]
            pub oversampling: bool,
            /// Also evaluate data frames that the full queue drops, default true.
            #[serde(default = "crate::defaults::d_true")]
            pub sample_dropped: bool,
            $($extra)*
            /// Send a CNM for every sample with Fb < 0 (QntzFb at least 1), as Mliki et al. 2016a/b §2.1
            /// word it; default false: 802.1Qau sends nothing when |Fb| is below one quantum (QntzFb = 0).
            #[serde(default)]
            pub cnm_on_any_negative_fb: bool,
        }
        impl Default for $name {
            fn default() -> Self {
                toml::from_str("").expect("defaults")
            }
        }

        /// `[cp.qcn]` → the congestion point of the port `cx.name`.
        impl $crate::slots::spec::FromSpec for $crate::protocols::qcn::slot::QcnCp {
            type Spec = $name;
            type Cx = $crate::slots::spec::PortCx;
            fn from_spec(spec: &$name, cx: &$crate::slots::spec::PortCx) -> Result<Self, String> {
                use $crate::protocols::qcn::spec::{QoldSpec, SamplingSpec};
                use $crate::protocols::qcn::{CongestionPoint, CpParams, Sampling};
                use $crate::slots::spec::{frame_size, MAX_QUEUE_BYTES};
                let frame = cx.frame;
                let qeq = spec.qeq.bytes(frame);
                if qeq == 0 || qeq > MAX_QUEUE_BYTES {
                    return Err(format!("cp.qcn.qeq must be between 1 B and {MAX_QUEUE_BYTES} B, got {}", spec.qeq));
                }
                // Qeq is the queue the CP steers to (802.1Qau §32.8.1): a queue that cannot hold Qeq drops
                // before it reaches it, and every sample finds Qoff < 0.
                if let Some(cap) = cx.capacity.filter(|c| qeq >= c.bytes(frame)) {
                    return Err(format!("cp.qcn.qeq = {} is not below the queue's capacity of {cap}: the queue would drop before it reaches Qeq", spec.qeq));
                }
                if !(spec.w >= 0.0 && spec.w.is_finite() && spec.w <= 1e6) {
                    return Err(format!("cp.qcn.w must be a number in [0, 1e6], got {}", spec.w));
                }
                let sample_base = spec.sample_base.bytes(frame);
                if sample_base == 0 || sample_base > i64::MAX as u64 / 2 {
                    return Err(format!("cp.qcn.sample_base must be 1 B – 2^62 B, got {}", spec.sample_base));
                }
                let p = CpParams {
                    qeq,
                    w: spec.w,
                    sampling: match spec.sampling {
                        SamplingSpec::Table => Sampling::Table,
                        SamplingSpec::EveryFrame => Sampling::EveryFrame,
                    },
                    sample_base,
                    jitter: spec.jitter,
                    oversampling: spec.oversampling,
                    qold_on_feedback: spec.qold == QoldSpec::OnFeedback,
                    cnm_on_any_negative_fb: spec.cnm_on_any_negative_fb,
                };
                Ok(Self {
                    cp: CongestionPoint::new(p),
                    rng: $crate::core::rng::Rng::stream(cx.seed, "cp", &cx.name),
                    cnm_size: frame_size(spec.cnm_size, "cp.qcn.cnm_size")?,
                    sample_dropped: spec.sample_dropped,
                    tie_break: spec.$tie_break,
                    protocols: cx.protocols,
                    c_w0: Default::default(),
                })
            }
        }
    };
}
pub(crate) use qcn_cp_spec;

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RpVariantSpec {
    #[default]
    Standard,
    ByteCounter,
}

/// A table with the QCN reaction point's keys and `$extra` (QCN's own has none; a protocol that
/// extends QCN's reaction point writes its table with it, in its folder).
macro_rules! qcn_rp_spec {
    ($(#[$m:meta])* $name:ident { $($extra:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, serde::Deserialize, serde::Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// "standard" (802.1Qau pseudo-code) or "byte-counter" (the seeds' wording).
            #[serde(default)]
            pub variant: $crate::protocols::qcn::spec::RpVariantSpec,
            #[serde(default = "crate::protocols::qcn::spec::d_bc_limit")]
            pub bc_limit: $crate::units::Bytes,
            #[serde(default = "crate::protocols::qcn::spec::d_timer")]
            pub timer: $crate::units::Duration,
            #[serde(default = "crate::protocols::qcn::spec::d_fr_th")]
            pub fast_recovery_th: u32,
            #[serde(default = "crate::protocols::qcn::spec::d_r_ai")]
            pub r_ai: $crate::units::Rate,
            #[serde(default = "crate::protocols::qcn::spec::d_r_hai")]
            pub r_hai: $crate::units::Rate,
            #[serde(default = "crate::protocols::qcn::spec::d_gd")]
            pub gd: f64,
            #[serde(default = "crate::defaults::d_min_dec")]
            pub min_dec_factor: f64,
            #[serde(default = "crate::protocols::qcn::spec::d_min_rate")]
            pub min_rate: $crate::units::Rate,
            #[serde(default = "crate::defaults::d_true")]
            pub extra_fast_recovery: bool,
            #[serde(default = "crate::defaults::d_true")]
            pub jitter: bool,
            #[serde(default = "crate::protocols::qcn::spec::d_ai_cycles")]
            pub ai_cycles: u32,
            /// CR × drift_factor at each timer expiry (Roeck 2007: 1.005), default 1 (off).
            #[serde(default = "crate::protocols::qcn::spec::d_one")]
            pub drift_factor: f64,
            /// Probes (Roeck 2007): "none" (default), "cp" (-P), "sub-path" (-SP), "path" (-PP).
            #[serde(default)]
            pub probe: $crate::protocols::qcn::spec::ProbeSpec,
            /// Probe frame size, default 64 B (the seed gives none).
            #[serde(default = "crate::defaults::d_min_frame")]
            pub probe_size: $crate::units::Bytes,
            $($extra)*
        }
        impl Default for $name {
            fn default() -> Self {
                toml::from_str("").expect("defaults")
            }
        }
    };
}
pub(crate) use qcn_rp_spec;
qcn_rp_spec!(QcnRpSpec {});

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ProbeSpec {
    #[default]
    None,
    Cp,
    SubPath,
    Path,
}

/// A QCN reaction point's table (`rp.qcn`, or E-QCN's QCN keys) under `key` → its parameters at a
/// source whose link runs at `line_rate` bit/s.
pub fn rp_params(spec: &QcnRpSpec, line_rate: f64, key: &str) -> Result<RpParams, String> {
    if !(spec.gd > 0.0 && spec.gd < 1.0) {
        return Err(format!("{key}.gd must be in (0, 1), got {}", spec.gd));
    }
    if !(spec.min_dec_factor > 0.0 && spec.min_dec_factor <= 1.0) {
        return Err(format!("{key}.min_dec_factor must be in (0, 1], got {}", spec.min_dec_factor));
    }
    if spec.bc_limit.0 == 0 || spec.bc_limit.0 > i64::MAX as u64 / 2 {
        return Err(format!("{key}.bc_limit must be 1 B – 2^62 B, got {}", spec.bc_limit));
    }
    if spec.timer.0 == 0 {
        return Err(format!("{key}.timer must be positive, got {}", spec.timer));
    }
    // Rmin is the floor of a cut (802.1Qau §32.13.1): above the line rate, no cut could reach it.
    if spec.min_rate.0 == 0 || spec.min_rate.0 as f64 > line_rate {
        return Err(format!(
            "{key}.min_rate = {} b/s is above the line rate of the flow's source link ({line_rate} b/s): it must lie in (0, line rate]",
            spec.min_rate.0
        ));
    }
    if !(spec.drift_factor >= 1.0 && spec.drift_factor <= 2.0) {
        return Err(format!("{key}.drift_factor must be in [1, 2], got {}", spec.drift_factor));
    }
    Ok(RpParams {
        variant: match spec.variant {
            RpVariantSpec::Standard => RpVariant::Standard,
            RpVariantSpec::ByteCounter => RpVariant::ByteCounter,
        },
        line_rate,
        bc_limit: spec.bc_limit.0,
        timer_period: spec.timer.0,
        fast_recovery_th: spec.fast_recovery_th,
        r_ai: spec.r_ai.0 as f64,
        r_hai: spec.r_hai.0 as f64,
        gd: spec.gd,
        min_dec_factor: spec.min_dec_factor,
        min_rate: spec.min_rate.0 as f64,
        extra_fast_recovery: spec.extra_fast_recovery,
        jitter: spec.jitter,
        ai_cycles: spec.ai_cycles,
        drift_factor: spec.drift_factor,
        probe: match spec.probe {
            ProbeSpec::None => ProbeMode::None,
            ProbeSpec::Cp => ProbeMode::Cp,
            ProbeSpec::SubPath => ProbeMode::SubPath,
            ProbeSpec::Path => ProbeMode::Path,
        },
        probe_size: frame_size(spec.probe_size, &format!("{key}.probe_size"))?,
    })
}

/// Likely mistakes in a QCN reaction point's table under `key`: an increase step (R_AI, R_HAI)
/// above the line rate takes the rate to the line rate in one step.
pub fn rp_warnings(spec: &QcnRpSpec, line_rate: f64, key: &str) -> Vec<String> {
    [("r_ai", spec.r_ai), ("r_hai", spec.r_hai)]
        .into_iter()
        .filter(|(_, r)| r.0 as f64 > line_rate)
        .map(|(k, r)| format!("{key}.{k} = {} b/s is above the line rate of the flow's source link ({line_rate} b/s): one increase takes the rate to the line rate", r.0))
        .collect()
}

/// Probes (`probe` other than "none") follow one path: the message when the flow is not unicast.
pub const PROBES_NEED_UNICAST: &str = "probes (rp.*.probe) need a unicast flow";

/// `rp = { qcn = … }` → the reaction point of a flow.
impl FromSpec for ReactionPoint {
    type Spec = QcnRpSpec;
    type Cx = FlowCx;
    fn from_spec(spec: &QcnRpSpec, cx: &FlowCx) -> Result<ReactionPoint, String> {
        Ok(ReactionPoint::new(rp_params(spec, cx.line_rate, "rp.qcn")?))
    }
    fn warnings(spec: &QcnRpSpec, cx: &FlowCx) -> Vec<String> {
        rp_warnings(spec, cx.line_rate, "rp.qcn")
    }
    fn needs_unicast(spec: &QcnRpSpec) -> Option<&'static str> {
        (spec.probe != ProbeSpec::None).then_some(PROBES_NEED_UNICAST)
    }
}
