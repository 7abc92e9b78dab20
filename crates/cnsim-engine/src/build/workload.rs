//! `[[workload]]` tables → finite flows (docs/scenarios.md, workloads): Poisson arrivals of
//! transfers at an offered load with sizes from a CDF, as the datacenter transport papers evaluate
//! (DCTCP, Alizadeh et al. SIGCOMM 2010 §4.3; pFabric, Alizadeh et al. SIGCOMM 2013 §5), or a
//! periodic incast. Each table's draws become `[[flow]]` entries handed to `traffic.rs` one at a
//! time (a table's entries never all exist at once), so a generated flow is exactly a flow one
//! could write by hand. Linear in the flows made; deterministic per seed (one stream per workload
//! and source host, `core/rng.rs`), so a check keeps no draws and draws them again (`Table::each`).

use super::budget::Part;
use super::flow_bytes::DRAW_BYTES;
use super::cdf::{Cdf, BUILTIN};
use super::{Ctx, R};
use crate::core::rng::Rng;
use crate::core::time::{Time, PS_PER_S};
use crate::net::node::{Node, NodeKind};
use crate::registry::protocols::occupants;
use crate::registry::Port;
use crate::scenario::*;
use crate::units::{Bytes, Duration};

/// One drawn flow of a table: (source, destination, size, start).
pub type Draw = (usize, usize, u64, Time);

/// One `[[workload]]` table, checked, with its flows drawn: kept (`keep`: a run's build), or only
/// counted and charged (a check's), to be drawn again, the same, by [`Table::each`].
pub struct Table<'a> {
    w: &'a WorkloadSpec,
    /// Its flows are named `PREFIX#k`.
    pub prefix: String,
    /// How many flows it makes.
    pub len: usize,
    draws: Vec<Draw>,
    how: How,
    seed: u64,
}

/// How a table draws its flows (the parameters `draw` checked).
enum How {
    Incast { rx: usize, candidates: Vec<usize>, senders: usize, rounds: u64, period: Time, size: u64, start: Time },
    /// Per source host (its index in `hosts`) its mean gap between arrivals, in ps.
    Poisson { hosts: Vec<usize>, names: Vec<String>, mean_gaps: Vec<f64>, cdf: Cdf, start: Time, stop: Time },
}

impl Table<'_> {
    /// Its `k`-th flow (from the kept draws), as the `[[flow]]` entry one would write by hand.
    pub fn flow(&self, k: usize, nodes: &[Node]) -> FlowSpec {
        self.flow_of(k, self.draws[k], nodes)
    }

    /// Its `k`-th flow, drawn as `d`, as the `[[flow]]` entry one would write by hand.
    pub fn flow_of(&self, k: usize, d: Draw, nodes: &[Node]) -> FlowSpec {
        let (s, dst, size, t) = d;
        flow(self.w, &self.prefix, k, &nodes[s].name, &nodes[dst].name, size, t, self.w.hosts.span())
    }

    /// The span its flows are blamed at (its `hosts`).
    pub fn span(&self) -> std::ops::Range<usize> {
        self.w.hosts.span()
    }

    /// Each of its flows, drawn again in order from its random streams (the draws `draw` made).
    pub fn each(&self, mut f: impl FnMut(usize, Draw) -> R<()>) -> R<()> {
        generate(&self.how, self.seed, &self.prefix, |k, d| f(k, d))
    }
}

/// The draws of `how`, in order, each handed to `f` with its index.
fn generate(how: &How, seed: u64, prefix: &str, mut f: impl FnMut(usize, Draw) -> R<()>) -> R<()> {
    let mut k = 0;
    match how {
        How::Incast { rx, candidates, senders, rounds, period, size, start } => {
            let mut rng = Rng::stream(seed, "workload", prefix);
            let mut pool = candidates.clone();
            for r in 0..*rounds {
                let t = start + r * period;
                // A partial Fisher–Yates shuffle: `senders` distinct hosts, uniformly.
                for j in 0..*senders {
                    let last = pool.len() - 1;
                    let i = j + (rng.uniform() * (pool.len() - j) as f64) as usize;
                    pool.swap(j, i.min(last));
                    f(k, (pool[j], *rx, *size, t))?;
                    k += 1;
                }
            }
        }
        How::Poisson { hosts, names, mean_gaps, cdf, start, stop } => {
            for (i, &s) in hosts.iter().enumerate() {
                let mut rng = Rng::stream(seed, "workload", &format!("{prefix}:{}", names[i]));
                let mean_gap = mean_gaps[i];
                let mut t = *start as f64 + rng.exp(mean_gap);
                while t < *stop as f64 {
                    // Uniform among the other hosts: draw from n − 1 and skip the source.
                    let mut d = (rng.uniform() * (hosts.len() - 1) as f64) as usize;
                    d = d.min(hosts.len() - 2);
                    if d >= i {
                        d += 1;
                    }
                    f(k, (s, hosts[d], cdf.sample(&mut rng), t as Time))?;
                    k += 1;
                    t += rng.exp(mean_gap);
                }
            }
        }
    }
    Ok(())
}

/// The `index`-th `[[workload]]` table, checked and its flows drawn (kept if `keep`).
pub fn draw<'a>(ctx: &'a Ctx, nodes: &[Node], ports: &[Port], index: usize, keep: bool) -> R<Table<'a>> {
    let w = &ctx.loaded.scenario.workloads[index];
    let span = w.hosts.span();
    let prefix = w.name.clone().unwrap_or_else(|| format!("workload{}", index + 1));
    let err = |m: String| ctx.err(span.clone(), format!("workload {prefix}: {m}"));
    let hosts = ctx.nodes(&w.hosts)?;
    for &h in &hosts {
        if nodes[h].kind != NodeKind::Host || nodes[h].ports.is_empty() {
            return Err(err(format!("{} is not a host with a link", nodes[h].name)));
        }
    }
    if !w.traffic.get_ref().is_transfer() {
        return Err(ctx.err(w.traffic.span(), format!("workload {prefix}: traffic must be {}", TrafficKind::transfer_names())));
    }
    let (start, stop) = (w.start.0, w.stop.get_ref().0);
    if stop <= start {
        return Err(ctx.err(w.stop.span(), format!("workload {prefix}: stop must be later than start")));
    }
    // Legal, but surely not meant: a table that starts after the run, or sends faster than a link.
    let duration = ctx.loaded.scenario.simulation.duration;
    if start >= duration.0 {
        ctx.warn(Some(span.clone()), format!("workload {prefix}: start = {} is not before the end of the run (simulation.duration = {duration}): it sends nothing", w.start));
    }
    if let Some(r) = w.rate {
        if let Some(&h) = hosts.iter().find(|&&h| r.0 > ports[nodes[h].ports[0] as usize].rate_bps) {
            let line = ports[nodes[h].ports[0] as usize].rate_bps;
            ctx.warn(Some(span.clone()), format!("workload {prefix}: rate = {} b/s is above the line rate of {}'s link ({line} b/s): frames wait at the source", r.0, nodes[h].name));
        }
    }
    let span_s = (stop - start) as f64 / PS_PER_S as f64;
    let max = *w.max_flows.get_ref();
    if max == 0 {
        return Err(ctx.err(w.max_flows.span(), format!("workload {prefix}: max_flows must be at least 1, got 0 (its largest value is what the memory budget allows)")));
    }
    let too_many = |n: f64| {
        let at = if w.max_flows.span().is_empty() { span.clone() } else { w.max_flows.span() };
        ctx.err(at, format!("workload {prefix} would create {n:.0} flows, more than max_flows = {max}: raise workload.max_flows or shorten [start, stop)"))
    };
    let seed = ctx.loaded.scenario.simulation.seed;
    let mut draws: Vec<Draw> = vec![];
    // Every draw is charged to the memory budget before it is made: the expected count at once (a
    // table that cannot fit is refused before anything is allocated), then any excess of the
    // random draws as it comes. (`traffic.rs` charges each flow as it makes it.)
    let mut charged = 0usize;
    let mut charge = |n: usize| -> R<()> {
        if n > charged {
            let more = (n - charged).max(CHARGE_STEP);
            ctx.budget.charge(Part::Flows, more.saturating_mul(DRAW_BYTES)).map_err(|m| err(format!("{m} (its generated flows)")))?;
            charged += more;
        }
        Ok(())
    };
    let how = if let Some(inc) = &w.incast {
        if w.sizes.is_some() || w.load.is_some() {
            return Err(err("an incast takes its size in `incast`: no sizes or load".into()));
        }
        let rx_name = inc.receiver.get_ref();
        let rx = *ctx.ids.get(rx_name).filter(|&&r| nodes[r].kind == NodeKind::Host).ok_or_else(|| ctx.err(inc.receiver.span(), format!("incast receiver {rx_name:?} is not a host")))?;
        let candidates: Vec<usize> = hosts.iter().copied().filter(|&h| h != rx).collect();
        if inc.senders == 0 || inc.senders as usize > candidates.len() {
            return Err(ctx.err(inc.receiver.span(), format!("incast.senders must be in 1..={} (the workload's hosts other than the receiver), got {}", candidates.len(), inc.senders)));
        }
        if inc.size.0 == 0 {
            return Err(err(format!("incast.size must be positive, got {}", inc.size)));
        }
        if inc.period.0 == 0 {
            return Err(err(format!("incast.period must be positive, got {}", inc.period)));
        }
        let rounds = (stop - start).div_ceil(inc.period.0);
        let n = rounds as f64 * inc.senders as f64;
        if n > max as f64 {
            return Err(too_many(n));
        }
        charge(n as usize)?;
        How::Incast { rx, candidates, senders: inc.senders as usize, rounds, period: inc.period.0, size: inc.size.0, start }
    } else {
        let (Some(sizes), Some(load)) = (&w.sizes, &w.load) else {
            return Err(err("give sizes (a CDF) and load, or an incast".into()));
        };
        let l = *load.get_ref();
        if !(l > 0.0 && l <= 1.0) {
            return Err(ctx.err(load.span(), format!("workload {prefix}: load must be in (0, 1], got {l}")));
        }
        let cdf = cdf(ctx, sizes)?;
        if hosts.len() < 2 {
            return Err(err("needs at least two hosts".into()));
        }
        // λ = load · link rate / (8 · mean size) flows per second at each source host.
        let lambda = |h: usize| l * ports[nodes[h].ports[0] as usize].rate_bps as f64 / (8.0 * cdf.mean());
        let expected: f64 = hosts.iter().map(|&h| lambda(h) * span_s).sum();
        if expected > max as f64 {
            return Err(too_many(expected));
        }
        charge(expected.ceil() as usize)?;
        let names = hosts.iter().map(|&h| nodes[h].name.clone()).collect();
        let mean_gaps = hosts.iter().map(|&h| PS_PER_S as f64 / lambda(h)).collect();
        How::Poisson { hosts, names, mean_gaps, cdf, start, stop }
    };
    // Each draw within max_flows and charged before it is kept (or counted).
    let mut len = 0;
    generate(&how, seed, &prefix, |k, d| {
        if k as u64 >= max {
            return Err(too_many(k as f64 + 1.0));
        }
        charge(k + 1)?;
        if keep {
            draws.push(d);
        }
        len = k + 1;
        Ok(())
    })?;
    Ok(Table { w, prefix, len, draws, how, seed })
}

/// Draws beyond the expected count are charged this many at a time.
const CHARGE_STEP: usize = 4096;

/// The CDF `sizes` names: a shipped one, or a file relative to the scenario file — read only if
/// it is a regular file (a FIFO or a device would block or never end) of at most `MAX_FILE_BYTES`.
fn cdf(ctx: &Ctx, sizes: &Spanned<String>) -> R<Cdf> {
    let name = sizes.get_ref();
    let at = |m: String| ctx.err(sizes.span(), m);
    if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| n == name) {
        return Cdf::parse(text, name).map_err(at);
    }
    let base = std::path::Path::new(&ctx.loaded.path).parent().unwrap_or(std::path::Path::new("."));
    let path = base.join(name);
    let shipped = BUILTIN.iter().map(|b| b.0).collect::<Vec<_>>().join(", ");
    let text = read_capped(&path, MAX_FILE_BYTES).map_err(|e| at(format!("sizes: {e}; the shipped distributions are {shipped}")))?;
    Cdf::parse(&text, &path.display().to_string()).map_err(at)
}

/// A CDF file's size cap: `MAX_POINTS` lines of two numbers, generously.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// The text of `path` if it is a regular file of at most `cap` bytes (checked before it is opened,
/// and again while it is read, in case it grows).
pub fn read_capped(path: &std::path::Path, cap: u64) -> Result<String, String> {
    use std::io::Read;
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown} ({e})"))?;
    if !meta.is_file() {
        return Err(format!("{shown} is not a regular file"));
    }
    if meta.len() > cap {
        return Err(format!("{shown} has {} bytes, more than the {cap} a CDF may have", meta.len()));
    }
    let mut text = String::new();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown} ({e})"))?;
    file.take(cap + 1).read_to_string(&mut text).map_err(|e| format!("cannot read {shown} ({e})"))?;
    if text.len() as u64 > cap {
        return Err(format!("{shown} grew past the {cap} bytes a CDF may have while it was read"));
    }
    Ok(text)
}

#[allow(clippy::too_many_arguments)]
fn flow(w: &WorkloadSpec, prefix: &str, k: usize, src: &str, dst: &str, size: u64, t: Time, span: std::ops::Range<usize>) -> FlowSpec {
    // A generated flow has the workload's transport (under its key, or an older one) and asks for
    // no router feedback: every registered protocol's table is absent.
    macro_rules! flow_spec {
        ([$($older:ident($oty:ty, $okey:ident),)*] $($variant:ident($ty:ty, $key:ident),)*) => {
            FlowSpec {
                name: Some(format!("{prefix}#{k}")),
                from: Spanned::new(span.clone(), Names(vec![src.to_string()])),
                to: Spanned::new(span.clone(), dst.to_string()),
                mode: None,
                traffic: TrafficSpec {
                    kind: *w.traffic.get_ref(),
                    rate: w.rate,
                    load: None,
                    burst: None,
                    idle: None,
                    size: Some(Bytes(size)),
                    connections: None,
                    shape: None,
                    phase: PhaseSpec::None,
                    frame: w.frame,
                },
                start: Some(Spanned::new(span, OneOrMany::One(Duration(t)))),
                stop: None,
                priority: w.priority,
                rp: w.rp.clone(),
                limiter: w.limiter.clone(),
                transport: w.transport.clone(),
                $($okey: w.$okey.clone(),)*
                $($key: None,)*
            }
        };
    }
    macro_rules! flow_spec_older {
        ($($older:ident($oty:ty, $okey:ident),)*) => {
            occupants!(RfSender => flow_spec [$($older($oty, $okey),)*])
        };
    }
    occupants!(OlderTransport => flow_spec_older)
}
