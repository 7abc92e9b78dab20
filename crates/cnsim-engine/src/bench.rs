//! The fixed benchmark of docs/performance.md: N constant-rate sources of 1500-B frames offering
//! 12 Gb/s in total, each on its own 10 Gb/s, 1 µs access link (1000-frame queue) to one switch,
//! one 10 Gb/s, 1 µs bottleneck with a 100-frame drop-tail queue to one sink; start times spread
//! over the first 10 µs; no series recorded.

use crate::core::time::{to_secs, PS_PER_S};
use std::time::Instant;

pub struct BenchResult {
    pub sources: usize,
    pub qcn: bool,
    pub sim_s: f64,
    pub wall_s: f64,
    pub events: u64,
    pub delivered_frames: u64,
}

impl BenchResult {
    pub fn events_per_s(&self) -> f64 {
        self.events as f64 / self.wall_s
    }
    pub fn delivered_per_s(&self) -> f64 {
        self.delivered_frames as f64 / self.wall_s
    }
}

/// The benchmark scenario as TOML text.
pub fn scenario(n: usize, qcn: bool, duration_s: f64) -> String {
    let n = n.max(1);
    let rate_bps = 12_000_000_000u64 / n as u64;
    let starts: Vec<String> = (0..n).map(|i| format!("\"{}ps\"", i as u64 * 10_000_000 / n as u64)).collect();
    let (cp, rp) = if qcn { ("{ qcn = {} }", "{ qcn = {} }") } else { ("\"none\"", "\"none\"") };
    format!(
        r#"[simulation]
duration = "{dur}ps"
record_interval = "0s"

[defaults]
link = {{ rate = "10Gbps", delay = "1us" }}

[[switch]]
names = "SW"
[[host]]
names = ["S1..S{n}", "D"]

[[link]]
between = ["S1..S{n}", "SW"]
queue = {{ capacity = "1000 frames" }}
[[link]]
between = ["SW", "D"]
queue = {{ capacity = "100 frames" }}

[[port]]
at = "SW>D"
cp = {cp}

[[flow]]
from = "S1..S{n}"
to = "D"
traffic = {{ kind = "cbr", rate = "{rate_bps}bps", frame = "1500B" }}
start = [{starts}]
rp = {rp}
"#,
        dur = (duration_s * PS_PER_S as f64) as u64,
        starts = starts.join(", "),
    )
}

pub fn run(n: usize, qcn: bool, duration_s: f64) -> BenchResult {
    let text = scenario(n, qcn, duration_s);
    let mut sim = crate::simulation(&text, "<bench>", &[], None).expect("the benchmark scenario is valid");
    let t0 = Instant::now();
    sim.run_until(sim.duration, 0);
    let wall_s = t0.elapsed().as_secs_f64();
    BenchResult { sources: n, qcn, sim_s: to_secs(sim.now), wall_s, events: sim.events, delivered_frames: sim.c.data_delivered }
}
