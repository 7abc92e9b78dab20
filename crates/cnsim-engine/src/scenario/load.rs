//! Loading: TOML text → `--set` overrides (format-preserving, so line numbers stay right) → the
//! typed `Scenario`, with one-line errors.

use super::error::{ScenarioError, Source};
use super::model::Scenario;
use toml_edit::{DocumentMut, Item, Table, Value};

pub struct Loaded {
    pub scenario: Scenario,
    /// The text that was deserialized (the file with overrides applied); error spans refer to it.
    pub text: String,
    /// The file's own text.
    pub orig: String,
    pub path: String,
}

impl Loaded {
    pub fn source(&self) -> Source<'_> {
        Source { path: &self.path, text: &self.text, orig: &self.orig }
    }
    /// The resolved scenario: every default filled in, overrides and seed applied.
    ///
    /// Linear in the scenario's size: the arrays of tables (`[[flow]]`, `[[host]]`, …) are written one
    /// element at a time after the rest, since the serializer's cost grows with the square of an
    /// array's length (40 000 flows: seconds).
    pub fn resolved_toml(&self) -> String {
        fn each<T: serde::Serialize>(out: &mut String, key: &str, items: &[T]) -> Result<(), toml::ser::Error> {
            for item in items {
                out.push('\n');
                out.push_str(&toml::to_string(&std::collections::BTreeMap::from([(key, [item])]))?);
            }
            Ok(())
        }
        let write = || -> Result<String, toml::ser::Error> {
            let mut base = self.scenario.clone();
            let arrays = (
                std::mem::take(&mut base.switches),
                std::mem::take(&mut base.routers),
                std::mem::take(&mut base.hosts),
                std::mem::take(&mut base.links),
                std::mem::take(&mut base.ports),
                std::mem::take(&mut base.groups),
                std::mem::take(&mut base.flows),
                std::mem::take(&mut base.mcast_receivers),
            );
            let mut out = toml::to_string(&base)?;
            each(&mut out, "switch", &arrays.0)?;
            each(&mut out, "router", &arrays.1)?;
            each(&mut out, "host", &arrays.2)?;
            each(&mut out, "link", &arrays.3)?;
            each(&mut out, "port", &arrays.4)?;
            each(&mut out, "group", &arrays.5)?;
            each(&mut out, "flow", &arrays.6)?;
            each(&mut out, "mcast_receiver", &arrays.7)?;
            Ok(out)
        };
        write().unwrap_or_else(|e| format!("# could not serialize: {e}\n"))
    }
}

/// Parse `text` (named `path` in errors), apply `overrides` (`key.path`, value) and `seed`.
///
/// Without overrides or seed the text is deserialized as it is: the format-preserving document
/// (several times the text's size in memory) is parsed only to apply overrides, or to explain an
/// error (the old syntax).
pub fn load(text: &str, path: &str, overrides: &[(String, String)], seed: Option<u64>) -> Result<Loaded, ScenarioError> {
    let text_in = text;
    let src = Source { path, text, orig: text };
    if let Some((at, msg)) = super::unseen::first(text) {
        return Err(src.err(Some(at), msg));
    }
    if overrides.is_empty() && seed.is_none() {
        if is_blank(text) {
            return Err(src.err(None, EMPTY));
        }
        if let Ok(scenario) = toml::from_str::<Scenario>(text).map_err(drop).and_then(|s| if s.fabric.is_none() { Ok(s) } else { Err(()) }) {
            return Ok(Loaded { scenario, text: text.to_string(), orig: text.to_string(), path: path.to_string() });
        }
    }
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| src.err(e.span(), e.message()))?;
    for (key, value) in overrides {
        set(&mut doc, key, value).map_err(|m| ScenarioError(format!("{path}: --set {key}={value}: {m}")))?;
    }
    if let Some(s) = seed {
        let seed = i64::try_from(s).map_err(|_| ScenarioError(format!("{path}: seed {s} is too large")))?;
        set(&mut doc, "simulation.seed", &seed.to_string()).map_err(ScenarioError)?;
    }
    let text = doc.to_string();
    let src = Source { path, text: &text, orig: text_in };
    if let Some((at, msg)) = super::unseen::first(&text) {
        return Err(src.err(Some(at), msg)); // from an override's value
    }
    if doc.as_table().is_empty() {
        return Err(src.err(None, EMPTY));
    }
    super::fabric::apply(&mut doc, &src)?;
    let text = doc.to_string();
    let src = Source { path, text: &text, orig: text_in };
    if let Some((needle, msg)) = old_syntax(&doc) {
        let at = text.find(needle).map(|i| i..i + needle.len());
        return Err(src.err(at, msg));
    }
    let scenario: Scenario = toml::from_str(&text).map_err(|e| src.err(e.span(), e.message()))?;
    Ok(Loaded { scenario, text, orig: text_in.to_string(), path: path.to_string() })
}

const EMPTY: &str = "empty scenario: it has no tables or keys; a scenario defines at least its nodes ([[switch]], [[host]]), usually links and flows too (docs/scenarios.md)";

/// No key or table: only blank lines and comments.
fn is_blank(text: &str) -> bool {
    text.lines().map(str::trim).all(|l| l.is_empty() || l.starts_with('#'))
}

/// Set `key` (dot-separated; array-of-tables entries by index, e.g. `flow.0.traffic.rate`) to
/// `value`, read as a TOML value when it is one (`3`, `true`, `"1Gbps"`) and as a string otherwise.
fn set(doc: &mut DocumentMut, key: &str, value: &str) -> Result<(), String> {
    let parts: Vec<&str> = key.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err("empty key segment".into());
    }
    let val: Value = value.trim().parse().unwrap_or_else(|_| Value::from(value));
    set_in_table(doc.as_table_mut(), &parts, val)
}

fn set_in_table(t: &mut Table, parts: &[&str], val: Value) -> Result<(), String> {
    let part = parts[0];
    if parts.len() == 1 {
        t.insert(part, Item::Value(val));
        return Ok(());
    }
    let item = t.entry(part).or_insert_with(|| Item::Table(Table::new()));
    match item {
        Item::Table(sub) => set_in_table(sub, &parts[1..], val),
        Item::ArrayOfTables(arr) => {
            let n = arr.len();
            let idx: usize = parts[1].parse().map_err(|_| format!("{part}: expected an index into its {n} tables, got {:?}", parts[1]))?;
            let sub = arr.get_mut(idx).ok_or_else(|| format!("{part}.{idx}: out of range (there are {n})"))?;
            if parts.len() == 2 {
                return Err(format!("{part}.{idx}: cannot replace a whole table"));
            }
            set_in_table(sub, &parts[2..], val)
        }
        Item::Value(v) => set_in_value(v, &parts[1..], val).map_err(|m| format!("{part}.{m}")),
        Item::None => Err(format!("{part}: not a table")),
    }
}

fn set_in_value(v: &mut Value, parts: &[&str], val: Value) -> Result<(), String> {
    let Value::InlineTable(t) = v else {
        return Err(format!("{}: the key above it is not a table", parts[0]));
    };
    if parts.len() == 1 {
        t.insert(parts[0], val);
        return Ok(());
    }
    let entry = t.entry(parts[0]).or_insert_with(|| Value::InlineTable(Default::default()));
    set_in_value(entry, &parts[1..], val)
}

/// Scenario files written before protocols got their own tables (cnsim 0.1): say what to write
/// instead of failing on an unknown variant, as the protocol whose table replaced the key says
/// (`slots::register::OldKey`). Returns (text to point at, message).
fn old_syntax(doc: &DocumentMut) -> Option<(&'static str, String)> {
    let has = |item: Option<&Item>, key: &str| item.and_then(|i| i.as_table_like()).is_some_and(|t| t.contains_key(key));
    let entries = |name: &str| doc.get(name).and_then(|i| i.as_array_of_tables()).map(|a| a.iter().collect::<Vec<_>>()).unwrap_or_default();
    let old = crate::registry::PROTOCOLS.iter().flat_map(|p| p.old_keys).find(|o| match o.table {
        "cp" => has(doc.get("cp"), o.key),
        "port.cp" => entries("port").iter().any(|p| has(p.get("cp"), o.key)),
        "flow.rp" => entries("flow").iter().any(|f| has(f.get("rp"), o.key)),
        _ => false,
    })?;
    Some((old.key, old.hint.replace("{key}", old.key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        load(text, "x.toml", &[], None).err().expect("refused").0
    }

    #[test]
    fn an_old_key_is_refused_with_the_hint_of_the_protocol_that_replaced_it() {
        let cp = refused("[cp]\nprotocol = \"qcn\"\n");
        assert!(cp.starts_with("x.toml:2:") && cp.contains("[cp.qcn]"), "{cp}");
        let port = refused("[[port]]\ncp = { protocol = \"qcn\" }\n");
        assert!(port.contains("cp = { qcn = { ... } }"), "{port}");
        let rp = refused("[[flow]]\nrp = { copy_rate = \"own\" }\n");
        assert!(rp.contains("`rp = { copy_rate = ... }`") && rp.contains("limiter = {"), "{rp}");
        let eqcn = refused("[[flow]]\nrp = { eqcn_decrease = \"saved\" }\n");
        assert!(eqcn.contains("`rp = { eqcn_decrease = ... }`") && eqcn.contains("`decrease`"), "{eqcn}");
    }

    #[test]
    fn every_old_key_names_a_table_it_is_looked_for_in() {
        for o in crate::registry::PROTOCOLS.iter().flat_map(|p| p.old_keys) {
            assert!(["cp", "port.cp", "flow.rp"].contains(&o.table), "{}: {}", o.key, o.table);
        }
    }
}
