//! The built network as data, for the Python side (topology drawings, reports): expanded node
//! names, links, groups, flows with the path or multicast tree each takes, and the metric
//! declarations. Python asks for these instead of re-implementing name expansion or routing.

use crate::net::frame::Dest;
use crate::sim::Sim;
use serde_json::{json, Value};

impl Sim {
    pub fn describe(&self) -> Value {
        let name = |i: u32| self.nodes[i as usize].name.as_str();
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|n| json!({"name": n.name, "kind": n.kind.name()}))
            .collect();
        // One entry per link (the port of the end that comes first).
        let links: Vec<Value> = self
            .ports
            .iter()
            .enumerate()
            .filter(|(i, p)| (*i as u32) < p.peer_port)
            .map(|(_, p)| json!({"a": name(p.node), "b": name(p.peer_node), "rate_bps": p.rate_bps, "delay_s": crate::core::time::to_secs(p.delay)}))
            .collect();
        let flows: Vec<Value> = self
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let receivers: Vec<&str> = f.receivers.iter().map(|r| name(r.host)).collect();
                let mut v = json!({"name": f.name, "source": name(f.src), "mode": f.mode, "group": f.group,
                                   "receivers": receivers, "priority": self.senders[f.sender as usize].prio,
                                   "rp": f.rp.is_some()});
                match f.dst {
                    Dest::Node(d) => {
                        let path = self.routes.path(&self.ports, f.src as usize, d as usize, i as u32).unwrap_or_default();
                        v["path"] = json!(path.iter().map(|&u| name(u as u32)).collect::<Vec<_>>());
                    }
                    Dest::Group(_) => {
                        let edges: Vec<Value> = self
                            .mcast
                            .edges(i)
                            .map(|(u, p)| json!([name(u), name(self.ports[p as usize].peer_node)]))
                            .collect();
                        v["tree"] = json!(edges);
                    }
                }
                v
            })
            .collect();
        let cps: Vec<Value> = self
            .ports
            .iter()
            .filter(|p| p.cp.is_some())
            .map(|p| json!(format!("{}>{}", name(p.node), name(p.peer_node))))
            .collect();
        json!({"nodes": nodes, "links": links, "flows": flows, "cps": cps,
               "flow_control": self.fc.as_ref().map(|c| c.name()),
               "build_s": self.build_s, "routing_bytes": self.routes.memory()})
    }
}

/// Every metric declaration, as JSON (name, scope, unit, kind, doc).
pub fn metric_declarations() -> Value {
    json!(crate::report::METRICS.iter().chain(crate::registry::metrics::protocols()).collect::<Vec<_>>())
}

/// Every summary metric declaration, the engine's then the protocols', as JSON (scope, name,
/// window, unit, definition, engine, needs).
pub fn summary_declarations() -> Value {
    json!(crate::report::SUMMARIES.iter().chain(crate::registry::metrics::summaries()).collect::<Vec<_>>())
}

/// Every mechanism a summary metric may need, the engine's then the protocols', as JSON (name,
/// doc, marks, implied_by, marker).
pub fn mechanisms() -> Value {
    json!(crate::report::MECHANISMS.iter().chain(crate::registry::metrics::mechanisms()).collect::<Vec<_>>())
}

/// Every output renamed since stored results were written, the engine's then the protocols', as
/// JSON (document, scope, old, new).
pub fn renamed_outputs() -> Value {
    json!(crate::report::RENAMED.iter().chain(crate::registry::metrics::renamed()).collect::<Vec<_>>())
}
