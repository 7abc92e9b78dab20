//! A port whose service rate oscillates (Roeck 2007, "Single Oscillating Hotspot": the hotspot's
//! service rate drops to 1 Gb/s for t_on, comes back for t_off, over 100 ms … 900 ms; docs/protocols.md
//! §9). Sans-IO: the port asks it, at each of its timer expiries, which rate to use and when the
//! next change is due.

use crate::core::time::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oscillation {
    /// The reduced rate during the "on" phases, bit/s.
    pub low_bps: u64,
    /// The link's own rate, restored during "off" phases and after `until`.
    pub high_bps: u64,
    pub on: Time,
    pub off: Time,
    /// First "on" phase starts at `from`; no phase starts at or after `until`, and the rate is
    /// back to `high_bps` at `until` at the latest.
    pub from: Time,
    pub until: Time,
    /// Currently in an "on" (reduced) phase.
    pub low: bool,
}

impl Oscillation {
    /// The timer fired at `now`: the rate from now on and the next change (None: done).
    pub fn on_timer(&mut self, now: Time) -> (u64, Option<Time>) {
        if now >= self.until {
            self.low = false;
            return (self.high_bps, None);
        }
        self.low = !self.low;
        let next = now + if self.low { self.on } else { self.off };
        (if self.low { self.low_bps } else { self.high_bps }, Some(next.min(self.until)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000_000;

    #[test]
    fn toggles_between_from_and_until() {
        // 10 Gb/s link, 1 Gb/s for 2 ms every 5 ms (on 2, off 3) from 100 ms to 109 ms.
        let mut o = Oscillation { low_bps: 1_000_000_000, high_bps: 10_000_000_000, on: 2 * MS, off: 3 * MS, from: 100 * MS, until: 109 * MS, low: false };
        assert_eq!(o.on_timer(100 * MS), (1_000_000_000, Some(102 * MS)));
        assert_eq!(o.on_timer(102 * MS), (10_000_000_000, Some(105 * MS)));
        assert_eq!(o.on_timer(105 * MS), (1_000_000_000, Some(107 * MS)));
        assert_eq!(o.on_timer(107 * MS), (10_000_000_000, Some(109 * MS))); // off cut at until
        assert_eq!(o.on_timer(109 * MS), (10_000_000_000, None));
        assert!(!o.low);
        // An "on" phase running into `until` ends there.
        let mut o = Oscillation { until: 101 * MS, low: false, ..o };
        assert_eq!(o.on_timer(100 * MS), (1_000_000_000, Some(101 * MS)));
        assert_eq!(o.on_timer(101 * MS), (10_000_000_000, None));
    }
}
