//! Shared by the tests that weigh a build against its memory estimate (flow_bytes.rs,
//! node_bytes.rs): a counting allocator that takes each allocation at glibc's block size
//! (request + 8 B header, rounded to 16 B, at least 32 B), and the measurement itself.

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

/// (the estimate in bytes, the peak of loading and building in bytes, the built simulation)
pub fn measured(text: &str) -> (f64, f64, cnsim_engine::Sim) {
    let refusal = cnsim_engine::check(text, "s.toml", &[("simulation.max_memory".into(), "1B".into())]).unwrap_err().to_string();
    let mb: f64 = refusal.split("of the scenario's estimated ").nth(1).and_then(|s| s.split(" MB").next()).and_then(|s| s.parse().ok()).expect(&refusal);
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let loaded = cnsim_engine::scenario::load(text, "s.toml", &[], None).unwrap();
    let sim = cnsim_engine::Sim::build(&loaded).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - base;
    (mb * 1e6, peak as f64, sim)
}
