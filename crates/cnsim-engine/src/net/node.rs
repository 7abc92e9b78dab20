//! Nodes: hosts (traffic sources, rate limiters, sinks) and switches (forwarding, queues, CPs,
//! flow control) and IP routers (forwarding with TTL decrement, docs/protocols.md §8).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Host,
    Switch,
    /// An IP router: forwards like a switch, decrements the TTL (drops at 0), may run RED and SIRENS.
    Router,
}

impl NodeKind {
    /// Switches and routers forward; hosts never do.
    #[inline]
    pub fn forwards(self) -> bool {
        self != NodeKind::Host
    }
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Host => "host",
            NodeKind::Switch => "switch",
            NodeKind::Router => "router",
        }
    }
}

pub struct Node {
    pub name: String,
    pub kind: NodeKind,
    /// Output ports, in link order.
    pub ports: Vec<u32>,
    /// Switches: processing latency of every frame entering it (Roeck 2007: 1 µs), modelled as
    /// extra propagation delay on each link into the switch (same timing for a constant latency).
    pub latency: u64,
}
