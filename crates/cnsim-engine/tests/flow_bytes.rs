//! A scenario's flows are estimated at what they cost: the memory estimate made before a build
//! (build/estimate.rs, from the sizes of the structures a flow is built into, build/flow_bytes.rs)
//! is above what loading and building a workload of about 90 000 flows then holds at its peak, and
//! not far above, for each fabric preset's protocols. Measured with a counting allocator that
//! takes each allocation at glibc's block size (request + 8 B header, rounded to 16 B, at least
//! 32 B): if a flow's structures grow, or a build step keeps more per flow, without the estimate
//! following, this fails. docs/scenarios.md (Limits) gives the figures.

mod common;

/// Four hosts on a switch, one web-search workload at load 0.9 for 34 s (about 89 000 flows),
/// `max_flows` just above that; `extra` goes into `[simulation]`, `fabric` is a preset or "".
fn workload(extra: &str, fabric: &str) -> String {
    let fabric = if fabric.is_empty() { String::new() } else { format!("[fabric]\ncc = \"{fabric}\"\nlongest_path = 2\n") };
    format!(
        "[simulation]\nduration = \"1us\"\n{extra}\n{fabric}[defaults]\nlink = {{ rate = \"10Gbps\", delay = \"1us\" }}\n\
         [[switch]]\nnames = [\"SW\"]\n[[host]]\nnames = [\"H1..H4\"]\n[[link]]\nbetween = [\"SW\", \"H1..H4\"]\n\
         [[workload]]\nname = \"w0\"\nhosts = [\"H1..H4\"]\nsizes = \"web-search\"\nload = 0.9\nstop = \"34s\"\nmax_flows = 90000\n"
    )
}

/// (the estimate in bytes, the peak of loading and building in bytes, flows built)
fn measured(text: &str) -> (f64, f64, usize) {
    let (estimate, peak, sim) = common::measured(text);
    (estimate, peak, sim.flows.len())
}

#[test]
fn a_workload_s_estimate_is_above_its_build_s_peak_and_close_to_it() {
    let cases = [("", ""), ("record_interval = \"0s\"", ""), ("", "qcn"), ("", "dcqcn"), ("", "dctcp"), ("", "hpcc"), ("", "timely"), ("", "swift")];
    for (extra, fabric) in cases {
        let (estimate, peak, flows) = measured(&workload(extra, fabric));
        assert!(flows > 85_000, "{fabric:?}: {flows} flows");
        let ratio = estimate / peak;
        println!("{extra:?} {fabric:?}: {flows} flows, peak {:.0} B/flow, estimate {:.0} B/flow ({ratio:.3}×)", peak / flows as f64, estimate / flows as f64);
        assert!((1.0..1.5).contains(&ratio), "{extra:?} {fabric:?}: the estimate {estimate} B is {ratio:.3}× the build's peak {peak} B");
    }
}
