//! `cnsim._core`: the thin Python binding of the engine (contract: docs/internals/core-api.md).

use cnsim_engine::Sim;
use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

create_exception!(_core, ScenarioError, pyo3::exceptions::PyValueError, "A scenario is invalid; the message names the file, line and key.");

fn scenario_err(e: cnsim_engine::ScenarioError) -> PyErr {
    ScenarioError::new_err(e.0)
}

/// Engine version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Engine identity: "VERSION+HASH12", the hash of the engine and binding sources (build.rs).
#[pyfunction]
fn build_id() -> String {
    format!("{}+{}", env!("CARGO_PKG_VERSION"), &env!("CNSIM_ENGINE_HASH")[..12])
}

/// The source revision the engine was built from (`git describe`-like: commit, "-dirty" when
/// the work tree had changes), or "unknown" outside a git checkout.
#[pyfunction]
fn source_revision() -> &'static str {
    env!("CNSIM_GIT_REV")
}

/// Validate a scenario and return it resolved (defaults filled, overrides applied) as TOML.
#[pyfunction]
#[pyo3(signature = (text, path, overrides = Vec::new()))]
fn check(text: &str, path: &str, overrides: Vec<(String, String)>) -> PyResult<String> {
    cnsim_engine::check(text, path, &overrides).map_err(scenario_err)
}

/// As `check`, with the scenario's likely mistakes (`Simulation.warnings`): (resolved TOML,
/// warnings). Generated flows are checked one at a time, never all held; Ctrl-C stops the check
/// (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (text, path, overrides = Vec::new()))]
fn check_and_lint(py: Python<'_>, text: &str, path: &str, overrides: Vec<(String, String)>) -> PyResult<(String, Vec<String>)> {
    with_progress(py, None, |p| cnsim_engine::check_and_lint_with(text, path, &overrides, p))
}

/// Run `build` with a progress hook that calls `progress(made, total)` (if given) and stops the
/// build on Ctrl-C or on the callback's exception, which is then raised.
fn with_progress<T>(py: Python<'_>, progress: Option<Bound<'_, PyAny>>, build: impl FnOnce(cnsim_engine::Progress) -> Result<T, cnsim_engine::ScenarioError>) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let mut hook = |made: usize, of: usize| -> bool {
        let r = py.check_signals().and_then(|()| progress.as_ref().map_or(Ok(()), |cb| cb.call1((made, of)).map(drop)));
        match r {
            Ok(()) => true,
            Err(e) => {
                raised = Some(e);
                false
            }
        }
    };
    let r = build(&mut hook);
    match raised {
        Some(e) => Err(e),
        None => r.map_err(scenario_err),
    }
}

/// Build a scenario without running it and describe the network (`Sim::describe`) as JSON: the
/// expanded node names, links, and each flow's route or multicast tree, as the engine computed them.
#[pyfunction]
#[pyo3(signature = (text, path, overrides = Vec::new()))]
fn describe(text: &str, path: &str, overrides: Vec<(String, String)>) -> PyResult<String> {
    let sim = cnsim_engine::simulation(text, path, &overrides, None).map_err(scenario_err)?;
    Ok(sim.describe().to_string())
}

/// Every metric the engine and its protocols declare, as JSON (name, scope, unit, kind, doc).
#[pyfunction]
fn metric_declarations() -> String {
    cnsim_engine::describe::metric_declarations().to_string()
}

/// Every summary metric the engine and its protocols declare, in the summary's order, as JSON
/// (scope, name, window, unit, definition, engine, needs, formula, follows);
/// python/cnsim/metrics.py holds the formulas of the engine's own ("formula": "python").
#[pyfunction]
fn summary_declarations() -> String {
    cnsim_engine::describe::summary_declarations().to_string()
}

/// The protocols' summary metrics of a run and what of them ran, from its stats document (JSON),
/// by their formulas in their folders, as JSON ({"values": {"global": {NAME: value}, SCOPE: {NAME:
/// [value per entry of its section, in order]}}, "ran": [[what, count]]}). The part of the document
/// `protocol_summary_reads` names is enough; it is read an entry at a time.
#[pyfunction]
fn protocol_summary(stats: &str) -> PyResult<String> {
    cnsim_engine::describe::protocol_summary(stats).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// What `protocol_summary` reads of a stats document, as JSON ({SECTION: [KEY]}: the keys of each
/// entry of a list section, of an object section such as "window").
#[pyfunction]
fn protocol_summary_reads() -> String {
    cnsim_engine::describe::protocol_summary_reads().to_string()
}

/// What the tallies alone read of a stats document, as `protocol_summary_reads`: the part with
/// only these keys gives `protocol_summary` the same "ran".
#[pyfunction]
fn protocol_tally_reads() -> String {
    cnsim_engine::describe::tally_reads().to_string()
}

/// Every protocol's fabric presets, as JSON (name, protocol, doc, toml, needs_base_rtt):
/// `cnsim.generators.fat_tree(cc=NAME)` applies them.
#[pyfunction]
fn fabric_presets() -> String {
    cnsim_engine::describe::fabric_presets().to_string()
}

/// The base RTT fabric preset `name` writes for `"{base_rtt}"` on a path of `hops` links of `rate`,
/// `delay` and `overhead` (None: the links' default), e.g. "18745600ps"; None when it needs none.
#[pyfunction]
#[pyo3(signature = (name, rate, delay, overhead, hops))]
fn fabric_base_rtt(name: &str, rate: &str, delay: &str, overhead: Option<&str>, hops: u64) -> PyResult<Option<String>> {
    cnsim_engine::describe::fabric_base_rtt(name, rate, delay, overhead, hops).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// Every mechanism a summary metric may need, as JSON (name, doc, marks, implied_by, marker);
/// python/cnsim/metrics.py tells from them what a run had.
#[pyfunction]
fn mechanisms() -> String {
    cnsim_engine::describe::mechanisms().to_string()
}

/// Every output renamed since stored results were written, as JSON (document, scope, old, new);
/// python/cnsim/results.py reads stored results with them.
#[pyfunction]
fn renamed_outputs() -> String {
    cnsim_engine::describe::renamed_outputs().to_string()
}

fn bench_case(case: &str) -> PyResult<cnsim_engine::bench::Case> {
    cnsim_engine::bench::Case::parse(case).ok_or_else(|| {
        let names = cnsim_engine::bench::Case::names().join(", ");
        pyo3::exceptions::PyValueError::new_err(format!("bench case must be one of {names}, not {case:?}"))
    })
}

/// Run the fixed benchmark scenario (docs/performance.md).
#[pyfunction]
/// `case`: "cbr" (the fixed benchmark) or a transport's case (`bench_cases()`); `control`: with the
/// benchmark's congestion control (`bench_control()`), whose name keys it in the result.
#[pyo3(name = "bench", signature = (n_sources, control, duration_s = 1.0, case = "cbr"))]
fn run_bench<'py>(py: Python<'py>, n_sources: usize, control: bool, duration_s: f64, case: &str) -> PyResult<Bound<'py, PyDict>> {
    let case = bench_case(case)?;
    let r = py.detach(|| cnsim_engine::bench::run_case(case, n_sources, control, duration_s));
    let d = PyDict::new(py);
    d.set_item("case", r.case.name())?;
    d.set_item("sources", r.sources)?;
    d.set_item(cnsim_engine::bench::control().0, r.control)?;
    d.set_item("sim_s", r.sim_s)?;
    d.set_item("wall_s", r.wall_s)?;
    d.set_item("events", r.events)?;
    d.set_item("delivered_frames", r.delivered_frames)?;
    d.set_item("events_per_s", r.events_per_s())?;
    d.set_item("delivered_per_s", r.delivered_per_s())?;
    Ok(d)
}

/// The benchmark's cases: "cbr", then the transports that register one.
#[pyfunction]
fn bench_cases() -> Vec<&'static str> {
    cnsim_engine::bench::Case::names()
}

/// The protocol the benchmark runs with or without (its name).
#[pyfunction]
fn bench_control() -> &'static str {
    cnsim_engine::bench::control().0
}

/// The TOML text of a benchmark case (`cnsim bench --suite` runs it in child processes).
#[pyfunction]
#[pyo3(signature = (case, n_sources, control, duration_s))]
fn bench_scenario(case: &str, n_sources: usize, control: bool, duration_s: f64) -> PyResult<String> {
    let case = bench_case(case)?;
    if !(duration_s > 0.0 && duration_s <= 1e3) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!("duration_s must be in (0, 1000], not {duration_s}")));
    }
    Ok(cnsim_engine::bench::scenario_case(case, n_sources, control, duration_s))
}

/// One simulation run, advanced in chunks by `run_until`.
#[pyclass(module = "cnsim._core")]
struct Simulation {
    sim: Sim,
}

#[pymethods]
impl Simulation {
    #[new]
    /// `progress(made, total)`, if given, is called as the workloads' flows are made; Ctrl-C
    /// during the build (or the callback's exception) stops it and is raised.
    #[pyo3(signature = (text, path, overrides = Vec::new(), seed = None, progress = None))]
    fn new(py: Python<'_>, text: &str, path: &str, overrides: Vec<(String, String)>, seed: Option<u64>, progress: Option<Bound<'_, PyAny>>) -> PyResult<Self> {
        with_progress(py, progress, |p| cnsim_engine::simulation_with(text, path, &overrides, seed, p)).map(|sim| Simulation { sim })
    }
    #[getter]
    fn duration_ps(&self) -> u64 {
        self.sim.duration
    }
    #[getter]
    fn now_ps(&self) -> u64 {
        self.sim.now
    }
    #[getter]
    fn events(&self) -> u64 {
        self.sim.events
    }
    #[getter]
    fn stopped_by(&self) -> Option<String> {
        self.sim.stopped_by.clone()
    }
    /// Advance to min(t_ps, duration) without the GIL; True when the run is over.
    #[pyo3(signature = (t_ps, max_events = 0))]
    fn run_until(&mut self, py: Python<'_>, t_ps: u64, max_events: u64) -> bool {
        let sim = &mut self.sim;
        py.detach(|| sim.run_until(t_ps, max_events))
    }
    /// End the run now (a guard tripped, or the user interrupted); results stay readable.
    fn stop(&mut self, reason: String) {
        self.sim.stopped_by.get_or_insert(reason);
    }
    fn resolved_toml(&self) -> String {
        self.sim.resolved_toml.clone()
    }
    fn stats_json(&self) -> String {
        self.sim.stats_json()
    }
    /// `stats_json`'s text as bytes, with each table's row offsets cut every `rows` rows
    /// (`Sim::stats_json_cut`): [(key, [start, .., end])].
    fn stats_json_cut<'py>(&self, py: Python<'py>, rows: usize) -> (Bound<'py, PyBytes>, Vec<(&'static str, Vec<usize>)>) {
        let (text, cuts) = self.sim.stats_json_cut(rows);
        (PyBytes::new(py, &text), cuts)
    }
    /// The built network as JSON: nodes, links, flows with their paths or multicast trees, CPs.
    fn describe_json(&self) -> String {
        self.sim.describe().to_string()
    }
    /// Likely mistakes in the built scenario (warnings, one sentence each).
    fn warnings(&self) -> Vec<String> {
        self.sim.lint()
    }
    /// Port names ("NODE>PEER") by port id.
    fn port_names(&self) -> Vec<String> {
        self.sim.port_names()
    }
    /// Capture transmissions on `ports` of frame kinds `kinds` (bits of `capture_kinds()`), at most
    /// `snaplen` bytes each and `max_bytes` in all (0 = unbounded). Before the run.
    #[pyo3(signature = (ports, kinds, snaplen = 256, max_bytes = 0))]
    fn enable_capture(&mut self, ports: Vec<u32>, kinds: u16, snaplen: u32, max_bytes: u64) -> PyResult<()> {
        self.sim.enable_capture(&ports, kinds, snaplen, max_bytes).map_err(pyo3::exceptions::PyValueError::new_err)
    }
    /// Record the protocol events of `kinds` (bits of `trace_kinds()`). Before the run.
    fn enable_trace(&mut self, kinds: u16) {
        self.sim.enable_trace(kinds)
    }
    /// The capture: t_ps, port, orig_len, start (u64, one more than packets) as little-endian
    /// buffers, the packets' bytes, and where the size bound stopped it (None if it did not).
    fn capture<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(c) = self.sim.tap.as_ref().and_then(|t| t.capture.as_ref()) else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("t_ps", le_bytes(py, &c.t, u64::to_le_bytes)?)?;
        d.set_item("port", le_bytes(py, &c.port, u32::to_le_bytes)?)?;
        d.set_item("orig_len", le_bytes(py, &c.orig_len, u32::to_le_bytes)?)?;
        d.set_item("start", le_bytes(py, &c.start, u64::to_le_bytes)?)?;
        d.set_item("data", PyBytes::new(py, &c.data))?;
        d.set_item("snaplen", c.snaplen)?;
        d.set_item("bound_at_ps", c.bound_at)?;
        d.set_item("missed", c.missed)?;
        Ok(Some(d))
    }
    /// The event trace as little-endian column buffers (see cnsim/trace.py), or None.
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(t) = self.sim.tap.as_ref().and_then(|t| t.trace.as_ref()) else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("t_ps", le_bytes(py, &t.t, u64::to_le_bytes)?)?;
        d.set_item("kind", le_bytes(py, &t.kind, u16::to_le_bytes)?)?;
        d.set_item("node", le_bytes(py, &t.node, u32::to_le_bytes)?)?;
        d.set_item("port", le_bytes(py, &t.port, u32::to_le_bytes)?)?;
        d.set_item("flow", le_bytes(py, &t.flow, u32::to_le_bytes)?)?;
        d.set_item("a", le_bytes(py, &t.a, i64::to_le_bytes)?)?;
        d.set_item("b", le_bytes(py, &t.b, i64::to_le_bytes)?)?;
        d.set_item("c", le_bytes(py, &t.c, i64::to_le_bytes)?)?;
        d.set_item("cpid", le_bytes(py, &t.cpid, u64::to_le_bytes)?)?;
        d.set_item("x", le_bytes(py, &t.x, f64::to_le_bytes)?)?;
        Ok(Some(d))
    }
    /// Recorded series in long format, as little-endian byte buffers for numpy.frombuffer.
    fn series<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        series_dict(py, &self.sim.series)
    }
    /// `series()`, moved out of the simulation: each column is let go once copied, so that the
    /// copy never stands beside all of them (a run's series may take up to
    /// `simulation.max_series_memory`). A second call finds none.
    fn take_series<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut s = std::mem::take(&mut self.sim.series);
        let d = PyDict::new(py);
        d.set_item("names", std::mem::take(&mut s.names))?;
        d.set_item("index", le_bytes(py, &std::mem::take(&mut s.idx), u32::to_le_bytes)?)?;
        d.set_item("t", le_bytes(py, &std::mem::take(&mut s.t), f64::to_le_bytes)?)?;
        d.set_item("value", le_bytes(py, &std::mem::take(&mut s.v), f64::to_le_bytes)?)?;
        Ok(d)
    }
}

fn series_dict<'py>(py: Python<'py>, s: &cnsim_engine::sim::Series) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("names", s.names.clone())?;
    d.set_item("index", le_bytes(py, &s.idx, u32::to_le_bytes)?)?;
    d.set_item("t", le_bytes(py, &s.t, f64::to_le_bytes)?)?;
    d.set_item("value", le_bytes(py, &s.v, f64::to_le_bytes)?)?;
    Ok(d)
}

/// `v` as little-endian bytes, written straight into a Python `bytes` (no intermediate vector).
fn le_bytes<'py, T: Copy, const N: usize>(py: Python<'py>, v: &[T], f: fn(T) -> [u8; N]) -> PyResult<Bound<'py, PyBytes>> {
    let len = v.len().checked_mul(N).ok_or_else(|| pyo3::exceptions::PyMemoryError::new_err("column too large"))?;
    PyBytes::new_with(py, len, |buf| {
        for (out, &x) in buf.chunks_exact_mut(N).zip(v) {
            out.copy_from_slice(&f(x));
        }
        Ok(())
    })
}

/// Names of the capture's frame-kind bits (bit i = 1 << i).
#[pyfunction]
fn capture_kinds() -> Vec<&'static str> {
    cnsim_engine::tap::capture::kind_names()
}

/// Names of the trace's event-kind bits (bit i = 1 << i) and of its drop reasons.
#[pyfunction]
fn trace_kinds() -> (Vec<&'static str>, Vec<&'static str>) {
    (cnsim_engine::tap::trace::kind_names(), cnsim_engine::tap::trace::REASON_NAMES.to_vec())
}

/// Per event kind (in `trace_kinds()` order), the fields its rows fill: (name, column of
/// `Simulation.trace()`, type: int, float, unsigned, reason or frame_kind).
#[pyfunction]
fn trace_fields() -> Vec<Vec<(&'static str, &'static str, &'static str)>> {
    cnsim_engine::tap::trace::fields().iter().map(|k| k.iter().map(|f| (f.name, f.slot.column(), f.ty.name())).collect()).collect()
}

/// Set this process's memory budget for building networks, in bytes (0: none): a scenario whose
/// estimated memory exceeds it (or its own `simulation.max_memory`) is refused before it is built.
#[pyfunction]
fn set_memory_budget(bytes: u64) {
    cnsim_engine::set_memory_budget(bytes)
}

/// This process's memory budget in bytes (0: none).
#[pyfunction]
fn memory_budget() -> u64 {
    cnsim_engine::memory_budget()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(build_id, m)?)?;
    m.add_function(wrap_pyfunction!(source_revision, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(check_and_lint, m)?)?;
    m.add_function(wrap_pyfunction!(set_memory_budget, m)?)?;
    m.add_function(wrap_pyfunction!(memory_budget, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(metric_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(summary_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_summary, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_summary_reads, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_tally_reads, m)?)?;
    m.add_function(wrap_pyfunction!(fabric_presets, m)?)?;
    m.add_function(wrap_pyfunction!(fabric_base_rtt, m)?)?;
    m.add_function(wrap_pyfunction!(run_bench, m)?)?;
    m.add_function(wrap_pyfunction!(bench_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(bench_cases, m)?)?;
    m.add_function(wrap_pyfunction!(renamed_outputs, m)?)?;
    m.add_function(wrap_pyfunction!(mechanisms, m)?)?;
    m.add_function(wrap_pyfunction!(bench_control, m)?)?;
    m.add_function(wrap_pyfunction!(capture_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(trace_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(trace_fields, m)?)?;
    Ok(())
}
