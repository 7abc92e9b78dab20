//! The event queue (DESIGN.md §2): a binary min-heap keyed by (time, sequence number). Events with
//! equal times run in the order they were scheduled (FIFO), so a run is a pure function of
//! (scenario, seed, version). Generic over the event type: the core names no event of any protocol.

use super::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: Time,
    seq: u64,
    ev: E,
}
impl<E> Entry<E> {
    /// The total order of events: time, then scheduling order.
    #[inline(always)]
    fn key(&self) -> u128 {
        (self.time as u128) << 64 | self.seq as u128
    }
}
impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    #[inline(always)]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
    #[inline(always)]
    fn le(&self, o: &Self) -> bool {
        o.key() <= self.key()
    }
    #[inline(always)]
    fn lt(&self, o: &Self) -> bool {
        o.key() < self.key()
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) first.
    // The key is compared as one u128 so that the heap's "which child" choice compiles without a
    // branch on equal times (callgrind: the tuple comparison's branches mispredicted often).
    #[inline(always)]
    fn cmp(&self, o: &Self) -> Ordering {
        o.key().cmp(&self.key())
    }
}

pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), seq: 0 }
    }
}

impl<E: Copy> EventQueue<E> {
    #[inline]
    pub fn push(&mut self, time: Time, ev: E) {
        self.seq += 1;
        self.heap.push(Entry { time, seq: self.seq, ev });
    }
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time)
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.heap.pop().map(|e| (e.time, e.ev))
    }
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
    /// Visit every pending event (for accounting; not on the hot path).
    pub fn for_each(&self, mut f: impl FnMut(E)) {
        self.heap.iter().for_each(|e| f(e.ev));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_run_in_scheduling_order() {
        let mut q = EventQueue::default();
        q.push(5, 'a');
        q.push(3, 'b');
        q.push(5, 'c');
        q.push(3, 'd');
        q.push(5, 'e');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(3, 'b'), (3, 'd'), (5, 'a'), (5, 'c'), (5, 'e')]);
    }

    #[test]
    fn entries_stay_compact() {
        // Hot-path budget: a 12-byte event makes a 32-byte heap entry.
        assert!(std::mem::size_of::<Entry<[u32; 3]>>() <= 32);
    }
}
