//! The scenario's protocol slots, written from the registry (`registry/protocols.rs`): each slot's
//! enum has `"none"` and one variant per protocol registered in the slot, holding the table that
//! protocol's slot type names (`slots::spec::FromSpec::Spec`, in `protocols/<name>/spec.rs`); a
//! queue's `discipline` names the registered queue managements, each with its own table.

use crate::protocols::*;
use crate::registry::protocols::occupants;
use crate::slots::spec::FromSpec;
use crate::units::Amount;
use serde::{Deserialize, Serialize};

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
