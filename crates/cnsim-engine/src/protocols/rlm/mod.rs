//! RLM, receiver-driven layered multicast (McCanne, Jacobson & Vetterli, SIGCOMM '96; docs/protocols.md
//! §8), the baseline of Nakauchi & Kobayashi 2006 §3.3 (Figs. 8–9, with "Join-timer = 3.0, Detection-timer = 4.0,
//! Loss threshold = 0.1"). Cumulative layers: level k = layers 1..k joined.
//!
//! States (RLM §4, Fig. 5): steady S, hysteresis H, measurement M, drop D.
//! - S: when the join timer of layer k+1 expires, join it (a *join experiment*) → M, for a
//!   detection time. Congestion (loss rate > threshold) → H for a detection time.
//! - H: congestion again → drop the top layer → D; the detection time passes quietly → S.
//! - M: congestion → the experiment failed: drop layer k+1, back the join timer of that layer off
//!   (× α), update the detection-time estimate with the time from the join to the congestion, → D;
//!   the detection time passes quietly → the join succeeded → S.
//! - D: losses are ignored (the queue drains) for a detection time (the relaxation period) → S.
//!
//! Detection-time estimate: TD ← (1−g1)·TD + g1·d, TDvar ← (1−g2)·TDvar + g2·|d − TD| with
//! g1 = g2 = 0.25; the detection timer is TD + 2·TDvar [assumed k = 2], starting at the
//! configured detection timer (TDvar 0).
//!
//! Where the sources leave it open (docs/modelling.md): loss is measured over fixed ticks
//! (`tick`, default 0.5 s [assumed]); join timers start at the configured join timer for every
//! layer, are backed off × α (2) on a failed experiment up to `max_join_timer` (600 s, ns-2's
//! `rlm_param(max)`), and relaxed × β (0.75), never below the initial value, each time an
//! experiment on that layer succeeds or its join timer is re-armed; no random jitter.
//!
//! Shared learning (RLM §4.3): a receiver announces its join experiments on the session's control
//! group ([`Action::Join`] carries the layer; the engine delivers announcements to the session's
//! other receivers via [`Rlm::on_peer_experiment`]). While a peer's experiment on a layer above
//! this receiver's level runs, this receiver does not start its own experiment on that layer, and congestion it
//! sees is attributed to the peer: it backs off that layer's join timer instead of dropping.

pub mod slot;
pub mod spec;

use crate::core::time::{to_secs, Time, PS_PER_S};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Steady,
    Hysteresis,
    Measurement,
    Drop,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RlmParams {
    pub layers: usize,
    /// Initial join timer, s (Nakauchi & Kobayashi 2006: 3.0).
    pub join_timer: f64,
    pub max_join_timer: f64,
    /// Initial detection timer, s (Nakauchi & Kobayashi 2006: 4.0).
    pub detection_timer: f64,
    /// Loss rate above which a tick is congested (Nakauchi & Kobayashi 2006: 0.1).
    pub loss_threshold: f64,
    pub alpha: f64,
    pub beta: f64,
    pub g1: f64,
    pub g2: f64,
    /// The loss measurement period: one evaluation per tick.
    pub tick: Time,
}

/// What the receiver does: join or leave a layer (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    None,
    Join(usize),
    Leave(usize),
}

#[derive(Clone, Debug)]
pub struct Rlm {
    pub p: RlmParams,
    pub level: usize,
    pub state: State,
    /// Join timer per layer, s (index layer − 1).
    pub tj: Vec<f64>,
    pub td: f64,
    pub td_var: f64,
    /// When the join timer of the next layer expires.
    pub join_at: Time,
    /// End of the current H, M or D period.
    pub until: Time,
    exp_start: Time,
    /// A peer's experiment: (layer, until).
    peer: Option<(usize, Time)>,
    pub joins: u64,
    pub failed: u64,
    pub drops: u64,
}

fn secs(s: f64) -> Time {
    (s * PS_PER_S as f64) as Time
}

impl Rlm {
    pub fn new(p: RlmParams, level: usize, now: Time) -> Self {
        let level = level.clamp(1, p.layers);
        let tj = vec![p.join_timer; p.layers];
        let td = p.detection_timer;
        let join_at = now + secs(tj[level.min(p.layers - 1)]);
        Rlm { p, level, state: State::Steady, tj, td, td_var: 0.0, join_at, until: 0, exp_start: 0, peer: None, joins: 0, failed: 0, drops: 0 }
    }

    /// The detection timer, s.
    pub fn detection(&self) -> f64 {
        self.td + 2.0 * self.td_var
    }

    /// A failed experiment took `d` seconds from the join to the congestion.
    pub fn detection_sample(&mut self, d: f64) {
        self.td_var = (1.0 - self.p.g2) * self.td_var + self.p.g2 * (d - self.td).abs();
        self.td = (1.0 - self.p.g1) * self.td + self.p.g1 * d;
    }

    fn arm_join(&mut self, now: Time) {
        if self.level < self.p.layers {
            let k = self.level; // index of layer level + 1
            self.tj[k] = (self.tj[k] * self.p.beta).max(self.p.join_timer);
            self.join_at = now + secs(self.tj[k]);
        }
    }

    fn peer_above(&self, now: Time) -> Option<usize> {
        self.peer.filter(|&(l, until)| now < until && l > self.level).map(|(l, _)| l)
    }

    /// A peer announced a join experiment on `layer`.
    pub fn on_peer_experiment(&mut self, layer: usize, now: Time) {
        self.peer = Some((layer, now + secs(self.detection())));
    }

    /// One tick: `loss` = the loss rate of the joined layers over the tick.
    pub fn on_tick(&mut self, now: Time, loss: f64) -> Action {
        let congested = loss > self.p.loss_threshold;
        match self.state {
            State::Steady => {
                if congested {
                    if let Some(l) = self.peer_above(now) {
                        // Shared learning: the peer's experiment on layer l causes this; learn from it.
                        self.tj[l - 1] = (self.tj[l - 1] * self.p.alpha).min(self.p.max_join_timer);
                        return Action::None;
                    }
                    self.state = State::Hysteresis;
                    self.until = now + secs(self.detection());
                    return Action::None;
                }
                if now >= self.join_at && self.level < self.p.layers {
                    if self.peer_above(now).is_some_and(|l| l <= self.level + 1) {
                        return Action::None; // wait for the peer's experiment
                    }
                    self.level += 1;
                    self.joins += 1;
                    self.state = State::Measurement;
                    self.exp_start = now;
                    self.until = now + secs(self.detection());
                    return Action::Join(self.level);
                }
                Action::None
            }
            State::Hysteresis => {
                if congested {
                    return self.drop(now);
                }
                if now >= self.until {
                    self.state = State::Steady;
                }
                Action::None
            }
            State::Measurement => {
                if congested {
                    let k = self.level;
                    self.failed += 1;
                    self.tj[k - 1] = (self.tj[k - 1] * self.p.alpha).min(self.p.max_join_timer);
                    self.detection_sample(to_secs(now - self.exp_start));
                    return self.drop(now);
                }
                if now >= self.until {
                    self.state = State::Steady;
                    self.arm_join(now);
                }
                Action::None
            }
            State::Drop => {
                if now >= self.until {
                    self.state = State::Steady;
                    self.arm_join(now);
                }
                Action::None
            }
        }
    }

    fn drop(&mut self, now: Time) -> Action {
        self.state = State::Drop;
        self.until = now + secs(self.detection());
        if self.level <= 1 {
            return Action::None;
        }
        let l = self.level;
        self.level -= 1;
        self.drops += 1;
        Action::Leave(l)
    }
}


/// RLM's registration (`slots::register`): its name; it declares no metric of its own.
pub const PROTOCOL: crate::slots::register::Protocol = crate::slots::register::Protocol::named("rlm");

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> RlmParams {
        RlmParams { layers: 10, join_timer: 3.0, max_join_timer: 600.0, detection_timer: 4.0, loss_threshold: 0.1, alpha: 2.0, beta: 0.75, g1: 0.25, g2: 0.25, tick: PS_PER_S / 2 }
    }
    const S: Time = PS_PER_S;

    #[test]
    fn joins_after_the_join_timer_and_keeps_a_quiet_layer() {
        let mut r = Rlm::new(p(), 1, 0);
        assert_eq!(r.on_tick(2 * S, 0.0), Action::None);
        assert_eq!(r.on_tick(3 * S, 0.0), Action::Join(2));
        assert_eq!(r.state, State::Measurement);
        assert_eq!(r.on_tick(5 * S, 0.05), Action::None); // below the threshold
        assert_eq!(r.on_tick(7 * S, 0.0), Action::None); // 4 s of detection time passed
        assert_eq!(r.state, State::Steady);
        // Next layer's timer: relaxed but floored at 3 s.
        assert_eq!(r.join_at, 10 * S);
        assert_eq!(r.on_tick(10 * S, 0.0), Action::Join(3));
    }

    #[test]
    fn failed_experiment_backs_off_and_learns_the_detection_time() {
        let mut r = Rlm::new(p(), 1, 0);
        assert_eq!(r.on_tick(3 * S, 0.0), Action::Join(2));
        assert_eq!(r.on_tick(4 * S, 0.5), Action::Leave(2)); // congestion 1 s after the join
        assert_eq!((r.state, r.level, r.failed), (State::Drop, 1, 1));
        assert_eq!(r.tj[1], 6.0); // × α
        // TDvar = 0.25·|1 − 4| = 0.75; TD = 0.75·4 + 0.25·1 = 3.25; timer = 3.25 + 1.5 = 4.75 s.
        assert!((r.td - 3.25).abs() < 1e-12 && (r.td_var - 0.75).abs() < 1e-12);
        assert!((r.detection() - 4.75).abs() < 1e-12);
        assert_eq!(r.until, 4 * S + 4_750_000_000_000);
        // Losses are ignored in D; then S, with layer 2's timer relaxed: 6 × 0.75 = 4.5 s.
        assert_eq!(r.on_tick(5 * S, 1.0), Action::None);
        assert_eq!(r.on_tick(9 * S, 0.0), Action::None);
        assert_eq!(r.state, State::Steady);
        assert!((r.tj[1] - 4.5).abs() < 1e-12);
        assert_eq!(r.join_at, 9 * S + 4_500_000_000_000);
        // Repeated failures saturate at the maximum.
        for _ in 0..20 {
            r.tj[1] = (r.tj[1] * 2.0).min(600.0);
        }
        assert_eq!(r.tj[1], 600.0);
    }

    #[test]
    fn steady_congestion_drops_after_hysteresis() {
        let mut r = Rlm::new(p(), 5, 0);
        assert_eq!(r.on_tick(S, 0.3), Action::None);
        assert_eq!(r.state, State::Hysteresis);
        assert_eq!(r.on_tick(2 * S, 0.3), Action::Leave(5));
        assert_eq!((r.level, r.drops), (4, 1));
        // A single lossy tick followed by quiet ones: back to S without a drop.
        let mut r = Rlm::new(p(), 5, 0);
        r.on_tick(S, 0.3);
        assert_eq!(r.on_tick(2 * S, 0.0), Action::None);
        assert_eq!(r.on_tick(5 * S, 0.0), Action::None);
        assert_eq!((r.state, r.level), (State::Steady, 5));
    }

    #[test]
    fn shared_learning_defers_and_attributes_congestion_to_the_peer() {
        let mut r = Rlm::new(p(), 2, 0);
        r.on_peer_experiment(4, S); // a peer tries layer 4 until S + 4 s
        assert_eq!(r.on_tick(2 * S, 0.5), Action::None); // not our fault
        assert_eq!((r.state, r.level), (State::Steady, 2));
        assert_eq!(r.tj[3], 6.0); // layer 4 backed off
        // Our own join of layer 3 waits for the peer's experiment on layer 4 ≤ 3? No: 4 > 3, allowed.
        assert_eq!(r.on_tick(3 * S, 0.0), Action::Join(3));
        // A peer experiment on the very layer we want defers our join.
        let mut r = Rlm::new(p(), 2, 0);
        r.on_peer_experiment(3, 2 * S);
        assert_eq!(r.on_tick(3 * S, 0.0), Action::None);
        assert_eq!(r.on_tick(6 * S + 1, 0.0), Action::Join(3)); // after the peer's 4 s
    }
}
