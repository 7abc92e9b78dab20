//! A three-tier fat tree's routes from its up-down structure, without a search (docs/performance.md,
//! "Scale"). In a fat tree (Al-Fares et al., SIGCOMM 2008, §3) every shortest path to an edge switch
//! climbs to a common ancestor and descends, so each node's equal-cost ports towards a pod are known
//! from its tier alone: up (every port to the tier above) unless the pod lies below it, down (its one
//! port into the pod, or to the edge switch) when it does. `net/routing.rs` fills a pod's class column
//! from these in one pass over the rows, where a search would visit every link of the fabric once
//! per pod: building the table takes time linear in the hosts rather than in k⁴.
//!
//! The shortcut is taken only when the fabric provably is such a tree, so that its routes are the
//! search's, entry by entry (`build/routing_tests.rs` compares them); any other topology keeps the
//! search. The conditions, checked in one pass over the links:
//! - every host hangs off one switch by one link (hosts have no routing row);
//! - the switches with hosts (edge) link only to switches without (aggregation), each at most once;
//!   edge switches with the same aggregation switches form a pod, and no two pods share one;
//! - an aggregation switch links to every edge switch of its pod, once, to no other edge switch and
//!   no aggregation switch; the rest of its links go to the remaining switches (core);
//! - a core switch links to exactly one aggregation switch of every pod, once each;
//! - with two pods or more, every aggregation switch has a core link.
//!
//! Then, towards an edge switch `t` of pod P (distances in hops): an aggregation switch of P is at 1,
//! on its link to `t`; another edge switch of P at 2, through every aggregation switch of P; a core
//! switch at 2, through its one link into P; an aggregation switch of another pod at 3, through every
//! core link (each core reaches P); an edge switch of another pod at 4, through every link up (its
//! aggregation switches are all at 3, and nothing else is nearer: the only links into P are the cores').

use super::frame::NONE;
use super::node::{Node, NodeKind};
use super::port::Port;
use super::Slots;
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tier {
    Host,
    Edge,
    Agg,
    Core,
}

/// Where a row's route towards a pod goes (`FatTree::hop`).
pub(super) enum Hop {
    /// Every port to the tier above.
    Up,
    /// This one port, to this neighbour.
    Port(usize, u32),
    /// The port(s) to the class's one target.
    Target,
    /// No route (the target itself), or a row whose entry is each target's own (an exception).
    None,
}

/// A recognised fat tree: each switch's tier and (edge and aggregation switches) pod.
pub(super) struct FatTree {
    tier: Vec<Tier>,
    /// Pod of each edge and aggregation switch (NONE otherwise).
    pod: Vec<u32>,
    pods: usize,
    /// Per core switch (its ordinal in `core`), per pod: (the aggregation switch it links to, its port).
    core: Vec<u32>,
    core_port: Vec<(u32, u32)>,
    /// Links the recognition read (part of the build's work, `Routes::work`).
    pub(super) work: usize,
}

impl FatTree {
    /// The fat tree `nodes` and `ports` form, or None when they are not one (the module's
    /// conditions). `attach`: each single-link host's switch (NONE for every other node); `links(u)`:
    /// `u`'s fabric links, as (peer, peer's port back), hosts on one link left out.
    pub(super) fn recognise<'a, S: Slots>(nodes: &[Node], ports: &[Port<S>], attach: &[(u32, u32, u32)], links: impl Fn(usize) -> &'a [(u32, u32)]) -> Option<FatTree> {
        let n = nodes.len();
        let mut t = FatTree { tier: vec![Tier::Core; n], pod: vec![NONE; n], pods: 0, core: vec![NONE; n], core_port: vec![], work: 0 };
        for (u, nd) in nodes.iter().enumerate() {
            if nd.kind == NodeKind::Host {
                if attach[u].0 == NONE {
                    return None; // a host with a row: not on one link to a switch
                }
                t.tier[u] = Tier::Host;
                t.tier[attach[u].0 as usize] = Tier::Edge;
            }
        }
        // Edge switches: their neighbours are the aggregation switches; a pod per neighbour set.
        let mut by_aggs: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut members: Vec<u32> = vec![];
        for u in 0..n {
            if t.tier[u] != Tier::Edge {
                continue;
            }
            let mut aggs: Vec<u32> = links(u).iter().map(|&(v, _)| v).collect();
            t.work += aggs.len();
            aggs.sort_unstable();
            if aggs.windows(2).any(|w| w[0] == w[1]) || aggs.iter().any(|&v| t.tier[v as usize] == Tier::Edge) {
                return None;
            }
            let pod = match by_aggs.get(&aggs) {
                Some(&p) => p,
                None => {
                    let p = members.len() as u32;
                    for &a in &aggs {
                        if t.pod[a as usize] != NONE {
                            return None; // two pods share an aggregation switch
                        }
                        t.pod[a as usize] = p;
                        t.tier[a as usize] = Tier::Agg;
                    }
                    members.push(0);
                    by_aggs.insert(aggs, p);
                    p
                }
            };
            t.pod[u] = pod;
            members[pod as usize] += 1;
        }
        t.pods = members.len();
        for u in 0..n {
            let peers = links(u);
            t.work += peers.len();
            match t.tier[u] {
                Tier::Agg => {
                    let (mut down, mut up) = (0, 0);
                    for &(v, _) in peers {
                        match t.tier[v as usize] {
                            Tier::Edge if t.pod[v as usize] == t.pod[u] => down += 1,
                            Tier::Core => up += 1,
                            _ => return None,
                        }
                    }
                    if down != members[t.pod[u] as usize] || (up == 0 && t.pods > 1) {
                        return None;
                    }
                }
                Tier::Core => {
                    let ord = t.core_port.len() / t.pods.max(1);
                    t.core[u] = ord as u32;
                    t.core_port.resize(t.core_port.len() + t.pods, (NONE, NONE));
                    for &p in &nodes[u].ports {
                        let v = ports[p as usize].peer_node;
                        if t.tier[v as usize] != Tier::Agg {
                            return None;
                        }
                        let slot = &mut t.core_port[ord * t.pods + t.pod[v as usize] as usize];
                        if slot.0 != NONE {
                            return None; // two links into one pod
                        }
                        *slot = (v, p);
                    }
                    if nodes[u].ports.len() != t.pods {
                        return None;
                    }
                }
                Tier::Edge | Tier::Host => {}
            }
        }
        Some(t)
    }

    /// The pod of an edge switch.
    pub(super) fn pod_of(&self, edge: usize) -> u32 {
        self.pod[edge]
    }

    /// Row `u`'s route towards the edge switches of `pod`; `alone` is the pod's one target when
    /// its class has a single member (with several, the rows of the pod's aggregation switches and
    /// of the members are each target's own exceptions: `Hop::None` here).
    pub(super) fn hop(&self, u: usize, pod: u32, alone: Option<usize>) -> Hop {
        match self.tier[u] {
            Tier::Edge if Some(u) == alone => Hop::None,
            Tier::Agg if self.pod[u] == pod => match alone {
                Some(_) => Hop::Target,
                None => Hop::None,
            },
            Tier::Edge | Tier::Agg => Hop::Up,
            Tier::Core => {
                let (v, p) = self.core_port[self.core[u] as usize * self.pods + pod as usize];
                Hop::Port(v as usize, p)
            }
            Tier::Host => Hop::None,
        }
    }

    /// `u`'s ports to the tier above, with the neighbour each leads to.
    pub(super) fn up<S: Slots>(&self, nodes: &[Node], ports: &[Port<S>], u: usize) -> Vec<(usize, u32)> {
        let above = match self.tier[u] {
            Tier::Edge => Tier::Agg,
            Tier::Agg => Tier::Core,
            _ => return vec![],
        };
        nodes[u].ports.iter().map(|&p| (ports[p as usize].peer_node as usize, p)).filter(|&(v, _)| self.tier[v] == above).collect()
    }
}
