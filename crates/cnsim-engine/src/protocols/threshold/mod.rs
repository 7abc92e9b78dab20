//! Step marking, the switch side of DCTCP (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, §3.1;
//! RFC 8257 §3.1): an ECN-capable data frame that arrives when the instantaneous queue exceeds K
//! frames is marked CE; a frame that is not ECN-capable is dropped there instead (RFC 3168 §7:
//! where an AQM would mark, a Not-ECT packet is dropped). No averaging, no randomness.
//!
//! RED cannot express this exactly: with min_th = max_th its p_b jumps to 1, the forced-drop
//! region, where even ECN-capable frames are dropped (`red.rs`).
//!
//! The queue compared with K is the frames waiting with the arriving one included (the queue
//! "exceeds K" once the arrival makes it K + 1): the engine passes `q` = frames waiting before
//! the arrival (the frame on the wire excluded), so the frame is marked when q ≥ K. The port's
//! drop-tail capacity still applies to frames admitted.

pub mod spec;

use crate::slots::metrics::Metric;
use crate::core::time::Time;
use crate::slots::aqm::AqmMachine;
use crate::slots::{QueueView, Verdict};
use serde_json::{json, Value};

/// One port's step marker.
#[derive(Clone, Debug)]
pub struct Threshold {
    /// K, in frames.
    pub k: u64,
    pub marks: u64,
    pub drops: u64,
}

impl Threshold {
    pub fn new(k: u64) -> Self {
        Threshold { k, marks: 0, drops: 0 }
    }

    /// A data frame arrives with `q` frames waiting; `ect` says whether it is ECN-capable.
    pub fn on_arrival(&mut self, q: u64, ect: bool) -> Verdict {
        if q < self.k {
            Verdict::Enqueue
        } else if ect {
            self.marks += 1;
            Verdict::Mark
        } else {
            self.drops += 1;
            Verdict::EarlyDrop
        }
    }
}

pub const METRICS: &[Metric] = &[
    Metric { scope: "queues", name: "threshold_marks", unit: "frames", kind: "counter", doc: "ECN-capable frames marked CE by step marking (arriving with K or more frames waiting)" },
    Metric { scope: "queues", name: "threshold_drops", unit: "frames", kind: "counter", doc: "frames that are not ECN-capable dropped by step marking (arriving with K or more frames waiting)" },
];

/// Step marking in the engine's queue-management slot (`slots::aqm`).
impl AqmMachine for Threshold {
    /// K counts frames waiting, whatever their size.
    #[inline]
    fn on_arrival(&mut self, q: QueueView, _idle: Option<Time>, ect: bool) -> Verdict {
        Threshold::on_arrival(self, q.frames, ect)
    }
    fn report(&self) -> Value {
        json!({"aqm": "threshold", "threshold_marks": self.marks, "threshold_drops": self.drops})
    }
}


/// The threshold marker's registration (`slots::register`): its metrics.
pub const PROTOCOL: crate::slots::register::Protocol = crate::slots::register::Protocol { metrics: METRICS, ..crate::slots::register::Protocol::named("threshold") };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_ect_frames_from_k_waiting_on_and_drops_the_others() {
        let mut t = Threshold::new(65);
        // 64 waiting: the arrival makes 65, not above K.
        assert_eq!(t.on_arrival(64, true), Verdict::Enqueue);
        assert_eq!(t.on_arrival(0, false), Verdict::Enqueue);
        // 65 waiting: the arrival makes 66 > K.
        assert_eq!(t.on_arrival(65, true), Verdict::Mark);
        assert_eq!(t.on_arrival(200, true), Verdict::Mark);
        assert_eq!(t.on_arrival(65, false), Verdict::EarlyDrop);
        assert_eq!((t.marks, t.drops), (2, 1));
        // K = 0: every arrival is marked.
        assert_eq!(Threshold::new(0).on_arrival(0, true), Verdict::Mark);
    }
}
