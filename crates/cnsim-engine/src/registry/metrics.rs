//! Every protocol's metric declarations (`slots::metrics::Metric`), in the order the stats
//! document and `cnsim._core.metric_declarations()` list them, after the engine's own
//! (`report::METRICS`): each protocol's `PROTOCOL.metrics`, in the registry's order. Likewise
//! its summary metrics (`slots::metrics::Summary`), after `report::SUMMARIES`, and its renamed
//! outputs (`slots::metrics::Renamed`), after `report::RENAMED`. And the protocols' part of a
//! run's summary, computed by their formulas (`protocol_summary`, reading the stats document an
//! entry at a time: `entries`), and what of the document those read (`protocol_summary_reads`;
//! the tallies alone, `tally_reads`).

use crate::slots::metrics::{marked, Formula, Mechanism, Metric, Renamed, Summary, Tally};
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
/// document `stats` as JSON text (as the engine writes it, or a stored one read with today's
/// names; the part `protocol_summary_reads` names is enough):
/// `{"values": {"global": {NAME: value}, SCOPE: {NAME: [value]}}, "ran": [[WHAT, count]]}` — an
/// entity's metric is a column, a value for each entry of its section (`Summary::section`) in
/// the document's order (null where it does not apply); "ran" holds every protocol's `Tally` in
/// the registry's order, zeros included. A missing section has no entity; a missing statistic
/// gives null. The document is read an entry at a time (`entries::read`): each entry's metrics
/// and tallies are computed as it is read, and only what the global metrics read is kept for
/// them (`Formula::value`), so the document is never held as a tree of values (a large fabric
/// has hundreds of thousands of ports).
pub fn protocol_summary(stats: &str) -> serde_json::Result<Value> {
    let mut summing = Summing::new();
    super::entries::read(stats, &mut summing)?;
    Ok(summing.summary())
}

/// `protocol_summary` as it reads: the global metrics' part of the document, the tallies' counts
/// and the entities' columns so far.
struct Summing {
    /// Section → the keys of its entries the global metrics read (their statistics and marks).
    global_reads: BTreeMap<&'static str, BTreeSet<&'static str>>,
    /// What of the document the global metrics read: of a list section, the entries that have
    /// one of those keys (`marked`), with those keys only; any other section whole.
    global: Map<String, Value>,
    tallies: Vec<(&'static Tally, usize)>,
    /// An entity's metric, its section and its column.
    columns: Vec<(&'static Summary, &'static str, Formula, Vec<Value>)>,
}

impl Summing {
    fn new() -> Self {
        let formulas = || summaries().filter_map(|s| s.formula.map(|f| (s, f)));
        let global_paths = formulas().filter(|(s, _)| s.section().is_none())
            .flat_map(|(s, f)| s.engine.iter().chain(f.marks).map(|p| split(p)));
        Summing {
            global_reads: by_section(global_paths),
            global: Map::new(),
            tallies: super::PROTOCOLS.iter().flat_map(|p| p.tallies).map(|t| (t, 0)).collect(),
            columns: formulas().filter_map(|(s, f)| Some((s, s.section()?, f, Vec::new()))).collect(),
        }
    }

    /// The summary of what was read.
    fn summary(self) -> Value {
        let doc = Value::Object(self.global);
        let mut values = Map::new();
        for (s, _, _, column) in self.columns {
            let scope = values.entry(s.scope).or_insert_with(|| json!({}));
            scope[s.name] = Value::Array(column);
        }
        let global: Map<String, Value> = summaries().filter(|s| s.section().is_none())
            .filter_map(|s| Some((s.name.to_string(), (s.formula?.value)(&doc)))).collect();
        values.insert("global".to_string(), Value::Object(global));
        let ran: Vec<Value> = self.tallies.iter().map(|(t, n)| json!([t.what, n])).collect();
        json!({"values": values, "ran": ran})
    }
}

impl super::entries::Sections for Summing {
    fn reads(&self, section: &str) -> bool {
        self.global_reads.contains_key(section)
            || self.columns.iter().any(|c| c.1 == section)
            || self.tallies.iter().any(|(t, _)| split(t.marks).0 == section)
    }

    fn list(&mut self, section: &str) {
        if self.global_reads.contains_key(section) {
            self.global.insert(section.to_string(), json!([]));
        }
    }

    fn entry(&mut self, section: &str, entry: Value) {
        for (t, n) in &mut self.tallies {
            let (marks, key) = split(t.marks);
            if marks == section && marked(&entry, key) && (t.unless.is_empty() || !marked(&entry, t.unless)) {
                *n += 1;
            }
        }
        for (_, _, f, column) in self.columns.iter_mut().filter(|c| c.1 == section) {
            column.push((f.value)(&entry));
        }
        if let Some(keys) = self.global_reads.get(section) {
            let mut entry = entry;
            if let Value::Object(fields) = &mut entry {
                fields.retain(|k, _| keys.contains(k.as_str()));
            }
            if let (true, Some(Value::Array(kept))) = (keys.iter().any(|k| marked(&entry, k)), self.global.get_mut(section)) {
                kept.push(entry);
            }
        }
    }

    fn value(&mut self, section: &str, value: Value) {
        if self.global_reads.contains_key(section) {
            self.global.insert(section.to_string(), value);
        }
    }
}

/// What `protocol_summary` reads of a stats document: section → the keys it reads there (of each
/// entry of a list, of an object such as `window`) — every formula's statistics
/// (`Summary::engine`) and `marks`, and every tally's keys (not the entries' names: an entity's
/// metric is a column in its section's order). The part of a document with only these keys, each
/// list with all its entries, gives the summary the whole one gives, so a caller that holds a
/// large document hands over that part only.
pub fn protocol_summary_reads() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let formulas = summaries().filter_map(|s| s.formula.map(|f| (s, f)))
        .flat_map(|(s, f)| s.engine.iter().chain(f.marks).map(|p| split(p)));
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
        let out = summary(&stats);
        let v = &out["values"];
        assert_eq!(v["global"]["first_cnm_s"], json!(0.25));
        assert_eq!(v["global"]["fb_negative_samples_pct"], json!(25.0)); // only a CP's count
        assert_eq!(v["rp"]["first_cnm_s"], json!([0.5, 0.25, null])); // a column in the entries' order
        assert_eq!(v["flow"]["goodput_mbps"], json!([2.5, null]));
        assert_eq!(v["port"], json!({"pause_sent": [3, null], "pause_received": [1, null], "paused_s": [2.0, 0.0]}));
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
        assert_eq!(part["queues"][0], json!({"cp": true, "cp_fb_negative_window": 2}));
        assert_eq!(part["ports"][0], json!({"pause_sent": 3, "pause_received": 1, "paused_s_window": [0.5, 2.0, 1.0]})); // no name
        assert!(part.get("time").is_none() && part["window"] == json!({"data_injected": 8}));
        assert_eq!(summary(&part), summary(&stats));
        assert_eq!(summary(&part)["values"]["global"]["fb_negative_samples_pct"], json!(37.5));
        let tallied = read_part(&stats, &tally_reads());
        assert_eq!(tallied, json!({"flows": [{"tcp_goodput_bps": 2.5e6, "tcp_dctcp_alpha": null}, {"tcp_goodput_bps": 1e6, "tcp_dctcp_alpha": 0.5}, {}]}));
        assert_eq!(summary(&tallied)["ran"], summary(&stats)["ran"]);
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
                assert!(!reads[section].contains("name"), "{section}: the values are columns in the entries' order");
            }
        }
        for t in super::super::PROTOCOLS.iter().flat_map(|p| p.tallies) {
            let (section, key) = t.marks.split_once('.').unwrap_or((t.marks, ""));
            assert!([key, t.unless].iter().all(|k| k.is_empty() || reads[section].contains(k)), "{}", t.what);
        }
    }

    #[test]
    fn a_document_without_sections_gives_nulls_and_no_entity() {
        let out = summary(&json!({}));
        assert_eq!(out["values"]["global"]["first_cnm_s"], Value::Null);
        assert_eq!(out["values"]["global"]["fb_negative_samples_pct"], Value::Null);
        assert_eq!(out["values"]["port"], json!({"pause_sent": [], "pause_received": [], "paused_s": []}));
    }

    #[test]
    fn the_global_metrics_keep_only_the_entries_that_have_what_they_read() {
        let mut stats = json!({
            "window": {"data_injected": 8, "data_delivered": 7},
            "rps": [{"first_cnm_s": null}, {"first_message_s": 0.25, "cr_mean_bps": 1.0}, {}],
            "queues": [{"cp": false, "arrivals": 3}, {"cp": {"qcn": {}}, "cp_fb_negative_window": 2}, {"cp_fb_negative_window": 5}],
        });
        let mut summing = Summing::new();
        super::super::entries::read(&stats.to_string(), &mut summing).unwrap();
        assert_eq!(Value::Object(summing.global.clone()), json!({
            "window": {"data_injected": 8, "data_delivered": 7},
            "rps": [{"first_message_s": 0.25}],
            "queues": [{"cp": {"qcn": {}}, "cp_fb_negative_window": 2}, {"cp_fb_negative_window": 5}],
        }));
        let global = summing.summary()["values"]["global"].clone();
        assert_eq!(global, json!({"first_cnm_s": 0.25, "fb_negative_samples_pct": 25.0}));
        // Many more entries without what the global metrics read change nothing.
        for section in ["rps", "queues"] {
            let more = stats[section].as_array_mut().unwrap();
            more.extend((0..1000).map(|i| json!({"first_cnm_s": null, "cp": false, "cp_fb_negative_window": i})));
        }
        assert_eq!(summary(&stats)["values"]["global"], global);
    }

    /// `protocol_summary` of a document given as a tree of values.
    fn summary(stats: &Value) -> Value {
        protocol_summary(&stats.to_string()).unwrap()
    }
}
