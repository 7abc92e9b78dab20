//! The whole scenario's memory, estimated from its tables before anything is built: nodes, links
//! with their queues, groups, flows (a flow per source, and per member in multiple-unicast),
//! workloads at their `max_flows` with their CDF, the routing table, the recorded series, and the
//! parsed scenario itself. Over the memory budget,
//! the build is refused at once with the table that takes the most, instead of failing (or
//! exhausting the machine) part-way. The build then charges what it actually makes (`budget.rs`).

use super::budget::Budget;
use super::R;
use crate::net::node::Node;
use crate::net::qdisc::Qdisc;
use crate::registry::flow_control::FcGen;
use super::flow_bytes::{self, chunk, Shape};
use super::protocols;
use crate::core::ring::Ring;
use crate::core::time::Time;
use crate::registry::Port;
use crate::scenario::count;
use crate::scenario::*;
use crate::sim::Probe;
use std::ops::Range;

/// A table's share of the estimate: its kind (`[[flow]]`, "the routing table", …), what it holds,
/// where it is, and its bytes.
struct Part {
    kind: String,
    holds: String,
    at: Option<Range<usize>>,
    bytes: u64,
}

impl Part {
    fn new(kind: impl Into<String>, holds: String, at: Option<Range<usize>>, bytes: u64) -> Self {
        Part { kind: kind.into(), holds, at, bytes }
    }
    /// `[[flow]] (3 flows)`.
    fn what(&self) -> String {
        format!("{} ({})", self.kind, self.holds)
    }
}

fn names(n: &Names) -> u64 {
    n.0.iter().map(|s| count(s)).fold(0, u64::saturating_add)
}

/// Bytes of a standard hash table made for `n` entries of `entry` bytes (hashbrown): a bucket per
/// entry at most 7/8 full, rounded up to a power of two, each with a control byte, and a group of
/// control bytes more (16).
pub(super) fn table_bytes(n: u64, entry: usize) -> u64 {
    let buckets = match n {
        0..4 => 4,
        4..8 => 8,
        _ => (n.saturating_mul(8) / 7).checked_next_power_of_two().unwrap_or(u64::MAX),
    };
    buckets.saturating_mul(entry as u64 + 1).saturating_add(16)
}

/// `whole`'s share of `part` out of `of` (a table's share of a structure all tables fill).
fn share(whole: u64, part: u64, of: u64) -> u64 {
    if of == 0 { 0 } else { (whole as u128 * part as u128 / of as u128) as u64 }
}

/// Bytes of one node named with at most `name` bytes: the node, its name (made by `format!`, which
/// may reserve up to twice the bytes written, at least 8) and the name's copy in the index by name.
/// (The index's table is counted apart, `table_bytes`.)
fn node_bytes(name: usize) -> u64 {
    (std::mem::size_of::<Node>() + chunk(name.saturating_mul(2).max(8)) + chunk(name)) as u64
}

/// Refuse a scenario whose estimate exceeds the budget (the smaller of `simulation.max_memory` and
/// the process's), naming what takes the most: of the kind of table that takes the most together
/// (`[[flow]]`, `[[link]]`, …), its largest table, or, when that table takes less than half of its
/// kind (two thousand `[[flow]]` tables of a few MB each), the kind, at its largest table.
pub fn check(loaded: &Loaded, fc: Option<&FcGen>) -> R<()> {
    let sc = &loaded.scenario;
    let limit = Budget::new(sc.simulation.max_memory.0).limit();
    if limit == 0 {
        return Ok(());
    }
    let parts = parts(loaded, fc);
    let total = parts.iter().fold(0u64, |t, p| t.saturating_add(p.bytes));
    if total <= limit {
        return Ok(());
    }
    let kind = largest_kind(&parts).expect("a total above the limit has parts");
    let top = &parts[kind.largest];
    // A table that takes half of its kind or more is named alone.
    let what = if top.bytes >= kind.bytes / 2 {
        format!("{} takes about {}", top.what(), mb(top.bytes))
    } else {
        format!("the {} {} tables take about {} (the largest, here: {}, {})", kind.tables, kind.name, mb(kind.bytes), top.what(), mb(top.bytes))
    };
    let msg = format!(
        "{what} of the scenario's estimated {}, more than the memory budget of {}: make the scenario smaller, or raise the budget (cnsim --max-memory, simulation.max_memory)",
        mb(total),
        mb(limit)
    );
    let src = loaded.source();
    Err(match &top.at {
        Some(at) => src.err(Some(at.clone()), msg),
        None => src.key_err("simulation", "record_interval", msg),
    })
}

/// The parts of one kind (`[[flow]]`, `[[link]]`, …).
struct Kind<'a> {
    name: &'a str,
    tables: usize,
    bytes: u64,
    /// The index of its largest part.
    largest: usize,
}

/// The kind whose parts take the most together.
fn largest_kind(parts: &[Part]) -> Option<Kind<'_>> {
    let mut kinds: Vec<Kind> = vec![];
    for (i, p) in parts.iter().enumerate() {
        let name = p.kind.as_str();
        match kinds.iter_mut().find(|k| k.name == name) {
            Some(k) => {
                k.tables += 1;
                k.bytes = k.bytes.saturating_add(p.bytes);
                if p.bytes > parts[k.largest].bytes {
                    k.largest = i;
                }
            }
            None => kinds.push(Kind { name, tables: 1, bytes: p.bytes, largest: i }),
        }
    }
    kinds.into_iter().max_by_key(|k| k.bytes)
}

/// Memory the parsed scenario holds per byte of its text (the TOML document, the tables with their
/// spans, the resolved copy kept for the outputs): 85–91 B measured on generated fat trees
/// (tests/test_memory_estimate.py), rounded up.
pub const PARSED_PER_BYTE: u64 = 100;

/// Memory of one membership request (a member named in a `[[group.change]]`'s `join` or `leave`):
/// the scheduled request and its event in the queue, about 50 B measured (twenty million requests
/// took 1 GB), rounded up.
pub const MEMBERSHIP_REQUEST_BYTES: u64 = 64;

fn parts(loaded: &Loaded, fc: Option<&FcGen>) -> Vec<Part> {
    let sc = &loaded.scenario;
    let frame = sc.simulation.frame_size.0;
    // Already taken when the estimate is made, but part of the run's memory all the same.
    let text = loaded.text.len() as u64;
    let mut out = vec![Part::new("the scenario as parsed", format!("{text} B of text"), Some(0..0), text.saturating_mul(PARSED_PER_BYTE))];
    // The longest name a list of names (ranges included) expands to: at most its longest pattern.
    let longest = |n: &Names| n.0.iter().map(|s| s.len()).max().unwrap_or(0);
    // The index of nodes by name, made for all of them (`topology::nodes`): each table its share.
    let all_nodes = super::topology::node_count(sc);
    let index = table_bytes(all_nodes, std::mem::size_of::<(String, usize)>());
    for (specs, table) in [(&sc.switches, "switch"), (&sc.routers, "router"), (&sc.hosts, "host")] {
        for spec in specs {
            let n = names(spec.names.get_ref());
            let bytes = n.saturating_mul(node_bytes(longest(spec.names.get_ref()))).saturating_add(share(index, n, all_nodes));
            out.push(Part::new(format!("[[{table}]]"), format!("{n} nodes"), Some(spec.names.span()), bytes));
        }
    }
    let mut ports = 0u64;
    // The set of linked pairs, made for all links (`topology::links`): each table its share.
    let all_links = super::topology::link_count(sc);
    let linked = table_bytes(all_links, std::mem::size_of::<u64>());
    for l in &sc.links {
        let [a, b] = &l.between.get_ref().0;
        let n = names(a).saturating_mul(names(b));
        ports = ports.saturating_add(2 * n);
        let queue = l.queue.as_ref().unwrap_or(&sc.defaults.queue);
        let ring = chunk(Qdisc::heap_bytes(super::topology::discipline(queue, fc), queue.capacity, frame)) as u64;
        // Per port: the port, its queue's ring, its entry in its node's list of ports (a vector of
        // at least 4 entries that doubles when full: at most a 32 B block per entry).
        let mut each = 2 * (std::mem::size_of::<Port>() as u64 + ring + chunk(4 * std::mem::size_of::<u32>()) as u64);
        // A forwarding end's queue series (`series.rs`): its name (`q_frames.NODE>PEER`, made by
        // `format!`: at most twice its bytes) and probe, in vectors filled by pushing (at most
        // twice their entries); counted at both ends, which may both forward.
        if sc.simulation.record_interval.0 > 0 {
            let name = "q_frames.".len() + longest(a) + 1 + longest(b);
            each += 2 * (2 * (std::mem::size_of::<String>() + std::mem::size_of::<Probe>()) + chunk(2 * name)) as u64;
        }
        // And both ends' node ids while the table's links are made.
        let ends = (names(a).saturating_add(names(b))).saturating_mul(std::mem::size_of::<usize>() as u64);
        let bytes = n.saturating_mul(each).saturating_add(ends).saturating_add(share(linked, n, all_links));
        out.push(Part::new("[[link]]", format!("{n} links"), Some(l.between.span()), bytes));
    }
    for g in &sc.groups {
        let n = names(g.members.get_ref());
        out.push(Part::new("[[group]]", format!("{n} members"), Some(g.members.span()), n.saturating_mul(48)));
        // Each member named in a `join` or `leave` is a request, scheduled at build time.
        let lists = g.change.iter().flat_map(|c| [&c.join, &c.leave]).flatten();
        let requests = lists.clone().map(|l| names(l.get_ref())).fold(0, u64::saturating_add);
        if requests > 0 {
            let at = lists.min_by_key(|l| std::cmp::Reverse(names(l.get_ref()))).map_or(g.name.span(), |l| l.span());
            out.push(Part::new("[[group.change]]", format!("{requests} membership requests"), Some(at), requests.saturating_mul(MEMBERSHIP_REQUEST_BYTES)));
        }
    }
    let members = |to: &str| sc.groups.iter().find(|g| g.name.get_ref() == to).map_or(1, |g| names(g.members.get_ref()));
    // Series recorded per flow: a reaction point's two rates, a transport connection's own.
    let per_flow_series = |rp: &RpSlot, transport: Result<Option<TransportSlot>, String>| -> u64 {
        let transport = transport.ok().flatten().map_or(0, |t| super::protocols::transport_series(&t));
        2 * u64::from(!matches!(rp, RpSlot::None)) + transport as u64
    };
    let mut flow_series = 0u64;
    let series = sc.simulation.record_interval.0 > 0;
    for f in &sc.flows {
        let to = f.to.get_ref();
        let group = sc.groups.iter().find(|g| g.name.get_ref() == to);
        let (sources, receivers) = (names(f.from.get_ref()), members(to));
        let (n, per_flow) = match f.mode {
            Some(Mode::MultipleUnicast) => (sources.saturating_mul(receivers), 1),
            _ if group.is_some() => (sources, receivers),
            // Unicast: one flow per connection.
            _ => (sources.saturating_mul(u64::from(f.traffic.connections.unwrap_or(1))), 1),
        };
        let transport = f.transport_slot().ok().flatten();
        flow_series = flow_series.saturating_add(n.saturating_mul(per_flow_series(&f.rp, Ok(transport.clone()))));
        let host_name = group.map_or(to.len(), |g| longest(g.members.get_ref()));
        let shape = Shape {
            receivers: usize::try_from(per_flow).unwrap_or(usize::MAX),
            // Its name, the source's, with "/k" or ":member".
            name: f.name.as_ref().map_or(longest(f.from.get_ref()), |s| s.len()) + 1 + host_name.max(5),
            host_name,
            ring: Ring::<Time>::capacity_for(if f.traffic.kind.is_transfer() { 0 } else { f.limiter.buffer.min(1024) as usize }),
            transport: transport.as_ref(),
            rp: &f.rp,
            np: protocols::np(&f.rp).ok().flatten().is_some(),
            rf: protocols::rf_sender(f).ok().flatten().is_some() || protocols::rf_table(f).ok().flatten().is_some(),
            group: group.map_or(0, |_| to.len()),
            name_set: true,
            series,
        };
        let each = flow_bytes::bytes(&shape) as u64;
        let holds = if per_flow > 1 { format!("{n} flows of {per_flow} receivers") } else { format!("{n} flows") };
        out.push(Part::new("[[flow]]", holds, Some(f.from.span()), n.saturating_mul(each)));
    }
    for (i, w) in sc.workloads.iter().enumerate() {
        let n = *w.max_flows.get_ref();
        let transport = w.transport_slot().ok().flatten();
        flow_series = flow_series.saturating_add(n.saturating_mul(per_flow_series(&w.rp, Ok(transport.clone()))));
        let prefix = w.name.as_ref().map_or(format!("workload{}", i + 1).len(), |s| s.len());
        let shape = Shape {
            receivers: 1,
            name: prefix + 1 + n.to_string().len(),
            host_name: longest(w.hosts.get_ref()),
            ring: Ring::<Time>::capacity_for(0),
            transport: transport.as_ref(),
            rp: &w.rp,
            np: protocols::np(&w.rp).ok().flatten().is_some(),
            rf: false,
            group: 0,
            name_set: false,
            series,
        };
        // The flow as built, and its draw (held until its table's flows are made).
        let each = (flow_bytes::bytes(&shape) + flow_bytes::DRAW_BYTES) as u64;
        let cdf = if w.sizes.is_some() { super::cdf::MAX_POINTS as u64 * 16 } else { 0 };
        let at = if w.max_flows.span().is_empty() { w.hosts.span() } else { w.max_flows.span() };
        out.push(Part::new("[[workload]]", format!("up to max_flows = {n} flows"), Some(at), n.saturating_mul(each).saturating_add(cdf)));
    }
    out.push(routes(sc));
    let simc = &sc.simulation;
    if simc.record_interval.0 > 0 {
        // A sample per interval of every queue (at most every port) and of each flow's series.
        let samples = simc.duration.0 / simc.record_interval.0 + 1;
        let series = ports.saturating_add(flow_series);
        let mut bytes = samples.saturating_mul(series).saturating_mul(8);
        if simc.max_series_memory.0 > 0 {
            bytes = bytes.min(simc.max_series_memory.0);
        }
        out.push(Part::new("the recorded series", format!("{series} series of {samples} samples, simulation.record_interval"), None, bytes));
    }
    out
}

/// The unicast routing table (`net/routing.rs`): a row per node that is not a host with one link
/// (switches and routers: a host with one link hangs off its switch's row), a column per
/// destination's attachment (at most one per row, at most one per flow end point), 4 B an entry,
/// and the per-node indexes. Hosts with two links or more would add rows: not counted (the build
/// charges the table it makes before making it, `build/mod.rs`).
fn routes(sc: &Scenario) -> Part {
    let count = |specs: &[NodeSpec]| specs.iter().map(|s| names(s.names.get_ref())).fold(0, u64::saturating_add);
    let (inner, hosts) = (count(&sc.switches).saturating_add(count(&sc.routers)), count(&sc.hosts));
    let rows = if inner > 0 { inner } else { hosts };
    let members = |to: &str| sc.groups.iter().find(|g| g.name.get_ref() == to).map_or(1, |g| names(g.members.get_ref()));
    let flow_ends = sc.flows.iter().map(|f| names(f.from.get_ref()).saturating_add(members(f.to.get_ref())));
    let ends = flow_ends.chain(sc.workloads.iter().map(|w| names(w.hosts.get_ref()))).fold(0, u64::saturating_add);
    let cols = rows.min(ends);
    let at = sc.switches.first().or(sc.routers.first()).or(sc.hosts.first()).map(|s| s.names.span());
    let bytes = rows.saturating_mul(cols).saturating_mul(4).saturating_add(inner.saturating_add(hosts).saturating_mul(32));
    Part::new("the routing table", format!("{rows} × {cols} entries"), at, bytes)
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::routing_tests::fat_tree_k_text;
    use crate::sim::Sim;

    #[test]
    fn a_fat_tree_s_routing_table_is_estimated_above_the_build_s() {
        // Rows and columns: every switch (5k²/4), a bound on the build's table (a class column per
        // pod and a few exceptions per edge switch: 7k³/4 entries).
        for k in [8, 16] {
            let text = fat_tree_k_text(k, "");
            let loaded = crate::scenario::load(&text, "f.toml", &[], None).unwrap();
            let est = routes(&loaded.scenario);
            let switches = 5 * k * k / 4;
            assert_eq!(est.what(), format!("the routing table ({switches} × {switches} entries)"));
            let built = Sim::build(&loaded).unwrap().routes.entries();
            assert_eq!(built, 7 * k * k * k / 4, "k = {k}");
            assert!(est.bytes >= 4 * built as u64);
        }
    }

    #[test]
    fn many_tables_of_one_kind_are_named_together_at_their_largest() {
        let part = |what: &str, bytes| {
            let (kind, holds) = what.split_once(" (").unwrap();
            Part::new(kind, holds.trim_end_matches(')').to_string(), None, bytes)
        };
        // A link table that is the largest single table, and three flow tables that take more together.
        let parts = [part("[[link]] (9 links)", 50), part("[[flow]] (1 flows)", 20), part("[[flow]] (3 flows)", 30), part("[[flow]] (2 flows)", 25)];
        let k = largest_kind(&parts).unwrap();
        assert_eq!((k.name, k.tables, k.bytes, k.largest), ("[[flow]]", 3, 75, 2));
        // One table of a kind that takes the most is named alone.
        let parts = [part("[[link]] (9 links)", 80), part("[[flow]] (1 flows)", 20), part("[[flow]] (3 flows)", 30)];
        let k = largest_kind(&parts).unwrap();
        assert_eq!((k.name, k.tables, k.bytes, k.largest), ("[[link]]", 1, 80, 0));
        assert!(largest_kind(&[]).is_none());
    }
}
