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

/// Every summary metric declaration, in `summary.json`'s order (`summaries`), as JSON (scope,
/// name, window, unit, definition, engine, needs; `formula`: "engine" for a protocol's, computed
/// by `registry::metrics::protocol_summary`, "python" for the engine's own, computed by
/// python/cnsim/metrics.py; `follows`: a protocol's metric's `Formula::follows`, else null).
pub fn summary_declarations() -> Value {
    json!(summaries().iter().map(|s| {
        let mut v = json!(s);
        v["formula"] = json!(if s.formula.is_some() { "engine" } else { "python" });
        v["follows"] = json!(s.formula.map(|f| [f.follows.0, f.follows.1]));
        v
    }).collect::<Vec<_>>())
}

/// The protocols' summary metrics of a run and what of them ran
/// (`registry::metrics::protocol_summary`), from its stats document as JSON text, as JSON text.
pub fn protocol_summary(stats: &str) -> Result<String, String> {
    let summary = crate::registry::metrics::protocol_summary(stats).map_err(|e| format!("stats document: {e}"))?;
    Ok(summary.to_string())
}

/// What the protocols' summary reads of a stats document
/// (`registry::metrics::protocol_summary_reads`), as JSON: `{SECTION: [KEY]}`. The part of a
/// document with only these keys is all `protocol_summary` needs.
pub fn protocol_summary_reads() -> Value {
    json!(crate::registry::metrics::protocol_summary_reads())
}

/// What the tallies alone read of a stats document (`registry::metrics::tally_reads`), as
/// `protocol_summary_reads`: the part with only these keys gives `protocol_summary` the same "ran".
pub fn tally_reads() -> Value {
    json!(crate::registry::metrics::tally_reads())
}

/// Every summary metric, in `summary.json`'s order: the engine's (`report::SUMMARIES`), each
/// protocol's, in the registry's order, placed right after the metric its formula follows
/// (`Formula::follows`; at the end if there is none such, which a test forbids).
pub fn summaries() -> Vec<&'static crate::slots::metrics::Summary> {
    let mut out: Vec<_> = crate::report::SUMMARIES.iter().collect();
    for s in crate::registry::metrics::summaries() {
        let follows = s.formula.map(|f| f.follows);
        let at = out.iter().position(|d| Some((d.scope, d.name)) == follows).map_or(out.len(), |i| i + 1);
        out.insert(at, s);
    }
    out
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

#[cfg(test)]
mod tests {
    use serde_json::Value;

    #[test]
    fn each_protocol_summary_follows_the_metric_it_names() {
        let order: Vec<(&str, &str)> = super::summaries().iter().map(|s| (s.scope, s.name)).collect();
        assert_eq!(order.len(), crate::report::SUMMARIES.len() + crate::registry::metrics::summaries().count());
        for s in crate::registry::metrics::summaries() {
            let f = s.formula.expect("a protocol's summary metric has a formula");
            let at = order.iter().position(|&d| d == (s.scope, s.name)).unwrap();
            let after = order.iter().position(|&d| d == f.follows).unwrap_or_else(|| panic!("{}.{} follows {:?}: no such metric", s.scope, s.name, f.follows));
            assert!(after < at, "{}.{}", s.scope, s.name);
        }
    }

    #[test]
    fn a_stats_document_read_back_keeps_every_float() {
        // Python writes each float in its shortest form; the formulas must read the same number.
        let xs = ["936.4927966195579", "10824.651137048819", "9.570041975611893", "10270.288949437156", "5e-324", "1.7976931348623157e308"];
        let text = format!(r#"{{"ports": [{}]}}"#, xs.iter().map(|x| format!(r#"{{"paused_s_window": [{x}]}}"#)).collect::<Vec<_>>().join(", "));
        let out: Value = serde_json::from_str(&super::protocol_summary(&text).unwrap()).unwrap();
        for (at, x) in xs.into_iter().enumerate() {
            assert_eq!(out["values"]["port"]["paused_s"][at].as_f64(), Some(x.parse::<f64>().unwrap()), "{x}");
        }
        for text in ["{", "[]"] {
            assert!(super::protocol_summary(text).unwrap_err().starts_with("stats document: "), "{text}");
        }
    }

    #[test]
    fn the_declarations_say_whose_formula_computes_each() {
        let v = super::summary_declarations();
        let all = v.as_array().unwrap();
        assert!(all.iter().all(|d| d["formula"] == "python" || d["formula"] == "engine"));
        let engine = all.iter().filter(|d| d["formula"] == "engine").count();
        assert_eq!(engine, crate::registry::metrics::summaries().count());
        assert!(all.iter().filter(|d| d["formula"] == "engine").all(|d| d["follows"].as_array().is_some_and(|f| f.len() == 2)));
    }
}
