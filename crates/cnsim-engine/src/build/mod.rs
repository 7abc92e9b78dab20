//! Scenario → simulator, one concern per file: `topology.rs` (nodes, links, ports, overrides),
//! `protocols.rs` (each slot's table → its state machine), `traffic.rs` (flows, senders,
//! multicast trees), routing (`net/routing.rs`), `series.rs`; this file orders them and queues
//! the first events. Every semantic check happens here, before the run, and fails with an error
//! that names the place in the file.

pub mod budget;
mod check;
mod endpoints;
mod estimate;
mod flow_bytes;
pub(crate) mod protocols;
mod series;
mod topology;
mod traffic;
mod unmarked;
mod cdf;
mod workload;
#[cfg(test)]
pub(crate) mod routing_tests;
#[cfg(test)]
mod lazy_tests;

use crate::slots::transport::TransportTimer;
use crate::core::event::EventQueue;
use crate::core::timer::{TimerStep, Timers};
use crate::net::frame::NONE;
use crate::net::node::{Node, NodeKind};
use crate::net::routing::{McastTable, Routes};
use crate::net::telemetry::Telemetry;
use crate::scenario::*;
use crate::net::frame::Dest;
use crate::net::group::Group;
use crate::sim::{Event, Sim, TimerOwner, MEMBERSHIP_JOIN, MEMBERSHIP_REQUEST};
use std::collections::HashMap;
use std::ops::Range;

pub(crate) type R<T> = Result<T, ScenarioError>;

/// Routing tables a scenario may need, in entries of 4 B (1 GB).
pub const MAX_ROUTE_ENTRIES: usize = 250_000_000;

pub(crate) struct Ctx<'a> {
    pub loaded: &'a Loaded,
    pub ids: HashMap<String, usize>,
    /// Each name range of the node tables (`"H1..H100000"`) → (its first node id, its names): its
    /// nodes are made in a row, so a link table naming it again needs neither its names nor their
    /// look-ups (a million hosts' took a second).
    pub ranges: HashMap<String, (usize, usize)>,
    pub budget: budget::Budget,
    /// Likely mistakes found while building (`Ctx::warn`), each with its file:line.
    pub warnings: std::cell::RefCell<Vec<String>>,
    /// Each warning's hash and its place in `warnings`, so that a repeated warning is found at
    /// once (a workload's flows may each warn: a search of the list per warning grew with their
    /// square).
    pub seen: std::cell::RefCell<HashMap<u64, usize>>,
    /// Told how the flows are coming along (`Progress`), if anyone listens.
    pub progress: std::cell::RefCell<Option<Progress<'a>>>,
}

/// Told, as the flows are made, (flows made, flows to make), every `PROGRESS_STEP` flows and
/// once all are made; answers false to stop the build (the user interrupted it).
pub type Progress<'h> = &'h mut dyn FnMut(usize, usize) -> bool;

/// Flows made between two calls of a `Progress`.
pub const PROGRESS_STEP: usize = 1 << 16;

impl Ctx<'_> {
    /// Tell the listener `made` of `of` flows are made (if `made` ends a step, or is all);
    /// Err if the build is to stop.
    pub fn tick(&self, made: usize, of: usize) -> R<()> {
        if made % PROGRESS_STEP != 0 && made != of {
            return Ok(());
        }
        if let Some(p) = self.progress.borrow_mut().as_mut() {
            if !p(made, of) {
                return Err(self.loaded.source().err(None, "the build was interrupted"));
            }
        }
        Ok(())
    }
    pub fn err(&self, span: Range<usize>, msg: impl std::fmt::Display) -> ScenarioError {
        self.loaded.source().err(Some(span), msg)
    }
    /// A likely mistake at a byte span of the file (None: the file): a warning, not an error.
    pub fn warn(&self, span: Option<Range<usize>>, msg: impl std::fmt::Display) {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        let at = self.loaded.source().err(span, msg).0;
        let mut w = self.warnings.borrow_mut();
        let h = BuildHasherDefault::<DefaultHasher>::default().hash_one(&at);
        let mut seen = self.seen.borrow_mut();
        match seen.get(&h) {
            Some(&i) if w[i] == at => return,
            Some(_) if w.contains(&at) => return, // two warnings of one hash: a search, as rare as they
            Some(_) => {}
            None => {
                seen.insert(h, w.len());
            }
        }
        w.push(at);
    }
    /// Where a message about the table holding `anchor` points: at the key it begins with
    /// (`rp.dcqcn.min_rate = …`), written in that table or inline below it, else at `anchor`.
    pub fn at_key(&self, anchor: Range<usize>, msg: &str) -> Range<usize> {
        self.loaded.source().key_near(anchor.start, topology::key_of(msg)).unwrap_or(anchor)
    }
    /// As [`Ctx::at_key`], for a table that may take the key from `[defaults]` (a link's queue).
    pub fn at_key_or_defaults(&self, anchor: Range<usize>, msg: &str) -> Range<usize> {
        let src = self.loaded.source();
        let key = topology::key_of(msg);
        src.key_near(anchor.start, key)
            .or_else(|| src.key_under("defaults", key))
            .or_else(|| src.path_span(&format!("defaults.{key}")))
            .unwrap_or(anchor)
    }
    /// Expand a name list into node ids, every name known.
    pub fn nodes_of(&self, names: &Names, span: Range<usize>) -> R<Vec<usize>> {
        let mut out = vec![];
        for n in &names.0 {
            if let Some(&(first, count)) = self.ranges.get(n) {
                out.extend(first..first + count);
                continue;
            }
            for n in expand(n).map_err(|m| self.err(span.clone(), m))? {
                out.push(*self.ids.get(&n).ok_or_else(|| self.err(span.clone(), format!("unknown node {n:?}")))?);
            }
        }
        Ok(out)
    }
    pub fn nodes(&self, names: &Spanned<Names>) -> R<Vec<usize>> {
        self.nodes_of(names.get_ref(), names.span())
    }
    /// The name of node `i` (for messages).
    pub fn loaded_name(&self, i: usize) -> String {
        self.ids.iter().find(|(_, &v)| v == i).map_or_else(|| format!("node {i}"), |(k, _)| k.clone())
    }
}

fn check_simulation(loaded: &Loaded) -> R<()> {
    let src = loaded.source();
    let simc = &loaded.scenario.simulation;
    if simc.duration.0 == 0 {
        return Err(src.key_err("simulation", "duration", "simulation.duration must be positive"));
    }
    if simc.measure_from.0 >= simc.duration.0 {
        return Err(src.key_err("simulation", "measure_from", "simulation.measure_from must be earlier than simulation.duration"));
    }
    protocols::frame_size(simc.frame_size, "simulation.frame_size").map_err(|m| src.key_err("simulation", "frame_size", m))?;
    Ok(())
}

/// Where a flow-control message points: at the key it names (`flow_control.pfc.xoff …`), else at
/// the nearest table the file has, else at the first `flow_control` of the text.
pub(crate) fn fc_span(loaded: &Loaded, m: &str) -> Option<Range<usize>> {
    loaded.source().path_span(topology::key_of(m)).or_else(|| loaded.text.find("flow_control").map(|i| i..i + "flow_control".len()))
}

/// A flow-control error at [`fc_span`].
pub(crate) fn fc_err(loaded: &Loaded, m: String) -> ScenarioError {
    loaded.source().err(fc_span(loaded, &m), m)
}

/// Unicast routes for every end of a flow; each unicast pair must be reachable.
fn routes(ctx: &Ctx, nodes: &[Node], ports: &[crate::registry::Port], needs: &traffic::Needs) -> R<Routes> {
    let size = Routes::size_for(nodes, ports, &needs.ends);
    if size > MAX_ROUTE_ENTRIES {
        return Err(ctx.loaded.source().err(None, format!("routing would need {size} table entries (more than {MAX_ROUTE_ENTRIES}): too many flow end points for this topology")));
    }
    ctx.budget.charge(budget::Part::Routes, size.saturating_mul(4) + nodes.len() * 20).map_err(|m| ctx.loaded.source().err(None, m))?;
    let routing = &ctx.loaded.scenario.routing;
    // ECMP's hash seed comes from the run's seed (never from a stream another entity uses).
    let salt = routing.ecmp.then(|| crate::core::rng::Rng::stream(ctx.loaded.scenario.simulation.seed, "ecmp", "").next_u64());
    let routes = Routes::build(nodes, ports, &needs.ends, salt);
    // The equal-cost sets are known once built (deduplicated, they are small next to the table).
    ctx.budget.charge(budget::Part::Routes, routes.set_bytes()).map_err(|m| ctx.loaded.source().err(None, m))?;
    for (s, d, span) in &needs.pairs {
        // Every equal-cost choice leads to `d`: any flow id tells whether it is reachable.
        if routes.next_port(*s, *d, 0) == crate::net::frame::NONE {
            return Err(ctx.err(span.clone(), format!("{} is not reachable from {}", nodes[*d].name, nodes[*s].name)));
        }
    }
    Ok(routes)
}

/// An event queued before the run starts.
type Scheduled = (crate::core::time::Time, Event);

/// Groups with their initial members joined (their branches active) and the scheduled requests.
fn membership(
    ctx: &Ctx,
    groups: &HashMap<String, (usize, Vec<usize>)>,
    flows: &[crate::registry::Flow],
    mcast: &mut McastTable,
) -> R<(Vec<Group>, Vec<Scheduled>)> {
    let mut out: Vec<Option<Group>> = (0..groups.len()).map(|_| None).collect();
    let mut changes = vec![];
    for spec in &ctx.loaded.scenario.groups {
        let (gi, members) = &groups[spec.name.get_ref()];
        let members: Vec<u32> = members.iter().map(|&m| m as u32).collect();
        let index: HashMap<usize, usize> = members.iter().enumerate().map(|(i, &m)| (m as usize, i)).collect();
        let in_group = |names: &Spanned<Names>| -> R<Vec<usize>> {
            ctx.nodes(names)?
                .into_iter()
                .map(|h| index.get(&h).copied().ok_or_else(|| ctx.err(names.span(), format!("{} is not a member of group {:?}", ctx.loaded_name(h), spec.name.get_ref()))))
                .collect()
        };
        let joined: Vec<bool> = match &spec.joined {
            None => vec![true; members.len()],
            Some(names) => {
                let mut j = vec![false; members.len()];
                for m in in_group(names)? {
                    j[m] = true;
                }
                j
            }
        };
        let gflows: Vec<u32> = (0..flows.len() as u32).filter(|&f| flows[f as usize].dst == Dest::Group(*gi as u32) && flows[f as usize].mode == "multicast").collect();
        for (m, &j) in joined.iter().enumerate() {
            if j {
                for &f in &gflows {
                    mcast.member(f as usize, members[m], true);
                }
            }
        }
        for c in &spec.change {
            for (names, join) in [(&c.join, true), (&c.leave, false)] {
                if let Some(names) = names {
                    for m in in_group(names)? {
                        changes.push((c.at.0, Event::Membership { group: *gi as u32, member: m as u32 | MEMBERSHIP_REQUEST | if join { MEMBERSHIP_JOIN } else { 0 } }));
                    }
                }
            }
        }
        out[*gi] = Some(Group {
            name: spec.name.get_ref().clone(),
            by_host: Group::by_host(&members),
            members,
            flows: gflows,
            want: joined.clone(),
            joined,
            join_latency: spec.join_latency.0,
            leave_latency: spec.leave_latency.0,
            joins: 0,
            leaves: 0,
        });
    }
    Ok((out.into_iter().flatten().collect(), changes))
}

/// What a check keeps of the workload flows it dropped (`check.rs`), for `lint`: per port whether
/// some dropped flow carries data over it, with a reaction point; the largest frame they send.
pub(crate) struct Carried {
    pub carried: Vec<bool>,
    pub fed: Vec<bool>,
    pub largest_frame: Option<u32>,
}

impl Sim {
    pub fn build(loaded: &Loaded) -> R<Sim> {
        Ok(Sim::build_for(loaded, true, None)?.0)
    }

    /// As [`Sim::build`], telling `progress` how the flows come along (it may stop the build).
    pub fn build_with<'a>(loaded: &'a Loaded, progress: Progress<'a>) -> R<Sim> {
        Ok(Sim::build_for(loaded, true, Some(progress))?.0)
    }

    /// The resolved scenario and its likely mistakes (`lint`), exactly as a run's build gives them,
    /// with each workload flow checked as it is built and then dropped (`check.rs`).
    pub fn check<'a>(loaded: &'a Loaded, progress: Option<Progress<'a>>) -> R<(String, Vec<String>)> {
        let (sim, carried) = Sim::build_for(loaded, false, progress)?;
        let lint = sim.lint_with(carried);
        Ok((sim.resolved_toml, lint))
    }

    /// A run's build (`keep`: every flow kept), or a check's.
    fn build_for<'a>(loaded: &'a Loaded, keep: bool, progress: Option<Progress<'a>>) -> R<(Sim, Option<Carried>)> {
        let t0 = std::time::Instant::now();
        let sc = &loaded.scenario;
        let simc = &sc.simulation;
        check_simulation(loaded)?;
        let mut fc_warn = vec![];
        let fc = protocols::flow_control(&sc.flow_control, simc.frame_size.0, None, &mut fc_warn).map_err(|m| fc_err(loaded, m))?;
        estimate::check(loaded, fc.as_ref())?;
        let mut ctx = Ctx { loaded, ids: HashMap::new(), ranges: HashMap::new(), budget: budget::Budget::new(simc.max_memory.0), warnings: Default::default(), seen: Default::default(), progress: std::cell::RefCell::new(progress) };
        fc_warn.into_iter().for_each(|w| ctx.warn(fc_span(loaded, &w), w));
        // (Only when the file sets it: the default with a short run is no mistake.)
        let set = loaded.source().path_span("simulation.record_interval").filter(|s| !s.is_empty() && loaded.text[s.clone()] == *"record_interval");
        if let Some(at) = set.filter(|_| simc.record_interval.0 > simc.duration.0) {
            ctx.warn(Some(at), format!("simulation.record_interval = {} is longer than simulation.duration = {}: the series hold one sample", simc.record_interval, simc.duration));
        }
        let mut nodes = topology::nodes(&mut ctx)?;
        let mut ports = topology::links(&ctx, &mut nodes, fc.as_ref())?;
        topology::port_settings(&ctx, &nodes, &mut ports, fc.as_ref())?;
        let groups = topology::groups(&ctx, &nodes)?;
        let (mut tr, dropped) = traffic::flows(&ctx, &nodes, &ports, &groups, keep)?;
        let routes = routes(&ctx, &nodes, &ports, &tr.needs)?;
        let mut mcast = McastTable::new(tr.flows.len());
        for (f, edges) in &tr.needs.trees {
            mcast.set(*f, edges);
        }
        for (f, host, edges) in &tr.needs.branches {
            mcast.set_branch(*f, *host, edges);
        }
        mcast.sort_branches();
        let (mut group_state, changes) = membership(&ctx, &groups, &tr.flows, &mut mcast)?;
        let mut endpoints = endpoints::endpoints(&ctx, &groups, &mut tr.flows, &mut group_state, &mut mcast)?;
        unmarked::warn(&ctx, &nodes, &ports, &tr.flows, &tr.spans, &routes, &mcast);
        let carried = match dropped {
            Some(d) => {
                let mut c = Carried { carried: vec![false; ports.len()], fed: vec![false; ports.len()], largest_frame: d.largest_frame };
                d.walk(&ctx, &nodes, &ports, &routes, &mut c.carried, &mut c.fed)?;
                Some(c)
            }
            None => None,
        };

        // Timers: one per flow with an RP; per port, pause resume and flow-control refresh.
        let mut timers = Timers::default();
        let mut timer_owner = vec![];
        let mut add_timer = |owner: TimerOwner| {
            timer_owner.push(owner);
            timers.add()
        };
        for (i, f) in tr.flows.iter_mut().enumerate() {
            if f.rp.is_some() {
                f.timer = add_timer(TimerOwner::FlowRp(i as u32));
            }
            if f.transport.is_some() {
                f.transport_timers = [TransportTimer::Rto, TransportTimer::DelAck, TransportTimer::App, TransportTimer::Pace]
                    .map(|t| add_timer(TimerOwner::FlowTransport(i as u32, t)));
            }
        }
        for (i, p) in ports.iter_mut().enumerate() {
            if p.osc.is_some() {
                p.osc_timer = add_timer(TimerOwner::PortRate(i as u32));
            }
        }
        for (i, e) in endpoints.iter_mut().enumerate() {
            e.timer = add_timer(TimerOwner::Endpoint(i as u32));
        }
        if fc.is_some() {
            for (i, p) in ports.iter_mut().enumerate() {
                p.hold_timer = add_timer(TimerOwner::PortResume(i as u32));
                if let Some(c) = &mut p.fc {
                    c.refresh_timer = add_timer(TimerOwner::PortFc(i as u32));
                }
            }
        }

        let series = if simc.record_interval.0 > 0 { series::series(&nodes, &ports, &tr.flows, &tr.sessions, &endpoints) } else { Default::default() };
        // Equal-time events in a permutation drawn from the seed (never key 0, which means FIFO).
        let mut queue = match simc.tie_order {
            TieOrder::Seeded => EventQueue::with_tie_key(crate::core::rng::Rng::stream(simc.seed, "ties", "").next_u64() | 1),
            TieOrder::Fifo => EventQueue::default(),
        };
        queue.push(simc.measure_from.0, Event::WindowStart);
        if simc.record_interval.0 > 0 {
            queue.push(0, Event::Record);
        }
        for p in &ports {
            if let Some(o) = &p.osc {
                if let TimerStep::Queue(at, gen) = timers.arm(p.osc_timer, o.from) {
                    queue.push_slow(at, Event::Timer { id: p.osc_timer, gen });
                }
            }
        }
        for e in &endpoints {
            if let TimerStep::Queue(at, gen) = timers.arm(e.timer, e.tick) {
                queue.push_slow(at, Event::Timer { id: e.timer, gen });
            }
        }
        for (at, ev) in changes {
            if at < simc.duration.0 {
                queue.push_slow(at, ev);
            }
        }
        for (i, s) in tr.senders.iter().enumerate() {
            if s.start >= simc.duration.0 || s.start >= s.stop {
                continue;
            }
            if s.closed_loop {
                // Each connection's application starts on its timer; TCP then decides when frames go.
                for f in tr.flows[s.flows.start as usize..s.flows.end as usize].iter().filter(|f| f.transport.is_some()) {
                    let app = f.transport_timers[TransportTimer::App as usize];
                    if let TimerStep::Queue(at, gen) = timers.arm(app, s.start) {
                        queue.push_slow(at, Event::Timer { id: app, gen });
                    }
                }
            } else {
                queue.push_slow_run(s.start, Event::AppTick { sender: i as u32 });
            }
        }
        // Lazy delivery (sim/switch.rs): decided once the slots are all in place.
        let mut flows = tr.flows;
        for (i, f) in flows.iter_mut().enumerate() {
            if let crate::net::frame::Dest::Node(d) = f.dst {
                f.src_port = routes.next_port(f.src as usize, d as usize, i as u32);
            }
            f.passive_rx = f.transport.is_none() && f.receivers.iter().all(|r| r.endpoint == NONE && r.rf.is_none() && r.np.is_none());
        }
        // Only a passive flow's frames are delivered lazily: without one no port is lazy, and
        // `deliver_all` visits none of a million idle host ports at every chunk and record tick.
        let any_passive = flows.iter().any(|f| f.passive_rx);
        for p in &mut ports {
            p.lazy_rx = any_passive && nodes[p.peer_node as usize].kind == NodeKind::Host && p.loss.is_none();
        }
        let lazy_ports: Vec<u32> = (0..ports.len() as u32).filter(|&i| ports[i as usize].lazy_rx).collect();
        let telemetry = telemetry(&nodes, &ports, &flows);
        let sim = Sim {
            now: 0,
            duration: simc.duration.0,
            measure_from: simc.measure_from.0,
            record_interval: simc.record_interval.0,
            max_events: simc.max_events,
            max_wall_ns: simc.max_wall_time.0 / 1000,
            wall_used_ns: 0,
            max_series_bytes: simc.max_series_memory.0,
            max_frames: simc.max_frames,
            seed: simc.seed,
            frame_size: simc.frame_size.0,
            events: 0,
            stopped_by: None,
            queue,
            frames: Default::default(),
            timers,
            timer_owner,
            nodes,
            ports,
            lazy_ports,
            senders: tr.senders,
            flows,
            sessions: tr.sessions,
            routes,
            mcast,
            groups: group_state,
            endpoints,
            fc,
            limited: 0,
            c: Default::default(),
            c_w0: Default::default(),
            series,
            scenario_path: loaded.path.clone(),
            resolved_toml: loaded.resolved_toml(),
            build_s: t0.elapsed().as_secs_f64(),
            build_warnings: ctx.warnings.into_inner(),
            tap: None,
            telemetry,
        };
        Ok((sim, carried))
    }
}

/// In-band telemetry (`net::telemetry`) when a flow's transport is a protocol that registers it:
/// those flows collect, at the output ports of forwarding nodes.
fn telemetry(nodes: &[Node], ports: &[crate::registry::Port], flows: &[crate::registry::Flow]) -> Option<Box<Telemetry>> {
    let asks = |name: &str| crate::registry::PROTOCOLS.iter().any(|p| p.telemetry && p.name.eq_ignore_ascii_case(name));
    let collects: Vec<bool> = flows.iter().map(|f| f.transport.as_ref().is_some_and(|t| asks(t.protocol()))).collect();
    if !collects.contains(&true) {
        return None;
    }
    let pushes = ports.iter().map(|p| nodes[p.node as usize].kind.forwards()).collect();
    Some(Box::new(Telemetry::new(collects, pushes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_is_kept_once_in_the_order_first_given() {
        let loaded = crate::scenario::load("[[host]]\nnames = [\"H1\"]\n", "s.toml", &[], None).unwrap();
        let ctx = Ctx { loaded: &loaded, ids: HashMap::new(), ranges: HashMap::new(), budget: budget::Budget::new(0), warnings: Default::default(), seen: Default::default(), progress: Default::default() };
        for k in [3, 1, 3, 2, 1, 3] {
            ctx.warn(None, format!("warning {k}"));
        }
        let w = ctx.warnings.into_inner();
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].ends_with("warning 3") && w[1].ends_with("warning 1") && w[2].ends_with("warning 2"), "{w:?}");
    }

    #[test]
    fn every_port_knows_what_its_peer_is() {
        let text = "[[host]]\nnames = [\"H1\", \"H2\"]\n[[switch]]\nnames = \"S\"\n[[router]]\nnames = \"R\"\n\
                    [[link]]\nbetween = [\"H1\", \"S\"]\n[[link]]\nbetween = [\"S\", \"R\"]\n[[link]]\nbetween = [\"R\", \"H2\"]\n";
        let s = crate::sim::Sim::build(&crate::scenario::load(text, "s.toml", &[], None).unwrap()).unwrap();
        let kinds: Vec<_> = s.ports.iter().map(|p| p.peer_kind).collect();
        assert!([NodeKind::Host, NodeKind::Switch, NodeKind::Router].iter().all(|k| kinds.contains(k)), "{kinds:?}");
        assert!(s.ports.iter().all(|p| p.peer_kind == s.nodes[p.peer_node as usize].kind));
    }
}
