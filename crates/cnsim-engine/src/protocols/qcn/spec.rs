//! QCN's scenario tables (IEEE 802.1Qau): `[cp.qcn]`, `rp = { qcn = … }`, and E-QCN's `rp = { eqcn
//! = … }`, which extends QCN's table (Mliki et al. 2016b). Composed into the scenario model
//! (`scenario/model.rs`), which re-exports it; every field has a documented default
//! (docs/scenarios.md) and unknown keys are errors.

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

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct QcnCpSpec {
    /// Equilibrium queue Qeq, default 26000 B (802.1Qau); the seeds use 25/50/75 frames.
    #[serde(default = "d_qeq")]
    pub qeq: Amount,
    /// W, default 2.
    #[serde(default = "crate::defaults::d_w")]
    pub w: f64,
    #[serde(default)]
    pub sampling: SamplingSpec,
    /// Bytes between samples at QntzFb = 0 (table sampling), default 150000 B.
    #[serde(default = "crate::defaults::d_sample_base")]
    pub sample_base: Amount,
    /// U(0.85, 1.15) jitter on sampling intervals, default true.
    #[serde(default = "crate::defaults::d_true")]
    pub jitter: bool,
    #[serde(default)]
    pub qold: QoldSpec,
    /// CNM frame size, default 64 B (a minimum-size Ethernet frame: the seeds do not give it; a CNM
    /// with 64 B of encapsulated MSDU would be 106 B — set it here).
    #[serde(default = "crate::defaults::d_cnm_size")]
    pub cnm_size: Bytes,
    /// Shorten the sampling interval as QntzFb grows (the 802.1Qau table), default true; false:
    /// always `sample_base` (Roeck 2007: "Oversampling disabled").
    #[serde(default = "crate::defaults::d_true")]
    pub oversampling: bool,
    /// Also evaluate data frames that the full queue drops, default true.
    #[serde(default = "crate::defaults::d_true")]
    pub sample_dropped: bool,
    /// E-QCN frames: on equal |Fb| only the CP whose CPID the RP selected sends (Mliki et al. 2016b §4),
    /// default true.
    #[serde(default = "crate::defaults::d_true")]
    pub eqcn_tie_break: bool,
    /// Send a CNM for every sample with Fb < 0 (QntzFb at least 1), as Mliki et al. 2016a/b §2.1
    /// word it; default false: 802.1Qau sends nothing when |Fb| is below one quantum (QntzFb = 0).
    #[serde(default)]
    pub cnm_on_any_negative_fb: bool,
}
impl Default for QcnCpSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

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
pub enum RpVariantSpec {
    #[default]
    Standard,
    ByteCounter,
}

/// The QCN reaction point's keys; E-QCN's table has the same keys plus its own.
macro_rules! qcn_rp_spec {
    ($(#[$m:meta])* $name:ident { $($extra:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// "standard" (802.1Qau pseudo-code) or "byte-counter" (the seeds' wording).
            #[serde(default)]
            pub variant: RpVariantSpec,
            #[serde(default = "d_bc_limit")]
            pub bc_limit: Bytes,
            #[serde(default = "d_timer")]
            pub timer: Duration,
            #[serde(default = "d_fr_th")]
            pub fast_recovery_th: u32,
            #[serde(default = "d_r_ai")]
            pub r_ai: Rate,
            #[serde(default = "d_r_hai")]
            pub r_hai: Rate,
            #[serde(default = "d_gd")]
            pub gd: f64,
            #[serde(default = "crate::defaults::d_min_dec")]
            pub min_dec_factor: f64,
            #[serde(default = "d_min_rate")]
            pub min_rate: Rate,
            #[serde(default = "crate::defaults::d_true")]
            pub extra_fast_recovery: bool,
            #[serde(default = "crate::defaults::d_true")]
            pub jitter: bool,
            #[serde(default = "d_ai_cycles")]
            pub ai_cycles: u32,
            /// CR × drift_factor at each timer expiry (Roeck 2007: 1.005), default 1 (off).
            #[serde(default = "d_one")]
            pub drift_factor: f64,
            /// Probes (Roeck 2007): "none" (default), "cp" (-P), "sub-path" (-SP), "path" (-PP).
            #[serde(default)]
            pub probe: ProbeSpec,
            /// Probe frame size, default 64 B (the seed gives none).
            #[serde(default = "crate::defaults::d_cnm_size")]
            pub probe_size: Bytes,
            $($extra)*
        }
        impl Default for $name {
            fn default() -> Self {
                toml::from_str("").expect("defaults")
            }
        }
    };
}
qcn_rp_spec!(QcnRpSpec {});
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
    #[serde(default = "d_timer")]
    pub fb_hat_expiry: Duration,
});

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ProbeSpec {
    #[default]
    None,
    Cp,
    SubPath,
    Path,
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
