//! The scenario's open-loop stimuli, protocol-free and below the network that they drive: what a
//! source offers (`gen.rs`, the endpoint slot of open-loop sources) and how a link's service rate
//! is made to vary (`oscillation.rs`, Roeck 2007's oscillating hotspot). Neither reacts to
//! congestion; both are schedules the scenario imposes.

pub mod gen;
pub mod oscillation;

pub use gen::TrafficGen;
