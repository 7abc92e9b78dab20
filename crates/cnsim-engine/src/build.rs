//! Scenario → simulator: nodes, links and ports, congestion points, routes, flows and senders,
//! recorded series and the first events. Every semantic check happens here, before the run, and
//! fails with an error that names the place in the file.

use crate::event::{Event, EventQueue};
use crate::frame::{Arena, Dest};
use crate::net::*;
use crate::protocols::eqcn::{Decrease, EqcnRp};
use crate::protocols::qcn::{CongestionPoint, CpParams, ReactionPoint, RpParams, RpVariant, Sampling};
use crate::rng::Rng;
use crate::routing;
use crate::scenario::*;
use crate::sim::{Probe, Series, Sim};
use crate::stats::TimeAvg;
use crate::time::{pace_time, tx_time, Time};
use crate::traffic::TrafficGen;
use crate::units::Amount;
use std::collections::{HashMap, VecDeque};
use std::ops::Range;

type R<T> = Result<T, ScenarioError>;

struct Ctx<'a> {
    loaded: &'a Loaded,
    ids: HashMap<String, usize>,
}

impl Ctx<'_> {
    fn err(&self, span: Range<usize>, msg: impl std::fmt::Display) -> ScenarioError {
        self.loaded.source().err(Some(span), msg)
    }
    /// Expand a spanned name list into node ids, every name known.
    fn nodes(&self, names: &Spanned<Names>) -> R<Vec<usize>> {
        let mut out = vec![];
        for n in expand_all(&names.get_ref().0).map_err(|m| self.err(names.span(), m))? {
            out.push(*self.ids.get(&n).ok_or_else(|| self.err(names.span(), format!("unknown node {n:?}")))?);
        }
        Ok(out)
    }
}

fn expand_all(names: &[String]) -> Result<Vec<String>, String> {
    let mut v = vec![];
    for n in names {
        v.extend(expand(n)?);
    }
    Ok(v)
}

fn cp_state(spec: &CpSpec, frame: u64, seed: u64, name: &str) -> Result<Option<CpState>, String> {
    if spec.protocol == CpProtocol::None {
        return Ok(None);
    }
    let qeq = spec.qeq.bytes(frame);
    if qeq == 0 {
        return Err("cp.qeq must be positive".into());
    }
    if !(spec.w >= 0.0 && spec.w.is_finite()) {
        return Err(format!("cp.w must be a non-negative number, got {}", spec.w));
    }
    let sample_base = spec.sample_base.bytes(frame);
    if sample_base == 0 {
        return Err("cp.sample_base must be positive".into());
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
        qold_on_feedback: spec.qold == QoldSpec::OnFeedback,
    };
    Ok(Some(CpState {
        cp: CongestionPoint::new(p),
        rng: Rng::stream(seed, "cp", name),
        eqcn_tie_break: spec.eqcn_tie_break,
        cnm_size: u32::try_from(spec.cnm_size.0).ok().filter(|&b| b > 0).ok_or("cp.cnm_size must be positive")?,
        sample_dropped: spec.sample_dropped,
    }))
}

fn rp_params(spec: &RpSpec, line_rate: f64) -> Result<Option<RpParams>, String> {
    if spec.buffer == 0 {
        return Err("rp.buffer must be positive".into());
    }
    if spec.protocol == RpProtocol::None {
        return Ok(None);
    }
    if !(spec.gd > 0.0 && spec.gd < 1.0) {
        return Err(format!("rp.gd must be in (0, 1), got {}", spec.gd));
    }
    if !(spec.min_dec_factor > 0.0 && spec.min_dec_factor <= 1.0) {
        return Err(format!("rp.min_dec_factor must be in (0, 1], got {}", spec.min_dec_factor));
    }
    if spec.min_rate.0 == 0 || spec.bc_limit.0 == 0 || spec.timer.0 == 0 {
        return Err("rp.min_rate, rp.bc_limit and rp.timer must be positive".into());
    }
    Ok(Some(RpParams {
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
    }))
}

impl Sim {
    pub fn build(loaded: &Loaded) -> R<Sim> {
        let sc = &loaded.scenario;
        let src = loaded.source();
        let whole = |m: String| src.err(None, m);
        let simc = &sc.simulation;
        let frame_size = simc.frame_size.0;
        if simc.duration.0 == 0 {
            return Err(src.key_err("simulation", "duration", "simulation.duration must be positive"));
        }
        if simc.measure_from.0 >= simc.duration.0 {
            return Err(src.key_err("simulation", "measure_from", "simulation.measure_from must be earlier than simulation.duration"));
        }
        if frame_size == 0 {
            return Err(src.key_err("simulation", "frame_size", "simulation.frame_size must be positive"));
        }

        // Nodes: switches first, then hosts, in file order.
        let mut nodes: Vec<Node> = vec![];
        let mut ctx = Ctx { loaded, ids: HashMap::new() };
        for (specs, kind) in [(&sc.switches, NodeKind::Switch), (&sc.hosts, NodeKind::Host)] {
            for spec in specs {
                for name in expand_all(&spec.names.get_ref().0).map_err(|m| ctx.err(spec.names.span(), m))? {
                    if name.is_empty() || name.contains(['>', ':', ' ']) {
                        return Err(ctx.err(spec.names.span(), format!("bad node name {name:?} (no spaces, '>' or ':')")));
                    }
                    if ctx.ids.insert(name.clone(), nodes.len()).is_some() {
                        return Err(ctx.err(spec.names.span(), format!("duplicate node name {name:?}")));
                    }
                    nodes.push(Node { name, kind, ports: vec![] });
                }
            }
        }

        // Links: one full-duplex link per pair of ends; a port per direction.
        let d = &sc.defaults;
        let mut ports: Vec<Port> = vec![];
        for l in &sc.links {
            let [a, b] = l.between.get_ref();
            let ends = [Spanned::new(l.between.span(), a.clone()), Spanned::new(l.between.span(), b.clone())];
            let (aa, bb) = (ctx.nodes(&ends[0])?, ctx.nodes(&ends[1])?);
            let rate = l.rate.unwrap_or(d.link.rate).0;
            if rate == 0 {
                return Err(ctx.err(l.between.span(), "link rate must be positive"));
            }
            let delay = l.delay.unwrap_or(d.link.delay).0;
            let overhead = l.overhead.unwrap_or(d.link.overhead).0 as u32;
            let capacity = l.queue.as_ref().unwrap_or(&d.queue).capacity;
            for &x in &aa {
                for &y in &bb {
                    if x == y {
                        return Err(ctx.err(l.between.span(), format!("link from {} to itself", nodes[x].name)));
                    }
                    if nodes[x].ports.iter().any(|&p| ports[p as usize].peer_node as usize == y) {
                        return Err(ctx.err(l.between.span(), format!("a second link between {} and {} (parallel links are not supported)", nodes[x].name, nodes[y].name)));
                    }
                    let (px, py) = (ports.len() as u32, ports.len() as u32 + 1);
                    for (u, v, peer) in [(x, y, py), (y, x, px)] {
                        nodes[u].ports.push(ports.len() as u32);
                        ports.push(new_port(u, v, peer, rate, delay, overhead, capacity, frame_size));
                    }
                }
            }
        }
        let port_name = |ports: &[Port], p: usize| format!("{}>{}", nodes[ports[p].node as usize].name, nodes[ports[p].peer_node as usize].name);

        // Congestion points: [cp] on every switch port, replaced where a [[port]] says so.
        cp_state(&sc.cp, frame_size, simc.seed, "").map_err(|m| src.key_err("cp", "protocol", format!("[cp]: {m}")))?;
        let mut port_cp: Vec<Option<&CpSpec>> =
            ports.iter().map(|p| (nodes[p.node as usize].kind == NodeKind::Switch).then_some(&sc.cp)).collect();
        for ps in &sc.ports {
            for at in &ps.at.get_ref().0 {
                let (u, v) = at.split_once('>').ok_or_else(|| ctx.err(ps.at.span(), format!("port {at:?}: expected \"NODE>PEER\"")))?;
                for (us, vs) in cross(u, v).map_err(|m| ctx.err(ps.at.span(), m))? {
                    let (ui, vi) = match (ctx.ids.get(&us), ctx.ids.get(&vs)) {
                        (Some(&a), Some(&b)) => (a, b),
                        _ => return Err(ctx.err(ps.at.span(), format!("unknown node in port {us}>{vs}"))),
                    };
                    let Some(&p) = nodes[ui].ports.iter().find(|&&p| ports[p as usize].peer_node as usize == vi) else {
                        return Err(ctx.err(ps.at.span(), format!("no link {us}>{vs}")));
                    };
                    if let Some(q) = &ps.queue {
                        ports[p as usize].capacity = q.capacity;
                    }
                    if let Some(cp) = &ps.cp {
                        if nodes[ui].kind != NodeKind::Switch && cp.protocol != CpProtocol::None {
                            return Err(ctx.err(ps.at.span(), format!("{us} is a host: congestion points sit on switch ports")));
                        }
                        port_cp[p as usize] = Some(cp);
                    }
                }
            }
        }
        for p in 0..ports.len() {
            if let Some(spec) = port_cp[p] {
                let name = port_name(&ports, p);
                ports[p].cp = cp_state(spec, frame_size, simc.seed, &name).map_err(|m| whole(format!("[[port]] {name}: {m}")))?;
            }
            check_capacity(&ports[p]).map_err(|m| whole(format!("port {}: {m}", port_name(&ports, p))))?;
        }

        // Groups.
        let mut groups: HashMap<String, (usize, Vec<usize>)> = HashMap::new();
        for g in &sc.groups {
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

        let next_port = routing::unicast(&nodes, &ports);
        let n = nodes.len();

        // Flows and senders.
        let mut flows: Vec<Flow> = vec![];
        let mut senders: Vec<Sender> = vec![];
        let mut mcast_edges: Vec<(usize, usize, u32)> = vec![]; // (flow, node, port)
        let mut flow_names: HashMap<String, ()> = HashMap::new();
        for fs in &sc.flows {
            let sources = ctx.nodes(&fs.from)?;
            let to = fs.to.get_ref();
            let span_to = fs.to.span();
            let (dest_host, group) = match (ctx.ids.get(to), groups.get(to)) {
                (Some(&h), _) if nodes[h].kind == NodeKind::Host => (Some(h), None),
                (Some(_), _) => return Err(ctx.err(span_to.clone(), format!("flow destination {to:?} is a switch"))),
                (None, Some(g)) => (None, Some(g)),
                (None, None) => return Err(ctx.err(span_to.clone(), format!("unknown host or group {to:?}"))),
            };
            let mode = fs.mode.unwrap_or(if group.is_some() { Mode::Multicast } else { Mode::Unicast });
            if (mode == Mode::Unicast) != dest_host.is_some() {
                return Err(ctx.err(span_to.clone(), format!("mode {mode:?} needs {}", if dest_host.is_some() { "a group" } else { "a host" })));
            }
            let t = &fs.traffic;
            if fs.name.is_some() && sources.len() > 1 {
                return Err(ctx.err(fs.from.span(), "a flow with a name must have one source"));
            }
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
                let start = when(&fs.start, 0)?;
                let stop = when(&fs.stop, Time::MAX)?;
                let gen = traffic(t, line_rate, ports[first as usize].overhead).map_err(|m| ctx.err(fs.from.span(), format!("flow from {sname}: {m}")))?;
                let rp = rp_params(&fs.rp, line_rate as f64).map_err(|m| ctx.err(fs.from.span(), format!("flow from {sname}: {m}")))?;
                let base = fs.name.clone().unwrap_or_else(|| sname.clone());
                // (flow name, destination, receivers)
                let mut parts: Vec<(String, Dest, Vec<usize>)> = vec![];
                match mode {
                    Mode::Unicast => {
                        let h = dest_host.expect("checked");
                        if h == s {
                            return Err(ctx.err(span_to.clone(), format!("flow from {sname} to itself")));
                        }
                        if next_port[s * n + h] == NONE {
                            return Err(ctx.err(span_to.clone(), format!("{to} is not reachable from {sname}")));
                        }
                        parts.push((base, Dest::Node(h as u32), vec![h]));
                    }
                    Mode::Multicast => {
                        let (gid, members) = group.expect("checked");
                        let edges = routing::multicast_tree(&nodes, &ports, s, members)
                            .map_err(|m| ctx.err(span_to.clone(), format!("group member {} is not reachable from {sname}", nodes[m].name)))?;
                        let f = flows.len();
                        mcast_edges.extend(edges.into_iter().map(|(u, p)| (f, u, p)));
                        let recv = members.iter().copied().filter(|&m| m != s).collect();
                        parts.push((base, Dest::Group(*gid as u32), recv));
                    }
                    Mode::MultipleUnicast => {
                        let (_, members) = group.expect("checked");
                        for &m in members.iter().filter(|&&m| m != s) {
                            if next_port[s * n + m] == NONE {
                                return Err(ctx.err(span_to.clone(), format!("group member {} is not reachable from {sname}", nodes[m].name)));
                            }
                            parts.push((format!("{base}:{}", nodes[m].name), Dest::Node(m as u32), vec![m]));
                        }
                    }
                }
                let own = mode == Mode::MultipleUnicast && fs.rp.copy_rate == CopyRate::Own;
                let per_sender: Vec<Vec<usize>> =
                    if own { (0..parts.len()).map(|k| vec![k]).collect() } else { vec![(0..parts.len()).collect()] };
                for ks in per_sender {
                    let first_flow = flows.len() as u32;
                    let sender_id = senders.len() as u32;
                    for &k in &ks {
                        let (fname, dst, recv) = parts[k].clone();
                        if flow_names.insert(fname.clone(), ()).is_some() {
                            return Err(ctx.err(fs.from.span(), format!("duplicate flow name {fname:?}: give the flow a `name`")));
                        }
                        let rp_obj = rp.map(ReactionPoint::new);
                        let eqcn = (fs.rp.protocol == RpProtocol::Eqcn).then(|| {
                            EqcnRp::new(match fs.rp.eqcn_decrease {
                                EqcnDecrease::Saved => Decrease::Saved,
                                EqcnDecrease::Received => Decrease::Received,
                            })
                        });
                        flows.push(Flow {
                            sender: sender_id,
                            src: s as u32,
                            dst,
                            mode: match mode {
                                Mode::Unicast => "unicast",
                                Mode::Multicast => "multicast",
                                Mode::MultipleUnicast => "multiple-unicast",
                            },
                            group: group.map(|_| to.clone()),
                            receivers: recv.into_iter().map(|h| Receiver { host: h as u32, frames: 0, bytes: 0, bytes_w0: 0 }).collect(),
                            cr: TimeAvg::new(line_rate as f64),
                            rp: rp_obj,
                            eqcn,
                            rp_rng: Rng::stream(simc.seed, "rp", &fname),
                            timer_gen: 0,
                            timer_at: None,
                            timer_event_at: None,
                            cnms_w0: 0,
                            injected: 0,
                            dropped: 0,
                            injected_w0: 0,
                            dropped_w0: 0,
                            replicated: 0,
                            replicated_w0: 0,
                            name: fname,
                        });
                    }
                    let sname_k = flows[first_flow as usize].name.clone();
                    senders.push(Sender {
                        host: s as u32,
                        flows: first_flow..flows.len() as u32,
                        gen,
                        frame: t.frame.0 as u32,
                        start,
                        stop,
                        buf: VecDeque::with_capacity(fs.rp.buffer as usize),
                        buf_cap: fs.rp.buffer as usize,
                        next_allowed: 0,
                        release_pending: false,
                        rng: Rng::stream(simc.seed, "src", &sname_k),
                        generated: 0,
                        generated_w0: 0,
                        source_dropped: 0,
                        cr: TimeAvg::new(line_rate as f64),
                    });
                }
            }
        }

        // Multicast forwarding table.
        let mut mcast = vec![(0u32, 0u32); flows.len() * n];
        let mut mcast_ports = vec![];
        mcast_edges.sort_unstable();
        for chunk in mcast_edges.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let (f, u) = (chunk[0].0, chunk[0].1);
            mcast[f * n + u] = (mcast_ports.len() as u32, chunk.len() as u32);
            mcast_ports.extend(chunk.iter().map(|e| e.2));
        }

        // Recorded series.
        let mut series = Series::default();
        if simc.record_interval.0 > 0 {
            for (i, f) in flows.iter().enumerate() {
                if f.rp.is_some() {
                    series.names.push(format!("rp.{}.cr", f.name));
                    series.probes.push(Probe::Cr(i as u32));
                    series.names.push(format!("rp.{}.tr", f.name));
                    series.probes.push(Probe::Tr(i as u32));
                }
            }
            for (i, s) in senders.iter().enumerate() {
                if s.flows.len() > 1 && flows[s.flows.start as usize].rp.is_some() {
                    series.names.push(format!("session.{}.cr", nodes[s.host as usize].name));
                    series.probes.push(Probe::Session(i as u32));
                }
            }
            for p in 0..ports.len() {
                if nodes[ports[p].node as usize].kind == NodeKind::Switch {
                    series.names.push(format!("q.{}", port_name(&ports, p)));
                    series.probes.push(Probe::Queue(p as u32));
                }
            }
            for (i, f) in flows.iter().enumerate() {
                for (j, r) in f.receivers.iter().enumerate() {
                    series.names.push(format!("rx.{}>{}", f.name, nodes[r.host as usize].name));
                    series.probes.push(Probe::Rx(i as u32, j as u32));
                }
            }
        }

        let mut queue = EventQueue::default();
        queue.push(simc.measure_from.0, Event::WindowStart);
        if simc.record_interval.0 > 0 {
            queue.push(0, Event::Record);
        }
        for (i, s) in senders.iter().enumerate() {
            if s.start < simc.duration.0 && s.start < s.stop {
                queue.push(s.start, Event::AppTick { sender: i as u32 });
            }
        }
        Ok(Sim {
            now: 0,
            duration: simc.duration.0,
            measure_from: simc.measure_from.0,
            record_interval: simc.record_interval.0,
            max_events: simc.max_events,
            max_wall_ns: simc.max_wall_time.0 / 1000,
            wall_used_ns: 0,
            max_series_bytes: simc.max_series_memory.0,
            seed: simc.seed,
            frame_size,
            events: 0,
            stopped_by: None,
            queue,
            frames: Arena::default(),
            nodes,
            ports,
            senders,
            flows,
            next_port,
            mcast,
            mcast_ports,
            c: Default::default(),
            c_w0: Default::default(),
            series,
            scenario_path: loaded.path.clone(),
            resolved_toml: loaded.resolved_toml(),
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn new_port(u: usize, v: usize, peer: u32, rate: u64, delay: Time, overhead: u32, capacity: Amount, frame: u64) -> Port {
    let cap_frames = capacity.bytes(frame) / frame.max(1);
    Port {
        node: u as u32,
        peer_node: v as u32,
        peer_port: peer,
        rate_bps: rate,
        delay,
        overhead,
        capacity,
        queue: VecDeque::with_capacity(cap_frames.min(4096) as usize),
        qbytes: 0,
        busy_until: 0,
        txdone_pending: false,
        cp: None,
        c: Default::default(),
        c_w0: Default::default(),
        q: TimeAvg::new(0.0),
        busy_window: 0,
        peak_frames: 0,
        peak_bytes: 0,
    }
}

fn check_capacity(p: &Port) -> Result<(), String> {
    match p.capacity {
        Amount::Frames(0) | Amount::Bytes(0) => Err("queue capacity must be positive".into()),
        _ => Ok(()),
    }
}

/// Expand both sides of "A>B" (each may be a range) into all pairs.
fn cross(u: &str, v: &str) -> Result<Vec<(String, String)>, String> {
    let (us, vs) = (expand(u)?, expand(v)?);
    Ok(us.iter().flat_map(|a| vs.iter().map(move |b| (a.clone(), b.clone()))).collect())
}

fn traffic(t: &TrafficSpec, line_rate: u64, overhead: u32) -> Result<TrafficGen, String> {
    let frame = t.frame.0;
    if frame == 0 {
        return Err("traffic.frame must be positive".into());
    }
    match t.kind {
        TrafficKind::Cbr | TrafficKind::Poisson => {
            let rate = t.rate.ok_or("traffic.rate is required for cbr and poisson")?.0;
            if rate == 0 {
                return Err("traffic.rate must be positive".into());
            }
            if t.load.is_some() {
                return Err("traffic.load is for bernoulli traffic; give a rate".into());
            }
            let gap = pace_time(frame, rate as f64);
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
    }
}
