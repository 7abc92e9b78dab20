//! Forwarding computed once from the topology (docs/protocols.md §1): shortest paths in hops with a
//! deterministic tie-break by node name; multicast over the shortest-path tree from each source.
//! Hosts never forward: paths run through switches and routers only.
//!
//! Memory and work stay linear in the fabric per twin class of targets, never nodes²: only hosts
//! that are an end of some flow are targets, and a host with a single link to a switch is reached
//! through that switch (the paths to it and to its switch agree everywhere but at the switch). Such
//! a host also has no row: it sends on its one link whenever its switch reaches the target. The
//! table has a row per switch, router and host with several links.
//!
//! **Twins share a column.** Two targets that forward and whose fabric neighbours are the same
//! switches (a fat tree's edge switches of one pod) have the same routes at every node but those
//! neighbours, which reach each on their one link to it, and the two themselves, each of which
//! reaches the other through every common neighbour: every path to either enters it from a common
//! neighbour, and only they have it as a neighbour. So a class of twins has one column, and each
//! member its own entries at those rows (its *exceptions*); the class column holds `EXC + j` there,
//! `j` the row's place among the class's exception rows, and a lookup that meets it reads the
//! member's `j`-th exception. A k-ary fat tree's table is 5k²/4 rows × k pods plus k exceptions per
//! edge switch, 7k³/4 entries (7 per host). A class column is one breadth-first search over the
//! *fabric* (every node but the single-link hosts) from its first member, or, on a fat tree, is
//! written from its tiers without a search (`net/updown.rs`): the build is then linear in the hosts.
//!
//! **ECMP** (`[routing] ecmp = true`, off by default). Each node keeps, per column, the set of its
//! equal-cost next hops: every port to a neighbour one hop closer to the target that can forward (or
//! is the target) — the ports the tie-break chooses among without ECMP — ordered by the neighbour's
//! name, then by port. A set is stored once in one flat array as its count followed by its ports
//! (identical sets are shared), and a table entry is the set's index there, so the table stays one
//! `u32` per (row, column) plus the distinct sets. A frame of flow `f` at node `u` whose set has
//! `n` ports leaves on port number
//!
//! ```text
//! mix64(salt ^ (f << 32 | u)) mod n      (mix64: SplitMix64's finaliser; f, u as u64)
//! ```
//!
//! of the set, where `salt` is drawn once per run from the run's seed (stream "ecmp"), so a flow's
//! frames (and its feedback and ACKs, which carry its flow id) keep one path — no reordering —
//! different flows spread over the equal-cost ports, the choices at successive switches are
//! independent (the node is hashed), and another seed gives another spread. Multicast trees are
//! unchanged by ECMP.

use super::frame::NONE;
use super::node::{Node, NodeKind};
use super::port::Port;
use super::updown::{FatTree, Hop};
use super::Slots;
use std::collections::{HashMap, VecDeque};

/// Hop distances from `root`, expanding only through switches (and the root itself).
pub(crate) fn bfs<S: Slots>(nodes: &[Node], ports: &[Port<S>], root: usize) -> Vec<u32> {
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

/// Among `u`'s ports, the one to the neighbour one hop closer to the root (smallest name on ties,
/// then the first port); the neighbour must be able to forward (a switch) unless it is the root.
fn toward<S: Slots>(nodes: &[Node], ports: &[Port<S>], dist: &[u32], u: usize, root: usize) -> u32 {
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

/// Each node's position in the order of names: comparing ranks orders neighbours as comparing their
/// names does (names are unique), without a string comparison per table entry.
fn name_ranks(nodes: &[Node]) -> Vec<u32> {
    let mut by_name: Vec<usize> = (0..nodes.len()).collect();
    by_name.sort_unstable_by(|&a, &b| nodes[a].name.cmp(&nodes[b].name));
    let mut rank = vec![0; nodes.len()];
    for (i, &u) in by_name.iter().enumerate() {
        rank[u] = i as u32;
    }
    rank
}

/// The fabric's links, per node in its port order, as one flat list: every port but those to a
/// single-link host (such a host never forwards and is never a column's target, so a search for
/// routes need not visit it), each with its peer node and the peer's port back. Compact, so the
/// searches read a few bytes per link rather than a whole `Port` each.
struct Fabric {
    start: Vec<u32>,
    /// (peer node, the peer's port to this node)
    links: Vec<(u32, u32)>,
}

impl Fabric {
    fn new<S: Slots>(nodes: &[Node], ports: &[Port<S>], attach: &[(u32, u32, u32)]) -> Fabric {
        let mut f = Fabric { start: Vec::with_capacity(nodes.len() + 1), links: vec![] };
        f.start.push(0);
        for nd in nodes {
            let peers = nd.ports.iter().map(|&p| &ports[p as usize]).filter(|p| attach[p.peer_node as usize].0 == NONE);
            f.links.extend(peers.map(|p| (p.peer_node, p.peer_port)));
            f.start.push(f.links.len() as u32);
        }
        f
    }
    fn of(&self, u: usize) -> &[(u32, u32)] {
        &self.links[self.start[u] as usize..self.start[u + 1] as usize]
    }
}

/// One column's breadth-first search from its target `t` over the fabric, which also finds each
/// node's equal-cost ports towards `t`: the ports to its neighbours one hop closer that forward (or
/// are `t`). Every such neighbour is expanded — and offers its link — before the node itself is taken
/// from the queue, so the node's ports are all known then, in one pass over the fabric.
struct Search {
    dist: Vec<u32>,
    queue: VecDeque<usize>,
    /// Per node: ports offered so far, stored from `Fabric::start` of the node (a node is offered
    /// each of its fabric ports at most once).
    count: Vec<u32>,
    offered: Vec<(u32, u32)>,
    /// Links read, over every run.
    work: usize,
}

impl Search {
    fn new(n: usize, fabric: &Fabric) -> Search {
        Search { dist: vec![u32::MAX; n], queue: VecDeque::new(), count: vec![0; n], offered: vec![(0, 0); fabric.links.len()], work: 0 }
    }

    /// Hand `found` each node reached from `t` (but `t`) with its equal-cost ports towards `t` as
    /// (the neighbour's rank by name, port), in no particular order.
    fn run(&mut self, nodes: &[Node], fabric: &Fabric, rank: &[u32], t: usize, mut found: impl FnMut(usize, &mut [(u32, u32)])) {
        self.dist.fill(u32::MAX);
        self.count.fill(0);
        self.dist[t] = 0;
        self.queue.clear();
        self.queue.push_back(t);
        while let Some(v) = self.queue.pop_front() {
            if v != t {
                let s = fabric.start[v] as usize;
                found(v, &mut self.offered[s..s + self.count[v] as usize]);
                if nodes[v].kind == NodeKind::Host {
                    continue; // hosts never forward
                }
            }
            self.work += fabric.of(v).len() + 1;
            for &(u, back) in fabric.of(v) {
                let u = u as usize;
                if self.dist[u] == u32::MAX {
                    self.dist[u] = self.dist[v] + 1;
                    self.queue.push_back(u);
                }
                if self.dist[u] == self.dist[v] + 1 {
                    self.offered[(fabric.start[u] + self.count[u]) as usize] = (rank[v], back);
                    self.count[u] += 1;
                }
            }
        }
    }
}

/// SplitMix64's finaliser: a bijection of u64 whose every output bit depends on every input bit.
#[inline]
fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The ECMP choice (module doc): which of `n` equal-cost ports flow `flow` takes at node `u`.
#[inline]
pub fn ecmp_index(salt: u64, flow: u32, u: usize, n: u32) -> usize {
    (mix64(salt ^ ((flow as u64) << 32 | u as u64 & 0xffff_ffff)) % n as u64) as usize
}

/// A class-column entry at or above this (and not NONE) is `EXC + j`: the entry is the `j`-th of
/// the column's own exceptions. Ports and set indexes stay below it (the table's size is bounded far
/// below 2³¹ entries by `build/mod.rs`'s `MAX_ROUTE_ENTRIES`).
const EXC: u32 = 1 << 31;

/// Unicast next hops towards the routing targets.
#[derive(Default)]
pub struct Routes {
    /// Per host with exactly one link, to a switch: (switch, that switch's port to the host, the
    /// host's port to the switch); NONEs for every other node.
    attach: Vec<(u32, u32, u32)>,
    /// Column of each node that is a routing target (NONE otherwise).
    col: Vec<u32>,
    /// Twin classes (one column of `next` each).
    nclasses: usize,
    /// Row of each node in `next`: NONE for the single-link hosts of `attach`, which have none.
    row: Vec<u32>,
    /// `next[row * nclasses + class]`: without ECMP, the output port at the row's node towards
    /// every target of the class; with ECMP, the index in `sets` of its equal-cost ports; NONE when
    /// there is none; `EXC + j` at the rows where the class's targets differ (their neighbours and
    /// themselves), whose entry is the `j`-th of the target's column in `exc`.
    next: Vec<u32>,
    /// Per column: where its exceptions start in `exc`.
    exc_start: Vec<u32>,
    /// The columns' exceptions, each column's in its class's order of exception rows.
    exc: Vec<u32>,
    /// ECMP only: equal-cost port sets, each its count then its ports; identical sets stored once.
    sets: Vec<u32>,
    /// ECMP only: the hash's seed, drawn from the run's seed.
    salt: u64,
    ecmp: bool,
    /// Per destination: (attachment switch, its port to the host, column, the column's class) —
    /// one load per hop.
    dest: Vec<(u32, u32, u32, u32)>,
    /// Breadth-first searches the build ran (one per twin class).
    searches: usize,
    /// The build's work: links its searches or the fat tree's recognition read, entries written,
    /// ports read to make an entry (`Routes::work`).
    work: usize,
}

/// How a build makes its columns.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Columns {
    /// A column and a search per target (the reference the tests compare the others with).
    PerTarget,
    /// A column and a search per twin class, each member's own entries as exceptions (what a
    /// fabric that is not a fat tree gets from `FromTiers`; only the tests ask for it directly).
    #[cfg_attr(not(test), allow(dead_code))]
    PerClass,
    /// As `PerClass`, but a fat tree's class columns from its tiers, without a search.
    FromTiers,
}

/// The column targets `dests` need: each host's switch when it hangs off one, sorted, once each.
fn targets(attach: &[(u32, u32, u32)], dests: &[usize]) -> Vec<usize> {
    let mut t: Vec<usize> = dests.iter().map(|&d| target(attach, d)).collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// A target's twin class: its fabric neighbours, sorted, when it forwards and so do they all (None
/// otherwise). Two targets of one class (a fat tree's edge switches of one pod) have the same routes
/// at every node but their neighbours and themselves: a node's distance to either is one more than
/// its distance to the nearest of their neighbours, through which alone either is reached, and only
/// the neighbours have either as a neighbour (docs/performance.md, "Scale").
fn twin_class(nodes: &[Node], fabric: &Fabric, t: usize) -> Option<Vec<u32>> {
    let peers = fabric.of(t);
    let forwarding = nodes[t].kind.forwards() && !peers.is_empty() && peers.iter().all(|&(v, _)| nodes[v as usize].kind.forwards());
    forwarding.then(|| {
        let mut k: Vec<u32> = peers.iter().map(|&(v, _)| v).collect();
        k.sort_unstable();
        k
    })
}

/// The targets grouped in twin classes (each target its own class unless `share`): per class its
/// members (in the order of `targets`, the first searched) and its exception rows' nodes — none for
/// a class of one, else its members' common neighbours (once each) then the members.
struct Classes {
    /// Per column (index in `targets`): its class.
    of: Vec<u32>,
    members: Vec<Vec<usize>>,
    exceptions: Vec<Vec<usize>>,
}

impl Classes {
    fn new(nodes: &[Node], fabric: &Fabric, targets: &[usize], share: bool) -> Classes {
        let mut c = Classes { of: Vec::with_capacity(targets.len()), members: vec![], exceptions: vec![] };
        let mut by_peers: HashMap<Vec<u32>, usize> = HashMap::new();
        for &t in targets {
            let key = share.then(|| twin_class(nodes, fabric, t)).flatten();
            let k = match key.as_ref().and_then(|k| by_peers.get(k)) {
                Some(&k) => k,
                None => {
                    c.members.push(vec![]);
                    let mut peers = key.clone().unwrap_or_default();
                    peers.dedup();
                    c.exceptions.push(peers.into_iter().map(|v| v as usize).collect());
                    if let Some(key) = key {
                        by_peers.insert(key, c.members.len() - 1);
                    }
                    c.members.len() - 1
                }
            };
            c.members[k].push(t);
            c.of.push(k as u32);
        }
        for (m, e) in c.members.iter().zip(&mut c.exceptions) {
            if m.len() < 2 {
                e.clear();
            } else {
                e.extend_from_slice(m);
            }
        }
        c
    }

    /// Entries of the table: rows × classes, and per column its class's exceptions.
    fn entries(&self, rows: usize) -> usize {
        rows * self.members.len() + self.of.iter().map(|&k| self.exceptions[k as usize].len()).sum::<usize>()
    }
}

/// Table entries from offered ports: without ECMP the tie-break's port, with it the index of the
/// equal-cost set in `Routes::sets`, each distinct set stored once.
#[derive(Default)]
struct SetIndex {
    index: HashMap<Vec<u32>, u32>,
    set: Vec<u32>,
}

impl SetIndex {
    /// The entry for `offered` (neighbour rank, port) pairs, in any order; NONE when empty.
    fn entry(&mut self, sets: &mut Vec<u32>, ecmp: bool, offered: &mut [(u32, u32)]) -> u32 {
        // By neighbour name, then port: the tie-break's choice first.
        offered.sort_unstable();
        if !ecmp {
            return offered.first().map_or(NONE, |o| o.1);
        }
        self.set.clear();
        self.set.extend(offered.iter().map(|o| o.1));
        match self.index.get(self.set.as_slice()) {
            _ if self.set.is_empty() => NONE,
            Some(&i) => i,
            None => {
                let i = sets.len() as u32;
                sets.push(self.set.len() as u32);
                sets.extend_from_slice(&self.set);
                self.index.insert(self.set.clone(), i);
                i
            }
        }
    }
}

/// The node whose column serves destination `d`.
fn target(attach: &[(u32, u32, u32)], d: usize) -> usize {
    match attach[d] {
        (s, _, _) if s != NONE => s as usize,
        _ => d,
    }
}

impl Routes {
    /// The table's size in entries for the routes of `dests`: rows × twin classes, plus each
    /// column's exceptions.
    pub fn size_for<S: Slots>(nodes: &[Node], ports: &[Port<S>], dests: &[usize]) -> usize {
        let attach = attachments(nodes, ports);
        let fabric = Fabric::new(nodes, ports, &attach);
        let rows = attach.iter().filter(|a| a.0 == NONE).count();
        Classes::new(nodes, &fabric, &targets(&attach, dests), true).entries(rows)
    }

    /// Routes from every node to each host of `dests`: one port per entry, or with `ecmp =
    /// Some(salt)` the equal-cost ports, chosen per flow by the hash of the module doc.
    pub fn build<S: Slots>(nodes: &[Node], ports: &[Port<S>], dests: &[usize], ecmp: Option<u64>) -> Routes {
        Routes::build_with(nodes, ports, dests, ecmp, Columns::FromTiers)
    }

    /// `build` with a search per twin class even on a fat tree (what the growth test compares with).
    #[cfg(test)]
    pub(crate) fn build_searched<S: Slots>(nodes: &[Node], ports: &[Port<S>], dests: &[usize], ecmp: Option<u64>) -> Routes {
        Routes::build_with(nodes, ports, dests, ecmp, Columns::PerClass)
    }

    /// `build`, its columns made as `columns` says.
    pub(crate) fn build_with<S: Slots>(nodes: &[Node], ports: &[Port<S>], dests: &[usize], ecmp: Option<u64>, columns: Columns) -> Routes {
        let n = nodes.len();
        let attach = attachments(nodes, ports);
        let fabric = Fabric::new(nodes, ports, &attach);
        let rank = name_ranks(nodes);
        let rows: Vec<usize> = (0..n).filter(|&u| attach[u].0 == NONE).collect();
        let mut r = Routes { col: vec![NONE; n], row: vec![NONE; n], salt: ecmp.unwrap_or(0), ecmp: ecmp.is_some(), ..Default::default() };
        for (i, &u) in rows.iter().enumerate() {
            r.row[u] = i as u32;
        }
        let targets = targets(&attach, dests);
        let classes = Classes::new(nodes, &fabric, &targets, columns != Columns::PerTarget);
        r.nclasses = classes.members.len();
        r.next = vec![NONE; rows.len() * r.nclasses];
        let mut sets = SetIndex::default();
        let fat_tree = if columns == Columns::FromTiers { FatTree::recognise(nodes, ports, &attach, |u| fabric.of(u)) } else { None };
        match &fat_tree {
            Some(tree) => r.fat_tree_columns(nodes, ports, tree, &classes, &rank, &mut sets),
            None => r.searched_columns(nodes, &fabric, &classes, &rank, &mut sets),
        }
        for (k, exceptions) in classes.exceptions.iter().enumerate() {
            for (j, &v) in exceptions.iter().enumerate() {
                r.next[r.row[v] as usize * r.nclasses + k] = EXC + j as u32;
            }
        }
        r.exc_start = Vec::with_capacity(targets.len());
        // A member's entry towards another member of its class: every port into the fabric (all
        // lead to the class's common neighbours), the same whichever the other: made once.
        let mut member_entry: Vec<Option<u32>> = vec![None; n];
        let mut to_t: Vec<(u32, u32)> = vec![];
        let mut offered: Vec<(u32, u32)> = vec![];
        for (c, &t) in targets.iter().enumerate() {
            r.col[t] = c as u32;
            r.exc_start.push(r.exc.len() as u32);
            let k = classes.of[c] as usize;
            // The class's common neighbours (sorted by node) reach `t` on their links to it.
            to_t.clear();
            to_t.extend_from_slice(fabric.of(t));
            to_t.sort_unstable();
            let mut links = to_t.iter().peekable();
            for &v in &classes.exceptions[k] {
                r.work += 1;
                offered.clear();
                while let Some(&&(w, back)) = links.peek().filter(|l| l.0 as usize <= v) {
                    if w as usize == v {
                        offered.push((rank[t], back));
                    }
                    links.next();
                }
                let e = if v == t {
                    NONE
                } else if !offered.is_empty() {
                    sets.entry(&mut r.sets, r.ecmp, &mut offered)
                } else {
                    match member_entry[v] {
                        Some(e) => e,
                        None => {
                            let mut into_fabric: Vec<(u32, u32)> = nodes[v]
                                .ports
                                .iter()
                                .map(|&p| (ports[p as usize].peer_node as usize, p))
                                .filter(|&(w, _)| attach[w].0 == NONE)
                                .map(|(w, p)| (rank[w], p))
                                .collect();
                            r.work += into_fabric.len();
                            let e = sets.entry(&mut r.sets, r.ecmp, &mut into_fabric);
                            member_entry[v] = Some(e);
                            e
                        }
                    }
                };
                r.exc.push(e);
            }
        }
        r.dest = (0..n)
            .map(|d| {
                let c = r.col[target(&attach, d)];
                (attach[d].0, attach[d].1, c, if c == NONE { NONE } else { classes.of[c as usize] })
            })
            .collect();
        r.attach = attach;
        r
    }

    /// The class columns from a search per class, from its first member (module doc).
    fn searched_columns(&mut self, nodes: &[Node], fabric: &Fabric, classes: &Classes, rank: &[u32], sets: &mut SetIndex) {
        let mut search = Search::new(nodes.len(), fabric);
        let (nclasses, ecmp) = (self.nclasses, self.ecmp);
        for (k, members) in classes.members.iter().enumerate() {
            self.searches += 1;
            let (row, next, table) = (&self.row, &mut self.next, &mut self.sets);
            search.run(nodes, fabric, rank, members[0], |u, offered| {
                next[row[u] as usize * nclasses + k] = sets.entry(table, ecmp, offered);
            });
        }
        self.work += search.work;
    }

    /// The class columns of a fat tree from its tiers (`net/updown.rs`), without a search: each
    /// row's ports up are made into an entry once, a core's port into a pod once per pod.
    fn fat_tree_columns<S: Slots>(&mut self, nodes: &[Node], ports: &[Port<S>], tree: &FatTree, classes: &Classes, rank: &[u32], sets: &mut SetIndex) {
        self.work += tree.work;
        let mut up: Vec<Option<u32>> = vec![None; nodes.len()];
        let rows: Vec<usize> = (0..nodes.len()).filter(|&u| self.row[u] != NONE).collect();
        for (k, members) in classes.members.iter().enumerate() {
            let pod = tree.pod_of(members[0]);
            let alone = (members.len() == 1).then_some(members[0]);
            for &u in &rows {
                self.work += 1;
                let e = match tree.hop(u, pod, alone) {
                    Hop::None => NONE,
                    Hop::Up => match up[u] {
                        Some(e) => e,
                        None => {
                            let mut offered: Vec<(u32, u32)> = tree.up(nodes, ports, u).into_iter().map(|(v, p)| (rank[v], p)).collect();
                            self.work += offered.len();
                            let e = sets.entry(&mut self.sets, self.ecmp, &mut offered);
                            up[u] = Some(e);
                            e
                        }
                    },
                    Hop::Port(v, p) => sets.entry(&mut self.sets, self.ecmp, &mut [(rank[v], p)]),
                    Hop::Target => {
                        let t = members[0];
                        let mut offered: Vec<(u32, u32)> = nodes[u].ports.iter().filter(|&&p| ports[p as usize].peer_node as usize == t).map(|&p| (rank[t], p)).collect();
                        self.work += nodes[u].ports.len();
                        sets.entry(&mut self.sets, self.ecmp, &mut offered)
                    }
                };
                self.next[self.row[u] as usize * self.nclasses + k] = e;
            }
        }
    }

    /// The entry at row `r` for column `c` of class `k`: the class column's, or the column's own
    /// exception where the class column says so.
    #[inline]
    fn entry(&self, r: usize, c: usize, k: usize) -> u32 {
        let e = self.next[r * self.nclasses + k];
        if e < EXC || e == NONE {
            return e;
        }
        self.exc[self.exc_start[c] as usize + (e - EXC) as usize]
    }

    /// Does a frame at the attachment switch `a` reach column `c`'s target (or is `a` the target)?
    /// A single-link host on `a` reaches it exactly then: it sends on its one link.
    #[inline]
    fn reaches(&self, a: usize, c: usize, k: usize) -> bool {
        self.col[a] as usize == c || self.entry(self.row[a] as usize, c, k) != NONE
    }

    /// The output port at `u` for a frame of flow `flow` towards host `d` (NONE when unreachable
    /// or not a target). Without ECMP the flow does not matter; with it, every flow reaches `d`.
    #[inline]
    pub fn next_port(&self, u: usize, d: usize, flow: u32) -> u32 {
        let (s, p, c, k) = self.dest[d];
        if u == s as usize {
            return p;
        }
        if c == NONE || u == d {
            return NONE;
        }
        let r = self.row[u];
        if r == NONE {
            let (a, _, up) = self.attach[u];
            return if self.reaches(a as usize, c as usize, k as usize) { up } else { NONE };
        }
        let e = self.entry(r as usize, c as usize, k as usize);
        if !self.ecmp || e == NONE {
            return e;
        }
        let e = e as usize;
        let n = self.sets[e];
        let i = if n == 1 { 0 } else { ecmp_index(self.salt, flow, u, n) };
        self.sets[e + 1 + i]
    }

    /// The equal-cost ports at `u` towards host `d` (one without ECMP; empty when unreachable).
    pub fn choices(&self, u: usize, d: usize) -> &[u32] {
        let (s, _, c, k) = self.dest[d];
        if u == s as usize {
            return std::slice::from_ref(&self.dest[d].1);
        }
        if c == NONE || u == d {
            return &[];
        }
        let r = self.row[u];
        if r == NONE {
            let a = self.attach[u].0 as usize;
            return if self.reaches(a, c as usize, k as usize) { std::slice::from_ref(&self.attach[u].2) } else { &[] };
        }
        let i = r as usize * self.nclasses + k as usize;
        let e = match self.next[i] {
            e if e < EXC || e == NONE => &self.next[i],
            e => &self.exc[self.exc_start[c as usize] as usize + (e - EXC) as usize],
        };
        match *e {
            NONE => &[],
            _ if !self.ecmp => std::slice::from_ref(e),
            e => {
                let e = e as usize;
                &self.sets[e + 1..e + 1 + self.sets[e] as usize]
            }
        }
    }

    /// The nodes a frame of flow `flow` from `s` to `d` visits, both ends included (None if
    /// unreachable): the path its frames take.
    pub fn path<S: Slots>(&self, ports: &[Port<S>], s: usize, d: usize, flow: u32) -> Option<Vec<usize>> {
        let mut path = vec![s];
        let mut u = s;
        while u != d {
            let p = self.next_port(u, d, flow);
            if p == NONE || path.len() > self.attach.len() {
                return None;
            }
            u = ports[p as usize].peer_node as usize;
            path.push(u);
        }
        Some(path)
    }

    /// Entries of the table: rows × twin classes, and the columns' exceptions.
    pub fn entries(&self) -> usize {
        self.next.len() + self.exc.len()
    }

    /// Breadth-first searches over the fabric the build ran: one per twin class.
    pub fn searches(&self) -> usize {
        self.searches
    }

    /// The build's work (links read, entries written, ports read to make an entry): what grows
    /// with the fabric, counted rather than timed.
    pub fn work(&self) -> usize {
        self.work
    }

    /// Bytes the ECMP sets take (0 without ECMP).
    pub fn set_bytes(&self) -> usize {
        4 * self.sets.len()
    }

    /// Bytes the tables take.
    pub fn memory(&self) -> usize {
        4 * (self.next.len() + self.exc.len() + self.exc_start.len() + self.sets.len() + self.col.len() + self.row.len() + 3 * self.attach.len() + 4 * self.dest.len())
    }
}

/// For each host with exactly one link, to a switch: (switch, the switch's port to the host, the
/// host's port).
fn attachments<S: Slots>(nodes: &[Node], ports: &[Port<S>]) -> Vec<(u32, u32, u32)> {
    nodes
        .iter()
        .map(|nd| match nd.ports.as_slice() {
            [p] if nd.kind == NodeKind::Host => {
                let port = &ports[*p as usize];
                match nodes[port.peer_node as usize].kind {
                    NodeKind::Switch | NodeKind::Router => (port.peer_node, port.peer_port, *p),
                    NodeKind::Host => (NONE, NONE, NONE),
                }
            }
            _ => (NONE, NONE, NONE),
        })
        .collect()
}

/// The shortest-path tree from `src` to `members` from one breadth-first search: the tree's (node,
/// output port) pairs, sorted, and each member's branch (the pairs from `src` down to it; members
/// other than `src`, in order). Err(member) names the first member that cannot be reached. Linear in
/// the network plus the branches' lengths, whatever the group's size.
#[allow(clippy::type_complexity)]
pub fn multicast_tree<S: Slots>(nodes: &[Node], ports: &[Port<S>], src: usize, members: &[usize]) -> Result<(Vec<(usize, u32)>, Vec<Vec<(usize, u32)>>), usize> {
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
    /// Per flow: (member host, the entries of `ports` on its branch), sorted by host once recorded
    /// (`sort_branches`), so a member is found by binary search, not a scan of the group.
    branches: Vec<Vec<(u32, Vec<u32>)>>,
}

impl McastTable {
    pub fn new(n_flows: usize) -> Self {
        McastTable { flows: vec![(0, 0); n_flows], branches: vec![vec![]; n_flows], ..Default::default() }
    }
    /// Record member `host`'s branch of flow `f` (after `set`); the member starts not joined. A row's
    /// ports are sorted (`set`), so each edge is a binary search: a switch with a port per member
    /// would otherwise make a group's branches quadratic in its size.
    pub fn set_branch(&mut self, f: usize, host: u32, edges: &[(usize, u32)]) {
        let entries = edges
            .iter()
            .filter_map(|&(node, port)| {
                let row = self.range(f, node as u32);
                self.ports[row.clone()].binary_search(&port).ok().map(|i| (row.start + i) as u32)
            })
            .collect();
        self.branches[f].push((host, entries));
    }
    /// Sort every flow's branches by host (stable: of a host listed twice, its first branch comes
    /// first, the one `member` uses). Called once, after the last `set_branch`.
    pub fn sort_branches(&mut self) {
        for b in &mut self.branches {
            b.sort_by_key(|x| x.0);
        }
    }
    /// Member `host` of flow `f`'s group joins (`true`) or leaves: its branch's edges count it.
    pub fn member(&mut self, f: usize, host: u32, join: bool) {
        let b = &self.branches[f];
        let i = b.partition_point(|x| x.0 < host);
        let Some((_, entries)) = b.get(i).filter(|x| x.0 == host) else { return };
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
    /// Set flow `f`'s tree from its sorted, distinct (node, port) edges.
    pub fn set(&mut self, f: usize, edges: &[(usize, u32)]) {
        debug_assert!(edges.windows(2).all(|w| w[0] < w[1]), "a tree's edges sorted and distinct");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_is_found_by_host_whatever_the_order_its_branch_was_recorded_in() {
        // One flow's tree: node 0 sends on ports 10 and 11, node 1 on port 12 (entries 0, 1, 2).
        let mut t = McastTable::new(1);
        t.set(0, &[(0, 10), (0, 11), (1, 12)]);
        t.set_branch(0, 9, &[(0, 10)]);
        t.set_branch(0, 3, &[(0, 11), (1, 12)]);
        t.sort_branches();
        t.member(0, 3, true);
        t.member(0, 5, true); // not a member: nothing changes
        assert_eq!((t.active(0), t.active(1), t.active(2)), (false, true, true));
        t.member(0, 9, true);
        t.member(0, 3, false);
        assert_eq!((t.active(0), t.active(1), t.active(2)), (true, false, false));
    }

    #[test]
    fn the_hash_is_stated() {
        // mix64 is SplitMix64's finaliser: SplitMix64 seeded with 0 first outputs this.
        assert_eq!(mix64(0x9e37_79b9_7f4a_7c15), 0xe220_a839_7b1d_cdaf);
        assert_eq!(ecmp_index(7, 3, 5, 4), (mix64(7 ^ (3 << 32 | 5)) % 4) as usize);
    }
}
