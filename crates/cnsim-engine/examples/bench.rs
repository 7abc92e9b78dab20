//! `cargo run --release -p cnsim-engine --example bench [N...]`: the benchmark of docs/performance.md
//! without Python (handy under perf or callgrind). `cnsim bench` runs the same code.

fn main() {
    let ns: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let ns = if ns.is_empty() { vec![10, 100] } else { ns };
    let control = cnsim_engine::bench::control().0;
    println!("{:>8} {:>5} {:>10} {:>14} {:>14} {:>12}", "sources", control, "wall_s", "delivered/s", "events/s", "events");
    for n in ns {
        for with in [false, true] {
            let r = cnsim_engine::bench::run(n, with, 1.0);
            println!(
                "{:>8} {:>5} {:>10.3} {:>14.0} {:>14.0} {:>12}",
                n, with, r.wall_s, r.delivered_per_s(), r.events_per_s(), r.events
            );
        }
    }
}
