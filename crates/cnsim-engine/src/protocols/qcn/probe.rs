//! QCN probes, Roeck 2007's closed-loop QCN variants (Roeck 2007, "Simulated
//! protocols": QCN-P CP-directed probes, QCN-SP sub-path probes, QCN-PP path probes, QCN-HP
//! FbHat with CP-directed probes; docs/protocols.md §7). The seed names the variants and their
//! results, not their rules; this module is the reading cnsim implements (docs/modelling.md):
//!
//! - A rate-limited RP sends one probe frame at each of its rate-increase cycles (byte counter or
//!   timer), towards the flow's destination along the data path. CP-directed and sub-path probes
//!   need a target, the CPID of the last CNM; path probes do not.
//! - A CP evaluates a probe with its *current* Fb, signed (positive feedback included), quantized
//!   as a CNM's (|Fb|·63/Fbmax, at most 63), without moving its sampling state.
//! - **CP-directed** (-P): only the target CP looks at it; it answers with its Fb and consumes it.
//! - **Sub-path** (-SP): every CP from the RP up to the target stamps the lowest Fb seen (and its
//!   CPID); the target answers with that Fb and consumes it — in the name of the CP that stamped
//!   it when it is negative, in its own name otherwise.
//! - **Path** (-PP): every CP on the path stamps it; the destination host sends the stamp back.
//! - The answer is a feedback frame to the RP. Negative: a decrease as a CNM of that value.
//!   Positive: one rate-increase cycle (as if a byte-counter cycle had ended) — the "faster
//!   recovery due to positive feedback" the seed credits to closed loops. A positive answer from a
//!   CP other than the one that limits the flow (the last CNM's) is a false positive.

use crate::core::time::Time;
use crate::net::frame::{Dest, Frame, FrameKind, NodeId, NONE};
use crate::slots::Proto;

/// Which probes a QCN RP sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeMode {
    None,
    /// -P: to the CP named in the last CNM.
    Cp,
    /// -SP: RP → that CP, stamped on the way.
    SubPath,
    /// -PP: end to end, stamped by every CP, returned by the destination.
    Path,
}

impl ProbeMode {
    pub fn code(self) -> u32 {
        self as u32
    }
    fn from_code(c: u32) -> Self {
        match c {
            1 => ProbeMode::Cp,
            2 => ProbeMode::SubPath,
            3 => ProbeMode::Path,
            _ => ProbeMode::None,
        }
    }
}

/// No stamp yet (a quantized Fb is in −63…63).
const NO_STAMP: i32 = i32::MAX;

/// A probe frame's fields: tag = [mode, target CPID, lowest Fb stamped, its CPID].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub mode: ProbeMode,
    pub target: u32,
    /// The lowest (signed, quantized) Fb stamped so far and the CP that stamped it.
    pub worst: Option<(i32, u32)>,
}

/// A probe's answer: the signed quantized Fb and the CP it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub fb: i32,
    pub cpid: u32,
}

impl Probe {
    pub fn frame(self, src: NodeId, dst: Dest, flow: u32, size: u32, now: Time) -> Frame {
        let mut f = Frame::new(FrameKind::PathControl, size, src, dst, flow, now);
        f.proto = Proto::QcnProbe;
        let (fb, c) = self.worst.unwrap_or((NO_STAMP, NONE));
        f.tag = [self.mode.code(), self.target, fb as u32, c];
        f
    }
    pub fn read(f: &Frame) -> Option<Self> {
        (f.kind == FrameKind::PathControl && f.proto == Proto::QcnProbe).then(|| {
            let fb = f.tag[2] as i32;
            Probe { mode: ProbeMode::from_code(f.tag[0]), target: f.tag[1], worst: (fb != NO_STAMP).then_some((fb, f.tag[3])) }
        })
    }
    pub fn write(self, f: &mut Frame) {
        let (fb, c) = self.worst.unwrap_or((NO_STAMP, NONE));
        f.tag = [self.mode.code(), self.target, fb as u32, c];
    }

    fn stamp(&mut self, fb: i32, cpid: u32) {
        if self.worst.is_none_or(|(w, _)| fb < w) {
            self.worst = Some((fb, cpid));
        }
    }

    /// The probe reaches CP `cpid`, whose current signed quantized Fb is `fb`. Returns the answer
    /// when this CP answers (the probe is then consumed); otherwise the probe goes on (stamped).
    pub fn at_cp(&mut self, cpid: u32, fb: i32) -> Option<Answer> {
        match self.mode {
            ProbeMode::None => None,
            ProbeMode::Cp => (cpid == self.target).then_some(Answer { fb, cpid }),
            ProbeMode::SubPath => {
                self.stamp(fb, cpid);
                if cpid != self.target {
                    return None;
                }
                // The target answers: a congested CP on the sub-path speaks for itself, an
                // uncongested sub-path is reported by the target (with the lowest Fb).
                self.worst.map(|(fb, worst)| Answer { fb, cpid: if fb < 0 { worst } else { cpid } })
            }
            ProbeMode::Path => {
                self.stamp(fb, cpid);
                None
            }
        }
    }

    /// The probe reached its destination host: a path probe is sent back with its stamp (none if
    /// no CP was on the way); other probes end there unanswered.
    pub fn at_destination(&self) -> Option<Answer> {
        match self.mode {
            ProbeMode::Path => self.worst.map(|(fb, cpid)| Answer { fb, cpid }),
            _ => None,
        }
    }
}

impl Answer {
    /// The answer frame to the source of `probe`, sent from `node`.
    pub fn frame(self, probe: &Frame, node: NodeId, size: u32, now: Time) -> Frame {
        let mut f = Frame::new(FrameKind::Feedback, size, node, Dest::Node(probe.src), probe.flow, now);
        f.proto = Proto::QcnProbe;
        f.prio = probe.prio;
        f.tag = [self.fb as u32, self.cpid, 0, 0];
        f
    }
    pub fn read(f: &Frame) -> Option<Self> {
        (f.kind == FrameKind::Feedback && f.proto == Proto::QcnProbe).then(|| Answer { fb: f.tag[0] as i32, cpid: f.tag[1] })
    }
}

/// The RP's side of probing.
#[derive(Clone, Copy, Debug)]
pub struct Prober {
    pub mode: ProbeMode,
    /// The CP named in the last CNM (the one that limits the flow).
    pub target: u32,
    due: bool,
    pub sent: u64,
    pub positive: u64,
    pub negative: u64,
    pub false_positives: u64,
    /// Times a CNM named another CP than the previous one (CPID thrashing, Roeck 2007).
    pub cpid_changes: u64,
}

/// What the RP does with an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    None,
    /// Decrease as a CNM with this QntzFb.
    Decrease(u8),
    /// One rate-increase cycle.
    Increase,
}

impl Prober {
    pub fn new(mode: ProbeMode) -> Self {
        Prober { mode, target: NONE, due: false, sent: 0, positive: 0, negative: 0, false_positives: 0, cpid_changes: 0 }
    }
    /// A CNM from `cpid` arrived: it becomes the target.
    pub fn on_cnm(&mut self, cpid: u32) {
        if self.target != NONE && self.target != cpid {
            self.cpid_changes += 1;
        }
        self.target = cpid;
    }
    /// The limiter went away.
    pub fn on_release(&mut self) {
        self.target = NONE;
        self.due = false;
    }
    /// A rate-increase cycle ended: a probe is due when there is something to probe.
    pub fn on_cycle(&mut self) {
        self.due = match self.mode {
            ProbeMode::None => false,
            ProbeMode::Path => true,
            ProbeMode::Cp | ProbeMode::SubPath => self.target != NONE,
        };
    }
    /// A probe is due (`take` would return one).
    #[inline]
    pub fn is_due(&self) -> bool {
        self.due
    }
    /// The probe to send now, if one is due.
    pub fn take(&mut self) -> Option<Probe> {
        if !std::mem::take(&mut self.due) {
            return None;
        }
        self.sent += 1;
        Some(Probe { mode: self.mode, target: self.target, worst: None })
    }
    pub fn on_answer(&mut self, a: Answer, limited: bool) -> Reaction {
        if a.fb < 0 {
            self.negative += 1;
            self.target = a.cpid;
            Reaction::Decrease((-a.fb).min(63) as u8)
        } else if a.fb > 0 && limited {
            self.positive += 1;
            if a.cpid != self.target {
                self.false_positives += 1;
            }
            Reaction::Increase
        } else {
            Reaction::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flow's path S → CP 1 → CP 2 → CP 3 → D, with current Fb +5, −20, +10 at the three CPs.
    const PATH: [(u32, i32); 3] = [(1, 5), (2, -20), (3, 10)];

    /// Walk a probe along PATH: the CP that answers (and the answer), or the destination's.
    fn walk(mut p: Probe) -> (Option<u32>, Option<Answer>) {
        for (cpid, fb) in PATH {
            if let Some(a) = p.at_cp(cpid, fb) {
                return (Some(cpid), Some(a));
            }
        }
        (None, p.at_destination())
    }

    #[test]
    fn cp_directed_probe_is_answered_by_its_target_only() {
        // Target CP 3: CPs 1 and 2 let it pass; CP 3 answers with its own +10 (positive feedback).
        let p = Probe { mode: ProbeMode::Cp, target: 3, worst: None };
        assert_eq!(walk(p), (Some(3), Some(Answer { fb: 10, cpid: 3 })));
        // Target CP 1: answered at the first hop with +5.
        assert_eq!(walk(Probe { target: 1, ..p }), (Some(1), Some(Answer { fb: 5, cpid: 1 })));
        // A target off the path: the probe reaches the destination and ends unanswered.
        assert_eq!(walk(Probe { target: 9, ..p }), (None, None));
    }

    #[test]
    fn sub_path_probe_carries_the_worst_fb_up_to_its_target() {
        // Target CP 3: stamped +5 (CP 1), −20 (CP 2), +10 (CP 3) → answered at CP 3 with CP 2's −20.
        let p = Probe { mode: ProbeMode::SubPath, target: 3, worst: None };
        assert_eq!(walk(p), (Some(3), Some(Answer { fb: -20, cpid: 2 })));
        // Target CP 1: only CP 1 on the sub-path → +5 from CP 1.
        assert_eq!(walk(Probe { target: 1, ..p }), (Some(1), Some(Answer { fb: 5, cpid: 1 })));
        // An uncongested sub-path (+5, +3, +10): the lowest Fb +3, answered in the target's name.
        let mut q = p;
        assert_eq!(q.at_cp(1, 5), None);
        assert_eq!(q.at_cp(2, 3), None);
        assert_eq!(q.worst, Some((3, 2)));
        assert_eq!(q.at_cp(3, 10), Some(Answer { fb: 3, cpid: 3 }));
    }

    #[test]
    fn path_probe_is_stamped_by_every_cp_and_returned_by_the_destination() {
        let p = Probe { mode: ProbeMode::Path, target: NONE, worst: None };
        assert_eq!(walk(p), (None, Some(Answer { fb: -20, cpid: 2 })));
        // No CP on the way: nothing to return.
        assert_eq!(p.at_destination(), None);
    }

    #[test]
    fn frames_round_trip() {
        let p = Probe { mode: ProbeMode::SubPath, target: 4, worst: Some((-7, 2)) };
        let f = p.frame(3, Dest::Node(9), 5, 64, 0);
        assert_eq!((f.kind, f.size, f.dst, f.flow), (FrameKind::PathControl, 64, Dest::Node(9), 5));
        assert_eq!(Probe::read(&f), Some(p));
        let q = Probe { worst: None, ..p };
        assert_eq!(Probe::read(&q.frame(3, Dest::Node(9), 5, 64, 0)), Some(q));
        let a = Answer { fb: -63, cpid: 8 };
        let g = a.frame(&f, 7, 64, 1);
        assert_eq!((g.kind, g.dst, g.src, g.flow), (FrameKind::Feedback, Dest::Node(3), 7, 5));
        assert_eq!(Answer::read(&g), Some(a));
        assert_eq!(Answer::read(&f), None);
        assert_eq!(super::super::Cnm::read(&g), None); // never mistaken for a CNM
    }

    #[test]
    fn prober_sends_at_cycles_and_classifies_answers() {
        let mut r = Prober::new(ProbeMode::Cp);
        r.on_cycle();
        assert_eq!(r.take(), None); // no CNM yet: no target
        r.on_cnm(3);
        r.on_cnm(3);
        assert_eq!(r.cpid_changes, 0);
        r.on_cnm(2);
        assert_eq!(r.cpid_changes, 1);
        r.on_cycle();
        assert_eq!(r.take(), Some(Probe { mode: ProbeMode::Cp, target: 2, worst: None }));
        assert_eq!(r.take(), None); // one per cycle
        assert_eq!(r.on_answer(Answer { fb: 12, cpid: 2 }, true), Reaction::Increase);
        assert_eq!(r.on_answer(Answer { fb: 12, cpid: 5 }, true), Reaction::Increase);
        assert_eq!(r.false_positives, 1); // CP 5 is not the one limiting the flow
        assert_eq!(r.on_answer(Answer { fb: 12, cpid: 2 }, false), Reaction::None); // no limiter
        assert_eq!(r.on_answer(Answer { fb: -70, cpid: 5 }, true), Reaction::Decrease(63));
        assert_eq!(r.target, 5);
        assert_eq!((r.sent, r.positive, r.negative), (1, 2, 1));
        let mut p = Prober::new(ProbeMode::Path);
        p.on_cycle();
        assert!(p.take().is_some()); // path probes need no target
        p.on_release();
        assert_eq!(p.take(), None);
    }
}
