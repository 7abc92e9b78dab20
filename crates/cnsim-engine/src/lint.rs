//! Likely mistakes in a built scenario: valid input that probably does not mean what its author
//! wanted. Reported as warnings (the CLI prints them; `cnsim.warnings`), never errors.

use crate::net::frame::{Dest, NONE};
use crate::build::protocols::AQM_KEYS;
use crate::sim::Sim;
use crate::units::Amount;

impl Sim {
    /// One sentence per likely mistake, naming the entity.
    pub fn lint(&self) -> Vec<String> {
        let mut out = self.build_warnings.clone();
        let name = |p: &crate::registry::Port| format!("{}>{}", self.nodes[p.node as usize].name, self.nodes[p.peer_node as usize].name);
        // Ports that carry data of some flow, and of a flow with a reaction point.
        let mut carried = vec![false; self.ports.len()];
        let mut fed = vec![false; self.ports.len()];
        for (i, f) in self.flows.iter().enumerate() {
            // A reaction point cut only by ECN marks needs a marking queue on the path.
            let mut marks = false;
            let mut mark = |p: u32| {
                carried[p as usize] = true;
                fed[p as usize] |= f.rp.is_some();
                marks |= self.ports[p as usize].aqm.is_some();
            };
            match f.dst {
                Dest::Node(d) => {
                    let mut u = f.src;
                    for _ in 0..self.nodes.len() {
                        if u == d {
                            break;
                        }
                        let p = self.routes.next_port(u as usize, d as usize, i as u32);
                        if p == NONE {
                            break;
                        }
                        mark(p);
                        u = self.ports[p as usize].peer_node;
                    }
                }
                Dest::Group(_) => self.mcast.edges(i).for_each(|(_, p)| mark(p)),
            }
            if let Some(key) = f.rp.as_ref().and_then(|r| r.cut_by_marks_only()).filter(|_| !marks) {
                out.push(format!(
                    "flow {}: its reaction point (rp = {key}) is cut only by ECN marks, but no queue on its path marks (queue.discipline = {}): its rate is never cut",
                    f.name,
                    marking_disciplines()
                ));
            }
        }
        for (i, p) in self.ports.iter().enumerate() {
            if p.cp.is_some() && carried[i] && !fed[i] {
                out.push(format!("congestion point at {} has no reaction point to notify: none of the flows through it has an rp", name(p)));
            }
        }
        let largest = self.senders.iter().map(|s| s.frame as u64).max().unwrap_or(self.frame_size);
        for p in &self.ports {
            let small = match p.qdisc.capacity {
                Amount::Frames(n) => n == 0,
                Amount::Bytes(b) => b < largest,
            };
            if small {
                out.push(format!(
                    "queue {} holds less than one frame ({} B < the largest frame, {} B): every such frame is dropped there",
                    name(p), p.qdisc.capacity.bytes(self.frame_size), largest
                ));
            }
        }
        out
    }
}

/// The queue managements' disciplines, last registered first: `"c", "b" or "a"`.
fn marking_disciplines() -> String {
    let keys: Vec<String> = AQM_KEYS.iter().rev().map(|k| format!("\"{k}\"")).collect();
    match keys.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => keys.concat(),
    }
}
