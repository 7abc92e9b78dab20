//! The multi-rate multicast receiver slot: the congestion control of a receiver that joins and
//! leaves its session's levels (`net::endpoint::Endpoint`). The event loop's side of it is
//! `sim/mcast.rs`.

use crate::core::time::Time;
use crate::protocols::rlm::Action;
use crate::protocols::{emcast, rlm};

/// The congestion control of a multi-rate multicast receiver (`net::endpoint::Endpoint`).
pub enum McastCc {
    Emcast(emcast::Emcast),
    Rlm(rlm::Rlm),
}

impl McastCc {
    pub fn level(&self) -> usize {
        match self {
            McastCc::Emcast(e) => e.level,
            McastCc::Rlm(r) => r.level,
        }
    }
    pub fn name(&self) -> &'static str {
        match self {
            McastCc::Emcast(_) => "emcast",
            McastCc::Rlm(_) => "rlm",
        }
    }
    /// (adds, drops) so far.
    pub fn changes(&self) -> (u64, u64) {
        match self {
            McastCc::Emcast(e) => (e.adds, e.drops),
            McastCc::Rlm(r) => (r.joins, r.drops + r.failed),
        }
    }
    /// The evaluation at the end of a tick: `loss` over it, the path's available bandwidth if a
    /// router-feedback table gives it. Returns a level the session's other receivers must hear of
    /// (RLM's join experiment on its control group).
    pub fn on_tick(&mut self, now: Time, loss: f64, avail: Option<f64>) -> Option<usize> {
        match self {
            McastCc::Emcast(m) => {
                m.evaluate(loss, avail);
                None
            }
            McastCc::Rlm(r) => match r.on_tick(now, loss) {
                Action::Join(l) => Some(l),
                _ => None,
            },
        }
    }
    /// Another receiver of the session announced an experiment at `level`.
    pub fn on_peer_experiment(&mut self, level: usize, now: Time) {
        if let McastCc::Rlm(r) = self {
            r.on_peer_experiment(level, now);
        }
    }
}
