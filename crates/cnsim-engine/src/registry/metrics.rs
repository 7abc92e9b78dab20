//! Every protocol's metric declarations (`slots::metrics::Metric`), in the order the stats
//! document and `cnsim._core.metric_declarations()` list them, after the engine's own
//! (`report::METRICS`): each protocol's `PROTOCOL.metrics`, in the registry's order. Likewise
//! its summary metrics (`slots::metrics::Summary`), after `report::SUMMARIES`, and its renamed
//! outputs (`slots::metrics::Renamed`), after `report::RENAMED`.

use crate::slots::metrics::{Mechanism, Metric, Renamed, Summary};

/// The protocols' declarations, in the registry's order.
pub fn protocols() -> impl Iterator<Item = &'static Metric> {
    super::PROTOCOLS.iter().flat_map(|p| p.metrics)
}

/// The protocols' summary metrics, in the registry's order.
pub fn summaries() -> impl Iterator<Item = &'static Summary> {
    super::PROTOCOLS.iter().flat_map(|p| p.summaries)
}

/// The protocols' renamed outputs, in the registry's order.
pub fn renamed() -> impl Iterator<Item = &'static Renamed> {
    super::PROTOCOLS.iter().flat_map(|p| p.renamed)
}

/// The protocols' mechanisms, in the registry's order.
pub fn mechanisms() -> impl Iterator<Item = &'static Mechanism> {
    super::PROTOCOLS.iter().flat_map(|p| p.mechanisms)
}
