//! Protocol slots (docs/architecture.md). Each protocol is one module holding a sans-IO state
//! machine: it is given a frame, a timer expiry or a send opportunity with the current time (and
//! owns its random stream), and answers with what the engine must do — a frame to send, a timer
//! to arm — never touching the event loop. The engine reaches a protocol only through the slot
//! enums below (static dispatch, no `dyn` on the hot path):
//!
//! | slot | where | variants |
//! |---|---|---|
//! | congestion point `Cp` | a switch output queue | QCN (with E-QCN's Algorithm 2 for E-QCN frames) |
//! | reaction point `Rp` | a flow's rate limiter at its source | QCN, E-QCN |
//! | flow control `pause::PauseCfg` + `pause::PauseGen` | every switch port | 802.3x PAUSE, 802.1Qbb PFC |
//! | endpoint / traffic `traffic::TrafficGen` | a flow's source | CBR, Poisson, Bernoulli |
//!
//! Adding a protocol = its module, a variant here (and its arms), its scenario table
//! (`scenario/model.rs`) and its build step (`build/protocols.rs`).

pub mod bcn;
pub mod eqcn;
pub mod metrics;
pub mod pause;
pub mod qcn;

use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::net::frame::{Frame, NodeId};
use qcn::{Cnm, CongestionPoint, ReactionPoint, TimerAction};
use serde_json::{json, Value};

/// The congestion point of one output queue.
pub enum Cp {
    Qcn(QcnCp),
}

/// An 802.1Qau CP with its random stream and CNM settings.
pub struct QcnCp {
    pub cp: CongestionPoint,
    pub rng: Rng,
    pub cnm_size: u32,
    /// Also evaluate data frames the full queue drops.
    pub sample_dropped: bool,
    /// E-QCN frames: on equal |Fb| only the CP whose CPID the RP selected sends (seed 001 §4).
    pub eqcn_tie_break: bool,
}

impl Cp {
    /// A data frame `f` was offered to the CP's queue (`accepted` or dropped); `qlen` is the
    /// queue's length in bytes after the offer. Returns the feedback frame to send, if any.
    #[inline]
    pub fn on_data(&mut self, f: &Frame, accepted: bool, qlen: u64, cpid: u32, node: NodeId, now: Time) -> Option<Frame> {
        match self {
            Cp::Qcn(c) => {
                if !accepted && !c.sample_dropped {
                    return None;
                }
                // E-QCN frames: only the representative CP notifies (seed 001 Algorithm 2).
                let s = c.cp.on_arrival(f.size, qlen, &mut c.rng)?;
                let rep = match eqcn::read_tag(f) {
                    Some((fb_hat, sel)) => eqcn::is_representative(s.qntz_fb, cpid, fb_hat, sel, c.eqcn_tie_break),
                    None => true,
                };
                (s.qntz_fb > 0 && rep).then(|| Cnm::from_sample(&s, cpid).frame(f, node, c.cnm_size, now))
            }
        }
    }

    /// Qeq in bytes, for reports.
    pub fn qeq(&self) -> u64 {
        match self {
            Cp::Qcn(c) => c.cp.p.qeq,
        }
    }
}

/// The reaction point of one flow: the rate controller of its source's rate limiter.
pub enum Rp {
    Qcn(ReactionPoint),
    Eqcn(ReactionPoint, eqcn::EqcnRp),
}

impl Rp {
    #[inline]
    fn qcn(&self) -> &ReactionPoint {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r,
        }
    }
    #[inline]
    fn qcn_mut(&mut self) -> &mut ReactionPoint {
        match self {
            Rp::Qcn(r) | Rp::Eqcn(r, _) => r,
        }
    }

    /// The limiter's current rate (bit/s) when it limits, else None.
    #[inline]
    pub fn limit(&self) -> Option<f64> {
        let r = self.qcn();
        r.active.then_some(r.cr)
    }
    /// The current rate CR (line rate when no limiter is in place).
    #[inline]
    pub fn rate(&self) -> f64 {
        self.qcn().cr
    }
    /// The target rate TR.
    pub fn target(&self) -> f64 {
        self.qcn().tr
    }
    pub fn feedback_received(&self) -> u64 {
        self.qcn().cnms_received
    }

    /// Tag a data frame about to leave (E-QCN carries F̂b).
    #[inline]
    pub fn stamp(&self, f: &mut Frame) {
        if let Rp::Eqcn(_, e) = self {
            e.stamp(f);
        }
    }

    /// The limiter sent a frame of `len` bytes; `queue_empty` says whether frames still wait.
    #[inline]
    pub fn on_sent(&mut self, len: u32, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        self.qcn_mut().on_frame_sent(len, queue_empty, rng)
    }

    /// A feedback frame for this flow arrived at its source.
    pub fn on_feedback(&mut self, f: &Frame, now: Time) -> TimerAction {
        let Some(cnm) = Cnm::read(f) else { return TimerAction::None };
        match self {
            Rp::Qcn(r) => r.on_cnm(cnm.qntz_fb, now),
            Rp::Eqcn(r, e) => {
                let fb = e.on_cnm(cnm.qntz_fb, cnm.cpid);
                r.on_cnm(fb, now)
            }
        }
    }

    pub fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction {
        self.qcn_mut().on_timer(now, queue_empty, rng)
    }

    /// The protocol's own fields of the run's statistics (declared in `qcn::METRICS`).
    pub fn report(&self) -> Value {
        let r = self.qcn();
        let (proto, fb_hat) = match self {
            Rp::Qcn(_) => ("qcn", None),
            Rp::Eqcn(_, e) => ("eqcn", Some(e.fb_hat)),
        };
        json!({
            "protocol": proto, "fb_hat": fb_hat, "cr_final_bps": r.cr, "tr_final_bps": r.tr,
            "first_cnm_s": r.first_cnm.map(crate::core::time::to_secs),
            "cnms_received": r.cnms_received, "limiters_created": r.limiters_created,
        })
    }
}
