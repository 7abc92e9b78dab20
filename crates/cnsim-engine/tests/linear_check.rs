//! Checking a scenario is linear in its size, counted (not timed): loading and building a scenario
//! twice as large makes about twice as many allocations of about twice as many bytes. A step that
//! grows with the square of the input (serializing a whole array at once, a search per name) makes
//! the ratio grow with the size and fails here; docs/performance.md gives the measured figures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static CALLS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        CALLS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// A line of `n / 100` switches with 100 hosts each (one `[[host]]` table per switch), every host
/// sending to a host one switch on: tables of every kind grow with `n`.
fn line_of_flows(n: usize) -> String {
    let sw = n / 100;
    let mut s = format!("[simulation]\nduration = \"1ms\"\nmeasure_from = \"0.5ms\"\nrecord_interval = \"0.1ms\"\n[defaults]\nlink = {{ rate = \"10Gbps\", delay = \"1us\" }}\n[[switch]]\nnames = \"S1..S{sw}\"\n");
    for i in 1..=sw {
        s += &format!("[[host]]\nnames = \"H{}..H{}\"\n[[link]]\nbetween = [\"H{}..H{}\", \"S{i}\"]\n", (i - 1) * 100 + 1, i * 100, (i - 1) * 100 + 1, i * 100);
    }
    for i in 1..sw {
        s += &format!("[[link]]\nbetween = [\"S{i}\", \"S{}\"]\n", i + 1);
    }
    for k in 1..=n {
        s += &format!("[[flow]]\nfrom = \"H{k}\"\nto = \"H{}\"\ntraffic = {{ kind = \"cbr\", rate = \"1Mbps\" }}\n", (k + 99) % n + 1);
    }
    s
}

/// (allocations, bytes allocated) of checking `text` as `cnsim check` does (load, build, lint).
fn counted(text: &str, overrides: &[(String, String)]) -> (f64, f64) {
    let (c0, b0) = (CALLS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed));
    let loaded = cnsim_engine::scenario::load(text, "line.toml", overrides, None).unwrap();
    let sim = cnsim_engine::Sim::build(&loaded).unwrap();
    assert!(sim.lint().is_empty());
    drop((sim, loaded));
    ((CALLS.load(Ordering::Relaxed) - c0) as f64, (BYTES.load(Ordering::Relaxed) - b0) as f64)
}

#[test]
fn checking_twice_the_scenario_takes_twice_the_allocations() {
    for overrides in [vec![], vec![("simulation.seed".to_string(), "7".to_string())]] {
        let (small, large) = (line_of_flows(5_000), line_of_flows(20_000));
        let (calls_s, bytes_s) = counted(&small, &overrides);
        let (calls_l, bytes_l) = counted(&large, &overrides);
        let size = large.len() as f64 / small.len() as f64;
        // Linear: the ratios are the size ratio (about 4); a quadratic step would make them near 16.
        assert!(calls_l / calls_s < 1.25 * size, "allocations grew {:.2}x for a {size:.2}x larger scenario", calls_l / calls_s);
        assert!(bytes_l / bytes_s < 1.25 * size, "bytes allocated grew {:.2}x for a {size:.2}x larger scenario", bytes_l / bytes_s);
    }
}
