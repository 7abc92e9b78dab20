//! PAUSE's summary metrics (`slots::metrics::Summary`), listed in its `PROTOCOL`, with their
//! formulas: a port's PAUSE/PFC frames and its longest pause.

use crate::slots::metrics::{Formula, Summary};
use serde_json::Value;

pub const SUMMARIES: &[Summary] = &[
    Summary { scope: "port", name: "pause_sent", window: "run", unit: "frames", definition: "PAUSE/PFC frames the port sent", engine: &["ports.pause_sent"], needs: Some("pause"),
              formula: Some(Formula { follows: ("flow", "loss_pct"), marks: &[], value: |port| port["pause_sent"].clone() }) },
    Summary { scope: "port", name: "pause_received", window: "run", unit: "frames", definition: "PAUSE/PFC frames the port received", engine: &["ports.pause_received"], needs: Some("pause"),
              formula: Some(Formula { follows: ("port", "pause_sent"), marks: &[], value: |port| port["pause_received"].clone() }) },
    Summary { scope: "port", name: "paused_s", window: "measure", unit: "s", definition: "longest time any priority of the port's transmitter was paused, in the window", engine: &["ports.paused_s_window"], needs: Some("pause"),
              formula: Some(Formula { follows: ("port", "pause_received"), marks: &[], value: longest_pause }) },
];

/// The longest of the port's priorities' pauses in the window (the first of equal ones), 0.0
/// for a port without priorities.
fn longest_pause(port: &Value) -> Value {
    let mut longest: Option<(&Value, f64)> = None;
    for t in port["paused_s_window"].as_array().map(Vec::as_slice).unwrap_or_default() {
        if let Some(x) = t.as_f64() {
            if longest.is_none_or(|(_, l)| x > l) {
                longest = Some((t, x));
            }
        }
    }
    longest.map_or(Value::from(0.0), |(t, _)| t.clone())
}
