//! One entry of the stats document's tables (a queue, a flow, …) as a list of fields, written
//! straight into the document's text with what a `serde_json::Value` object would give: keys in
//! sorted order (its map is a `BTreeMap`), a key given twice keeps its last value, numbers and
//! strings as serde_json writes them. A million queues cost a `Value` tree each otherwise.

use serde_json::Value;
use std::borrow::Cow;

pub(super) enum Field<'a> {
    U64(u64),
    /// Written as serde_json writes an `f64`: null when it is not finite.
    F64(f64),
    Bool(bool),
    Str(Cow<'a, str>),
    /// `"A>B"` (a port's name), made only if the entry becomes a `Value`.
    Pair(&'a str, &'a str),
    /// A value's text as a string (a queue's capacity), made only if the entry becomes a `Value`.
    Shown(&'a dyn std::fmt::Display),
    Null,
    /// A nested value (a protocol's field, a list of receivers).
    Value(Value),
}

impl From<u64> for Field<'_> {
    fn from(v: u64) -> Self {
        Field::U64(v)
    }
}
impl From<f64> for Field<'_> {
    fn from(v: f64) -> Self {
        Field::F64(v)
    }
}
impl From<bool> for Field<'_> {
    fn from(v: bool) -> Self {
        Field::Bool(v)
    }
}
impl<'a> From<&'a str> for Field<'a> {
    fn from(v: &'a str) -> Self {
        Field::Str(Cow::Borrowed(v))
    }
}
impl From<String> for Field<'_> {
    fn from(v: String) -> Self {
        Field::Str(Cow::Owned(v))
    }
}
impl From<Value> for Field<'_> {
    fn from(v: Value) -> Self {
        Field::Value(v)
    }
}
impl<'a, T: Into<Field<'a>>> From<Option<T>> for Field<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Field::Null, Into::into)
    }
}

impl Field<'_> {
    fn into_value(self) -> Value {
        match self {
            Field::U64(v) => Value::from(v),
            Field::F64(v) => Value::from(v), // null when not finite, as `json!` makes it
            Field::Bool(v) => Value::Bool(v),
            Field::Str(v) => Value::String(v.into_owned()),
            Field::Pair(a, b) => Value::String(format!("{a}>{b}")),
            Field::Shown(v) => Value::String(v.to_string()),
            Field::Null => Value::Null,
            Field::Value(v) => v,
        }
    }
    fn write(&self, out: &mut Vec<u8>) {
        let r = match self {
            Field::U64(v) => serde_json::to_writer(&mut *out, v),
            Field::F64(v) => serde_json::to_writer(&mut *out, v),
            Field::Bool(v) => serde_json::to_writer(&mut *out, v),
            Field::Str(v) => serde_json::to_writer(&mut *out, v.as_ref()),
            // Escaped as it is formatted, as a string is (serde_json's `collect_str`).
            Field::Pair(a, b) => serde::Serializer::collect_str(&mut serde_json::Serializer::new(&mut *out), &format_args!("{a}>{b}")),
            Field::Shown(v) => serde::Serializer::collect_str(&mut serde_json::Serializer::new(&mut *out), v),
            Field::Null => serde_json::to_writer(&mut *out, &()),
            Field::Value(v) => serde_json::to_writer(&mut *out, v),
        };
        r.expect("numbers, strings and values always serialise");
    }
}

/// An entry's fields in the order given; `write` and `into_value` put them in the document's.
pub(super) struct Entry<'a> {
    fields: Vec<(Cow<'a, str>, Field<'a>)>,
    /// Every key given after the keys before it in the document's order: nothing to sort.
    sorted: bool,
}

impl Default for Entry<'_> {
    fn default() -> Self {
        Entry { fields: Vec::with_capacity(24), sorted: true } // a queue's fields, in one allocation
    }
}

impl<'a> Entry<'a> {
    pub fn put(&mut self, key: &'static str, v: impl Into<Field<'a>>) -> &mut Self {
        self.push(Cow::Borrowed(key), v.into());
        self
    }
    /// The fields of `extra` (a protocol's report: an object; anything else adds nothing), each
    /// replacing a field of its key given before.
    pub fn merge(&mut self, extra: Value) {
        if let Value::Object(m) = extra {
            m.into_iter().for_each(|(k, v)| self.push(Cow::Owned(k), Field::Value(v)));
        }
    }
    fn push(&mut self, key: Cow<'a, str>, v: Field<'a>) {
        self.sorted &= self.fields.last().is_none_or(|last| last.0 < key);
        self.fields.push((key, v));
    }
    /// Sorted by key, each key once with the value given last.
    fn ordered(mut self) -> impl Iterator<Item = (Cow<'a, str>, Field<'a>)> {
        if !self.sorted {
            self.fields.sort_by(|a, b| a.0.cmp(&b.0)); // stable: equal keys stay in the order given
        }
        let mut fields = self.fields.into_iter().peekable();
        std::iter::from_fn(move || loop {
            let f = fields.next()?;
            if fields.peek().is_none_or(|next| next.0 != f.0) {
                return Some(f);
            }
        })
    }
    /// The entry as JSON text appended to `out`: the text of `into_value()`.
    pub fn write(self, out: &mut Vec<u8>) {
        out.push(b'{');
        for (n, (key, field)) in self.ordered().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            serde_json::to_writer(&mut *out, key.as_ref()).expect("a string always serialises");
            out.push(b':');
            field.write(out);
        }
        out.push(b'}');
    }
    pub fn into_value(self) -> Value {
        Value::Object(self.ordered().map(|(k, f)| (k.into_owned(), f.into_value())).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_and_value_are_those_of_json_objects_merged() {
        let report = || json!({"zeta": "replaced", "nested": {"b": [1, 2.5, null], "a": -0.0}, "m": u64::MAX});
        let entry = || {
            let mut e = Entry::default();
            e.put("zeta", 1u64).put("alpha", f64::NAN).put("mid", 0.1 + 0.2).put("big", 1e300).put("whole", 3.0);
            e.put("s", "a\"b\\c\u{1}é").put("none", None::<f64>).put("t", true).put("inf", f64::INFINITY);
            e.put("pair", Field::Pair("S\"1", "H\n2")).put("shown", Field::Shown(&crate::units::Amount::Frames(7)));
            e.merge(report());
            e.merge(json!(["not an object"]));
            e
        };
        // What the document's entries were made as: a `json!` object, a report merged into it.
        let mut expected = json!({"zeta": 1u64, "alpha": f64::NAN, "mid": 0.1 + 0.2, "big": 1e300, "whole": 3.0,
                                  "s": "a\"b\\c\u{1}é", "none": None::<f64>, "t": true, "inf": f64::INFINITY,
                                  "pair": "S\"1>H\n2", "shown": "7 frames"});
        if let (Value::Object(a), Value::Object(b)) = (&mut expected, report()) {
            a.extend(b);
        }
        let mut out = vec![];
        entry().write(&mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, expected.to_string());
        assert_eq!(entry().into_value(), expected);
        // Given in the document's order, the same text.
        let mut ordered = Entry::default();
        ordered.put("a", 1u64).put("b", Field::Pair("x", "y")).merge(json!({"c": [1.5], "d": null}));
        assert!(ordered.sorted);
        let mut out = vec![];
        ordered.write(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"a":1,"b":"x>y","c":[1.5],"d":null}"#);
        assert!(text.starts_with("{\"alpha\":null,\"big\":1e+300,") && text.ends_with(",\"zeta\":\"replaced\"}"), "{text}");
    }
}
