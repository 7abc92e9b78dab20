//! The fixed benchmark of docs/performance.md: N constant-rate sources of 1500-B frames offering
//! 12 Gb/s in total, each on its own 10 Gb/s, 1 µs access link (1000-frame queue) to one switch,
//! one 10 Gb/s, 1 µs bottleneck with a 100-frame drop-tail queue to one sink; start times spread
//! over the first 10 µs; no series recorded.
//!
//! `Case::Tcp`: the same network with one bulk TCP connection per source instead
//! (Jiang & Jain 2007's ns-2 TCP defaults of `[flow.tcp]`, max RTO 1 ms as in Jiang & Jain 2007 §VI.A): data
//! segments one way, ACK frames back; `delivered_frames` counts data frames only.

use crate::core::time::{to_secs, PS_PER_S};
use std::time::Instant;

/// Which benchmark scenario: constant-rate sources (the fixed benchmark) or bulk TCP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Cbr,
    Tcp,
}

impl Case {
    pub fn parse(name: &str) -> Option<Case> {
        match name {
            "cbr" => Some(Case::Cbr),
            "tcp" => Some(Case::Tcp),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Case::Cbr => "cbr",
            Case::Tcp => "tcp",
        }
    }
}

pub struct BenchResult {
    pub case: Case,
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
    scenario_case(Case::Cbr, n, qcn, duration_s)
}

/// The scenario of one benchmark case as TOML text.
pub fn scenario_case(case: Case, n: usize, qcn: bool, duration_s: f64) -> String {
    let n = n.max(1);
    let rate_bps = 12_000_000_000u64 / n as u64;
    let traffic = match case {
        Case::Cbr => format!("traffic = {{ kind = \"cbr\", rate = \"{rate_bps}bps\", frame = \"1500B\" }}"),
        Case::Tcp => "traffic = { kind = \"tcp-bulk\" }\ntcp = { max_rto = \"1ms\" }".to_string(),
    };
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
{traffic}
start = [{starts}]
rp = {rp}
"#,
        dur = (duration_s * PS_PER_S as f64) as u64,
        starts = starts.join(", "),
    )
}

pub fn run(n: usize, qcn: bool, duration_s: f64) -> BenchResult {
    run_case(Case::Cbr, n, qcn, duration_s)
}

pub fn run_case(case: Case, n: usize, qcn: bool, duration_s: f64) -> BenchResult {
    let text = scenario_case(case, n, qcn, duration_s);
    let mut sim = crate::simulation(&text, "<bench>", &[], None).expect("the benchmark scenario is valid");
    let t0 = Instant::now();
    sim.run_until(sim.duration, 0);
    let wall_s = t0.elapsed().as_secs_f64();
    BenchResult { case, sources: n, qcn, sim_s: to_secs(sim.now), wall_s, events: sim.events, delivered_frames: sim.c.data_delivered }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcp_case_delivers_data_and_acks() {
        for qcn in [false, true] {
            let r = run_case(Case::Tcp, 4, qcn, 0.002);
            assert_eq!(r.case, Case::Tcp);
            // 2 ms at 10 Gb/s is at most ~1660 frames of 1500 B; TCP fills most of it
            assert!(r.delivered_frames > 1000 && r.delivered_frames < 1700, "{}", r.delivered_frames);
            assert!(r.events > 4 * r.delivered_frames); // data and ACK hops
        }
        assert_eq!(Case::parse("tcp"), Some(Case::Tcp));
        assert_eq!(Case::parse("udp"), None);
    }
}
