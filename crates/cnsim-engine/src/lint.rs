//! Likely mistakes in a built scenario: valid input that probably does not mean what its author
//! wanted. Reported as warnings (the CLI prints them; `cnsim.warnings`), never errors.

use crate::net::frame::{Dest, NONE};
use crate::build::Carried;
use crate::sim::Sim;
use crate::units::Amount;

impl Sim {
    /// One sentence per likely mistake, naming the entity.
    pub fn lint(&self) -> Vec<String> {
        self.lint_with(None)
    }

    /// As [`Sim::lint`], with the flows a check dropped (`build/check.rs`) counted too.
    pub(crate) fn lint_with(&self, dropped: Option<Carried>) -> Vec<String> {
        let mut out = self.build_warnings.clone();
        let name = |p: &crate::registry::Port| format!("{}>{}", self.nodes[p.node as usize].name, self.nodes[p.peer_node as usize].name);
        // Ports that carry data of some flow, and of a flow with a reaction point.
        let (mut carried, mut fed, dropped_frame) = match dropped {
            Some(d) => (d.carried, d.fed, d.largest_frame),
            None => (vec![false; self.ports.len()], vec![false; self.ports.len()], None),
        };
        for (i, f) in self.flows.iter().enumerate() {
            // (A reaction point cut only by ECN marks on a path where no queue marks: the build
            // warns, at the flow's line, `build/unmarked.rs`.)
            let mut mark = |p: u32| {
                carried[p as usize] = true;
                fed[p as usize] |= f.rp.is_some();
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
        }
        for (i, p) in self.ports.iter().enumerate() {
            if p.cp.is_some() && carried[i] && !fed[i] {
                out.push(format!("congestion point at {} has no reaction point to notify: none of the flows through it has an rp", name(p)));
            }
        }
        let largest = self.senders.iter().map(|s| s.frame).chain(dropped_frame).map(|f| f as u64).max().unwrap_or(self.frame_size);
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
