//! `[fabric] cc = NAME`: one key that runs the whole scenario under a congestion control, by a
//! fabric preset a protocol registers (`slots::register::Fabric`). Applied to the document when
//! the scenario is loaded, before it is deserialized and before any range is checked: the preset's
//! `[queue]` keys go into `[defaults.queue]`, its `[tables]` at the top level, its `[flow]` keys
//! into every `[[flow]]` and its `[workload]` keys into every `[[workload]]`. The file's own keys
//! win: where the file and the preset both give a table, their keys are merged; where both give a
//! key, the file's value is kept. A preset's `"{base_rtt}"` is the base RTT of a path of
//! `longest_path` links of `[defaults.link]` (`Fabric::base_rtt`).

use super::error::Source;
use super::model::{FabricSpec, LinkParams};
use crate::slots::register::Fabric;
use serde::Deserialize;
use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

/// Every fabric preset the registry holds, with its protocol's name.
pub fn presets() -> impl Iterator<Item = (&'static str, &'static Fabric)> {
    crate::registry::PROTOCOLS.iter().flat_map(|p| p.fabrics.iter().map(move |f| (p.name, f)))
}

/// The known presets' names, for an error.
pub fn preset_names() -> String {
    presets().map(|(_, f)| f.name).collect::<Vec<_>>().join(", ")
}

/// Applies `[fabric]`'s preset to `doc` (nothing without `[fabric]`); errors point into `src`.
pub fn apply(doc: &mut DocumentMut, src: &Source) -> Result<(), crate::scenario::ScenarioError> {
    let Some(item) = doc.get("fabric") else { return Ok(()) };
    #[derive(Deserialize)]
    struct Wrap {
        fabric: FabricSpec,
    }
    let spec = toml::from_str::<Wrap>(&format!("fabric = {}", item_text(item)))
        .map(|w| w.fabric)
        .map_err(|e| src.path_err("fabric", format!("[fabric]: {}", e.message().trim())))?;
    let (_, preset) = presets().find(|(_, f)| f.name == spec.cc).ok_or_else(|| {
        src.path_err("fabric.cc", format!("fabric.cc = {:?} is no fabric preset; the known ones: {}", spec.cc, preset_names()))
    })?;
    let base_rtt = match preset.rtt_frames {
        None => None,
        Some(_) => {
            let hops = spec.longest_path.ok_or_else(|| {
                src.path_err("fabric.cc", format!("fabric.cc = {:?} needs the fabric's base RTT: give fabric.longest_path, the links on the longest path between two hosts", spec.cc))
            })?;
            let link = links(doc).map_err(|m| src.path_err("defaults.link", m))?;
            let rtt = preset.base_rtt(link.rate.0, link.delay.0, link.overhead.0, hops).expect("rtt_frames is set");
            Some(format!("{}ps", rtt.map_err(|m| src.path_err("fabric.longest_path", format!("fabric.longest_path: {m}")))?))
        }
    };
    let preset_doc: DocumentMut = preset.toml.parse().expect("a registered preset is TOML (tested)");
    let part = |name: &str| -> InlineTable {
        let mut t = preset_doc.get(name).and_then(Item::as_table).cloned().unwrap_or_default();
        fill(&mut t, base_rtt.as_deref());
        t.into_inline_table()
    };
    let root = doc.as_table_mut();
    merge(root, &part("tables"));
    let mut queue = InlineTable::new();
    queue.insert("queue", Value::InlineTable(part("queue")));
    let mut defaults = InlineTable::new();
    defaults.insert("defaults", Value::InlineTable(queue));
    merge(root, &defaults);
    for (array, name) in [("flow", "flow"), ("workload", "workload")] {
        let keys = part(name);
        // `[[flow]]` tables, or an array of inline tables (`flow = [{ … }, …]`).
        match root.get_mut(array) {
            Some(Item::ArrayOfTables(a)) => a.iter_mut().for_each(|t| merge(t, &keys)),
            Some(Item::Value(Value::Array(a))) => {
                a.iter_mut().filter_map(Value::as_inline_table_mut).for_each(|t| merge(t, &keys))
            }
            _ => {}
        }
    }
    Ok(())
}

/// An item's TOML text as a value (a `[table]` as an inline table).
fn item_text(item: &Item) -> String {
    match item {
        Item::Table(t) => t.clone().into_inline_table().to_string(),
        Item::Value(v) => v.to_string(),
        _ => "0".into(),
    }
}

/// `[defaults.link]`, its defaults filled in.
fn links(doc: &DocumentMut) -> Result<LinkParams, String> {
    let text = doc.get("defaults").and_then(|d| d.get("link")).map(item_text).unwrap_or_else(|| "{}".into());
    #[derive(Deserialize)]
    struct Wrap {
        link: LinkParams,
    }
    toml::from_str::<Wrap>(&format!("link = {text}")).map(|w| w.link).map_err(|e| format!("defaults.link: {}", e.message().trim()))
}

/// Replaces every string "{base_rtt}" in `t` by `base_rtt`.
fn fill(t: &mut Table, base_rtt: Option<&str>) {
    fn value(v: &mut Value, rtt: Option<&str>) {
        match v {
            Value::String(s) if s.value() == "{base_rtt}" => {
                if let Some(r) = rtt {
                    *v = Value::from(r);
                }
            }
            Value::InlineTable(t) => t.iter_mut().for_each(|(_, v)| value(v, rtt)),
            Value::Array(a) => a.iter_mut().for_each(|v| value(v, rtt)),
            _ => {}
        }
    }
    for (_, item) in t.iter_mut() {
        match item {
            Item::Value(v) => value(v, base_rtt),
            Item::Table(sub) => fill(sub, base_rtt),
            _ => {}
        }
    }
}

/// Adds `preset`'s keys to the table-like `into`: a key `into` lacks is added, two tables are
/// merged, and otherwise `into`'s value is kept.
fn merge(into: &mut dyn toml_edit::TableLike, preset: &toml_edit::InlineTable) {
    for (key, p) in preset.iter() {
        match into.get_mut(key) {
            None => {
                into.insert(key, Item::Value(p.clone()));
            }
            Some(mine) => {
                if let (Some(m), Value::InlineTable(p)) = (mine.as_table_like_mut(), p) {
                    merge(m, p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::load;

    const NET: &str = "[[switch]]\nnames = \"S\"\n[[host]]\nnames = [\"A\", \"B\"]\n[[link]]\nbetween = [\"S\", [\"A\", \"B\"]]\n[[flow]]\nfrom = \"A\"\nto = \"B\"\n";
    /// `NET` with its flow's traffic given (the presets that leave it to the file).
    const CBR: &str = "traffic = { kind = \"cbr\", rate = \"1Gbps\" }\n";

    fn resolved(text: &str, set: &[(&str, &str)]) -> Result<toml::Value, String> {
        let set: Vec<(String, String)> = set.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let l = load(text, "x.toml", &set, None).map_err(|e| e.0)?;
        Ok(toml::from_str(&l.resolved_toml()).unwrap())
    }

    #[test]
    fn every_registered_preset_is_toml_with_only_its_four_tables() {
        for (p, f) in super::presets() {
            let doc: toml_edit::DocumentMut = f.toml.parse().unwrap_or_else(|e| panic!("{p}/{}: {e}", f.name));
            for (k, _) in doc.iter() {
                assert!(["queue", "tables", "flow", "workload"].contains(&k), "{p}/{}: {k}", f.name);
            }
        }
    }

    #[test]
    fn the_key_writes_the_presets_keys_into_queues_tables_and_flows() {
        let r = resolved(&format!("[fabric]\ncc = \"dctcp\"\n{NET}"), &[]).unwrap();
        assert_eq!(r["defaults"]["queue"]["discipline"].as_str(), Some("threshold"), "{r}");
        let flow = &r["flow"][0];
        assert_eq!(flow["tcp"]["ecn"].as_str(), Some("dctcp"), "{r}");
        let r = resolved(&format!("[fabric]\ncc = \"qcn\"\n{NET}{CBR}"), &[]).unwrap();
        assert!(r["cp"].get("qcn").is_some(), "{r}");
    }

    #[test]
    fn the_key_works_with_set_and_the_files_own_keys_win() {
        let plain = resolved(&format!("[fabric]\ncc = \"qcn\"\n{NET}{CBR}"), &[("fabric.cc", "dcqcn")]).unwrap();
        assert_eq!(plain["defaults"]["queue"]["discipline"].as_str(), Some("dcqcn"), "{plain}");
        let own = format!("[fabric]\ncc = \"dctcp\"\n[defaults.queue]\nthreshold = {{ k = \"20 frames\" }}\n{NET}");
        let r = resolved(&own, &[]).unwrap();
        assert_eq!(r["defaults"]["queue"]["discipline"].as_str(), Some("threshold"), "{r}");
        assert_eq!(r["defaults"]["queue"]["threshold"]["k"].as_str(), Some("20 frames"), "{r}");
    }

    #[test]
    fn flows_given_as_an_array_of_inline_tables_get_the_presets_keys_too() {
        let text = "[fabric]\ncc = \"dctcp\"\n[[switch]]\nnames = \"S\"\n[[host]]\nnames = [\"A\", \"B\"]\n[[link]]\nbetween = [\"S\", [\"A\", \"B\"]]\n";
        let r = resolved(&format!("flow = [{{ from = \"A\", to = \"B\" }}]\n{text}"), &[]).unwrap();
        assert_eq!(r["flow"][0]["tcp"]["ecn"].as_str(), Some("dctcp"), "{r}");
    }

    #[test]
    fn an_unknown_preset_is_an_error_at_its_line_naming_the_known_ones() {
        let e = resolved(&format!("[simulation]\nduration = \"1ms\"\n[fabric]\ncc = \"nope\"\n{NET}"), &[]).unwrap_err();
        assert!(e.starts_with("x.toml:4:"), "{e}");
        for (_, f) in super::presets() {
            assert!(e.contains(f.name), "{e}");
        }
    }

    #[test]
    fn a_base_rtt_preset_needs_the_longest_path_and_fills_it_in() {
        let needs: Vec<_> = super::presets().filter(|(_, f)| f.rtt_frames.is_some()).collect();
        assert!(!needs.is_empty());
        for (_, f) in needs {
            let e = resolved(&format!("[fabric]\ncc = \"{}\"\n{NET}", f.name), &[]).unwrap_err();
            assert!(e.starts_with("x.toml:2:") && e.contains("longest_path"), "{e}");
            let text = format!("[fabric]\ncc = \"{}\"\nlongest_path = 2\n{NET}", f.name);
            let r = resolved(&text, &[]).unwrap();
            assert!(!r.to_string().contains("{base_rtt}"), "{r}");
        }
    }
}
