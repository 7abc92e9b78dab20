//! A data frame of a passive flow (its receivers only count) reaching a host is delivered without
//! an `Arrive` event: the sending port keeps it in `deliveries` and applies it at its next
//! transmission or before counts are read (`sim/switch.rs`, `deliver_due`). Nothing observable may
//! depend on that, except the event count.

use serde_json::Value;

/// Two 6 Gb/s multicast sources into two receivers behind one 10 Gb/s QCN bottleneck, with a
/// measurement window and recorded series.
const SCENARIO: &str = r#"
[simulation]
duration = "10ms"
record_interval = "100us"
measure_from = "3ms"
[defaults]
link = { rate = "10Gbps", delay = "1us" }
[[switch]]
names = ["SW", "SW2"]
[[host]]
names = ["S1", "S2", "D1", "D2"]
[[link]]
between = ["S1..S2", "SW"]
[[link]]
between = ["SW", "SW2"]
queue = { capacity = "100 frames" }
[[link]]
between = ["SW2", "D1..D2"]
[[group]]
name = "G"
members = ["D1", "D2"]
[[port]]
at = "SW>SW2"
cp = { qcn = {} }
[[flow]]
from = "S1..S2"
to = "G"
traffic = { kind = "cbr", rate = "6Gbps", frame = "1500B" }
rp = { qcn = {} }
"#;

fn run(lazy: bool) -> (Value, Vec<(u32, f64, f64)>) {
    let mut sim = cnsim_engine::simulation(SCENARIO, "<lazy-delivery>", &[], None).expect("valid scenario");
    let n = sim.ports.iter().filter(|p| p.lazy_rx).count();
    // Towards D1 and D2, and towards S1 and S2 (whose data flows are not passive: CNMs only).
    assert_eq!(n, 4);
    if !lazy {
        sim.ports.iter_mut().for_each(|p| p.lazy_rx = false);
    }
    assert!(sim.run_until(sim.duration, 0));
    let s = &sim.series;
    let series = s.idx.iter().zip(&s.t).zip(&s.v).map(|((&i, &t), &v)| (i, t, v)).collect();
    (sim.stats(), series)
}

#[test]
fn lazy_and_eager_delivery_give_the_same_results() {
    let (mut lazy, lazy_series) = run(true);
    let (mut eager, eager_series) = run(false);
    let events = |s: &mut Value| s.as_object_mut().unwrap().remove("events").unwrap().as_u64().unwrap();
    let (el, ee) = (events(&mut lazy), events(&mut eager));
    let delivered = lazy["frames"]["data_delivered"].as_u64().unwrap();
    assert!(delivered > 10_000, "{delivered}");
    // One `Arrive` event fewer per delivered frame, and nothing else changes.
    assert_eq!(ee - el, delivered);
    assert_eq!(lazy, eager);
    assert_eq!(lazy_series, eager_series);
}

#[test]
fn a_frame_arriving_at_the_end_of_a_chunk_is_counted() {
    // 1 Gb/s of 1500-B frames: one every 12 µs from t = 0. Each hop takes (1500 + 20) B × 0.8 ns
    // + 1 µs = 2.216 µs, so frame k reaches D at 12k + 4.432 µs.
    let text = r#"
[simulation]
duration = "1ms"
[defaults]
link = { rate = "10Gbps", delay = "1us" }
[[switch]]
names = "SW"
[[host]]
names = ["S", "D"]
[[link]]
between = ["S", "SW"]
[[link]]
between = ["SW", "D"]
[[flow]]
from = "S"
to = "D"
traffic = { kind = "cbr", rate = "1Gbps", frame = "1500B" }
"#;
    let mut sim = cnsim_engine::simulation(text, "<lazy-delivery>", &[], None).expect("valid scenario");
    let arrival = |k: u64| (12 * k) * 1_000_000 + 4_432_000; // ps
    sim.run_until(arrival(10) - 1, 0);
    assert_eq!(sim.c.data_delivered, 10);
    assert_eq!(sim.in_flight().0, 1, "frame 10 is on the wire");
    sim.run_until(arrival(10), 0);
    assert_eq!(sim.c.data_delivered, 11, "an arrival at the end time is in");
    assert_eq!(sim.in_flight().0, 0);
    assert_eq!(sim.flows[0].receivers[0].bytes, 11 * 1500);
}
