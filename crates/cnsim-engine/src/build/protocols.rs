//! Protocol wiring, written from the registry (`registry/protocols.rs`): each slot's scenario
//! table → its state, by the protocol's own `FromSpec` (`protocols/<name>/spec.rs`, whose range
//! checks name the key), wrapped in the slot's variant (the router-feedback tables are keyed
//! fields of the scenario and of a flow).

use crate::protocols::*;
use crate::registry::flow_control::FcGen;
use crate::registry::protocols::occupants;
use crate::registry::rf::{Meter, RfSender, RfTable};
use crate::registry::transport::Transport;
use crate::registry::{Aqm, Cp, McastCc, Np, Rp};
use crate::scenario::{CpSlot, DisciplineSpec, FlowControlSlot, FlowSpec, McastCcSlot, QueueParams, RpSlot, Scenario, TransportSlot};
use crate::slots::spec::{FabricCx, FlowCx, FromSpec, McastCx, PortCx, QueueCx};
use crate::slots::transport::{TransportCx, TransportMachine};
use crate::units::Amount;
pub use crate::slots::spec::{frame_size, MAX_FRAME};

/// Writes the queue-management dispatch.
macro_rules! aqm {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        /// The queue management in front of the queue of the port `name` whose link runs at
        /// `rate_bps` (a frame counting `frame` bytes where a threshold and the queue's capacity
        /// are in different units), as its `discipline` names it, with its random stream; None for "fifo" and
        /// "prio". A queue management's table beside another discipline is refused, the
        /// last-registered first.
        /// Likely mistakes in its table go to `warn`.
        pub fn aqm(q: &QueueParams, rate_bps: u64, frame: u64, seed: u64, name: &str, warn: &mut Vec<String>) -> Result<Option<Aqm>, String> {
            let tables = [$((stringify!($key), q.discipline == Some(DisciplineSpec::$variant), q.$key.is_some()),)+];
            for &(key, chosen, given) in tables.iter().rev() {
                if chosen {
                    break;
                }
                if given {
                    return Err(format!("queue.{key} needs queue.discipline = \"{key}\""));
                }
            }
            let cx = QueueCx { capacity: q.capacity, frame, rate_bps, seed, name: name.to_string() };
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
            let cx = PortCx { frame, capacity, seed, name: name.to_string(), protocols: crate::registry::PROTOCOLS };
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

/// Writes the transport dispatch.
macro_rules! transport {
    ($($variant:ident($ty:ty),)+) => {
        /// A connection of the transport `slot` names, running the application `cx.app`.
        pub fn transport(slot: &TransportSlot, cx: &TransportCx) -> Result<Transport, String> {
            match slot {
                $(TransportSlot::$variant(s) => <$ty as FromSpec>::from_spec(s, cx).map(Transport::$variant),)+
            }
        }

        /// Likely mistakes in the transport table `slot` names, for a connection in `cx`.
        pub fn transport_warnings(slot: &TransportSlot, cx: &TransportCx) -> Vec<String> {
            match slot {
                $(TransportSlot::$variant(s) => <$ty as FromSpec>::warnings(s, cx),)+
            }
        }

        /// What a connection of the transport `slot` names allocates when it is made, in bytes
        /// with the allocator's overhead (`flow_bytes::ALLOC_OVERHEAD` per allocation at most).
        pub fn transport_heap(slot: &TransportSlot) -> usize {
            let (bytes, allocs) = match slot {
                $(TransportSlot::$variant(s) => <$ty as FromSpec>::heap(s),)+
            };
            bytes.saturating_add(allocs.saturating_mul(super::flow_bytes::ALLOC_OVERHEAD))
        }

        /// Whether connections of the transport `slot` names collect in-band telemetry (their
        /// protocol registers it, `registry::PROTOCOLS`).
        pub fn transport_telemetry(slot: &TransportSlot) -> bool {
            let name = match slot {
                $(TransportSlot::$variant(_) => stringify!($variant),)+
            };
            crate::registry::PROTOCOLS.iter().any(|p| p.telemetry && p.name.eq_ignore_ascii_case(name))
        }

        /// How many series a connection of the transport `slot` names records.
        pub fn transport_series(slot: &TransportSlot) -> usize {
            match slot {
                $(TransportSlot::$variant(_) => <$ty as TransportMachine>::SERIES.len(),)+
            }
        }
    };
}
occupants!(Transport => transport);

/// Writes the router meter's dispatch.
macro_rules! meter {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        /// The meter every router output port starts with, from the scenario's router-feedback
        /// table for the routers (`[sirens]`), if it has one; Err: the table's key and the message.
        pub fn meter(sc: &Scenario) -> Result<Option<Meter>, (&'static str, String)> {
            let mut out: Option<(&'static str, Meter)> = None;
            $(if let Some(s) = &sc.$key {
                let key = stringify!($key);
                if let Some((other, _)) = &out {
                    return Err((key, format!("[{other}] and [{key}]: routers run one router-feedback protocol")));
                }
                out = Some((key, <$ty as FromSpec>::from_spec(s, &()).map(Meter::$variant).map_err(|m| (key, m))?));
            })+
            Ok(out.map(|(_, m)| m))
        }
    };
}
occupants!(Meter => meter);

/// Writes the dispatch of a flow source's request writer.
macro_rules! rf_sender {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        /// The router-feedback request writer of a flow's source, from the flow's table (e.g.
        /// `sirens`) if it has one, with the table's key.
        pub fn rf_sender(fs: &FlowSpec) -> Result<Option<(&'static str, RfSender)>, String> {
            let mut out: Option<(&'static str, RfSender)> = None;
            $(if let Some(s) = &fs.$key {
                let key = stringify!($key);
                if let Some((other, _)) = &out {
                    return Err(format!("{other} and {key}: a flow takes one router-feedback table"));
                }
                out = Some((key, <$ty as FromSpec>::from_spec(s, &()).map(RfSender::$variant)?));
            })+
            Ok(out)
        }

        /// The keys of the flows' router-feedback tables, in the registry's order.
        pub const RF_KEYS: &[&str] = &[$(stringify!($key)),+];
    };
}
occupants!(RfSender => rf_sender);

/// Writes the dispatch of a receiver's router-feedback table.
macro_rules! rf_table {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        /// The table each receiver of a flow starts with, from the flow's router-feedback table
        /// (the first one given: `rf_sender` refuses a second).
        pub fn rf_table(fs: &FlowSpec) -> Result<Option<RfTable>, String> {
            $(if let Some(s) = &fs.$key {
                return <$ty as FromSpec>::from_spec(s, &()).map(|t| Some(RfTable::$variant(t)));
            })+
            Ok(None)
        }
    };
}
occupants!(RfTable => rf_table);

/// Writes the multi-rate multicast receivers' dispatch.
macro_rules! mcast_cc {
    ($($variant:ident($ty:ty),)+) => {
        /// A multicast receiver's congestion control from its `cc` table, in its session's context.
        pub fn mcast_cc(slot: &McastCcSlot, cx: &McastCx) -> Result<McastCc, String> {
            match slot {
                $(McastCcSlot::$variant(s) => <$ty as FromSpec>::from_spec(s, cx).map(McastCc::$variant),)+
            }
        }
    };
}
occupants!(McastCc => mcast_cc);

/// Writes the flow-control dispatch.
macro_rules! flow_control {
    ($($variant:ident($ty:ty),)+) => {
        /// Link-level flow control: the fabric's generator, which every switch port's is cloned
        /// from, or None for `flow_control = "none"`; amounts in frames are of `frame` bytes.
        /// `capacity`: a switch port's queue capacity to check the table against (None: the
        /// fabric's table alone). Likely mistakes in its table go to `warn`.
        pub fn flow_control(slot: &FlowControlSlot, frame: u64, capacity: Option<Amount>, warn: &mut Vec<String>) -> Result<Option<FcGen>, String> {
            let cx = FabricCx { frame, capacity };
            match slot {
                FlowControlSlot::None => Ok(None),
                $(FlowControlSlot::$variant(s) => {
                    let g = <$ty as FromSpec>::from_spec(s, &cx)?;
                    warn.extend(<$ty as FromSpec>::warnings(s, &cx));
                    Ok(Some(FcGen::$variant(g)))
                })+
            }
        }
    };
}
occupants!(FcGen => flow_control);
