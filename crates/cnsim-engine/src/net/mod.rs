//! The network: frames, nodes, ports with their queue disciplines, hosts' traffic entities, and
//! routing (unicast next hops and multicast trees).

pub mod endpoint;
pub mod flow;
pub mod frame;
pub mod group;
pub mod node;
pub mod oscillation;
pub mod port;
pub mod qdisc;
pub mod routing;
