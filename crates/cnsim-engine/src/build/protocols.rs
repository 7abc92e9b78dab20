//! Protocol wiring, written from the registry (`registry/protocols.rs`): each slot's scenario
//! table → its state, by the protocol's own `FromSpec` (`protocols/<name>/spec.rs`, whose range
//! checks name the key), wrapped in the slot's variant. Nothing here names a protocol but the
//! flow-control slot, whose one protocol (PAUSE, and PFC by priority) builds its settings itself.

use crate::protocols::pause::PauseCfg;
use crate::protocols::*;
use crate::registry::protocols::occupants;
use crate::registry::{Aqm, Cp, Np, Rp};
use crate::scenario::{CpSlot, DisciplineSpec, FlowControlSlot, QueueParams, RpSlot};
use crate::slots::spec::{FlowCx, FromSpec, PortCx, QueueCx};
use crate::units::Amount;
pub use crate::slots::spec::{frame_size, MAX_FRAME};

/// Writes the queue-management dispatch.
macro_rules! aqm {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        /// The queue management in front of the queue of the port `name` whose link runs at
        /// `rate_bps`, as its `discipline` names it, with its random stream; None for "fifo" and
        /// "prio". A queue management's table beside another discipline is refused, the
        /// last-registered first.
        /// Likely mistakes in its table go to `warn`.
        pub fn aqm(q: &QueueParams, rate_bps: u64, seed: u64, name: &str, warn: &mut Vec<String>) -> Result<Option<Aqm>, String> {
            let tables = [$((stringify!($key), q.discipline == Some(DisciplineSpec::$variant), q.$key.is_some()),)+];
            for &(key, chosen, given) in tables.iter().rev() {
                if chosen {
                    break;
                }
                if given {
                    return Err(format!("queue.{key} needs queue.discipline = \"{key}\""));
                }
            }
            let cx = QueueCx { capacity: q.capacity, rate_bps, seed, name: name.to_string() };
            match q.discipline {
                $(Some(DisciplineSpec::$variant) => {
                    let a = <$ty as FromSpec>::from_spec(&q.$key, &cx)?;
                    warn.extend(<$ty as FromSpec>::warnings(&q.$key, &cx));
                    Ok(Some(Aqm::$variant(a)))
                })+
                Some(DisciplineSpec::Fifo | DisciplineSpec::Prio) | None => Ok(None),
            }
        }

        /// The queue managements' keys (`discipline = "…"`), in the registry's order.
        pub const AQM_KEYS: &[&str] = &[$(stringify!($key)),+];
    };
}
occupants!(Aqm => aqm);

/// Writes the congestion-point dispatch.
macro_rules! cp {
    ($($variant:ident($ty:ty),)+) => {
        /// The congestion point of the port named `name` whose queue holds `capacity` (None: not
        /// on a port yet), or None for `cp = "none"`. Likely mistakes in its table go to `warn`.
        pub fn cp(slot: &CpSlot, frame: u64, seed: u64, name: &str, capacity: Option<Amount>, warn: &mut Vec<String>) -> Result<Option<Cp>, String> {
            let cx = PortCx { frame, capacity, seed, name: name.to_string() };
            match slot {
                CpSlot::None => Ok(None),
                $(CpSlot::$variant(s) => {
                    let c = <$ty as FromSpec>::from_spec(s, &cx)?;
                    warn.extend(<$ty as FromSpec>::warnings(s, &cx));
                    Ok(Some(Cp::$variant(c)))
                })+
            }
        }
    };
}
occupants!(Cp => cp);

/// A constructor of one slot's state: a fresh copy of the state its table built.
pub type Make<T> = Box<dyn Fn() -> T>;

/// Writes the reaction-point dispatch.
macro_rules! rp {
    ($($variant:ident($ty:ty),)+) => {
        /// A constructor for the reaction point of each flow of a source whose link runs at
        /// `line_rate`. Likely mistakes in its table go to `warn`.
        pub fn rp(slot: &RpSlot, line_rate: f64, warn: &mut Vec<String>) -> Result<Option<Make<Rp>>, String> {
            let cx = FlowCx { line_rate };
            match slot {
                RpSlot::None => Ok(None),
                $(RpSlot::$variant(s) => {
                    let r = <$ty as FromSpec>::from_spec(s, &cx)?;
                    warn.extend(<$ty as FromSpec>::warnings(s, &cx));
                    Ok(Some(Box::new(move || Rp::$variant(r.clone()))))
                })+
            }
        }

        /// The message refusing a flow that is not unicast, if its reaction point's table needs one.
        pub fn rp_needs_unicast(slot: &RpSlot) -> Option<&'static str> {
            match slot {
                RpSlot::None => None,
                $(RpSlot::$variant(s) => <$ty as FromSpec>::needs_unicast(s),)+
            }
        }
    };
}
occupants!(Rp => rp);

/// Writes the notification-point dispatch: a protocol's NP is built from its RP's table.
macro_rules! np {
    ($($variant:ident($ty:ty),)+) => {
        /// A constructor for the notification point at each receiver of a flow, if its protocol has one.
        pub fn np(slot: &RpSlot) -> Result<Option<Make<Np>>, String> {
            match slot {
                $(RpSlot::$variant(s) => {
                    let n = <$ty as FromSpec>::from_spec(s, &())?;
                    Ok(Some(Box::new(move || Np::$variant(n.clone()))))
                })+
                #[allow(unreachable_patterns)]
                _ => Ok(None),
            }
        }
    };
}
occupants!(Np => np);

/// Link-level flow control for every switch port, or None.
pub fn flow_control(slot: &FlowControlSlot, frame: u64) -> Result<Option<PauseCfg>, String> {
    match slot {
        FlowControlSlot::None => Ok(None),
        FlowControlSlot::Pause(s) => pause::spec::cfg(s, false, "flow_control.pause", frame).map(Some),
        FlowControlSlot::Pfc(s) => pause::spec::cfg(s, true, "flow_control.pfc", frame).map(Some),
    }
}
