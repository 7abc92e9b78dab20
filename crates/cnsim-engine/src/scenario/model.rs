//! The scenario schema. Every field has a documented default (docs/scenarios.md); unknown keys are
//! errors. Name references keep their span so that semantic errors can name the line.

use crate::units::{Amount, Bytes, Duration, Rate};
use serde::{de, Deserialize, Deserializer, Serialize};
use std::fmt;
pub use toml::Spanned;

/// One string or a list of strings, each possibly a range ("S1..S6").
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Names(pub Vec<String>);

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Names;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name or a list of names")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Names, E> {
                Ok(Names(vec![s.to_string()]))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Names, A::Error> {
                let mut v = Vec::new();
                while let Some(s) = a.next_element::<String>()? {
                    v.push(s);
                }
                Ok(Names(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// One value or a list (per source) of values.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}
impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Decide on the TOML shape first, so a bad element reports its own error.
        let v = toml::Value::deserialize(d)?;
        match v {
            toml::Value::Array(a) => a
                .into_iter()
                .map(|x| T::deserialize(x).map_err(de::Error::custom))
                .collect::<Result<_, _>>()
                .map(OneOrMany::Many),
            x => T::deserialize(x).map(OneOrMany::One).map_err(de::Error::custom),
        }
    }
}
impl<T: Clone> OneOrMany<T> {
    /// The value for item `i` of `n`; a list must have exactly `n` entries.
    pub fn get(&self, i: usize, n: usize) -> Result<T, String> {
        match self {
            OneOrMany::One(x) => Ok(x.clone()),
            OneOrMany::Many(v) if v.len() == n => Ok(v[i].clone()),
            OneOrMany::Many(v) => Err(format!("list has {} entries but there are {n} sources", v.len())),
        }
    }
}

macro_rules! default_fns {
    ($($name:ident: $t:ty = $e:expr;)*) => { $(fn $name() -> $t { $e })* };
}
default_fns! {
    d_duration: Duration = Duration(1_000_000_000_000);
    d_seed: u64 = 1;
    d_record: Duration = Duration(1_000_000_000);
    d_frame: Bytes = Bytes(1500);
    d_rate: Rate = Rate(1_000_000_000);
    d_delay: Duration = Duration(1_000_000);
    d_overhead: Bytes = Bytes(20);
    d_capacity: Amount = Amount::Frames(100);
    d_qeq: Amount = Amount::Bytes(26_000);
    d_w: f64 = 2.0;
    d_sample_base: Amount = Amount::Bytes(150_000);
    d_true: bool = true;
    d_cnm_size: Bytes = Bytes(64);
    d_bc_limit: Bytes = Bytes(150_000);
    d_timer: Duration = Duration(10_000_000_000);
    d_fr_th: u32 = 5;
    d_r_ai: Rate = Rate(5_000_000);
    d_r_hai: Rate = Rate(50_000_000);
    d_gd: f64 = 1.0 / 128.0;
    d_min_dec: f64 = 0.5;
    d_min_rate: Rate = Rate(10_000_000);
    d_ai_cycles: u32 = 5;
    d_buffer: u32 = 100;
    d_series_mem: Bytes = Bytes(1_000_000_000);
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub simulation: Simulation,
    #[serde(default)]
    pub defaults: Defaults,
    /// Congestion point on every switch output queue (a `[[port]]` may replace it).
    #[serde(default)]
    pub cp: CpSpec,
    #[serde(default, rename = "switch", skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<NodeSpec>,
    #[serde(default, rename = "host", skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<NodeSpec>,
    #[serde(default, rename = "link", skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkSpec>,
    #[serde(default, rename = "port", skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PortSpec>,
    #[serde(default, rename = "group", skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupSpec>,
    #[serde(default, rename = "flow", skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<FlowSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Simulation {
    /// Simulated time to run, default 1 s.
    #[serde(default = "d_duration")]
    pub duration: Duration,
    /// Seed of every random stream, default 1.
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// Start of the measurement window of every windowed metric, default 0.
    #[serde(default)]
    pub measure_from: Duration,
    /// Sampling period of the recorded series; "0s" records none. Default 1 ms.
    #[serde(default = "d_record")]
    pub record_interval: Duration,
    /// Size of one "frame" where amounts are given in frames (Qeq, sample base), default 1500 B.
    #[serde(default = "d_frame")]
    pub frame_size: Bytes,
    /// Guard: stop cleanly after this many events (0 = no limit).
    #[serde(default)]
    pub max_events: u64,
    /// Guard: stop cleanly after this much wall-clock time ("0s" = no limit).
    #[serde(default)]
    pub max_wall_time: Duration,
    /// Guard: stop cleanly when the recorded series would exceed this memory (20 B per sample;
    /// "0B" = no limit). Default 1 GB, so that a tiny `record_interval` cannot exhaust memory.
    #[serde(default = "d_series_mem")]
    pub max_series_memory: Bytes,
}
impl Default for Simulation {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkParams {
    /// Default 1 Gb/s.
    #[serde(default = "d_rate")]
    pub rate: Rate,
    /// Propagation delay, default 1 µs.
    #[serde(default = "d_delay")]
    pub delay: Duration,
    /// Per-frame wire overhead: preamble + SFD (8 B) + inter-frame gap (12 B) = 20 B.
    #[serde(default = "d_overhead")]
    pub overhead: Bytes,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct QueueParams {
    /// Drop-tail capacity in frames or bytes, default 100 frames (seeds 000/001/002).
    #[serde(default = "d_capacity")]
    pub capacity: Amount,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    #[serde(default = "default_link")]
    pub link: LinkParams,
    #[serde(default = "default_queue")]
    pub queue: QueueParams,
}
fn default_link() -> LinkParams {
    toml::from_str("").expect("defaults")
}
fn default_queue() -> QueueParams {
    toml::from_str("").expect("defaults")
}
impl Default for Defaults {
    fn default() -> Self {
        Defaults { link: default_link(), queue: default_queue() }
    }
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CpProtocol {
    #[default]
    None,
    Qcn,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SamplingSpec {
    /// 802.1Qau sampling table (byte counter), the standard's behaviour.
    #[default]
    Table,
    /// Evaluate every arriving data frame (seed 001 §2.1).
    EveryFrame,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum QoldSpec {
    /// Qold := qlen at every sample, CNM or not [impl].
    #[default]
    EverySample,
    /// Qold := qlen only when a CNM is sent ("the queue size when the last feedback message was
    /// generated", seed 000 §2.1).
    OnFeedback,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CpSpec {
    /// "none" (default) or "qcn".
    #[serde(default)]
    pub protocol: CpProtocol,
    /// Equilibrium queue Qeq, default 26000 B (802.1Qau); the seeds use 25/50/75 frames.
    #[serde(default = "d_qeq")]
    pub qeq: Amount,
    /// W, default 2.
    #[serde(default = "d_w")]
    pub w: f64,
    #[serde(default)]
    pub sampling: SamplingSpec,
    /// Bytes between samples at QntzFb = 0 (table sampling), default 150000 B.
    #[serde(default = "d_sample_base")]
    pub sample_base: Amount,
    /// U(0.85, 1.15) jitter on sampling intervals, default true.
    #[serde(default = "d_true")]
    pub jitter: bool,
    #[serde(default)]
    pub qold: QoldSpec,
    /// CNM frame size, default 64 B (a minimum-size Ethernet frame: the seeds do not give it; a CNM
    /// with 64 B of encapsulated MSDU would be 106 B — set it here).
    #[serde(default = "d_cnm_size")]
    pub cnm_size: Bytes,
    /// Also evaluate data frames that the full queue drops, default true.
    #[serde(default = "d_true")]
    pub sample_dropped: bool,
    /// E-QCN frames: on equal |Fb| only the CP whose CPID the RP selected sends (seed 001 §4),
    /// default true.
    #[serde(default = "d_true")]
    pub eqcn_tie_break: bool,
}
impl Default for CpSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Names of the nodes: one name, a list, or ranges ("S1..S6").
    pub names: Spanned<Names>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two ends; each end may be a list or range: one link for every pair.
    pub between: Spanned<[Names; 2]>,
    pub rate: Option<Rate>,
    pub delay: Option<Duration>,
    pub overhead: Option<Bytes>,
    /// Queue of both ends' output ports (default: `defaults.queue`).
    pub queue: Option<QueueParams>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PortSpec {
    /// Output port(s) "NODE>PEER" (ranges allowed on either side, e.g. "SW1>S1..S6").
    pub at: Spanned<Names>,
    pub queue: Option<QueueParams>,
    /// Replaces `[cp]` at these ports; unspecified keys take the documented defaults.
    pub cp: Option<CpSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    pub name: Spanned<String>,
    pub members: Spanned<Names>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Unicast,
    Multicast,
    MultipleUnicast,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TrafficKind {
    /// Constant gap frame/rate.
    Cbr,
    /// Exponential gaps with mean frame/rate.
    Poisson,
    /// Per slot (one frame time at the source's line rate) send with probability `load` (seed 004).
    Bernoulli,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficSpec {
    pub kind: TrafficKind,
    /// Mean application rate (cbr, poisson).
    pub rate: Option<Rate>,
    /// Offered load in (0, 1] of the source's line rate (bernoulli).
    pub load: Option<f64>,
    /// Frame size, default 1500 B.
    #[serde(default = "d_frame")]
    pub frame: Bytes,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RpProtocol {
    #[default]
    None,
    Qcn,
    /// QCN with the representative-CP enhancement for multicast (seed 001 Algorithm 1).
    Eqcn,
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

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CopyRate {
    /// Every copy of a multiple-unicast session leaves at the session rate CR = min r_i (seed 000 §3).
    #[default]
    SessionMin,
    /// Each copy is paced by its own RP.
    Own,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RpSpec {
    /// "none" (default), "qcn" or "eqcn".
    #[serde(default)]
    pub protocol: RpProtocol,
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
    #[serde(default = "d_min_dec")]
    pub min_dec_factor: f64,
    #[serde(default = "d_min_rate")]
    pub min_rate: Rate,
    #[serde(default = "d_true")]
    pub extra_fast_recovery: bool,
    #[serde(default = "d_true")]
    pub jitter: bool,
    #[serde(default = "d_ai_cycles")]
    pub ai_cycles: u32,
    /// Multiple unicast: how copies are paced.
    #[serde(default)]
    pub copy_rate: CopyRate,
    /// Frames the rate limiter may hold; overflow is source-side loss. Default 100 (seed 004).
    #[serde(default = "d_buffer")]
    pub buffer: u32,
    /// E-QCN: which value the decrease uses (seed 001 Algorithm 1 leaves it open), default "saved".
    #[serde(default)]
    pub eqcn_decrease: EqcnDecrease,
}
impl Default for RpSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Flow name when `from` is one host (default: the source's name).
    pub name: Option<String>,
    /// Source host(s): one flow (session) per source.
    pub from: Spanned<Names>,
    /// A host (unicast) or a group (multicast, multiple-unicast).
    pub to: Spanned<String>,
    /// Default: unicast to a host, multicast to a group.
    pub mode: Option<Mode>,
    pub traffic: TrafficSpec,
    /// Start time, one for all sources or one per source; default 0.
    pub start: Option<Spanned<OneOrMany<Duration>>>,
    /// Stop time, one or per source; default: end of the run.
    pub stop: Option<Spanned<OneOrMany<Duration>>>,
    #[serde(default)]
    pub rp: RpSpec,
}
