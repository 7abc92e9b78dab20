//! Every protocol's metric declarations (`slots::metrics::Metric`), in the order the stats
//! document and `cnsim._core.metric_declarations()` list them, after the engine's own
//! (`report::METRICS`).

use crate::protocols::{bcn, dcqcn, ecm, emcast, pause, qcn, red, sirens, tcp, threshold};
use crate::slots::metrics::Metric;

/// The protocols' declarations, one slice per protocol.
pub const PROTOCOLS: [&[Metric]; 10] = [qcn::METRICS, bcn::METRICS, ecm::METRICS, pause::METRICS, tcp::METRICS, red::METRICS, threshold::METRICS, sirens::METRICS, emcast::METRICS, dcqcn::METRICS];
