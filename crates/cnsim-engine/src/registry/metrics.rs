//! Every protocol's metric declarations (`slots::metrics::Metric`), in the order the stats
//! document and `cnsim._core.metric_declarations()` list them, after the engine's own
//! (`report::METRICS`): each protocol's `PROTOCOL.metrics`, in the registry's order. Likewise
//! its summary metrics (`slots::metrics::Summary`), after `report::SUMMARIES`, and its renamed
//! outputs (`slots::metrics::Renamed`), after `report::RENAMED`. And the protocols' part of a
//! run's summary, computed by their formulas (`protocol_summary`), and what of the stats document
//! those read (`protocol_summary_reads`; the tallies alone, `tally_reads`).

use crate::slots::metrics::{marked, Mechanism, Metric, Renamed, Summary};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The protocols' declarations, in the registry's order.
pub fn protocols() -> impl Iterator<Item = &'static Metric> {
    super::PROTOCOLS.iter().flat_map(|p| p.metrics)
}

/// The protocols' summary metrics, in the registry's order.
pub fn summaries() -> impl Iterator<Item = &'static Summary> {
    super::PROTOCOLS.iter().flat_map(|p| p.summaries)
}

/// The protocols' renamed outputs, in the registry's order.
pub fn renamed() -> impl Iterator<Item = &'static Renamed> {
    super::PROTOCOLS.iter().flat_map(|p| p.renamed)
}

/// The protocols' mechanisms, in the registry's order.
pub fn mechanisms() -> impl Iterator<Item = &'static Mechanism> {
    super::PROTOCOLS.iter().flat_map(|p| p.mechanisms)
}

/// The protocols' summary metrics of a run, by their formulas (`Summary::formula`), from its stats
/// document `stats` (as the engine writes it, or a stored one read with today's names):
/// `{"values": {"global": {NAME: value}, SCOPE: {ENTITY: {NAME: value}}}, "ran": [[WHAT, count]]}`
/// — every entity of each metric's section gets it (null where it does not apply), "ran" holds
/// every protocol's `Tally` in the registry's order, zeros included. A missing section has no
/// entity; a missing statistic gives null. The global metrics and the tallies are computed from
/// the whole document; then each entity's section is taken out of it and its entries are let go
/// one by one once their metrics are computed, so the document and the values are not held at
/// once (a large fabric has hundreds of thousands of ports).
pub fn protocol_summary(mut stats: Value) -> Value {
    let formulas = || summaries().filter_map(|s| s.formula.map(|f| (s, f)));
    let global: Map<String, Value> = formulas().filter(|(s, _)| s.section().is_none())
        .map(|(s, f)| (s.name.to_string(), (f.value)(&stats, &stats))).collect();
    let ran: Vec<Value> = super::PROTOCOLS.iter().flat_map(|p| p.tallies).map(|t| {
        let (section, key) = t.marks.split_once('.').unwrap_or((t.marks, ""));
        let n = entries(&stats, section).iter().filter(|e| marked(e, key) && (t.unless.is_empty() || !marked(e, t.unless))).count();
        json!([t.what, n])
    }).collect();
    let mut scopes = Map::new();
    for (scope, section) in formulas().filter_map(|(s, _)| Some((s.scope, s.section()?))) {
        if scopes.contains_key(scope) {
            continue;
        }
        let mut by_entity = Map::new();
        let taken = match stats.get_mut(section) {
            Some(Value::Array(list)) => std::mem::take(list),
            _ => Vec::new(),
        };
        for entry in taken {
            let name = entry["name"].as_str().unwrap_or_default().to_string();
            let values = by_entity.entry(name).or_insert_with(|| json!({}));
            for (s, f) in formulas().filter(|(s, _)| s.scope == scope) {
                values[s.name] = (f.value)(&entry, &stats);
            }
        }
        scopes.insert(scope.to_string(), Value::Object(by_entity));
    }
    scopes.insert("global".to_string(), Value::Object(global));
    json!({"values": scopes, "ran": ran})
}

/// What `protocol_summary` reads of a stats document: section → the keys it reads there (of each
/// entry of a list, of an object such as `window`) — every formula's statistics
/// (`Summary::engine`) and `marks`, `name` in the sections of entities' metrics, and every tally's
/// keys. The part of a document with only these keys gives the summary the whole one gives, so a
/// caller that holds a large document hands over that part only.
pub fn protocol_summary_reads() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let formulas = summaries().filter_map(|s| s.formula.map(|f| (s, f))).flat_map(|(s, f)| {
        let named = s.section().map(|section| (section, "name"));
        s.engine.iter().chain(f.marks).map(|p| split(p)).chain(named)
    });
    by_section(formulas.chain(tally_paths()))
}

/// What the tallies alone (`protocol_summary`'s "ran") read of a stats document, as
/// `protocol_summary_reads`: the part with only these keys gives the same "ran".
pub fn tally_reads() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    by_section(tally_paths())
}

/// Every tally's (section, key)s: what it marks and what it must not have (empty for none).
fn tally_paths() -> impl Iterator<Item = (&'static str, &'static str)> {
    super::PROTOCOLS.iter().flat_map(|p| p.tallies).flat_map(|t| {
        let (section, key) = split(t.marks);
        [(section, key), (section, t.unless)]
    })
}

/// "section.key" as (section, key); a bare section as (section, "").
fn split(path: &'static str) -> (&'static str, &'static str) {
    path.split_once('.').unwrap_or((path, ""))
}

/// (section, key)s grouped by section; an empty key names the section alone.
fn by_section(paths: impl Iterator<Item = (&'static str, &'static str)>) -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let mut reads: BTreeMap<&'static str, BTreeSet<&'static str>> = BTreeMap::new();
    for (section, key) in paths {
        let keys = reads.entry(section).or_default();
        if !key.is_empty() {
            keys.insert(key);
        }
    }
    reads
}

/// The entries of a section of the stats document (none if it is missing or not a list).
fn entries<'a>(stats: &'a Value, section: &str) -> &'a [Value] {
    stats[section].as_array().map(Vec::as_slice).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_summary_has_a_formula_for_a_scope_it_can_fill() {
        for s in summaries() {
            let f = s.formula.unwrap_or_else(|| panic!("{}.{} has no formula", s.scope, s.name));
            assert!(s.scope == "global" || s.section().is_some(), "{}.{}: scope {}", s.scope, s.name, s.scope);
            assert!(!f.follows.1.is_empty());
        }
    }

    #[test]
    fn the_formulas_compute_from_the_stats_document() {
        let stats = json!({
            "window": {"data_injected": 8},
            "rps": [{"name": "a", "first_cnm_s": 0.5}, {"name": "b", "first_message_s": 0.25}, {"name": "c", "first_cnm_s": null}],
            "queues": [{"name": "q", "cp": true, "cp_fb_negative_window": 2}, {"name": "r", "cp": false, "cp_fb_negative_window": 5}],
            "flows": [{"name": "f", "tcp_goodput_bps": 2.5e6, "tcp_dctcp_alpha": null}, {"name": "g"}],
            "ports": [{"name": "p", "pause_sent": 3, "pause_received": 1, "paused_s_window": [0.5, 2.0, 1.0]}, {"name": "o", "paused_s_window": []}],
        });
        let out = protocol_summary(stats);
        let v = &out["values"];
        assert_eq!(v["global"]["first_cnm_s"], json!(0.25));
        assert_eq!(v["global"]["fb_negative_samples_pct"], json!(25.0)); // only a CP's count
        assert_eq!(v["rp"]["b"]["first_cnm_s"], json!(0.25));
        assert_eq!(v["rp"]["c"]["first_cnm_s"], Value::Null);
        assert_eq!(v["flow"]["f"]["goodput_mbps"], json!(2.5));
        assert_eq!(v["flow"]["g"]["goodput_mbps"], Value::Null);
        assert_eq!(v["port"]["p"], json!({"pause_sent": 3, "pause_received": 1, "paused_s": 2.0}));
        assert_eq!(v["port"]["o"], json!({"pause_sent": null, "pause_received": null, "paused_s": 0.0}));
        assert_eq!(out["ran"], json!([["DCTCP flows", 0], ["TCP flows", 1]]));
    }

    /// `stats` with only what `reads` names (`protocol_summary_reads`, `tally_reads`).
    fn read_part(stats: &Value, reads: &BTreeMap<&str, BTreeSet<&str>>) -> Value {
        let only = |v: &Value, keys: &BTreeSet<&str>| match v {
            Value::Object(m) => Value::Object(m.iter().filter(|(k, _)| keys.contains(k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()),
            v => v.clone(),
        };
        let part = reads.iter().filter_map(|(section, keys)| {
            let v = stats.get(*section)?;
            let v = match v {
                Value::Array(entries) => Value::Array(entries.iter().map(|e| only(e, keys)).collect()),
                v => only(v, keys),
            };
            Some((section.to_string(), v))
        });
        Value::Object(part.collect())
    }

    #[test]
    fn the_part_of_the_document_the_formulas_read_gives_the_same_summary() {
        let stats = json!({
            "time": {"end_s": 1.0}, "frames": {"data_injected": 3},
            "window": {"data_injected": 8, "data_delivered": 7},
            "rps": [{"name": "a", "first_cnm_s": 0.5, "cr_mean_bps": 1.0}, {"name": "b", "first_message_s": 0.25}, {"name": "c", "first_cnm_s": null}],
            "queues": [{"name": "q", "cp": true, "cp_fb_negative_window": 2, "arrivals": 9}, {"name": "r", "cp": false, "cp_fb_negative_window": 5}, {"name": "s", "cp": {"qcn": {}}, "cp_fb_negative_window": 1}],
            "flows": [{"name": "f", "tcp_goodput_bps": 2.5e6, "tcp_dctcp_alpha": null, "size_bytes": 10}, {"name": "g", "tcp_goodput_bps": 1e6, "tcp_dctcp_alpha": 0.5}, {"name": "h"}],
            "ports": [{"name": "p", "pause_sent": 3, "pause_received": 1, "paused_s_window": [0.5, 2.0, 1.0], "node": "sw"}],
        });
        let part = read_part(&stats, &protocol_summary_reads());
        assert_eq!(part["queues"][0], json!({"cp": true, "cp_fb_negative_window": 2})); // no protocol has a queue metric: no name
        assert!(part.get("time").is_none() && part["window"] == json!({"data_injected": 8}));
        assert_eq!(protocol_summary(part.clone()), protocol_summary(stats.clone()));
        assert_eq!(protocol_summary(part)["values"]["global"]["fb_negative_samples_pct"], json!(37.5));
        let tallied = read_part(&stats, &tally_reads());
        assert_eq!(tallied, json!({"flows": [{"tcp_goodput_bps": 2.5e6, "tcp_dctcp_alpha": null}, {"tcp_goodput_bps": 1e6, "tcp_dctcp_alpha": 0.5}, {}]}));
        assert_eq!(protocol_summary(tallied)["ran"], protocol_summary(stats)["ran"]);
    }

    #[test]
    fn the_reads_name_each_formulas_statistics_and_each_tallys_keys() {
        let reads = protocol_summary_reads();
        for s in summaries() {
            for p in s.engine.iter().chain(s.formula.unwrap().marks) {
                let (section, key) = p.split_once('.').unwrap();
                assert!(reads[section].contains(key), "{p}");
            }
            if let Some(section) = s.section() {
                assert!(reads[section].contains("name"), "{section}");
            }
        }
        for t in super::super::PROTOCOLS.iter().flat_map(|p| p.tallies) {
            let (section, key) = t.marks.split_once('.').unwrap_or((t.marks, ""));
            assert!([key, t.unless].iter().all(|k| k.is_empty() || reads[section].contains(k)), "{}", t.what);
        }
    }

    #[test]
    fn a_document_without_sections_gives_nulls_and_no_entity() {
        let out = protocol_summary(json!({}));
        assert_eq!(out["values"]["global"]["first_cnm_s"], Value::Null);
        assert_eq!(out["values"]["global"]["fb_negative_samples_pct"], Value::Null);
        assert_eq!(out["values"]["port"], json!({}));
    }
}
