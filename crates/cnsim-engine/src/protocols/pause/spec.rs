//! PAUSE and PFC's scenario table (`[flow_control.pause]`, `[flow_control.pfc]`), the flow-control
//! slot's table (`scenario/slots.rs`); every field has a documented default (docs/scenarios.md) and
//! unknown keys are errors. The table builds PAUSE's settings here (`FromSpec`), with range checks
//! whose messages name the key.

use super::slot::PauseFc;
use super::{PauseCfg, Trigger};
use crate::core::time::Time;
use crate::slots::spec::{frame_size, FabricCx, FromSpec, Keys};
use crate::units::{Amount, Bytes, Duration};
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_xoff: Amount = Amount::Frames(20);
    d_xon: Amount = Amount::Frames(10);
    d_quanta: u16 = 0xFFFF;
    d_all_prios: Vec<u8> = (0..8).collect();
    d_pause_size: Bytes = Bytes(64);
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TriggerSpec {
    /// Bytes buffered in the switch that entered through the port (per class), as real switches.
    #[default]
    Ingress,
    /// An output queue above XOFF pauses every upstream neighbour (Jiang & Jain 2007 §IV).
    Egress,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PauseSpec {
    #[serde(default)]
    pub trigger: TriggerSpec,
    /// XOFF above this load, default 20 frames (an assumption: the seeds give no value).
    #[serde(default = "d_xoff")]
    pub xoff: Amount,
    /// XON at or below this load, default 10 frames.
    #[serde(default = "d_xon")]
    pub xon: Amount,
    /// Pause time sent with XOFF in quanta of 512 bit times, default 65535.
    #[serde(default = "d_quanta")]
    pub quanta: u16,
    /// Re-send XOFF this often while congested; default half the pause time at the link rate.
    pub refresh: Option<Duration>,
    /// PFC: the flow-controlled (lossless) priorities, default all eight.
    #[serde(default = "d_all_prios")]
    pub priorities: Vec<u8>,
    /// PAUSE frame size, default 64 B.
    #[serde(default = "d_pause_size")]
    pub frame_size: Bytes,
}

/// The flow-control slot's table: one of PAUSE's two keys.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PauseTable {
    /// IEEE 802.3x PAUSE: the whole link.
    Pause(PauseSpec),
    /// IEEE 802.1Qbb priority-based flow control: per priority class.
    Pfc(PauseSpec),
}

impl Keys for PauseTable {
    const KEYS: &'static [&'static str] = &["pause", "pfc"];
}

impl FromSpec for PauseFc {
    type Spec = PauseTable;
    type Cx = FabricCx;
    fn from_spec(t: &PauseTable, cx: &FabricCx) -> Result<PauseFc, String> {
        let (s, key, pfc) = table(t);
        let c = cfg(s, pfc, key, cx.frame)?;
        // An output queue that drops before it holds XOFF never pauses its upstream (egress
        // trigger, Jiang & Jain 2007 §IV): the flow control would never act. Certain only for a
        // capacity in bytes; one in frames holds frames of any size (`warnings`).
        if let Some(cap) = cx.capacity.filter(|cap| c.trigger == Trigger::Egress && matches!(cap, Amount::Bytes(_)) && c.xoff >= cap.bytes(cx.frame)) {
            return Err(format!("{key}.xoff = {} is not below the queue's capacity of {cap}: the queue drops before it pauses (trigger = \"egress\")", s.xoff));
        }
        Ok(PauseFc::new(c))
    }
    /// XOFF at or above a switch port's queue capacity: ingress trigger (the bytes that entered
    /// through one port reach it only when they fill more than one output queue) or egress with a
    /// capacity in frames (frames larger than `simulation.frame_size` may still reach it); and XON
    /// equal to XOFF (no hysteresis: XOFF and XON alternate with every frame at the threshold).
    fn warnings(t: &PauseTable, cx: &FabricCx) -> Vec<String> {
        let (s, key, _) = table(t);
        let (xoff, xon) = (s.xoff.bytes(cx.frame), s.xon.bytes(cx.frame));
        let mut out = vec![];
        if let Some(cap) = cx.capacity.filter(|cap| s.trigger == TriggerSpec::Ingress && xoff >= cap.bytes(cx.frame)) {
            out.push(format!("{key}.xoff = {} is not below the queue's capacity of {cap}: a port's queue drops before the bytes that entered through one port reach XOFF", s.xoff));
        }
        // Egress trigger, a capacity in frames: the queue holds that many frames of any size, so
        // it reaches XOFF only if its frames are larger than `simulation.frame_size` (an error
        // for a capacity in bytes, `from_spec`).
        if let Some(cap) = cx.capacity.filter(|cap| s.trigger == TriggerSpec::Egress && matches!(cap, Amount::Frames(_)) && xoff >= cap.bytes(cx.frame)) {
            out.push(format!("{key}.xoff = {} is not below the queue's capacity of {cap} (a frame counted as simulation.frame_size = {} B): the queue drops before it pauses unless its frames are larger (trigger = \"egress\")", s.xoff, cx.frame));
        }
        if cx.capacity.is_none() && xon == xoff {
            out.push(format!("{key}.xon = {} equals {key}.xoff: with no hysteresis, XOFF and XON alternate with every frame at the threshold", s.xon));
        }
        out
    }
}

/// The table, the key it was given under, and whether it is PFC.
fn table(t: &PauseTable) -> (&PauseSpec, &'static str, bool) {
    match t {
        PauseTable::Pause(s) => (s, "flow_control.pause", false),
        PauseTable::Pfc(s) => (s, "flow_control.pfc", true),
    }
}

/// The table under `key` (`flow_control.pause`, or `flow_control.pfc` with `pfc`) → the settings
/// of every switch port's PAUSE generator; amounts in frames are of `frame` bytes.
fn cfg(spec: &PauseSpec, pfc: bool, key: &str, frame: u64) -> Result<PauseCfg, String> {
    let (xoff, xon) = (spec.xoff.bytes(frame), spec.xon.bytes(frame));
    if xon > xoff {
        return Err(format!("{key}.xon ({}) must not be above {key}.xoff ({})", spec.xon, spec.xoff));
    }
    if spec.quanta == 0 {
        return Err(format!("{key}.quanta must be 1–65535 (0 is XON), got {}", spec.quanta));
    }
    if spec.refresh.is_some_and(|r| r.0 == 0) {
        return Err(format!("{key}.refresh must be positive, got {}", spec.refresh.unwrap_or_default()));
    }
    let mut classes = 0u8;
    for &p in &spec.priorities {
        if p > 7 {
            return Err(format!("{key}.priorities: {p} is not a priority (0-7)"));
        }
        classes |= 1 << p;
    }
    Ok(PauseCfg {
        pfc,
        trigger: match spec.trigger {
            TriggerSpec::Ingress => Trigger::Ingress,
            TriggerSpec::Egress => Trigger::Egress,
        },
        xoff,
        xon,
        quanta: spec.quanta,
        refresh: spec.refresh.map(|d| d.0 as Time),
        classes,
        frame_size: frame_size(spec.frame_size, &format!("{key}.frame_size"))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::flow_control::FcMachine;

    #[test]
    fn each_key_is_a_variant_and_picks_the_link_or_the_class() {
        for (key, name) in PauseTable::KEYS.iter().zip(["pause", "pfc"]) {
            let t: PauseTable = toml::from_str(&format!("[{key}]\nxoff = \"30 frames\"")).unwrap();
            let fc = PauseFc::from_spec(&t, &FabricCx { frame: 1000, capacity: None }).unwrap();
            assert_eq!((fc.name(), fc.cfg.xoff), (name, 30_000));
        }
    }

    #[test]
    fn a_range_error_names_the_key_it_was_given_under() {
        let t: PauseTable = toml::from_str("[pfc]\nquanta = 0").unwrap();
        let e = PauseFc::from_spec(&t, &FabricCx { frame: 1000, capacity: None }).unwrap_err();
        assert_eq!(e, "flow_control.pfc.quanta must be 1–65535 (0 is XON), got 0");
    }
}
