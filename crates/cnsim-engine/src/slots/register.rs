//! What a protocol registers, once, in its own folder (its `PROTOCOL` constant): the tag-area
//! owners it writes frames under, its metric and summary declarations (a summary metric with its
//! formula), what of it ran it counts, the frame kinds a capture selects and
//! the bytes it writes for them, the kinds of trace rows it records with their fields, and the
//! fabric presets that put it on every queue and flow of a generated fabric (`Fabric`). The
//! registry collects every protocol's `PROTOCOL` from its one line per protocol
//! (`registry::protocols`), and the central lists — capture kind names and bits, the pcap
//! dispatch, trace kind names and fields, the metrics list — are built from them
//! (`tap::capture`, `tap::wire`, `tap::trace`, `registry::metrics`). Capture and trace are off the hot path: these are
//! tables of function pointers, read only while a tap is on.

use super::metrics::{Mechanism, Metric, Renamed, Summary, Tally};
use super::trace::{Field, Fields};
use super::wire::Ctx;
use crate::core::time::Time;
use crate::net::frame::{Frame, FrameKind, NodeId, Proto};

/// One protocol's registration.
#[derive(Clone, Copy, Debug)]
pub struct Protocol {
    /// The protocol's name, as its folder.
    pub name: &'static str,
    /// The tag-area owners it writes frames under (`Proto`'s constants, declared in its folder),
    /// each with a name; no two protocols share a value.
    pub owners: &'static [(&'static str, Proto)],
    pub metrics: &'static [Metric],
    /// Its summary metrics, each with its formula (`Summary::formula`).
    pub summaries: &'static [Summary],
    /// What of it ran, counted for the line that says so (`Tally`).
    pub tallies: &'static [Tally],
    /// The mechanisms of its own that its summary metrics need (`Summary::needs`).
    pub mechanisms: &'static [Mechanism],
    /// Outputs renamed since they were written in its words, which stored results still hold.
    pub renamed: &'static [Renamed],
    /// Its frames, as a capture selects them and writes them.
    pub frames: &'static [CaptureKind],
    /// The tags it writes into data frames' on-wire bytes, after the CN-TAG.
    pub data_tags: &'static [DataTag],
    /// The kinds of trace rows it records.
    pub events: &'static [TraceKind],
    /// Its frames' trace rows at their sender and their receiver.
    pub frame_events: &'static [FrameEvents],
    /// Its feedback frames, counted under its own name in the stats' `frames` and `window`.
    pub counted: &'static [Counted],
    /// Its path control frames' answers at their destination host.
    pub at_destination: &'static [AtDestination],
    /// The keys of scenario files older than its tables that its tables replaced, in the order
    /// they are looked for.
    pub old_keys: &'static [OldKey],
    /// Its data-frame tags that elect which congestion point answers the frame.
    pub elects: &'static [Elect],
    /// Whether the data frames of the flows it drives as their transport collect in-band
    /// telemetry at each forwarding port, echoed in their acknowledgements (`net::telemetry`; the
    /// transport reads it in `TransportMachine::on_telemetry`).
    pub telemetry: bool,
    /// The fabrics it runs on (`cnsim.generators.fat_tree(cc=NAME)`): the scenario keys that put it
    /// on every queue and every flow of a generated fabric, by name.
    pub fabrics: &'static [Fabric],
    /// Its part in the fixed benchmark (docs/performance.md, `bench.rs`), if any.
    pub bench: Option<Bench>,
}

impl Protocol {
    /// A protocol that registers nothing but its name (fill the rest with `..`).
    pub const fn named(name: &'static str) -> Self {
        Protocol { name, owners: &[], metrics: &[], summaries: &[], tallies: &[], mechanisms: &[], renamed: &[], frames: &[], data_tags: &[], events: &[], frame_events: &[], counted: &[], at_destination: &[], old_keys: &[], elects: &[], telemetry: false, bench: None, fabrics: &[] }
    }
}

/// A fabric preset: what a generated fabric (`cnsim.generators.fat_tree(cc=NAME)`) writes to run a
/// protocol on every switch queue and every flow, as TOML text with up to four tables, each
/// optional: `[queue]`, keys added to every queue (a discipline and its table); `[tables]`, tables
/// added at the scenario's top level (`cp`, `flow_control`); `[flow]`, keys of every long-lived
/// flow, over its default `traffic = { kind = "cbr", … }`; `[workload]`, keys of every workload
/// table, over its default `traffic = "transfer"`. A value that is the string `"{base_rtt}"` stands
/// for the fabric's base RTT (`Fabric::base_rtt`), which the generator computes and writes.
#[derive(Clone, Copy, Debug)]
pub struct Fabric {
    /// The name `cc = NAME` gives; unique across the registry.
    pub name: &'static str,
    /// One line for a listing: what the preset runs, with its source.
    pub doc: &'static str,
    pub toml: &'static str,
    /// The frames of `"{base_rtt}"`, in bytes before the link's wire overhead: a full data frame
    /// out, its acknowledgement back. None: the preset has no `"{base_rtt}"`.
    pub rtt_frames: Option<(u32, u32)>,
}

impl Fabric {
    /// The base RTT of a path of `hops` links of `rate` b/s, `delay` and `overhead` bytes per frame
    /// on the wire, with empty queues: at every hop a full data frame's wire time and propagation
    /// out, and an acknowledgement's back (store and forward), in picoseconds rounded up. None when
    /// the preset needs none; an error on a zero rate or an overflow.
    pub fn base_rtt(&self, rate: u64, delay: u64, overhead: u64, hops: u64) -> Option<Result<u64, String>> {
        let (data, ack) = self.rtt_frames?;
        let wire = |bytes: u32| -> Option<u64> {
            let bits = (bytes as u128 + overhead as u128).checked_mul(8)?;
            u64::try_from((bits * 1_000_000_000_000).div_ceil(rate as u128)).ok()
        };
        if rate == 0 {
            return Some(Err("the links' rate must be positive".into()));
        }
        let hop = || wire(data)?.checked_add(wire(ack)?)?.checked_add(delay.checked_mul(2)?);
        Some(hop().and_then(|h| h.checked_mul(hops)).ok_or_else(|| "the fabric's base RTT overflows".to_string()))
    }
}

/// Writes frame `f`'s bytes up to its payload into `b` (`cpid_of` maps the engine's CPID, a port
/// id, to the wire's 8-byte CPID); returns the frame's length on the wire (without FCS).
pub type Pcap = fn(f: &Frame, c: &Ctx, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> usize;

/// Writes data frame `f`'s protocol tag (when `f` carries one) followed by EtherType `next`; true
/// when it wrote one.
pub type TagWriter = fn(f: &Frame, next: u16, cpid_of: &dyn Fn(u32) -> u64, b: &mut Vec<u8>) -> bool;

/// A frame kind a capture selects (`kind=NAME`): the frames of `kind` whose tag-area owner is one
/// of `owners` (none listed: every frame of `kind` no other declaration claims).
#[derive(Clone, Copy, Debug)]
pub struct CaptureKind {
    /// Its name in the capture filter; several declarations may share one name and bit.
    pub name: &'static str,
    /// Its filter bit (1 << `bit`): fixed, since stored traces record it (a drop's frame kind).
    pub bit: u8,
    pub kind: FrameKind,
    pub owners: &'static [Proto],
    /// Its bytes; None: Ethernet and 802.1Q headers, zeros after them.
    pub pcap: Option<Pcap>,
}

/// A data frame tag written by its owner's writer.
#[derive(Clone, Copy, Debug)]
pub struct DataTag {
    pub owner: Proto,
    pub write: TagWriter,
}

/// A kind of trace row (`--trace NAME`) and the fields its rows fill.
#[derive(Clone, Copy, Debug)]
pub struct TraceKind {
    pub name: &'static str,
    /// Its filter bit (1 << `bit`): fixed, as stored traces are read by it.
    pub bit: u8,
    pub fields: &'static [Field],
}

/// The trace rows of a protocol's frames (of `kind`, owned by one of `owners`) when they are sent
/// and when they reach the entity they address.
#[derive(Clone, Copy, Debug)]
pub struct FrameEvents {
    pub kind: FrameKind,
    /// None listed: every frame of `kind` no other declaration claims.
    pub owners: &'static [Proto],
    /// The `TraceKind` bits of its rows at the sender and at the receiver.
    pub sent: Option<u8>,
    pub received: Option<u8>,
    /// The sender's row's fields, read from the frame: `cpid` is the wire CPID of the congestion
    /// point that sent it (0 elsewhere), `x` that CP's own reading of its feedback (NaN
    /// elsewhere). None: no field from the frame (flow control's slot gives its own: quanta and
    /// classes).
    pub sent_fields: Option<fn(f: &Frame, cpid: u64, x: f64) -> Fields>,
    /// The receiver's row's fields, and the engine's CPID (a port id, or `NONE`) whose wire CPID
    /// goes into the `cpid` field. None: as `sent_fields`.
    pub received_fields: Option<fn(f: &Frame) -> (Fields, u32)>,
}

/// Feedback frames a protocol counts under its own name: `NAME_sent` (by its congestion or
/// notification points) and `NAME_received` (at the flows' sources), the frames whose tag-area
/// owner is one of `owners`. Its metrics declare both (`frames` scope), and the stats show them in
/// runs where one of its slots is filled.
#[derive(Clone, Copy, Debug)]
pub struct Counted {
    pub name: &'static str,
    pub owners: &'static [Proto],
}

/// What a path control frame (`FrameKind::PathControl`) whose tag-area owner is `owner` gets at its
/// destination host `node`: the answer to send back to its source, if any (QCN's path probes,
/// Roeck 2007).
#[derive(Clone, Copy, Debug)]
pub struct AtDestination {
    pub owner: Proto,
    pub answer: fn(f: &Frame, node: NodeId, now: Time) -> Option<Frame>,
}

/// A key of a scenario written before the protocols had their own tables (cnsim 0.1), which this
/// protocol's table replaced: where it stood (`table`: `"cp"`, a `[[port]]`'s `"port.cp"` or a
/// `[[flow]]`'s `"flow.rp"`) and what to write instead (`hint`, where `{key}` stands for the key).
/// A file holding it is refused with the hint rather than with "unknown variant".
#[derive(Clone, Copy, Debug)]
pub struct OldKey {
    pub table: &'static str,
    pub key: &'static str,
    pub hint: &'static str,
}

/// A data-frame tag that elects which congestion point answers the frame (E-QCN's F̂b and CPID,
/// Mliki et al. 2016b Algorithm 2): for the frames whose tag-area owner is `owner`, whether the CP
/// `cpid`, whose sample of the frame gave the quantized feedback `qntz_fb`, answers it;
/// `tie_break` is the CP's own setting for equal feedback. A CP that reads such tags is given the
/// registrations (`slots::spec::PortCx::protocols`).
#[derive(Clone, Copy, Debug)]
pub struct Elect {
    pub owner: Proto,
    pub answers: fn(f: &Frame, qntz_fb: u8, cpid: u32, tie_break: bool) -> bool,
}

/// A protocol's part in the fixed benchmark (docs/performance.md): the benchmark names no
/// protocol, it asks the registrations.
#[derive(Clone, Copy, Debug)]
pub enum Bench {
    /// The benchmark's congestion control, run with or without it (`cnsim bench --NAME/--no-NAME`):
    /// its table at the bottleneck's congestion point (`cp = { NAME = cp }`) and at every source's
    /// reaction point (`rp = { NAME = rp }`), as TOML inline tables. One protocol registers it.
    Control { cp: &'static str, rp: &'static str },
    /// A case of its own (`cnsim bench --case NAME`): one bulk connection per source over this
    /// transport, with its table (`transport = { NAME = table }`, a TOML inline table).
    Transport { table: &'static str },
}
