//! TCP's summary metrics (`slots::metrics::Summary`), listed in its `PROTOCOL`, with their
//! formulas; and what of it ran (`Tally`).

use crate::slots::metrics::{Formula, Summary, Tally};
use serde_json::Value;

pub const SUMMARIES: &[Summary] = &[
    Summary { scope: "flow", name: "goodput_mbps", window: "measure", unit: "Mb/s", definition: "TCP flows: bytes acknowledged in the window × 8 ÷ window (`tcp_goodput_bps`); null for other flows", engine: &["flows.tcp_goodput_bps"], needs: Some("tcp"),
              formula: Some(Formula { follows: ("flow", "throughput_mbps"), marks: &[], value: |flow| flow["tcp_goodput_bps"].as_f64().map_or(Value::Null, |b| Value::from(b / 1e6)) }) },
];

/// TCP flows, DCTCP's (RFC 8257: those that estimate α) counted apart.
pub const TALLIES: &[Tally] = &[
    Tally { what: "DCTCP flows", marks: "flows.tcp_dctcp_alpha", unless: "" },
    Tally { what: "TCP flows", marks: "flows.tcp_goodput_bps", unless: "tcp_dctcp_alpha" },
];
