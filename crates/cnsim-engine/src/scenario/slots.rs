//! The scenario's protocol slots, written from the registry (`registry/protocols.rs`): each slot's
//! enum has `"none"` and one variant per protocol registered in the slot, holding the table that
//! protocol's slot type names (`slots::spec::FromSpec::Spec`, in `protocols/<name>/spec.rs`); a
//! queue's `discipline` names the registered queue managements, each with its own table; a
//! multicast receiver's `cc` names the registered multi-rate receivers; the flow-control slot's
//! protocols name their keys themselves (`slots::spec::Keys`). The router-feedback slot's tables
//! are fields of the scenario and of a flow, written there (`model.rs`).

use super::keyed::{concat, Key, Replay};
use crate::protocols::*;
use crate::registry::protocols::occupants;
use crate::slots::spec::{FromSpec, Keys};
use crate::units::Amount;
use serde::de::{self, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

crate::defaults::default_fns! {
    d_capacity: Amount = Amount::Frames(100);
}

/// Writes the congestion point slot's enum.
macro_rules! cp_slot {
    ($($variant:ident($ty:ty),)+) => {
        /// The congestion point slot: `cp = "none"` or one protocol table, e.g. `[cp.qcn]`.
        #[derive(Clone, Debug, Deserialize, Serialize, Default)]
        #[serde(rename_all = "kebab-case")]
        pub enum CpSlot {
            #[default]
            None,
            $($variant(<$ty as FromSpec>::Spec),)+
        }
    };
}
occupants!(Cp => cp_slot);

/// Writes the reaction point slot's enum.
macro_rules! rp_slot {
    ($($variant:ident($ty:ty),)+) => {
        /// The reaction point slot: `rp = "none"` or one protocol table, e.g. `rp = { qcn = {} }`. A
        /// protocol with a notification point builds it at every receiver from the same table.
        #[derive(Clone, Debug, Deserialize, Serialize, Default)]
        #[serde(rename_all = "kebab-case")]
        pub enum RpSlot {
            #[default]
            None,
            $($variant(<$ty as FromSpec>::Spec),)+
        }
    };
}
occupants!(Rp => rp_slot);

/// Writes a queue's table: its capacity, its discipline and each queue management's table.
macro_rules! queue_params {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct QueueParams {
            /// Drop-tail capacity in frames or bytes, default 100 frames (Mliki et al. 2016a/b/002). Under
            /// strict priority each class has this capacity.
            #[serde(default = "d_capacity")]
            pub capacity: Amount,
            /// "fifo" (one drop-tail queue) or "prio" (strict priority over the 8 classes), or a queue
            /// management in front of a drop-tail FIFO. Default: "prio" when flow control is PFC,
            /// "fifo" otherwise.
            pub discipline: Option<DisciplineSpec>,
            $(
                /// This queue management's table (its key is its discipline's name), read with that
                /// discipline only.
                #[serde(default)]
                pub $key: <$ty as FromSpec>::Spec,
            )+
        }

        /// A queue's discipline: one drop-tail FIFO, strict priority, or a queue
        /// management (registered in `registry/protocols.rs`) in front of a drop-tail FIFO.
        #[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
        #[serde(rename_all = "kebab-case")]
        pub enum DisciplineSpec {
            Fifo,
            Prio,
            $($variant,)+
        }
    };
}
occupants!(Aqm => queue_params);

/// Writes the transport slot's enum.
macro_rules! transport_slot {
    ($($variant:ident($ty:ty),)+) => {
        /// The closed-loop transport of a flow's connections: one protocol table, e.g.
        /// `transport = { tcp = {} }` or `[flow.transport.tcp]`.
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum TransportSlot {
            $($variant(<$ty as FromSpec>::Spec),)+
        }
    };
}
occupants!(Transport => transport_slot);

/// Writes the multi-rate multicast receiver slot's enum.
macro_rules! mcast_cc_slot {
    ($($variant:ident($ty:ty),)+) => {
        /// A multicast receiver's congestion control: one protocol table, e.g. `cc = { rlm = {} }`.
        #[derive(Clone, Debug, Deserialize, Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum McastCcSlot {
            $($variant(<$ty as FromSpec>::Spec),)+
        }
    };
}
occupants!(McastCc => mcast_cc_slot);

/// Writes the flow-control slot's enum, read and written as an enum whose variants are `"none"`
/// and every key its protocols name (`scenario/keyed.rs`).
macro_rules! fc_slot {
    ($($variant:ident($ty:ty),)+) => {
        /// The flow-control slot: `flow_control = "none"` or one protocol's table under one of its
        /// keys, e.g. `[flow_control.pfc]`.
        #[derive(Clone, Debug, Default)]
        pub enum FlowControlSlot {
            #[default]
            None,
            $($variant(<$ty as FromSpec>::Spec),)+
        }

        const FC_COUNT: usize = 1 $(+ <<$ty as FromSpec>::Spec as Keys>::KEYS.len())+;
        /// Every key of the flow-control slot, in the registry's order.
        pub static FC_KEYS: [&str; FC_COUNT] = concat::<FC_COUNT>(&[&["none"], $(<<$ty as FromSpec>::Spec as Keys>::KEYS,)+]);

        impl Serialize for FlowControlSlot {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    FlowControlSlot::None => s.serialize_unit_variant("FlowControlSlot", 0, "none"),
                    $(FlowControlSlot::$variant(t) => t.serialize(s),)+
                }
            }
        }

        impl<'de> Deserialize<'de> for FlowControlSlot {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = FlowControlSlot;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("enum FlowControlSlot")
                    }
                    fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<FlowControlSlot, A::Error> {
                        let (key, table) = a.variant_seed(Key(&FC_KEYS))?;
                        if key == "none" {
                            return table.unit_variant().map(|()| FlowControlSlot::None);
                        }
                        $(if <<$ty as FromSpec>::Spec as Keys>::KEYS.contains(&key) {
                            return Deserialize::deserialize(Replay { key, table }).map(FlowControlSlot::$variant);
                        })+
                        Err(de::Error::unknown_variant(key, &FC_KEYS))
                    }
                }
                d.deserialize_enum("FlowControlSlot", &FC_KEYS, V)
            }
        }
    };
}
occupants!(FcGen => fc_slot);
