//! The registry: the layer above the protocols that lists them. Each trait slot's enum has one
//! variant per protocol and dispatches to its trait (`slots/`) with a `match`, never `dyn`, both
//! written by one macro (`slot.rs`); the slots one
//! protocol fills today are that protocol's types. [`Registry`] gives `net`'s entities these slot
//! types, and the aliases below are the entities the rest of the engine uses.

pub mod aqm;
pub mod cp;
pub mod flow_control;
pub mod mcast;
pub mod metrics;
pub mod np;
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
