//! The network: frames, nodes, ports with their queue disciplines, hosts' traffic entities, and
//! routing (unicast next hops and multicast trees), and the in-band telemetry frames collect at
//! forwarding ports (`telemetry.rs`).

pub mod endpoint;
pub mod flow;
pub mod frame;
pub mod group;
pub mod node;
pub mod port;
pub mod qdisc;
pub mod routing;
pub mod telemetry;
mod updown;

/// The types a port, a flow, its receivers and a multi-rate endpoint hold in their protocol slots.
/// `net` only stores them; the layer that lists the protocols (`registry`) names them, so the
/// network's entities are generic over one implementation of this trait.
pub trait Slots {
    /// A switch output queue's congestion point, its queue management, its flow-control
    /// generator and its router's link meter.
    type Cp;
    type Aqm;
    type FcGen;
    type Meter;
    /// A flow's reaction point, its source's router-feedback request writer, its transport.
    type Rp;
    type RfSender;
    type Transport;
    /// A receiver's notification point and router-feedback table.
    type Np;
    type RfTable;
    /// A multi-rate multicast receiver's congestion control.
    type McastCc;
}
