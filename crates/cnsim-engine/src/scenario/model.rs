//! The scenario schema. Every field has a documented default (docs/scenarios.md); unknown keys are
//! errors. Name references keep their span so that semantic errors can name the line.

use crate::units::{Bytes, Duration, Rate};
use serde::{de, Deserialize, Deserializer, Serialize};
use std::fmt;
pub use toml::Spanned;
// Each protocol's tables live in its folder (`protocols/<name>/spec.rs`). The slots that
// registered protocols fill (`cp`, `rp`, a queue's discipline, `flow_control`, a multicast
// receiver's `cc`, a flow's `transport`) are written from the registry (`slots.rs`), and so are
// the router-feedback tables of the scenario and of a flow (below); the tables of the other
// slots are named here.
use super::slots::{CpSlot, FlowControlSlot, McastCcSlot, QueueParams, RpSlot, TransportSlot};
use crate::protocols::*;
use crate::registry::protocols::occupants;
use crate::slots::spec::FromSpec;
use super::transport::AppKind;

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

/// The two ends of a link: exactly two entries, each a name, a list or a range.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Ends(pub [Names; 2]);

impl<'de> Deserialize<'de> for Ends {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Names>::deserialize(d)?;
        match <[Names; 2]>::try_from(v) {
            Ok(ends) => Ok(Ends(ends)),
            Err(v) => Err(de::Error::custom(format!(
                "`between` needs exactly two ends (each a name, a list or a range), got {}",
                v.len()
            ))),
        }
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

use crate::defaults::default_fns;
use crate::defaults::d_frame;
default_fns! {
    d_duration: Duration = Duration(1_000_000_000_000);
    d_seed: u64 = 1;
    d_record: Duration = Duration(1_000_000_000);
    d_rate: Rate = Rate(1_000_000_000);
    d_delay: Duration = Duration(1_000_000);
    d_overhead: Bytes = Bytes(20);
    d_buffer: u32 = 100;
    d_series_mem: Bytes = Bytes(1_000_000_000);
    d_max_frames: u64 = 4_000_000;
    d_level: usize = 1;
}

/// Writes the scenario's top-level tables, with each router-feedback protocol's table for the
/// routers under its key (registered in `registry/protocols.rs`).
macro_rules! scenario {
    ($($variant:ident($ty:ty, $key:ident),)*) => {
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct Scenario {
            #[serde(default)]
            pub simulation: Simulation,
            #[serde(default)]
            pub defaults: Defaults,
            /// Congestion point on every switch output queue (a `[[port]]` may replace it).
            #[serde(default)]
            pub cp: CpSlot,
            /// Link-level flow control on every switch port.
            #[serde(default)]
            pub flow_control: FlowControlSlot,
            /// Unicast routing: `[routing] ecmp = true` spreads flows over equal-cost paths.
            #[serde(default)]
            pub routing: RoutingSpec,
            /// `[fabric] cc = NAME`: the fabric preset applied when the file was loaded
            /// (`scenario::fabric`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub fabric: Option<FabricSpec>,
            $(
                /// A router-feedback protocol's table for the routers (e.g. `[sirens]`): its meter on
                /// every router output port; absent: routers write none of its data.
                pub $key: Option<<$ty as FromSpec>::Spec>,
            )*
            #[serde(default, rename = "switch", skip_serializing_if = "Vec::is_empty")]
            pub switches: Vec<NodeSpec>,
            /// IP routers (docs/protocols.md §8): TTL decrement, RED or drop-tail queues, router feedback.
            #[serde(default, rename = "router", skip_serializing_if = "Vec::is_empty")]
            pub routers: Vec<NodeSpec>,
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
            /// Multi-rate multicast receivers that join and leave groups at run time.
            #[serde(default, rename = "mcast_receiver", skip_serializing_if = "Vec::is_empty")]
            pub mcast_receivers: Vec<McastReceiverSpec>,
            /// Datacenter workloads expanded into finite flows at build time (`build/workload.rs`).
            #[serde(default, rename = "workload", skip_serializing_if = "Vec::is_empty")]
            pub workloads: Vec<WorkloadSpec>,
        }
    };
}
occupants!(Meter => scenario);

/// Writes the workload's table, with each transport's table under its older key (registered in
/// `registry/protocols.rs`: `Transport(Type, key)`).
macro_rules! workload_spec {
    ($($variant:ident($ty:ty, $key:ident),)*) => {
        /// `[[workload]]`: finite flows among `hosts`, either Poisson arrivals at an offered `load` with
        /// sizes drawn from a CDF (`sizes`), or a periodic `incast`. Per-flow options as in `[[flow]]`.
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct WorkloadSpec {
            /// Prefix of the flows' names (`NAME#k`); default `workloadI` (I: the table's index from 1).
            pub name: Option<String>,
            /// The hosts that send and receive; a flow's source and destination differ.
            pub hosts: Spanned<Names>,
            /// "web-search", "data-mining", "fb-hadoop", or the path of a CDF file (relative to the scenario file).
            pub sizes: Option<Spanned<String>>,
            /// Offered load as a fraction of each source host's link rate, in (0, 1].
            pub load: Option<Spanned<f64>>,
            #[serde(default)]
            pub start: Duration,
            pub stop: Spanned<Duration>,
            /// "transfer" (default: open-loop, or closed-loop over `transport`), or a transport's older
            /// spelling of it (`scenario/transport.rs`).
            #[serde(default = "d_transfer")]
            pub traffic: Spanned<TrafficKind>,
            /// Open-loop transfers' sending rate (default: the source's line rate) and frame size.
            pub rate: Option<Rate>,
            #[serde(default = "d_frame")]
            pub frame: Bytes,
            pub incast: Option<IncastSpec>,
            /// The most flows the table may create (checked before any is made), default 100000.
            #[serde(default = "d_max_flows")]
            pub max_flows: Spanned<u64>,
            #[serde(default)]
            pub priority: u8,
            #[serde(default)]
            pub rp: RpSlot,
            #[serde(default)]
            pub limiter: LimiterSpec,
            /// The transfers' closed-loop transport (`transport = { NAME = {…} }`); none: open-loop.
            pub transport: Option<TransportSlot>,
            $(
                /// A transport's table under its older key (`scenario/transport.rs`).
                pub $key: Option<<$ty as FromSpec>::Spec>,
            )*
        }
    };
}
occupants!(OlderTransport => workload_spec);

fn d_transfer() -> Spanned<TrafficKind> {
    Spanned::new(0..0, TrafficKind::Transfer)
}
fn d_max_flows() -> Spanned<u64> {
    Spanned::new(0..0, 100_000)
}

/// `incast = { receiver, senders, size, period }`: every `period` from `start`, `senders` hosts
/// drawn from the workload's hosts (never the receiver) each start a `size` transfer to it together.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IncastSpec {
    pub receiver: Spanned<String>,
    pub senders: u32,
    pub size: Bytes,
    pub period: Duration,
}

/// `[[mcast_receiver]]`: hosts running a multi-rate multicast receiver over `groups` (level order:
/// a simulcast's channels 1..n, or cumulative layers 1..n).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct McastReceiverSpec {
    pub hosts: Spanned<Names>,
    pub groups: Spanned<Vec<String>>,
    /// Level at the start, default 1.
    #[serde(default = "d_level")]
    pub initial_level: usize,
    pub cc: McastCcSlot,
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
    /// Order of events at equal times: "seeded" (default: a permutation drawn from the seed, so no
    /// entity wins every tie by its place in the file) or "fifo" (the order they were scheduled).
    #[serde(default)]
    pub tie_order: TieOrder,
    /// Guard: stop cleanly when more frames than this exist at once (in queues, on wires and
    /// waiting in rate limiters; about 100 B each). Default 4 000 000; 0 = no limit.
    #[serde(default = "d_max_frames")]
    pub max_frames: u64,
    /// Guard: refuse to build a network whose estimated memory exceeds this ("0B" = no limit of the
    /// scenario's own; the process may set one too, e.g. cnsim's --max-memory from the machine).
    #[serde(default)]
    pub max_memory: Bytes,
}
impl Default for Simulation {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

/// `[fabric]`: the fabric preset that runs the scenario under a congestion control, applied when
/// the file is loaded (`scenario::fabric`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FabricSpec {
    /// A fabric preset's name (`cnsim.generators.fabric_presets()`).
    pub cc: String,
    /// The links on the fabric's longest path between two hosts; required by a preset that writes
    /// the fabric's base RTT (HPCC's `base_rtt`).
    pub longest_path: Option<u64>,
}

/// `[routing]`: how unicast frames choose among shortest paths.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingSpec {
    /// Equal-cost multi-path: each flow hashed onto one of the equal-cost next hops at every
    /// switch (`net::routing`). Default false: the neighbour with the smallest name.
    #[serde(default)]
    pub ecmp: bool,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TieOrder {
    #[default]
    Seeded,
    Fifo,
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

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Names of the nodes: one name, a list, or ranges ("S1..S6").
    pub names: Spanned<Names>,
    /// Switches only: processing latency of every frame entering the switch, default 0 (seed
    /// 004: 1 µs), at most 1 s.
    pub latency: Option<Duration>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two ends; each end may be a list or range: one link for every pair.
    pub between: Spanned<Ends>,
    pub rate: Option<Rate>,
    pub delay: Option<Duration>,
    /// Propagation delay from the second end back to the first, default `delay` (Roeck 2007's
    /// "forward latency": long towards the switch, short back).
    pub reverse_delay: Option<Duration>,
    pub overhead: Option<Bytes>,
    /// Probability that a data frame is lost on the wire, each direction, default 0 (random loss,
    /// e.g. to check TCP against the Mathis and Padhye formulas).
    pub loss: Option<f64>,
    /// Queue of both ends' output ports (default: `defaults.queue`).
    pub queue: Option<QueueParams>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PortSpec {
    /// Output port(s) "NODE>PEER" (ranges allowed on either side, e.g. "SW1>S1..S6").
    pub at: Spanned<Names>,
    pub queue: Option<QueueParams>,
    /// Replaces `[cp]` at these ports ("none" or a protocol table); unspecified keys take the
    /// documented defaults.
    pub cp: Option<CpSlot>,
    /// An oscillating service rate (Roeck 2007's oscillating hotspot).
    pub oscillate: Option<OscillateSpec>,
}

/// `oscillate = { rate = "1Gbps", on = "2ms", off = "2ms", from = "100ms", until = "900ms" }`: the
/// port serves at `rate` for `on`, at its link's rate for `off`, again, from `from` (default 0)
/// until `until` (default: the end of the run).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OscillateSpec {
    pub rate: Rate,
    pub on: Duration,
    pub off: Duration,
    #[serde(default)]
    pub from: Duration,
    pub until: Option<Duration>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    pub name: Spanned<String>,
    /// Potential members: every multicast tree of the group covers them.
    pub members: Spanned<Names>,
    /// Members joined at time 0, default all of them.
    pub joined: Option<Spanned<Names>>,
    /// Time from a join request to the branch carrying frames (graft), default 0 s.
    #[serde(default)]
    pub join_latency: Duration,
    /// Time from a leave request to the branch being pruned (IGMP's leave latency), default 0 s
    /// [assumed: docs/protocols.md §8 asks for a parameter, the seed gives no value].
    #[serde(default)]
    pub leave_latency: Duration,
    /// Scheduled membership requests (`[[group.change]]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub change: Vec<GroupChange>,
}

/// `[[group.change]]`: at `at`, these members ask to join or leave.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GroupChange {
    pub at: Duration,
    pub join: Option<Spanned<Names>>,
    pub leave: Option<Spanned<Names>>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Unicast,
    Multicast,
    MultipleUnicast,
}

/// A flow's traffic kind, read and written by its name (`scenario/transport.rs`: `NAMES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrafficKind {
    /// Constant gap frame/rate.
    Cbr,
    /// Exponential gaps with mean frame/rate.
    Poisson,
    /// Per slot (one frame time at the source's line rate) send with probability `load` (Roeck 2007).
    Bernoulli,
    /// Pareto on/off: bursts at `rate` of mean length `burst`, idle times of mean `idle`, both
    /// Pareto with `shape` (Jiang & Jain 2007's bursty sources; ns-2's Pareto application).
    Pareto,
    /// A closed-loop connection over the flow's `transport` that always has data (FTP bulk
    /// transfer; Jiang & Jain 2007 §VI).
    Bulk,
    /// A closed-loop connection over the flow's `transport` sending `size` bytes, then idle for
    /// `idle`, again (Jiang & Jain 2007 §VI.B's reference sources: 10 kB transactions).
    Transactions,
    /// A finite transfer of `size` bytes. Open-loop: whole frames at line rate (or at `rate`),
    /// through the flow's limiter and RP, then nothing; complete when the receiver has them all.
    /// Over the flow's `transport`: one connection sending `size` bytes once, complete when the
    /// last byte is acknowledged.
    Transfer,
    /// An application over the transport its name names, an older spelling: `K-bulk`,
    /// `K-transactions`, `K-transfer` for the transport whose older key K is the `u8`-th of
    /// `scenario::transport::OLDER_KEYS` (`transport = { K = … }`, or the flow's `K` table).
    Named(AppKind, u8),
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseSpec {
    #[default]
    None,
    Random,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficSpec {
    pub kind: TrafficKind,
    /// Mean application rate (cbr, poisson).
    pub rate: Option<Rate>,
    /// Offered load in (0, 1] of the source's line rate (bernoulli).
    pub load: Option<f64>,
    /// Pareto on/off: mean burst (on) and idle (off) times, and the shape (> 1; default 1.5).
    /// `idle` is also the pause between TCP transactions (default 0).
    pub burst: Option<Duration>,
    pub idle: Option<Duration>,
    /// TCP transactions: bytes per transaction (default 10 kB, Jiang & Jain 2007 §VI.B).
    pub size: Option<Bytes>,
    /// TCP: parallel connections per source (Jiang & Jain 2007 §VI.B: "10 continuous connections"),
    /// named SOURCE/1, SOURCE/2 …; default 1.
    pub connections: Option<u32>,
    pub shape: Option<f64>,
    /// "none" (default): the first frame leaves exactly at `start`; "random": U[0, one gap) after
    /// it, drawn from the source's own stream, so that identical sources do not share a phase grid.
    #[serde(default)]
    pub phase: PhaseSpec,
    /// Frame size, default 1500 B.
    #[serde(default = "d_frame")]
    pub frame: Bytes,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CopyRate {
    /// Every copy of a multiple-unicast session leaves at the session rate CR = min r_i (Mliki et al. 2016a §3).
    #[default]
    SessionMin,
    /// Each copy is paced by its own RP.
    Own,
}

/// Which traffic one regulator (reaction point + rate limiter) carries, for TCP connections.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Regulate {
    /// One regulator per source: the frames of all the flow's connections leave through it.
    #[default]
    PerSource,
    /// One regulator per TCP connection.
    PerConnection,
}

/// The rate limiter at a flow's source: its buffer, and how multiple-unicast copies are paced.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LimiterSpec {
    /// Frames the rate limiter may hold; overflow is source-side loss. Default 100 (Roeck 2007).
    #[serde(default = "d_buffer")]
    pub buffer: u32,
    /// Multiple unicast: how copies are paced, default "session-min".
    #[serde(default)]
    pub copy_rate: CopyRate,
    /// TCP with `traffic.connections` > 1: one regulator (RP and rate limiter) per source shared by
    /// the flow's connections (default "per-source": BCN regulates per source, Jiang & Jain 2007
    /// §II; 802.1Qau per source and priority), or one per connection ("per-connection").
    #[serde(default)]
    pub regulate: Regulate,
    /// The reaction point acts on a feedback frame this long after it arrives, default 0 (seed
    /// 004's QCN slide: "QCN packet processing latency = 5 µs").
    #[serde(default)]
    pub feedback_latency: Duration,
}
impl Default for LimiterSpec {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

/// Writes a flow's table, with each transport's table under its older key and each
/// router-feedback protocol's table under its key (registered in `registry/protocols.rs`).
macro_rules! flow_spec {
    ([$($older:ident($oty:ty, $okey:ident),)*] $($variant:ident($ty:ty, $key:ident),)*) => {
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
            /// 802.1p priority 0–7 of the flow's frames (the PFC class), default 0.
            #[serde(default)]
            pub priority: u8,
            /// Reaction point: "none" (default) or a protocol table.
            #[serde(default)]
            pub rp: RpSlot,
            #[serde(default)]
            pub limiter: LimiterSpec,
            /// The closed-loop transport of `bulk`, `transactions` and `transfer` traffic
            /// (`transport = { NAME = {…} }`, e.g. `{ tcp = {} }`); none: open-loop.
            pub transport: Option<TransportSlot>,
            $(
                /// A transport's table under its older key K, with the kinds `K-bulk`,
                /// `K-transactions` and `K-transfer` (defaults when absent): the older spelling of
                /// `transport = { K = … }` (`scenario/transport.rs`).
                pub $okey: Option<<$oty as FromSpec>::Spec>,
            )*
            $(
                /// A router-feedback protocol's table (e.g. `sirens`): its request in every data frame,
                /// and its table at every receiver.
                pub $key: Option<<$ty as FromSpec>::Spec>,
            )*
        }
    };
}
/// `flow_spec!` with the transports' older keys, then the router-feedback keys.
macro_rules! flow_spec_older {
    ($($older:ident($oty:ty, $okey:ident),)*) => {
        occupants!(RfSender => flow_spec [$($older($oty, $okey),)*]);
    };
}
occupants!(OlderTransport => flow_spec_older);
