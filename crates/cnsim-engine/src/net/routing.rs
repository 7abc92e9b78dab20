//! Forwarding computed once from the topology (docs/protocols.md §1): shortest paths in hops with a
//! deterministic tie-break by node name; multicast over the shortest-path tree from each source.
//! Hosts never forward: paths run through switches and routers only.
//!
//! Memory stays proportional to nodes × (routing targets), never nodes²: only hosts that are an
//! end of some flow are targets, and a host with a single link to a switch is reached through
//! that switch's column (the paths to it and to its switch agree everywhere but at the switch),
//! so a fat tree needs one column per edge switch. Each column is one breadth-first search.

use super::frame::NONE;
use super::node::{Node, NodeKind};
use super::port::Port;
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
        let usable = v == root || nodes[v].kind.forwards();
        if usable && dist[u] != u32::MAX && dist[v] != u32::MAX && dist[v] + 1 == dist[u] {
            let name = nodes[v].name.as_str();
            if best.is_none_or(|(b, _)| name < b) {
                best = Some((name, p));
            }
        }
    }
    best.map_or(NONE, |(_, p)| p)
}

/// Unicast next hops towards the routing targets.
#[derive(Default)]
pub struct Routes {
    /// Per host: (switch, that switch's port to the host) when the host hangs off one switch.
    attach: Vec<(u32, u32)>,
    /// Column of each node that is a routing target (NONE otherwise).
    col: Vec<u32>,
    ncols: usize,
    /// `next[node * ncols + col]`: the output port at `node` towards the column's target.
    next: Vec<u32>,
    /// Per destination: (attachment switch, its port to the host, column) — one load per hop.
    dest: Vec<(u32, u32, u32)>,
}

impl Routes {
    /// The node whose column serves destination `d`.
    fn target(&self, d: usize) -> usize {
        match self.attach[d] {
            (s, _) if s != NONE => s as usize,
            _ => d,
        }
    }

    /// Columns the routes of `dests` need, and the table's size in entries.
    pub fn size_for(nodes: &[Node], ports: &[Port], dests: &[usize]) -> usize {
        let r = Routes { attach: attachments(nodes, ports), ..Default::default() };
        let mut t: Vec<usize> = dests.iter().map(|&d| r.target(d)).collect();
        t.sort_unstable();
        t.dedup();
        t.len() * nodes.len()
    }

    /// Routes from every node to each host of `dests`.
    pub fn build(nodes: &[Node], ports: &[Port], dests: &[usize]) -> Routes {
        let n = nodes.len();
        let mut r = Routes { attach: attachments(nodes, ports), col: vec![NONE; n], ncols: 0, next: vec![], dest: vec![] };
        let mut targets: Vec<usize> = dests.iter().map(|&d| r.target(d)).collect();
        targets.sort_unstable();
        targets.dedup();
        r.ncols = targets.len();
        r.next = vec![NONE; n * r.ncols];
        for (c, &t) in targets.iter().enumerate() {
            r.col[t] = c as u32;
            let dist = bfs(nodes, ports, t);
            for u in (0..n).filter(|&u| u != t) {
                r.next[u * r.ncols + c] = toward(nodes, ports, &dist, u, t);
            }
        }
        r.dest = (0..n).map(|d| (r.attach[d].0, r.attach[d].1, r.col[r.target(d)])).collect();
        r
    }

    /// The output port at `u` towards host `d` (NONE when unreachable or not a target).
    #[inline]
    pub fn next_port(&self, u: usize, d: usize) -> u32 {
        let (s, p, c) = self.dest[d];
        if u == s as usize {
            return p;
        }
        if c == NONE || u == d {
            return NONE;
        }
        self.next[u * self.ncols + c as usize]
    }

    /// The nodes a frame from `s` to `d` visits, both ends included (None if unreachable).
    pub fn path(&self, ports: &[Port], s: usize, d: usize) -> Option<Vec<usize>> {
        let mut path = vec![s];
        let mut u = s;
        while u != d {
            let p = self.next_port(u, d);
            if p == NONE || path.len() > self.attach.len() {
                return None;
            }
            u = ports[p as usize].peer_node as usize;
            path.push(u);
        }
        Some(path)
    }

    /// Bytes the tables take.
    pub fn memory(&self) -> usize {
        4 * (self.next.len() + self.col.len() + 2 * self.attach.len() + 3 * self.dest.len())
    }
}

/// For each host with exactly one link, to a switch: (switch, the switch's port to the host).
fn attachments(nodes: &[Node], ports: &[Port]) -> Vec<(u32, u32)> {
    nodes
        .iter()
        .map(|nd| match nd.ports.as_slice() {
            [p] if nd.kind == NodeKind::Host => {
                let port = &ports[*p as usize];
                match nodes[port.peer_node as usize].kind {
                    NodeKind::Switch | NodeKind::Router => (port.peer_node, port.peer_port),
                    NodeKind::Host => (NONE, NONE),
                }
            }
            _ => (NONE, NONE),
        })
        .collect()
}

/// The shortest-path tree from `src` to `members` from one breadth-first search: the tree's (node,
/// output port) pairs, sorted, and each member's branch (the pairs from `src` down to it; members
/// other than `src`, in order). Err(member) names the first member that cannot be reached. Linear in
/// the network plus the branches' lengths, whatever the group's size.
#[allow(clippy::type_complexity)]
pub fn multicast_tree(nodes: &[Node], ports: &[Port], src: usize, members: &[usize]) -> Result<(Vec<(usize, u32)>, Vec<Vec<(usize, u32)>>), usize> {
    let dist = bfs(nodes, ports, src);
    // Each node's port towards the source, found once (a switch has many ports; branches share nodes).
    let mut up = vec![NONE; nodes.len()];
    let mut branches = Vec::with_capacity(members.len());
    for &m in members.iter().filter(|&&m| m != src) {
        if dist[m] == u32::MAX {
            return Err(m);
        }
        // Walk from the member up to the source; the parent's port towards the child is a tree edge.
        let mut branch = Vec::with_capacity(dist[m] as usize);
        let mut v = m;
        while v != src {
            if up[v] == NONE {
                up[v] = toward(nodes, ports, &dist, v, src);
            }
            let p = &ports[up[v] as usize];
            branch.push((p.peer_node as usize, p.peer_port));
            v = p.peer_node as usize;
        }
        branches.push(branch);
    }
    let mut edges: Vec<(usize, u32)> = branches.iter().flatten().copied().collect();
    edges.sort_unstable();
    edges.dedup();
    Ok((edges, branches))
}

/// Multicast forwarding: per multicast flow, the ports each tree node sends copies on, found by
/// binary search over the tree's nodes (a tree is small; no flows × nodes table). A tree covers
/// every potential member of the group; each tree edge counts the joined members below it
/// (`active`), so a branch with none is pruned without rebuilding the tree (run-time membership,
/// docs/protocols.md §8).
#[derive(Default)]
pub struct McastTable {
    /// Per flow: a range of `rows`, sorted by node.
    flows: Vec<(u32, u32)>,
    /// (node, start, len) into `ports`.
    rows: Vec<(u32, u32, u32)>,
    ports: Vec<u32>,
    /// Per entry of `ports`: joined members downstream of that edge.
    active: Vec<u32>,
    /// Per flow: (member host, the entries of `ports` on its branch).
    branches: Vec<Vec<(u32, Vec<u32>)>>,
}

impl McastTable {
    pub fn new(n_flows: usize) -> Self {
        McastTable { flows: vec![(0, 0); n_flows], branches: vec![vec![]; n_flows], ..Default::default() }
    }
    /// Record member `host`'s branch of flow `f` (after `set`); the member starts not joined.
    pub fn set_branch(&mut self, f: usize, host: u32, edges: &[(usize, u32)]) {
        let entries = edges
            .iter()
            .filter_map(|&(node, port)| self.range(f, node as u32).find(|&i| self.ports[i] == port).map(|i| i as u32))
            .collect();
        self.branches[f].push((host, entries));
    }
    /// Member `host` of flow `f`'s group joins (`true`) or leaves: its branch's edges count it.
    pub fn member(&mut self, f: usize, host: u32, join: bool) {
        let Some((_, entries)) = self.branches[f].iter().find(|b| b.0 == host) else { return };
        for &i in entries {
            let a = &mut self.active[i as usize];
            *a = if join { *a + 1 } else { a.saturating_sub(1) };
        }
    }
    /// Does entry `i` lead to a joined member?
    #[inline]
    pub fn active(&self, i: usize) -> bool {
        self.active[i] > 0
    }
    /// Set flow `f`'s tree from its sorted (node, port) edges.
    pub fn set(&mut self, f: usize, edges: &[(usize, u32)]) {
        let start = self.rows.len() as u32;
        for chunk in edges.chunk_by(|a, b| a.0 == b.0) {
            self.rows.push((chunk[0].0 as u32, self.ports.len() as u32, chunk.len() as u32));
            self.ports.extend(chunk.iter().map(|e| e.1));
            self.active.extend(chunk.iter().map(|_| 0));
        }
        self.flows[f] = (start, self.rows.len() as u32 - start);
    }
    /// Indices (for `port`) of the ports on which `node` sends copies of flow `f`'s frames.
    #[inline]
    pub fn range(&self, f: usize, node: u32) -> std::ops::Range<usize> {
        let (s, n) = self.flows[f];
        let rows = &self.rows[s as usize..(s + n) as usize];
        match rows.binary_search_by_key(&node, |r| r.0) {
            Ok(i) => {
                let (_, ps, pn) = rows[i];
                ps as usize..(ps + pn) as usize
            }
            Err(_) => 0..0,
        }
    }
    #[inline]
    pub fn port(&self, i: usize) -> u32 {
        self.ports[i]
    }
    /// The tree of flow `f` as (node, port) pairs (every branch, joined or not).
    pub fn edges(&self, f: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (s, n) = self.flows[f];
        self.rows[s as usize..(s + n) as usize]
            .iter()
            .flat_map(move |&(node, ps, pn)| self.ports[ps as usize..(ps + pn) as usize].iter().map(move |&p| (node, p)))
    }
}
