//! A flow's closed-loop transport, as its traffic table and its keys give it: the applications
//! `bulk`, `transactions` and `transfer` over `transport = { NAME = {…} }` (any transport the
//! registry lists: `TransportSlot`), and the older spellings of a transport whose registry line
//! gives an older key K (`Transport(Type, K)` in `registry/protocols.rs`) — the kinds `K-bulk`,
//! `K-transactions`, `K-transfer` and a flow's or workload's `K` table — which stay valid and mean
//! the same as `transport = { K = … }`. The traffic kinds' names are read and written here.

use super::model::{FlowSpec, TrafficKind, WorkloadSpec};
use super::slots::TransportSlot;
use crate::registry::protocols::occupants;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A closed-loop connection's application, as its traffic kind names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppKind {
    Bulk,
    Transactions,
    Transfer,
}

const APPS: [AppKind; 3] = [AppKind::Bulk, AppKind::Transactions, AppKind::Transfer];

/// The open-loop kinds and the applications, by name.
const KINDS: [(&str, TrafficKind); 7] = [
    ("cbr", TrafficKind::Cbr),
    ("poisson", TrafficKind::Poisson),
    ("bernoulli", TrafficKind::Bernoulli),
    ("pareto", TrafficKind::Pareto),
    ("bulk", TrafficKind::Bulk),
    ("transactions", TrafficKind::Transactions),
    ("transfer", TrafficKind::Transfer),
];

/// Writes the older spellings' tables: every older key, every kind's name, and what a flow's or
/// workload's tables under the older keys give.
macro_rules! older_spellings {
    (@tables $spec:ident [$($variant:ident $key:ident)*]) => {
        impl $spec {
            /// The transports its tables under older keys give: (key's index, transport).
            fn older_tables(&self) -> Vec<(u8, TransportSlot)> {
                let mut found = Vec::new();
                let mut _i = 0u8;
                $(
                    if let Some(t) = &self.$key {
                        found.push((_i, TransportSlot::$variant(t.clone())));
                    }
                    _i += 1;
                )*
                found
            }
        }
    };
    ($($variant:ident($ty:ty, $key:ident),)*) => {
        /// The transports' older keys, in the registry's order (`TrafficKind::Named`'s index).
        pub const OLDER_KEYS: &[&str] = &[$(stringify!($key)),*];

        /// Every traffic kind's name: `KINDS`', then each older key's `K-bulk`, `K-transactions`,
        /// `K-transfer` (in `APPS`' order).
        pub const NAMES: &[&str] = &[
            "cbr", "poisson", "bernoulli", "pareto", "bulk", "transactions", "transfer",
            $(concat!(stringify!($key), "-bulk"), concat!(stringify!($key), "-transactions"), concat!(stringify!($key), "-transfer"),)*
        ];

        /// The transport of the older key `index`, at its defaults.
        fn older_default(index: u8) -> TransportSlot {
            let mut _i = 0u8;
            $(
                if _i == index {
                    return TransportSlot::$variant(Default::default());
                }
                _i += 1;
            )*
            unreachable!("older key {index} of {_i}")
        }

        older_spellings!(@tables FlowSpec [$($variant $key)*]);
        older_spellings!(@tables WorkloadSpec [$($variant $key)*]);
    };
}
occupants!(OlderTransport => older_spellings);

impl TrafficKind {
    /// The application a closed-loop connection of this kind runs (`transfer` is closed-loop only
    /// over a transport); None for the open-loop generators.
    pub fn application(self) -> Option<AppKind> {
        match self {
            TrafficKind::Bulk => Some(AppKind::Bulk),
            TrafficKind::Transactions => Some(AppKind::Transactions),
            TrafficKind::Transfer => Some(AppKind::Transfer),
            TrafficKind::Named(app, _) => Some(app),
            TrafficKind::Cbr | TrafficKind::Poisson | TrafficKind::Bernoulli | TrafficKind::Pareto => None,
        }
    }

    /// A finite transfer: `size` bytes once.
    pub fn is_transfer(self) -> bool {
        self.application() == Some(AppKind::Transfer)
    }

    /// The older key of the transport this kind names (an older spelling), if any.
    fn named(self) -> Option<u8> {
        match self {
            TrafficKind::Named(_, k) => Some(k),
            _ => None,
        }
    }

    /// The kind's name in a scenario file.
    pub fn name(self) -> &'static str {
        match self {
            TrafficKind::Named(app, k) => NAMES[KINDS.len() + 3 * k as usize + APPS.iter().position(|a| *a == app).unwrap_or(0)],
            kind => KINDS.iter().find(|(_, k)| *k == kind).map_or("", |(n, _)| n),
        }
    }

    fn parse(name: &str) -> Option<TrafficKind> {
        let i = NAMES.iter().position(|n| *n == name)?;
        Some(match KINDS.get(i) {
            Some((_, kind)) => *kind,
            None => TrafficKind::Named(APPS[(i - KINDS.len()) % 3], ((i - KINDS.len()) / 3) as u8),
        })
    }

    /// "transfer" and the older spellings of it, quoted and joined: what a workload's traffic may be.
    pub fn transfer_names() -> String {
        let names = NAMES.iter().filter(|n| TrafficKind::parse(n).is_some_and(|k| k.is_transfer()));
        names.map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(" or ")
    }
}

impl Serialize for TrafficKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for TrafficKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = TrafficKind;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a traffic kind")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<TrafficKind, E> {
                TrafficKind::parse(s).ok_or_else(|| E::unknown_variant(s, NAMES))
            }
        }
        d.deserialize_str(V)
    }
}

impl FlowSpec {
    /// The flow's closed-loop transport, or None for open-loop traffic.
    pub fn transport_slot(&self) -> Result<Option<TransportSlot>, String> {
        transport_of(self.traffic.kind, self.transport.as_ref(), &self.older_tables())
    }
}

impl WorkloadSpec {
    /// The transport of the workload's transfers, or None for open-loop transfers.
    pub fn transport_slot(&self) -> Result<Option<TransportSlot>, String> {
        transport_of(*self.traffic.get_ref(), self.transport.as_ref(), &self.older_tables())
    }
}

/// The transport of traffic `kind` given `transport` and the tables under older keys (`older`:
/// the key's index and the transport its table gives).
fn transport_of(kind: TrafficKind, transport: Option<&TransportSlot>, older: &[(u8, TransportSlot)]) -> Result<Option<TransportSlot>, String> {
    let key = |k: u8| OLDER_KEYS[k as usize];
    let kinds = |k: u8| {
        let names = &NAMES[KINDS.len() + 3 * k as usize..][..3];
        format!("{}, {} or {}", names[0], names[1], names[2])
    };
    match (transport, older) {
        (_, [_, second, ..]) => Err(format!("give the transport once, not both the `{}` table and another", key(second.0))),
        (Some(_), [(k, _)]) => Err(format!("give the transport once: `transport = {{ {} = … }}` or the older `{}` table, not both", key(*k), key(*k))),
        (None, [(k, t)]) if kind.named() == Some(*k) => Ok(Some(t.clone())),
        (None, [(k, _)]) => Err(format!("a `{}` table needs {} traffic", key(*k), kinds(*k))),
        (None, []) if kind.named().is_some() => Ok(Some(older_default(kind.named().unwrap_or(0)))),
        (Some(t), []) if kind.named().is_some() => {
            let k = kind.named().unwrap_or(0);
            if std::mem::discriminant(t) == std::mem::discriminant(&older_default(k)) {
                Ok(Some(t.clone()))
            } else {
                let named = kinds(k).replace(" or ", " and ");
                let name = key(k).to_uppercase();
                Err(format!("{named} traffic is {name}'s: give kind \"bulk\", \"transactions\" or \"transfer\" with another transport"))
            }
        }
        (Some(t), []) if kind.application().is_some() => Ok(Some(t.clone())),
        (Some(_), []) => Err("a transport is for bulk, transactions and transfer traffic".into()),
        (None, []) if matches!(kind, TrafficKind::Bulk | TrafficKind::Transactions) => {
            Err("bulk and transactions traffic needs a transport: transport = { NAME = {…} }".into())
        }
        (None, []) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_and_writes_its_name() {
        for name in NAMES {
            let kind = TrafficKind::parse(name).expect(name);
            assert_eq!(kind.name(), *name);
        }
        assert_eq!(TrafficKind::parse("tcp-transactions"), Some(TrafficKind::Named(AppKind::Transactions, 0)));
        assert_eq!(TrafficKind::parse("udp"), None);
        assert_eq!(TrafficKind::transfer_names(), "\"transfer\" or \"tcp-transfer\"");
    }
}
