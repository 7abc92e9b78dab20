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

/// A summary metric: a number of `summary.json` that Python derives from the stats document
/// (a rate, a Jain index, a queue's mean in frames). Declared here as the statistics are, once,
/// by the engine (`report::SUMMARIES`) or by the protocol it belongs to (its `PROTOCOL.summaries`);
/// python/cnsim/metrics.py holds only its formula, keyed by `scope` and `name`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Summary {
    /// Where it is in the summary: "global", "rp", "queue", "flow", "port", "receiver" or
    /// "fct bucket".
    pub scope: &'static str,
    pub name: &'static str,
    /// "measure" ([simulation.measure_from, end of run]) or "run" ([0, end of run]).
    pub window: &'static str,
    pub unit: &'static str,
    pub definition: &'static str,
    /// The declared statistics it is computed from, as paths into the stats document
    /// ("window.feedback_sent", "queues.arrivals_window").
    pub engine: &'static [&'static str],
    /// The mechanism a run must have for it to mean something (metrics.py's `MECHANISMS`).
    pub needs: Option<&'static str>,
}

/// A mechanism a run may have — congestion points, reaction points, a protocol's own — which a
/// summary metric may need to mean anything (`Summary::needs`), with what shows it in a run's
/// stats document and in its flat row. Declared by the engine (`report::MECHANISMS`) or by the
/// protocol it belongs to (its `PROTOCOL.mechanisms`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Mechanism {
    pub name: &'static str,
    /// What it is and what marks it, in words.
    pub doc: &'static str,
    /// What marks it in the stats document: a section ("rps": the section has an entry) or a
    /// section's key ("queues.cp": an entry has the key, and it is neither null nor false); empty
    /// when only `implied_by` does.
    pub marks: &'static str,
    /// The mechanisms whose presence implies it.
    pub implied_by: &'static [&'static str],
    /// The global summary metric that is null exactly when a run lacks it: how a run's flat row
    /// (a sweep's, a reproduction's) tells.
    pub marker: Option<&'static str>,
}

/// An output's name before it was renamed: the engine writes only today's names, and reading a
/// stored result written before needs the old ones (python/cnsim/results.py upgrades a stored
/// document with them). Declared by the engine (`report::RENAMED`) or by the protocol whose words
/// the old name used (its `PROTOCOL.renamed`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Renamed {
    /// What was renamed: "stats" (a statistic of the stats document, `scope` as `Metric::scope`;
    /// "frames" covers the `window` section too), "summary" (a summary metric, `scope` as
    /// `Summary::scope`) or "series" (a recorded series' name, `scope` empty: `old` and `new` are
    /// patterns where `*` stands for the entity, "q.*" → "q_frames.*").
    pub document: &'static str,
    pub scope: &'static str,
    pub old: &'static str,
    pub new: &'static str,
}
