//! `cargo run --release -p cnsim-engine --example run_file FILE.toml`: build a scenario and run it
//! without Python, timing the event loop alone (not the parse and the build), as the benchmark
//! harness does. Prints one line of `key=value`: simulated and wall seconds, events, data frames
//! delivered and dropped. `scripts/peer_fattree.py` runs it beside htsim; under callgrind,
//! `--toggle-collect='*run_events*'` counts the event loop alone.

use cnsim_engine::core::time::to_secs;
use cnsim_engine::sim::Sim;
use std::time::Instant;

/// The event loop alone, out of line so that callgrind can count it.
#[inline(never)]
fn run_events(sim: &mut Sim) {
    let end = sim.duration;
    sim.run_until(end, 0);
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run_file FILE.toml");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut sim = match cnsim_engine::simulation(&text, &path, &[], None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let t0 = Instant::now();
    run_events(&mut sim);
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "cnsim sim_s={:.6} wall_s={:.6} events={} delivered={} drops={}",
        to_secs(sim.now),
        wall,
        sim.events,
        sim.c.data_delivered,
        sim.c.data_dropped
    );
}
