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

/// Every protocol's fabric presets (`slots::register::Fabric`), as JSON: name, protocol, doc, the
/// TOML text, and whether it needs the fabric's base RTT.
pub fn fabric_presets() -> Value {
    let all = crate::registry::PROTOCOLS.iter().flat_map(|p| p.fabrics.iter().map(move |f| (p.name, f)));
    json!(all.map(|(p, f)| json!({"name": f.name, "protocol": p, "doc": f.doc, "toml": f.toml,
                                   "needs_base_rtt": f.rtt_frames.is_some()})).collect::<Vec<_>>())
}

/// The base RTT fabric preset `name` writes for `"{base_rtt}"` on a path of `hops` links of `rate`,
/// `delay` and wire `overhead` per frame (None: the links' default), as a duration ("123456ps");
/// None when the preset needs none. Errors name the argument.
pub fn fabric_base_rtt(name: &str, rate: &str, delay: &str, overhead: Option<&str>, hops: u64) -> Result<Option<String>, String> {
    let preset = crate::registry::PROTOCOLS.iter().flat_map(|p| p.fabrics).find(|f| f.name == name)
        .ok_or_else(|| format!("no fabric preset {name:?}"))?;
    let rate: crate::units::Rate = rate.parse().map_err(|e| format!("rate: {e}"))?;
    let delay: crate::units::Duration = delay.parse().map_err(|e| format!("delay: {e}"))?;
    let overhead = match overhead {
        Some(o) => o.parse::<crate::units::Bytes>().map_err(|e| format!("overhead: {e}"))?,
        None => crate::scenario::model::d_overhead(),
    };
    preset.base_rtt(rate.0, delay.0, overhead.0, hops).transpose().map(|t| t.map(|ps| format!("{ps}ps")))
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
