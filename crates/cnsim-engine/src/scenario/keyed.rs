//! A slot whose protocols give their tables under keys of their own (`slots::spec::Keys`): the
//! flow-control slot, where PAUSE is `[flow_control.pause]` or `[flow_control.pfc]`. The slot reads
//! the key as serde reads an enum's variant (so an unknown key is refused where it stands, with
//! every key the slot accepts), then hands the key and its table back to the protocol's own
//! externally tagged enum ([`Replay`]).

use serde::de::{self, DeserializeSeed, EnumAccess, IntoDeserializer, Visitor};
use serde::{forward_to_deserialize_any, Deserializer};
use std::fmt;

/// The slot's keys: `"none"` and then each protocol's, in the registry's order (`N` is their count).
pub const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            (j, n) = (j + 1, n + 1);
        }
        i += 1;
    }
    assert!(n == N, "the keys' count");
    out
}

/// Reads a slot's key, refusing one it does not list.
pub struct Key(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = &'static str;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'static str, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = &'static str;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<&'static str, E> {
        self.0.iter().copied().find(|k| *k == v).ok_or_else(|| E::unknown_variant(v, self.0))
    }
}

/// A key already read and its table still to read, given to a protocol's enum as the enum it is.
pub struct Replay<T> {
    pub key: &'static str,
    pub table: T,
}

impl<'de, T: de::VariantAccess<'de>> Deserializer<'de> for Replay<T> {
    type Error = T::Error;
    fn deserialize_any<W: Visitor<'de>>(self, w: W) -> Result<W::Value, T::Error> {
        w.visit_enum(self)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, T: de::VariantAccess<'de>> EnumAccess<'de> for Replay<T> {
    type Error = T::Error;
    type Variant = T;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, T), T::Error> {
        let key = seed.deserialize(self.key.into_deserializer())?;
        Ok((key, self.table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concat_keeps_the_order() {
        const K: [&str; 4] = concat::<4>(&[&["none"], &["a", "b"], &["c"]]);
        assert_eq!(K, ["none", "a", "b", "c"]);
    }
}
