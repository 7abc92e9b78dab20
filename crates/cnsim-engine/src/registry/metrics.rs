//! Every protocol's metric declarations (`slots::metrics::Metric`), in the order the stats
//! document and `cnsim._core.metric_declarations()` list them, after the engine's own
//! (`report::METRICS`): each protocol's `PROTOCOL.metrics`, in the registry's order.

use crate::slots::metrics::Metric;

/// The protocols' declarations, in the registry's order.
pub fn protocols() -> impl Iterator<Item = &'static Metric> {
    super::PROTOCOLS.iter().flat_map(|p| p.metrics)
}
