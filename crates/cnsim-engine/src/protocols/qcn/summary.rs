//! QCN's summary metrics (`slots::metrics::Summary`), listed in its `PROTOCOL`, with their
//! formulas: those read from the statistics it declares in `METRICS` and named after its CNMs
//! (the other feedback protocols' reaction points fill the same statistics, BCN's under its own
//! name, `first_message_s`).

use crate::slots::metrics::{marked, pct, Formula, Summary};
use serde_json::Value;

pub const SUMMARIES: &[Summary] = &[
    Summary { scope: "global", name: "first_cnm_s", window: "run", unit: "s", definition: "earliest `first_cnm_s` over the RPs", engine: &["rps.first_cnm_s", "rps.first_message_s"], needs: Some("cp"),
              formula: Some(Formula { follows: ("global", "feedback_per_delivered_pct"), marks: &[], value: first_cnm }) },
    Summary { scope: "rp", name: "first_cnm_s", window: "run", unit: "s", definition: "time the RP received its first CNM", engine: &["rps.first_cnm_s", "rps.first_message_s"], needs: Some("cp"),
              formula: Some(Formula { follows: ("global", "q_dev_from_qeq_frames"), marks: &[], value: |rp| rp_first_cnm(rp).clone() }) },
    Summary { scope: "global", name: "fb_negative_samples_pct", window: "measure", unit: "%", definition: "Σ cp_fb_negative_window over the QCN CP queues / window.data_injected × 100: samples with Fb < 0, on `feedback_rate_pct`'s scale; above it because a sample whose Fb is negative by less than one quantum (QntzFb = 0) sends no CNM (docs/modelling.md); null without a QCN CP", engine: &["queues.cp_fb_negative_window", "window.data_injected"], needs: Some("qcn"),
              formula: Some(Formula { follows: ("global", "total_loss_pct"), marks: &["queues.cp"], value: fb_negative_samples }) },
];

/// The RP's first feedback: its `first_cnm_s`, or a BCN RP's `first_message_s` (null if neither).
fn rp_first_cnm(rp: &Value) -> &Value {
    rp.get("first_cnm_s").or_else(|| rp.get("first_message_s")).unwrap_or(&Value::Null)
}

/// The earliest of the RPs' first feedback (the first of equal ones), null if none had any.
fn first_cnm(stats: &Value) -> Value {
    let rps = stats["rps"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut first: Option<(&Value, f64)> = None;
    for t in rps.iter().map(rp_first_cnm) {
        if let Some(x) = t.as_f64() {
            if first.is_none_or(|(_, f)| x < f) {
                first = Some((t, x));
            }
        }
    }
    first.map_or(Value::Null, |(t, _)| t.clone())
}

/// Σ `cp_fb_negative_window` over the congestion points that count it (QCN's), on
/// `window.data_injected`'s scale; null without one.
fn fb_negative_samples(stats: &Value) -> Value {
    let queues = stats["queues"].as_array().map(Vec::as_slice).unwrap_or_default();
    let qcn: Vec<&Value> = queues.iter().filter(|q| marked(q, "cp")).filter_map(|q| q.get("cp_fb_negative_window")).collect();
    if qcn.is_empty() {
        return Value::Null;
    }
    let sum: Option<u64> = qcn.iter().try_fold(0u64, |s, n| n.as_u64().and_then(|n| s.checked_add(n)));
    pct(&sum.map_or(Value::Null, Value::from), &stats["window"]["data_injected"])
}
