//! The reaction-point slot: the rate controller of a flow's rate limiter at its source, told of
//! each frame sent and each feedback frame received, answering with its rate and timer. Each
//! protocol implements [`RpMachine`] in its own module; `registry::rp` lists them.

use super::{Sent, TimerAction};
use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, NodeId};
use serde_json::Value;

/// What the engine asks of a reaction point.
pub trait RpMachine {
    /// The limiter's current rate (bit/s) when it limits (0 while held at rate 0), else None.
    fn limit(&self) -> Option<f64>;
    /// The current rate (QCN's CR; line rate when no limiter is in place).
    fn rate(&self) -> f64;
    /// The target rate (QCN's TR); the rate for protocols without one.
    fn target(&self) -> f64 {
        self.rate()
    }
    /// Do the flow's data frames carry an 802.1Qau CN-TAG (pcap export)?
    fn cn_tagged(&self) -> bool {
        false
    }
    /// The representative CP (feedback value and CPID) the RP follows, for the event trace.
    fn representative(&self) -> Option<(u8, u32)> {
        None
    }
    /// Feedback frames received so far.
    fn feedback_received(&self) -> u64;
    /// An RP that only ECN marks cut (it reads no feedback of a CP): its table's key, so that a
    /// flow whose path has no marking queue is warned about.
    fn cut_by_marks_only(&self) -> Option<&'static str> {
        None
    }
    /// An RP that only a congestion point's feedback cuts (no feedback, no cut): its table's key,
    /// so that a flow whose path has no congestion point is warned about.
    fn cut_by_cp_only(&self) -> Option<&'static str> {
        None
    }
    /// Tag a data frame about to leave at `now`.
    fn stamp(&mut self, _f: &mut Frame, _now: Time) {}
    /// The limiter sent a frame of `len` bytes; `queue_empty` says whether frames still wait.
    /// Everything the sender needs to know next comes back from this one call (it runs for every
    /// frame a limited source sends).
    fn on_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> Sent;
    /// A feedback frame for this flow arrived at its source.
    fn on_feedback(&mut self, f: &Frame, now: Time, rng: &mut Rng) -> TimerAction;
    /// The path control frame (`FrameKind::PathControl`) the RP wants to send now from `src` to
    /// `dst`, if any.
    fn take_path_control(&mut self, _src: NodeId, _dst: Dest, _flow: u32, _prio: u8, _now: Time) -> Option<Frame> {
        None
    }
    /// The RP's timer fired.
    fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction;
    /// The protocol's own fields of the run's statistics (declared in its `METRICS`).
    fn report(&self) -> Value;
}
