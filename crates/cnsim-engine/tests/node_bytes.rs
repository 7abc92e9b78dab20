//! A network's nodes and links are estimated at what they cost: the memory estimate made before a
//! build (build/estimate.rs) is not below what loading and building a star of 100 000 or 300 000
//! hosts on one switch then holds at its peak, and not far above it. The nodes' names, their index
//! by name and the vectors that hold them are most of it besides the ports. Measured with a
//! counting allocator that takes each allocation at glibc's block size (request + 8 B header,
//! rounded to 16 B, at least 32 B), as tests/flow_bytes.rs does for flows.

mod common;

/// `hosts` hosts on one switch, in ranges of 100 000 (the most one range may name), no flows.
fn star(hosts: usize) -> String {
    let ranges: Vec<String> = (1..=hosts).step_by(100_000).map(|a| format!("\"H{a}..H{}\"", (a + 99_999).min(hosts))).collect();
    let r = ranges.join(", ");
    format!(
        "[simulation]\nduration = \"1ms\"\n[defaults]\nlink = {{ rate = \"10Gbps\", delay = \"1us\" }}\n\
         [[switch]]\nnames = [\"SW\"]\n[[host]]\nnames = [{r}]\n[[link]]\nbetween = [\"SW\", [{r}]]\n"
    )
}

/// (the estimate in bytes, the peak of loading and building in bytes)
fn measured(text: &str) -> (f64, f64) {
    let (estimate, peak, _) = common::measured(text);
    (estimate, peak)
}

#[test]
fn a_star_s_estimate_is_above_its_build_s_peak_and_close_to_it() {
    for hosts in [100_000, 300_000] {
        let (estimate, peak) = measured(&star(hosts));
        let ratio = estimate / peak;
        println!("{hosts} hosts: peak {:.0} B/host, estimate {:.0} B/host ({ratio:.3}×)", peak / hosts as f64, estimate / hosts as f64);
        assert!((1.0..1.2).contains(&ratio), "{hosts} hosts: the estimate {estimate} B is {ratio:.3}× the build's peak {peak} B");
    }
}
