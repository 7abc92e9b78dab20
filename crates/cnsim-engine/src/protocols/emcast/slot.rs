//! EMcast in the multi-rate multicast receiver slot (`slots::mcast`).

use super::Emcast;
use crate::core::time::Time;
use crate::slots::mcast::McastMachine;

impl McastMachine for Emcast {
    fn level(&self) -> usize {
        self.level
    }
    fn name(&self) -> &'static str {
        "emcast"
    }
    fn changes(&self) -> (u64, u64) {
        (self.adds, self.drops)
    }
    /// One evaluation per Interval.
    fn tick(&self) -> Time {
        self.p.interval
    }
    /// Simulcast: one channel at a time.
    fn cumulative(&self) -> bool {
        false
    }
    /// Adding a level compares the next channel with the path's available bandwidth (§3.2).
    fn needs_available_bandwidth(&self) -> bool {
        true
    }
    /// One Interval's evaluation (Fig. 2); EMcast announces nothing to other receivers.
    fn on_tick(&mut self, _now: Time, loss: f64, avail: Option<f64>) -> Option<usize> {
        self.evaluate(loss, avail);
        None
    }
}
