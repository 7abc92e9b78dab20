//! Queue disciplines of an output port (docs/protocols.md §1): a drop-tail FIFO in frames or bytes, or
//! strict priority over the eight 802.1p classes, each class a drop-tail FIFO of the port's
//! capacity. The transmitter asks for the next frame with the set of paused classes: a FIFO whose
//! head frame is of a paused class holds (head-of-line blocking, as with plain PAUSE on one
//! queue); strict priority serves the highest class that is neither empty nor paused.

use super::frame::FrameId;
use crate::units::Amount;
use crate::core::ring::Ring;

#[derive(Clone, Copy, Debug)]
struct Entry {
    id: FrameId,
    size: u32,
    prio: u8,
}

/// Entries a FIFO's ring holds before it first grows.
const PRESIZED: u64 = 16;

/// One drop-tail FIFO.
#[derive(Debug)]
pub struct Fifo {
    q: Ring<Entry>,
    bytes: u64,
}

impl Fifo {
    fn new(capacity: Amount, frame: u64) -> Self {
        Fifo { q: Ring::with_capacity(Self::presized(capacity, frame)), bytes: 0 }
    }
    /// Entries pre-sized for the usual case, never by an input that could be huge: a few frames, as
    /// most of a large fabric's queues never hold more; the ring doubles as frames wait (at most to
    /// twice the frames queued, each frame counted by the frame guard).
    fn presized(capacity: Amount, frame: u64) -> usize {
        (capacity.bytes(frame) / frame.max(1)).min(PRESIZED) as usize
    }
    #[inline]
    fn fits(&self, cap: Amount, size: u32) -> bool {
        match cap {
            Amount::Frames(n) => (self.q.len() as u64) < n,
            Amount::Bytes(b) => self.bytes + size as u64 <= b,
        }
    }
    #[inline]
    fn push(&mut self, e: Entry) {
        self.bytes += e.size as u64;
        self.q.push_back(e);
    }
    #[inline]
    fn pop(&mut self) -> Option<Entry> {
        let e = self.q.pop_front()?;
        self.bytes -= e.size as u64;
        Some(e)
    }
}

/// Which discipline a port runs (scenario key `queue.discipline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discipline {
    Fifo,
    Prio,
}

#[derive(Debug)]
pub struct Qdisc {
    pub capacity: Amount,
    /// The FIFO, or class 0 under strict priority (kept inline: the common case is one queue).
    fifo: Fifo,
    /// Classes 1–7 under strict priority.
    higher: Option<Box<[Fifo; 7]>>,
    frames: usize,
    bytes: u64,
}

impl Qdisc {
    pub fn new(d: Discipline, capacity: Amount, frame: u64) -> Self {
        let higher = (d == Discipline::Prio).then(|| Box::new(std::array::from_fn(|_| Fifo::new(capacity, frame))));
        Qdisc { capacity, fifo: Fifo::new(capacity, frame), higher, frames: 0, bytes: 0 }
    }
    /// Bytes a queue of this discipline and capacity allocates when it is made (the memory budget's
    /// estimate, before it is made).
    pub fn heap_bytes(d: Discipline, capacity: Amount, frame: u64) -> usize {
        let ring = Fifo::presized(capacity, frame).max(4).next_power_of_two() * std::mem::size_of::<Entry>();
        if d == Discipline::Prio { 8 * ring + 7 * std::mem::size_of::<Fifo>() } else { ring }
    }
    pub fn discipline(&self) -> Discipline {
        if self.higher.is_some() { Discipline::Prio } else { Discipline::Fifo }
    }
    /// The queue that holds frames of priority `prio`.
    #[inline]
    fn class(&self, prio: u8) -> &Fifo {
        match &self.higher {
            Some(h) if prio & 7 != 0 => &h[(prio as usize & 7) - 1],
            _ => &self.fifo,
        }
    }
    #[inline]
    fn class_mut(&mut self, c: usize) -> &mut Fifo {
        match &mut self.higher {
            Some(h) if c != 0 => &mut h[c - 1],
            _ => &mut self.fifo,
        }
    }
    /// Would a frame of `size` bytes and priority `prio` be accepted?
    #[inline]
    pub fn fits(&self, prio: u8, size: u32) -> bool {
        self.class(prio).fits(self.capacity, size)
    }
    /// Room left in the queue of class `prio`, in frames of `size` bytes.
    #[inline]
    pub fn room(&self, prio: u8, size: u32) -> u64 {
        let c = self.class(prio);
        match self.capacity {
            Amount::Frames(n) => n.saturating_sub(c.q.len() as u64),
            Amount::Bytes(b) => b.saturating_sub(c.bytes) / size.max(1) as u64,
        }
    }
    /// Append (the caller checked `fits`).
    #[inline]
    pub fn push(&mut self, id: FrameId, prio: u8, size: u32) {
        let c = if self.higher.is_some() { prio as usize & 7 } else { 0 };
        self.class_mut(c).push(Entry { id, size, prio });
        self.frames += 1;
        self.bytes += size as u64;
    }
    /// The next frame to send, given the paused classes (bit p = priority p paused).
    #[inline]
    pub fn pop(&mut self, held: u8) -> Option<(FrameId, u32)> {
        let e = match &mut self.higher {
            None => {
                let head = self.fifo.q.front()?;
                if held & (1 << head.prio) != 0 {
                    return None; // head-of-line blocked
                }
                self.fifo.pop()?
            }
            Some(h) => {
                let c = (1..8).rev().find(|&c| held & (1 << c) == 0 && !h[c - 1].q.is_empty());
                match c {
                    Some(c) => h[c - 1].pop()?,
                    None if held & 1 == 0 => self.fifo.pop()?,
                    None => return None,
                }
            }
        };
        self.frames -= 1;
        self.bytes -= e.size as u64;
        Some((e.id, e.size))
    }
    pub fn is_empty(&self) -> bool {
        self.frames == 0
    }
    /// Frames and bytes waiting, all classes.
    #[inline]
    pub fn len(&self) -> usize {
        self.frames
    }
    #[inline]
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    /// Bytes waiting in the queue that serves priority `prio` (the queue a CP watches).
    #[inline]
    pub fn class_bytes(&self, prio: u8) -> u64 {
        self.class(prio).bytes
    }
    /// Frames waiting in the queue that serves priority `prio`.
    #[inline]
    pub fn class_len(&self, prio: u8) -> u64 {
        self.class(prio).q.len() as u64
    }
    /// Every waiting frame (accounting, not the hot path).
    pub fn ids(&self) -> impl Iterator<Item = FrameId> + '_ {
        let higher = self.higher.iter().flat_map(|h| h.iter());
        std::iter::once(&self.fifo).chain(higher).flat_map(|c| c.q.iter().map(|e| e.id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_in_frames_and_bytes() {
        let mut q = Qdisc::new(Discipline::Fifo, Amount::Frames(2), 1500);
        assert!(q.fits(0, 1500));
        q.push(1, 0, 1500);
        q.push(2, 5, 64);
        assert!(!q.fits(0, 64));
        assert_eq!((q.len(), q.bytes()), (2, 1564));
        assert_eq!(q.pop(0), Some((1, 1500)));
        let mut q = Qdisc::new(Discipline::Fifo, Amount::Bytes(3000), 1500);
        q.push(1, 0, 1500);
        assert!(q.fits(0, 1500));
        assert!(!q.fits(0, 1501));
        assert_eq!(q.room(0, 1000), 1);
    }

    #[test]
    fn fifo_holds_behind_a_held_head() {
        let mut q = Qdisc::new(Discipline::Fifo, Amount::Frames(10), 1500);
        q.push(1, 3, 100);
        q.push(2, 1, 100);
        assert_eq!(q.pop(1 << 3), None); // class 3 paused: frame 2 (class 1) is stuck behind it
        assert_eq!(q.pop(1 << 1), Some((1, 100)));
        assert_eq!(q.pop(1 << 3), Some((2, 100)));
    }

    #[test]
    fn strict_priority_skips_held_classes() {
        let mut q = Qdisc::new(Discipline::Prio, Amount::Frames(1), 1500);
        q.push(1, 3, 100);
        assert!(!q.fits(3, 100)); // per-class capacity
        assert!(q.fits(1, 100));
        q.push(2, 1, 100);
        q.push(3, 6, 100);
        assert_eq!(q.pop(0), Some((3, 100))); // highest class first
        assert_eq!(q.pop(1 << 3), Some((2, 100))); // class 3 paused: class 1 goes
        assert_eq!(q.pop(1 << 3), None);
        assert_eq!(q.pop(0), Some((1, 100)));
        assert!(q.is_empty());
    }
}
