//! A network's nodes and links are estimated at what they cost: the memory estimate made before a
//! build (build/estimate.rs) is not below what loading and building a star of 100 000 or 300 000
//! hosts on one switch then holds at its peak, and not far above it. The nodes' names, their index
//! by name and the vectors that hold them are most of it besides the ports. Measured with a
//! counting allocator that takes each allocation at glibc's block size (request + 8 B header,
//! rounded to 16 B, at least 32 B), as tests/flow_bytes.rs does for flows.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicI64, Ordering};

struct Counting;
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

/// glibc malloc's block for a request of `size` bytes.
fn block(size: usize) -> i64 {
    ((size + 8 + 15) & !15).max(32) as i64
}

fn add(d: i64) {
    let now = LIVE.fetch_add(d, Ordering::Relaxed) + d;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(block(layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-block(layout.size()));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(block(new_size) - block(layout.size()));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

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
    let refusal = cnsim_engine::check(text, "s.toml", &[("simulation.max_memory".into(), "1B".into())]).unwrap_err().to_string();
    let mb: f64 = refusal.split("of the scenario's estimated ").nth(1).and_then(|s| s.split(" MB").next()).and_then(|s| s.parse().ok()).expect(&refusal);
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let loaded = cnsim_engine::scenario::load(text, "s.toml", &[], None).unwrap();
    let sim = cnsim_engine::Sim::build(&loaded).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(sim);
    (mb * 1e6, peak as f64)
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
