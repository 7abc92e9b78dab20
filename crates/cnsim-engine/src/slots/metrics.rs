//! Metric declarations: every protocol declares the statistics it reports — name, unit, kind and
//! meaning — once, next to its behaviour (as OMNeT++'s `@statistic`). The engine's stats document,
//! the Python summary, the Parquet outputs and the reports read these declarations
//! (`cnsim._core.metric_declarations()`), so a metric is defined in one place.

use serde::Serialize;
use serde_json::Value;

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

/// A summary metric: a number of `summary.json` derived from the stats document (a rate, a Jain
/// index, a queue's mean in frames). Declared here as the statistics are, once, by the engine
/// (`report::SUMMARIES`) or by the protocol it belongs to (its `PROTOCOL.summaries`). The engine's
/// own are computed by python/cnsim/metrics.py's formulas, keyed by `scope` and `name`; a
/// protocol's by its `formula`, in its folder (`report::protocol_summary`).
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
    /// A protocol's metric: how it is computed and where it stands (None for the engine's own,
    /// whose formulas are Python's).
    #[serde(skip)]
    pub formula: Option<Formula>,
}

/// How a protocol's summary metric is computed from the stats document, and where it stands in
/// `summary.json`.
#[derive(Clone, Copy, Debug)]
pub struct Formula {
    /// The summary metric, `(scope, name)`, it follows in `summary.json`'s definitions (an
    /// engine's or an earlier protocol's). In its entity's entry it follows that metric when the
    /// metric is of its own scope and the entry has it, and comes first otherwise.
    pub follows: (&'static str, &'static str),
    /// What else it reads of the stats document, as paths like `Summary::engine`'s: the keys
    /// that mark the entries it counts ("queues.cp"), which are no statistics. Its statistics
    /// go without saying
    /// (`registry::metrics::protocol_summary_reads`).
    pub marks: &'static [&'static str],
    /// Its value: from the entity's entry in the stats document (`Summary::section`), or for
    /// "global" from the document, of which it is handed what the global metrics read: of a list
    /// section, only the entries that have one of their statistics or marks (neither null nor
    /// false), with those keys only (`registry::metrics::protocol_summary` keeps no more of a
    /// large fabric's entries), so it must not depend on the other entries. What it reads is one
    /// of its `Summary::engine` paths or `marks`; a missing one gives null, never a panic.
    pub value: fn(&Value) -> Value,
}

impl Summary {
    /// The section of the stats document whose entries a metric of this scope is computed for
    /// (None for "global", computed once, and for the scopes only Python's formulas fill:
    /// "receiver", "fct bucket").
    pub fn section(&self) -> Option<&'static str> {
        match self.scope {
            "rp" => Some("rps"),
            "queue" => Some("queues"),
            "flow" => Some("flows"),
            "port" => Some("ports"),
            _ => None,
        }
    }
}

/// A count of what ran, for the line that says so (`cnsim.metrics.ran`: "DCTCP flows ×4"): the
/// entries of a section of the stats document that have a key and lack another. Declared by the
/// protocol whose entities they are (its `PROTOCOL.tallies`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Tally {
    /// What is counted, plural: "DCTCP flows".
    pub what: &'static str,
    /// The entries counted: "flows.KEY", those of section `flows` whose KEY is neither null nor
    /// false (as `Mechanism::marks`).
    pub marks: &'static str,
    /// A key the entries counted must not have (absent, null or false); empty for none.
    pub unless: &'static str,
}

/// Whether `entry`'s `key` is there, neither null nor false (`Mechanism::marks`' test).
pub fn marked(entry: &Value, key: &str) -> bool {
    !matches!(entry.get(key), None | Some(Value::Null) | Some(Value::Bool(false)))
}

/// `num / den × 100` as Python computes it (the engine's summary formulas are Python's: the same
/// number, bit for bit), null when `den` is 0 or either is missing. Counters are integers, exact
/// in an f64 below 2^53, so their quotient is Python's correctly rounded one.
pub fn pct(num: &Value, den: &Value) -> Value {
    match (num.as_f64(), den.as_f64()) {
        (Some(n), Some(d)) if d != 0.0 => Value::from(n / d * 100.0),
        _ => Value::Null,
    }
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
