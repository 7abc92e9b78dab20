//! Nodes, links and ports from the scenario, with the `[[port]]` overrides (queue, CP).

use super::budget::Part;
use super::{protocols, Ctx, R};
use crate::core::stats::TimeAvg;
use crate::core::time::{Time, PS_PER_S};
use crate::net::node::{Node, NodeKind};
use crate::traffic::oscillation::Oscillation;
use crate::net::port::{PortCounters, TxHold};
use crate::registry::{FlowControl, Port};
use crate::net::qdisc::{Discipline, Qdisc};
use crate::registry::flow_control::FcGen;
use crate::scenario::*;
use crate::units::Amount;
use std::collections::{HashMap, VecDeque};

/// Nodes and links a scenario may define (ranges make billions easy to write by mistake).
pub const MAX_NODES: usize = 2_000_000;
pub const MAX_LINKS: usize = 8_000_000;

/// The nodes the scenario names (a bad name range counts as one: expanding it reports the error).
pub fn node_count(sc: &Scenario) -> u64 {
    let specs = sc.switches.iter().chain(&sc.routers).chain(&sc.hosts);
    specs.flat_map(|s| &s.names.get_ref().0).map(|n| count(n)).fold(0, u64::saturating_add)
}

/// The links the scenario names, as `node_count` counts.
pub fn link_count(sc: &Scenario) -> u64 {
    let ends = |n: &Names| n.0.iter().map(|s| count(s)).fold(0, u64::saturating_add);
    sc.links.iter().map(|l| ends(&l.between.get_ref().0[0]).saturating_mul(ends(&l.between.get_ref().0[1]))).fold(0, u64::saturating_add)
}

/// Switches first, then routers, then hosts, in file order.
pub fn nodes(ctx: &mut Ctx) -> R<Vec<Node>> {
    let sc = &ctx.loaded.scenario;
    // Made at their size, not doubled as they fill (the estimate counts them so, `estimate.rs`);
    // where that much cannot be had at once, they grow as they fill (the budget's charges stop them).
    let n = node_count(sc).min(MAX_NODES as u64) as usize;
    let mut nodes: Vec<Node> = vec![];
    let _ = (nodes.try_reserve_exact(n), ctx.ids.try_reserve(n));
    for (specs, kind) in [(&sc.switches, NodeKind::Switch), (&sc.routers, NodeKind::Router), (&sc.hosts, NodeKind::Host)] {
        for spec in specs {
            for pattern in &spec.names.get_ref().0 {
                let first = nodes.len();
                for name in expand(pattern).map_err(|m| ctx.err(spec.names.span(), m))? {
                    if name.is_empty() || name.contains(['>', ':', ' ']) {
                        return Err(ctx.err(spec.names.span(), format!("bad node name {name:?} (no spaces, '>' or ':')")));
                    }
                    if ctx.ids.insert(name.clone(), nodes.len()).is_some() {
                        return Err(ctx.err(spec.names.span(), format!("duplicate node name {name:?}")));
                    }
                    if nodes.len() >= MAX_NODES {
                        return Err(ctx.err(spec.names.span(), format!("more than {MAX_NODES} nodes")));
                    }
                    let latency = spec.latency.map_or(0, |d| d.0);
                    if kind == NodeKind::Host && latency > 0 {
                        return Err(ctx.err(spec.names.span(), "latency is a switch's processing time: hosts have none"));
                    }
                    if latency > PS_PER_S {
                        return Err(ctx.err(spec.names.span(), "switch latency must be at most 1 s"));
                    }
                    // The node, its name, and its entry in the name index.
                    let bytes = std::mem::size_of::<Node>() + 2 * name.len() + 48;
                    ctx.budget.charge(Part::Nodes, bytes).map_err(|m| ctx.err(spec.names.span(), m))?;
                    nodes.push(Node { name, kind, ports: vec![], latency });
                }
                if pattern.contains("..") {
                    ctx.ranges.insert(pattern.clone(), (first, nodes.len() - first));
                }
            }
        }
    }
    if nodes.is_empty() {
        return Err(ctx.loaded.source().err(None, "the scenario defines no nodes ([[switch]], [[host]])"));
    }
    Ok(nodes)
}

/// The discipline of a port: as given, else strict priority under PFC (switches and hosts'
/// NICs alike keep one queue per class, or a paused class would block the others).
pub(super) fn discipline(q: &QueueParams, fc: Option<&FcGen>) -> Discipline {
    match q.discipline {
        Some(DisciplineSpec::Fifo) => Discipline::Fifo,
        Some(DisciplineSpec::Prio) => Discipline::Prio,
        Some(_) => Discipline::Fifo, // a queue management sits in front of a drop-tail FIFO
        None if fc.is_some_and(|c| c.per_class()) => Discipline::Prio,
        None => Discipline::Fifo,
    }
}

/// One full-duplex link per pair of ends; a port per direction.
pub fn links(ctx: &Ctx, nodes: &mut [Node], fc: Option<&FcGen>) -> R<Vec<Port>> {
    let sc = &ctx.loaded.scenario;
    let d = &sc.defaults;
    let frame = sc.simulation.frame_size.0;
    // Made at their size, as the nodes are (`nodes`).
    let n = link_count(sc).min(MAX_LINKS as u64) as usize;
    // Linked pairs of node ids (below `MAX_NODES`), the smaller in the high half.
    let (mut ports, mut linked): (Vec<Port>, std::collections::HashSet<u64>) = Default::default();
    let _ = (ports.try_reserve_exact(2 * n), linked.try_reserve(n));
    for l in &sc.links {
        let [a, b] = &l.between.get_ref().0;
        let (aa, bb) = (ctx.nodes_of(a, l.between.span())?, ctx.nodes_of(b, l.between.span())?);
        let rate = l.rate.unwrap_or(d.link.rate).0;
        if rate == 0 {
            return Err(ctx.err(l.between.span(), "link rate must be positive"));
        }
        let delay = l.delay.unwrap_or(d.link.delay).0;
        let reverse = l.reverse_delay.map_or(delay, |r| r.0);
        let overhead = l.overhead.unwrap_or(d.link.overhead).0;
        if overhead > protocols::MAX_FRAME {
            return Err(ctx.err(l.between.span(), format!("link overhead must be at most {} B", protocols::MAX_FRAME)));
        }
        let queue = l.queue.as_ref().unwrap_or(&d.queue);
        let loss = l.loss.unwrap_or(0.0);
        if !(0.0..1.0).contains(&loss) {
            return Err(ctx.err(l.between.span(), format!("link loss must be in [0, 1), got {loss}")));
        }
        check_capacity(queue.capacity).map_err(|m| ctx.err(l.between.span(), m))?;
        // Without a queue management every port of the table has none: asked once, not with each
        // port's name (two million names for a million hosts).
        let per_port = !matches!(protocols::aqm(queue, rate, frame, sc.simulation.seed, "", &mut vec![]), Ok(None));
        if aa.len().saturating_mul(bb.len()) > MAX_LINKS - ports.len() / 2 {
            return Err(ctx.err(l.between.span(), format!("more than {MAX_LINKS} links")));
        }
        for &x in &aa {
            for &y in &bb {
                if x == y {
                    return Err(ctx.err(l.between.span(), format!("link from {} to itself", nodes[x].name)));
                }
                if !linked.insert((x.min(y) as u64) << 32 | x.max(y) as u64) {
                    return Err(ctx.err(l.between.span(), format!("a second link between {} and {} (parallel links are not supported)", nodes[x].name, nodes[y].name)));
                }
                // Two ports with their queues, the nodes' port lists and the pair's entry in `linked`.
                let queue_bytes = Qdisc::heap_bytes(discipline(queue, fc), queue.capacity, frame);
                let bytes = 2 * (std::mem::size_of::<Port>() + queue_bytes + 8) + 32;
                ctx.budget.charge(Part::Ports, bytes).map_err(|m| ctx.err(l.between.span(), m))?;
                let (px, py) = (ports.len() as u32, ports.len() as u32 + 1);
                for (u, v, peer, delay) in [(x, y, py, delay), (y, x, px, reverse)] {
                    nodes[u].ports.push(ports.len() as u32);
                    let qdisc = Qdisc::new(discipline(queue, fc), queue.capacity, frame);
                    let mut port = new_port(u, v, nodes[v].kind, peer, rate, delay + nodes[v].latency, overhead as u32, qdisc);
                    if per_port {
                        let pname = format!("{}>{}", nodes[u].name, nodes[v].name);
                        let mut warn = vec![];
                        port.aqm = protocols::aqm(queue, rate, frame, sc.simulation.seed, &pname, &mut warn).map_err(|m| ctx.err(ctx.at_key_or_defaults(l.between.span(), &m), m))?;
                        warn.into_iter().for_each(|w| ctx.warn(Some(ctx.at_key_or_defaults(l.between.span(), &w)), w));
                    }
                    if loss > 0.0 {
                        let name = format!("{}>{}", nodes[u].name, nodes[v].name);
                        port.loss = Some((loss, crate::core::rng::Rng::stream(sc.simulation.seed, "loss", &name)));
                    }
                    ports.push(port);
                }
            }
        }
    }
    Ok(ports)
}

/// `[cp]` on every switch port, `[[port]]` overrides, and flow control on every switch port.
pub fn port_settings(ctx: &Ctx, nodes: &[Node], ports: &mut [Port], fc: Option<&FcGen>) -> R<()> {
    let sc = &ctx.loaded.scenario;
    let src = ctx.loaded.source();
    let meter = protocols::meter(sc).map_err(|(table, m)| src.table_err(table, m))?;
    let frame = sc.simulation.frame_size.0;
    let seed = sc.simulation.seed;
    let mut warn = vec![];
    protocols::cp(&sc.cp, frame, seed, "", None, &mut warn).map_err(|m| src.path_err(key_of(&m), format!("[cp]: {m}")))?;
    // Each switch port's CP table, with the span of the `[[port]]` that gives it (None: `[cp]`).
    let mut port_cp: Vec<Option<(&CpSlot, Option<std::ops::Range<usize>>)>> =
        ports.iter().map(|p| (nodes[p.node as usize].kind == NodeKind::Switch).then_some((&sc.cp, None))).collect();
    port_namings(ctx, ports.len())?;
    // (node, peer) → port, so that a `[[port]]` naming every port of a switch with thousands of
    // links costs a look-up per port, not a scan of the switch's ports per port.
    let port_of: HashMap<(u32, u32), u32> = if sc.ports.is_empty() {
        HashMap::new()
    } else {
        ports.iter().enumerate().map(|(i, p)| ((p.node, p.peer_node), i as u32)).collect()
    };
    for ps in &sc.ports {
        for at in &ps.at.get_ref().0 {
            let (u, v) = at.split_once('>').ok_or_else(|| ctx.err(ps.at.span(), format!("port {at:?}: expected \"NODE>PEER\"")))?;
            for (us, vs) in cross(u, v).map_err(|m| ctx.err(ps.at.span(), m))? {
                let (ui, vi) = match (ctx.ids.get(&us), ctx.ids.get(&vs)) {
                    (Some(&a), Some(&b)) => (a, b),
                    _ => return Err(ctx.err(ps.at.span(), format!("unknown node in port {us}>{vs}"))),
                };
                let Some(&p) = port_of.get(&(ui as u32, vi as u32)) else {
                    return Err(ctx.err(ps.at.span(), format!("no link {us}>{vs}")));
                };
                if let Some(q) = &ps.queue {
                    check_capacity(q.capacity).map_err(|m| ctx.err(ctx.at_key(ps.at.span(), &m), m))?;
                    ports[p as usize].qdisc = Qdisc::new(discipline(q, fc), q.capacity, frame);
                    let pname = format!("{us}>{vs}");
                    let mut warn = vec![];
                    ports[p as usize].aqm = protocols::aqm(q, ports[p as usize].rate_bps, frame, seed, &pname, &mut warn).map_err(|m| ctx.err(ctx.at_key(ps.at.span(), &m), m))?;
                    warn.into_iter().for_each(|w| ctx.warn(Some(ctx.at_key(ps.at.span(), &w)), w));
                }
                if let Some(o) = &ps.oscillate {
                    let port = &mut ports[p as usize];
                    port.osc = Some(oscillation(o, port.rate_bps).map_err(|m| ctx.err(ctx.at_key(ps.at.span(), &m), format!("port {us}>{vs}: {m}")))?);
                    // Legal, but surely not meant: "slower" above the link's rate, or after the run.
                    if o.rate.0 > port.rate_bps {
                        ctx.warn(Some(ps.at.span()), format!("oscillate.rate = {} b/s is above the link's rate ({} b/s): the port serves faster while \"on\"", o.rate.0, port.rate_bps));
                    }
                    if o.from.0 >= sc.simulation.duration.0 {
                        ctx.warn(Some(ps.at.span()), format!("oscillate.from = {} is not before the end of the run (simulation.duration = {}): the port never oscillates", o.from, sc.simulation.duration));
                    }
                }
                if let Some(cp) = &ps.cp {
                    if nodes[ui].kind != NodeKind::Switch && !matches!(cp, CpSlot::None) {
                        return Err(ctx.err(ps.at.span(), format!("{us} is a host: congestion points sit on switch ports")));
                    }
                    port_cp[p as usize] = Some((cp, Some(ps.at.span())));
                }
            }
        }
    }
    // The flow-control table against each switch port's queue capacity (once per capacity).
    let mut checked: std::collections::HashSet<Amount> = std::collections::HashSet::new();
    for p in (0..ports.len()).filter(|&p| fc.is_some() && nodes[ports[p].node as usize].kind == NodeKind::Switch) {
        let cap = ports[p].qdisc.capacity;
        if checked.insert(cap) {
            let mut warn = vec![];
            protocols::flow_control(&sc.flow_control, frame, Some(cap), &mut warn).map_err(|m| ctx.loaded.source().err(super::fc_span(ctx.loaded, &m), format!("port {}: {m}", port_name(nodes, ports, p))))?;
            warn.into_iter().for_each(|w| ctx.warn(super::fc_span(ctx.loaded, &w), format!("port {}: {w}", port_name(nodes, ports, p))));
        }
    }
    for p in 0..ports.len() {
        // (`cp = "none"`, the default, makes no CP: nothing to name.)
        if let Some((slot, span)) = port_cp[p].clone().filter(|(slot, _)| !matches!(slot, CpSlot::None)) {
            let name = port_name(nodes, ports, p);
            // At the `[[port]]` that gives the table, else at the key of `[cp]`.
            let at = |m: &str| span.clone().map(|s| ctx.at_key(s, m)).or_else(|| src.path_span(key_of(m)));
            let capacity = Some(ports[p].qdisc.capacity);
            let mut warn = vec![];
            ports[p].cp = protocols::cp(slot, frame, seed, &name, capacity, &mut warn).map_err(|m| src.err(at(&m), format!("[[port]] {name}: {m}")))?;
            warn.into_iter().for_each(|w| ctx.warn(at(&w), w));
        }
        if let Some(gen) = fc.filter(|_| nodes[ports[p].node as usize].kind == NodeKind::Switch) {
            ports[p].fc = Some(FlowControl { gen: gen.clone(), refresh_timer: 0 });
        }
        if nodes[ports[p].node as usize].kind == NodeKind::Router {
            ports[p].meter.clone_from(&meter);
        }
    }
    Ok(())
}

/// The dotted key a protocol's message starts with (`cp.qcn.qeq must …` → `cp.qcn.qeq`).
pub(super) fn key_of(m: &str) -> &str {
    m.split(|c: char| c.is_whitespace() || c == ':' || c == ',').next().unwrap_or("")
}

pub fn port_name(nodes: &[Node], ports: &[Port], p: usize) -> String {
    format!("{}>{}", nodes[ports[p].node as usize].name, nodes[ports[p].peer_node as usize].name)
}

fn new_port(u: usize, v: usize, v_kind: NodeKind, peer: u32, rate: u64, delay: Time, overhead: u32, qdisc: Qdisc) -> Port {
    Port {
        node: u as u32,
        peer_node: v as u32,
        peer_kind: v_kind,
        peer_port: peer,
        rate_bps: rate,
        ps_per_byte: if (8 * PS_PER_S).is_multiple_of(rate) { 8 * PS_PER_S / rate } else { 0 },
        delay,
        overhead,
        loss: None,
        qdisc,
        ctrl: VecDeque::new(),
        busy_until: 0,
        txdone_pending: false,
        lazy_rx: false,
        deliveries: Default::default(),
        hold: TxHold::default(),
        hold_timer: 0,
        blocked: vec![],
        cp: None,
        fc: None,
        aqm: None,
        meter: None,
        c: PortCounters::default(),
        c_w0: PortCounters::default(),
        q: TimeAvg::new(0.0),
        busy_window: 0,
        peak_frames: 0,
        peak_bytes: 0,
        osc: None,
        osc_timer: 0,
    }
}

/// `oscillate = { rate, on, off, from, until }` on a port whose link runs at `high` bit/s.
fn oscillation(o: &OscillateSpec, high: u64) -> Result<Oscillation, String> {
    for (key, zero, v) in [("rate", o.rate.0 == 0, o.rate.to_string()), ("on", o.on.0 == 0, o.on.to_string()), ("off", o.off.0 == 0, o.off.to_string())] {
        if zero {
            return Err(format!("oscillate.{key} must be positive, got {v}"));
        }
    }
    let until = o.until.map_or(crate::core::time::MAX_TIME, |d| d.0);
    if o.from.0 >= until {
        return Err(format!("oscillate.from ({}) must be before oscillate.until", o.from));
    }
    Ok(Oscillation { low_bps: o.rate.0, high_bps: high, on: o.on.0, off: o.off.0, from: o.from.0, until, low: false })
}

fn check_capacity(c: Amount) -> Result<(), String> {
    match c {
        Amount::Frames(0) | Amount::Bytes(0) => Err("queue capacity must be positive".into()),
        _ => Ok(()),
    }
}

/// Expand both sides of "A>B" (each may be a range) into all pairs.
/// How many times, at most, the `[[port]]` tables together may name each port of the network on
/// average: a port set in a few tables (its queue in one, its CP in another) is plenty, and applying
/// a naming rebuilds the port's queue, so forty million namings from a 131 kB file would take a minute.
pub const PORT_NAMINGS_PER_PORT: u64 = 8;

/// Refuse `[[port]]` tables that together name more than `PORT_NAMINGS_PER_PORT` × `ports` ports,
/// counted from their names before any is resolved, at the table where the count passes it.
fn port_namings(ctx: &Ctx, ports: usize) -> R<()> {
    let limit = PORT_NAMINGS_PER_PORT.saturating_mul(ports as u64);
    let mut named = 0u64;
    for ps in &ctx.loaded.scenario.ports {
        for at in &ps.at.get_ref().0 {
            named = named.saturating_add(at.split_once('>').map_or(1, |(u, v)| count(u).saturating_mul(count(v))));
            if named > limit {
                return Err(ctx.err(
                    ps.at.span(),
                    format!("the [[port]] tables name at least {named} ports in all, over {PORT_NAMINGS_PER_PORT} times the network's {ports} ports: name each port in a few tables at most"),
                ));
            }
        }
    }
    Ok(())
}

fn cross(u: &str, v: &str) -> Result<Vec<(String, String)>, String> {
    let (us, vs) = (expand(u)?, expand(v)?);
    if us.len().saturating_mul(vs.len()) > MAX_LINKS {
        return Err(format!("\"{u}>{v}\" names more than {MAX_LINKS} ports"));
    }
    Ok(us.iter().flat_map(|a| vs.iter().map(move |b| (a.clone(), b.clone()))).collect())
}

/// Groups: name → (index, member node ids).
pub fn groups(ctx: &Ctx, nodes: &[Node]) -> R<HashMap<String, (usize, Vec<usize>)>> {
    let mut groups: HashMap<String, (usize, Vec<usize>)> = HashMap::new();
    for g in &ctx.loaded.scenario.groups {
        let name = g.name.get_ref().clone();
        let members = ctx.nodes(&g.members)?;
        if members.is_empty() {
            return Err(ctx.err(g.members.span(), format!("group {name:?} has no members")));
        }
        if let Some(&m) = members.iter().find(|&&m| nodes[m].kind != NodeKind::Host) {
            return Err(ctx.err(g.members.span(), format!("group member {} is not a host", nodes[m].name)));
        }
        if ctx.ids.contains_key(&name) || groups.insert(name.clone(), (groups.len(), members)).is_some() {
            return Err(ctx.err(g.name.span(), format!("duplicate name {name:?}")));
        }
    }
    Ok(groups)
}
