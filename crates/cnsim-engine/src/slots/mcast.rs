//! The multi-rate multicast receiver slot: the congestion control of a receiver that joins and
//! leaves its session's levels (`net::endpoint::Endpoint`). The engine counts the frames and
//! losses of the subscribed levels, keeps the router-feedback table and does the joins and leaves;
//! the protocol decides the level once per tick. Each protocol implements [`McastMachine`] in its
//! own module; `registry::mcast` lists them.

use crate::core::time::Time;

/// What the engine asks of a multi-rate multicast receiver's congestion control.
pub trait McastMachine {
    /// The current subscription level, 1-based.
    fn level(&self) -> usize;
    /// The protocol's name in the statistics (`endpoints.*.protocol`).
    fn name(&self) -> &'static str;
    /// (level raises, level drops) so far, as the protocol counts them.
    fn changes(&self) -> (u64, u64);
    /// The period of its evaluations (`on_tick`).
    fn tick(&self) -> Time;
    /// Levels are cumulative layers (level k: the groups of levels 1..k), not one channel each.
    fn cumulative(&self) -> bool;
    /// It reads the path's available bandwidth from a router-feedback table (`on_tick`'s `avail`),
    /// so its channels' flows must carry one.
    fn needs_available_bandwidth(&self) -> bool {
        false
    }
    /// The evaluation at the end of a tick: `loss` over it, the path's available bandwidth if a
    /// router-feedback table gives it. Returns a level the session's other receivers must hear of
    /// (a shared-learning announcement), if any.
    fn on_tick(&mut self, now: Time, loss: f64, avail: Option<f64>) -> Option<usize>;
    /// Another receiver of the session announced an experiment at `level`.
    fn on_peer_experiment(&mut self, _level: usize, _now: Time) {}
}
