//! A JSON document (a run's stats document) read one top-level section at a time, and a list
//! section one entry at a time: each entry is a value of its own, handed over as it is read and
//! let go after, so a large document (a fabric's hundreds of thousands of ports and queues) is
//! never a tree of values as a whole (`registry::metrics::protocol_summary`).

use serde::de::{DeserializeSeed, Deserializer, Error, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// What is done with a document's sections as they are read.
pub trait Sections {
    /// Whether the top-level key `section` is read: the others are skipped unparsed.
    fn reads(&self, section: &str) -> bool;
    /// The list under `section` begins (its entries follow, in order, through `entry`).
    fn list(&mut self, section: &str);
    /// An entry of the list under `section`.
    fn entry(&mut self, section: &str, entry: Value);
    /// The value under `section`, when it is not a list.
    fn value(&mut self, section: &str, value: Value);
}

/// Reads `text`, a JSON object, into `sections`.
pub fn read(text: &str, sections: &mut impl Sections) -> serde_json::Result<()> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Document(sections))?;
    de.end()
}

/// The document: a JSON object of sections.
struct Document<'a, S>(&'a mut S);

impl<'de, S: Sections> Visitor<'de> for Document<'_, S> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let sections = self.0;
        while let Some(key) = map.next_key::<String>()? {
            if sections.reads(&key) {
                map.next_value_seed(Section { key: &key, sections: &mut *sections })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// A section under `key`: a list, read an entry at a time, or any other value, read whole.
struct Section<'a, S> {
    key: &'a str,
    sections: &'a mut S,
}

impl<'de, S: Sections> DeserializeSeed<'de> for Section<'_, S> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<S: Sections> Section<'_, S> {
    fn whole<E: Error>(self, value: Value) -> Result<(), E> {
        self.sections.value(self.key, value);
        Ok(())
    }
}

impl<'de, S: Sections> Visitor<'de> for Section<'_, S> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.sections.list(self.key);
        while let Some(entry) = seq.next_element::<Value>()? {
            self.sections.entry(self.key, entry);
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut object = Map::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            object.insert(k, v);
        }
        self.whole(Value::Object(object))
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<(), E> {
        self.whole(Value::from(v))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<(), E> {
        self.whole(Value::from(v))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<(), E> {
        self.whole(Value::from(v))
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<(), E> {
        self.whole(Value::from(v))
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<(), E> {
        self.whole(Value::from(v))
    }

    fn visit_unit<E: Error>(self) -> Result<(), E> {
        self.whole(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every call, in order.
    #[derive(Default)]
    struct Log(Vec<Value>);

    impl Sections for Log {
        fn reads(&self, section: &str) -> bool {
            section != "skipped"
        }
        fn list(&mut self, section: &str) {
            self.0.push(json!(["list", section]));
        }
        fn entry(&mut self, section: &str, entry: Value) {
            self.0.push(json!(["entry", section, entry]));
        }
        fn value(&mut self, section: &str, value: Value) {
            self.0.push(json!(["value", section, value]));
        }
    }

    #[test]
    fn a_list_is_handed_over_an_entry_at_a_time_and_any_other_section_whole() {
        let text = r#"{"ports": [{"a": 1, "b": [0.5, null]}, 2], "skipped": [{"x": 1}], "window": {"n": 3}, "seed": 1,
                       "f": -1.5, "s": "x", "t": true, "z": null, "none": []}"#;
        let mut log = Log::default();
        read(text, &mut log).unwrap();
        assert_eq!(log.0, [json!(["list", "ports"]), json!(["entry", "ports", {"a": 1, "b": [0.5, null]}]), json!(["entry", "ports", 2]),
                           json!(["value", "window", {"n": 3}]), json!(["value", "seed", 1]), json!(["value", "f", -1.5]),
                           json!(["value", "s", "x"]), json!(["value", "t", true]), json!(["value", "z", null]), json!(["list", "none"])]);
    }

    #[test]
    fn a_document_that_is_no_object_or_not_json_is_an_error() {
        for text in ["[]", "{", r#"{"ports": [1,]}"#, "{} x"] {
            assert!(read(text, &mut Log::default()).is_err(), "{text}");
        }
    }
}
