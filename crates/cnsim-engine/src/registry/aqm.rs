//! The queue-management slot's enum, built from the registered occupants (`protocols.rs`), each dispatched to its
//! `slots::aqm::AqmMachine` with a `match`; and the offer of a data frame to a port's AQM and
//! router meter.

use super::Port;
use crate::core::time::Time;
use crate::net::frame::{Frame, ECN_CE, ECN_ECT0};
use crate::protocols::*;
use crate::slots::aqm::AqmMachine;
use crate::slots::router_feedback::PortView;
use crate::slots::{QueueView, Verdict};
use super::protocols::occupants;
use super::slot::slot;
use serde_json::Value;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! aqm {
    ($($variant:ident($ty:ty, $key:ident),)+) => {
        slot! {
            /// Active queue management in front of an output queue's drop-tail check: one variant per
            /// protocol.
            pub enum Aqm: AqmMachine { $($variant($ty),)+ }
            #[inline] fn on_arrival(&mut self, q: QueueView, idle: Option<Time>, ect: bool) -> Verdict;
            fn report(&self) -> Value;
        }
    };
}
occupants!(Aqm => aqm);

/// A data frame `f` is offered to port `p`, which has an AQM or a meter: the AQM decides (mark,
/// or drop early: true) and the meter counts the offer and may stamp the frame.
#[inline(never)]
pub fn offer(p: &mut Port, f: &mut Frame, now: Time) -> bool {
    let (prio, size) = (f.prio, f.size);
    let mut early_drop = false;
    if let Some(aqm) = &mut p.aqm {
        let idle = (p.qdisc.is_empty() && now >= p.busy_until).then(|| now - p.busy_until);
        let q = QueueView { bytes: p.qdisc.bytes(), frames: p.qdisc.len() as u64, rate_bps: p.rate_bps };
        match aqm.on_arrival(q, idle, f.ecn & ECN_ECT0 != 0) {
            Verdict::Enqueue => {}
            Verdict::Mark => f.ecn |= ECN_CE, // keeps the bits above the IP ECN field (TCP's CWR)
            Verdict::EarlyDrop | Verdict::ForcedDrop => early_drop = true,
        }
    }
    if let Some(m) = &mut p.meter {
        let dropped = early_drop || !p.qdisc.fits(prio, size);
        let port = PortView {
            rate_bps: p.rate_bps,
            queue_bytes: p.qdisc.bytes(),
            queue_frames: p.qdisc.len() as u64,
            delay: p.delay,
            loss: p.loss.as_ref().map_or(0.0, |l| l.0),
            now,
        };
        m.on_offer(f, port, dropped);
    }
    early_drop
}
