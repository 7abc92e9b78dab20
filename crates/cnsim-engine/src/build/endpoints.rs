//! `[[mcast_receiver]]` → multi-rate multicast endpoints: their congestion control (built by its
//! protocol, `protocols.rs`), their groups per level, the router-feedback table they read, and
//! their initial membership.

use super::protocols::{mcast_cc, RF_KEYS};
use super::{Ctx, R};
use crate::core::stats::TimeAvg;
use crate::registry::{Endpoint, Flow};
use crate::net::frame::NONE;
use crate::net::group::Group;
use crate::net::routing::McastTable;
use crate::slots::spec::McastCx;
use std::collections::HashMap;

pub fn endpoints(
    ctx: &Ctx,
    names: &HashMap<String, (usize, Vec<usize>)>,
    flows: &mut [Flow],
    groups: &mut [Group],
    mcast: &mut McastTable,
) -> R<Vec<Endpoint>> {
    let mut out: Vec<Endpoint> = vec![];
    for (session, spec) in ctx.loaded.scenario.mcast_receivers.iter().enumerate() {
        let span = spec.hosts.span();
        let gids: Vec<usize> = spec
            .groups
            .get_ref()
            .iter()
            .map(|g| names.get(g).map(|x| x.0).ok_or_else(|| ctx.err(spec.groups.span(), format!("unknown group {g:?}"))))
            .collect::<R<_>>()?;
        if gids.is_empty() || gids.len() > 64 {
            return Err(ctx.err(spec.groups.span(), "mcast_receiver.groups needs 1 to 64 groups"));
        }
        let level = spec.initial_level;
        if !(1..=gids.len()).contains(&level) {
            return Err(ctx.err(span.clone(), format!("initial_level must be in 1..={}, got {level}", gids.len())));
        }
        let gpos = gids.clone(); // group states are indexed like the groups
        for host in ctx.nodes(&spec.hosts)? {
            let h = host as u32;
            if out.iter().any(|e| e.host == h) {
                return Err(ctx.err(span.clone(), format!("{} runs two multicast receivers", ctx.loaded_name(host))));
            }
            let cc = mcast_cc(&spec.cc, &McastCx { levels: gids.len(), level }).map_err(|m| ctx.err(span.clone(), m))?;
            let (tick, cumulative) = (cc.tick(), cc.cumulative());
            let mut member = vec![];
            for (l, &g) in gpos.iter().enumerate() {
                let m = groups[g].member_index(h).ok_or_else(|| ctx.err(span.clone(), format!("{} is not a member of group {:?}", ctx.loaded_name(host), groups[g].name)))?;
                if groups[g].flows.is_empty() {
                    return Err(ctx.err(spec.groups.span(), format!("no multicast flow is sent to group {:?}", groups[g].name)));
                }
                member.push(m as u32);
                // Initial membership: the initial level's group(s) only.
                let want = if cumulative { l < level } else { l + 1 == level };
                if groups[g].joined[m] != want {
                    for &f in &groups[g].flows {
                        mcast.member(f as usize, h, want);
                    }
                }
                groups[g].joined[m] = want;
                groups[g].want[m] = want;
            }
            let e = out.len() as u32;
            let mut table = None;
            for &g in &gpos {
                for &f in &groups[g].flows {
                    for r in flows[f as usize].receivers.iter_mut().filter(|r| r.host == h) {
                        r.endpoint = e;
                        if table.is_none() {
                            table = r.rf.clone();
                        }
                    }
                }
            }
            if cc.needs_available_bandwidth() && table.is_none() {
                let keys = RF_KEYS.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" or ");
                return Err(ctx.err(span.clone(), format!("{} reads the path's available bandwidth from router feedback: give the channels' flows a {keys} table", cc.name())));
            }
            out.push(Endpoint {
                host: h,
                groups: gpos.iter().map(|&g| g as u32).collect(),
                member,
                cumulative,
                cc,
                tick,
                timer: NONE,
                session: session as u32,
                rf: table,
                lost: 0,
                received: 0,
                lost_total: 0,
                received_total: 0,
                bytes: 0,
                bytes_w0: 0,
                since: 0,
                level: TimeAvg::new(level as f64),
            });
        }
    }
    Ok(out)
}
