//! Nodes: hosts (traffic sources, rate limiters, sinks) and switches (forwarding, queues, CPs,
//! flow control). Routers come with the IP layer.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Host,
    Switch,
}

pub struct Node {
    pub name: String,
    pub kind: NodeKind,
    /// Output ports, in link order.
    pub ports: Vec<u32>,
    /// Switches: processing latency of every frame entering it (seed 004: 1 µs), modelled as
    /// extra propagation delay on each link into the switch (same timing for a constant latency).
    pub latency: u64,
}
