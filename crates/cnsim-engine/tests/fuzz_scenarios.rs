//! Fuzzing the scenario loader, the builder and the first events (issue 9 item 8): shipped
//! scenarios with values swapped for hostile ones, random byte edits, and random `--set`
//! overrides must give an error or a simulation — never a panic. Each accepted scenario also runs
//! a few thousand events. The default run is short; for a long one:
//! `CNSIM_FUZZ_CASES=200000 cargo test --release -p cnsim-engine --test fuzz_scenarios -- --nocapture`.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::panic::{catch_unwind, AssertUnwindSafe};

const CORPUS: &[&str] = &[
    include_str!("../../../python/cnsim/scenarios/mliki2016/dumbbell-multicast.toml"),
    include_str!("../../../python/cnsim/scenarios/mliki2016/multilink-multiple-unicast.toml"),
    include_str!("../../../python/cnsim/scenarios/examples/incast-pause.toml"),
    include_str!("../../../python/cnsim/scenarios/examples/pfc-isolation.toml"),
    include_str!("../../../python/cnsim/scenarios/examples/bernoulli-multicast.toml"),
];

/// Values that have broken simulators before: zeros, negatives, overflows, NaN, huge ranges.
const HOSTILE: &[&str] = &[
    "0", "-1", "1e308", "-0.0", "nan", "inf", "18446744073709551615", "9223372036854775808", "4294967296",
    "\"0s\"", "\"1ps\"", "\"99999999999999999s\"", "\"4611686018427387904ps\"", "\"0Gbps\"", "\"1bps\"",
    "\"100000Tbps\"", "\"0B\"", "\"1B\"", "\"65536B\"", "\"18446744073709551615B\"", "\"0 frames\"",
    "\"1 frames\"", "\"99999999999999 frames\"", "\"S1..S99999\"", "\"S9..S1\"", "\"\"", "[]", "{}",
    "[\"S1\", \"S1\"]", "true", "\"none\"", "{ qcn = {} }", "{ eqcn = { gd = 0.99 } }", "{ pause = {} }",
    "{ pfc = { priorities = [9] } }", "\"egress\"", "[\"1s\", \"2s\"]", "\"every-frame\"",
];

fn cases() -> u32 {
    std::env::var("CNSIM_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(3000)
}

/// Build (and if it builds, run briefly); a panic anywhere is the failure.
fn exercise(text: &str, overrides: &[(String, String)]) -> Result<(), TestCaseError> {
    let r = catch_unwind(AssertUnwindSafe(|| {
        if let Ok(mut sim) = cnsim_engine::simulation(text, "fuzz.toml", overrides, None) {
            sim.max_events = 5_000;
            sim.max_frames = 100_000;
            sim.run_until(sim.duration, 0);
            let _ = sim.stats();
            let _ = sim.describe();
        }
    }));
    r.map_err(|_| TestCaseError::fail(format!("panic on:\n{text}\n--set {overrides:?}")))
}

/// Replace the value of the `line`-th `key = value` line.
fn swap_value(text: &str, line: usize, value: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let with_eq: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(" = ") && !lines[i].trim_start().starts_with('#')).collect();
    let target = with_eq[line % with_eq.len()];
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| if i == target { format!("{} = {value}", l.split(" = ").next().unwrap()) } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run(strategy: impl Strategy<Value = (String, Vec<(String, String)>)>) {
    let mut runner = TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() });
    // The engine must not panic: silence the default hook so a caught panic shows only in the report.
    std::panic::set_hook(Box::new(|_| {}));
    let result = runner.run(&strategy, |(text, sets)| exercise(&text, &sets));
    let _ = std::panic::take_hook();
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn hostile_values_in_shipped_scenarios_never_panic() {
    run((0..CORPUS.len(), any::<usize>(), 0..HOSTILE.len(), 1usize..=3).prop_map(|(c, line, v, times)| {
        let mut text = CORPUS[c].to_string();
        for k in 0..times {
            text = swap_value(&text, line.wrapping_mul(k + 7), HOSTILE[(v + k * 11) % HOSTILE.len()]);
        }
        (text, vec![])
    }));
}

#[test]
fn random_byte_edits_never_panic() {
    run((0..CORPUS.len(), prop::collection::vec((any::<usize>(), any::<u8>()), 1..8)).prop_map(|(c, edits)| {
        let mut bytes = CORPUS[c].as_bytes().to_vec();
        for (at, b) in edits {
            let i = at % bytes.len();
            match b % 3 {
                0 => bytes[i] = b" =[]{}\".,0123456789abcSs\n#"[b as usize % 27],
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, b"0123456789.-e\"[]"[b as usize % 16]),
            }
        }
        (String::from_utf8_lossy(&bytes).into_owned(), vec![])
    }));
}

#[test]
fn random_overrides_never_panic() {
    const KEYS: &[&str] = &[
        "simulation.duration", "simulation.measure_from", "simulation.frame_size", "simulation.record_interval",
        "defaults.link.rate", "defaults.link.delay", "defaults.link.overhead", "defaults.queue.capacity",
        "cp", "cp.qcn.qeq", "cp.qcn.w", "cp.qcn.sample_base", "flow.0.rp", "flow.0.traffic.rate", "flow.0.traffic.kind",
        "flow.0.traffic.load", "flow.0.start", "flow.0.priority", "flow.0.limiter.buffer", "flow_control",
        "flow_control.pause.xoff", "flow_control.pause.quanta", "flow.9.rp", "link.0.between", "group.0.members",
    ];
    run((0..CORPUS.len(), prop::collection::vec((0..KEYS.len(), 0..HOSTILE.len()), 1..4)).prop_map(|(c, sets)| {
        let sets = sets.into_iter().map(|(k, v)| (KEYS[k].to_string(), HOSTILE[v].trim_matches('"').to_string())).collect();
        (CORPUS[c].to_string(), sets)
    }));
}
