//! `[[mcast_receiver]]` → multi-rate multicast endpoints: their congestion control (EMcast, RLM),
//! their groups per level, the SIRENS table they read, and their initial membership.

use super::{Ctx, R};
use crate::core::stats::TimeAvg;
use crate::registry::{Endpoint, Flow};
use crate::net::frame::NONE;
use crate::net::group::Group;
use crate::net::routing::McastTable;
use crate::protocols::emcast::{AddStep, Emcast, EmcastParams};
use crate::protocols::rlm::{Rlm, RlmParams};
use crate::registry::McastCc;
use crate::scenario::*;
use std::collections::HashMap;

fn cc(spec: &McastCcSpec, levels: usize, level: usize) -> Result<(McastCc, crate::core::time::Time, bool), String> {
    let pos = |x: f64, k: &str| if x.is_finite() && x > 0.0 { Ok(()) } else { Err(format!("{k} must be positive, got {x}")) };
    match spec {
        McastCcSpec::Emcast(s) => {
            pos(s.c3, "emcast.c3")?;
            if !(s.ratio >= 1.0 && s.ratio <= 16.0) {
                return Err(format!("emcast.ratio must be in [1, 16], got {}", s.ratio));
            }
            if s.interval.0 == 0 || s.rtt.0 == 0 || s.mtu.0 == 0 || s.base_rate.0 == 0 {
                return Err("emcast.interval, rtt, mtu and base_rate must be positive".into());
            }
            let p = EmcastParams {
                rates: (0..levels).map(|i| s.base_rate.0 as f64 * s.ratio.powi(i as i32)).collect(),
                interval: crate::core::time::to_secs(s.interval.0),
                c3: s.c3,
                rtt: crate::core::time::to_secs(s.rtt.0),
                mtu_bits: s.mtu.0 as f64 * 8.0,
                add: if s.add == EmcastAddSpec::One { AddStep::One } else { AddStep::While },
                own_rate_added: s.own_rate_added,
            };
            Ok((McastCc::Emcast(Emcast::new(p, level)), s.interval.0, false))
        }
        McastCcSpec::Rlm(s) => {
            if !(s.loss_threshold > 0.0 && s.loss_threshold <= 1.0) {
                return Err(format!("rlm.loss_threshold must be in (0, 1], got {}", s.loss_threshold));
            }
            let ok = (1.0..=100.0).contains(&s.alpha) && s.beta > 0.0 && s.beta <= 1.0 && s.gain > 0.0 && s.gain <= 1.0;
            if !ok {
                return Err("rlm: need alpha in [1, 100], beta and gain in (0, 1]".into());
            }
            if s.join_timer.0 == 0 || s.detection_timer.0 == 0 || s.tick.0 == 0 || s.max_join_timer.0 < s.join_timer.0 {
                return Err("rlm: join_timer, detection_timer and tick must be positive, max_join_timer ≥ join_timer".into());
            }
            let secs = crate::core::time::to_secs;
            let p = RlmParams {
                layers: levels,
                join_timer: secs(s.join_timer.0),
                max_join_timer: secs(s.max_join_timer.0),
                detection_timer: secs(s.detection_timer.0),
                loss_threshold: s.loss_threshold,
                alpha: s.alpha,
                beta: s.beta,
                g1: s.gain,
                g2: s.gain,
            };
            Ok((McastCc::Rlm(Rlm::new(p, level, 0)), s.tick.0, true))
        }
    }
}

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
            let (cc, tick, cumulative) = cc(&spec.cc, gids.len(), level).map_err(|m| ctx.err(span.clone(), m))?;
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
            if matches!(cc, McastCc::Emcast(_)) && table.is_none() {
                return Err(ctx.err(span.clone(), "emcast reads the available bandwidth from SIRENS: give the channels' flows a `sirens` table"));
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
