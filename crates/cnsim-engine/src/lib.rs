//! cnsim engine: a packet-level discrete-event simulator for congestion notification in Ethernet
//! (IEEE 802.1Qau QCN and relatives). See docs/architecture.md, "Layers": `core` (time, events,
//! timers, arena, random streams — no protocol), `net` (frames, ports, queue disciplines,
//! routing), `slots` (the traits protocols implement, the slots' shared vocabulary), `protocols`
//! (sans-IO state machines), `registry` (the slot enums listing the protocols), `sim` (the event
//! loop), `build` (scenario → simulator), `scenario` (the TOML schema), `report` (statistics).

// The registry's table is walked once per protocol entry and slot (`registry::protocols::pick!`),
// and a callback may walk it again (a flow's table: the transports' older keys, then router
// feedback's): deeper than the default limit of 128 expansions.
#![recursion_limit = "256"]

pub mod bench;
mod build;
pub mod core;
mod defaults;
pub mod describe;
mod lint;
pub mod net;
/// The protocols: one folder each, holding a sans-IO state machine. It is given a frame, a timer
/// expiry or a send opportunity with the current time (and owns its random stream), and answers
/// with what the engine must do — a frame to send, a timer to arm — never touching the event loop.
/// Each implements the traits of its slots (`crate::slots`); the engine reaches it only through the
/// slot enums of `crate::registry` (static dispatch, no `dyn` on the hot path); docs/architecture.md
/// says how to add one. Its module is declared here from the registry's one line per protocol
/// (`occupants!(Protocol => …)`): the crate root declares every module, and no file of
/// `protocols/` names the registry.
pub mod protocols {
    /// `pub mod NAME;` for each protocol's folder, `protocols/NAME/`.
    macro_rules! folders {
        ($($m:ident,)*) => { $(pub mod $m;)* };
    }
    crate::registry::protocols::occupants!(Protocol => folders);
}
pub mod registry;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod slots;
pub mod tap;
pub mod traffic;
pub mod units;
pub mod fct;

pub use build::budget::{memory_budget, set_memory_budget};
pub use build::Progress;
pub use scenario::ScenarioError;
pub use sim::Sim;

/// Load, validate and build a simulation from TOML text.
pub fn simulation(text: &str, path: &str, overrides: &[(String, String)], seed: Option<u64>) -> Result<Sim, ScenarioError> {
    let loaded = scenario::load(text, path, overrides, seed)?;
    Sim::build(&loaded)
}

/// As [`simulation`], telling `progress` (flows made, flows to make) as the workloads' flows are
/// made; it answers false to stop the build, which then fails ("the build was interrupted").
pub fn simulation_with(text: &str, path: &str, overrides: &[(String, String)], seed: Option<u64>, progress: build::Progress) -> Result<Sim, ScenarioError> {
    let loaded = scenario::load(text, path, overrides, seed)?;
    Sim::build_with(&loaded, progress)
}

/// Validate a scenario (it is built, not run: each generated flow checked, then dropped,
/// `build/check.rs`) and return the resolved TOML.
pub fn check(text: &str, path: &str, overrides: &[(String, String)]) -> Result<String, ScenarioError> {
    Ok(check_and_lint(text, path, overrides)?.0)
}

/// As [`check`], with the scenario's likely mistakes as `Sim::lint` gives them.
pub fn check_and_lint(text: &str, path: &str, overrides: &[(String, String)]) -> Result<(String, Vec<String>), ScenarioError> {
    let loaded = scenario::load(text, path, overrides, None)?;
    Sim::check(&loaded, None)
}

/// As [`check_and_lint`], telling `progress` as [`simulation_with`] does.
pub fn check_and_lint_with(text: &str, path: &str, overrides: &[(String, String)], progress: build::Progress) -> Result<(String, Vec<String>), ScenarioError> {
    let loaded = scenario::load(text, path, overrides, None)?;
    Sim::check(&loaded, Some(progress))
}
