//! Events and the event queue (DESIGN.md §2): a binary min-heap keyed by (time, sequence), so
//! equal-time events run in insertion order and a run is a pure function of its inputs.

use crate::frame::FrameId;
use crate::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Small `Copy` events that refer to entities by index; no allocation per event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The traffic generator of a sender produces its next frame.
    AppTick { sender: u32 },
    /// A sender's rate limiter may release its next frame.
    Release { sender: u32 },
    /// A port has finished transmitting and has frames waiting.
    TxDone { port: u32 },
    /// A frame finishes arriving at the far end of `port`'s link.
    Arrive { port: u32, frame: FrameId },
    /// A reaction point's rate-increase timer; stale when `gen` no longer matches.
    RpTimer { flow: u32, gen: u32 },
    /// Periodic recording of the series.
    Record,
    /// Start of the measurement window: counters are snapshotted.
    WindowStart,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    time: Time,
    seq: u64,
    ev: Event,
}
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.time == o.time && self.seq == o.seq
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) first.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.time, o.seq).cmp(&(self.time, self.seq))
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    seq: u64,
}

impl EventQueue {
    #[inline]
    pub fn push(&mut self, time: Time, ev: Event) {
        self.seq += 1;
        self.heap.push(Entry { time, seq: self.seq, ev });
    }
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time)
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.heap.pop().map(|e| (e.time, e.ev))
    }
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn events_stay_compact() {
        // Hot-path size budget: a u32 pair plus the tag, and a 32-byte heap entry.
        assert!(std::mem::size_of::<Event>() <= 12);
        assert!(std::mem::size_of::<Entry>() <= 32);
    }

    #[test]
    fn orders_by_time_then_insertion() {
        let mut q = EventQueue::default();
        q.push(5, Event::Record);
        q.push(3, Event::TxDone { port: 1 });
        q.push(5, Event::WindowStart);
        q.push(3, Event::TxDone { port: 2 });
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![(3, Event::TxDone { port: 1 }), (3, Event::TxDone { port: 2 }), (5, Event::Record), (5, Event::WindowStart)]
        );
    }
}

impl EventQueue {
    /// Visit every pending event (for accounting; not on the hot path).
    pub fn for_each(&self, mut f: impl FnMut(Event)) {
        self.heap.iter().for_each(|e| f(e.ev));
    }
}
