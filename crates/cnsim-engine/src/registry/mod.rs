//! The registry: the layer above the protocols that lists them. Each trait slot's enum has one
//! variant per protocol and dispatches to its trait (`slots/`) with a `match`, never `dyn`, both
//! written by one macro (`slot.rs`). [`Registry`] gives `net`'s entities these slot
//! types, and the aliases below are the entities the rest of the engine uses.

pub mod aqm;
pub mod cp;
mod entries;
pub mod flow_control;
pub mod mcast;
pub mod metrics;
pub mod np;
mod present;
pub(crate) mod protocols;
pub mod rf;
pub mod rp;
mod slot;
pub mod transport;

pub use aqm::Aqm;
pub use cp::Cp;
pub use mcast::McastCc;
pub use np::Np;
pub use rp::Rp;

use crate::core::time::Time;
use crate::net;
use crate::slots::register::Protocol;

macro_rules! registrations {
    ($($m:ident,)*) => {
        /// Every protocol's registration (`slots::register`), in the registry's order.
        pub const PROTOCOLS: &[&Protocol] = &[$(&crate::protocols::$m::PROTOCOL),*];
    };
}
protocols::occupants!(Protocol => registrations);

/// The slot types of `net`'s ports, flows, receivers and multi-rate endpoints.
pub struct Registry;

impl net::Slots for Registry {
    type Cp = Cp;
    type Aqm = Aqm;
    type FcGen = flow_control::FcGen;
    type Meter = rf::Meter;
    type Rp = Rp;
    type RfSender = rf::RfSender;
    type Transport = transport::Transport;
    type Np = Np;
    type RfTable = rf::RfTable;
    type McastCc = McastCc;
}

pub type Port = net::port::Port<Registry>;
pub type FlowControl = net::port::FlowControl<flow_control::FcGen>;
pub type Flow = net::flow::Flow<Registry>;
pub type Receiver = net::flow::Receiver<Registry>;
pub type Endpoint = net::endpoint::Endpoint<Registry>;

impl Flow {
    /// Record the RP's current rate into the window statistics; its CR, if it has an RP.
    #[inline]
    pub fn note_cr(&mut self, now: Time) -> Option<f64> {
        let cr = self.rp.as_ref()?.rate();
        if cr != self.cr.value() {
            self.cr.set(now, cr);
        }
        Some(cr)
    }
}

#[cfg(test)]
mod tests {
    use super::PROTOCOLS;
    use crate::net::frame::Proto;

    #[test]
    fn every_folder_of_protocols_is_a_registered_protocol() {
        // The crate root declares `protocols::NAME` from the registry's lines: a folder without
        // one would not be compiled at all.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/protocols");
        let mut folders: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        folders.sort();
        let mut names: Vec<&str> = PROTOCOLS.iter().map(|p| p.name).collect();
        names.sort();
        assert_eq!(folders, names);
    }

    #[test]
    fn each_protocol_registers_once_and_tag_area_owners_keep_their_bytes() {
        let names: Vec<_> = PROTOCOLS.iter().map(|p| p.name).collect();
        assert!(names.iter().enumerate().all(|(i, n)| !names[..i].contains(n)), "{names:?}");
        let owners: Vec<_> = PROTOCOLS.iter().flat_map(|p| p.owners).collect();
        // Frames carry these bytes and captures show them: they never move.
        let kept = [("qcn", 1), ("eqcn", 2), ("pause", 3), ("bcn", 4), ("ecm", 5), ("qcn_probe", 6), ("tcp", 7), ("sirens", 8), ("dcqcn", 9)];
        for (name, byte) in kept {
            assert_eq!(owners.iter().find(|o| o.0 == name).map(|o| o.1), Some(Proto(byte)), "{name}");
        }
        for (i, o) in owners.iter().enumerate() {
            assert!(o.1 != Proto::None && owners[..i].iter().all(|p| p.1 != o.1 && p.0 != o.0), "{} shares its owner", o.0);
        }
    }

    #[test]
    fn each_counted_frame_is_declared_as_a_metric() {
        for p in PROTOCOLS {
            for c in p.counted {
                for key in [format!("{}_sent", c.name), format!("{}_received", c.name)] {
                    assert!(p.metrics.iter().any(|m| m.scope == "frames" && m.name == key), "{}: {key} undeclared", p.name);
                }
            }
        }
    }

    #[test]
    fn fabric_presets_are_named_once_and_their_toml_holds_only_the_four_tables() {
        let all: Vec<_> = PROTOCOLS.iter().flat_map(|p| p.fabrics).collect();
        let names: Vec<_> = all.iter().map(|f| f.name).collect();
        assert!(names.iter().enumerate().all(|(i, n)| !names[..i].contains(n)), "{names:?}");
        for want in ["qcn", "dcqcn", "dctcp", "hpcc", "timely", "swift"] {
            assert!(names.contains(&want), "{want}: no fabric preset");
        }
        for f in all {
            let doc: toml::Table = toml::from_str(f.toml).unwrap_or_else(|e| panic!("{}: {e}", f.name));
            assert!(doc.keys().all(|k| ["queue", "tables", "flow", "workload"].contains(&k.as_str())), "{}: {doc:?}", f.name);
            assert!(doc.contains_key("flow") && doc.contains_key("workload"), "{}: every flow and workload", f.name);
            assert_eq!(f.toml.contains("\"{base_rtt}\""), f.rtt_frames.is_some(), "{}", f.name);
        }
    }

    #[test]
    fn a_fabrics_base_rtt_is_each_hops_propagation_data_frame_and_ack_both_ways() {
        let hpcc = PROTOCOLS.iter().flat_map(|p| p.fabrics).find(|f| f.name == "hpcc").unwrap();
        // scenarios/examples/hpcc-dumbbell.toml's path: two 100 Gb/s hops of 1 µs, 1120-B data
        // frames and 124-B ACKs on the wire (20 B of overhead each): 4.19904 µs.
        assert_eq!(hpcc.base_rtt(100_000_000_000, 1_000_000, 20, 2), Some(Ok(4_199_040)));
        assert!(matches!(hpcc.base_rtt(0, 1_000_000, 20, 2), Some(Err(_))));
        assert!(matches!(hpcc.base_rtt(1, u64::MAX / 2, 20, 6), Some(Err(_))));
        let timely = PROTOCOLS.iter().flat_map(|p| p.fabrics).find(|f| f.name == "timely").unwrap();
        assert_eq!(timely.base_rtt(1, 1, 1, 1), None);
    }
}
