//! Multi-rate multicast receivers (`net/endpoint.rs`) in the event loop: loss counting from the
//! channels' sequence numbers, the router-feedback table, one evaluation per tick, and the joins
//! and leaves their congestion control asks for (`membership.rs`).

use super::Sim;
use crate::net::frame::{Dest, Frame, NONE};

impl Sim {
    /// A data frame `f` of flow `flow` reached host `node`, which runs endpoint `e` for it.
    pub(crate) fn on_endpoint_data(&mut self, e: u32, flow: u32, node: u32, f: &Frame) {
        let now = self.now;
        let ep = &mut self.endpoints[e as usize];
        ep.bytes += f.size as u64;
        if let Some(t) = &mut ep.rf {
            t.on_frame(f, now);
        }
        // Losses count only on the levels the receiver is subscribed to now.
        let Dest::Group(g) = f.dst else { return };
        let Some(l) = ep.groups.iter().position(|&x| x == g) else { return };
        if !ep.joined_levels(ep.cc.level()).contains(&(l + 1)) {
            return;
        }
        let Some(r) = self.flows[flow as usize].receivers.iter_mut().find(|r| r.host == node) else { return };
        if r.next_seq != NONE && f.seq > r.next_seq {
            ep.lost += (f.seq - r.next_seq) as u64;
        }
        if r.next_seq == NONE || f.seq >= r.next_seq {
            r.next_seq = f.seq.wrapping_add(1);
        }
        ep.received += 1;
    }

    /// Endpoint `e`'s evaluation: loss over the tick, the path's available bandwidth from its
    /// router-feedback table, a decision.
    pub(crate) fn on_endpoint_tick(&mut self, e: u32) {
        let now = self.now;
        let ep = &mut self.endpoints[e as usize];
        let (lost, got) = (std::mem::take(&mut ep.lost), std::mem::take(&mut ep.received));
        ep.lost_total += lost;
        ep.received_total += got;
        let loss = if lost + got > 0 {
            lost as f64 / (lost + got) as f64
        } else if now.saturating_sub(ep.since) >= 2 * ep.tick {
            1.0 // subscribed for two ticks and nothing arrived
        } else {
            0.0
        };
        let old = ep.cc.level();
        let avail = ep.rf.as_ref().and_then(|t| t.available_bps(now));
        let announce = ep.cc.on_tick(now, loss, avail);
        let new = ep.cc.level();
        let at = now + ep.tick;
        let timer = ep.timer;
        self.arm(timer, at);
        if new != old {
            self.set_level(e, old, new);
        }
        if let Some(l) = announce {
            // RLM's control group: the session's other receivers hear of the experiment.
            let session = self.endpoints[e as usize].session;
            for (i, other) in self.endpoints.iter_mut().enumerate() {
                if i as u32 != e && other.session == session {
                    other.cc.on_peer_experiment(l, now);
                }
            }
        }
    }

    /// Join the groups of `new`'s levels and leave those only `old` had.
    fn set_level(&mut self, e: u32, old: usize, new: usize) {
        let ep = &mut self.endpoints[e as usize];
        ep.since = self.now;
        ep.level.set(self.now, new as f64);
        let (before, after) = (ep.joined_levels(old), ep.joined_levels(new));
        let host = ep.host;
        let mut reqs = vec![];
        for l in after.clone().filter(|l| !before.contains(l)) {
            reqs.push((ep.groups[l - 1], ep.member[l - 1], true));
        }
        for l in before.filter(|l| !after.contains(l)) {
            reqs.push((ep.groups[l - 1], ep.member[l - 1], false));
        }
        for (g, m, join) in reqs {
            if join {
                // Sequence numbers start afresh on a (re)joined channel.
                for &f in &self.groups[g as usize].flows {
                    for r in self.flows[f as usize].receivers.iter_mut().filter(|r| r.host == host) {
                        r.next_seq = NONE;
                    }
                }
            }
            self.request_membership(g, m as usize, join);
        }
    }
}
