//! Metric declarations: every protocol declares the statistics it reports — name, unit, kind and
//! meaning — once, next to its behaviour (as OMNeT++'s `@statistic`). The engine's stats document,
//! the Python summary, the Parquet outputs and the reports read these declarations
//! (`cnsim._core.metric_declarations()`), so a metric is defined in one place.

use serde::Serialize;

#[derive(Clone, Copy, Debug, Serialize)]
pub struct Metric {
    /// Where the metric lives in the stats document: "run" (top level), "time", "frames" (and
    /// "window", the same counters inside the window), "rps", "sessions", "queues", "ports",
    /// "flows", "receivers" (in each flow), or "series" (a recorded series' name pattern).
    pub scope: &'static str,
    pub name: &'static str,
    pub unit: &'static str,
    /// "counter" (whole run), "counter-window" (in the measurement window), "gauge" (value at the
    /// end), "time-average" (over the window), "time" (an instant), "series" (sampled),
    /// "parameter" (an input echoed back: seed, configured times, line rates).
    pub kind: &'static str,
    pub doc: &'static str,
}
