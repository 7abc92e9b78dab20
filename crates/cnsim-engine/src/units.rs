//! Quantities with units, as written in scenario files: "1Gbps", "1500B", "25 frames", "0.5us".
//!
//! Parsing is exact: the decimal number is scaled with integer arithmetic, so "0.1s" is exactly
//! 100_000_000_000 ps (a float-based unit library would round). Units are case-sensitive where SI
//! needs it (Mbps vs mbps are both accepted; "MB" is megabytes, "Mb" megabits).

use serde::de::{self, Deserializer, Visitor};
use serde::Serialize;
use std::fmt;

/// Parse "<decimal><ws?><unit>" into an integer count of the base unit, given the unit table
/// (suffix → multiplier of the base unit). Rejects negatives, and values that are not whole
/// multiples of the base unit.
fn parse_scaled(s: &str, units: &[(&str, u128)], what: &str) -> Result<u64, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == '_'))
        .unwrap_or(s.len());
    let (num, unit) = (s[..split].trim(), s[split..].trim());
    if num.starts_with('-') {
        return Err(format!("{what} must not be negative: {s:?}"));
    }
    let num = num.trim_start_matches('+').replace('_', "");
    let mult = units
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, m)| *m)
        .ok_or_else(|| {
            let names: Vec<&str> = units.iter().map(|(u, _)| *u).filter(|u| !u.is_empty()).collect();
            format!("bad {what} {s:?}: unit must be one of {}", names.join(", "))
        })?;
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num.as_str(), ""),
    };
    if int.is_empty() && frac.is_empty() || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return Err(format!("bad {what} {s:?}: expected a number followed by a unit"));
    }
    let overflow = || format!("{what} {s:?} is too large");
    let mut value: u128 = if int.is_empty() { 0 } else { int.parse().map_err(|_| overflow())? };
    value = value.checked_mul(mult).ok_or_else(overflow)?;
    let mut scale = mult;
    for d in frac.chars() {
        if scale % 10 != 0 {
            return Err(format!("{what} {s:?} has more decimals than the unit allows"));
        }
        scale /= 10;
        value += (d as u128 - '0' as u128) * scale;
    }
    u64::try_from(value).map_err(|_| overflow())
}

const TIME_UNITS: &[(&str, u128)] = &[
    ("ps", 1),
    ("ns", 1_000),
    ("us", 1_000_000),
    ("µs", 1_000_000),
    ("ms", 1_000_000_000),
    ("s", 1_000_000_000_000),
];
const RATE_UNITS: &[(&str, u128)] = &[
    ("bps", 1),
    ("kbps", 1_000),
    ("Kbps", 1_000),
    ("Mbps", 1_000_000),
    ("Gbps", 1_000_000_000),
    ("Tbps", 1_000_000_000_000),
    ("b/s", 1),
    ("kb/s", 1_000),
    ("Mb/s", 1_000_000),
    ("Gb/s", 1_000_000_000),
];
const BYTE_UNITS: &[(&str, u128)] = &[("B", 1), ("kB", 1_000), ("KB", 1_000), ("KiB", 1024), ("MB", 1_000_000), ("MiB", 1 << 20), ("GB", 1_000_000_000), ("GiB", 1 << 30)];
const BIT_UNITS: &[(&str, u128)] = &[("bit", 1), ("b", 1), ("kbit", 1_000), ("Kbit", 1_000), ("Mbit", 1_000_000)];

macro_rules! unit_type {
    ($name:ident, $doc:literal, $expect:literal, $parse:expr, $fmt:expr) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub u64);
        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                ($parse)(s).map($name)
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(&($fmt)(self.0))
            }
        }
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.to_string())
            }
        }
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($expect)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        s.parse().map_err(E::custom)
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

/// Pick the largest unit that divides `v` exactly, so that formatting round-trips.
fn fmt_exact(v: u64, units: &[(&str, u128)]) -> String {
    let mut best = units[0];
    for &(u, m) in units {
        if m >= best.1 && (v as u128).is_multiple_of(m) && !u.contains('/') && !u.starts_with('K') && u != "µs" {
            best = (u, m);
        }
    }
    format!("{}{}", v as u128 / best.1, best.0)
}

unit_type!(Duration, "A time span in picoseconds (\"10s\", \"0.5us\"), at most `MAX_TIME` (about 53 days).", "a duration such as \"1us\"",
    |s: &str| parse_scaled(s, TIME_UNITS, "duration").and_then(|v| if v <= crate::core::time::MAX_TIME { Ok(v) } else {
        Err(format!("duration {s:?} is too large (at most 2^62 ps, about 53 days)"))
    }), |v| fmt_exact(v, TIME_UNITS));
unit_type!(Rate, "A bit rate in bit/s (\"1Gbps\", \"200Mbps\").", "a rate such as \"1Gbps\"",
    |s: &str| parse_scaled(s, RATE_UNITS, "rate"), |v| fmt_exact(v, &RATE_UNITS[..6]));
unit_type!(Bytes, "A size in bytes (\"1500B\", \"150kB\").", "a size such as \"1500B\"",
    |s: &str| parse_scaled(s, BYTE_UNITS, "size"), |v| fmt_exact(v, &BYTE_UNITS[..1]));
unit_type!(Bits, "An amount in bits (\"12Mbit\"), for protocol constants given in bits.", "bits such as \"12Mbit\"",
    |s: &str| parse_scaled(s, BIT_UNITS, "bit amount"), |v| format!("{v}bit"));

/// A queue length or threshold: either frames or bytes ("100 frames", "150000B").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amount {
    Frames(u64),
    Bytes(u64),
}

impl Amount {
    /// In bytes, counting a frame as `frame_bytes` (saturating: never wraps).
    pub fn bytes(self, frame_bytes: u64) -> u64 {
        match self {
            Amount::Frames(n) => n.saturating_mul(frame_bytes),
            Amount::Bytes(b) => b,
        }
    }
}

impl std::str::FromStr for Amount {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        for suffix in ["frames", "frame", "pkts", "packets"] {
            if let Some(n) = t.strip_suffix(suffix) {
                return parse_scaled(n.trim(), &[("", 1)], "frame count")
                    .map(Amount::Frames)
                    .map_err(|_| format!("bad frame count {s:?}: expected e.g. \"100 frames\""));
            }
        }
        parse_scaled(t, BYTE_UNITS, "amount")
            .map(Amount::Bytes)
            .map_err(|_| format!("bad amount {s:?}: expected frames (\"100 frames\") or bytes (\"150000B\")"))
    }
}
impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Amount::Frames(n) => write!(f, "{n} frames"),
            Amount::Bytes(b) => write!(f, "{b}B"),
        }
    }
}
impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}
impl<'de> serde::Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Amount;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("frames (\"100 frames\") or bytes (\"150000B\")")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Amount, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_exactly() {
        assert_eq!("0.1s".parse::<Duration>().unwrap().0, 100_000_000_000);
        assert_eq!("0.5us".parse::<Duration>().unwrap().0, 500_000);
        assert_eq!("1 us".parse::<Duration>().unwrap().0, 1_000_000);
        assert_eq!("1Gbps".parse::<Rate>().unwrap().0, 1_000_000_000);
        assert_eq!("0.12Gbps".parse::<Rate>().unwrap().0, 120_000_000);
        assert_eq!("200Mb/s".parse::<Rate>().unwrap().0, 200_000_000);
        assert_eq!("1500B".parse::<Bytes>().unwrap().0, 1500);
        assert_eq!("150kB".parse::<Bytes>().unwrap().0, 150_000);
        assert_eq!("25 frames".parse::<Amount>().unwrap(), Amount::Frames(25));
        assert_eq!("26000B".parse::<Amount>().unwrap(), Amount::Bytes(26000));
        assert_eq!("12Mbit".parse::<Bits>().unwrap().0, 12_000_000);
    }
    #[test]
    fn rejects_bad_input() {
        assert!("-1Gbps".parse::<Rate>().unwrap_err().contains("negative"));
        assert!("1Gbit".parse::<Rate>().unwrap_err().contains("unit must be one of"));
        assert!("fast".parse::<Rate>().is_err());
        assert!("0.5ps".parse::<Duration>().is_err());
        assert!("99999999999999999999s".parse::<Duration>().unwrap_err().contains("too large"));
        assert!("18000000s".parse::<Duration>().unwrap_err().contains("too large")); // fits u64 ps, not MAX_TIME
        assert!("50 days".parse::<Duration>().is_err());
        assert!("x frames".parse::<Amount>().is_err());
        assert!("s".parse::<Duration>().is_err());
    }
    #[test]
    fn formats_round_trip() {
        for s in ["10s", "1us", "500ns", "3ps"] {
            assert_eq!(s.parse::<Duration>().unwrap().to_string(), s);
        }
        assert_eq!("1Gbps".parse::<Rate>().unwrap().to_string(), "1Gbps");
        assert_eq!("1.5Gbps".parse::<Rate>().unwrap().to_string(), "1500Mbps");
    }
}
