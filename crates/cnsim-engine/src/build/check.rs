//! A check's build: each workload flow is drawn, made and checked exactly as a run's build makes
//! it (`traffic.rs`), then dropped, so that `cnsim check` of millions of generated flows takes
//! the time of making them and the memory of one. What the later steps need of the dropped flows
//! is kept here: their routing needs (each pair and end once), and, for the warnings a run's
//! build and `lint` would give, each flow's path walked again once the routes exist (the tables
//! draw their flows again, the same, from their random streams).

use super::traffic::{Needs, Traffic};
use super::workload::Table;
use super::unmarked::{self, Cut};
use super::{Ctx, R};
use crate::net::frame::NONE;
use crate::net::node::Node;
use crate::net::routing::Routes;
use crate::registry::Port;
use std::collections::{HashMap, HashSet};

/// The workload flows a check made and dropped.
pub struct Dropped<'a> {
    /// The index of the first (the `[[flow]]` tables' flows come before).
    first: usize,
    /// The workload tables, in order, to draw their flows again.
    pub tables: Vec<Table<'a>>,
    /// Per table and source host: whether its flows have a reaction point, and what its path needs
    /// to cut it (`unmarked::Cut`; a table's flows from one host get the same: same table, same line rate).
    rp: HashMap<(usize, u32), (bool, Option<Cut>)>,
    pairs: HashSet<(usize, usize)>,
    ends: HashSet<usize>,
    /// The largest frame a dropped flow's sender sends.
    pub largest_frame: Option<u32>,
}

impl<'a> Dropped<'a> {
    /// None yet; the first will have index `first`.
    pub fn new(first: usize) -> Self {
        Dropped { first, tables: vec![], rp: HashMap::new(), pairs: HashSet::new(), ends: HashSet::new(), largest_frame: None }
    }

    /// Take what later steps need of the flows just made in `one` (of the table being made, the
    /// next of `tables`), adding their routing needs to `needs` once each, and empty `one`.
    pub fn add(&mut self, one: &mut Traffic, needs: &mut Needs) {
        let table = self.tables.len();
        for f in &one.flows {
            self.rp.entry((table, f.src)).or_insert_with(|| (f.rp.is_some(), Cut::of_flow(f.rp.as_ref(), f.transport.as_deref())));
        }
        for s in &one.senders {
            self.largest_frame = self.largest_frame.max(Some(s.frame));
        }
        // (The first of equal pairs is the one routing's check of reachability blames.)
        for p in one.needs.pairs.drain(..) {
            if self.pairs.insert((p.0, p.1)) {
                needs.pairs.push(p);
            }
        }
        for e in one.needs.ends.drain(..) {
            if self.ends.insert(e) {
                needs.ends.push(e);
            }
        }
        debug_assert!(one.needs.trees.is_empty() && one.needs.branches.is_empty(), "a workload's flows are unicast");
        one.flows.clear();
        one.senders.clear();
        one.sessions.clear();
        one.spans.clear();
    }

    /// Each dropped flow's path: the unmarked reaction points' warnings a run's build gives
    /// (`unmarked.rs`), and the ports it carries data over (`carried`), with a reaction point (`fed`).
    pub fn walk(&self, ctx: &Ctx, nodes: &[Node], ports: &[Port], routes: &Routes, carried: &mut [bool], fed: &mut [bool]) -> R<()> {
        let mut index = self.first;
        let mut path = vec![];
        for (ti, table) in self.tables.iter().enumerate() {
            table.each(|k, (s, d, _, _)| {
                let i = index + k;
                path.clear();
                let mut u = s;
                for _ in 0..nodes.len() {
                    if u == d {
                        break;
                    }
                    let p = routes.next_port(u, d, i as u32);
                    if p == NONE {
                        break;
                    }
                    path.push(p);
                    u = ports[p as usize].peer_node as usize;
                }
                let (has_rp, cut) = self.rp.get(&(ti, s as u32)).copied().unwrap_or((false, None));
                for &p in &path {
                    carried[p as usize] = true;
                    fed[p as usize] |= has_rp;
                }
                if let Some(cut) = cut {
                    unmarked::warn_path(ctx, nodes, ports, &path, cut, &format!("{}#{k}", table.prefix), Some(table.span()));
                }
                Ok(())
            })?;
            index += table.len;
        }
        Ok(())
    }
}
