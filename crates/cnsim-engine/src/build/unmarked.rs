//! A reaction point that only ECN marks cut, on a path where no queue marks, or that only a
//! congestion point's feedback cuts, on a path with no congestion point: its rate is never cut. A
//! transport connection that reacts to ECN marks (TCP with `ecn`), on a path where no queue marks:
//! only losses cut its window. A warning at the line of the flow's table (or its workload's),
//! naming the reaction point or the transport's key and the queues of the path.

use super::topology::port_name;
use super::Ctx;
use super::protocols::AQM_KEYS;
use crate::net::frame::{Dest, NONE};
use crate::net::node::Node;
use crate::net::routing::{McastTable, Routes};
use crate::registry::transport::Transport;
use crate::registry::{Flow, Port, Rp};
use std::ops::Range;

/// The most ports of a path a warning names.
const NAMED: usize = 6;

/// What alone cuts a reaction point's rate: its table's key and what its path needs.
#[derive(Clone, Copy)]
pub enum Cut {
    /// ECN marks: a queue with a queue management (`aqm`).
    Marks(&'static str),
    /// A congestion point's feedback: a port with a congestion point (`cp`).
    Cp(&'static str),
    /// ECN marks, else losses: a transport connection's window (a queue with a queue management).
    MarksThenLoss(&'static str),
}

impl Cut {
    /// What alone cuts `rp`, if one thing does.
    pub fn of(rp: &Rp) -> Option<Cut> {
        rp.cut_by_marks_only().map(Cut::Marks).or_else(|| rp.cut_by_cp_only().map(Cut::Cp))
    }
    /// What a flow with reaction point `rp` and transport connection `transport` needs on its path.
    pub fn of_flow(rp: Option<&Rp>, transport: Option<&Transport>) -> Option<Cut> {
        rp.and_then(Cut::of).or_else(|| transport.and_then(|t| t.cut_by_marks()).map(Cut::MarksThenLoss))
    }
}

/// Warns about each flow of `flows` (its table at `spans`) whose reaction point or transport
/// needs what its path lacks (`Cut`).
pub fn warn(ctx: &Ctx, nodes: &[Node], ports: &[Port], flows: &[Flow], spans: &[Range<usize>], routes: &Routes, mcast: &McastTable) {
    for (i, f) in flows.iter().enumerate() {
        let Some(cut) = Cut::of_flow(f.rp.as_ref(), f.transport.as_deref()) else { continue };
        let mut path = vec![];
        match f.dst {
            Dest::Node(d) => {
                let mut u = f.src;
                for _ in 0..nodes.len() {
                    if u == d {
                        break;
                    }
                    let p = routes.next_port(u as usize, d as usize, i as u32);
                    if p == NONE {
                        break;
                    }
                    path.push(p);
                    u = ports[p as usize].peer_node;
                }
            }
            Dest::Group(_) => path.extend(mcast.edges(i).map(|(_, p)| p)),
        }
        warn_path(ctx, nodes, ports, &path, cut, &f.name, spans.get(i).cloned());
    }
}

/// Warns about flow `name` (its table at `span`), whose reaction point is cut only by what `cut`
/// says, if no port of its `path` gives it.
pub fn warn_path(ctx: &Ctx, nodes: &[Node], ports: &[Port], path: &[u32], cut: Cut, name: &str, span: Option<Range<usize>>) {
    let given = |p: &u32| match cut {
        Cut::Marks(_) | Cut::MarksThenLoss(_) => ports[*p as usize].aqm.is_some(),
        Cut::Cp(_) => ports[*p as usize].cp.is_some(),
    };
    if path.iter().any(given) {
        return;
    }
    let mut names: Vec<String> = path.iter().take(NAMED).map(|&p| port_name(nodes, ports, p as usize)).collect();
    if path.len() > NAMED {
        names.push(format!("… {} more", path.len() - NAMED));
    }
    let said = match cut {
        Cut::Marks(key) => format!(
            "flow {name}: its reaction point (rp = {key}) is cut only by ECN marks, but no queue on its path ({}) marks (queue.discipline = {}): its rate is never cut",
            names.join(", "),
            marking_disciplines()
        ),
        Cut::Cp(key) => format!(
            "flow {name}: its reaction point (rp = {key}) is cut only by a congestion point's feedback, but no port on its path ({}) has a congestion point (cp, or a [[port]]'s cp): its rate is never cut",
            names.join(", ")
        ),
        Cut::MarksThenLoss(key) => format!(
            "flow {name}: its transport ({key}) reacts to ECN marks, but no queue on its path ({}) marks (queue.discipline = {}): only losses cut its window",
            names.join(", "),
            marking_disciplines()
        ),
    };
    ctx.warn(span, said);
}

/// The queue managements' disciplines, last registered first: `"c", "b" or "a"`.
fn marking_disciplines() -> String {
    let keys: Vec<String> = AQM_KEYS.iter().rev().map(|k| format!("\"{k}\"")).collect();
    match keys.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => keys.concat(),
    }
}
