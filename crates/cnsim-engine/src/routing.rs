//! Forwarding computed once from the topology (PROTOCOLS.md §1): shortest paths in hops with a
//! deterministic tie-break by node name; multicast over the shortest-path tree from each source.
//! Hosts never forward: paths run through switches only.

use crate::net::{Node, NodeKind, Port, NONE};
use std::collections::VecDeque;

/// Hop distances from `root`, expanding only through switches (and the root itself).
fn bfs(nodes: &[Node], ports: &[Port], root: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; nodes.len()];
    dist[root] = 0;
    let mut q = VecDeque::from([root]);
    while let Some(u) = q.pop_front() {
        if u != root && nodes[u].kind == NodeKind::Host {
            continue;
        }
        for &p in &nodes[u].ports {
            let v = ports[p as usize].peer_node as usize;
            if dist[v] == u32::MAX {
                dist[v] = dist[u] + 1;
                q.push_back(v);
            }
        }
    }
    dist
}

/// Among `u`'s ports, the one to the neighbour one hop closer to the root (smallest name on ties);
/// that neighbour must be able to forward (a switch) unless it is the root.
fn toward(nodes: &[Node], ports: &[Port], dist: &[u32], u: usize, root: usize) -> u32 {
    let mut best: Option<(&str, u32)> = None;
    for &p in &nodes[u].ports {
        let v = ports[p as usize].peer_node as usize;
        let usable = v == root || nodes[v].kind == NodeKind::Switch;
        if usable && dist[u] != u32::MAX && dist[v] + 1 == dist[u] {
            let name = nodes[v].name.as_str();
            if best.is_none_or(|(b, _)| name < b) {
                best = Some((name, p));
            }
        }
    }
    best.map_or(NONE, |(_, p)| p)
}

/// `next_port[node * n + dst]` for every host destination (NONE where unreachable).
pub fn unicast(nodes: &[Node], ports: &[Port]) -> Vec<u32> {
    let n = nodes.len();
    let mut table = vec![NONE; n * n];
    for d in (0..n).filter(|&d| nodes[d].kind == NodeKind::Host) {
        let dist = bfs(nodes, ports, d);
        for u in (0..n).filter(|&u| u != d) {
            table[u * n + d] = toward(nodes, ports, &dist, u, d);
        }
    }
    table
}

/// The (node, output port) pairs of the shortest-path tree from `src` to `members`; Err(member)
/// names the first member that cannot be reached.
pub fn multicast_tree(nodes: &[Node], ports: &[Port], src: usize, members: &[usize]) -> Result<Vec<(usize, u32)>, usize> {
    let dist = bfs(nodes, ports, src);
    let mut edges: Vec<(usize, u32)> = Vec::new();
    for &m in members.iter().filter(|&&m| m != src) {
        if dist[m] == u32::MAX {
            return Err(m);
        }
        // Walk from the member up to the source; the parent's port towards the child is a tree edge.
        let mut v = m;
        while v != src {
            let up = toward(nodes, ports, &dist, v, src);
            let parent = ports[up as usize].peer_node as usize;
            let down = ports[up as usize].peer_port;
            if !edges.contains(&(parent, down)) {
                edges.push((parent, down));
            }
            v = parent;
        }
    }
    edges.sort_unstable();
    Ok(edges)
}
