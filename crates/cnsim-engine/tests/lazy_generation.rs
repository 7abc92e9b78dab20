//! A rate-limited sender's generations are deferred while a release is queued and replayed when
//! the limiter's buffer is next read (`sim/host.rs`, `catch_up`). Nothing observable may depend on
//! when the replay happens: the counts are exact, and a run advanced in small chunks (each ending
//! with every sender caught up) gives the same statistics as one run straight to the end.

use serde_json::Value;

/// Two CBR sources of 6 Gb/s into one 10 Gb/s QCN bottleneck: both are rate-limited most of the
/// time, and the small limiter buffer overflows (source drops).
const SCENARIO: &str = r#"
[simulation]
duration = "20ms"
record_interval = "1ms"
measure_from = "5ms"
[defaults]
link = { rate = "10Gbps", delay = "1us" }
[[switch]]
names = "SW"
[[host]]
names = ["S1", "S2", "D"]
[[link]]
between = ["S1..S2", "SW"]
[[link]]
between = ["SW", "D"]
queue = { capacity = "100 frames" }
[[port]]
at = "SW>D"
cp = { qcn = {} }
[[flow]]
from = "S1..S2"
to = "D"
traffic = { kind = "cbr", rate = "6Gbps", frame = "1500B" }
rp = { qcn = {} }
limiter = { buffer = 20 }
"#;

fn stats(chunk: u64) -> Value {
    let mut sim = cnsim_engine::simulation(SCENARIO, "<lazy>", &[], None).expect("valid scenario");
    if chunk == 0 {
        assert!(sim.run_until(sim.duration, 0));
    } else {
        while !sim.run_until(sim.duration, chunk) {}
    }
    let mut s = sim.stats();
    s.as_object_mut().unwrap().remove("events"); // fewer run_until calls, same events: kept out anyway
    s
}

#[test]
fn chunked_runs_equal_one_run() {
    let one = stats(0);
    for chunk in [1, 7, 1000] {
        assert_eq!(stats(chunk), one, "chunks of {chunk} events");
    }
}

#[test]
fn deferred_generations_are_all_counted() {
    let s = stats(0);
    // 6 Gb/s of 1500-B frames = one frame every 2 µs from t = 0 to the end, 20 ms, inclusive
    // (events at the end time are processed): 10 001 frames per source.
    for f in s["flows"].as_array().unwrap() {
        assert_eq!(f["frames_generated"], 10_001, "{f}");
        // The limiter held the sources back: some frames overflowed its 20-frame buffer.
        assert!(f["source_dropped"].as_u64().unwrap() > 0, "{f}");
    }
    let w = &s["frames"];
    let gen = w["data_generated"].as_u64().unwrap();
    assert_eq!(gen, 20_002);
    let (src, inj) = (w["data_source_dropped"].as_u64().unwrap(), w["data_injected"].as_u64().unwrap());
    assert!(gen - src - inj <= 40, "at most the two 20-frame buffers still wait: {w}");
}
