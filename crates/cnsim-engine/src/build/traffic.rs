//! Flows and their senders: sources, destinations and modes, traffic generators, reaction points
//! and rate limiters, multicast trees.

use super::flow_bytes::{self, Shape};
use super::check::Dropped;
use super::{protocols, Ctx, R};
use crate::core::rng::Rng;
use crate::core::stats::TimeAvg;
use crate::core::time::{pace_time, tx_time, Time, MAX_TIME};
use crate::net::flow::{Sender, Session};
use crate::registry::{Flow, Port, Receiver};
use crate::slots::transport::{App, TransportCx};
use crate::net::frame::{Dest, NONE};
use crate::net::node::{Node, NodeKind};
use crate::net::routing;
use crate::scenario::*;
use crate::traffic::TrafficGen;
use crate::core::ring::Ring;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// What the traffic needs from routing: unicast pairs to check (with the span to blame), every
/// host that is an end of some flow, and multicast tree edges per flow.
#[derive(Default)]
pub struct Needs {
    pub pairs: Vec<(usize, usize, Range<usize>)>,
    pub ends: Vec<usize>,
    pub trees: Vec<(usize, Vec<(usize, u32)>)>,
    /// Per multicast flow and member: the member's branch of the tree.
    pub branches: Vec<Branch>,
}

/// (flow, member host, the member's branch as (node, port) edges).
pub type Branch = (usize, u32, Vec<(usize, u32)>);

pub struct Traffic {
    pub flows: Vec<Flow>,
    pub senders: Vec<Sender>,
    pub sessions: Vec<Session>,
    pub needs: Needs,
    /// The span of each flow's table (a workload's flows: the workload's `hosts`).
    pub spans: Vec<Range<usize>>,
}

type Groups = HashMap<String, (usize, Vec<usize>)>;

/// The flows of the `[[flow]]` tables and of the workloads. A run's build keeps every flow; a
/// check's (`keep = false`) makes each workload flow as the run would and checks it, then drops it
/// (`check.rs` keeps what the later steps need of it).
pub fn flows<'a>(ctx: &'a Ctx, nodes: &[Node], ports: &[Port], groups: &Groups, keep: bool) -> R<(Traffic, Option<Dropped<'a>>)> {
    let mut t = Traffic { flows: vec![], senders: vec![], sessions: vec![], needs: Needs::default(), spans: vec![] };
    let mut names: HashSet<String> = HashSet::new();
    for fs in &ctx.loaded.scenario.flows {
        flow_spec(ctx, nodes, ports, groups, fs, &mut t, Unique::Record(&mut names), true)?;
    }
    // The workloads' flows: every table drawn (its own table warns about its times and rate,
    // `workload.rs`), room made for all their flows at once (no copy of a grown vector), then each
    // flow made as soon as its entry is written. Flows made per workload name, for their names.
    let tables = (0..ctx.loaded.scenario.workloads.len()).map(|i| super::workload::draw(ctx, nodes, ports, i, keep)).collect::<R<Vec<_>>>()?;
    let mut made: HashMap<String, usize> = HashMap::new();
    let all: usize = tables.iter().map(|w| w.len).sum();
    let mut done = 0;
    ctx.tick(0, all)?;
    if !keep {
        let mut dropped = Dropped::new(t.flows.len());
        for table in tables {
            let earlier = made.get(&table.prefix).copied().unwrap_or(0);
            let mut one = Traffic { flows: vec![], senders: vec![], sessions: vec![], needs: Needs::default(), spans: vec![] };
            table.each(|k, d| {
                flow_spec(ctx, nodes, ports, groups, &table.flow_of(k, d, nodes), &mut one, Unique::Workload(&names, k < earlier), false)?;
                dropped.add(&mut one, &mut t.needs);
                done += 1;
                ctx.tick(done, all)
            })?;
            let m = made.entry(table.prefix.clone()).or_default();
            *m = (*m).max(table.len);
            dropped.tables.push(table);
        }
        return Ok((t, Some(dropped)));
    }
    t.flows.reserve_exact(all);
    t.senders.reserve_exact(all);
    t.sessions.reserve_exact(all);
    t.spans.reserve_exact(all);
    t.needs.pairs.reserve_exact(all);
    t.needs.ends.reserve_exact(2 * all);
    for table in tables {
        let n = table.len;
        let earlier = made.get(&table.prefix).copied().unwrap_or(0);
        for k in 0..n {
            flow_spec(ctx, nodes, ports, groups, &table.flow(k, nodes), &mut t, Unique::Workload(&names, k < earlier), false)?;
            done += 1;
            ctx.tick(done, all)?;
        }
        let m = made.entry(table.prefix).or_default();
        *m = (*m).max(n);
    }
    Ok((t, None))
}

/// How a flow's name is checked unique: against the names so far, which then hold it (the flows of
/// `[[flow]]` tables); or, for a workload's flow (`PREFIX#k`, unique within its table), against the
/// `[[flow]]` tables' names and whether an earlier workload of the same name made a k-th flow (so
/// the build keeps a workload's names once, in its flows).
enum Unique<'a> {
    Record(&'a mut HashSet<String>),
    Workload(&'a HashSet<String>, bool),
}

/// The flows of one `[[flow]]` table (or of a workload's flow); `lint`: warn about likely mistakes.
#[allow(clippy::too_many_arguments)]
fn flow_spec(ctx: &Ctx, nodes: &[Node], ports: &[Port], groups: &Groups, fs: &FlowSpec, t: &mut Traffic, mut names: Unique, lint: bool) -> R<()> {
    let seed = ctx.loaded.scenario.simulation.seed;
    let sources = ctx.nodes(&fs.from)?;
    let to = fs.to.get_ref();
    let span_to = fs.to.span();
    let (dest_host, group) = match (ctx.ids.get(to), groups.get(to)) {
        (Some(&h), _) if nodes[h].kind == NodeKind::Host => (Some(h), None),
        (Some(&n), _) => return Err(ctx.err(span_to, format!("flow destination {to:?} is a {}", nodes[n].kind.name()))),
        (None, Some(g)) => (None, Some(g)),
        (None, None) => return Err(ctx.err(span_to, format!("unknown host or group {to:?}"))),
    };
    let mode = fs.mode.unwrap_or(if group.is_some() { Mode::Multicast } else { Mode::Unicast });
    if (mode == Mode::Unicast) != dest_host.is_some() {
        return Err(ctx.err(span_to, format!("mode {mode:?} needs {}", if dest_host.is_some() { "a group" } else { "a host" })));
    }
    if fs.name.is_some() && sources.len() > 1 {
        return Err(ctx.err(fs.from.span(), "a flow with a name must have one source"));
    }
    if fs.priority > 7 {
        return Err(ctx.err(fs.from.span(), format!("priority must be 0-7, got {}", fs.priority)));
    }
    if fs.limiter.buffer == 0 {
        return Err(ctx.err(fs.from.span(), "limiter.buffer must be positive"));
    }
    let frame = protocols::frame_size(fs.traffic.frame, "traffic.frame").map_err(|m| ctx.err(fs.from.span(), m))?;
    let duration = ctx.loaded.scenario.simulation.duration;
    for (i, &s) in sources.iter().enumerate() {
        let sname = nodes[s].name.clone();
        if nodes[s].kind != NodeKind::Host {
            return Err(ctx.err(fs.from.span(), format!("flow source {sname} is not a host")));
        }
        let Some(&first) = nodes[s].ports.first() else {
            return Err(ctx.err(fs.from.span(), format!("flow source {sname} has no link")));
        };
        let line_rate = ports[first as usize].rate_bps;
        let when = |v: &Option<Spanned<OneOrMany<crate::units::Duration>>>, dflt: Time| -> R<Time> {
            match v {
                None => Ok(dflt),
                Some(sp) => sp.get_ref().get(i, sources.len()).map(|x| x.0).map_err(|m| ctx.err(sp.span(), m)),
            }
        };
        let (start, mut stop) = (when(&fs.start, 0)?, when(&fs.stop, Time::MAX)?);
        let in_flow = |m: String| ctx.err(ctx.at_key(fs.from.span(), &m), format!("flow from {sname}: {m}"));
        // Legal, but surely not meant: a source that never starts, or sends faster than its link.
        if lint && start >= duration.0 {
            ctx.warn(Some(fs.from.span()), format!("flow from {sname}: start = {} is not before the end of the run (simulation.duration = {duration}): it sends nothing", crate::units::Duration(start)));
        }
        if let Some(r) = fs.traffic.rate.filter(|r| lint && r.0 > line_rate) {
            ctx.warn(Some(ctx.at_key(fs.from.span(), "traffic.rate")), format!("traffic.rate = {} b/s is above the line rate of the flow's source link ({line_rate} b/s): frames wait at the source", r.0));
        }
        // A finite transfer's size; it ends with its last byte, so it takes no stop.
        let transfer = match fs.traffic.kind {
            k if k.is_transfer() => {
                if fs.stop.is_some() {
                    return Err(in_flow("a transfer ends with its last byte: it takes no stop".into()));
                }
                if mode != Mode::Unicast {
                    return Err(in_flow("a transfer goes to one host (mode unicast)".into()));
                }
                match fs.traffic.size {
                    Some(b) if b.0 > 0 => Some(b.0),
                    Some(b) => return Err(in_flow(format!("traffic.size (the bytes to transfer) must be positive, got {b}"))),
                    None => return Err(in_flow("traffic.size (bytes to transfer, positive) is required for a transfer".into())),
                }
            }
            _ => None,
        };
        // A closed-loop flow: its transport and its application (None: open-loop traffic).
        let transport = fs.transport_slot().map_err(in_flow)?;
        let app = transport_app(&fs.traffic, mode, transport.is_some()).map_err(in_flow)?;
        let closed = match (&transport, app) {
            (Some(slot), Some(app)) => Some((slot, TransportCx { app, line_rate: line_rate as f64 })),
            _ => None,
        };
        // A first connection checks the transport's table and says its frames' size.
        let segment = match &closed {
            Some((slot, cx)) => {
                let (payload, headers) = protocols::transport(slot, cx).map_err(in_flow)?.segment_bytes();
                if lint {
                    protocols::transport_warnings(slot, cx).into_iter().for_each(|w| ctx.warn(Some(ctx.at_key(fs.from.span(), &w)), format!("flow from {sname}: {w}")));
                }
                Some(payload + headers)
            }
            None => None,
        };
        let gen = match closed {
            Some(_) => TrafficGen::Cbr { gap: MAX_TIME }, // a closed-loop source sends when its transport lets it
            None => traffic(&fs.traffic, line_rate, ports[first as usize].overhead).map_err(in_flow)?,
        };
        // An open-loop transfer: whole frames, the last one made (n − 1) gaps after the start; its
        // limiter holds the whole transfer (the application hands over every byte, none is lost
        // at the source). (frames, bytes that complete it)
        let mut buf_cap = fs.limiter.buffer as usize;
        // The limiter's buffer as made (it grows, doubling, as frames wait): a long-lived source's
        // holds up to `limiter.buffer` frames (at most 1024) from the start; a transfer's starts
        // small, as a workload makes many and most never queue more than a few frames there.
        let ring = match transfer {
            Some(_) => 0,
            None => (fs.limiter.buffer as usize).min(1024),
        };
        let open_transfer = match (transfer, closed.as_ref(), gen) {
            (Some(size), None, TrafficGen::Cbr { gap }) => {
                let n = size.div_ceil(frame as u64);
                stop = (n - 1)
                    .checked_mul(gap)
                    .and_then(|x| x.checked_add(start))
                    .filter(|&x| x < MAX_TIME)
                    .ok_or_else(|| in_flow(format!("a transfer of {size} B at this rate would outlast any run")))?
                    + 1;
                buf_cap = buf_cap.max(usize::try_from(n).map_err(|_| in_flow("transfer too large".into()))?);
                Some(n * frame as u64)
            }
            _ => None,
        };
        let mut warn = vec![];
        let make_rp = protocols::rp(&fs.rp, line_rate as f64, &mut warn).map_err(in_flow)?;
        if lint {
            warn.into_iter().for_each(|w| ctx.warn(Some(ctx.at_key(fs.from.span(), &w)), w));
        }
        let make_np = protocols::np(&fs.rp).map_err(in_flow)?;
        if let Some(m) = protocols::rp_needs_unicast(&fs.rp).filter(|_| mode != Mode::Unicast) {
            return Err(in_flow(m.into()));
        }
        let rf_sender = protocols::rf_sender(fs).map_err(in_flow)?;
        if let Some((key, _)) = rf_sender.as_ref().filter(|_| closed.is_some()) {
            return Err(in_flow(format!("{key} is for open-loop traffic")));
        }
        let rf_table = protocols::rf_table(fs).map_err(in_flow)?;
        let base = fs.name.clone().unwrap_or_else(|| sname.clone());
        // A group whose only member is the source would receive nothing (100 % "loss" at no queue).
        let alone = |members: &[usize]| match members.iter().all(|&m| m == s) {
            true => Err(ctx.err(span_to.clone(), format!("group {to:?} has no member other than the flow's source {sname}: nothing would be received"))),
            false => Ok(()),
        };
        // (flow name, destination, receivers)
        let mut parts: Vec<(String, Dest, Vec<usize>)> = vec![];
        match mode {
            Mode::Unicast => {
                let h = dest_host.expect("checked");
                if h == s {
                    return Err(ctx.err(span_to, format!("flow from {sname} to itself")));
                }
                t.needs.pairs.push((s, h, span_to.clone()));
                let n = fs.traffic.connections.unwrap_or(1);
                if n == 1 {
                    parts.push((base, Dest::Node(h as u32), vec![h]));
                } else {
                    parts.extend((1..=n).map(|k| (format!("{base}/{k}"), Dest::Node(h as u32), vec![h])));
                }
            }
            Mode::Multicast => {
                let (gid, members) = group.expect("checked");
                alone(members)?;
                let (edges, branches) = routing::multicast_tree(nodes, ports, s, members)
                    .map_err(|m| ctx.err(span_to.clone(), format!("group member {} is not reachable from {sname}", nodes[m].name)))?;
                for (&m, b) in members.iter().filter(|&&m| m != s).zip(branches) {
                    t.needs.branches.push((t.flows.len(), m as u32, b));
                }
                t.needs.trees.push((t.flows.len(), edges));
                let recv = members.iter().copied().filter(|&m| m != s).collect();
                parts.push((base, Dest::Group(*gid as u32), recv));
            }
            Mode::MultipleUnicast => {
                let (_, members) = group.expect("checked");
                alone(members)?;
                for &m in members.iter().filter(|&&m| m != s) {
                    t.needs.pairs.push((s, m, span_to.clone()));
                    parts.push((format!("{base}:{}", nodes[m].name), Dest::Node(m as u32), vec![m]));
                }
            }
        }
        t.needs.ends.push(s);
        // Unicast routes to the receivers; a multicast group's members are reached through its tree
        // (a routing column per member's switch would cost a table of nodes × members).
        if mode != Mode::Multicast {
            t.needs.ends.extend(parts.iter().flat_map(|p| p.2.iter().copied()));
        }
        let session_id = t.sessions.len() as u32;
        let session_start = t.flows.len() as u32;
        // Each copy paced alone: multiple unicast with copy_rate "own", and transport connections
        // unless an RP regulates them per source (then they share the first connection's RP and limiter).
        let shared_rp = closed.is_some() && make_rp.is_some() && fs.limiter.regulate == Regulate::PerSource;
        let own = (mode == Mode::MultipleUnicast && fs.limiter.copy_rate == CopyRate::Own) || (closed.is_some() && !shared_rp);
        let per_sender: Vec<Vec<usize>> = if own { (0..parts.len()).map(|k| vec![k]).collect() } else { vec![(0..parts.len()).collect()] };
        for ks in per_sender {
            let first_flow = t.flows.len() as u32;
            let sender_id = t.senders.len() as u32;
            for &k in &ks {
                let (fname, dst, recv) = parts[k].clone();
                let taken = match &mut names {
                    Unique::Record(set) => !set.insert(fname.clone()),
                    Unique::Workload(set, earlier) => *earlier || set.contains(&fname),
                };
                if taken {
                    return Err(ctx.err(fs.from.span(), format!("duplicate flow name {fname:?}: give the flow a `name`")));
                }
                // The flow as built (`flow_bytes.rs`), and its multicast branches.
                let branch_edges: usize = t.needs.branches.iter().rev().take_while(|b| b.0 == t.flows.len()).map(|b| b.2.len()).sum();
                let shape = Shape {
                    receivers: recv.len(),
                    name: fname.len(),
                    host_name: recv.iter().map(|&h| nodes[h].name.len()).max().unwrap_or(0),
                    ring: Ring::<Time>::capacity_for(ring),
                    transport: closed.as_ref().map(|c| c.0),
                    rp: &fs.rp,
                    np: make_np.is_some(),
                    rf: rf_sender.is_some() || rf_table.is_some(),
                    group: group.map_or(0, |_| to.len()),
                    name_set: matches!(names, Unique::Record(_)),
                    series: ctx.loaded.scenario.simulation.record_interval.0 > 0,
                };
                let bytes = flow_bytes::bytes(&shape).saturating_add(branch_edges.saturating_mul(24));
                ctx.budget.charge(super::budget::Part::Flows, bytes).map_err(|m| ctx.err(fs.from.span(), m))?;
                let conn = match &closed {
                    Some((slot, cx)) => Some(Box::new(protocols::transport(slot, cx).map_err(in_flow)?)),
                    None => None,
                };
                t.spans.push(fs.from.span());
                t.flows.push(Flow {
                    sender: sender_id,
                    session: session_id,
                    src: s as u32,
                    dst,
                    first_port: first,
                    src_port: NONE,
                    mode: match mode {
                        Mode::Unicast => "unicast",
                        Mode::Multicast => "multicast",
                        Mode::MultipleUnicast => "multiple-unicast",
                    },
                    group: group.map(|_| to.clone()),
                    receivers: recv
                        .into_iter()
                        .map(|h| Receiver { host: h as u32, endpoint: NONE, next_seq: NONE, rf: rf_table.as_ref().map(|t| Box::new(t.clone())), np: make_np.as_ref().map(|m| Box::new(m())), frames: 0, bytes: 0, bytes_w0: 0 })
                        .collect(),
                    passive_rx: false,
                    rf: rf_sender.as_ref().map(|s| Box::new(s.1.clone())),
                    cr: TimeAvg::new(line_rate as f64),
                    rp: make_rp.as_ref().filter(|_| !shared_rp || k == ks[0]).map(|m| m()),
                    transport: conn,
                    transport_timers: [NONE; crate::slots::transport::TIMERS],
                    rp_rng: Rng::stream(seed, "rp", &fname),
                    feedback_latency: fs.limiter.feedback_latency.0,
                    timer: NONE,
                    feedback_w0: 0,
                    injected: 0,
                    dropped: 0,
                    injected_w0: 0,
                    dropped_w0: 0,
                    replicated: 0,
                    replicated_w0: 0,
                    size_bytes: transfer.unwrap_or(0),
                    started: start,
                    completed: Time::MAX,
                    complete_bytes: open_transfer.unwrap_or(u64::MAX),
                    name: fname,
                });
            }
            let name_k = t.flows[first_flow as usize].name.clone();
            let mut rng = Rng::stream(seed, "src", &name_k);
            let phase = match fs.traffic.phase {
                PhaseSpec::Random if closed.is_none() && transfer.is_none() => (rng.uniform() * gen.phase_span() as f64) as Time,
                _ => 0, // a closed-loop source starts when its application does, a transfer at its start
            };
            t.senders.push(Sender {
                host: s as u32,
                flows: first_flow..t.flows.len() as u32,
                gen,
                frame: segment.unwrap_or(frame),
                closed_loop: closed.is_some(),
                prio: fs.priority,
                start: start.saturating_add(phase),
                stop,
                buf: Ring::with_capacity(ring),
                buf_cap,
                next_allowed: 0,
                pace_rate: f64::NAN,
                pace: 0,
                release_pending: false,
                deferred: crate::sim::NOT_DEFERRED,
                blocked: false,
                next_conn: 0,
                rng,
                generated: 0,
                generated_w0: 0,
                source_dropped: 0,
            });
        }
        t.sessions.push(Session { host: s as u32, flows: session_start..t.flows.len() as u32, cr: TimeAvg::new(line_rate as f64) });
    }
    Ok(())
}

/// The application of a closed-loop flow (`closed`: it has a transport), or None for open-loop
/// traffic; the keys each kind takes.
fn transport_app(t: &TrafficSpec, mode: Mode, closed: bool) -> Result<Option<App>, String> {
    let app = match t.kind.application().filter(|_| closed) {
        Some(AppKind::Bulk) => App::Bulk,
        Some(AppKind::Transactions) => {
            let size = t.size.map_or(10_000, |b| b.0);
            if size == 0 {
                return Err("traffic.size must be positive".into());
            }
            App::Transactions { size, idle: t.idle.map_or(0, |d| d.0) }
        }
        Some(AppKind::Transfer) => App::Transfer { size: t.size.map_or(0, |b| b.0) },
        None => {
            if (t.size.is_some() && !t.kind.is_transfer()) || t.connections.is_some() {
                return Err("traffic.size is for transfers and transactions, traffic.connections for a transport's traffic".into());
            }
            return Ok(None);
        }
    };
    if mode != Mode::Unicast {
        return Err("a transport's traffic goes to one host (mode unicast)".into());
    }
    let idle_ok = matches!(app, App::Transactions { .. });
    if t.rate.is_some() || t.load.is_some() || t.burst.is_some() || t.shape.is_some() || (t.idle.is_some() && !idle_ok) || (t.size.is_some() && app == App::Bulk) {
        return Err("a transport's traffic takes no rate, load, burst, idle or shape (transactions take size and idle, a transfer size)".into());
    }
    if !(1..=10_000).contains(&t.connections.unwrap_or(1)) {
        return Err("traffic.connections must be between 1 and 10000".into());
    }
    Ok(Some(app))
}

/// ns-2's default Pareto shape.
const DEFAULT_SHAPE: f64 = 1.5;

fn traffic(t: &TrafficSpec, line_rate: u64, overhead: u32) -> Result<TrafficGen, String> {
    let frame = t.frame.0;
    if t.kind != TrafficKind::Pareto && (t.burst.is_some() || t.idle.is_some() || t.shape.is_some()) {
        return Err("traffic.burst, idle and shape are for pareto traffic".into());
    }
    match t.kind {
        TrafficKind::Transfer => {
            if t.load.is_some() {
                return Err("traffic.load is not for a transfer: give a rate, or none for line rate".into());
            }
            // Back to back on the wire at line rate; at `rate`, paced as cbr is.
            let gap = match t.rate {
                None => tx_time(frame + overhead as u64, line_rate),
                Some(r) if r.0 > 0 => pace_time(frame, r.0 as f64),
                Some(_) => return Err("traffic.rate must be positive".into()),
            };
            Ok(TrafficGen::Cbr { gap: gap.max(1) })
        }
        TrafficKind::Pareto => {
            let rate = t.rate.ok_or("traffic.rate (the peak rate) is required for pareto")?.0;
            let (Some(burst), Some(idle)) = (t.burst, t.idle) else {
                return Err("traffic.burst and traffic.idle (mean on and off times) are required for pareto".into());
            };
            let shape = t.shape.unwrap_or(DEFAULT_SHAPE);
            if rate == 0 || burst.0 == 0 {
                return Err(format!("traffic.rate and traffic.burst must be positive, got {} b/s and {burst}", rate));
            }
            if !(shape > 1.0 && shape <= 100.0) {
                return Err(format!("traffic.shape must be in (1, 100] (a finite mean), got {shape}"));
            }
            let gap = pace_time(frame, rate as f64).max(1);
            Ok(TrafficGen::ParetoOnOff { gap, mean_on: burst.0 as f64, mean_off: idle.0 as f64, shape, left: 0 })
        }
        TrafficKind::Cbr | TrafficKind::Poisson => {
            let rate = t.rate.ok_or("traffic.rate is required for cbr and poisson")?.0;
            if rate == 0 {
                return Err("traffic.rate must be positive".into());
            }
            if t.load.is_some() {
                return Err("traffic.load is for bernoulli traffic; give a rate".into());
            }
            let gap = pace_time(frame, rate as f64).max(1);
            Ok(if t.kind == TrafficKind::Cbr { TrafficGen::Cbr { gap } } else { TrafficGen::Poisson { mean_gap: gap as f64 } })
        }
        TrafficKind::Bernoulli => {
            let p = t.load.ok_or("traffic.load is required for bernoulli")?;
            if !(p > 0.0 && p <= 1.0) {
                return Err(format!("traffic.load must be in (0, 1], got {p}"));
            }
            if t.rate.is_some() {
                return Err("traffic.rate is for cbr/poisson; bernoulli takes a load".into());
            }
            Ok(TrafficGen::Bernoulli { slot: tx_time(frame + overhead as u64, line_rate), p })
        }
        _ => Err("closed-loop traffic (bulk, transactions) has no open-loop generator: give it a transport".into()),
    }
}
