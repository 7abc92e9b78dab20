//! RLM in the multi-rate multicast receiver slot (`slots::mcast`): a join experiment is announced
//! to the session's other receivers (RLM's shared learning, McCanne et al. 1996 §4.3).

use super::{Action, Rlm};
use crate::core::time::Time;
use crate::slots::mcast::McastMachine;

impl McastMachine for Rlm {
    fn level(&self) -> usize {
        self.level
    }
    fn name(&self) -> &'static str {
        "rlm"
    }
    /// Joins, and drops with failed experiments counted as drops.
    fn changes(&self) -> (u64, u64) {
        (self.joins, self.drops + self.failed)
    }
    fn tick(&self) -> Time {
        self.p.tick
    }
    /// Cumulative layers: level k is layers 1..k.
    fn cumulative(&self) -> bool {
        true
    }
    /// RLM ignores router feedback.
    fn on_tick(&mut self, now: Time, loss: f64, _avail: Option<f64>) -> Option<usize> {
        match Rlm::on_tick(self, now, loss) {
            Action::Join(l) => Some(l),
            _ => None,
        }
    }
    fn on_peer_experiment(&mut self, level: usize, now: Time) {
        Rlm::on_peer_experiment(self, level, now)
    }
}
