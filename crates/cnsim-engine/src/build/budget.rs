//! The memory budget of a build: what the network will take, estimated as it is built and before
//! each large allocation, against a limit (the process's budget, `set_memory_budget`, e.g. from the
//! machine, and the scenario's `simulation.max_memory`). A scenario that would not fit is refused
//! with the estimate and its parts, instead of exhausting the machine's memory.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The process's budget in bytes (0: none; `UNSET`: the machine's default).
static PROCESS_BUDGET: AtomicU64 = AtomicU64::new(UNSET);
const UNSET: u64 = u64::MAX;
/// The default budget: this share of the memory available when the build starts (MemAvailable:
/// free memory and what the kernel can reclaim; the rest is the host program's, the run's frames
/// and series', and the system's).
pub const MACHINE_SHARE: f64 = 0.8;

/// Set the process's memory budget in bytes (0: none).
pub fn set_memory_budget(bytes: u64) {
    PROCESS_BUDGET.store(bytes.min(UNSET - 1), Ordering::Relaxed);
}

/// The process's memory budget in bytes (0: none): as set, else `MACHINE_SHARE` of the memory
/// available now (Linux: /proc/meminfo; elsewhere none).
pub fn memory_budget() -> u64 {
    match PROCESS_BUDGET.load(Ordering::Relaxed) {
        UNSET => machine_bytes().map_or(0, |b| (b as f64 * MACHINE_SHARE) as u64),
        b => b,
    }
}

/// The memory available now in bytes (MemAvailable of /proc/meminfo; MemTotal on kernels without
/// it), if known.
fn machine_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let kb: u64 = text.lines().find_map(|l| l.strip_prefix(name))?.trim().strip_suffix("kB")?.trim().parse().ok()?;
        kb.checked_mul(1024)
    };
    field("MemAvailable:").or_else(|| field("MemTotal:"))
}

/// Bytes charged so far against `limit` (0: no limit), and what they are for.
pub struct Budget {
    limit: u64,
    used: Cell<u64>,
    parts: Cell<[u64; 4]>,
}

/// What a charge is for (the refusal names the largest parts).
#[derive(Clone, Copy)]
pub enum Part {
    Nodes = 0,
    Ports = 1,
    Flows = 2,
    Routes = 3,
}
const PART_NAMES: [&str; 4] = ["nodes", "ports and queues", "flows and multicast branches", "routing tables"];

impl Budget {
    /// The smaller of the scenario's limit and the process's (0 means none).
    pub fn new(scenario_limit: u64) -> Budget {
        let limit = match (scenario_limit, memory_budget()) {
            (0, p) => p,
            (s, 0) => s,
            (s, p) => s.min(p),
        };
        Budget { limit, used: Cell::new(0), parts: Cell::new([0; 4]) }
    }

    /// The limit in bytes (0: none).
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Charge `bytes` for `part`; Err(the message) past the limit.
    pub fn charge(&self, part: Part, bytes: usize) -> Result<(), String> {
        let used = self.used.get().saturating_add(bytes as u64);
        self.used.set(used);
        let mut parts = self.parts.get();
        parts[part as usize] = parts[part as usize].saturating_add(bytes as u64);
        self.parts.set(parts);
        if self.limit == 0 || used <= self.limit {
            return Ok(());
        }
        let detail: Vec<String> = PART_NAMES.iter().zip(parts).filter(|(_, b)| *b > 0).map(|(n, b)| format!("{n} {}", mb(b))).collect();
        Err(format!(
            "the network needs more than the memory budget of {} (estimated so far: {}, of which {}): make the scenario smaller, or raise the budget (cnsim --max-memory, simulation.max_memory)",
            mb(self.limit),
            mb(used),
            detail.join(", ")
        ))
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_a_share_of_the_machine() {
        if let Some(b) = machine_bytes() {
            assert!(b > 1 << 20);
            let budget = memory_budget() as f64;   // MemAvailable moves between the two reads
            assert!((budget - b as f64 * MACHINE_SHARE).abs() < 0.05 * b as f64, "{budget} vs {b}");
        }
    }

    #[test]
    fn refuses_past_the_smaller_limit_and_names_the_parts() {
        let b = Budget { limit: 1_000_000, used: Cell::new(0), parts: Cell::new([0; 4]) };
        assert!(b.charge(Part::Nodes, 600_000).is_ok());
        let e = b.charge(Part::Ports, 500_000).unwrap_err();
        assert!(e.contains("budget of 1.0 MB") && e.contains("estimated so far: 1.1 MB") && e.contains("nodes 0.6 MB, ports and queues 0.5 MB"), "{e}");
        let none = Budget { limit: 0, used: Cell::new(0), parts: Cell::new([0; 4]) };
        assert!(none.charge(Part::Routes, usize::MAX).is_ok());
    }
}
