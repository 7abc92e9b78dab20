//! The fixed benchmark of docs/performance.md: N constant-rate sources of 1500-B frames offering
//! 12 Gb/s in total, each on its own 10 Gb/s, 1 µs access link (1000-frame queue) to one switch,
//! one 10 Gb/s, 1 µs bottleneck with a 100-frame drop-tail queue to one sink; start times spread
//! over the first 10 µs; no series recorded; with or without the congestion control a protocol
//! registers for it (`slots::register::Bench::Control`: its tables at the bottleneck's CP and at
//! every source's RP).
//!
//! A transport's case (`Bench::Transport`): the same network with one bulk connection per source
//! over that transport instead, with the table its registration gives: data segments one way,
//! ACK frames back; `delivered_frames` counts data frames only.

use crate::core::time::{to_secs, PS_PER_S};
use crate::registry::PROTOCOLS;
use crate::slots::register::{Bench, Protocol};
use std::time::Instant;

/// Which benchmark scenario: constant-rate sources (the fixed benchmark) or bulk connections over
/// a transport that registers a benchmark case.
#[derive(Clone, Copy, Debug)]
pub enum Case {
    Cbr,
    Transport(&'static Protocol),
}

impl PartialEq for Case {
    fn eq(&self, other: &Case) -> bool {
        self.name() == other.name()
    }
}
impl Eq for Case {}

impl Case {
    pub fn parse(name: &str) -> Option<Case> {
        if name == "cbr" {
            return Some(Case::Cbr);
        }
        PROTOCOLS.iter().find(|p| p.name == name && matches!(p.bench, Some(Bench::Transport { .. }))).map(|p| Case::Transport(p))
    }

    pub fn name(self) -> &'static str {
        match self {
            Case::Cbr => "cbr",
            Case::Transport(p) => p.name,
        }
    }

    /// Every case's name: `cbr`, then the transports' in the registry's order.
    pub fn names() -> Vec<&'static str> {
        let transports = PROTOCOLS.iter().filter(|p| matches!(p.bench, Some(Bench::Transport { .. })));
        std::iter::once("cbr").chain(transports.map(|p| p.name)).collect()
    }
}

/// The protocol the benchmark runs with or without, and its tables at the CP and the RPs.
pub fn control() -> (&'static str, &'static str, &'static str) {
    PROTOCOLS
        .iter()
        .find_map(|p| match p.bench {
            Some(Bench::Control { cp, rp }) => Some((p.name, cp, rp)),
            _ => None,
        })
        .expect("a protocol registers the benchmark's congestion control")
}

pub struct BenchResult {
    pub case: Case,
    pub sources: usize,
    /// With the benchmark's congestion control (`control()`).
    pub control: bool,
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
pub fn scenario(n: usize, control: bool, duration_s: f64) -> String {
    scenario_case(Case::Cbr, n, control, duration_s)
}

/// The scenario of one benchmark case as TOML text.
pub fn scenario_case(case: Case, n: usize, control: bool, duration_s: f64) -> String {
    let n = n.max(1);
    let rate_bps = 12_000_000_000u64 / n as u64;
    let traffic = match case {
        Case::Cbr => format!("traffic = {{ kind = \"cbr\", rate = \"{rate_bps}bps\", frame = \"1500B\" }}"),
        Case::Transport(p) => match p.bench {
            Some(Bench::Transport { table }) => format!("traffic = {{ kind = \"bulk\" }}\ntransport = {{ {} = {table} }}", p.name),
            _ => unreachable!("a transport case is parsed from its registration"),
        },
    };
    let starts: Vec<String> = (0..n).map(|i| format!("\"{}ps\"", i as u64 * 10_000_000 / n as u64)).collect();
    let (cp, rp) = match control.then(self::control) {
        Some((name, cp, rp)) => (format!("{{ {name} = {cp} }}"), format!("{{ {name} = {rp} }}")),
        None => ("\"none\"".to_string(), "\"none\"".to_string()),
    };
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

pub fn run(n: usize, control: bool, duration_s: f64) -> BenchResult {
    run_case(Case::Cbr, n, control, duration_s)
}

pub fn run_case(case: Case, n: usize, control: bool, duration_s: f64) -> BenchResult {
    let text = scenario_case(case, n, control, duration_s);
    let mut sim = crate::simulation(&text, "<bench>", &[], None).expect("the benchmark scenario is valid");
    let t0 = Instant::now();
    sim.run_until(sim.duration, 0);
    let wall_s = t0.elapsed().as_secs_f64();
    BenchResult { case, sources: n, control, sim_s: to_secs(sim.now), wall_s, events: sim.events, delivered_frames: sim.c.data_delivered }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcp_case_delivers_data_and_acks() {
        let tcp = Case::parse("tcp").expect("TCP registers a benchmark case");
        for qcn in [false, true] {
            let r = run_case(tcp, 4, qcn, 0.002);
            assert_eq!(r.case, tcp);
            // 2 ms at 10 Gb/s is at most ~1660 frames of 1500 B; TCP fills most of it
            assert!(r.delivered_frames > 1000 && r.delivered_frames < 1700, "{}", r.delivered_frames);
            assert!(r.events > 4 * r.delivered_frames); // data and ACK hops
        }
        assert_eq!(Case::parse("udp"), None);
        // a protocol that registers no case is not one
        assert_eq!(Case::parse("timely"), None);
        assert_eq!(Case::names(), ["cbr", "tcp"]);
    }

    #[test]
    fn the_fixed_benchmark_runs_with_and_without_qcn() {
        assert_eq!(control().0, "qcn");
        let with = scenario(4, true, 0.001);
        assert!(with.contains("cp = { qcn = {} }") && with.contains("rp = { qcn = {} }"), "{with}");
        let without = scenario(4, false, 0.001);
        assert!(without.contains("cp = \"none\"") && without.contains("rp = \"none\""), "{without}");
    }
}
