//! A generic timer service. A timer is a slot (owner-registered at build time); arming it sets a
//! deadline, cancelling clears it. Each slot keeps at most one event in the queue: re-arming to a
//! later deadline lets the queued event re-queue itself when it fires, and re-arming earlier bumps
//! the slot's generation so the older event is recognised as stale when it pops. A cancelled or
//! superseded timer therefore never fires, and re-arming later (the common case: QCN's timer moves
//! forward on every CNM) adds no event at all.

use super::time::Time;

pub type TimerId = u32;

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    deadline: Option<Time>,
    gen: u32,
    /// Time of the one live event queued for this slot.
    queued: Option<Time>,
}

/// What the engine must do after asking the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerStep {
    /// Nothing to queue.
    Idle,
    /// Queue an event for (id, gen) at this time.
    Queue(Time, u32),
    /// The timer is due now: run its owner.
    Fire,
}

#[derive(Default)]
pub struct Timers {
    slots: Vec<Slot>,
}

impl Timers {
    /// Bytes one timer takes (the memory budget counts them, `build/flow_bytes.rs`).
    pub const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

    /// A new, unarmed timer.
    pub fn add(&mut self) -> TimerId {
        self.slots.push(Slot::default());
        (self.slots.len() - 1) as TimerId
    }

    pub fn deadline(&self, id: TimerId) -> Option<Time> {
        self.slots[id as usize].deadline
    }

    /// Arm `id` to fire at `at` (any earlier arming is void).
    #[inline]
    pub fn arm(&mut self, id: TimerId, at: Time) -> TimerStep {
        let s = &mut self.slots[id as usize];
        s.deadline = Some(at);
        match s.queued {
            Some(q) if q <= at => TimerStep::Idle, // that event will re-queue itself for `at`
            _ => {
                s.gen = s.gen.wrapping_add(1); // voids a later queued event
                s.queued = Some(at);
                TimerStep::Queue(at, s.gen)
            }
        }
    }

    #[inline]
    pub fn cancel(&mut self, id: TimerId) {
        self.slots[id as usize].deadline = None;
    }

    /// The event (id, gen) popped at `now`.
    #[inline]
    pub fn on_event(&mut self, id: TimerId, gen: u32, now: Time) -> TimerStep {
        let s = &mut self.slots[id as usize];
        if s.gen != gen {
            return TimerStep::Idle; // superseded by an earlier deadline
        }
        s.queued = None;
        match s.deadline {
            None => TimerStep::Idle, // cancelled
            Some(t) if t > now => {
                s.queued = Some(t);
                TimerStep::Queue(t, gen)
            }
            Some(_) => {
                s.deadline = None;
                TimerStep::Fire
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::event::EventQueue;

    /// Drive the service with a real queue; returns the times at which the timer fired.
    fn run(script: &[(Time, Option<Time>)], until: Time) -> (Vec<Time>, usize) {
        let mut timers = Timers::default();
        let id = timers.add();
        let mut q: EventQueue<(TimerId, u32)> = EventQueue::default();
        let mut fired = vec![];
        let mut max_len = 0;
        let mut script = script.iter().peekable();
        loop {
            // Apply the script actions due before the next event.
            let next_ev = q.peek_time().unwrap_or(Time::MAX);
            if let Some(&&(t, action)) = script.peek() {
                if t <= next_ev {
                    script.next();
                    match action {
                        Some(at) => {
                            if let TimerStep::Queue(at, g) = timers.arm(id, at) {
                                q.push(at, (id, g));
                            }
                        }
                        None => timers.cancel(id),
                    }
                    max_len = max_len.max(q.len());
                    continue;
                }
            }
            let Some((now, (i, g))) = q.pop() else { break };
            if now > until {
                break;
            }
            match timers.on_event(i, g, now) {
                TimerStep::Queue(t, g) => q.push(t, (i, g)),
                TimerStep::Fire => fired.push(now),
                TimerStep::Idle => {}
            }
        }
        (fired, max_len)
    }

    #[test]
    fn rearm_later_moves_the_deadline_without_new_events() {
        // Armed for 10, re-armed at 5 for 20, at 8 for 30: fires once, at 30; one event queued.
        let (fired, max_len) = run(&[(0, Some(10)), (5, Some(20)), (8, Some(30))], 100);
        assert_eq!(fired, vec![30]);
        assert_eq!(max_len, 1);
    }

    #[test]
    fn rearm_earlier_never_fires_the_stale_one() {
        let (fired, _) = run(&[(0, Some(50)), (1, Some(10))], 100);
        assert_eq!(fired, vec![10]);
    }

    #[test]
    fn cancelled_never_fires() {
        assert_eq!(run(&[(0, Some(50)), (10, None)], 100).0, Vec::<Time>::new());
        // Cancelled then re-armed later than the queued event: fires only at the new deadline.
        assert_eq!(run(&[(0, Some(50)), (10, None), (20, Some(70))], 100).0, vec![70]);
        // Cancelled then re-armed earlier than the queued event.
        assert_eq!(run(&[(0, Some(50)), (10, None), (20, Some(30))], 100).0, vec![30]);
    }
}
